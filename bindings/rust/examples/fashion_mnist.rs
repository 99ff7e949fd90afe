// fashion_mnist.rs - trains an MLP (784-256-128-10, ReLU) on Fashion-MNIST with Adam and prints one line
// per epoch (loss, train/test accuracy, seconds). Reads the gzip'd IDX files of Debian's
// dataset-fashion-mnist by spawning `gzip -dc` (no crates).
// Run: cargo run --release --example fashion_mnist [epochs]   (data dir: $FASHION_MNIST_DIR or
// /usr/share/datasets/fashion-mnist)
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ctensor::nn::{cross_entropy, Linear, Module, ReLU, Sequential};
use ctensor::optim::Adam;
use ctensor::{no_grad, DType, Device, Error, Generator, Reduction, Result, Tensor};

const BATCH: i64 = 128;

fn gunzip(path: &Path) -> std::result::Result<Vec<u8>, String> {
    let out = Command::new("gzip")
        .arg("-dc")
        .arg(path)
        .output()
        .map_err(|e| format!("cannot run gzip for {}: {e}", path.display()))?;
    if !out.status.success() {
        return Err(format!("gzip -dc {} failed: {}", path.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(out.stdout)
}

fn be_u32(bytes: &[u8], at: usize) -> usize {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
}

/// IDX images (magic 2051) as a float32 `[n, rows*cols]` tensor scaled to [0, 1].
fn load_images(path: &Path) -> std::result::Result<Tensor, String> {
    let raw = gunzip(path)?;
    if raw.len() < 16 || be_u32(&raw, 0) != 2051 {
        return Err(format!("{}: not an IDX image file", path.display()));
    }
    let (n, rows, cols) = (be_u32(&raw, 4), be_u32(&raw, 8), be_u32(&raw, 12));
    let pixels = &raw[16..];
    if pixels.len() != n * rows * cols {
        return Err(format!("{}: {} pixel bytes for {n} images of {rows}x{cols}", path.display(), pixels.len()));
    }
    let data: Vec<f32> = pixels.iter().map(|&p| p as f32 / 255.0).collect();
    Tensor::from_vec(data, &[n as i64, (rows * cols) as i64]).map_err(|e| e.to_string())
}

/// IDX labels (magic 2049) as an int64 `[n]` tensor.
fn load_labels(path: &Path) -> std::result::Result<Tensor, String> {
    let raw = gunzip(path)?;
    if raw.len() < 8 || be_u32(&raw, 0) != 2049 || raw.len() != 8 + be_u32(&raw, 4) {
        return Err(format!("{}: not an IDX label file", path.display()));
    }
    let data: Vec<i64> = raw[8..].iter().map(|&l| l as i64).collect();
    let n = data.len() as i64;
    Tensor::from_vec(data, &[n]).map_err(|e| e.to_string())
}

/// Number of rows of `logits` whose argmax equals `labels`.
fn correct(logits: &Tensor, labels: &Tensor) -> Result<i64> {
    logits.argmax(1, false)?.eq(labels)?.sum_all()?.item_i64()
}

/// Test-set accuracy in percent (no graph recorded).
fn evaluate(model: &Sequential, images: &Tensor, labels: &Tensor) -> Result<f64> {
    let _guard = no_grad();
    let n = images.size()[0];
    let mut right = 0;
    for start in (0..n).step_by(1000) {
        let len = 1000.min(n - start);
        right += correct(&model.forward(&images.narrow(0, start, len)?)?, &labels.narrow(0, start, len)?)?;
    }
    Ok(100.0 * right as f64 / n as f64)
}

/// One pass over the shuffled training set; returns (mean loss, train accuracy %).
fn train_epoch(
    model: &Sequential,
    opt: &mut ctensor::optim::Optimizer,
    images: &Tensor,
    labels: &Tensor,
    gen: &mut Generator,
) -> Result<(f64, f64)> {
    let n = images.size()[0];
    let order = Tensor::randperm(n, Device::Cpu, Some(gen))?;
    let (mut loss_sum, mut right, mut batches) = (0.0, 0, 0);
    for start in (0..n).step_by(BATCH as usize) {
        let idx = order.narrow(0, start, BATCH.min(n - start))?;
        let (x, y) = (images.index_select(0, &idx)?, labels.index_select(0, &idx)?);
        let logits = model.forward(&x)?;
        let loss = cross_entropy(&logits, &y, Reduction::Mean)?;
        opt.zero_grad()?;
        loss.backward()?;
        opt.step()?;
        loss_sum += loss.item()?;
        right += correct(&logits.detach()?, &y)?;
        batches += 1;
    }
    Ok((loss_sum / batches as f64, 100.0 * right as f64 / n as f64))
}

fn run(dir: &Path, epochs: usize) -> std::result::Result<f64, String> {
    let load = |name: &str| dir.join(name);
    let train_x = load_images(&load("train-images-idx3-ubyte.gz"))?;
    let train_y = load_labels(&load("train-labels-idx1-ubyte.gz"))?;
    let test_x = load_images(&load("t10k-images-idx3-ubyte.gz"))?;
    let test_y = load_labels(&load("t10k-labels-idx1-ubyte.gz"))?;
    println!(
        "Fashion-MNIST: {} training and {} test images; ctensor {}",
        train_y.numel(),
        test_y.numel(),
        ctensor::version_string()
    );

    let mut gen = Generator::new(0).map_err(|e| e.to_string())?;
    let result = (|| -> Result<f64> {
        let model = Sequential::new()
            .add(Linear::with_options(784, 256, true, DType::Float32, Some(&mut gen))?)
            .add(ReLU)
            .add(Linear::with_options(256, 128, true, DType::Float32, Some(&mut gen))?)
            .add(ReLU)
            .add(Linear::with_options(128, 10, true, DType::Float32, Some(&mut gen))?);
        let mut opt = Adam::new(1e-3).build(&model.parameters())?;
        let mut test_acc = 0.0;
        for epoch in 1..=epochs {
            let started = Instant::now();
            let (loss, train_acc) = train_epoch(&model, &mut opt, &train_x, &train_y, &mut gen)?;
            test_acc = evaluate(&model, &test_x, &test_y)?;
            println!(
                "epoch {epoch}/{epochs}  loss {loss:.4}  train acc {train_acc:.2}%  test acc {test_acc:.2}%  {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        Ok(test_acc)
    })();
    result.map_err(|e: Error| e.to_string())
}

fn main() {
    let epochs = std::env::args().nth(1).map_or(5, |a| a.parse().expect("epochs must be a number"));
    let dir = std::env::var_os("FASHION_MNIST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/datasets/fashion-mnist"));
    match run(&dir, epochs) {
        Ok(acc) if acc >= 84.0 => println!("final test accuracy {acc:.2}% (>= 84%)"),
        Ok(acc) => {
            eprintln!("final test accuracy {acc:.2}% is below 84%");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("fashion_mnist: {e}");
            std::process::exit(1);
        }
    }
}

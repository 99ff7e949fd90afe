// cross_language.rs - Rust's part of tests/cross_language/run.sh. The model everywhere: Linear(5, 8), ReLU,
// Linear(8, 3), saved as safetensors with the names 0.weight, 0.bias, 2.weight, 2.bias plus the batch `input` and
// the trainer's `logits` on it. `check FILE` recomputes the logits from the file and compares them (max |diff|
// <= 1e-6); `train FILE` trains the model in Rust (Adam, 100 steps on a fixed random batch) and saves it.
use ctensor::nn::{cross_entropy, Linear, Module};
use ctensor::optim::Adam;
use ctensor::safetensors::{load_file, save_file};
use ctensor::{no_grad, DType, Device, Error, Generator, Reduction, Result, Tensor};

fn forward(x: &Tensor, w0: &Tensor, b0: &Tensor, w2: &Tensor, b2: &Tensor) -> Result<Tensor> {
    x.linear(w0, Some(b0))?.relu()?.linear(w2, Some(b2))
}

fn check(path: &str) -> Result<()> {
    let file = load_file(path, Device::Cpu)?;
    let get = |name: &str| file.get(name).ok_or_else(|| Error::InvalidArgument(format!("{path}: no tensor {name}")));
    let logits = forward(get("input")?, get("0.weight")?, get("0.bias")?, get("2.weight")?, get("2.bias")?)?;
    let diff = logits.sub(get("logits")?)?.abs()?.to_vec::<f32>()?.into_iter().fold(0.0f32, f32::max);
    let by = file.metadata.iter().find(|(k, _)| k == "trained_by").map_or("?", |(_, v)| v.as_str());
    println!("rust: logits of the model trained in {by}: max |diff| = {diff:e} over {} values", logits.numel());
    if diff > 1e-6 {
        return Err(Error::Internal(format!("max |diff| {diff} > 1e-6")));
    }
    Ok(())
}

fn train(path: &str) -> Result<()> {
    let mut gen = Generator::new(11)?;
    let l0 = Linear::with_options(5, 8, true, DType::Float32, Some(&mut gen))?;
    let l2 = Linear::with_options(8, 3, true, DType::Float32, Some(&mut gen))?;
    let x = Tensor::randn(&[16, 5], DType::Float32, Some(&mut gen))?;
    let y = Tensor::randint(0, 3, &[16], DType::Int64, Some(&mut gen))?;
    let params: Vec<Tensor> = l0.parameters().into_iter().chain(l2.parameters()).collect();
    let mut opt = Adam::new(0.05).build(&params)?;
    for _ in 0..100 {
        let loss = cross_entropy(&l2.forward(&l0.forward(&x)?.relu()?)?, &y, Reduction::Mean)?;
        opt.zero_grad()?;
        loss.backward()?;
        opt.step()?;
    }
    let b0 = l0.bias.as_ref().expect("bias");
    let b2 = l2.bias.as_ref().expect("bias");
    let logits = {
        let _no_grad = no_grad();
        forward(&x, &l0.weight, b0, &l2.weight, b2)?
    };
    save_file(
        &[("0.weight", &l0.weight), ("0.bias", b0), ("2.weight", &l2.weight), ("2.bias", b2), ("input", &x), ("logits", &logits)],
        &[("trained_by", "rust"), ("arch", "Linear(5, 8) ReLU Linear(8, 3)")],
        path,
    )?;
    println!("rust: trained and saved {path}");
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let result = match (args.get(1).map(String::as_str), args.get(2)) {
        (Some("check"), Some(path)) => check(path),
        (Some("train"), Some(path)) => train(path),
        _ => Err(Error::InvalidArgument("usage: cross_language check|train FILE".into())),
    };
    if let Err(e) = result {
        eprintln!("rust: {e}");
        std::process::exit(1);
    }
}

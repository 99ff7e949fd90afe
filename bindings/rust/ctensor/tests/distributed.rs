// distributed.rs - ctensor::distributed under real `mpirun --oversubscribe -np 2` and `-np 4`: this test binary
// runs itself under mpirun with the ignored test `mpi_worker`, which checks on every rank every collective against
// values the rank computes locally (rank r contributes i + r + 1 at element i), async works, subgroups, send/recv,
// and a shape mismatch failing on every rank, and prints "rank R of N: K checks passed". Skipped (with the reason)
// where mpirun or libctensor_mpi.so.1 is missing.
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use ctensor::distributed::{ProcessGroup, ReduceOp, Work};
use ctensor::nn::DistributedDataParallel;
use ctensor::optim::Sgd;
use ctensor::{live_handles, DType, Error, Result, Tensor};

const WORKER_ENV: &str = "CTENSOR_TEST_MPI_WORKER";

/// Why the MPI tests cannot run here, or None when they can.
fn skip_reason() -> Option<String> {
    let lib_dir = std::env::var("CTENSOR_LIB_DIR").ok().or(option_env!("CTENSOR_BUILD_LIB_DIR").map(String::from));
    match lib_dir.map(|d| PathBuf::from(d).join("libctensor_mpi.so.1")) {
        Some(p) if p.exists() => {}
        Some(p) => return Some(format!("the MPI backend is not built ({} missing)", p.display())),
        None => return Some("the MPI backend is not built (no CTENSOR_LIB_DIR to look in)".into()),
    }
    match Command::new("mpirun").arg("--version").output() {
        Ok(out) if out.status.success() => None,
        _ => Some("Open MPI's mpirun is not installed".into()),
    }
}

fn run_under_mpirun(ranks: u32) {
    let exe = std::env::current_exe().expect("test executable");
    let out = Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-np", &ranks.to_string()])
        .arg(&exe)
        .args(["--ignored", "--exact", "mpi_worker", "--nocapture", "--test-threads=1"])
        .env(WORKER_ENV, "1")
        .output()
        .expect("mpirun starts");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "mpirun -np {ranks} failed:\n{text}");
    for r in 0..ranks {
        // the test harness prints "test mpi_worker ... " on the same line
        let line = format!("rank {r} of {ranks}: ");
        assert!(
            text.lines().any(|l| l.contains(&line) && l.ends_with("checks passed")),
            "no pass from rank {r}:\n{text}"
        );
    }
}

#[test]
fn collectives_under_mpirun_np2_and_np4() {
    if let Some(why) = skip_reason() {
        eprintln!("SKIPPED collectives_under_mpirun: {why}");
        return;
    }
    run_under_mpirun(2);
    run_under_mpirun(4);
}

#[test]
fn groups_works_and_ddp_are_send() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<ProcessGroup>();
    send::<Work<'static>>();
    send::<DistributedDataParallel>();
}

/// Counts checks; a failed one panics naming the rank.
struct Checks {
    rank: i32,
    n: usize,
}

impl Checks {
    fn check(&mut self, cond: bool, what: &str) {
        assert!(cond, "rank {}: {what}", self.rank);
        self.n += 1;
    }
}

/// Rank r's input: element i is i + r + 1 (6 elements, shape [2, 3]).
fn contribution(r: i32) -> Vec<f64> {
    (0..6).map(|i| (i + r + 1) as f64).collect()
}

/// The reduction over the ranks of `op` for element values `vals`, computed in the dtype's arithmetic
/// (integers wrap; uint8 modulo 256).
fn reduce_local(vals: &[f64], op: ReduceOp, dtype: DType) -> f64 {
    let wrap = |v: i64| match dtype {
        DType::UInt8 => (v as u8) as f64,
        DType::Int32 => (v as i32) as f64,
        _ => v as f64,
    };
    let ints = !dtype.is_floating();
    match op {
        ReduceOp::Sum if ints => wrap(vals.iter().map(|&v| v as i64).sum()),
        ReduceOp::Product if ints => wrap(vals.iter().map(|&v| v as i64).product()),
        ReduceOp::Sum => vals.iter().sum(),
        ReduceOp::Product => vals.iter().product(),
        ReduceOp::Mean => vals.iter().sum::<f64>() / vals.len() as f64,
        ReduceOp::Max => vals.iter().cloned().fold(f64::MIN, f64::max),
        ReduceOp::Min => vals.iter().cloned().fold(f64::MAX, f64::min),
    }
}

fn worker(world: &ProcessGroup, c: &mut Checks) -> Result<()> {
    let (rank, size) = (world.rank(), world.size());
    let mine = Tensor::from_slice(&contribution(rank), &[2, 3])?;

    for dtype in [DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::UInt8] {
        for op in ReduceOp::ALL {
            let mut t = mine.to_dtype(dtype)?.copy()?; // to_dtype of the same dtype is `mine` itself
            if op == ReduceOp::Mean && !dtype.is_floating() {
                let e = world.all_reduce(&mut t, op).unwrap_err();
                c.check(matches!(e, Error::DType(_)), &format!("mean of {dtype:?} is a dtype error: {e}"));
                continue;
            }
            world.all_reduce(&mut t, op)?;
            let want: Vec<f64> = (0..6)
                .map(|i| reduce_local(&(0..size).map(|r| contribution(r)[i]).collect::<Vec<_>>(), op, dtype))
                .collect();
            c.check(
                t.to_vec::<f64>()? == want,
                &format!("all_reduce {dtype:?} {op:?}: {:?} vs {want:?}", t.to_vec::<f64>()?),
            );
        }
    }
    // bool: Sum/Max are or, Min/Product are and; rank r sets element i when (i + r) % 3 == 0
    let flags = |r: i32| (0..6).map(|i| (i + r) % 3 == 0).collect::<Vec<bool>>();
    for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Product] {
        let mut t = Tensor::from_slice(&flags(rank), &[6])?;
        world.all_reduce(&mut t, op)?;
        let any = matches!(op, ReduceOp::Sum | ReduceOp::Max);
        let want: Vec<bool> =
            (0..6).map(|i| if any { (0..size).any(|r| flags(r)[i]) } else { (0..size).all(|r| flags(r)[i]) }).collect();
        c.check(t.to_vec::<bool>()? == want, &format!("all_reduce bool {op:?}"));
    }

    let sum: Vec<f64> = (0..6).map(|i| (0..size).map(|r| contribution(r)[i]).sum()).collect();
    let mut t = mine.copy()?;
    {
        let work = world.all_reduce_async(&mut t, ReduceOp::Sum)?;
        work.wait()?;
        c.check(work.is_completed()?, "async all_reduce completes");
    }
    c.check(t.to_vec::<f64>()? == sum, "async all_reduce value");
    let mut t = mine.to_dtype(DType::Int64)?; // a new tensor (another dtype)
    {
        let work = world.broadcast_async(&mut t, 0)?;
        while !work.is_completed()? {
            std::thread::yield_now();
        }
        work.wait()?;
    }
    c.check(t.to_vec::<f64>()? == contribution(0), "async broadcast value");
    let mut t = mine.copy()?;
    drop(world.all_reduce_async(&mut t, ReduceOp::Max)?); // dropping an unfinished work waits for it
    c.check(t.to_vec::<f64>()? == contribution(size - 1), "dropped async all_reduce finished");

    let mut t = mine.copy()?.transpose(0, 1)?; // a non-contiguous view of a copy
    world.broadcast(&mut t, size - 1)?;
    let last = contribution(size - 1);
    let want_t: Vec<f64> = (0..3).flat_map(|j| (0..2).map(move |i| (i * 3 + j) as usize)).map(|k| last[k]).collect();
    c.check(t.to_vec::<f64>()? == want_t, "broadcast into a transposed view");

    for dtype in [DType::Float32, DType::Int32, DType::UInt8] {
        let g = world.all_gather(&mine.to_dtype(dtype)?)?;
        c.check(g.size() == vec![size as i64, 2, 3] && g.dtype() == dtype, "all_gather shape and dtype");
        let want: Vec<f64> = (0..size).flat_map(contribution).collect();
        c.check(g.to_vec::<f64>()? == want, &format!("all_gather {dtype:?}"));
    }

    // rank r's input row i holds r * 10 + i; this rank's chunk is row `rank` of the sum
    let rows: Vec<f64> = (0..size).flat_map(|i| [(rank * 10 + i) as f64; 2]).collect();
    for dtype in [DType::Float64, DType::Int64] {
        let out =
            world.reduce_scatter(&Tensor::from_slice(&rows, &[size as i64, 2])?.to_dtype(dtype)?, ReduceOp::Sum)?;
        let v = (0..size).map(|r| r * 10 + rank).sum::<i32>() as f64;
        c.check(out.size() == vec![1, 2] && out.to_vec::<f64>()? == vec![v, v], &format!("reduce_scatter {dtype:?}"));
    }

    // a ring: rank r sends [r, r*r] to r+1 and receives from r-1; even ranks send first
    let (next, prev) = ((rank + 1) % size, (rank + size - 1) % size);
    let payload = Tensor::from_slice(&[rank as i64, (rank * rank) as i64], &[2])?;
    let mut got = Tensor::zeros(&[2], DType::Int64)?;
    if rank % 2 == 0 {
        world.send(&payload, next, 7)?;
        world.recv(&mut got, prev, 7)?;
    } else {
        world.recv(&mut got, prev, 7)?;
        world.send(&payload, next, 7)?;
    }
    c.check(got.to_vec::<i64>()? == vec![prev as i64, (prev * prev) as i64], "send/recv ring");

    let evens: Vec<i32> = (0..size).filter(|r| r % 2 == 0).collect();
    let group = world.subgroup(&evens)?;
    let mut t = Tensor::ones(&[1], DType::Float32)?;
    if rank % 2 == 0 {
        group.all_reduce(&mut t, ReduceOp::Sum)?;
        c.check(group.rank() == rank / 2 && group.size() == evens.len() as i32, "subgroup rank and size");
        c.check(t.item()? == evens.len() as f64, "subgroup all_reduce");
    } else {
        c.check(group.rank() == -1 && group.size() == 0 && !group.is_member(), "non-member of a subgroup");
        let e = group.all_reduce(&mut t, ReduceOp::Sum).unwrap_err();
        c.check(matches!(e, Error::InvalidArgument(_)), &format!("collective of a non-member: {e}"));
    }
    world.barrier()?;

    // without the agreement checks results stay right; with them back on, the mismatch below is caught
    world.set_checks(false)?;
    let mut t = mine.copy()?;
    world.all_reduce(&mut t, ReduceOp::Sum)?;
    c.check(t.to_vec::<f64>()? == sum, "all_reduce without checks");
    world.set_checks(true)?;
    // every rank fails (not hangs) when one brings another shape; the group stays usable
    let mut t = Tensor::ones(&[if rank == 0 { 3 } else { 4 }], DType::Float32)?;
    match world.all_reduce(&mut t, ReduceOp::Sum) {
        Err(Error::Distributed(m)) => {
            c.check(m.contains("all_reduce") && m.contains("shape"), &format!("mismatch: {m}"))
        }
        other => c.check(false, &format!("a shape mismatch gave {other:?}")),
    }
    let e = world.broadcast(&mut t, size).unwrap_err();
    c.check(matches!(e, Error::Index(_)), &format!("root outside the group: {e}"));
    world.barrier()?;
    Ok(())
}

/// A small float64 MLP over plain parameter tensors [w1 [4, 3], b1 [4], w2 [1, 4]]: mean squared error.
fn mlp_loss(params: &[Tensor], x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let out = x.linear(&params[0], Some(&params[1]))?.tanh()?.linear(&params[2], None)?;
    (&out - y)?.pow_scalar(2.0)?.mean_all()
}

/// Rows `ids` of step `step`'s global batch: x [n, 3], y [n, 1].
fn batch(ids: &[i64], step: i64) -> Result<(Tensor, Tensor)> {
    let x: Vec<f64> =
        ids.iter().flat_map(|&i| (0..3).map(move |j| (((i * 3 + j) + step * 11) as f64 * 0.13).sin())).collect();
    let y: Vec<f64> = ids.iter().map(|&i| (i as f64 * 0.7 + step as f64).cos()).collect();
    Ok((Tensor::from_slice(&x, &[ids.len() as i64, 3])?, Tensor::from_slice(&y, &[ids.len() as i64, 1])?))
}

/// DDP steps on each rank's 4 rows equal single-process steps on the whole batch (4 * size rows), also with a
/// no_sync micro-batch; the parameters start as rank 0's (DDP broadcasts them).
fn ddp_matches_single_process(world: &ProcessGroup, c: &mut Checks) -> Result<()> {
    let (rank, size) = (world.rank() as i64, world.size() as i64);
    let init = |k: i64, shape: &[i64], r: i64| -> Result<Tensor> {
        let n: i64 = shape.iter().product();
        let v: Vec<f64> = (0..n).map(|i| ((i * 7 + k * 3 + r) as f64 * 0.37).sin() * 0.5).collect();
        Tensor::from_slice(&v, shape)
    };
    let shapes: [&[i64]; 3] = [&[4, 3], &[4], &[1, 4]];
    let params = (0..3).map(|k| init(k as i64, shapes[k], rank)?.requires_grad_(true)).collect::<Result<Vec<_>>>()?;
    let mut ddp = DistributedDataParallel::with_bucket_bytes(world, &params, 64)?; // 64 bytes: several buckets
    for (k, p) in params.iter().enumerate() {
        c.check(p.to_vec::<f64>()? == init(k as i64, shapes[k], 0)?.to_vec::<f64>()?, "DDP broadcast rank 0's params");
    }
    c.check(ddp.bucket_count() >= 2, &format!("64-byte buckets: {} buckets", ddp.bucket_count()));
    let reference = params.iter().map(|p| p.detach()?.copy()?.requires_grad_(true)).collect::<Result<Vec<_>>>()?;
    let mut opt = Sgd::new(0.1).build(&params)?;
    let mut ref_opt = Sgd::new(0.1).build(&reference)?;
    let local: Vec<i64> = (rank * 4..rank * 4 + 4).collect();
    let global: Vec<i64> = (0..4 * size).collect();
    for step in 0..3 {
        let (x, y) = batch(&local, step)?;
        opt.zero_grad()?;
        mlp_loss(&params, &x, &y)?.backward()?;
        opt.step()?;
        let (x, y) = batch(&global, step)?;
        ref_opt.zero_grad()?;
        mlp_loss(&reference, &x, &y)?.backward()?;
        ref_opt.step()?;
    }
    // gradient accumulation: micro-batch a (first two local rows) under no_sync, then b synchronising
    let (xa, ya) = batch(&local[..2], 3)?;
    let (xb, yb) = batch(&local[2..], 3)?;
    opt.zero_grad()?;
    ddp.no_sync(|| mlp_loss(&params, &xa, &ya)?.backward())?;
    mlp_loss(&params, &xb, &yb)?.backward()?;
    ddp.finish()?; // nothing left open: a no-op
    opt.step()?;
    let firsts: Vec<i64> = global.iter().copied().filter(|i| i % 4 < 2).collect();
    let lasts: Vec<i64> = global.iter().copied().filter(|i| i % 4 >= 2).collect();
    let (xa, ya) = batch(&firsts, 3)?;
    let (xb, yb) = batch(&lasts, 3)?;
    ref_opt.zero_grad()?;
    (mlp_loss(&reference, &xa, &ya)? + mlp_loss(&reference, &xb, &yb)?)?.backward()?;
    ref_opt.step()?;
    for (p, q) in params.iter().zip(&reference) {
        let (a, b) = (p.to_vec::<f64>()?, q.to_vec::<f64>()?);
        c.check(
            a.iter().zip(&b).all(|(u, v)| (u - v).abs() <= 1e-12),
            &format!("DDP params {a:?} vs single process {b:?}"),
        );
    }
    drop(ddp);
    let one_bucket = DistributedDataParallel::new(world, &params)?; // the default 25 MiB: one bucket per dtype
    c.check(one_bucket.bucket_count() == 1, "default buckets: one");
    drop(one_bucket);
    // a parameter the backward never reaches leaves the round open until finish(), which counts it as zero
    let used = Tensor::ones(&[2], DType::Float64)?.requires_grad_(true)?;
    let unused = Tensor::ones(&[3], DType::Float64)?.requires_grad_(true)?;
    let mut ddp = DistributedDataParallel::new(world, &[used.clone(), unused.clone()])?;
    (&used * (rank + 1) as f64)?.sum_all()?.backward()?;
    ddp.finish()?;
    let mean = (size + 1) as f64 / 2.0;
    c.check(
        used.grad().map(|g| g.to_vec::<f64>()).transpose()? == Some(vec![mean; 2]),
        "finish() averages a round left open",
    );
    drop(ddp);
    // a rank with other parameter shapes fails on every rank
    let odd = init(0, if rank == 0 { &[2] } else { &[3] }, rank)?.requires_grad_(true)?;
    match DistributedDataParallel::new(world, &[odd]) {
        Err(Error::Distributed(m)) => c.check(true, &m),
        Err(e) => c.check(false, &format!("DDP over mismatched shapes: {e}")),
        Ok(_) => c.check(false, "DDP over mismatched shapes succeeded"),
    }
    Ok(())
}

#[test]
#[ignore = "run by collectives_under_mpirun_np2_and_np4 under mpirun"]
fn mpi_worker() {
    assert!(
        std::env::var_os(WORKER_ENV).is_some(),
        "mpi_worker runs under mpirun, started by collectives_under_mpirun"
    );
    let before = live_handles();
    let world = ProcessGroup::mpi().expect("world group");
    world.set_timeout(Duration::from_secs(30)).unwrap();
    let mut c = Checks { rank: world.rank(), n: 0 };
    if let Err(e) = worker(&world, &mut c).and_then(|()| ddp_matches_single_process(&world, &mut c)) {
        panic!("rank {}: {e}", c.rank);
    }
    let (rank, size) = (world.rank(), world.size());
    drop(world);
    assert_eq!(live_handles(), before, "rank {rank}: handles leaked");
    println!("rank {rank} of {size}: {} checks passed", c.n + 1);
}

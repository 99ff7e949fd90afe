// common/mod.rs - shared test helpers: a leak-checked runner (serialised by a global Mutex so the live
// handle count is not disturbed by tests running in parallel), closeness checks and a gradcheck that
// compares autograd gradients with central finite differences in float64.
#![allow(dead_code)]

use std::sync::Mutex;

use ctensor::{live_handles, Result, Tensor};

static SERIAL: Mutex<()> = Mutex::new(());

/// Runs `body` alone (no other test of this binary runs meanwhile) and asserts that it returned Ok and
/// that every handle it made was released.
pub fn run(body: impl FnOnce() -> Result<()>) {
    let _lock = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let before = live_handles();
    if let Err(e) = body() {
        panic!("test failed with {e}");
    }
    let after = live_handles();
    assert_eq!(after, before, "leaked {} handle(s)", after - before);
}

/// The error of a result that must have failed (works without `T: Debug`).
pub fn err_of<T>(r: Result<T>) -> ctensor::Error {
    match r {
        Err(e) => e,
        Ok(_) => panic!("expected an error, got Ok"),
    }
}

/// Asserts |a - b| <= atol + rtol * |b| elementwise.
pub fn assert_close(actual: &[f64], expected: &[f64], rtol: f64, atol: f64) {
    assert_eq!(actual.len(), expected.len(), "lengths differ: {actual:?} vs {expected:?}");
    for (i, (a, b)) in actual.iter().zip(expected).enumerate() {
        let ok = (a - b).abs() <= atol + rtol * b.abs() || (a.is_nan() && b.is_nan());
        assert!(ok, "element {i}: {a} vs {b}\nactual   {actual:?}\nexpected {expected:?}");
    }
}

/// Values of a tensor as f64.
pub fn vals(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().expect("to_vec")
}

/// A float64 tensor of `shape` with deterministic, distinct, non-integer values offset by `seed`
/// (no random generator needed).
pub fn det(shape: &[i64], seed: f64) -> Tensor {
    let n: i64 = shape.iter().product();
    let data: Vec<f64> = (0..n).map(|i| ((i as f64 + 1.0) * 0.37 + seed).sin() * 1.5 + 0.1 * seed).collect();
    Tensor::from_slice(&data, shape).expect("from_slice")
}

/// Like `det`, but every value is positive (in [0.5, 2]).
pub fn det_pos(shape: &[i64], seed: f64) -> Tensor {
    let n: i64 = shape.iter().product();
    let data: Vec<f64> = (0..n).map(|i| 1.25 + 0.75 * ((i as f64 + 1.0) * 0.53 + seed).cos()).collect();
    Tensor::from_slice(&data, shape).expect("from_slice")
}

/// The scalar `sum(f(inputs) * w)` with fixed weights w, so every output element counts differently.
fn weighted_loss(f: &dyn Fn(&[Tensor]) -> Result<Tensor>, inputs: &[Tensor]) -> Result<Tensor> {
    let y = f(inputs)?;
    let y = y.to_dtype(ctensor::DType::Float64)?;
    let n = y.numel() as i64;
    let w: Vec<f64> = (0..n).map(|i| 0.5 + 0.25 * ((i % 7) as f64) - 0.1 * ((i % 3) as f64)).collect();
    let w = Tensor::from_slice(&w, &y.size())?;
    (&y * &w)?.sum_all()
}

/// Checks autograd gradients of `f` at `inputs` (float64) against central differences.
pub fn gradcheck(f: impl Fn(&[Tensor]) -> Result<Tensor>, inputs: &[&Tensor]) -> Result<()> {
    let eps = 1e-6;
    let leaves: Vec<Tensor> = inputs.iter().map(|t| t.detach()?.copy()?.requires_grad_(true)).collect::<Result<_>>()?;
    let loss = weighted_loss(&f, &leaves)?;
    let refs: Vec<&Tensor> = leaves.iter().collect();
    let analytic = ctensor::grad(&[&loss], None, &refs, false, false, true)?;
    for (k, input) in inputs.iter().enumerate() {
        let base = vals(input);
        let mut numeric = vec![0.0; base.len()];
        for i in 0..base.len() {
            let at = |delta: f64| -> Result<f64> {
                let mut v = base.clone();
                v[i] += delta;
                let mut args: Vec<Tensor> = inputs.iter().map(|t| (*t).clone()).collect();
                args[k] = Tensor::from_slice(&v, &input.size())?;
                weighted_loss(&f, &args)?.item()
            };
            numeric[i] = (at(eps)? - at(-eps)?) / (2.0 * eps);
        }
        let got = match &analytic[k] {
            Some(g) => vals(g),
            None => vec![0.0; base.len()],
        };
        assert_close(&got, &numeric, 1e-5, 1e-6);
    }
    Ok(())
}

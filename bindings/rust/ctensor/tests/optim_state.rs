// optim_state.rs - optimizer state: per-parameter state tensors and step counts against the update
// formulas, state_dict / load_state_dict round trips that resume training bit for bit, all-or-nothing
// loading on errors; plus Generator clones (shared stream) and the device constructors of the C ABI.
mod common;

use common::{assert_close, det, err_of, run, vals};
use ctensor::optim::{Adam, AdamW, Optimizer, OptimizerState, Sgd};
use ctensor::{sys, DType, Device, Error, Generator, Result, Tensor};

/// A fixed, non-quadratic loss of two parameters, so every step changes the gradients.
fn loss(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let y = a.matmul(b)?.tanh()?;
    (&y * &y + &a.sin()?.sum_all()?)?.sum_all()
}

fn train(opt: &mut Optimizer, a: &Tensor, b: &Tensor, steps: usize) -> Result<()> {
    for _ in 0..steps {
        opt.zero_grad()?;
        loss(a, b)?.backward()?;
        opt.step()?;
    }
    Ok(())
}

fn fresh_params() -> (Tensor, Tensor) {
    let a = det(&[2, 3], 0.1).requires_grad_(true).unwrap();
    let b = det(&[3], 0.5).requires_grad_(true).unwrap();
    (a, b)
}

/// Copies of the parameters' current values as new leaves (what a restart would load from a checkpoint).
fn reload(a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
    Ok((a.detach()?.copy()?.requires_grad_(true)?, b.detach()?.copy()?.requires_grad_(true)?))
}

/// Trains 6 steps in one go and 3 + 3 steps with a state_dict restart in between; both must agree exactly,
/// and a restart that forgets the state must not (so the comparison can fail).
fn resume_matches(build: impl Fn(&[Tensor]) -> Result<Optimizer>) -> Result<()> {
    let (a, b) = fresh_params();
    let mut opt = build(&[a.clone(), b.clone()])?;
    train(&mut opt, &a, &b, 6)?;

    let (a1, b1) = fresh_params();
    let mut first = build(&[a1.clone(), b1.clone()])?;
    train(&mut first, &a1, &b1, 3)?;
    let saved: OptimizerState = first.state_dict()?;
    drop(first);
    let (a2, b2) = reload(&a1, &b1)?;
    let mut resumed = build(&[a2.clone(), b2.clone()])?;
    resumed.load_state_dict(&saved)?;
    train(&mut resumed, &a2, &b2, 3)?;
    assert_eq!((vals(&a2), vals(&b2)), (vals(&a), vals(&b)));

    let (a3, b3) = reload(&a1, &b1)?;
    let mut forgetful = build(&[a3.clone(), b3.clone()])?;
    train(&mut forgetful, &a3, &b3, 3)?;
    assert_ne!(vals(&a3), vals(&a), "the state must matter for this check to mean anything");
    Ok(())
}

#[test]
fn resuming_from_a_state_dict_continues_exactly() {
    run(|| {
        resume_matches(|p| Adam::new(0.05).weight_decay(0.01).build(p))?;
        resume_matches(|p| AdamW::new(0.05).betas(0.8, 0.99).build(p))?;
        resume_matches(|p| Sgd::new(0.1).momentum(0.9).nesterov(true).build(p))?;
        Ok(())
    })
}

#[test]
fn adam_state_tensors_follow_the_update_formulas() {
    run(|| {
        let w = Tensor::from_slice(&[1.0f64, -2.0, 0.5], &[3])?.requires_grad_(true)?;
        let mut opt = Adam::new(0.1).betas(0.9, 0.99).build(std::slice::from_ref(&w))?;
        assert_eq!((opt.num_params(), opt.state_names()), (1, vec!["exp_avg".to_string(), "exp_avg_sq".to_string()]));
        assert!(opt.state(0, "exp_avg")?.is_none(), "no state before the first step");
        assert_eq!(opt.step_count(0)?, 0);
        (&w * &w)?.sum_all()?.backward()?; // g = 2w
        opt.step()?;
        let g = [2.0, -4.0, 1.0];
        let m: Vec<f64> = g.iter().map(|g| 0.1 * g).collect();
        let v: Vec<f64> = g.iter().map(|g| 0.01 * g * g).collect();
        assert_close(&vals(&opt.state(0, "exp_avg")?.unwrap()), &m, 1e-15, 0.0);
        assert_close(&vals(&opt.state(0, "exp_avg_sq")?.unwrap()), &v, 1e-15, 0.0);
        assert_eq!(opt.step_count(0)?, 1);
        // The returned tensors are copies: later steps do not change them.
        let copy = opt.state(0, "exp_avg")?.unwrap();
        (&w * &w)?.sum_all()?.backward()?;
        opt.step()?;
        assert_close(&vals(&copy), &m, 1e-15, 0.0);
        // set_state / set_step_count write through; None clears.
        let mut opt = opt;
        opt.set_state(0, "exp_avg", Some(&Tensor::full(&[3], 0.5, DType::Float32)?))?;
        let set = opt.state(0, "exp_avg")?.unwrap();
        assert_eq!((set.dtype(), vals(&set)), (DType::Float64, vec![0.5; 3]));
        opt.set_step_count(0, 7)?;
        assert_eq!(opt.step_count(0)?, 7);
        opt.set_state(0, "exp_avg", None)?;
        opt.set_state(0, "exp_avg_sq", None)?;
        assert!(opt.state(0, "exp_avg")?.is_none() && opt.state(0, "exp_avg_sq")?.is_none());
        let sgd = Sgd::new(0.1).momentum(0.5).build(std::slice::from_ref(&w))?;
        assert_eq!(sgd.state_names(), vec!["momentum_buffer".to_string()]);
        assert_eq!(sgd.state_dict()?.params[0].step, None);
        Ok(())
    })
}

#[test]
fn load_state_dict_restores_lr_and_clears_missing_state() {
    run(|| {
        let (a, b) = fresh_params();
        let mut opt = Adam::new(0.05).build(&[a.clone(), b.clone()])?;
        let empty = opt.state_dict()?;
        assert!(empty.params.iter().all(|p| p.tensors.is_empty() && p.step == Some(0)));
        train(&mut opt, &a, &b, 2)?;
        opt.set_lr(0.5)?;
        let saved = opt.state_dict()?;
        assert_eq!((saved.lr, saved.params.len(), saved.params[1].step), (0.5, 2, Some(2)));
        assert_eq!(saved.params[1].tensors["exp_avg"].size(), vec![3]);
        opt.load_state_dict(&empty)?; // back to a fresh optimizer with lr 0.05
        assert_eq!((opt.lr(), opt.step_count(1)?), (0.05, 0));
        assert!(opt.state(1, "exp_avg")?.is_none());
        opt.load_state_dict(&saved)?;
        assert_eq!((opt.lr(), opt.step_count(1)?), (0.5, 2));
        assert_eq!(vals(&opt.state(1, "exp_avg")?.unwrap()), vals(&saved.params[1].tensors["exp_avg"]));
        Ok(())
    })
}

#[test]
fn state_errors_change_nothing() {
    run(|| {
        let (a, b) = fresh_params();
        let mut opt = Adam::new(0.05).build(&[a.clone(), b.clone()])?;
        train(&mut opt, &a, &b, 1)?;
        let before = opt.state_dict()?;

        let one = Adam::new(0.05).build(std::slice::from_ref(&a))?.state_dict()?;
        let e = err_of(opt.load_state_dict(&one));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("1 parameter entries"), "{e}");
        let mut sgd_state = Sgd::new(0.1).momentum(0.9).build(&[a.clone(), b.clone()])?.state_dict()?;
        sgd_state.params[0].tensors.insert("momentum_buffer".into(), a.zeros_like()?);
        let e = err_of(opt.load_state_dict(&sgd_state));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("state 'momentum_buffer'"), "{e}");
        // Parameter 1's exp_avg has the wrong shape: parameter 0 was loaded first, then rolled back.
        let mut bad = before.clone();
        bad.params[0].tensors.insert("exp_avg".into(), a.ones_like()?);
        bad.params[1].tensors.insert("exp_avg".into(), Tensor::ones(&[4], DType::Float64)?);
        bad.lr = 1.0;
        let e = err_of(opt.load_state_dict(&bad));
        assert!(matches!(e, Error::Shape(_)) && e.message().contains("state 'exp_avg' of shape [4]"), "{e}");
        let after = opt.state_dict()?;
        assert_eq!(after.lr, before.lr);
        for (x, y) in after.params.iter().zip(&before.params) {
            assert_eq!(x.step, y.step);
            for (name, t) in &y.tensors {
                assert_eq!(vals(&x.tensors[name]), vals(t), "{name} was not rolled back");
            }
        }

        let e = err_of(opt.state(2, "exp_avg"));
        assert!(matches!(e, Error::Index(_)) && e.message().contains("parameter index 2 is out of range"), "{e}");
        let e = err_of(opt.state(0, "momentum"));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("unknown state 'momentum'"), "{e}");
        let e = err_of(opt.set_step_count(0, -1));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("must be >= 0"), "{e}");
        let e = err_of(Sgd::new(0.1).build(std::slice::from_ref(&a))?.step_count(0));
        assert!(matches!(e, Error::NotSupported(_)) && e.message().contains("keeps no step count"), "{e}");
        let e = err_of(opt.state(0, "exp\0avg"));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("NUL"), "{e}");
        Ok(())
    })
}

#[test]
fn generator_clones_share_one_stream() {
    run(|| {
        let mut a = Generator::new(42)?;
        let mut b = a.clone();
        let x = Tensor::rand(&[4], DType::Float64, Some(&mut a))?;
        let y = Tensor::rand(&[4], DType::Float64, Some(&mut b))?;
        drop(a); // the clone keeps the generator alive
        let z = Tensor::rand(&[4], DType::Float64, Some(&mut b))?;
        let mut reference = Generator::new(42)?;
        let expected: Vec<Vec<f64>> =
            (0..3).map(|_| vals(&Tensor::rand(&[4], DType::Float64, Some(&mut reference)).unwrap())).collect();
        assert_eq!(vec![vals(&x), vals(&y), vals(&z)], expected);
        b.seed(42)?; // reseeding through a clone restarts the shared stream
        assert_eq!(vals(&Tensor::rand(&[4], DType::Float64, Some(&mut b))?), expected[0]);
        Ok(())
    })
}

#[test]
fn device_and_status_helpers_agree_with_the_library() {
    run(|| {
        let cpu = unsafe { sys::ct_cpu() };
        assert_eq!(Device::from_raw(cpu)?, Device::Cpu);
        assert_eq!((Device::Cpu.to_raw().type_, Device::Cpu.to_raw().index), (cpu.type_, cpu.index));
        let cuda = unsafe { sys::ct_cuda(3) };
        assert_eq!(Device::from_raw(cuda)?, Device::Cuda(3));
        assert_eq!((Device::Cuda(3).to_raw().type_, Device::Cuda(3).to_raw().index), (cuda.type_, cuda.index));
        let e = err_of(Tensor::ones(&[2], DType::Float32)?.reshape(&[3]));
        assert_eq!(unsafe { sys::ct_last_status() }, e.status());
        Ok(())
    })
}

#[test]
fn hyper_parameters_changed_before_training_match_a_built_optimizer() {
    run(|| {
        let (a1, b1) = fresh_params();
        let mut changed = Adam::new(0.05).build(&[a1.clone(), b1.clone()])?;
        for (name, value) in [("beta1", 0.5), ("beta2", 0.9), ("eps", 1e-3), ("weight_decay", 0.01)] {
            changed.set_hparam(name, value)?;
            assert_eq!(changed.hparam(name)?, value);
        }
        train(&mut changed, &a1, &b1, 4)?;
        let (a2, b2) = fresh_params();
        let mut built = Adam::new(0.05).betas(0.5, 0.9).eps(1e-3).weight_decay(0.01).build(&[a2.clone(), b2.clone()])?;
        train(&mut built, &a2, &b2, 4)?;
        assert_eq!((vals(&a1), vals(&b1)), (vals(&a2), vals(&b2)));
        let (a3, b3) = fresh_params();
        let mut default = Adam::new(0.05).build(&[a3.clone(), b3.clone()])?;
        train(&mut default, &a3, &b3, 4)?;
        assert_ne!(vals(&a3), vals(&a1), "the hyper-parameters must matter for this check to mean anything");
        match changed.set_hparam("beta2", 1.0) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("invalid beta2 1"), "{m}"),
            other => panic!("expected InvalidArgument, got {other:?}"),
        }
        assert!(matches!(changed.hparam("momentum"), Err(Error::InvalidArgument(_))));
        Ok(())
    })
}

// autograd.rs - gradients against central finite differences (gradcheck in float64, with broadcasting
// and keepdim), backward options, autograd::grad, grad-mode guards and custom functions from closures
// (including errors and panics inside the closure).
mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{det, det_pos, err_of, gradcheck, run, vals};
use ctensor::{custom_function, no_grad, set_grad_enabled, DType, Error, Tensor};

#[test]
fn gradcheck_binary_ops_with_broadcasting() {
    run(|| {
        let (a, b) = (det(&[2, 3], 0.1), det_pos(&[3], 0.7));
        gradcheck(|x| &x[0] + &x[1], &[&a, &b])?;
        gradcheck(|x| x[0].sub_alpha(&x[1], 2.5), &[&a, &b])?;
        gradcheck(|x| &x[0] * &x[1], &[&a, &b])?;
        gradcheck(|x| &x[0] / &x[1], &[&a, &b])?;
        gradcheck(|x| x[1].pow(&x[0]), &[&det(&[2, 1], 0.3), &det_pos(&[3], 0.2)])?;
        gradcheck(|x| x[0].maximum(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].minimum(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].atan2(&x[1]), &[&a, &b])?;
        gradcheck(|x| ((&x[0] * 3.0)? - &x[1])? / 2.0, &[&a, &b])?;
        Ok(())
    })
}

#[test]
fn gradcheck_reductions_views_and_where() {
    run(|| {
        let x = det(&[2, 3, 4], 0.4);
        gradcheck(|t| t[0].sum(&[1], true), &[&x])?;
        gradcheck(|t| t[0].sum(&[0, -1], false), &[&x])?;
        gradcheck(|t| t[0].mean(&[2], true), &[&x])?;
        gradcheck(|t| t[0].mean_all(), &[&x])?;
        gradcheck(|t| t[0].transpose(0, 2)?.reshape(&[4, 6]), &[&x])?;
        gradcheck(|t| t[0].permute(&[1, 2, 0])?.narrow(0, 1, 2), &[&x])?;
        gradcheck(|t| t[0].slice(2, 0, 4, 2)?.select(0, 1), &[&x])?;
        gradcheck(|t| t[0].diagonal(-1, 2, 1), &[&x])?;
        gradcheck(|t| t[0].sum(&[0], false)?.unsqueeze(0)?.expand(&[5, 3, 4]), &[&x])?;
        let cond = Tensor::from_slice(&[true, false, true, false], &[4])?;
        gradcheck(move |t| Tensor::where_cond(&cond, &t[0], &t[1]), &[&x, &det(&[3, 1], 0.9)])?;
        Ok(())
    })
}

#[test]
fn backward_accumulates_and_honours_its_options() {
    run(|| {
        let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0], &[3])?.requires_grad_(true)?;
        assert!(x.requires_grad() && x.is_leaf() && x.grad().is_none());
        let y = (&x * &x)?;
        assert_eq!(y.grad_fn_name(), "MulBackward");
        assert!(!y.is_leaf());
        assert_eq!(x.grad_fn_name(), "");
        let loss = y.sum_all()?;
        loss.backward_with(None, true, false)?;
        assert_eq!(vals(&x.grad().unwrap()), vec![2.0, 4.0, 6.0]);
        loss.backward()?; // the graph was kept: gradients accumulate
        assert_eq!(vals(&x.grad().unwrap()), vec![4.0, 8.0, 12.0]);
        assert!(matches!(loss.backward(), Err(Error::Autograd(m)) if m.contains("second time")));
        // explicit grad_output for a non-scalar output
        let mut x2 = x.clone();
        x2.set_grad(None)?;
        let y = (&x * 2.0)?;
        y.backward_with(Some(&Tensor::from_slice(&[1.0f64, 10.0, 100.0], &[3])?), false, false)?;
        assert_eq!(vals(&x.grad().unwrap()), vec![2.0, 20.0, 200.0]);
        // a non-scalar output without grad_output is an autograd error
        let err = err_of((&x * 2.0)?.backward());
        assert!(matches!(&err, Error::Autograd(m) if m.contains("[3]")), "{err}");
        Ok(())
    })
}

#[test]
fn requires_grad_grad_and_retain_grad_rules() {
    run(|| {
        let mut i = Tensor::from_slice(&[1i64], &[1])?;
        assert!(matches!(i.set_requires_grad(true), Err(Error::DType(_))));
        let x = Tensor::from_slice(&[3.0f64], &[1])?.requires_grad_(true)?;
        let mut mid = (&x * 2.0)?;
        mid.retain_grad()?;
        (&mid * &mid)?.sum_all()?.backward()?;
        assert_eq!(vals(&mid.grad().unwrap()), vec![12.0]);
        assert_eq!(vals(&x.grad().unwrap()), vec![24.0]);
        assert!(matches!(mid.set_requires_grad(false), Err(Error::Autograd(_))));
        let mut leaf = x.clone();
        let wrong = Tensor::zeros(&[2], DType::Float64)?;
        assert!(matches!(leaf.set_grad(Some(&wrong)), Err(Error::Shape(_))));
        leaf.set_grad(Some(&Tensor::from_slice(&[5.0f64], &[1])?))?;
        assert_eq!(vals(&x.grad().unwrap()), vec![5.0]);
        let d = x.detach()?;
        assert!(!d.requires_grad() && d.shares_storage(&x));
        Ok(())
    })
}

#[test]
fn autograd_grad_returns_gradients_without_accumulating() {
    run(|| {
        let x = Tensor::from_slice(&[1.0f64, 2.0], &[2])?.requires_grad_(true)?;
        let unused = Tensor::from_slice(&[0.0f64], &[1])?.requires_grad_(true)?;
        let y = (&x * &x)?.sum_all()?;
        let g = ctensor::grad(&[&y], None, &[&x, &unused], true, true, true)?;
        assert_eq!(vals(g[0].as_ref().unwrap()), vec![2.0, 4.0]);
        assert!(g[1].is_none());
        assert!(x.grad().is_none());
        // create_graph: the gradient is differentiable again (d/dx sum(2x) = 2)
        let gg = ctensor::grad(&[&g[0].as_ref().unwrap().sum_all()?], None, &[&x], false, false, false)?;
        assert_eq!(vals(gg[0].as_ref().unwrap()), vec![2.0, 2.0]);
        assert!(matches!(ctensor::grad(&[&y], None, &[&unused], false, false, false), Err(Error::Autograd(_))));
        let bad = ctensor::grad(&[&y], Some(&[None, None]), &[&x], false, false, false);
        assert!(matches!(bad, Err(Error::InvalidArgument(_))));
        Ok(())
    })
}

#[test]
fn no_grad_guard_restores_the_previous_mode() {
    run(|| {
        let w = Tensor::ones(&[2], DType::Float32)?.requires_grad_(true)?;
        assert!(ctensor::is_grad_enabled());
        {
            let _outer = no_grad();
            assert!(!ctensor::is_grad_enabled());
            assert!(!(&w * 2.0)?.requires_grad());
            {
                let _inner = set_grad_enabled(true);
                assert!((&w * 2.0)?.requires_grad());
            }
            assert!(!ctensor::is_grad_enabled(), "inner guard restored the outer (off) mode");
        }
        assert!(ctensor::is_grad_enabled());
        // grad mode is per thread: a no_grad here does not affect another thread
        let _g = no_grad();
        std::thread::spawn(|| assert!(ctensor::is_grad_enabled())).join().unwrap();
        Ok(())
    })
}

/// y = x^3 as a custom function whose backward (3 x^2 g) is a Rust closure capturing a saved tensor.
fn cube(x: &Tensor, calls: Arc<AtomicUsize>) -> ctensor::Result<Tensor> {
    let y = {
        let _g = no_grad();
        (x * x * x)?
    };
    let saved = x.detach()?;
    let mut out = custom_function("CubeBackward", &[x], &[y], move |g| {
        calls.fetch_add(1, Ordering::SeqCst);
        Ok(vec![Some(((&saved * &saved * &g[0])? * 3.0)?)])
    })?;
    Ok(out.remove(0))
}

#[test]
fn custom_function_backward_runs_the_closure() {
    run(|| {
        let calls = Arc::new(AtomicUsize::new(0));
        let x = Tensor::from_slice(&[1.0f64, -2.0, 0.5], &[3])?.requires_grad_(true)?;
        let y = cube(&x, calls.clone())?;
        assert_eq!(y.grad_fn_name(), "CubeBackward");
        assert_eq!(vals(&y), vec![1.0, -8.0, 0.125]);
        y.sum_all()?.backward()?;
        assert_eq!(vals(&x.grad().unwrap()), vec![3.0, 12.0, 0.75]);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        let c2 = calls.clone();
        gradcheck(move |t| cube(&t[0], c2.clone()), &[&det(&[2, 2], 0.3)])?;
        Ok(())
    })
}

#[test]
fn custom_function_closure_is_dropped_with_the_graph() {
    run(|| {
        struct DropFlag(Arc<AtomicUsize>);
        impl Drop for DropFlag {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let dropped = Arc::new(AtomicUsize::new(0));
        let flag = DropFlag(dropped.clone());
        let x = Tensor::from_slice(&[1.0f64], &[1])?.requires_grad_(true)?;
        let y = custom_function("Id", &[&x], &[x.detach()?], move |g| {
            let _keep = &flag;
            Ok(vec![Some(g[0].clone())])
        })?;
        assert_eq!(dropped.load(Ordering::SeqCst), 0);
        drop(y);
        assert_eq!(dropped.load(Ordering::SeqCst), 1, "ctx_release dropped the closure exactly once");
        Ok(())
    })
}

#[test]
fn custom_function_errors_and_panics_become_callback_errors() {
    run(|| {
        let x = Tensor::from_slice(&[1.0f64, 2.0], &[2])?.requires_grad_(true)?;
        let failing = custom_function("Failing", &[&x], &[x.detach()?], |_| {
            Err(Error::Shape("my backward: shapes [7] and [8] disagree".into()))
        })?
        .remove(0);
        let err = err_of(failing.sum_all()?.backward());
        assert!(matches!(&err, Error::Callback(m) if m.contains("Failing") && m.contains("[7] and [8]")), "{err}");

        let panicking = custom_function("Panicking", &[&x], &[x.detach()?], |_| panic!("boom in backward"))?.remove(0);
        let err = err_of(panicking.sum_all()?.backward());
        assert!(matches!(&err, Error::Callback(m) if m.contains("boom in backward")), "{err}");

        let wrong_count = custom_function("WrongCount", &[&x], &[x.detach()?], |_| Ok(vec![]))?.remove(0);
        let err = err_of(wrong_count.sum_all()?.backward());
        assert!(matches!(&err, Error::Callback(m) if m.contains("0 gradients for 1 inputs")), "{err}");

        let wrong_shape = custom_function("WrongShape", &[&x], &[x.detach()?], |_| {
            Ok(vec![Some(Tensor::zeros(&[5], DType::Float64)?)])
        })?
        .remove(0);
        let err = err_of(wrong_shape.sum_all()?.backward());
        assert!(matches!(&err, Error::Callback(m) if m.contains("[5]")), "{err}");
        assert!(x.grad().is_none());
        Ok(())
    })
}

#[test]
fn gradcheck_detects_a_wrong_backward() {
    run(|| {
        // backward says 2x^2 where the truth is 3x^2: gradcheck must fail
        let wrong_cube = |t: &[Tensor]| -> ctensor::Result<Tensor> {
            let y = {
                let _g = no_grad();
                (&t[0] * &t[0] * &t[0])?
            };
            let saved = t[0].detach()?;
            let f = move |g: &[Tensor]| Ok(vec![Some(((&saved * &saved * &g[0])? * 2.0)?)]);
            Ok(custom_function("WrongCube", &[&t[0]], &[y], f)?.remove(0))
        };
        let x = det(&[3], 0.2);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| gradcheck(wrong_cube, &[&x])));
        assert!(outcome.is_err(), "gradcheck accepted a wrong gradient");
        Ok(())
    })
}

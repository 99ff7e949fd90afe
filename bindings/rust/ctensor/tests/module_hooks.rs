// module_hooks.rs - nn::Hooked (torch's module hooks): pre-forward and forward hooks replacing input and output,
// the full backward hook's gradients against hand-computed ones (and replacing the input's gradient), a hook on a
// module whose input needs no grad, removal, a failing hook, and re-entry refused instead of deadlocking.
mod common;

use std::sync::{Arc, Mutex};

use common::{assert_close, err_of, run, vals};
use ctensor::nn::{Hooked, Linear, Module};
use ctensor::{DType, Error, Tensor};

/// What a test's hooks record, shared with the test.
type Log<T> = Arc<Mutex<Vec<T>>>;

fn linear64() -> Linear {
    let weight = Tensor::from_slice(&[1.0f64, -2.0, 0.5, 3.0, 0.25, -1.0], &[2, 3]).unwrap().requires_grad_(true).unwrap();
    let bias = Tensor::from_slice(&[0.5f64, -0.5], &[2]).unwrap().requires_grad_(true).unwrap();
    Linear { weight, bias: Some(bias) }
}

fn input(requires_grad: bool) -> Tensor {
    Tensor::from_slice(&[1.0f64, 2.0, 3.0, -1.0, 0.5, 2.0], &[2, 3]).unwrap().requires_grad_(requires_grad).unwrap()
}

#[test]
fn forward_hooks_replace_input_and_output() {
    run(|| {
        let mut layer = Hooked::new(linear64());
        let x = input(false);
        let plain = vals(&layer.forward(&x)?);
        let doubled = vals(&layer.module.forward(&(&x * 2.0)?)?);
        let pre = layer.register_forward_pre_hook(|x| Ok(Some((x * 2.0)?)))?;
        let seen: Log<f64> = Arc::default();
        let seen_in_hook = seen.clone();
        let post = layer.register_forward_hook(move |x, y| {
            *seen_in_hook.lock().unwrap() = vals(x);
            Ok(Some((y + 1.0)?))
        })?;
        let y = vals(&layer.forward(&x)?);
        assert_close(&y, &doubled.iter().map(|v| v + 1.0).collect::<Vec<_>>(), 0.0, 1e-12);
        assert_eq!(*seen.lock().unwrap(), vals(&x).iter().map(|v| v * 2.0).collect::<Vec<_>>());
        assert!(layer.remove_hook(pre)?);
        assert!(!layer.remove_hook(pre)?);
        assert!(layer.remove_hook(post)?);
        assert_eq!(vals(&layer.forward(&x)?), plain);
        // a hook returning None leaves the value alone
        layer.register_forward_hook(|_, _| Ok(None))?;
        assert_eq!(vals(&layer.forward(&x)?), plain);
        Ok(())
    });
}

#[test]
fn full_backward_hook_sees_and_replaces_gradients() {
    run(|| {
        let mut layer = Hooked::new(linear64());
        let calls: Log<(Vec<f64>, Vec<f64>)> = Arc::default();
        let record = calls.clone();
        let id = layer.register_full_backward_hook(move |gi, go| {
            record.lock().unwrap().push((vals(gi.expect("the input requires grad")), vals(go)));
            Ok(None)
        })?;
        let x = input(true);
        let w = Tensor::from_slice(&[1.0f64, 2.0, -1.0, 0.5], &[2, 2])?;
        (&layer.forward(&x)? * &w)?.sum_all()?.backward()?;
        // grad_output = w, grad_input = w @ weight
        let expected_gi = vals(&w.matmul(&layer.module.weight)?);
        {
            let calls = calls.lock().unwrap();
            assert_eq!(calls.len(), 1);
            assert_eq!(calls[0].1, vals(&w));
            assert_close(&calls[0].0, &expected_gi, 0.0, 1e-12);
        }
        assert_close(&vals(&x.grad().unwrap()), &expected_gi, 0.0, 1e-12);
        // the weight's gradient is untouched by the hooks: w^T @ x
        assert_close(&vals(&layer.module.weight.grad().unwrap()), &vals(&w.t()?.matmul(&x)?), 0.0, 1e-12);

        // a second hook replaces the input's gradient; the first still sees the original one
        layer.register_full_backward_hook(|gi, _| Ok(Some((gi.unwrap() * 0.0)?)))?;
        let x2 = input(true);
        (&layer.forward(&x2)? * &w)?.sum_all()?.backward()?;
        assert_eq!(vals(&x2.grad().unwrap()), vec![0.0; 6]);
        assert_eq!(calls.lock().unwrap().len(), 2);
        assert!(layer.remove_hook(id)?);
        Ok(())
    });
}

#[test]
fn backward_hook_without_input_grad_gets_none() {
    run(|| {
        let mut layer = Hooked::new(linear64());
        let seen: Log<(bool, Vec<f64>)> = Arc::default();
        let record = seen.clone();
        layer.register_full_backward_hook(move |gi, go| {
            record.lock().unwrap().push((gi.is_some(), vals(go)));
            Ok(None)
        })?;
        layer.forward(&input(false))?.sum_all()?.backward()?;
        assert_eq!(*seen.lock().unwrap(), vec![(false, vec![1.0; 4])]);
        assert!(layer.module.bias.as_ref().unwrap().grad().is_some());
        // no graph, no hook: under no_grad nothing is recorded
        {
            let _g = ctensor::no_grad();
            layer.forward(&input(true))?;
        }
        assert_eq!(seen.lock().unwrap().len(), 1);
        Ok(())
    });
}

#[test]
fn hook_errors_and_reentry() {
    run(|| {
        let mut layer = Hooked::new(Linear::with_options(3, 2, true, DType::Float64, None)?);
        layer.register_full_backward_hook(|_, _| Err(Error::InvalidArgument("refused by the test".into())))?;
        let e = err_of(layer.forward(&input(true))?.sum_all()?.backward());
        assert!(matches!(&e, Error::Callback(m) | Error::InvalidArgument(m) if m.contains("refused by the test")), "{e}");

        // a forward pre-hook that calls forward of its own module is refused (its hooks are in use), not a deadlock
        type Cell = Arc<Mutex<Option<Arc<Hooked<Linear>>>>>;
        let cell: Cell = Arc::default();
        let (cell_in_hook, probe) = (cell.clone(), Arc::new(Mutex::new(None::<String>)));
        let probe_in_hook = probe.clone();
        let mut selfish = Hooked::new(linear64());
        selfish.register_forward_pre_hook(move |x| {
            let me = cell_in_hook.lock().unwrap().clone();
            if let Some(me) = me {
                *probe_in_hook.lock().unwrap() = me.forward(x).err().map(|e| e.to_string());
            }
            Ok(None)
        })?;
        let selfish = Arc::new(selfish);
        *cell.lock().unwrap() = Some(selfish.clone());
        assert_eq!(vals(&selfish.forward(&input(false))?).len(), 4);
        let message = probe.lock().unwrap().clone().expect("the inner forward failed");
        assert!(message.contains("hooks are in use"), "{message}");
        *cell.lock().unwrap() = None; // break the cycle module -> hook -> module
        Ok(())
    });
}

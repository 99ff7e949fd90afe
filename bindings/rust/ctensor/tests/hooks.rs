// hooks.rs - tensor hooks: they see the gradient, can replace it (leaf and non-leaf), run in registration
// order, stop after removal, report errors and panics as Error::Callback, and their closures are dropped
// exactly once (on removal, when the tensor and its graphs are freed, or when registration fails).
mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{err_of, run, vals};
use ctensor::{DType, Error, Tensor};

/// Counts its drops: moved into a hook closure, it tells when the library dropped the closure.
struct DropCount(Arc<AtomicUsize>);

impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn counter() -> (Arc<AtomicUsize>, DropCount) {
    let c = Arc::new(AtomicUsize::new(0));
    (c.clone(), DropCount(c))
}

fn leaf(v: &[f64]) -> Tensor {
    Tensor::from_slice(v, &[v.len() as i64]).unwrap().requires_grad_(true).unwrap()
}

#[test]
fn leaf_hook_sees_and_replaces_the_gradient() {
    run(|| {
        let mut x = leaf(&[1.0, 2.0, 3.0]);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        x.register_hook(move |g| {
            log.lock().unwrap().push(vals(g));
            Ok(Some((g * 10.0)?))
        })?;
        (&x * &x)?.sum_all()?.backward()?; // incoming gradient 2x
        assert_eq!(*seen.lock().unwrap(), vec![vec![2.0, 4.0, 6.0]]);
        assert_eq!(vals(&x.grad().unwrap()), vec![20.0, 40.0, 60.0]);
        // A second backward accumulates the replaced gradient again.
        x.sum_all()?.backward()?;
        assert_eq!(vals(&x.grad().unwrap()), vec![30.0, 50.0, 70.0]);
        assert_eq!(seen.lock().unwrap().len(), 2);
        Ok(())
    })
}

#[test]
fn non_leaf_hook_changes_what_flows_upstream() {
    run(|| {
        let x = leaf(&[1.0, -2.0]);
        let mut y = (&x * 3.0)?;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        y.register_hook(move |g| {
            log.lock().unwrap().push(vals(g));
            Ok(Some(g.ones_like()?))
        })?;
        (&y * &y)?.sum_all()?.backward()?; // dz/dy = 2y = [6, -12], replaced by ones
        assert_eq!(*seen.lock().unwrap(), vec![vec![6.0, -12.0]]);
        assert_eq!(vals(&x.grad().unwrap()), vec![3.0, 3.0]);
        Ok(())
    })
}

#[test]
fn hooks_run_in_registration_order_and_stop_after_removal() {
    run(|| {
        let mut x = leaf(&[1.0, 2.0]);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (o1, o2) = (order.clone(), order.clone());
        let (drops, guard) = counter();
        let first = x.register_hook(move |g| {
            let _keep = &guard;
            o1.lock().unwrap().push("add");
            Ok(Some((g + 1.0)?))
        })?;
        x.register_hook(move |g| {
            o2.lock().unwrap().push("double");
            Ok(Some((g * 2.0)?))
        })?;
        x.sum_all()?.backward()?;
        assert_eq!(vals(&x.grad().unwrap()), vec![4.0, 4.0]); // (1 + 1) * 2
        assert_eq!(*order.lock().unwrap(), vec!["add", "double"]);
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        x.remove_hook(first)?;
        assert_eq!(drops.load(Ordering::SeqCst), 1, "removal drops the closure");
        x.set_grad(None)?;
        x.sum_all()?.backward()?;
        assert_eq!(vals(&x.grad().unwrap()), vec![2.0, 2.0]);
        assert_eq!(*order.lock().unwrap(), vec!["add", "double", "double"]);
        let e = err_of(x.remove_hook(first));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("no hook with id"), "{e}");
        Ok(())
    })
}

#[test]
fn closures_are_dropped_with_the_tensor_and_its_graphs() {
    run(|| {
        let (drops, guard) = counter();
        let mut x = leaf(&[1.0]);
        x.register_hook(move |_| {
            let _keep = &guard;
            Ok(None)
        })?;
        drop(x);
        assert_eq!(drops.load(Ordering::SeqCst), 1, "dropping the leaf drops its hook");

        let (drops, guard) = counter();
        let x = leaf(&[1.0, 2.0]);
        let mut y = (&x * 2.0)?;
        y.register_hook(move |_| {
            let _keep = &guard;
            Ok(None)
        })?;
        let z = (&y * &y)?;
        drop(y);
        assert_eq!(drops.load(Ordering::SeqCst), 0, "z's graph still reaches y's hook");
        drop(z);
        assert_eq!(drops.load(Ordering::SeqCst), 1);

        // Registration that fails still drops the closure (exactly once).
        let (drops, guard) = counter();
        let mut plain = Tensor::ones(&[2], DType::Float64)?;
        let e = err_of(plain.register_hook(move |_| {
            let _keep = &guard;
            Ok(None)
        }));
        assert!(matches!(e, Error::Autograd(_)) && e.message().contains("does not require grad"), "{e}");
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        Ok(())
    })
}

#[test]
fn hook_errors_and_panics_fail_the_backward() {
    run(|| {
        let mut x = leaf(&[1.0, 2.0]);
        let id = x.register_hook(|_| Err(Error::InvalidArgument("hook refuses this gradient".into())))?;
        let e = err_of(x.sum_all()?.backward());
        assert!(matches!(e, Error::Callback(_)) && e.message().contains("hook refuses this gradient"), "{e}");
        x.remove_hook(id)?;

        let id = x.register_hook(|_| panic!("boom in hook"))?;
        let e = err_of(x.sum_all()?.backward());
        assert!(matches!(e, Error::Callback(_)) && e.message().contains("tensor hook panicked: boom in hook"), "{e}");
        x.remove_hook(id)?;

        x.register_hook(|_| Ok(Some(Tensor::ones(&[3], DType::Float64)?)))?;
        let e = err_of(x.sum_all()?.backward());
        assert!(matches!(e, Error::Callback(_)) && e.message().contains("returned a gradient of shape [3]"), "{e}");
        assert!(x.grad().is_none(), "a failed backward accumulates nothing");
        Ok(())
    })
}

#[test]
fn hooks_run_on_the_thread_that_calls_backward() {
    run(|| {
        let mut x = leaf(&[1.0, 2.0]);
        let caller = Arc::new(Mutex::new(None));
        let c = caller.clone();
        x.register_hook(move |_| {
            *c.lock().unwrap() = Some(std::thread::current().id());
            Ok(None)
        })?;
        let y = (&x * 5.0)?.sum_all()?;
        let worker = std::thread::spawn(move || y.backward().map(|_| std::thread::current().id()));
        let id = worker.join().unwrap()?;
        assert_eq!(*caller.lock().unwrap(), Some(id));
        assert_eq!(vals(&x.grad().unwrap()), vec![5.0, 5.0]);
        Ok(())
    })
}

#[test]
fn a_hook_that_reaches_itself_again_fails_instead_of_deadlocking() {
    run(|| {
        let mut x = leaf(&[1.0, 2.0]);
        let inner_error = Arc::new(Mutex::new(None));
        let (xc, slot) = (x.clone(), inner_error.clone());
        let id = x.register_hook(move |_| {
            // A backward through the same leaf from inside its own hook (backward runs with grad mode off).
            let _recording = ctensor::set_grad_enabled(true);
            let inner = (&xc * 2.0)?.sum_all()?.backward();
            *slot.lock().unwrap() = inner.err();
            Ok(None)
        })?;
        x.sum_all()?.backward()?;
        let e = inner_error.lock().unwrap().take().expect("the inner backward must fail");
        assert!(matches!(e, Error::Callback(_)) && e.message().contains("called it again"), "{e}");
        assert_eq!(vals(&x.grad().unwrap()), vec![1.0, 1.0]);
        x.remove_hook(id)?; // drops the closure and with it the clone of x it holds
        Ok(())
    })
}

// threads.rs - Tensor is Send + Sync (asserted at compile time); tensors shared by reference or moved
// between threads compute correct results, drops on other threads release, and errors stay per thread.
mod common;

use std::sync::Arc;

use common::run;
use ctensor::{DType, Error, Tensor};

fn assert_send<T: Send>() {}
fn assert_sync<T: Sync>() {}

#[test]
fn send_and_sync_hold_at_compile_time() {
    assert_send::<Tensor>();
    assert_sync::<Tensor>();
    assert_send::<ctensor::Error>();
    assert_send::<ctensor::Generator>();
    assert_send::<ctensor::optim::Optimizer>();
}

#[test]
fn shared_tensors_are_read_concurrently() {
    run(|| {
        let a = Tensor::arange(0.0, 1000.0, 1.0, DType::Float64)?;
        let b = Tensor::ones(&[1000], DType::Float64)?;
        let sums: Vec<f64> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|k| {
                    let (a, b) = (&a, &b);
                    s.spawn(move || -> ctensor::Result<f64> {
                        let mut total = 0.0;
                        for _ in 0..50 {
                            total = (a * k as f64 + b)?.sum_all()?.item()?;
                        }
                        Ok(total)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect::<ctensor::Result<_>>()
        })?;
        for (k, s) in sums.iter().enumerate() {
            assert_eq!(*s, 499500.0 * k as f64 + 1000.0);
        }
        Ok(())
    })
}

#[test]
fn clones_moved_to_threads_are_released_there() {
    run(|| {
        let x = Arc::new(Tensor::ones(&[16], DType::Float32)?);
        let joins: Vec<_> = (0..8)
            .map(|_| {
                let t = x.as_ref().clone();
                std::thread::spawn(move || {
                    let y = (&t * 3.0).unwrap();
                    y.sum_all().unwrap().item().unwrap()
                })
            })
            .collect();
        for j in joins {
            assert_eq!(j.join().unwrap(), 48.0);
        }
        Ok(())
    })
}

#[test]
fn autograd_runs_independently_on_each_thread() {
    run(|| {
        let joins: Vec<_> = (1..=4)
            .map(|k| {
                std::thread::spawn(move || -> ctensor::Result<Vec<f64>> {
                    let x = Tensor::full(&[3], k as f64, DType::Float64)?.requires_grad_(true)?;
                    (&x * &x)?.sum_all()?.backward()?;
                    x.grad().unwrap().to_vec::<f64>()
                })
            })
            .collect();
        for (k, j) in (1..=4).zip(joins) {
            assert_eq!(j.join().unwrap()?, vec![2.0 * k as f64; 3]);
        }
        Ok(())
    })
}

#[test]
fn errors_are_reported_on_the_failing_thread_only() {
    run(|| {
        let a = Tensor::zeros(&[2], DType::Float32)?;
        let b = Tensor::zeros(&[5], DType::Float32)?;
        std::thread::scope(|s| {
            let bad = s.spawn(|| matches!(&a + &b, Err(Error::Shape(m)) if m.contains("[5]")));
            let good = s.spawn(|| (&a + &a).is_ok());
            assert!(bad.join().unwrap() && good.join().unwrap());
        });
        Ok(())
    })
}

#[test]
fn clone_and_drop_race_on_one_handle() {
    run(|| {
        let before = ctensor::live_handles();
        let x = Tensor::ones(&[4], DType::Float64)?;
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..2000 {
                        let c = x.clone();
                        drop(c);
                    }
                });
            }
        });
        assert_eq!(x.to_vec::<f64>()?, vec![1.0; 4]);
        drop(x);
        assert_eq!(ctensor::live_handles(), before);
        Ok(())
    })
}

#[test]
fn threads_differentiate_through_a_shared_leaf_with_grad() {
    run(|| {
        // ctensor::grad does not accumulate into .grad, so graphs sharing a leaf may run concurrently.
        let w = Tensor::from_slice(&[1.0f64, 2.0, 3.0], &[3])?.requires_grad_(true)?;
        let grads: Vec<Vec<f64>> = std::thread::scope(|s| {
            let joins: Vec<_> = (1..=4)
                .map(|k| {
                    let w = &w;
                    s.spawn(move || -> ctensor::Result<Vec<f64>> {
                        let y = ((w * w)? * k as f64)?.sum_all()?;
                        let g = ctensor::grad(&[&y], None, &[w], false, false, false)?;
                        g[0].as_ref().unwrap().to_vec::<f64>()
                    })
                })
                .collect();
            joins.into_iter().map(|j| j.join().unwrap()).collect::<ctensor::Result<_>>()
        })?;
        for (k, g) in (1..=4).zip(grads) {
            assert_eq!(g, vec![2.0 * k as f64, 4.0 * k as f64, 6.0 * k as f64]);
        }
        assert!(w.grad().is_none());
        Ok(())
    })
}

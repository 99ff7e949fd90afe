// lifetimes.rs - handle ownership: Drop releases, Clone retains, into_raw/from_raw hand references over,
// views and graphs keep what they need alive; counted with ct_live_handles (tests run one at a time).
mod common;

use common::run;
use ctensor::{live_handles, DType, Tensor};

#[test]
fn drop_releases_and_clone_retains_the_same_handle() {
    run(|| {
        let before = live_handles();
        let a = Tensor::zeros(&[3], DType::Float32)?;
        assert_eq!(live_handles(), before + 1);
        let b = a.clone();
        assert_eq!(live_handles(), before + 1, "a clone is another reference to the same handle");
        assert_eq!(a.as_raw(), b.as_raw());
        drop(a);
        assert_eq!(b.to_vec::<f32>()?, vec![0.0; 3], "the clone still works after the original drops");
        drop(b);
        assert_eq!(live_handles(), before);
        Ok(())
    })
}

#[test]
fn every_op_result_is_a_new_handle_released_on_drop() {
    run(|| {
        let before = live_handles();
        {
            let x = Tensor::ones(&[2, 2], DType::Float64)?;
            let v = x.reshape(&[4])?;
            let s = (&v + 1.0)?.sum_all()?;
            assert_eq!(s.item()?, 8.0);
            assert_eq!(live_handles(), before + 3);
        }
        assert_eq!(live_handles(), before);
        Ok(())
    })
}

#[test]
fn into_raw_and_from_raw_hand_the_reference_over() {
    run(|| {
        let before = live_handles();
        let raw = Tensor::ones(&[2], DType::Int32)?.into_raw();
        assert_eq!(live_handles(), before + 1);
        let back = unsafe { Tensor::from_raw(raw) };
        assert_eq!(back.to_vec::<i32>()?, vec![1, 1]);
        drop(back);
        assert_eq!(live_handles(), before);
        Ok(())
    })
}

#[test]
fn a_view_outlives_its_base_handle() {
    run(|| {
        let view = {
            let base = Tensor::arange(0.0, 6.0, 1.0, DType::Float64)?;
            base.narrow(0, 2, 3)?
        };
        assert_eq!(view.to_vec::<f64>()?, vec![2.0, 3.0, 4.0]);
        Ok(())
    })
}

#[test]
fn graphs_and_gradients_are_released_with_their_tensors() {
    run(|| {
        let before = live_handles();
        {
            let x = Tensor::ones(&[3], DType::Float64)?.requires_grad_(true)?;
            let loss = (&x * &x)?.sum_all()?;
            loss.backward()?;
            let g = x.grad().unwrap();
            assert_eq!(g.to_vec::<f64>()?, vec![2.0; 3]);
        }
        assert_eq!(live_handles(), before);
        Ok(())
    })
}

#[test]
fn failed_ops_make_no_handle() {
    run(|| {
        let a = Tensor::zeros(&[2], DType::Float32)?;
        let b = Tensor::zeros(&[3], DType::Float32)?;
        let before = live_handles();
        for _ in 0..10 {
            assert!((&a * &b).is_err());
            assert!((&a * 2.0 + &b).is_err());
        }
        assert_eq!(live_handles(), before);
        Ok(())
    })
}

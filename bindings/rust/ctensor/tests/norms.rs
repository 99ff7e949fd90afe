//! The normalisation layers through the Rust API: layer/group/batch norm values against closed forms, the
//! running-statistic update, eval mode, a gradient, the modules and the error variants.
use ctensor::nn::Module;
use ctensor::{BatchNorm, DType, Error, GroupNorm, LayerNorm, Tensor};

fn vals(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

fn close(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() < 1e-9, "{:?} vs {:?}", a, b);
    }
}

#[test]
fn norms_match_closed_forms_and_update_running_stats() -> ctensor::Result<()> {
    // rows [1 2 3] and [2 4 6]: mean 2 / 4, biased var 2/3 and 8/3
    let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 2.0, 4.0, 6.0], &[2, 3])?.requires_grad_(true)?;
    let s1 = (2.0f64 / 3.0).sqrt();
    let s2 = (8.0f64 / 3.0).sqrt();
    let y = x.layer_norm(&[3], None, None, 0.0)?;
    close(&vals(&y), &[-1.0 / s1, 0.0, 1.0 / s1, -2.0 / s2, 0.0, 2.0 / s2]);
    // the gradient of sum(y) is zero (y sums to zero per row whatever x is)
    y.sum_all()?.backward()?;
    close(&vals(&x.grad().unwrap()), &[0.0; 6]);
    // group_norm of [2, 3, 1] in 1 group equals layer_norm over the row
    let g = x.reshape(&[2, 3, 1])?.group_norm(1, None, None, 0.0)?;
    close(&vals(&g), &vals(&y));
    // batch_norm of [2, 3]: channels (1, 2) (2, 4) (3, 6) with mean 1.5 3 4.5, biased var 0.25 1 2.25
    let rm = Tensor::zeros(&[3], DType::Float64)?;
    let rv = Tensor::ones(&[3], DType::Float64)?;
    let b = x.batch_norm(Some(&rm), Some(&rv), None, None, true, 0.5, 0.0)?;
    close(&vals(&b), &[-1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    close(&vals(&rm), &[0.75, 1.5, 2.25]);
    close(&vals(&rv), &[0.5 + 0.25, 0.5 + 1.0, 0.5 + 2.25]); // unbiased var 0.5 2 4.5, halved
    let e = x.batch_norm(Some(&rm), Some(&rv), None, None, false, 0.5, 0.0)?;
    close(&vals(&e)[..1], &[(1.0 - 0.75) / 0.75f64.sqrt()]);
    Ok(())
}

#[test]
fn modules_and_errors() -> ctensor::Result<()> {
    let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 5.0, 4.0, 6.0, 0.0, 1.0], &[2, 4])?;
    let mut bn = BatchNorm::new(4, DType::Float64)?;
    let y = bn.forward(&x)?;
    for (v, want) in vals(&y)[..4].iter().zip([-1.0, -1.0, 1.0, 1.0]) {
        assert!((v - want).abs() < 1e-4, "{} vs {}", v, want); // two values per channel: +-1 (eps aside)
    }
    bn.set_training(false);
    assert_eq!(bn.forward(&x)?.shape(), vec![2, 4]);
    assert_eq!(GroupNorm::new(2, 4, DType::Float64)?.forward(&x)?.shape(), vec![2, 4]);
    assert_eq!(LayerNorm::new(4, 1e-5, DType::Float64)?.forward(&x)?.shape(), vec![2, 4]);
    assert!(matches!(x.group_norm(3, None, None, 1e-5), Err(Error::InvalidArgument(m)) if m.contains("num_groups=3")));
    assert!(matches!(x.layer_norm(&[5], None, None, 1e-5), Err(Error::Shape(m)) if m.contains("normalized_shape=[5]")));
    let one = Tensor::from_slice(&[1.0f64, 2.0], &[1, 2])?;
    assert!(matches!(one.batch_norm(None, None, None, None, true, 0.1, 1e-5),
                     Err(Error::InvalidArgument(m)) if m.contains("more than 1 value per channel")));
    Ok(())
}

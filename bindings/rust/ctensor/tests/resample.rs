//! interpolate / Upsample through the Rust API: nearest and linear values against hand-computed ones, the
//! gradient of a bilinear upsample, the module, and the library's errors as Error variants.
use ctensor::nn::{Module, Upsample};
use ctensor::{Error, InterpolateMode, Resize, Tensor};

fn vals(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

#[test]
fn nearest_and_linear_values() -> ctensor::Result<()> {
    let x = Tensor::from_slice(&[0.0f64, 1.0, 2.0, 3.0], &[1, 1, 4])?;
    let near = x.interpolate(&Resize::Scale(vec![2.0]), InterpolateMode::Nearest, None, false)?;
    assert_eq!(vals(&near), [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0]);
    // align_corners: 7 points over [0, 3] in steps of 0.5
    let lin = x.interpolate(&Resize::Size(vec![7]), InterpolateMode::Linear, Some(true), false)?;
    assert_eq!(vals(&lin), [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]);
    // half-pixel centres: sample points (o + 0.5) * 4 / 2 - 0.5 = 0.5 and 2.5
    let down = x.interpolate(&Resize::Size(vec![2]), InterpolateMode::Linear, Some(false), false)?;
    assert_eq!(vals(&down), [0.5, 2.5]);
    Ok(())
}

#[test]
fn bilinear_gradient_and_module() -> ctensor::Result<()> {
    let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[1, 1, 2, 2])?.requires_grad_(true)?;
    let up = Upsample::new(Resize::Scale(vec![2.0, 2.0]), InterpolateMode::Linear);
    let y = up.forward(&x)?;
    assert_eq!(y.shape(), vec![1, 1, 4, 4]);
    y.sum_all()?.backward()?;
    // each output's weights sum to one, and the 2x layout is symmetric: every input gets 16 / 4
    assert_eq!(vals(&x.grad().unwrap()), [4.0, 4.0, 4.0, 4.0]);
    assert!(up.parameters().is_empty());
    Ok(())
}

#[test]
fn errors_are_variants() -> ctensor::Result<()> {
    let x = Tensor::from_slice(&[0.0f64, 1.0, 2.0], &[1, 1, 3])?;
    match x.interpolate(&Resize::Size(vec![4, 4]), InterpolateMode::Linear, None, false) {
        Err(Error::Shape(m)) => assert!(m.contains("interpolate"), "{m}"),
        other => panic!("expected a shape error, got {other:?}"),
    }
    match x.interpolate(&Resize::Size(vec![4]), InterpolateMode::Nearest, Some(true), false) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("align_corners"), "{m}"),
        other => panic!("expected an invalid-argument error, got {other:?}"),
    }
    Ok(())
}

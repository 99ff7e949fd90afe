//! The activations: values against their scalar definitions, gradients against central differences,
//! GLU/softmin/PReLU/RReLU, modules in Sequential, and error variants.
use ctensor::nn::{Activation, Module, PRelu, Sequential, Hardswish, SELU};
use ctensor::{DType, Error, Tensor};

/// A scalar definition to compare with, and a tensor function to differentiate.
type Scalar = Box<dyn Fn(f64) -> f64>;
type TensorFn = Box<dyn Fn(&Tensor) -> ctensor::Result<Tensor>>;

const X: [f64; 8] = [-4.0, -1.5, -0.5, 0.0, 0.25, 1.0, 3.0, 7.0];

fn close(a: &[f64], b: &[f64], tol: f64) {
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tol * (1.0 + y.abs()), "{a:?} vs {b:?}");
    }
}

#[test]
fn values_match_their_definitions() -> ctensor::Result<()> {
    let x = Tensor::from_slice1(&X)?;
    let sig = |v: f64| 1.0 / (1.0 + (-v).exp());
    let softplus = |v: f64| v.exp().ln_1p();
    let cases: Vec<(Tensor, Scalar)> = vec![
        (x.elu(0.7)?, Box::new(|v| if v > 0.0 { v } else { 0.7 * v.exp_m1() })),
        (x.celu(2.0)?, Box::new(|v| if v > 0.0 { v } else { 2.0 * (v / 2.0).exp_m1() })),
        (x.leaky_relu(0.1)?, Box::new(|v| if v > 0.0 { v } else { 0.1 * v })),
        (x.hardtanh(-1.0, 2.0)?, Box::new(|v| v.clamp(-1.0, 2.0))),
        (x.relu6()?, Box::new(|v| v.clamp(0.0, 6.0))),
        (x.hardsigmoid()?, Box::new(|v| (v / 6.0 + 0.5).clamp(0.0, 1.0))),
        (x.hardswish()?, Box::new(|v| v * (v + 3.0).clamp(0.0, 6.0) / 6.0)),
        (x.softshrink(0.5)?, Box::new(|v| if v > 0.5 { v - 0.5 } else if v < -0.5 { v + 0.5 } else { 0.0 })),
        (x.hardshrink(0.5)?, Box::new(|v| if v.abs() > 0.5 { v } else { 0.0 })),
        (x.threshold(0.5, -9.0)?, Box::new(|v| if v > 0.5 { v } else { -9.0 })),
        (x.mish()?, Box::new(move |v| v * softplus(v).tanh())),
        (x.log_sigmoid()?, Box::new(move |v| sig(v).ln())),
        (x.softsign()?, Box::new(|v| v / (1.0 + v.abs()))),
        (x.tanhshrink()?, Box::new(|v| v - v.tanh())),
        (x.rrelu(0.1, 0.3, false, None)?, Box::new(|v| if v > 0.0 { v } else { 0.2 * v })),
    ];
    for (got, f) in cases {
        close(&got.to_vec::<f64>()?, &X.iter().map(|&v| f(v)).collect::<Vec<_>>(), 1e-12);
    }
    Ok(())
}

#[test]
fn gradients_match_central_differences() -> ctensor::Result<()> {
    let b = [-1.2, -0.3, 0.4, 1.7, 2.5, -2.2];
    let fs: Vec<TensorFn> = vec![
        Box::new(|t| t.elu(0.7)),
        Box::new(|t| t.selu()),
        Box::new(|t| t.mish()),
        Box::new(|t| t.log_sigmoid()),
        Box::new(|t| t.hardswish()),
        Box::new(|t| t.softsign()),
        Box::new(|t| t.glu(0)),
        Box::new(|t| (t.softmin(0)? * t)?.sum_all()),
    ];
    for f in fs {
        let x = Tensor::from_slice1(&b)?.requires_grad_(true)?;
        f(&x)?.sum_all()?.backward()?;
        let g = x.grad().unwrap().to_vec::<f64>()?;
        for i in 0..b.len() {
            let at = |d: f64| -> ctensor::Result<f64> {
                let mut v = b.to_vec();
                v[i] += d;
                f(&Tensor::from_slice1(&v)?)?.sum_all()?.item()
            };
            let fd = (at(1e-6)? - at(-1e-6)?) / 2e-6;
            assert!((fd - g[i]).abs() < 1e-5 * (1.0 + fd.abs()), "d/dx[{i}]: {fd} vs {}", g[i]);
        }
    }
    Ok(())
}

#[test]
fn prelu_learns_a_slope_per_channel() -> ctensor::Result<()> {
    let layer = PRelu::new(2, 0.25)?;
    let x = Tensor::from_slice(&[-1.0f32, 2.0, -3.0, 4.0], &[1, 2, 2])?;
    let y = layer.forward(&x)?;
    assert_eq!(y.to_vec::<f32>()?, vec![-0.25, 2.0, -0.75, 4.0]);
    y.sum_all()?.backward()?;
    assert_eq!(layer.weight.grad().unwrap().to_vec::<f32>()?, vec![-1.0, -3.0]);
    assert_eq!(layer.parameters().len(), 1);
    let net = Sequential::new().add(SELU).add(Hardswish).add(Activation::new(|x| x.leaky_relu(0.1)));
    assert_eq!(net.forward(&x)?.size(), vec![1, 2, 2]);
    Ok(())
}

#[test]
fn bad_arguments_give_error_variants() -> ctensor::Result<()> {
    let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    assert!(matches!(x.glu(1), Err(Error::Shape(_))));
    assert!(matches!(x.glu(2), Err(Error::Index(_))));
    assert!(matches!(x.softshrink(-1.0), Err(Error::InvalidArgument(_))));
    assert!(matches!(x.celu(0.0), Err(Error::InvalidArgument(_))));
    assert!(matches!(x.rrelu(0.5, 0.1, true, None), Err(Error::InvalidArgument(_))));
    assert!(matches!(Tensor::from_slice1(&[1i64, 2])?.mish(), Err(Error::DType(_))));
    assert!(matches!(x.prelu(&Tensor::zeros(&[2], DType::Float64)?), Err(Error::Shape(_))));
    Ok(())
}

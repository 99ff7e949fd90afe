// unary_math.rs - the unary math ops of issue 14: values against std's f64 functions and closed forms, logit's
// eps, bool results, a gradient by central differences and the error for a bool positive.
mod common;

use common::{assert_close, err_of, gradcheck, run, vals};
use ctensor::{DType, Error, Tensor};

fn t64(v: &[f64]) -> Tensor {
    Tensor::from_slice(v, &[v.len() as i64]).unwrap()
}

#[test]
fn unary_math_values() {
    run(|| {
        let x = t64(&[-0.5, 0.25]);
        assert_close(&vals(&x.asin()?), &[(-0.5f64).asin(), 0.25f64.asin()], 1e-15, 0.0);
        assert_close(&vals(&x.acos()?), &[(-0.5f64).acos(), 0.25f64.acos()], 1e-15, 0.0);
        assert_close(&vals(&x.atan()?), &[(-0.5f64).atan(), 0.25f64.atan()], 1e-15, 0.0);
        assert_close(&vals(&x.sinh()?), &[(-0.5f64).sinh(), 0.25f64.sinh()], 1e-15, 0.0);
        assert_close(&vals(&x.cosh()?), &[(-0.5f64).cosh(), 0.25f64.cosh()], 1e-15, 0.0);
        assert_close(&vals(&x.asinh()?), &[(-0.5f64).asinh(), 0.25f64.asinh()], 1e-15, 0.0);
        assert_close(&vals(&t64(&[2.0]).acosh()?), &[2.0f64.acosh()], 1e-15, 0.0);
        assert_close(&vals(&x.atanh()?), &[(-0.5f64).atanh(), 0.25f64.atanh()], 1e-15, 0.0);
        let e = vals(&t64(&[0.5]).erf()?)[0];
        assert_close(&vals(&t64(&[e]).erfinv()?), &[0.5], 1e-14, 0.0);
        assert_close(&vals(&t64(&[0.5]).erfc()?), &[1.0 - e], 1e-15, 0.0);
        assert_close(&vals(&t64(&[4.0]).lgamma()?), &[6f64.ln()], 1e-14, 0.0);
        assert_close(&vals(&t64(&[1.0]).digamma()?), &[-0.5772156649015329], 1e-14, 0.0);
        assert_close(&vals(&t64(&[0.5, 0.0]).sinc()?), &[2.0 / std::f64::consts::PI, 1.0], 1e-15, 0.0);
        assert_close(&vals(&t64(&[180.0]).deg2rad()?), &[std::f64::consts::PI], 1e-15, 0.0);
        assert_close(&vals(&t64(&[std::f64::consts::PI]).rad2deg()?), &[180.0], 1e-15, 0.0);
        assert_close(&vals(&t64(&[0.0, 1.0]).i0()?), &[1.0, 1.2660658777520084], 1e-14, 0.0);
        assert_eq!(vals(&t64(&[-2.0, 0.0, 3.0]).sgn()?), vec![-1.0, 0.0, 1.0]);
        let l9 = (0.9f64 / 0.1).ln();
        assert_close(&vals(&t64(&[0.0, 0.5]).logit(Some(0.1))?), &[-l9, 0.0], 1e-12, 1e-15);
        assert_eq!(vals(&t64(&[0.0]).logit(None)?), vec![f64::NEG_INFINITY]);
        let b = t64(&[-0.0, 1.0, f64::INFINITY, f64::NEG_INFINITY]);
        assert_eq!(b.signbit()?.dtype(), DType::Bool);
        assert_eq!(vals(&b.signbit()?), vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!(vals(&b.isposinf()?), vec![0.0, 0.0, 1.0, 0.0]);
        assert_eq!(vals(&b.isneginf()?), vec![0.0, 0.0, 0.0, 1.0]);
        assert_eq!(vals(&x.positive()?), vals(&x));
        let mask = Tensor::from_slice(&[1.0f64], &[1])?.to_dtype(DType::Bool)?;
        assert!(matches!(err_of(mask.positive()), Error::DType(_)));
        let w = t64(&[0.3, -0.7]);
        gradcheck(|t| t[0].asin()?.mul(&t[0].erf()?), &[&w])?;
        Ok(())
    });
}

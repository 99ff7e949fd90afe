// binary_math.rs - the binary math ops of issue 14 (logaddexp .. nextafter): values against closed forms,
// NaN handling, the integer refusal, result dtypes and gradients against central finite differences.
mod common;

use common::{assert_close, err_of, gradcheck, run, vals};
use ctensor::{DType, Error, Tensor};

fn t64(v: &[f64]) -> Tensor {
    Tensor::from_slice(v, &[v.len() as i64]).unwrap()
}

#[test]
fn binary_math_values() {
    run(|| {
        let (a, b) = (t64(&[1.0, -2.0, 0.0]), t64(&[0.5, 3.0, -1.0]));
        let lae: Vec<f64> = [(1.0f64, 0.5f64), (-2.0, 3.0), (0.0, -1.0)].iter().map(|(x, y)| (x.exp() + y.exp()).ln()).collect();
        assert_close(&vals(&a.logaddexp(&b)?), &lae, 1e-15, 1e-15);
        let lae2: Vec<f64> = [(1.0f64, 0.5f64), (-2.0, 3.0), (0.0, -1.0)].iter().map(|(x, y)| (x.exp2() + y.exp2()).log2()).collect();
        assert_close(&vals(&a.logaddexp2(&b)?), &lae2, 1e-15, 1e-15);
        assert_close(&vals(&t64(&[3.0, 5.0]).hypot(&t64(&[4.0, 12.0]))?), &[5.0, 13.0], 0.0, 1e-15);
        assert_eq!(vals(&t64(&[0.0, 2.0]).xlogy(&t64(&[0.0, 1.0]))?), vec![0.0, 0.0]);
        assert_eq!(vals(&a.copysign(&b)?), vec![1.0, 2.0, -0.0]);
        let nan = f64::NAN;
        assert_eq!(vals(&t64(&[nan, 1.0]).fmax(&t64(&[2.0, nan]))?), vec![2.0, 1.0]);
        assert_eq!(vals(&t64(&[nan, 1.0]).fmin(&t64(&[-2.0, nan]))?), vec![-2.0, 1.0]);
        assert_eq!(vals(&a.heaviside(&t64(&[0.5]))?), vec![1.0, 0.0, 0.5]);
        assert_eq!(vals(&t64(&[1.0]).nextafter(&t64(&[2.0]))?), vec![1.0 + f64::EPSILON]);
        let i = Tensor::from_slice(&[1i64, -2], &[2])?;
        assert_eq!(i.xlogy(&i)?.dtype(), DType::Float32);
        assert_eq!(i.fmax(&i)?.dtype(), DType::Int64);
        assert!(matches!(err_of(i.logaddexp(&i)), Error::DType(m) if m.contains("logaddexp")));
        Ok(())
    });
}

#[test]
fn binary_math_gradients() {
    run(|| {
        let (a, b) = (t64(&[0.3, -1.2, 2.0]), t64(&[0.7, 1.5, 0.4]));
        gradcheck(|x| x[0].logaddexp(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].logaddexp2(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].hypot(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].xlogy(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].copysign(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].fmax(&x[1]), &[&a, &b])?;
        gradcheck(|x| x[0].fmin(&x[1]), &[&a, &b])
    });
}

#[test]
fn integer_ops_and_operators() {
    run(|| {
        let a = Tensor::from_slice(&[5i64, -3, 0, 7], &[4])?;
        let b = Tensor::from_slice(&[3i64, 2, 1, 4], &[4])?;
        assert_eq!((&a & &b)?.to_vec::<i64>()?, vec![1, 0, 0, 4]);
        assert_eq!((&a | &b)?.to_vec::<i64>()?, vec![7, -1, 1, 7]);
        assert_eq!((&a ^ &b)?.to_vec::<i64>()?, vec![6, -1, 1, 3]);
        assert_eq!((!&a)?.to_vec::<i64>()?, vec![-6, 2, -1, -8]);
        assert_eq!((&a << 2)?.to_vec::<i64>()?, vec![20, -12, 0, 28]);
        assert_eq!((&a >> &b)?.to_vec::<i64>()?, vec![0, -1, 0, 0]);
        assert_eq!((&a << 64)?.to_vec::<i64>()?, vec![0, 0, 0, 0]);
        assert_eq!((&a >> 64)?.to_vec::<i64>()?, vec![0, -1, 0, 0]);
        let c = Tensor::from_slice(&[-12i64, 0, 0, 4], &[4])?;
        let d = Tensor::from_slice(&[18i64, 0, -5, -6], &[4])?;
        assert_eq!(c.gcd(&d)?.to_vec::<i64>()?, vec![6, 0, 5, 2]);
        assert_eq!(c.lcm(&d)?.to_vec::<i64>()?, vec![36, 0, 0, 12]);
        let f = t64(&[1.0]);
        assert!(matches!(err_of(&f & &f), Error::DType(m) if m.contains("bitwise_and")));
        Ok(())
    });
}

#[test]
fn addcmul_addcdiv() {
    run(|| {
        let (s, a, b) = (t64(&[1.0, 2.0]), t64(&[2.0, -1.0]), t64(&[0.5, 4.0]));
        assert_eq!(vals(&s.addcmul(&a, &b, -0.5)?), vec![0.5, 4.0]);
        assert_eq!(vals(&s.addcdiv(&a, &b, 2.0)?), vec![9.0, 1.5]);
        gradcheck(|x| x[0].addcdiv(&x[1], &x[2], 0.7), &[&s, &a, &b])
    });
}

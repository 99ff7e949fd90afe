// more_ops.rs - issue 14's last reductions and products (logcumsumexp, aminmax, var_mean / std_mean, kron,
// tensordot, inner): values from closed forms / torch 1.13, gradients against finite differences, errors as Error.
mod common;

use common::{assert_close, err_of, gradcheck, run, vals};
use ctensor::{Error, Tensor};

fn t64(v: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(v, shape).unwrap()
}

#[test]
fn logcumsumexp_and_aminmax() {
    run(|| {
        let x = t64(&[0.0, 1.0, -1000.0, 2.0], &[4]);
        let l1 = (1.0f64.exp() + 1.0).ln();
        let l3 = (2.0f64.exp() + 1.0f64.exp() + 1.0).ln();
        assert_close(&vals(&x.logcumsumexp(0)?), &[0.0, l1, l1, l3], 1e-12, 0.0);
        assert!(matches!(err_of(x.logcumsumexp(1)), Error::Index(_)));
        gradcheck(|t| t[0].logcumsumexp(-1), &[&t64(&[0.1, -0.4, 0.7, 0.2, 0.3, -0.9], &[2, 3])])?;
        let m = t64(&[3.0, -1.0, 7.0, 2.0, 9.0, -5.0], &[2, 3]);
        let (lo, hi) = m.aminmax(None, false)?;
        assert_eq!((vals(&lo), vals(&hi)), (vec![-5.0], vec![9.0]));
        let (lo, hi) = m.aminmax(Some(1), true)?;
        assert_eq!(lo.shape(), vec![2, 1]);
        assert_eq!((vals(&lo), vals(&hi)), (vec![-1.0, -5.0], vec![7.0, 9.0]));
        assert!(matches!(err_of(t64(&[], &[0]).aminmax(None, false)), Error::Index(_)));
        Ok(())
    });
}

#[test]
fn var_mean_and_products() {
    run(|| {
        let x = t64(&[1.0, 2.0, 4.0, 8.0, 16.0, 32.0], &[2, 3]);
        let (v, m) = x.var_mean(&[1], 1.0, false)?;
        assert_close(&vals(&v), &[7.0 / 3.0, 448.0 / 3.0], 1e-12, 0.0);
        assert_close(&vals(&m), &[7.0 / 3.0, 56.0 / 3.0], 1e-12, 0.0);
        let (s, m) = x.std_mean(&[], 0.0, false)?;
        assert_close(&vals(&s), &[vals(&x.std(&[], 0.0, false)?)[0]], 1e-12, 0.0);
        assert_close(&vals(&m), &[63.0 / 6.0], 1e-12, 0.0);
        let a = t64(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
        let b = t64(&[0.0, 5.0, 6.0, 7.0], &[2, 2]);
        let k = a.kron(&b)?;
        assert_eq!(k.shape(), vec![4, 4]);
        assert_eq!(vals(&k)[..4].to_vec(), vec![0.0, 5.0, 0.0, 10.0]);
        assert_eq!(vals(&a.tensordot(&b, &[1], &[0])?), vals(&a.matmul(&b)?));
        assert_eq!(vals(&a.tensordot_n(&b, 2)?), vec![1.0 * 0.0 + 2.0 * 5.0 + 3.0 * 6.0 + 4.0 * 7.0]);
        assert_eq!(vals(&a.inner(&b)?), vec![10.0, 20.0, 20.0, 46.0]);
        assert!(matches!(err_of(a.tensordot(&t64(&[1.0; 6], &[3, 2]), &[1], &[0])), Error::Shape(_)));
        gradcheck(|t| t[0].kron(&t[1]), &[&t64(&[0.1, 0.2], &[2]), &t64(&[0.3, -0.4, 0.5], &[3])])?;
        Ok(())
    });
}

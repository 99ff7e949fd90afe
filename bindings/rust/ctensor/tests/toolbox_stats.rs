// toolbox_stats.rs - the rest of the toolbox of issue 14 (repeat_interleave, meshgrid, median, quantile, cdist):
// values from torch 1.13, gradients against finite differences, and the library's errors as the crate's Error.
mod common;

use common::{assert_close, err_of, gradcheck, run, vals};
use ctensor::{meshgrid, Error, Interpolation, Repeats, Tensor};

fn t64(v: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(v, shape).unwrap()
}

#[test]
fn repeat_interleave_and_meshgrid() {
    run(|| {
        let x = t64(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
        assert_eq!(vals(&x.repeat_interleave(Repeats::Count(2), None, None)?), vec![1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0]);
        let r = Tensor::from_slice(&[1i64, 2], &[2])?;
        assert_eq!(vals(&x.repeat_interleave(Repeats::PerSlice(&r), Some(0), Some(3))?), vec![1.0, 2.0, 3.0, 4.0, 3.0, 4.0]);
        assert!(matches!(err_of(x.repeat_interleave(Repeats::Count(-1), None, None)), Error::InvalidArgument(_)));
        let g = meshgrid(&[&t64(&[1.0, 2.0], &[2]), &t64(&[3.0, 4.0, 5.0], &[3])], true)?;
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].shape(), vec![3, 2]);
        assert_eq!(vals(&g[1]), vec![3.0, 3.0, 4.0, 4.0, 5.0, 5.0]);
        assert!(matches!(err_of(meshgrid(&[], false)), Error::InvalidArgument(_)));
        gradcheck(|t| t[0].repeat_interleave(Repeats::PerSlice(&r), Some(0), None), &[&t64(&[0.1, 0.2, 0.3, 0.4], &[2, 2])])?;
        Ok(())
    });
}

#[test]
fn median_and_quantile() {
    run(|| {
        let nan = f64::NAN;
        let x = t64(&[1.0, nan, 2.0, 3.0, 5.0, 4.0], &[2, 3]);
        assert!(vals(&x.median()?)[0].is_nan());
        assert_eq!(vals(&x.nanmedian()?), vec![3.0]);
        let (v, i) = x.median_dim(1, false)?;
        assert!(vals(&v)[0].is_nan());
        assert_eq!(i.to_vec::<i64>()?, vec![1, 2]);
        let (v, i) = x.nanmedian_dim(1, true)?;
        assert_eq!(v.shape(), vec![2, 1]);
        assert_eq!(vals(&v), vec![1.0, 4.0]);
        assert_eq!(i.to_vec::<i64>()?, vec![0, 2]);
        let y = t64(&[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0], &[2, 4]);
        let q = t64(&[0.25, 0.5, 0.9], &[3]);
        assert_close(&vals(&y.quantile_t(&q, Some(1), false, Interpolation::Linear)?), &[1.0, 4.25, 2.0, 5.5, 3.7, 8.1], 1e-12, 1e-12);
        assert_eq!(vals(&y.quantile_t(&q, Some(1), false, Interpolation::Nearest)?), vec![1.0, 5.0, 3.0, 6.0, 4.0, 9.0]);
        assert_close(&vals(&y.quantile(0.4, None, false, Interpolation::Linear)?), &[2.8], 1e-12, 1e-12);
        assert_eq!(vals(&x.nanquantile(0.5, Some(1), false, Interpolation::Lower)?), vec![1.0, 4.0]);
        assert!(matches!(err_of(y.quantile(1.5, None, false, Interpolation::Linear)), Error::InvalidArgument(_)));
        gradcheck(|t| t[0].quantile_t(&q, Some(0), true, Interpolation::Midpoint), &[&t64(&[0.3, -0.2, 0.9, 0.1, 0.5, 0.7], &[3, 2])])?;
        gradcheck(|t| t[0].median_dim(0, false).map(|p| p.0), &[&t64(&[0.3, -0.2, 0.9, 0.1, 0.5, 0.7], &[3, 2])])?;
        Ok(())
    });
}

#[test]
fn cdist_values_and_gradient() {
    run(|| {
        let a = t64(&[0.0, 0.0, 1.0, 2.0, 3.0, -1.0], &[3, 2]);
        let b = t64(&[1.0, 1.0, 0.0, 0.0], &[2, 2]);
        assert_eq!(vals(&a.cdist(&b, 1.0, 0)?), vec![2.0, 0.0, 1.0, 3.0, 4.0, 4.0]);
        assert_eq!(vals(&a.cdist(&b, f64::INFINITY, 0)?), vec![1.0, 0.0, 1.0, 2.0, 2.0, 3.0]);
        assert_close(&vals(&a.cdist(&b, 2.0, 1)?), &[2f64.sqrt(), 0.0, 1.0, 5f64.sqrt(), 8f64.sqrt(), 10f64.sqrt()], 1e-7, 1e-7);
        assert!(matches!(err_of(a.cdist(&t64(&[1.0], &[1, 1]), 2.0, 0)), Error::Shape(_)));
        gradcheck(|t| t[0].cdist(&t[1], 3.0, 0), &[&t64(&[0.1, 0.5, -0.3, 0.8], &[2, 2]), &t64(&[0.4, -0.6, 0.2, 0.9, 1.1, 0.0], &[3, 2])])?;
        Ok(())
    });
}

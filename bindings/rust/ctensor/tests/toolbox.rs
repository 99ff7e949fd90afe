// toolbox.rs - the toolbox ops of issue 14 (in-place scatters, index_add, index_copy, index_put and their
// in-place forms): values against hand-computed results, a gradient against finite differences, and the
// library's errors mapped to the crate's Error variants.
mod common;

use common::{assert_close, err_of, gradcheck, run, vals};
use ctensor::{DType, Error, ScatterReduce, Tensor};

fn t64(v: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(v, shape).unwrap()
}

fn idx(v: &[i64]) -> Tensor {
    Tensor::from_slice(v, &[v.len() as i64]).unwrap()
}

#[test]
fn indexed_writes_values() {
    run(|| {
        let x = t64(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2]);
        let src = t64(&[1.0, 1.0, 2.0, 2.0, 3.0, 3.0], &[3, 2]);
        assert_eq!(vals(&x.index_add(0, &idx(&[2, 0, 2]), &src, 10.0)?), vec![21.0, 22.0, 3.0, 4.0, 45.0, 46.0]);
        let two = t64(&[9.0, 8.0, 7.0, 6.0, 5.0, 4.0], &[3, 2]);
        assert_eq!(vals(&x.index_copy(1, &idx(&[1, 0]), &two)?), vec![8.0, 9.0, 6.0, 7.0, 4.0, 5.0]);
        let put = x.index_put(&[&idx(&[0, -1]), &idx(&[1])], &t64(&[-5.0], &[1]), false)?;
        assert_eq!(vals(&put), vec![1.0, -5.0, 3.0, 4.0, 5.0, -5.0]);
        let acc = t64(&[0.0; 3], &[3]).index_put(&[&idx(&[1, 1, 1])], &t64(&[1.0, 2.0, 3.0], &[3]), true)?;
        assert_eq!(vals(&acc), vec![0.0, 6.0, 0.0]);
        let mut y = x.copy()?;
        y.index_add_(0, &idx(&[1]), &t64(&[10.0, 20.0], &[1, 2]), 1.0)?;
        y.index_copy_(0, &idx(&[0]), &t64(&[-1.0, -2.0], &[1, 2]))?;
        y.index_put_(&[&idx(&[2]), &idx(&[0])], &t64(&[7.0], &[1]), true)?;
        let col = Tensor::from_slice(&[1i64, 0, 1], &[3, 1])?;
        y.scatter_(1, &col, &t64(&[0.5, 0.5, 0.5], &[3, 1]))?;
        y.scatter_add_(1, &col, &t64(&[1.0, 1.0, 1.0], &[3, 1]))?;
        assert_close(&vals(&y), &[-1.0, 1.5, 1.5, 24.0, 12.0, 1.5], 0.0, 0.0);
        Ok(())
    });
}

#[test]
fn index_put_gradient() {
    run(|| {
        let (r, c) = (idx(&[0, 2, 2]), idx(&[1, -1, 1]));
        gradcheck(
            |t| t[0].index_put(&[&r, &c], &t[1], true),
            &[&t64(&[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], &[3, 2]), &t64(&[1.0, 2.0, 3.0], &[3])],
        )?;
        gradcheck(
            |t| t[0].index_add(1, &idx(&[1, 1]), &t[1], -2.0),
            &[&t64(&[0.1, 0.2, 0.3, 0.4], &[2, 2]), &t64(&[1.0, 2.0, 3.0, 4.0], &[2, 2])],
        )
    });
}

#[test]
fn errors_map_to_variants() {
    run(|| {
        let x = t64(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2]);
        match err_of(x.index_put(&[&idx(&[5])], &t64(&[1.0], &[1]), false)) {
            Error::Index(m) => {
                assert!(m.contains("index_put: index 5 is out of bounds for dimension 0 with size 3"), "{m}")
            }
            e => panic!("unexpected {e:?}"),
        }
        match err_of(x.index_add(0, &idx(&[0, 1]), &t64(&[1.0, 1.0], &[1, 2]), 1.0)) {
            Error::Shape(m) => assert!(m.contains("index_add"), "{m}"),
            e => panic!("unexpected {e:?}"),
        }
        let mut leaf = x.copy()?.requires_grad_(true)?;
        match err_of(leaf.index_copy_(0, &idx(&[0]), &t64(&[1.0, 1.0], &[1, 2]))) {
            Error::Autograd(m) => assert!(m.contains("index_copy_"), "{m}"),
            e => panic!("unexpected {e:?}"),
        }
        Ok(())
    });
}

#[test]
fn counting_and_searching() {
    run(|| {
        let seq = t64(&[1.0, 3.0, 5.0, 7.0], &[4]);
        let v = t64(&[3.0, 0.0, 8.0], &[3]);
        assert_eq!(seq.searchsorted(&v, false, false, None)?.to_vec::<i64>()?, vec![1, 0, 4]);
        assert_eq!(seq.searchsorted(&v, true, true, None)?.to_vec::<i32>()?, vec![2, 0, 4]);
        assert_eq!(v.bucketize(&seq, false, false)?.to_vec::<i64>()?, vec![1, 0, 4]);
        let x = Tensor::from_slice(&[1i64, 1, 3], &[3])?;
        assert_eq!(x.bincount(None, 5)?.to_vec::<i64>()?, vec![0, 2, 0, 1, 0]);
        assert_eq!(vals(&x.bincount(Some(&t64(&[0.5, 1.0, 2.0], &[3])), 0)?), vec![0.0, 1.5, 0.0, 2.0]);
        assert_eq!(vals(&t64(&[0.0, 1.0, 2.0, 3.0, 4.0], &[5]).histc(4, 0.0, 4.0)?), vec![1.0, 1.0, 1.0, 2.0]);
        let (mv, mi) = t64(&[1.0, 3.0, 3.0, 2.0], &[4]).cummax(0)?;
        assert_eq!((vals(&mv), mi.to_vec::<i64>()?), (vec![1.0, 3.0, 3.0, 3.0], vec![0, 1, 2, 2]));
        let (nv, ni) = t64(&[2.0, 1.0, 4.0], &[3]).cummin(0)?;
        assert_eq!((vals(&nv), ni.to_vec::<i64>()?), (vec![2.0, 1.0, 1.0], vec![0, 1, 1]));
        gradcheck(|t| Ok(t[0].cummax(1)?.0), &[&t64(&[0.3, -0.2, 0.9, 0.1, 0.5, -0.7], &[2, 3])])?;
        match err_of(Tensor::from_slice(&[-1i64], &[1])?.bincount(None, 0)) {
            Error::InvalidArgument(m) => assert!(m.contains("bincount: input must be non-negative"), "{m}"),
            e => panic!("unexpected {e:?}"),
        }
        Ok(())
    });
}

#[test]
fn composites_and_dtype_limits() {
    run(|| {
        let x = t64(&[1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY], &[4]);
        assert_eq!(vals(&x.nan_to_num(None, None, Some(-7.0))?), vec![1.0, 0.0, f64::MAX, -7.0]);
        let m = t64(&[1.0, 4.0, 9.0, 16.0, 2.0, 3.0, 5.0, 8.0], &[2, 4]);
        assert_eq!(vals(&m.diff(1, -1, None, None)?), vec![3.0, 5.0, 7.0, 1.0, 2.0, 3.0]);
        let pre = t64(&[0.0, 0.0], &[2, 1]);
        assert_eq!(vals(&m.diff(2, 1, Some(&pre), None)?), vec![2.0, 2.0, 2.0, -1.0, 1.0, 1.0]);
        let i = Tensor::from_slice(&[2i64, 1, 0], &[1, 3])?;
        assert_eq!(vals(&m.narrow(1, 0, 3)?.take_along_dim(&i, Some(1))?), vec![9.0, 4.0, 1.0, 5.0, 3.0, 2.0]);
        assert_eq!(vals(&m.take_along_dim(&Tensor::from_slice(&[7i64], &[1])?, None)?), vec![8.0]);
        gradcheck(
            |t| t[0].diff(1, 0, None, Some(&t[1])),
            &[&t64(&[0.1, 0.2, 0.3, 0.4], &[2, 2]), &t64(&[1.0, 2.0], &[1, 2])],
        )?;
        let f = ctensor::finfo(DType::Float32)?;
        assert_eq!((f.bits, f.eps, f.tiny, f.resolution), (32, f32::EPSILON as f64, f32::MIN_POSITIVE as f64, 1e-6));
        assert_eq!(f.max, f32::MAX as f64);
        let g = ctensor::iinfo(DType::Int64)?;
        assert_eq!((g.bits, g.min, g.max), (64, i64::MIN, i64::MAX));
        assert!(matches!(ctensor::finfo(DType::Int32), Err(Error::DType(_))));
        assert!(matches!(ctensor::iinfo(DType::Float64), Err(Error::DType(_))));
        Ok(())
    });
}

#[test]
fn scatter_reduce_every_reduction() {
    run(|| {
        let x = t64(&[1.0, 2.0, 3.0], &[3]);
        let src = t64(&[4.0, 5.0, 6.0], &[3]);
        let index = idx(&[0, 0, 2]);
        let cases = [
            (ScatterReduce::Sum, [10.0, 2.0, 9.0], [9.0, 2.0, 6.0]),
            (ScatterReduce::Prod, [20.0, 2.0, 18.0], [20.0, 2.0, 6.0]),
            (ScatterReduce::Mean, [10.0 / 3.0, 2.0, 4.5], [4.5, 2.0, 6.0]),
            (ScatterReduce::Amax, [5.0, 2.0, 6.0], [5.0, 2.0, 6.0]),
            (ScatterReduce::Amin, [1.0, 2.0, 3.0], [4.0, 2.0, 6.0]),
        ];
        for (r, with_self, without_self) in cases {
            assert_close(&vals(&x.scatter_reduce(0, &index, &src, r, true)?), &with_self, 1e-12, 1e-12);
            assert_close(&vals(&x.scatter_reduce(0, &index, &src, r, false)?), &without_self, 1e-12, 1e-12);
        }
        let mut y = x.copy()?;
        y.scatter_reduce_(0, &index, &src, ScatterReduce::Prod, true)?;
        assert_close(&vals(&y), &[20.0, 2.0, 18.0], 1e-12, 1e-12);
        let bad = x.scatter_reduce(0, &idx(&[0, 3, 1]), &src, ScatterReduce::Sum, true);
        assert!(matches!(bad, Err(Error::Index(m)) if m.contains("out of bounds")));
        Ok(())
    });
}

// math.rs - unary ops, reductions and linear algebra: values against hand-computed results, gradients
// against central finite differences, in-place ops and the text form.
mod common;

use common::{assert_close, det, det_pos, err_of, gradcheck, run, vals};
use ctensor::{DType, Error, Tensor};

fn t64(v: &[f64]) -> Tensor {
    Tensor::from_slice(v, &[v.len() as i64]).unwrap()
}

#[test]
fn unary_values() {
    run(|| {
        let e = std::f64::consts::E;
        assert_close(&vals(&t64(&[0.0, 1.0]).exp()?), &[1.0, e], 1e-15, 0.0);
        assert_close(&vals(&t64(&[1.0, e]).log()?), &[0.0, 1.0], 0.0, 1e-15);
        assert_close(&vals(&t64(&[1e-10]).log1p()?), &[1e-10f64.ln_1p()], 1e-15, 0.0);
        assert_close(&vals(&t64(&[1e-10]).expm1()?), &[1e-10f64.exp_m1()], 1e-15, 0.0);
        assert_eq!(vals(&t64(&[4.0, 9.0]).sqrt()?), vec![2.0, 3.0]);
        assert_eq!(vals(&t64(&[4.0, 0.25]).rsqrt()?), vec![0.5, 2.0]);
        assert_close(&vals(&t64(&[0.5]).sin()?), &[0.5f64.sin()], 1e-15, 0.0);
        assert_close(&vals(&t64(&[0.5]).cos()?), &[0.5f64.cos()], 1e-15, 0.0);
        assert_close(&vals(&t64(&[0.5]).tan()?), &[0.5f64.tan()], 1e-15, 0.0);
        assert_close(&vals(&t64(&[0.5]).tanh()?), &[0.5f64.tanh()], 1e-15, 0.0);
        assert_eq!(vals(&t64(&[0.0]).sigmoid()?), vec![0.5]);
        assert_eq!(vals(&t64(&[-1.0, 0.0, 2.0]).relu()?), vec![0.0, 0.0, 2.0]);
        assert_close(&vals(&t64(&[1.0, -1.0]).gelu()?), &[0.8413447460685429, -0.15865525393145707], 1e-12, 0.0);
        assert_close(&vals(&t64(&[1.0]).silu()?), &[0.7310585786300049], 1e-12, 0.0);
        assert_close(&vals(&t64(&[0.0, 100.0]).softplus()?), &[std::f64::consts::LN_2, 100.0], 1e-12, 0.0);
        assert_eq!(vals(&t64(&[-2.5, 2.5]).floor()?), vec![-3.0, 2.0]);
        assert_eq!(vals(&t64(&[-2.5, 2.5]).ceil()?), vec![-2.0, 3.0]);
        assert_eq!(vals(&t64(&[0.5, 1.5, 2.5, -2.5]).round()?), vec![0.0, 2.0, 2.0, -2.0]);
        assert_eq!(vals(&t64(&[-3.0, 0.0, 2.0]).sign()?), vec![-1.0, 0.0, 1.0]);
        assert_eq!(vals(&t64(&[-3.0, 2.0]).abs()?), vec![3.0, 2.0]);
        assert_eq!(vals(&t64(&[4.0]).reciprocal()?), vec![0.25]);
        assert_eq!(vals(&t64(&[1.0, -2.0]).neg()?), vec![-1.0, 2.0]);
        assert_eq!(vals(&(-t64(&[1.0]))?), vec![-1.0]);
        assert_eq!(vals(&t64(&[3.0]).pow_scalar(2.0)?), vec![9.0]);
        assert_eq!(vals(&t64(&[-5.0, 0.5, 5.0]).clamp(Some(0.0), Some(1.0))?), vec![0.0, 0.5, 1.0]);
        assert_eq!(vals(&t64(&[-5.0, 5.0]).clamp(None, Some(1.0))?), vec![-5.0, 1.0]);
        let b = Tensor::from_slice(&[true, false], &[2])?;
        assert_eq!(b.logical_not()?.to_vec::<bool>()?, vec![false, true]);
        let i = Tensor::from_slice(&[-3i32, 4], &[2])?;
        assert_eq!(i.abs()?.to_vec::<i32>()?, vec![3, 4]);
        Ok(())
    })
}

#[test]
fn gradcheck_unary_ops() {
    run(|| {
        let x = det(&[2, 3], 0.2);
        let p = det_pos(&[2, 3], 0.6);
        for f in [Tensor::exp, Tensor::sin, Tensor::cos, Tensor::tanh, Tensor::sigmoid, Tensor::relu, Tensor::gelu] {
            gradcheck(|t| f(&t[0]), &[&x])?;
        }
        for f in [Tensor::silu, Tensor::softplus, Tensor::abs, Tensor::neg, Tensor::expm1] {
            gradcheck(|t| f(&t[0]), &[&x])?;
        }
        for f in [Tensor::log, Tensor::sqrt, Tensor::rsqrt, Tensor::reciprocal, Tensor::log1p, Tensor::tan] {
            gradcheck(|t| f(&t[0]), &[&p])?;
        }
        gradcheck(|t| t[0].pow_scalar(3.0), &[&x])?;
        gradcheck(|t| t[0].pow_scalar(-1.5), &[&p])?;
        gradcheck(|t| t[0].clamp(Some(-0.5), Some(0.7)), &[&x])?;
        Ok(())
    })
}

#[test]
fn reduction_values() {
    run(|| {
        let x = Tensor::from_slice(&[1.0f64, 5.0, 3.0, 4.0, 2.0, 6.0], &[2, 3])?;
        assert_eq!(vals(&x.prod(&[1], false)?), vec![15.0, 48.0]);
        assert_close(&vals(&x.var(&[], 1.0, false)?), &[3.5], 1e-14, 0.0);
        assert_close(&vals(&x.var(&[1], 0.0, false)?), &[8.0 / 3.0, 8.0 / 3.0], 1e-14, 0.0);
        assert_close(&vals(&x.std(&[0], 1.0, true)?), &[4.5f64.sqrt(), 4.5f64.sqrt(), 4.5f64.sqrt()], 1e-14, 0.0);
        let lse = (1f64.exp() + 5f64.exp() + 3f64.exp()).ln();
        assert_close(&vals(&x.logsumexp(&[1], false)?)[..1], &[lse], 1e-14, 0.0);
        assert_close(&vals(&t64(&[3.0, -4.0]).norm(2.0, &[], false)?), &[5.0], 1e-15, 0.0);
        assert_eq!(vals(&t64(&[3.0, -4.0]).norm(1.0, &[], false)?), vec![7.0]);
        assert_eq!(vals(&t64(&[3.0, -4.0]).norm(f64::INFINITY, &[], false)?), vec![4.0]);
        let b = Tensor::from_slice(&[true, false, true, true], &[2, 2])?;
        assert_eq!(b.all(&[1], false)?.to_vec::<bool>()?, vec![false, true]);
        assert_eq!(b.any(&[0], false)?.to_vec::<bool>()?, vec![true, true]);
        assert_eq!((x.max()?.item()?, x.min()?.item()?), (6.0, 1.0));
        let (v, i) = x.max_dim(1, false)?;
        assert_eq!((vals(&v), i.to_vec::<i64>()?), (vec![5.0, 6.0], vec![1, 2]));
        let (v, i) = x.min_dim(0, true)?;
        assert_eq!((v.size(), vals(&v), i.to_vec::<i64>()?), (vec![1, 3], vec![1.0, 2.0, 3.0], vec![0, 1, 0]));
        assert_eq!(x.argmax(0, false)?.to_vec::<i64>()?, vec![1, 0, 1]);
        assert_eq!(x.argmin(1, false)?.to_vec::<i64>()?, vec![0, 1]);
        assert_eq!((x.argmax_all()?.item_i64()?, x.argmin_all()?.item_i64()?), (5, 0));
        assert_eq!(vals(&x.cumsum(1)?), vec![1.0, 6.0, 9.0, 4.0, 6.0, 12.0]);
        assert!(matches!(x.cumsum(2), Err(Error::Index(_))));
        Ok(())
    })
}

#[test]
fn gradcheck_reductions() {
    run(|| {
        let x = det(&[3, 4], 0.3);
        gradcheck(|t| t[0].prod(&[1], false), &[&x])?;
        gradcheck(|t| t[0].var(&[0], 1.0, true), &[&x])?;
        gradcheck(|t| t[0].std(&[], 1.0, false), &[&x])?;
        gradcheck(|t| t[0].logsumexp(&[-1], false), &[&x])?;
        gradcheck(|t| t[0].norm(2.0, &[1], true), &[&x])?;
        gradcheck(|t| t[0].norm(3.0, &[], false), &[&x])?;
        gradcheck(|t| t[0].max_dim(1, false).map(|(v, _)| v), &[&x])?;
        gradcheck(|t| t[0].max(), &[&x])?;
        gradcheck(|t| t[0].cumsum(0), &[&x])?;
        Ok(())
    })
}

#[test]
fn linear_algebra_values_and_errors() {
    run(|| {
        let a = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        let b = Tensor::from_slice(&[1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2])?;
        assert_eq!(a.matmul(&b)?.to_vec::<f32>()?, vec![4.0, 5.0, 10.0, 11.0]);
        let batch = Tensor::ones(&[4, 1, 2, 3], DType::Float32)?;
        assert_eq!(batch.matmul(&Tensor::ones(&[5, 3, 7], DType::Float32)?)?.size(), vec![4, 5, 2, 7]);
        assert_eq!(t64(&[1.0, 2.0]).dot(&t64(&[3.0, 4.0]))?.item()?, 11.0);
        assert_eq!(vals(&t64(&[1.0, 2.0]).outer(&t64(&[3.0, 4.0, 5.0]))?), vec![3.0, 4.0, 5.0, 6.0, 8.0, 10.0]);
        assert_eq!(vals(&t64(&[1.0, 2.0, 3.0]).matmul(&b.to_dtype(DType::Float64)?)?), vec![4.0, 5.0]);
        assert_eq!(a.t()?.size(), vec![3, 2]);
        let err = err_of(a.matmul(&a));
        assert!(matches!(&err, Error::Shape(m) if m.contains("[2, 3]") && m.contains("matmul")), "{err}");
        Ok(())
    })
}

#[test]
fn gradcheck_linear_algebra() {
    run(|| {
        gradcheck(|t| t[0].matmul(&t[1]), &[&det(&[2, 3], 0.1), &det(&[3, 4], 0.2)])?;
        gradcheck(|t| t[0].matmul(&t[1]), &[&det(&[2, 1, 2, 3], 0.1), &det(&[3, 3, 2], 0.2)])?;
        gradcheck(|t| t[0].matmul(&t[1]), &[&det(&[3], 0.1), &det(&[3, 2], 0.5)])?;
        gradcheck(|t| t[0].dot(&t[1]), &[&det(&[4], 0.1), &det(&[4], 0.7)])?;
        gradcheck(|t| t[0].outer(&t[1]), &[&det(&[2], 0.1), &det(&[3], 0.7)])?;
        gradcheck(|t| t[0].t(), &[&det(&[2, 3], 0.4)])?;
        Ok(())
    })
}

#[test]
fn in_place_ops_write_through_views_and_bump_versions() {
    run(|| {
        let mut x = Tensor::zeros(&[2, 3], DType::Float64)?;
        let v0 = x.version();
        x.fill_(2.0)?;
        assert!(x.version() > v0);
        x.add_(&t64(&[1.0, 2.0, 3.0]))?;
        assert_eq!(vals(&x), vec![3.0, 4.0, 5.0, 3.0, 4.0, 5.0]);
        x.sub_alpha_(&t64(&[1.0, 1.0, 1.0]), 2.0)?;
        x.mul_(&Tensor::scalar(2.0, DType::Float64)?)?;
        assert_eq!(vals(&x), vec![2.0, 4.0, 6.0, 2.0, 4.0, 6.0]);
        x.div_(&t64(&[2.0, 4.0, 6.0]))?;
        assert_eq!(vals(&x), vec![1.0; 6]);
        let mut row = x.select(0, 1)?;
        row.copy_(&t64(&[7.0, 8.0, 9.0]))?;
        assert_eq!(vals(&x), vec![1.0, 1.0, 1.0, 7.0, 8.0, 9.0]);
        x.clamp_(Some(2.0), Some(8.0))?;
        assert_eq!(vals(&x), vec![2.0, 2.0, 2.0, 7.0, 8.0, 8.0]);
        x.sub_(&x.clone())?;
        x.add_alpha_(&t64(&[1.0, 1.0, 1.0]), 3.0)?;
        assert_eq!(vals(&x), vec![3.0; 6]);
        x.zero_()?;
        assert_eq!(vals(&x), vec![0.0; 6]);
        let mut i = Tensor::zeros(&[2], DType::Int32)?;
        i.add_(&Tensor::from_slice(&[1i64, 2], &[2])?)?; // keeps its dtype
        assert_eq!((i.dtype(), i.to_vec::<i32>()?), (DType::Int32, vec![1, 2]));
        // like PyTorch, a float result cannot be written into an integer tensor
        assert!(matches!(i.add_(&t64(&[1.5, 2.5])), Err(Error::DType(m)) if m.contains("int32")));
        assert!(matches!(x.add_(&Tensor::zeros(&[4], DType::Float64)?), Err(Error::Shape(_))));
        Ok(())
    })
}

#[test]
fn display_and_debug_use_the_library_repr() {
    run(|| {
        let x = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
        let text = x.to_string();
        assert!(text.starts_with("tensor([[1., 2.],"), "{text}");
        assert_eq!(format!("{x:?}"), text);
        let g = Tensor::from_slice(&[1.5f64], &[1])?.requires_grad_(true)?;
        assert!(g.to_string().contains("requires_grad=True"), "{g}");
        let big = Tensor::arange(0.0, 5000.0, 1.0, DType::Int64)?;
        assert!(big.to_text()?.len() < 1000, "long tensors are summarised");
        Ok(())
    })
}

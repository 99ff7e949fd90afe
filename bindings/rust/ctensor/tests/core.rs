// core.rs - creation, element round trips, metadata, views, binary ops and operators, comparisons,
// where, sum/mean and structured errors; each test also checks that it leaked no handle.
mod common;

use common::{assert_close, err_of, run, vals};
use ctensor::{DType, Device, Error, Tensor};

#[test]
fn from_slice_and_to_vec_round_trip_every_element_type() {
    run(|| {
        assert_eq!(Tensor::from_slice(&[1.5f32, -2.0], &[2])?.to_vec::<f32>()?, vec![1.5, -2.0]);
        assert_eq!(Tensor::from_slice(&[1e300f64, -0.25], &[2])?.to_vec::<f64>()?, vec![1e300, -0.25]);
        assert_eq!(Tensor::from_slice(&[i32::MIN, 7], &[2])?.to_vec::<i32>()?, vec![i32::MIN, 7]);
        assert_eq!(Tensor::from_slice(&[i64::MAX, -3], &[2])?.to_vec::<i64>()?, vec![i64::MAX, -3]);
        assert_eq!(Tensor::from_slice(&[255u8, 0, 9], &[3])?.to_vec::<u8>()?, vec![255, 0, 9]);
        let b = Tensor::from_slice(&[true, false, true], &[3])?;
        assert_eq!(b.dtype(), DType::Bool);
        assert_eq!(b.to_vec::<bool>()?, vec![true, false, true]);
        // to_vec converts the dtype when it differs
        assert_eq!(Tensor::from_slice(&[1i32, 2, 3], &[3])?.to_vec::<f64>()?, vec![1.0, 2.0, 3.0]);
        Ok(())
    })
}

#[test]
fn metadata_of_a_new_tensor() {
    run(|| {
        let t = Tensor::zeros(&[2, 3, 4], (DType::Float64, Device::Cpu))?;
        assert_eq!(t.size(), vec![2, 3, 4]);
        assert_eq!(t.strides(), vec![12, 4, 1]);
        assert_eq!((t.dim(), t.numel()), (3, 24));
        assert_eq!((t.dtype(), t.device()), (DType::Float64, Device::Cpu));
        assert!(t.is_contiguous() && t.is_leaf() && !t.requires_grad());
        assert_eq!(t.storage_offset(), 0);
        assert!(!t.data_ptr().is_null());
        let big = Tensor::zeros(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 2], DType::UInt8)?; // rank above the first buffer
        assert_eq!(big.size().len(), 10);
        Ok(())
    })
}

#[test]
fn creation_functions_give_known_values() {
    run(|| {
        assert_eq!(Tensor::ones(&[2, 2], DType::Int32)?.to_vec::<i32>()?, vec![1; 4]);
        assert_eq!(Tensor::full(&[3], 2.5, DType::Float32)?.to_vec::<f32>()?, vec![2.5; 3]);
        assert_eq!(Tensor::arange(0.0, 5.0, 1.0, DType::Int64)?.to_vec::<i64>()?, vec![0, 1, 2, 3, 4]);
        assert_eq!(Tensor::arange(3.0, 0.0, -1.5, DType::Float64)?.to_vec::<f64>()?, vec![3.0, 1.5]);
        assert_close(&vals(&Tensor::linspace(0.0, 1.0, 5, DType::Float64)?), &[0.0, 0.25, 0.5, 0.75, 1.0], 0.0, 1e-15);
        assert_eq!(Tensor::eye(2, 3, DType::Float32)?.to_vec::<f32>()?, vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        let s = Tensor::scalar(4.0, DType::Float64)?;
        assert_eq!((s.dim(), s.item()?), (0, 4.0));
        assert_eq!(Tensor::scalar(-7.0, DType::Int64)?.item_i64()?, -7);
        let like = Tensor::from_slice(&[1.0f32, 2.0], &[2])?;
        assert_eq!(like.zeros_like()?.to_vec::<f32>()?, vec![0.0, 0.0]);
        assert_eq!(like.ones_like()?.to_vec::<f32>()?, vec![1.0, 1.0]);
        assert_eq!(like.full_like(9.0)?.to_vec::<f32>()?, vec![9.0, 9.0]);
        assert_eq!(like.empty_like()?.size(), vec![2]);
        let empty = Tensor::empty(&[0, 3], DType::Float32)?;
        assert_eq!((empty.numel(), empty.to_vec::<f32>()?.len()), (0, 0));
        Ok(())
    })
}

#[test]
fn from_vec_is_zero_copy_and_frees_the_vec() {
    run(|| {
        let data = vec![1.0f64, 2.0, 3.0, 4.0];
        let ptr = data.as_ptr();
        let t = Tensor::from_vec(data, &[2, 2])?;
        assert_eq!(t.data_ptr() as *const f64, ptr);
        assert_eq!(t.to_vec::<f64>()?, vec![1.0, 2.0, 3.0, 4.0]);
        let err = err_of(Tensor::from_vec(vec![1i32, 2, 3], &[2, 2]));
        assert!(matches!(err, Error::Shape(ref m) if m.contains("[2, 2]")), "{err}");
        Ok(())
    })
}

#[test]
fn views_share_storage_and_have_known_layouts() {
    run(|| {
        let x = Tensor::arange(0.0, 24.0, 1.0, DType::Float64)?.reshape(&[2, 3, 4])?;
        let t = x.transpose(0, 2)?;
        assert_eq!((t.size(), t.strides()), (vec![4, 3, 2], vec![1, 4, 12]));
        assert!(t.shares_storage(&x) && !t.is_contiguous());
        assert_eq!(x.permute(&[2, 0, 1])?.size(), vec![4, 2, 3]);
        assert_eq!(x.select(1, -1)?.to_vec::<f64>()?, vec![8.0, 9.0, 10.0, 11.0, 20.0, 21.0, 22.0, 23.0]);
        assert_eq!(x.narrow(2, 1, 2)?.select(0, 0)?.select(0, 0)?.to_vec::<f64>()?, vec![1.0, 2.0]);
        let d = x.diagonal(1, -1, 1)?; // x[b][k + 1][k] = 12b + 5k + 4: dim 1 is offset from dim -1
        assert_eq!((d.size(), d.to_vec::<f64>()?), (vec![2, 2], vec![4.0, 9.0, 16.0, 21.0]));
        assert!(d.shares_storage(&x));
        assert_eq!(x.slice(2, 0, 4, 3)?.flatten(0, -1)?.to_vec::<f64>()?.len(), 12);
        assert_eq!(x.view(&[6, -1])?.size(), vec![6, 4]);
        assert_eq!(x.unsqueeze(0)?.size(), vec![1, 2, 3, 4]);
        assert_eq!(x.unsqueeze(-1)?.squeeze(-1)?.size(), vec![2, 3, 4]);
        assert_eq!(Tensor::zeros(&[1, 3, 1], DType::Float32)?.squeeze_all()?.size(), vec![3]);
        let row = Tensor::from_slice(&[1.0f32, 2.0], &[1, 2])?;
        let e = row.expand(&[3, -1])?;
        assert_eq!((e.size(), e.strides()), (vec![3, 2], vec![0, 1]));
        let c = t.contiguous()?;
        assert!(c.is_contiguous() && !c.shares_storage(&x));
        assert_eq!(c.to_vec::<f64>()?, t.to_vec::<f64>()?);
        let copy = x.copy()?;
        assert!(!copy.shares_storage(&x));
        assert_eq!(x.select(0, 1)?.t()?.size(), vec![4, 3]);
        assert!(matches!(x.t(), Err(Error::Shape(_) | Error::Index(_))));
        Ok(())
    })
}

#[test]
fn binary_ops_broadcast_and_promote_like_pytorch() {
    run(|| {
        let a = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        let b = Tensor::from_slice(&[10.0f32, 20.0, 30.0], &[3])?;
        assert_eq!(a.add(&b)?.to_vec::<f32>()?, vec![11.0, 22.0, 33.0, 14.0, 25.0, 36.0]);
        assert_eq!(a.sub_alpha(&b, 0.5)?.to_vec::<f32>()?, vec![-4.0, -8.0, -12.0, -1.0, -5.0, -9.0]);
        assert_eq!(a.add_alpha(&b, 2.0)?.to_vec::<f32>()?, vec![21.0, 42.0, 63.0, 24.0, 45.0, 66.0]);
        assert_eq!(a.div(&b)?.to_vec::<f32>()?, vec![0.1, 0.1, 0.1, 0.4, 0.25, 0.2]);
        let i = Tensor::from_slice(&[7i64, -7], &[2])?;
        let j = Tensor::from_slice(&[3i64, 3], &[2])?;
        assert_eq!(i.remainder(&j)?.to_vec::<i64>()?, vec![1, 2]); // Python's sign rule
        assert_eq!(i.floor_divide(&j)?.to_vec::<i64>()?, vec![2, -3]); // floors toward -inf
        let min = Tensor::from_slice(&[i64::MIN], &[1])?;
        assert_eq!(min.floor_divide(&Tensor::from_slice(&[-1i64], &[1])?)?.to_vec::<i64>()?, vec![i64::MIN]); // wraps
        assert!(matches!(i.floor_divide(&Tensor::from_slice(&[0i64], &[1])?), Err(Error::InvalidArgument(_))));
        assert_eq!(i.div(&j)?.dtype(), DType::Float32); // true division of integers
        assert_eq!(i.maximum(&j)?.to_vec::<i64>()?, vec![7, 3]);
        assert_eq!(i.minimum(&j)?.to_vec::<i64>()?, vec![3, -7]);
        assert_eq!(Tensor::from_slice(&[2.0f64], &[1])?.pow(&Tensor::from_slice(&[10.0f64], &[1])?)?.item()?, 1024.0);
        let y = Tensor::from_slice(&[1.0f64], &[1])?;
        assert_close(&vals(&y.atan2(&(0.0 - &y)?)?), &[3.0 * std::f64::consts::FRAC_PI_4], 0.0, 1e-15);
        // int32 + float64 tensor -> float64
        let p = Tensor::from_slice(&[1i32], &[1])?.add(&Tensor::from_slice(&[0.5f64], &[1])?)?;
        assert_eq!((p.dtype(), p.item()?), (DType::Float64, 1.5));
        Ok(())
    })
}

#[test]
fn operators_cover_owned_borrowed_scalar_and_result_operands() {
    run(|| {
        let a = Tensor::from_slice(&[1.0f32, 2.0], &[2])?;
        let b = Tensor::from_slice(&[3.0f32, 5.0], &[2])?;
        assert_eq!((&a + &b)?.to_vec::<f32>()?, vec![4.0, 7.0]);
        assert_eq!((&a - &b)?.to_vec::<f32>()?, vec![-2.0, -3.0]);
        assert_eq!((&a * &b)?.to_vec::<f32>()?, vec![3.0, 10.0]);
        assert_eq!((&b / &a)?.to_vec::<f32>()?, vec![3.0, 2.5]);
        assert_eq!((a.clone() + b.clone())?.to_vec::<f32>()?, vec![4.0, 7.0]);
        assert_eq!((a.clone() * &b)?.to_vec::<f32>()?, vec![3.0, 10.0]);
        assert_eq!((&a - b.clone())?.to_vec::<f32>()?, vec![-2.0, -3.0]);
        // scalars on both sides; a wrapped scalar does not upcast float32
        let s = (&a * 2.5)?;
        assert_eq!((s.dtype(), s.to_vec::<f32>()?), (DType::Float32, vec![2.5, 5.0]));
        assert_eq!((10.0 - &a)?.to_vec::<f32>()?, vec![9.0, 8.0]);
        assert_eq!((1.0 / a.clone())?.to_vec::<f32>()?, vec![1.0, 0.5]);
        assert_eq!((a.clone() + 1.0)?.to_vec::<f32>()?, vec![2.0, 3.0]);
        // an int tensor with a float scalar becomes float (like PyTorch)
        let i = Tensor::from_slice(&[1i64, 2], &[2])?;
        assert_eq!((&i * 0.5)?.to_vec::<f64>()?, vec![0.5, 1.0]);
        // Result on the left chains, and errors propagate through the chain
        assert_eq!((&a * &b + &a)?.to_vec::<f32>()?, vec![4.0, 12.0]);
        assert_eq!(((&a + &b) / b.clone())?.to_vec::<f32>()?, vec![4.0 / 3.0, 7.0 / 5.0]);
        let wrong = Tensor::zeros(&[3], DType::Float32)?;
        assert!(matches!(&a + &wrong + &a, Err(Error::Shape(_))));
        Ok(())
    })
}

#[test]
fn comparisons_and_where() {
    run(|| {
        let a = Tensor::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
        let b = Tensor::from_slice(&[2.0f64, 2.0, 2.0], &[3])?;
        assert_eq!(a.eq(&b)?.to_vec::<bool>()?, vec![false, true, false]);
        assert_eq!(a.ne(&b)?.to_vec::<bool>()?, vec![true, false, true]);
        assert_eq!(a.lt(&b)?.to_vec::<bool>()?, vec![true, false, false]);
        assert_eq!(a.le(&b)?.to_vec::<bool>()?, vec![true, true, false]);
        assert_eq!(a.gt(&b)?.to_vec::<bool>()?, vec![false, false, true]);
        let ge = a.ge(&b)?;
        assert_eq!((ge.dtype(), ge.to_vec::<bool>()?), (DType::Bool, vec![false, true, true]));
        let (p, q) = (a.lt(&b)?, a.gt(&b)?);
        assert_eq!(p.logical_or(&q)?.to_vec::<bool>()?, vec![true, false, true]);
        assert_eq!(p.logical_and(&q)?.to_vec::<bool>()?, vec![false, false, false]);
        assert_eq!(p.logical_xor(&ge)?.to_vec::<bool>()?, vec![true, true, true]);
        let w = Tensor::where_cond(&ge, &a, &Tensor::scalar(-1.0, DType::Float64)?)?;
        assert_eq!(w.to_vec::<f64>()?, vec![-1.0, 2.0, 3.0]);
        Ok(())
    })
}

#[test]
fn sum_and_mean_over_dims_with_keepdim() {
    run(|| {
        let x = Tensor::arange(0.0, 6.0, 1.0, DType::Float64)?.reshape(&[2, 3])?;
        assert_eq!(x.sum_all()?.item()?, 15.0);
        assert_eq!(x.sum(&[0], false)?.to_vec::<f64>()?, vec![3.0, 5.0, 7.0]);
        let k = x.sum(&[-1], true)?;
        assert_eq!((k.size(), k.to_vec::<f64>()?), (vec![2, 1], vec![3.0, 12.0]));
        assert_eq!(x.sum(&[0, 1], false)?.dim(), 0);
        assert_eq!(x.mean(&[1], false)?.to_vec::<f64>()?, vec![1.0, 4.0]);
        assert_eq!(x.mean_all()?.item()?, 2.5);
        assert_eq!(x.mean(&[0], true)?.size(), vec![1, 3]);
        let i = Tensor::from_slice(&[1i32, 2, 3], &[3])?;
        assert_eq!(i.sum_all()?.dtype(), DType::Int64); // integer sums widen like PyTorch
        assert_eq!(Tensor::zeros(&[0], DType::Float32)?.sum_all()?.item()?, 0.0);
        assert!(matches!(x.sum(&[2], false), Err(Error::Index(_))));
        Ok(())
    })
}

#[test]
fn errors_are_structured_and_carry_the_library_message() {
    run(|| {
        let a = Tensor::zeros(&[2, 3], DType::Float32)?;
        let b = Tensor::zeros(&[4], DType::Float32)?;
        let err = err_of(&a + &b);
        match &err {
            Error::Shape(m) => assert!(m.contains("[2, 3]") && m.contains("[4]"), "{m}"),
            other => panic!("expected Error::Shape, got {other:?}"),
        }
        assert_eq!(err.status(), ctensor::sys::CT_ERR_SHAPE);
        assert!(err.to_string().starts_with("CT_ERR_SHAPE: add"), "{err}");
        let boxed: Box<dyn std::error::Error> = Box::new(err.clone());
        assert_eq!(boxed.to_string(), err.to_string());
        assert!(matches!(a.reshape(&[5]), Err(Error::Shape(m)) if m.contains("reshape")));
        assert!(matches!(a.transpose(0, 5), Err(Error::Index(_))));
        assert!(matches!(Tensor::zeros(&[-1], DType::Float32), Err(Error::InvalidArgument(_) | Error::Shape(_))));
        assert!(matches!(a.item(), Err(Error::Shape(m)) if m.contains("item")));
        assert!(matches!(Tensor::from_slice(&[1.0f32; 3], &[2, 2]), Err(Error::InvalidArgument(_) | Error::Shape(_))));
        // an unknown status maps to Unknown with its code
        assert_eq!(Error::from_status(99, "x"), Error::Unknown(99, "x".into()));
        assert_eq!(Error::from_status(99, "x").status(), 99);
        Ok(())
    })
}

#[test]
fn library_information() {
    assert!(ctensor::version() >= 10000);
    assert!(ctensor::version_string().starts_with("1."));
    assert!(ctensor::ensure_abi().is_ok());
    assert_eq!(ctensor::abi_version(), ctensor::sys::CT_ABI_VERSION);
    assert!(ctensor::get_num_threads() >= 1);
    assert!(matches!(ctensor::set_num_threads(0), Err(Error::InvalidArgument(_))));
    if ctensor::cuda_device_count() == 0 {
        assert!(!ctensor::cuda_is_available().unwrap_err().is_empty());
    }
    assert_eq!(DType::Float64.size(), 8);
    assert_eq!(DType::Bool.name(), "bool");
    assert_eq!(format!("{} {}", Device::Cpu, Device::Cuda(1)), "cpu cuda:1");
}

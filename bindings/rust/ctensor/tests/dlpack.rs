// dlpack.rs - DLPack export/import as raw pointers: round trips share memory, keep values, release
// everything, and bad input is an error (never a crash).
mod common;

use common::{err_of, run};
use ctensor::{live_handles, DType, Error, Tensor};

#[test]
fn legacy_round_trip_shares_memory() {
    run(|| {
        let before = live_handles();
        let x = Tensor::arange(0.0, 6.0, 1.0, DType::Float32)?.reshape(&[2, 3])?;
        let managed = x.to_dlpack()?;
        assert!(!managed.is_null());
        let y = unsafe { Tensor::from_dlpack(managed)? };
        assert_eq!(y.data_ptr(), x.data_ptr());
        assert_eq!((y.size(), y.dtype()), (vec![2, 3], DType::Float32));
        assert_eq!(y.to_vec::<f32>()?, x.to_vec::<f32>()?);
        drop(x);
        assert_eq!(y.to_vec::<f32>()?, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "the import keeps the memory alive");
        drop(y);
        assert_eq!(live_handles(), before);
        Ok(())
    })
}

#[test]
fn versioned_round_trip_of_a_strided_view() {
    run(|| {
        let x = Tensor::arange(0.0, 12.0, 1.0, DType::Int64)?.reshape(&[3, 4])?.transpose(0, 1)?;
        let managed = x.to_dlpack_versioned()?;
        let y = unsafe { Tensor::from_dlpack_versioned(managed)? };
        assert_eq!((y.size(), y.strides()), (x.size(), x.strides()));
        assert_eq!(y.to_vec::<i64>()?, x.to_vec::<i64>()?);
        Ok(())
    })
}

#[test]
fn exports_are_detached_from_the_graph() {
    run(|| {
        let x = Tensor::ones(&[2], DType::Float64)?.requires_grad_(true)?;
        let y = unsafe { Tensor::from_dlpack(x.to_dlpack()?)? };
        assert!(!y.requires_grad());
        Ok(())
    })
}

#[test]
fn null_pointers_are_errors() {
    run(|| {
        let err = err_of(unsafe { Tensor::from_dlpack(std::ptr::null_mut()) });
        assert!(matches!(err, Error::InvalidArgument(_)), "{err}");
        let err = err_of(unsafe { Tensor::from_dlpack_versioned(std::ptr::null_mut()) });
        assert!(matches!(err, Error::InvalidArgument(_)), "{err}");
        Ok(())
    })
}

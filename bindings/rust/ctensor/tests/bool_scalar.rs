// bool_scalar.rs - a Rust bool beside a tensor (issue 15): Tensor::wrapped_scalar_bool keeps the other operand's dtype
// as torch 1.13 does a Python bool (torch.tensor([True, False]) + True is bool, an int8 tensor & True stays int8),
// the `&`, `|`, `^` operators with a bool, and the subtraction torch refuses (`t - True`) is Error::DType.
mod common;

use common::{err_of, run};
use ctensor::{DType, Error, Tensor};

#[test]
fn bool_scalar_keeps_the_dtype_as_torch() {
    run(|| {
        let yes = Tensor::wrapped_scalar_bool(true)?;
        assert_eq!(yes.dtype(), DType::Bool);
        assert_eq!(yes.shape(), Vec::<i64>::new());
        let mask = Tensor::from_slice(&[true, false], &[2])?;
        let sum = mask.add(&yes)?;
        assert_eq!(sum.dtype(), DType::Bool); // torch: tensor([True, True])
        assert_eq!(sum.to_vec::<bool>()?, vec![true, true]);
        assert_eq!(mask.result_type(&yes)?, DType::Bool);
        assert_eq!((&mask ^ true)?.to_vec::<bool>()?, vec![false, true]);
        let x = Tensor::from_slice(&[3i8, 4], &[2])?;
        for (dt, want) in [(DType::Int8, vec![1.0, 0.0]), (DType::Float32, vec![3.0, 4.0])] {
            let y = x.to_dtype(dt)?;
            let r = if dt == DType::Int8 { (&y & true)? } else { y.mul(&yes)? };
            assert_eq!(r.dtype(), dt);
            assert_eq!(r.to_dtype(DType::Float64)?.to_vec::<f64>()?, want);
        }
        assert_eq!((&x | false)?.to_vec::<i8>()?, vec![3, 4]);
        // torch: "Subtraction, the `-` operator, with a bool tensor is not supported"
        match err_of(x.sub(&yes)) {
            Error::DType(m) => assert!(m.contains("sub"), "{m}"),
            e => panic!("expected a dtype error, got {e:?}"),
        }
        Ok(())
    })
}

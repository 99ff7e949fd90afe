// promotion.rs - torch's type promotion queries from Rust: DType::promote and DType::can_cast against values torch
// 1.13 prints (torch.promote_types / torch.can_cast), and Tensor::result_type against the dtype an op gives, for
// tensors, 0-d tensors and wrapped scalars.
mod common;

use common::run;
use ctensor::{DType, Tensor};

#[test]
fn promote_and_can_cast_as_torch() {
    let rows = [
        (DType::Float16, DType::BFloat16, DType::Float32),
        (DType::Int8, DType::UInt8, DType::Int16),
        (DType::Int64, DType::BFloat16, DType::BFloat16),
        (DType::Bool, DType::Int8, DType::Int8),
        (DType::Float64, DType::Complex64, DType::Complex128),
        (DType::Int32, DType::Float16, DType::Float16),
    ];
    for (a, b, want) in rows {
        assert_eq!(a.promote(b), want, "{a} with {b}");
        assert_eq!(b.promote(a), want, "{b} with {a}");
    }
    assert!(DType::Int64.can_cast(DType::Float16));
    assert!(DType::Float64.can_cast(DType::Float16));
    assert!(!DType::Float32.can_cast(DType::Int64));
    assert!(!DType::Complex64.can_cast(DType::Float64));
    assert!(!DType::Int32.can_cast(DType::Bool));
    assert!(DType::Bool.can_cast(DType::Bool));
}

#[test]
fn result_type_is_what_the_op_gives() {
    run(|| {
        let x = Tensor::ones(&[2], DType::Int32)?;
        let cases = [
            (Tensor::wrapped_scalar(2.5, false)?, DType::Float32),
            (Tensor::wrapped_scalar(3.0, true)?, DType::Int32),
            (Tensor::scalar(1.0, DType::Float64)?, DType::Float64),
            (Tensor::scalar(1.0, DType::Int64)?, DType::Int32),
            (Tensor::ones(&[2], DType::Int64)?, DType::Int64),
        ];
        for (other, want) in cases {
            assert_eq!(x.result_type(&other)?, want);
            assert_eq!(other.result_type(&x)?, want);
            assert_eq!(x.add(&other)?.dtype(), want);
        }
        Ok(())
    })
}

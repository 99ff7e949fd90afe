// dtypes_half.rs - float16, bfloat16, int8 and int16 from Rust: i8/i16 element round trips, half tensors read as
// f32 (rounded as the C library rounds), promotion and the dtype enum's raw values.
mod common;

use common::run;
use ctensor::{DType, Device, Tensor};

#[test]
fn int8_and_int16_elements_round_trip() {
    run(|| {
        let a = Tensor::from_slice(&[i8::MIN, -1, 7, i8::MAX], &[4])?;
        assert_eq!(a.dtype(), DType::Int8);
        assert_eq!(a.to_vec::<i8>()?, vec![i8::MIN, -1, 7, i8::MAX]);
        let b = Tensor::from_slice(&[i16::MIN, 300, i16::MAX], &[3])?;
        assert_eq!(b.dtype(), DType::Int16);
        assert_eq!(b.to_vec::<i16>()?, vec![i16::MIN, 300, i16::MAX]);
        // int8 + uint8 promotes to int16, as torch
        let u = Tensor::from_slice(&[1u8, 1, 1, 1], &[4])?;
        assert_eq!((&a + &u)?.dtype(), DType::Int16);
        Ok(())
    })
}

#[test]
fn half_dtypes_are_read_and_written_as_f32() {
    run(|| {
        let x = Tensor::from_slice(&[0.1f32, 1.5, 65504.0, 1e6], &[4])?;
        let h = x.to_dtype(DType::Float16)?;
        assert_eq!(h.dtype(), DType::Float16);
        assert!(h.dtype().is_floating());
        let v = h.to_vec::<f32>()?;
        assert_eq!(&v[..3], &[f32::from_bits(0x3dcc_c000), 1.5, 65504.0]); // 0.0999755859375
        assert!(v[3].is_infinite());
        let b = x.to_dtype(DType::BFloat16)?.to_vec::<f32>()?;
        assert_eq!(b, vec![f32::from_bits(0x3dcd_0000), 1.5, 65536.0, 999424.0]); // 0.10009765625
        let z = Tensor::zeros(&[2, 2], (DType::BFloat16, Device::Cpu))?;
        assert_eq!(z.dtype(), DType::BFloat16);
        assert_eq!(DType::from_raw(6)?, DType::Float16);
        assert_eq!(DType::BFloat16.size(), 2);
        assert_eq!(DType::Int8.name(), "int8");
        Ok(())
    })
}

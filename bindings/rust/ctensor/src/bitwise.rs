//! Integer ops (issue 14): `bitwise_and/or/xor/not`, shifts, `gcd`, `lcm` as `Tensor` methods and the operators
//! `&`, `|`, `^`, `!`, `<<`, `>>` (tensor-tensor and tensor-`i64` forms; an `i64` is a wrapped integer scalar,
//! so it never widens the tensor's dtype). Floating tensors are refused with `Error::DType`; no gradient.
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use crate::binary_math::binary;
use crate::error::Result;
use crate::sys;
use crate::tensor::{out1, Tensor};

impl Tensor {
    /// `self & other`, bitwise (bool: logical and).
    pub fn bitwise_and(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_bitwise_and, self, other)
    }
    /// `self | other`, bitwise (bool: logical or).
    pub fn bitwise_or(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_bitwise_or, self, other)
    }
    /// `self ^ other`, bitwise (bool: logical xor).
    pub fn bitwise_xor(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_bitwise_xor, self, other)
    }
    /// `!self`, bitwise (bool: logical not).
    pub fn bitwise_not(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_bitwise_not(self.as_raw(), o) })
    }
    /// `self << other` (wrapping); counts outside `[0, bits)` give 0.
    pub fn bitwise_left_shift(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_bitwise_left_shift, self, other)
    }
    /// `self >> other` (arithmetic for signed types); counts outside `[0, bits)` give the sign fill.
    pub fn bitwise_right_shift(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_bitwise_right_shift, self, other)
    }
    /// Greatest common divisor (>= 0; `gcd(0, 0) = 0`).
    pub fn gcd(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_gcd, self, other)
    }
    /// Least common multiple `|a / gcd * b|` (0 when either is 0).
    pub fn lcm(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_lcm, self, other)
    }
}

macro_rules! integer_operator {
    ($trait:ident, $method:ident, $op:path) => {
        impl $trait<&Tensor> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $op(self, rhs)
            }
        }
        impl $trait<Tensor> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                $op(&self, &rhs)
            }
        }
        impl $trait<i64> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: i64) -> Result<Tensor> {
                $op(self, &Tensor::wrapped_scalar(rhs as f64, true)?)
            }
        }
        impl $trait<i64> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: i64) -> Result<Tensor> {
                $op(&self, &Tensor::wrapped_scalar(rhs as f64, true)?)
            }
        }
    };
}

integer_operator!(BitAnd, bitand, Tensor::bitwise_and);
integer_operator!(BitOr, bitor, Tensor::bitwise_or);
integer_operator!(BitXor, bitxor, Tensor::bitwise_xor);
integer_operator!(Shl, shl, Tensor::bitwise_left_shift);
integer_operator!(Shr, shr, Tensor::bitwise_right_shift);

impl Not for &Tensor {
    type Output = Result<Tensor>;
    fn not(self) -> Result<Tensor> {
        self.bitwise_not()
    }
}

impl Not for Tensor {
    type Output = Result<Tensor>;
    fn not(self) -> Result<Tensor> {
        self.bitwise_not()
    }
}

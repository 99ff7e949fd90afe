//! A Rust `bool` beside a tensor (issue 15): `Tensor::wrapped_scalar_bool` and the operators `&t & true`,
//! `t | false`, `t ^ true`. The bool goes through `ct_wrapped_scalar_bool`, a 0-d bool wrapped number, so it never
//! changes the tensor's dtype (a bool mask stays bool, an int8 tensor stays int8), as torch 1.13 does a Python bool.
use std::ops::{BitAnd, BitOr, BitXor};

use crate::error::Result;
use crate::sys;
use crate::tensor::{out1, Tensor};

impl Tensor {
    /// The 0-d wrapped bool scalar `value` (promotes like a Python bool: the other operand's dtype is kept).
    pub fn wrapped_scalar_bool(value: bool) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_wrapped_scalar_bool(value as i32, o) })
    }
}

macro_rules! bool_operator {
    ($trait:ident, $method:ident, $op:path) => {
        impl $trait<bool> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: bool) -> Result<Tensor> {
                $op(self, &Tensor::wrapped_scalar_bool(rhs)?)
            }
        }
        impl $trait<bool> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: bool) -> Result<Tensor> {
                $op(&self, &Tensor::wrapped_scalar_bool(rhs)?)
            }
        }
    };
}

bool_operator!(BitAnd, bitand, Tensor::bitwise_and);
bool_operator!(BitOr, bitor, Tensor::bitwise_or);
bool_operator!(BitXor, bitxor, Tensor::bitwise_xor);

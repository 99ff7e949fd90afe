//! `std::ops` operators. They never panic: `type Output = Result<Tensor>`, so a shape or dtype error
//! comes back as `Err`. Tensor-tensor, tensor-f64 and f64-tensor forms exist for owned and borrowed
//! tensors, and a `Result<Tensor>` on the left of a tensor also works, so `(&a * &b + &c)?` chains
//! without `?` at every step (`Result<Tensor>` with an `f64` is impossible under the orphan rule). f64 scalars go through `ct_wrapped_scalar`, so they never upcast a tensor's dtype
//! (`float32_tensor * 2.0` stays float32, like PyTorch).
use std::ops::{Add, Div, Mul, Neg, Sub};

use crate::error::Result;
use crate::tensor::Tensor;

fn scalar(v: f64) -> Result<Tensor> {
    Tensor::wrapped_scalar(v, false)
}

fn apply(a: &Tensor, b: &Tensor, op: fn(&Tensor, &Tensor) -> Result<Tensor>) -> Result<Tensor> {
    op(a, b)
}

macro_rules! tensor_operator {
    ($trait:ident, $method:ident, $op:path) => {
        impl $trait<&Tensor> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                apply(self, rhs, $op)
            }
        }
        impl $trait<Tensor> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                apply(self, &rhs, $op)
            }
        }
        impl $trait<&Tensor> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                apply(&self, rhs, $op)
            }
        }
        impl $trait<Tensor> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                apply(&self, &rhs, $op)
            }
        }
        impl $trait<f64> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: f64) -> Result<Tensor> {
                apply(self, &scalar(rhs)?, $op)
            }
        }
        impl $trait<f64> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: f64) -> Result<Tensor> {
                apply(&self, &scalar(rhs)?, $op)
            }
        }
        impl $trait<&Tensor> for f64 {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                apply(&scalar(self)?, rhs, $op)
            }
        }
        impl $trait<Tensor> for f64 {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                apply(&scalar(self)?, &rhs, $op)
            }
        }
        // A Result on the left (the output of a previous operator) propagates its error.
        impl $trait<&Tensor> for Result<Tensor> {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                apply(&self?, rhs, $op)
            }
        }
        impl $trait<Tensor> for Result<Tensor> {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                apply(&self?, &rhs, $op)
            }
        }
    };
}

tensor_operator!(Add, add, Tensor::add);
tensor_operator!(Sub, sub, Tensor::sub);
tensor_operator!(Mul, mul, Tensor::mul);
tensor_operator!(Div, div, Tensor::div);

impl Neg for &Tensor {
    type Output = Result<Tensor>;
    fn neg(self) -> Result<Tensor> {
        Tensor::neg(self)
    }
}

impl Neg for Tensor {
    type Output = Result<Tensor>;
    fn neg(self) -> Result<Tensor> {
        Tensor::neg(&self)
    }
}

//! Complex numbers beside tensors (issue 15): the crate's own small [`Complex`] (no num-complex crate) and the
//! `std::ops` operators `t * Complex::new(re, im)` / `Complex::new(re, im) - &t`. The number goes through
//! `ct_wrapped_scalar_complex`, so the core promotes it as torch 1.13 does a Python complex: float32 / integer /
//! bool / float16 tensors give complex64, float64 complex128, complex tensors keep their dtype.
use std::ops::{Add, Div, Mul, Sub};

use crate::error::Result;
use crate::sys;
use crate::tensor::{out1, Tensor};

/// A complex number `re + i im` used as a scalar operand (a wrapped number: it never widens a complex tensor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Complex {
    pub re: f64,
    pub im: f64,
}

impl Complex {
    /// `re + i im`.
    pub const fn new(re: f64, im: f64) -> Complex {
        Complex { re, im }
    }
}

impl Tensor {
    /// The 0-d wrapped complex scalar `re + i im` (complex128; promotes by category only, like a Python complex).
    pub fn wrapped_scalar_complex(re: f64, im: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_wrapped_scalar_complex(re, im, o) })
    }

    /// `self ** z` elementwise.
    pub fn pow_complex(&self, z: Complex) -> Result<Tensor> {
        self.pow(&Tensor::wrapped_scalar_complex(z.re, z.im)?)
    }

    /// `self == z` elementwise (a bool tensor).
    pub fn eq_complex(&self, z: Complex) -> Result<Tensor> {
        self.eq(&Tensor::wrapped_scalar_complex(z.re, z.im)?)
    }

    /// `self != z` elementwise (a bool tensor). Ordering with a complex number is refused, as torch.
    pub fn ne_complex(&self, z: Complex) -> Result<Tensor> {
        self.ne(&Tensor::wrapped_scalar_complex(z.re, z.im)?)
    }
}

fn scalar(z: Complex) -> Result<Tensor> {
    Tensor::wrapped_scalar_complex(z.re, z.im)
}

macro_rules! complex_operator {
    ($trait:ident, $method:ident, $op:path) => {
        impl $trait<Complex> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Complex) -> Result<Tensor> {
                $op(self, &scalar(rhs)?)
            }
        }
        impl $trait<Complex> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Complex) -> Result<Tensor> {
                $op(&self, &scalar(rhs)?)
            }
        }
        impl $trait<Complex> for Result<Tensor> {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Complex) -> Result<Tensor> {
                $op(&self?, &scalar(rhs)?)
            }
        }
        impl $trait<&Tensor> for Complex {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $op(&scalar(self)?, rhs)
            }
        }
        impl $trait<Tensor> for Complex {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                $op(&scalar(self)?, &rhs)
            }
        }
    };
}

complex_operator!(Add, add, Tensor::add);
complex_operator!(Sub, sub, Tensor::sub);
complex_operator!(Mul, mul, Tensor::mul);
complex_operator!(Div, div, Tensor::div);

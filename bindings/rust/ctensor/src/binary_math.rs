//! Binary math (issue 14): torch's two-argument elementwise functions as `Tensor` methods, thin wrappers over the
//! C ABI (broadcasting and type promotion as `mul`; the float-only ones refuse integer tensors with `Error::DType`).
use crate::error::Result;
use crate::sys;
use crate::tensor::{out1, Tensor};

type BinaryFn = unsafe extern "C" fn(sys::ct_tensor, sys::ct_tensor, *mut sys::ct_tensor) -> sys::ct_status;

/// Calls a two-tensor C op (shared with bitwise.rs).
pub(crate) fn binary(f: BinaryFn, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    out1(|o| unsafe { f(a.as_raw(), b.as_raw(), o) })
}

impl Tensor {
    /// `log(e^self + e^other)` without overflow (floating tensors only).
    pub fn logaddexp(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_logaddexp, self, other)
    }
    /// `log2(2^self + 2^other)` without overflow (floating tensors only).
    pub fn logaddexp2(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_logaddexp2, self, other)
    }
    /// `sqrt(self^2 + other^2)` without intermediate overflow (floating tensors only).
    pub fn hypot(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_hypot, self, other)
    }
    /// `self * log(other)`, 0 where `self == 0`, NaN where `other` is NaN; integers give f32.
    pub fn xlogy(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_xlogy, self, other)
    }
    /// The magnitude of `self` with the sign of `other`; integers give f32.
    pub fn copysign(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_copysign, self, other)
    }
    /// The larger element, ignoring a NaN unless both are NaN (`maximum` propagates NaN).
    pub fn fmax(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_fmax, self, other)
    }
    /// The smaller element, ignoring a NaN unless both are NaN (`minimum` propagates NaN).
    pub fn fmin(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_fmin, self, other)
    }
    /// 0 where `self < 0`, `values` where `self == 0`, 1 where `self > 0` (one dtype for both; no gradient).
    pub fn heaviside(&self, values: &Tensor) -> Result<Tensor> {
        binary(sys::ct_heaviside, self, values)
    }
    /// The next representable value after `self` towards `other` (f32 / f64 only; no gradient).
    pub fn nextafter(&self, other: &Tensor) -> Result<Tensor> {
        binary(sys::ct_nextafter, self, other)
    }
    /// `self + value * t1 * t2` (broadcast over the three).
    pub fn addcmul(&self, t1: &Tensor, t2: &Tensor, value: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_addcmul(self.as_raw(), t1.as_raw(), t2.as_raw(), value, o) })
    }
    /// `self + value * t1 / t2` (t1 and t2 may not both be integer tensors).
    pub fn addcdiv(&self, t1: &Tensor, t2: &Tensor, value: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_addcdiv(self.as_raw(), t1.as_raw(), t2.as_raw(), value, o) })
    }
}

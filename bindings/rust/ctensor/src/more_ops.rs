//! The last reductions and products of issue 14 as tensor methods: logcumsumexp, aminmax, var_mean / std_mean,
//! kron, tensordot and inner, with PyTorch 1.13's semantics (the work is the C ABI's).
use ctensor_sys as sys;

use crate::error::Result;
use crate::sorting::pair;
use crate::tensor::{out1, Tensor};

impl Tensor {
    /// `log(cumsum(exp(self)))` along `dim`, computed stably; floating tensors only. Differentiable.
    pub fn logcumsumexp(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_logcumsumexp(self.as_raw(), dim, o) })
    }

    /// The smallest and largest element in one pass: over every element (`dim` `None`) or along `dim`. NaN
    /// propagates; not differentiable (as torch 1.13).
    pub fn aminmax(&self, dim: Option<i64>, keepdim: bool) -> Result<(Tensor, Tensor)> {
        pair(|lo, hi| unsafe {
            sys::ct_aminmax(self.as_raw(), dim.unwrap_or(0), dim.is_some() as i32, keepdim as i32, lo, hi)
        })
    }

    /// `(var, mean)` over `dims` (every dim when empty) with `correction` (1 = unbiased); differentiable in both.
    pub fn var_mean(&self, dims: &[i64], correction: f64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        pair(|v, m| unsafe {
            sys::ct_var_mean(self.as_raw(), dims.as_ptr(), dims.len() as i32, correction, keepdim as i32, v, m)
        })
    }

    /// `(std, mean)` over `dims` (every dim when empty) with `correction`; differentiable in both.
    pub fn std_mean(&self, dims: &[i64], correction: f64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        pair(|s, m| unsafe {
            sys::ct_std_mean(self.as_raw(), dims.as_ptr(), dims.len() as i32, correction, keepdim as i32, s, m)
        })
    }

    /// The Kronecker product (the shorter shape padded with leading 1s).
    pub fn kron(&self, other: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_kron(self.as_raw(), other.as_raw(), o) })
    }

    /// Contracts `dims_a[i]` of `self` with `dims_b[i]` of `other`; the result has `self`'s other dims then
    /// `other`'s.
    pub fn tensordot(&self, other: &Tensor, dims_a: &[i64], dims_b: &[i64]) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_tensordot(self.as_raw(), other.as_raw(), dims_a.as_ptr(), dims_a.len() as i32, dims_b.as_ptr(),
                              dims_b.len() as i32, o)
        })
    }

    /// torch's integer form of tensordot: the last `n` dims of `self` with the first `n` of `other`.
    pub fn tensordot_n(&self, other: &Tensor, n: usize) -> Result<Tensor> {
        let n = n as i64;
        let dims_a: Vec<i64> = (0..n).map(|i| i - n).collect();
        let dims_b: Vec<i64> = (0..n).collect();
        self.tensordot(other, &dims_a, &dims_b)
    }

    /// The inner product over the last dims (a product when either is 0-d).
    pub fn inner(&self, other: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_inner(self.as_raw(), other.as_raw(), o) })
    }
}

//! Tensor methods for the core ops of the C ABI: elementwise unary and binary ops, comparisons,
//! reductions, linear algebra and in-place ops. Every op returns a new tensor in a `Result`.
use ctensor_sys as sys;

use crate::error::{check, Result};
use crate::tensor::{out1, Tensor};

macro_rules! unary_ops {
    ($($(#[$doc:meta])* $name:ident => $c:ident;)*) => {
        impl Tensor {
            $(
                $(#[$doc])*
                pub fn $name(&self) -> Result<Tensor> {
                    out1(|o| unsafe { sys::$c(self.as_raw(), o) })
                }
            )*
        }
    };
}

macro_rules! binary_ops {
    ($($(#[$doc:meta])* $name:ident => $c:ident;)*) => {
        impl Tensor {
            $(
                $(#[$doc])*
                pub fn $name(&self, other: &Tensor) -> Result<Tensor> {
                    out1(|o| unsafe { sys::$c(self.as_raw(), other.as_raw(), o) })
                }
            )*
        }
    };
}

unary_ops! {
    /// `-x`.
    neg => ct_neg;
    /// `|x|`.
    abs => ct_abs;
    /// -1, 0 or 1.
    sign => ct_sign;
    /// `e^x`.
    exp => ct_exp;
    /// Natural log.
    log => ct_log;
    /// `log(1 + x)`.
    log1p => ct_log1p;
    /// `e^x - 1`.
    expm1 => ct_expm1;
    /// Square root.
    sqrt => ct_sqrt;
    /// `1 / sqrt(x)`.
    rsqrt => ct_rsqrt;
    /// Sine.
    sin => ct_sin;
    /// Cosine.
    cos => ct_cos;
    /// Tangent.
    tan => ct_tan;
    /// Hyperbolic tangent.
    tanh => ct_tanh;
    /// `1 / (1 + e^-x)`.
    sigmoid => ct_sigmoid;
    /// `max(x, 0)`.
    relu => ct_relu;
    /// `x * Phi(x)` (exact erf form).
    gelu => ct_gelu;
    /// `x * sigmoid(x)`.
    silu => ct_silu;
    /// `log(1 + e^x)`, stable.
    softplus => ct_softplus;
    /// `clamp(x / 6 + 1/2, 0, 1)`.
    hardsigmoid => ct_hardsigmoid;
    /// `x * clamp(x + 3, 0, 6) / 6`.
    hardswish => ct_hardswish;
    /// `x * tanh(softplus(x))`.
    mish => ct_mish;
    /// `log(sigmoid(x))`, stable.
    log_sigmoid => ct_log_sigmoid;
    /// `x / (1 + |x|)`.
    softsign => ct_softsign;
    /// `x - tanh(x)`.
    tanhshrink => ct_tanhshrink;
    /// Round down (gradient 0).
    floor => ct_floor;
    /// Round up (gradient 0).
    ceil => ct_ceil;
    /// Round half to even (gradient 0).
    round => ct_round;
    /// `1 / x`.
    reciprocal => ct_reciprocal;
    /// `!x` as bool.
    logical_not => ct_logical_not;
    /// Transpose of a 2-D tensor (1-D and 0-D unchanged).
    t => ct_t;
    /// Largest element over all dims (0-d).
    max => ct_max;
    /// Smallest element over all dims (0-d).
    min => ct_min;
    /// Flat index of the largest element (0-d int64).
    argmax_all => ct_argmax_all;
    /// Flat index of the smallest element (0-d int64).
    argmin_all => ct_argmin_all;
    /// int64 `[count, ndim]` coordinates of the nonzero elements.
    nonzero => ct_nonzero;
}

binary_ops! {
    /// `self * other` (broadcasting, PyTorch type promotion).
    mul => ct_mul;
    /// `self / other` (true division).
    div => ct_div;
    /// `self ** other`.
    pow => ct_pow;
    /// Elementwise max.
    maximum => ct_maximum;
    /// Elementwise min.
    minimum => ct_minimum;
    /// `atan(self / other)`, quadrant-aware.
    atan2 => ct_atan2;
    /// `self mod other` with the sign of `other` (Python's %).
    remainder => ct_remainder;
    /// Python's `//`: floor of `self / other`; integers exactly (`i64::MIN // -1` wraps), no gradient.
    floor_divide => ct_floor_divide;
    /// `self == other` as bool.
    eq => ct_eq;
    /// `self != other` as bool.
    ne => ct_ne;
    /// `self < other` as bool.
    lt => ct_lt;
    /// `self <= other` as bool.
    le => ct_le;
    /// `self > other` as bool.
    gt => ct_gt;
    /// `self >= other` as bool.
    ge => ct_ge;
    /// Logical and as bool.
    logical_and => ct_logical_and;
    /// Logical or as bool.
    logical_or => ct_logical_or;
    /// Logical xor as bool.
    logical_xor => ct_logical_xor;
    /// NumPy/PyTorch matmul: 1-D dot, 2-D matrix product, batched with broadcast batch dims.
    matmul => ct_matmul;
    /// Dot product of two 1-D tensors (0-d result).
    dot => ct_dot;
    /// Outer product of two 1-D tensors.
    outer => ct_outer;
}

type ReduceFn = unsafe extern "C" fn(sys::ct_tensor, *const i64, i32, i32, *mut sys::ct_tensor) -> sys::ct_status;

impl Tensor {
    // ---- binary ops with an alpha, scalars, where ----

    /// `self + other`.
    pub fn add(&self, other: &Tensor) -> Result<Tensor> {
        self.add_alpha(other, 1.0)
    }

    /// `self + alpha * other`.
    pub fn add_alpha(&self, other: &Tensor, alpha: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_add(self.as_raw(), other.as_raw(), alpha, o) })
    }

    /// `self - other`.
    pub fn sub(&self, other: &Tensor) -> Result<Tensor> {
        self.sub_alpha(other, 1.0)
    }

    /// `self - alpha * other`.
    pub fn sub_alpha(&self, other: &Tensor, alpha: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_sub(self.as_raw(), other.as_raw(), alpha, o) })
    }

    /// `self ** exponent`.
    pub fn pow_scalar(&self, exponent: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_pow_scalar(self.as_raw(), exponent, o) })
    }

    /// Clamps to `[min, max]`; `None` leaves that side open.
    pub fn clamp(&self, min: Option<f64>, max: Option<f64>) -> Result<Tensor> {
        let (lo, hi) = (min.unwrap_or(0.0), max.unwrap_or(0.0));
        out1(|o| unsafe { sys::ct_clamp(self.as_raw(), lo, min.is_some() as i32, hi, max.is_some() as i32, o) })
    }

    /// `cond ? a : b` elementwise, all three broadcast together (`cond` is bool).
    pub fn where_cond(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_where(cond.as_raw(), a.as_raw(), b.as_raw(), o) })
    }

    // ---- reductions: `dims` empty reduces over every dim ----

    fn reduce(&self, f: ReduceFn, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        out1(|o| unsafe { f(self.as_raw(), dims.as_ptr(), dims.len() as i32, keepdim as i32, o) })
    }

    /// Sum over `dims` (every dim when empty), keeping them as size 1 when `keepdim`.
    pub fn sum(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        self.reduce(sys::ct_sum, dims, keepdim)
    }

    /// Sum of every element (0-d).
    pub fn sum_all(&self) -> Result<Tensor> {
        self.sum(&[], false)
    }

    /// Mean over `dims` (every dim when empty).
    pub fn mean(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        self.reduce(sys::ct_mean, dims, keepdim)
    }

    /// Mean of every element (0-d).
    pub fn mean_all(&self) -> Result<Tensor> {
        self.mean(&[], false)
    }

    /// Product over `dims` (every dim when empty).
    pub fn prod(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        self.reduce(sys::ct_prod, dims, keepdim)
    }

    /// Variance over `dims` with the given correction (1 = unbiased).
    pub fn var(&self, dims: &[i64], correction: f64, keepdim: bool) -> Result<Tensor> {
        let n = dims.len() as i32;
        out1(|o| unsafe { sys::ct_var(self.as_raw(), dims.as_ptr(), n, correction, keepdim as i32, o) })
    }

    /// Standard deviation over `dims` with the given correction.
    pub fn std(&self, dims: &[i64], correction: f64, keepdim: bool) -> Result<Tensor> {
        let n = dims.len() as i32;
        out1(|o| unsafe { sys::ct_std(self.as_raw(), dims.as_ptr(), n, correction, keepdim as i32, o) })
    }

    /// `log(sum(exp(x)))` over `dims`, stable.
    pub fn logsumexp(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        self.reduce(sys::ct_logsumexp, dims, keepdim)
    }

    /// p-norm over `dims` (`f64::INFINITY` for the max norm).
    pub fn norm(&self, p: f64, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        let n = dims.len() as i32;
        out1(|o| unsafe { sys::ct_norm(self.as_raw(), p, dims.as_ptr(), n, keepdim as i32, o) })
    }

    /// True where every element over `dims` is nonzero (bool).
    pub fn all(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        self.reduce(sys::ct_all, dims, keepdim)
    }

    /// True where any element over `dims` is nonzero (bool).
    pub fn any(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        self.reduce(sys::ct_any, dims, keepdim)
    }

    fn values_indices(
        &self,
        f: unsafe extern "C" fn(sys::ct_tensor, i64, i32, *mut sys::ct_tensor, *mut sys::ct_tensor) -> sys::ct_status,
        dim: i64,
        keepdim: bool,
    ) -> Result<(Tensor, Tensor)> {
        let (mut v, mut i) = (std::ptr::null_mut(), std::ptr::null_mut());
        check(unsafe { f(self.as_raw(), dim, keepdim as i32, &mut v, &mut i) })?;
        Ok(unsafe { (Tensor::from_raw(v), Tensor::from_raw(i)) })
    }

    /// Largest values along `dim` and their int64 indices (first occurrence).
    pub fn max_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        self.values_indices(sys::ct_max_dim, dim, keepdim)
    }

    /// Smallest values along `dim` and their int64 indices (first occurrence).
    pub fn min_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        self.values_indices(sys::ct_min_dim, dim, keepdim)
    }

    /// Index of the largest element along `dim` (int64).
    pub fn argmax(&self, dim: i64, keepdim: bool) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_argmax(self.as_raw(), dim, keepdim as i32, o) })
    }

    /// Index of the smallest element along `dim` (int64).
    pub fn argmin(&self, dim: i64, keepdim: bool) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_argmin(self.as_raw(), dim, keepdim as i32, o) })
    }

    /// Cumulative sum along `dim`.
    pub fn cumsum(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_cumsum(self.as_raw(), dim, o) })
    }

    // ---- in-place ops: bump the version counter; the tensor keeps its dtype ----

    /// `self += other`.
    pub fn add_(&mut self, other: &Tensor) -> Result<()> {
        self.add_alpha_(other, 1.0)
    }

    /// `self += alpha * other`.
    pub fn add_alpha_(&mut self, other: &Tensor, alpha: f64) -> Result<()> {
        check(unsafe { sys::ct_add_(self.as_raw(), other.as_raw(), alpha) })
    }

    /// `self -= other`.
    pub fn sub_(&mut self, other: &Tensor) -> Result<()> {
        self.sub_alpha_(other, 1.0)
    }

    /// `self -= alpha * other`.
    pub fn sub_alpha_(&mut self, other: &Tensor, alpha: f64) -> Result<()> {
        check(unsafe { sys::ct_sub_(self.as_raw(), other.as_raw(), alpha) })
    }

    /// `self *= other`.
    pub fn mul_(&mut self, other: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_mul_(self.as_raw(), other.as_raw()) })
    }

    /// `self /= other`.
    pub fn div_(&mut self, other: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_div_(self.as_raw(), other.as_raw()) })
    }

    /// Sets every element to 0.
    pub fn zero_(&mut self) -> Result<()> {
        check(unsafe { sys::ct_zero_(self.as_raw()) })
    }

    /// Sets every element to `value`.
    pub fn fill_(&mut self, value: f64) -> Result<()> {
        check(unsafe { sys::ct_fill_(self.as_raw(), value) })
    }

    /// Copies `src` (broadcast, converted to this dtype) into `self`, e.g. into a slice view.
    pub fn copy_(&mut self, src: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_copy_(self.as_raw(), src.as_raw()) })
    }

    /// Clamps in place; `None` leaves that side open.
    pub fn clamp_(&mut self, min: Option<f64>, max: Option<f64>) -> Result<()> {
        let (lo, hi) = (min.unwrap_or(0.0), max.unwrap_or(0.0));
        check(unsafe { sys::ct_clamp_(self.as_raw(), lo, min.is_some() as i32, hi, max.is_some() as i32) })
    }
}

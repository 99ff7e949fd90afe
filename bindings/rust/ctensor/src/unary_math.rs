//! Unary math ops of issue 14: inverse and hyperbolic trigonometry, erf / erfc / erfinv, lgamma / digamma, logit,
//! sinc, sgn, angle conversions, sign-bit and infinity tests, positive and i0: thin wrappers over the C ABI.
use crate::error::Result;
use crate::sys;
use crate::tensor::{out1, Tensor};

macro_rules! unary_math_ops {
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

unary_math_ops! {
    /// Arcsine.
    asin => ct_asin;
    /// Arccosine.
    acos => ct_acos;
    /// Arctangent.
    atan => ct_atan;
    /// Hyperbolic sine.
    sinh => ct_sinh;
    /// Hyperbolic cosine.
    cosh => ct_cosh;
    /// Inverse hyperbolic sine.
    asinh => ct_asinh;
    /// Inverse hyperbolic cosine.
    acosh => ct_acosh;
    /// Inverse hyperbolic tangent.
    atanh => ct_atanh;
    /// The error function.
    erf => ct_erf;
    /// `1 - erf(x)`, accurate in the tail.
    erfc => ct_erfc;
    /// The inverse error function.
    erfinv => ct_erfinv;
    /// `log |gamma(x)|`.
    lgamma => ct_lgamma;
    /// `d/dx log gamma(x)`.
    digamma => ct_digamma;
    /// `sin(pi x) / (pi x)`, 1 at 0.
    sinc => ct_sinc;
    /// `x / |x|` for complex x, `sign` for real x.
    sgn => ct_sgn;
    /// Degrees to radians.
    deg2rad => ct_deg2rad;
    /// Radians to degrees.
    rad2deg => ct_rad2deg;
    /// Bool tensor: the sign bit is set (-0.0 included).
    signbit => ct_signbit;
    /// Bool tensor: `x == +inf`.
    isposinf => ct_isposinf;
    /// Bool tensor: `x == -inf`.
    isneginf => ct_isneginf;
    /// `+x`: the same tensor (a new handle sharing storage and history).
    positive => ct_positive;
    /// The modified Bessel function of the first kind, order 0.
    i0 => ct_i0;
}

impl Tensor {
    /// `log(x / (1 - x))` of x clamped to `[eps, 1 - eps]`; `None` clamps nothing (torch's `eps=None`).
    pub fn logit(&self, eps: Option<f64>) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_logit(self.as_raw(), eps.unwrap_or(-1.0), o) })
    }
}

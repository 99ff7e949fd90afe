//! torch.nn.functional's activations with parameters, as tensor methods (the parameter-free ones, such as
//! `hardswish` and `mish`, are in `ops.rs`), and their `Module`s for `Sequential`.
use ctensor_sys as sys;

use crate::error::Result;
use crate::nn::Module;
use crate::random::{gen_raw, Generator};
use crate::tensor::{out1, Tensor};

const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;
const SELU_SCALE: f64 = 1.050_700_987_355_480_5;

impl Tensor {
    /// ELU: `x` if `x > 0`, else `alpha * (e^x - 1)`.
    pub fn elu(&self, alpha: f64) -> Result<Tensor> {
        self.elu_general(alpha, 1.0, 1.0)
    }

    /// SELU: ELU with the self-normalising constants, scaled.
    pub fn selu(&self) -> Result<Tensor> {
        self.elu_general(SELU_ALPHA, SELU_SCALE, 1.0)
    }

    /// CELU: `max(0, x) + min(0, alpha * (e^(x / alpha) - 1))`; `alpha` must not be 0.
    pub fn celu(&self, alpha: f64) -> Result<Tensor> {
        if alpha == 0.0 {
            return Err(crate::Error::InvalidArgument("celu: alpha cannot be 0".into()));
        }
        self.elu_general(alpha, 1.0, 1.0 / alpha)
    }

    /// `scale * (x if x > 0 else alpha * (e^(input_scale * x) - 1))`, the op under ELU, SELU and CELU.
    pub fn elu_general(&self, alpha: f64, scale: f64, input_scale: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_elu(self.as_raw(), alpha, scale, input_scale, o) })
    }

    /// `x` if `x > 0`, else `negative_slope * x`.
    pub fn leaky_relu(&self, negative_slope: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_leaky_relu(self.as_raw(), negative_slope, o) })
    }

    /// `x` clamped to `[min_val, max_val]`, gradient strictly inside.
    pub fn hardtanh(&self, min_val: f64, max_val: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_hardtanh(self.as_raw(), min_val, max_val, o) })
    }

    /// `min(max(x, 0), 6)`.
    pub fn relu6(&self) -> Result<Tensor> {
        self.hardtanh(0.0, 6.0)
    }

    /// `x - lambd` above `lambd`, `x + lambd` below `-lambd`, else 0 (`lambd >= 0`).
    pub fn softshrink(&self, lambd: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_softshrink(self.as_raw(), lambd, o) })
    }

    /// `x` where `|x| > lambd`, else 0.
    pub fn hardshrink(&self, lambd: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_hardshrink(self.as_raw(), lambd, o) })
    }

    /// `x` where `x > threshold`, else `value` (in `x`'s dtype).
    pub fn threshold(&self, threshold: f64, value: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_threshold(self.as_raw(), threshold, value, o) })
    }

    /// `softmax(-x)` along `dim`.
    pub fn softmin(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_softmin(self.as_raw(), dim, o) })
    }

    /// `a * sigmoid(b)` for the halves `a`, `b` of `self` along `dim`.
    pub fn glu(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_glu(self.as_raw(), dim, o) })
    }

    /// `x` if `x > 0`, else `weight * x`; `weight` has 1 element or one per channel (dim 1).
    pub fn prelu(&self, weight: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_prelu(self.as_raw(), weight.as_raw(), o) })
    }

    /// `x` if `x > 0`, else `r * x` with `r ~ U(lower, upper)` per element when `training`, else
    /// `(lower + upper) / 2`.
    pub fn rrelu(&self, lower: f64, upper: f64, training: bool, gen: Option<&mut Generator>) -> Result<Tensor> {
        let g = gen_raw(gen);
        out1(|o| unsafe { sys::ct_rrelu(self.as_raw(), lower, upper, training as i32, g, o) })
    }
}

/// The function an `Activation` applies.
type ActivationFn = Box<dyn Fn(&Tensor) -> Result<Tensor> + Send + Sync>;

/// A parameter-free activation (or one with fixed arguments) as a `Module`: `Activation::new(|x| x.elu(1.0))`.
pub struct Activation {
    f: ActivationFn,
}

impl Activation {
    /// The module applying `f`.
    pub fn new(f: impl Fn(&Tensor) -> Result<Tensor> + Send + Sync + 'static) -> Activation {
        Activation { f: Box::new(f) }
    }
}

impl Module for Activation {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        (self.f)(x)
    }

    fn parameters(&self) -> Vec<Tensor> {
        Vec::new()
    }
}

/// PReLU with a learnt slope: one for all channels (`num_parameters` 1) or one per channel, initialised to `init`.
pub struct PRelu {
    /// The slopes, `[num_parameters]`, requiring grad.
    pub weight: Tensor,
}

impl PRelu {
    /// `num_parameters` slopes of `init` (torch: 0.25), float32.
    pub fn new(num_parameters: i64, init: f64) -> Result<PRelu> {
        Ok(PRelu { weight: Tensor::full(&[num_parameters], init, crate::DType::Float32)?.requires_grad_(true)? })
    }
}

impl Module for PRelu {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.prelu(&self.weight)
    }

    fn parameters(&self) -> Vec<Tensor> {
        vec![self.weight.clone()]
    }
}

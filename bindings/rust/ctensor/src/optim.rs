//! Optimizers over the library's `ct_optim_*`: configure with `Sgd`, `Adam` or `AdamW` (defaults like
//! torch.optim), then `build(&params)` gives an [`Optimizer`] that owns its handle (Drop releases).
//! [`Optimizer::state_dict`] / [`Optimizer::load_state_dict`] (in `optim_state.rs`) save and restore it.
use ctensor_sys as sys;

use crate::error::{check, ensure_abi, Result};
use crate::tensor::Tensor;

pub use crate::optim_state::{OptimizerState, ParamState};

/// An optimizer over a fixed list of parameter tensors.
///
/// ```
/// use ctensor::{nn::{Linear, Module}, optim::Adam, Tensor, DType};
/// let layer = Linear::new(4, 2)?;
/// let mut opt = Adam::new(1e-3).build(&layer.parameters())?;
/// let x = Tensor::ones(&[8, 4], DType::Float32)?;
/// let loss = layer.forward(&x)?.pow_scalar(2.0)?.mean_all()?;
/// opt.zero_grad()?;
/// loss.backward()?;
/// opt.step()?;
/// # Ok::<(), ctensor::Error>(())
/// ```
pub struct Optimizer {
    raw: sys::ct_optimizer,
}

// SAFETY: the handle may be moved and released on any thread; stepping needs `&mut self`.
unsafe impl Send for Optimizer {}

impl Drop for Optimizer {
    fn drop(&mut self) {
        unsafe { sys::ct_optimizer_release(self.raw) }
    }
}

fn build(
    params: &[Tensor],
    make: impl FnOnce(*const sys::ct_tensor, i32, *mut sys::ct_optimizer) -> sys::ct_status,
) -> Result<Optimizer> {
    ensure_abi()?;
    let hs: Vec<sys::ct_tensor> = params.iter().map(Tensor::as_raw).collect();
    let mut raw = std::ptr::null_mut();
    check(make(hs.as_ptr(), hs.len() as i32, &mut raw))?;
    Ok(Optimizer { raw })
}

impl Optimizer {
    /// One update of every parameter that has a gradient (no graph is recorded).
    pub fn step(&mut self) -> Result<()> {
        check(unsafe { sys::ct_optimizer_step(self.raw) })
    }

    /// Drops the parameters' gradients (like PyTorch's default `set_to_none=True`).
    pub fn zero_grad(&mut self) -> Result<()> {
        self.zero_grad_with(true)
    }

    /// Clears the gradients: drops them when `set_to_none`, else fills them with zeros.
    pub fn zero_grad_with(&mut self, set_to_none: bool) -> Result<()> {
        check(unsafe { sys::ct_optimizer_zero_grad(self.raw, set_to_none as i32) })
    }

    /// Sets the learning rate.
    pub fn set_lr(&mut self, lr: f64) -> Result<()> {
        check(unsafe { sys::ct_optimizer_set_lr(self.raw, lr) })
    }

    /// The current learning rate.
    pub fn lr(&self) -> f64 {
        let mut lr = 0.0;
        check(unsafe { sys::ct_optimizer_get_lr(self.raw, &mut lr) }).expect("lr of a live optimizer");
        lr
    }

    /// The handle, still owned by this optimizer.
    pub fn as_raw(&self) -> sys::ct_optimizer {
        self.raw
    }
}

/// SGD with momentum, dampening, weight decay and Nesterov, like `torch.optim.SGD`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sgd {
    /// Learning rate.
    pub lr: f64,
    /// Momentum factor (0 = none).
    pub momentum: f64,
    /// Dampening of the momentum.
    pub dampening: f64,
    /// L2 penalty added to the gradient.
    pub weight_decay: f64,
    /// Nesterov momentum.
    pub nesterov: bool,
}

impl Sgd {
    /// Plain SGD with learning rate `lr`.
    pub fn new(lr: f64) -> Sgd {
        Sgd { lr, momentum: 0.0, dampening: 0.0, weight_decay: 0.0, nesterov: false }
    }
    /// Sets the momentum factor.
    pub fn momentum(self, momentum: f64) -> Sgd {
        Sgd { momentum, ..self }
    }
    /// Sets the dampening.
    pub fn dampening(self, dampening: f64) -> Sgd {
        Sgd { dampening, ..self }
    }
    /// Sets the weight decay.
    pub fn weight_decay(self, weight_decay: f64) -> Sgd {
        Sgd { weight_decay, ..self }
    }
    /// Sets Nesterov momentum.
    pub fn nesterov(self, nesterov: bool) -> Sgd {
        Sgd { nesterov, ..self }
    }
    /// The optimizer over `params`.
    pub fn build(&self, params: &[Tensor]) -> Result<Optimizer> {
        build(params, |p, n, out| unsafe {
            sys::ct_optim_sgd_new(
                p,
                n,
                self.lr,
                self.momentum,
                self.dampening,
                self.weight_decay,
                self.nesterov as i32,
                out,
            )
        })
    }
}

/// Adam hyper-parameters (shared by [`Adam`] and [`AdamW`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamConfig {
    /// Learning rate.
    pub lr: f64,
    /// Decay rates of the first and second moment estimates.
    pub betas: (f64, f64),
    /// Added to the denominator for stability.
    pub eps: f64,
    /// Weight decay (L2 for Adam, decoupled for AdamW).
    pub weight_decay: f64,
}

macro_rules! adam_like {
    ($(#[$doc:meta])* $name:ident, $ctor:ident, $default_wd:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name(pub AdamConfig);

        impl $name {
            /// Defaults of torch.optim with learning rate `lr`.
            pub fn new(lr: f64) -> $name {
                $name(AdamConfig { lr, betas: (0.9, 0.999), eps: 1e-8, weight_decay: $default_wd })
            }
            /// Sets the moment decay rates.
            pub fn betas(self, beta1: f64, beta2: f64) -> $name {
                $name(AdamConfig { betas: (beta1, beta2), ..self.0 })
            }
            /// Sets epsilon.
            pub fn eps(self, eps: f64) -> $name {
                $name(AdamConfig { eps, ..self.0 })
            }
            /// Sets the weight decay.
            pub fn weight_decay(self, weight_decay: f64) -> $name {
                $name(AdamConfig { weight_decay, ..self.0 })
            }
            /// The optimizer over `params`.
            pub fn build(&self, params: &[Tensor]) -> Result<Optimizer> {
                let c = self.0;
                build(params, |p, n, out| unsafe {
                    sys::$ctor(p, n, c.lr, c.betas.0, c.betas.1, c.eps, c.weight_decay, out)
                })
            }
        }
    };
}

adam_like!(
    /// Adam with L2 weight decay, like `torch.optim.Adam` (default weight decay 0).
    Adam, ct_optim_adam_new, 0.0);
adam_like!(
    /// AdamW with decoupled weight decay, like `torch.optim.AdamW` (default weight decay 0.01).
    AdamW, ct_optim_adamw_new, 0.01);

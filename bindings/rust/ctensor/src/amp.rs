//! Mixed precision (issue 15): an RAII autocast region ([`autocast`], like [`crate::no_grad`]) and a gradient
//! scaler ([`GradScaler`], torch's algorithm) over the C ABI's `ct_autocast_*` / `ct_amp_*` functions.
use std::ffi::CString;
use std::marker::PhantomData;

use crate::error::{check, Error, Result};
use crate::sys;
use crate::tensor::raws;
use crate::{DType, Device, Tensor};

fn device_code(device: Device) -> i32 {
    match device {
        Device::Cpu => sys::CT_DEVICE_CPU,
        Device::Cuda(_) => sys::CT_DEVICE_CUDA,
    }
}

/// Leaves the autocast region when dropped, restoring the outer state (enabled flag and dtype); the cast cache
/// is cleared when the outermost region exits. Not `Send`: autocast state is per thread.
#[must_use = "the autocast region ends when the guard is dropped"]
pub struct AutocastGuard {
    device_type: i32,
    prev_enabled: i32,
    prev_dtype: sys::ct_dtype,
    _not_send: PhantomData<*const ()>,
}

impl Drop for AutocastGuard {
    fn drop(&mut self) {
        unsafe {
            sys::ct_autocast_decrement_nesting();
            sys::ct_autocast_set_enabled(self.device_type, self.prev_enabled, std::ptr::null_mut());
            sys::ct_autocast_set_dtype(self.device_type, self.prev_dtype, std::ptr::null_mut());
        }
    }
}

/// Enters an autocast region for `device`'s type on this thread (torch's `autocast(device_type, dtype)`):
/// matmul, linear and convolutions run in `dtype` (Float16 or BFloat16, anything else is `Error::DType`),
/// losses and linear algebra in float32, until the guard drops.
///
/// ```
/// use ctensor::{autocast, DType, Device, Tensor};
/// let x = Tensor::ones(&[2, 3], DType::Float32)?;
/// let w = Tensor::ones(&[4, 3], DType::Float32)?;
/// {
///     let _region = autocast(Device::Cpu, DType::BFloat16)?;
///     assert_eq!(x.linear(&w, None)?.dtype(), DType::BFloat16);
/// }
/// assert_eq!(x.linear(&w, None)?.dtype(), DType::Float32);
/// # Ok::<(), ctensor::Error>(())
/// ```
pub fn autocast(device: Device, dtype: DType) -> Result<AutocastGuard> {
    set_autocast(device, dtype, true)
}

/// Like [`autocast`] with an explicit enabled flag (`false` turns autocast off inside an outer region).
pub fn set_autocast(device: Device, dtype: DType, enabled: bool) -> Result<AutocastGuard> {
    let device_type = device_code(device);
    let mut prev_dtype = 0;
    check(unsafe { sys::ct_autocast_set_dtype(device_type, dtype.to_raw(), &mut prev_dtype) })?;
    let mut prev_enabled = 0;
    check(unsafe { sys::ct_autocast_set_enabled(device_type, enabled as i32, &mut prev_enabled) })?;
    unsafe { sys::ct_autocast_increment_nesting() };
    Ok(AutocastGuard { device_type, prev_enabled, prev_dtype, _not_send: PhantomData })
}

/// Whether this thread is inside an enabled autocast region for `device`'s type.
pub fn is_autocast_enabled(device: Device) -> bool {
    let mut e = 0;
    unsafe { sys::ct_autocast_is_enabled(device_code(device), &mut e) };
    e != 0
}

/// The lower-precision dtype of this thread's region for `device`'s type (BFloat16 on the CPU by default).
pub fn autocast_dtype(device: Device) -> Result<DType> {
    let mut d = 0;
    check(unsafe { sys::ct_autocast_get_dtype(device_code(device), &mut d) })?;
    DType::from_raw(d)
}

/// How autocast treats op (the C function's name without `ct_`): `CT_AUTOCAST_*`.
pub fn autocast_policy(op: &str, device: Device) -> Result<i32> {
    let name = CString::new(op).map_err(|_| Error::InvalidArgument(format!("autocast_policy: op {op:?} holds NUL")))?;
    let mut p = 0;
    check(unsafe { sys::ct_autocast_policy(name.as_ptr(), device_code(device), &mut p) })?;
    Ok(p)
}

/// Number of casts in this thread's autocast cache (for tests).
pub fn autocast_cache_size() -> i64 {
    unsafe { sys::ct_autocast_cache_size() }
}

/// Gradient scaling as torch's `GradScaler` (defaults: init_scale 65536, growth 2, backoff 0.5, interval 2000):
/// `scale` the loss, `backward`, then `step(params, || optimizer.step())` unscales the gradients, runs the step
/// only when none held an inf or NaN, and `update` backs the scale off or grows it.
pub struct GradScaler {
    scale: Tensor,
    growth_tracker: Tensor,
    found_inf: Option<Tensor>,
    growth_factor: f64,
    backoff_factor: f64,
    growth_interval: i64,
}

impl GradScaler {
    /// torch's defaults, on the CPU.
    pub fn new() -> Result<GradScaler> {
        GradScaler::with_options(65536.0, 2.0, 0.5, 2000, Device::Cpu)
    }

    /// A scaler whose scale and growth tracker live on `device` (the device of the gradients).
    pub fn with_options(
        init_scale: f64,
        growth_factor: f64,
        backoff_factor: f64,
        growth_interval: i64,
        device: Device,
    ) -> Result<GradScaler> {
        let valid = growth_factor > 1.0 && backoff_factor < 1.0 && growth_interval >= 1; // false for NaN
        if !valid {
            return Err(Error::InvalidArgument(format!(
                "GradScaler: growth_factor ({growth_factor}) must be > 1, backoff_factor ({backoff_factor}) < 1 and \
                 growth_interval ({growth_interval}) >= 1"
            )));
        }
        Ok(GradScaler {
            scale: Tensor::full(&[1], init_scale, (DType::Float32, device))?,
            growth_tracker: Tensor::zeros(&[1], (DType::Int32, device))?,
            found_inf: None,
            growth_factor,
            backoff_factor,
            growth_interval,
        })
    }

    /// `loss * scale`.
    pub fn scale(&self, loss: &Tensor) -> Result<Tensor> {
        loss * &self.scale
    }

    /// The current scale (reads it back from the device).
    pub fn get_scale(&self) -> Result<f64> {
        self.scale.item()
    }

    /// The number of clean steps since the last growth or backoff.
    pub fn growth_tracker(&self) -> Result<i64> {
        self.growth_tracker.item_i64()
    }

    /// Divides the gradients of `params` by the scale in place (once per iteration) and records inf/NaN.
    pub fn unscale(&mut self, params: &[&Tensor]) -> Result<()> {
        if self.found_inf.is_some() {
            return Err(Error::InvalidArgument("GradScaler::unscale: already unscaled since the last update".into()));
        }
        let grads: Vec<Tensor> = params.iter().filter_map(|p| p.grad()).collect();
        let grad_refs: Vec<&Tensor> = grads.iter().collect();
        let handles = raws(&grad_refs);
        let inv_scale = self.scale.to_dtype(DType::Float64)?.reciprocal()?.to_dtype(DType::Float32)?;
        let found = Tensor::zeros(&[1], (DType::Float32, self.scale.device()))?;
        check(unsafe {
            sys::ct_amp_non_finite_check_and_unscale_(
                handles.as_ptr(),
                handles.len() as i32,
                found.as_raw(),
                inv_scale.as_raw(),
            )
        })?;
        self.found_inf = Some(found);
        Ok(())
    }

    /// Unscales (unless [`GradScaler::unscale`] ran already) and calls `step` only when no gradient held an
    /// inf or NaN. Returns whether the step ran.
    pub fn step(&mut self, params: &[&Tensor], step: impl FnOnce() -> Result<()>) -> Result<bool> {
        if self.found_inf.is_none() {
            self.unscale(params)?;
        }
        let found = self.found_inf.as_ref().map(|f| f.item()).transpose()?.unwrap_or(0.0);
        if found != 0.0 {
            return Ok(false);
        }
        step()?;
        Ok(true)
    }

    /// Backs the scale off after an iteration that found an inf/NaN, grows it after `growth_interval` clean
    /// ones (torch's `_amp_update_scale_`); starts the next iteration.
    pub fn update(&mut self) -> Result<()> {
        let found = self.found_inf.take().ok_or_else(|| {
            Error::InvalidArgument("GradScaler::update: no inf checks were recorded (call step first)".into())
        })?;
        check(unsafe {
            sys::ct_amp_update_scale_(
                self.scale.as_raw(),
                self.growth_tracker.as_raw(),
                found.as_raw(),
                self.growth_factor,
                self.backoff_factor,
                self.growth_interval,
            )
        })
    }
}

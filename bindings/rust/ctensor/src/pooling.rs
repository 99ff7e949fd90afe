//! Pooling layers with every torch option (re-exported from `nn`): `MaxPool2d` (dilation, ceil_mode,
//! argmax indices), `AvgPool2d` (ceil_mode, count_include_pad, divisor_override) and the adaptive poolings,
//! as builder-style option structs that are also [`Module`]s; plus the adaptive tensor methods.
use ctensor_sys as sys;

use crate::error::{check, Error, Result};
use crate::nn::Module;
use crate::tensor::{out1, Tensor};

/// Runs a pooling call that fills an output and, when `want_indices`, its int64 argmax indices.
fn with_indices(
    want_indices: bool,
    call: impl FnOnce(*mut sys::ct_tensor, *mut sys::ct_tensor) -> sys::ct_status,
) -> Result<(Tensor, Option<Tensor>)> {
    let (mut out, mut idx) = (std::ptr::null_mut(), std::ptr::null_mut());
    let idx_ptr: *mut sys::ct_tensor = if want_indices { &mut idx } else { std::ptr::null_mut() };
    check(call(&mut out, idx_ptr))?;
    // SAFETY: on success `out` (and `idx` when asked for) hold new references that we now own.
    let out = unsafe { Tensor::from_raw(out) };
    Ok((out, want_indices.then(|| unsafe { Tensor::from_raw(idx) })))
}

/// 2-D max pooling over NCHW (or CHW) input, like `torch.nn.MaxPool2d`; all sizes are `[h, w]`.
///
/// ```
/// use ctensor::{nn::{MaxPool2d, Module}, DType, Tensor};
/// let x = Tensor::arange(0.0, 16.0, 1.0, DType::Float32)?.reshape(&[1, 1, 4, 4])?;
/// let pool = MaxPool2d::new([2, 2]);                 // stride defaults to the kernel
/// assert_eq!(pool.forward(&x)?.to_vec::<f32>()?, vec![5.0, 7.0, 13.0, 15.0]);
/// let (_, indices) = MaxPool2d::new([3, 3]).stride([2, 2]).ceil_mode(true).forward_with_indices(&x)?;
/// assert_eq!(indices.to_vec::<i64>()?, vec![10, 11, 14, 15]);   // h * W + w in each input plane
/// # Ok::<(), ctensor::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxPool2d {
    /// Window size.
    pub kernel: [i64; 2],
    /// Defaults to `kernel`.
    pub stride: [i64; 2],
    /// Implicit `-inf` padding on both sides (at most half the kernel).
    pub padding: [i64; 2],
    /// Spacing between window elements (1 = dense).
    pub dilation: [i64; 2],
    /// Rounds the output size up (the last window must start inside the input or its left padding).
    pub ceil_mode: bool,
}

impl MaxPool2d {
    /// Pooling with `kernel`, stride = kernel, no padding, dilation 1, floor mode.
    pub fn new(kernel: [i64; 2]) -> MaxPool2d {
        MaxPool2d { kernel, stride: kernel, padding: [0, 0], dilation: [1, 1], ceil_mode: false }
    }
    /// Sets the stride.
    pub fn stride(self, stride: [i64; 2]) -> MaxPool2d {
        MaxPool2d { stride, ..self }
    }
    /// Sets the padding.
    pub fn padding(self, padding: [i64; 2]) -> MaxPool2d {
        MaxPool2d { padding, ..self }
    }
    /// Sets the dilation.
    pub fn dilation(self, dilation: [i64; 2]) -> MaxPool2d {
        MaxPool2d { dilation, ..self }
    }
    /// Sets ceil mode.
    pub fn ceil_mode(self, ceil_mode: bool) -> MaxPool2d {
        MaxPool2d { ceil_mode, ..self }
    }

    fn run(&self, x: &Tensor, want_indices: bool) -> Result<(Tensor, Option<Tensor>)> {
        let (k, s, p, d) = (self.kernel.as_ptr(), self.stride.as_ptr(), self.padding.as_ptr(), self.dilation.as_ptr());
        let ceil = self.ceil_mode as i32;
        with_indices(want_indices, |o, i| unsafe { sys::ct_max_pool2d_ex(x.as_raw(), k, s, p, d, ceil, o, i) })
    }

    /// The pooled tensor and the int64 argmax of each output as a flat index `h * W + w` into its input
    /// plane (torch's `return_indices=True`); -1 for a window that holds only padding.
    pub fn forward_with_indices(&self, x: &Tensor) -> Result<(Tensor, Tensor)> {
        let (out, idx) = self.run(x, true)?;
        Ok((out, idx.expect("indices were requested")))
    }
}

impl Module for MaxPool2d {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        Ok(self.run(x, false)?.0)
    }
}

/// 2-D average pooling over NCHW (or CHW) input, like `torch.nn.AvgPool2d`; all sizes are `[h, w]`.
///
/// ```
/// use ctensor::{nn::{AvgPool2d, Module}, DType, Tensor};
/// let x = Tensor::ones(&[1, 1, 2, 2], DType::Float64)?;
/// let with_pad = AvgPool2d::new([2, 2]).stride([1, 1]).padding([1, 1]);
/// assert_eq!(with_pad.forward(&x)?.to_vec::<f64>()?[0], 0.25);              // padding counts
/// assert_eq!(with_pad.count_include_pad(false).forward(&x)?.to_vec::<f64>()?[0], 1.0);
/// # Ok::<(), ctensor::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AvgPool2d {
    /// Window size.
    pub kernel: [i64; 2],
    /// Defaults to `kernel`.
    pub stride: [i64; 2],
    /// Implicit zero padding on both sides (at most half the kernel).
    pub padding: [i64; 2],
    /// Rounds the output size up.
    pub ceil_mode: bool,
    /// Counts padding elements in the divisor (torch's default `true`).
    pub count_include_pad: bool,
    /// Divides every window sum by this (> 0) instead of the window size.
    pub divisor_override: Option<i64>,
}

impl AvgPool2d {
    /// Pooling with `kernel`, stride = kernel, no padding, floor mode, padding counted, no override.
    pub fn new(kernel: [i64; 2]) -> AvgPool2d {
        AvgPool2d {
            kernel,
            stride: kernel,
            padding: [0, 0],
            ceil_mode: false,
            count_include_pad: true,
            divisor_override: None,
        }
    }
    /// Sets the stride.
    pub fn stride(self, stride: [i64; 2]) -> AvgPool2d {
        AvgPool2d { stride, ..self }
    }
    /// Sets the padding.
    pub fn padding(self, padding: [i64; 2]) -> AvgPool2d {
        AvgPool2d { padding, ..self }
    }
    /// Sets ceil mode.
    pub fn ceil_mode(self, ceil_mode: bool) -> AvgPool2d {
        AvgPool2d { ceil_mode, ..self }
    }
    /// Sets whether padding counts in the divisor.
    pub fn count_include_pad(self, count_include_pad: bool) -> AvgPool2d {
        AvgPool2d { count_include_pad, ..self }
    }
    /// Sets (or with `None` clears) the divisor override.
    pub fn divisor_override(self, divisor_override: Option<i64>) -> AvgPool2d {
        AvgPool2d { divisor_override, ..self }
    }
}

impl Module for AvgPool2d {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        // The C API spells "no override" as 0, so 0 and negatives are rejected here rather than ignored.
        let divisor = match self.divisor_override {
            None => 0,
            Some(d) if d > 0 => d,
            Some(d) => {
                return Err(Error::InvalidArgument(format!("avg_pool2d: divisor_override must be positive, got {d}")))
            }
        };
        let (k, s, p) = (self.kernel.as_ptr(), self.stride.as_ptr(), self.padding.as_ptr());
        let (ceil, include) = (self.ceil_mode as i32, self.count_include_pad as i32);
        out1(|o| unsafe { sys::ct_avg_pool2d_ex(x.as_raw(), k, s, p, ceil, include, divisor, o) })
    }
}

/// Adaptive average pooling to a fixed `[oh, ow]`, like `torch.nn.AdaptiveAvgPool2d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdaptiveAvgPool2d {
    /// `[oh, ow]`.
    pub output_size: [i64; 2],
}

impl Module for AdaptiveAvgPool2d {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.adaptive_avg_pool2d(self.output_size)
    }
}

/// Adaptive max pooling to a fixed `[oh, ow]`, like `torch.nn.AdaptiveMaxPool2d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdaptiveMaxPool2d {
    /// `[oh, ow]`.
    pub output_size: [i64; 2],
}

impl Module for AdaptiveMaxPool2d {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let size = self.output_size.as_ptr();
        let null = std::ptr::null_mut();
        out1(|o| unsafe { sys::ct_adaptive_max_pool2d(x.as_raw(), size, o, null) })
    }
}

impl Tensor {
    /// Adaptive average pooling of NCHW or CHW input to `output_size` `[oh, ow]`: output `i` of an axis of
    /// size `n` averages `[floor(i * n / o), ceil((i + 1) * n / o))`.
    pub fn adaptive_avg_pool2d(&self, output_size: [i64; 2]) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_adaptive_avg_pool2d(self.as_raw(), output_size.as_ptr(), o) })
    }

    /// Adaptive max pooling (windows as [`Tensor::adaptive_avg_pool2d`]): the values and the int64 argmax
    /// of each output as a flat index `h * W + w` into its input plane.
    pub fn adaptive_max_pool2d(&self, output_size: [i64; 2]) -> Result<(Tensor, Tensor)> {
        let size = output_size.as_ptr();
        let (out, idx) = with_indices(true, |o, i| unsafe { sys::ct_adaptive_max_pool2d(self.as_raw(), size, o, i) })?;
        Ok((out, idx.expect("indices were requested")))
    }
}

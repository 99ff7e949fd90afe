//! Resampling (torch's `F.interpolate` / `nn.Upsample`): nearest, nearest-exact, linear (bi-, tri-), bicubic and
//! area over `[N, C, d1..dk]` tensors (k = 1, 2, 3), to a size or by scale factors; differentiable to any order.
use ctensor_sys as sys;

use crate::error::Result;
use crate::nn::Module;
use crate::tensor::{out1, Tensor};

/// How [`Tensor::interpolate`] samples the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterpolateMode {
    /// torch's `nearest`: source index `floor(dst * scale)`.
    Nearest,
    /// torch's `nearest-exact`: source index `floor((dst + 0.5) * scale)`.
    NearestExact,
    /// linear / bilinear / trilinear by the number of spatial dims.
    Linear,
    /// bicubic (2 spatial dims; A = -0.75).
    Bicubic,
    /// adaptive average pooling to the output size.
    Area,
}

impl InterpolateMode {
    fn to_raw(self) -> i32 {
        match self {
            InterpolateMode::Nearest => sys::CT_INTERP_NEAREST,
            InterpolateMode::NearestExact => sys::CT_INTERP_NEAREST_EXACT,
            InterpolateMode::Linear => sys::CT_INTERP_LINEAR,
            InterpolateMode::Bicubic => sys::CT_INTERP_BICUBIC,
            InterpolateMode::Area => sys::CT_INTERP_AREA,
        }
    }
}

/// The output of [`Tensor::interpolate`]: one size or one factor per spatial dim (their count is the spatial rank).
#[derive(Debug, Clone, PartialEq)]
pub enum Resize {
    /// The output's spatial sizes.
    Size(Vec<i64>),
    /// Factors: each output size is `floor(input size * factor)`.
    Scale(Vec<f64>),
}

impl Tensor {
    /// torch's `F.interpolate` of this `[N, C, d1..dk]` tensor: `align_corners` only with linear and bicubic
    /// (None: unset, as false); `recompute_scale_factor` with [`Resize::Scale`] interpolates as if the computed size
    /// had been given.
    pub fn interpolate(&self, resize: &Resize, mode: InterpolateMode, align_corners: Option<bool>,
                       recompute_scale_factor: bool) -> Result<Tensor> {
        let (size, scale, k) = match resize {
            Resize::Size(s) => (s.as_ptr(), std::ptr::null(), s.len()),
            Resize::Scale(f) => (std::ptr::null(), f.as_ptr(), f.len()),
        };
        let align = align_corners.map_or(-1, |a| a as i32);
        let k = i32::try_from(k).unwrap_or(i32::MAX); // the library refuses any rank but 1..3
        out1(|o| unsafe {
            sys::ct_interpolate(self.as_raw(), size, scale, k, mode.to_raw(), align, recompute_scale_factor as i32, o)
        })
    }
}

/// torch's `nn.Upsample`: [`Tensor::interpolate`] with fixed options, no parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Upsample {
    /// The output size or the scale factors.
    pub resize: Resize,
    /// The sampling mode.
    pub mode: InterpolateMode,
    /// Linear and bicubic only (None: unset).
    pub align_corners: Option<bool>,
    /// Interpolate at the computed size rather than the factors.
    pub recompute_scale_factor: bool,
}

impl Upsample {
    /// An upsampler to `resize` with `mode` (align_corners unset, factors not recomputed).
    pub fn new(resize: Resize, mode: InterpolateMode) -> Upsample {
        Upsample { resize, mode, align_corners: None, recompute_scale_factor: false }
    }
}

impl Module for Upsample {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.interpolate(&self.resize, self.mode, self.align_corners, self.recompute_scale_factor)
    }
}

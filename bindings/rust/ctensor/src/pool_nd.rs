//! Issue 14: pooling over 1, 2 or 3 spatial dims (`max_pool_nd`, `avg_pool_nd`, `adaptive_*_pool_nd` tensor
//! methods with the spatial rank as a const generic, plus 1-d / 3-d shorthands), `unfold` / `fold` (sliding blocks
//! and their adjoint) and `pixel_shuffle` / `pixel_unshuffle`; one C ABI call each.
use ctensor_sys as sys;

use crate::error::{check, Result};
use crate::tensor::{out1, Tensor};

/// Max pooling options for `N` spatial dims (torch's names; `stride` defaults to the kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolOptions<const N: usize> {
    /// Window size.
    pub kernel: [i64; N],
    /// Step between windows.
    pub stride: [i64; N],
    /// Implicit padding on both sides (at most half the kernel).
    pub padding: [i64; N],
    /// Spacing between window elements (max pooling only).
    pub dilation: [i64; N],
    /// Round the output size up.
    pub ceil_mode: bool,
    /// Average pooling: count the padding in the divisor.
    pub count_include_pad: bool,
    /// Average pooling: divide by this instead (0 = none).
    pub divisor_override: i64,
}

impl<const N: usize> PoolOptions<N> {
    /// Windows of `kernel` with stride = kernel, no padding, dilation 1, floor mode, padding counted.
    pub fn new(kernel: [i64; N]) -> Self {
        PoolOptions {
            kernel,
            stride: kernel,
            padding: [0; N],
            dilation: [1; N],
            ceil_mode: false,
            count_include_pad: true,
            divisor_override: 0,
        }
    }
}

fn pair(call: impl FnOnce(*mut sys::ct_tensor, *mut sys::ct_tensor) -> sys::ct_status) -> Result<(Tensor, Tensor)> {
    let (mut out, mut idx) = (std::ptr::null_mut(), std::ptr::null_mut());
    check(call(&mut out, &mut idx))?;
    // SAFETY: on success both hold new references that we now own.
    Ok(unsafe { (Tensor::from_raw(out), Tensor::from_raw(idx)) })
}

impl Tensor {
    /// Max pooling over the last `N` dims of `[batch, C, spatial...]` (or `[C, spatial...]`) with its int64 argmax
    /// (flat row-major index into each input plane, torch's `return_indices`).
    pub fn max_pool_nd<const N: usize>(&self, o: &PoolOptions<N>) -> Result<(Tensor, Tensor)> {
        pair(|out, idx| unsafe {
            sys::ct_max_pool_nd(
                self.as_raw(),
                N as i32,
                o.kernel.as_ptr(),
                o.stride.as_ptr(),
                o.padding.as_ptr(),
                o.dilation.as_ptr(),
                o.ceil_mode as i32,
                out,
                idx,
            )
        })
    }

    /// Average pooling over the last `N` dims (dilation ignored).
    pub fn avg_pool_nd<const N: usize>(&self, o: &PoolOptions<N>) -> Result<Tensor> {
        out1(|out| unsafe {
            sys::ct_avg_pool_nd(
                self.as_raw(),
                N as i32,
                o.kernel.as_ptr(),
                o.stride.as_ptr(),
                o.padding.as_ptr(),
                o.ceil_mode as i32,
                o.count_include_pad as i32,
                o.divisor_override,
                out,
            )
        })
    }

    /// Adaptive average pooling of the last `N` dims to `output_size`.
    pub fn adaptive_avg_pool_nd<const N: usize>(&self, output_size: [i64; N]) -> Result<Tensor> {
        out1(|out| unsafe { sys::ct_adaptive_avg_pool_nd(self.as_raw(), N as i32, output_size.as_ptr(), out) })
    }

    /// Adaptive max pooling of the last `N` dims to `output_size`, with the argmax as `max_pool_nd`.
    pub fn adaptive_max_pool_nd<const N: usize>(&self, output_size: [i64; N]) -> Result<(Tensor, Tensor)> {
        pair(|out, idx| unsafe {
            sys::ct_adaptive_max_pool_nd(self.as_raw(), N as i32, output_size.as_ptr(), out, idx)
        })
    }

    /// 1-d max pooling with stride = kernel (values only).
    pub fn max_pool1d(&self, kernel: i64) -> Result<Tensor> {
        Ok(self.max_pool_nd(&PoolOptions::new([kernel]))?.0)
    }

    /// 3-d max pooling with stride = kernel (values only).
    pub fn max_pool3d(&self, kernel: [i64; 3]) -> Result<Tensor> {
        Ok(self.max_pool_nd(&PoolOptions::new(kernel))?.0)
    }

    /// 1-d average pooling with stride = kernel.
    pub fn avg_pool1d(&self, kernel: i64) -> Result<Tensor> {
        self.avg_pool_nd(&PoolOptions::new([kernel]))
    }

    /// 3-d average pooling with stride = kernel.
    pub fn avg_pool3d(&self, kernel: [i64; 3]) -> Result<Tensor> {
        self.avg_pool_nd(&PoolOptions::new(kernel))
    }

    /// Sliding `kernel` blocks of `[N, C, H, W]` (or `[C, H, W]`) as `[N, C * kh * kw, L]` (torch's `F.unfold`).
    pub fn unfold_blocks(
        &self,
        kernel: [i64; 2],
        dilation: [i64; 2],
        padding: [i64; 2],
        stride: [i64; 2],
    ) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_unfold(self.as_raw(), kernel.as_ptr(), dilation.as_ptr(), padding.as_ptr(), stride.as_ptr(), o)
        })
    }

    /// The adjoint of `unfold_blocks`: blocks summed into `[N, C, output_size...]` (torch's `F.fold`).
    pub fn fold_blocks(
        &self,
        output_size: [i64; 2],
        kernel: [i64; 2],
        dilation: [i64; 2],
        padding: [i64; 2],
        stride: [i64; 2],
    ) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_fold(
                self.as_raw(),
                output_size.as_ptr(),
                kernel.as_ptr(),
                dilation.as_ptr(),
                padding.as_ptr(),
                stride.as_ptr(),
                o,
            )
        })
    }

    /// `[*, C * r * r, H, W]` to `[*, C, H * r, W * r]`.
    pub fn pixel_shuffle(&self, upscale_factor: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_pixel_shuffle(self.as_raw(), upscale_factor, o) })
    }

    /// `[*, C, H * r, W * r]` to `[*, C * r * r, H, W]`.
    pub fn pixel_unshuffle(&self, downscale_factor: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_pixel_unshuffle(self.as_raw(), downscale_factor, o) })
    }
}

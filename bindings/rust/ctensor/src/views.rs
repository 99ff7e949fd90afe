//! Views and layout (reshape, transpose, slicing, ... share storage unless noted), conversions, and
//! indexing / joining ops (index_select, gather, scatter, masks, cat, stack, split, chunk).
use ctensor_sys as sys;

use crate::error::{check, Result};
use crate::tensor::{out1, raws, Tensor};
use crate::types::{DType, Device};

impl Tensor {
    /// A view (or a copy when the strides do not allow one) with a new shape; one size may be -1.
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_reshape(self.as_raw(), shape.as_ptr(), shape.len() as i32, o) })
    }

    /// A view with a new shape; fails when the strides do not allow it.
    pub fn view(&self, shape: &[i64]) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_view(self.as_raw(), shape.as_ptr(), shape.len() as i32, o) })
    }

    /// Swaps dims `d0` and `d1`.
    pub fn transpose(&self, d0: i64, d1: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_transpose(self.as_raw(), d0, d1, o) })
    }

    /// Reorders dims: output dim i is input dim `perm[i]`.
    pub fn permute(&self, perm: &[i64]) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_permute(self.as_raw(), perm.as_ptr(), perm.len() as i32, o) })
    }

    /// Removes `dim` if its size is 1.
    pub fn squeeze(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_squeeze(self.as_raw(), dim, o) })
    }

    /// Removes every size-1 dim.
    pub fn squeeze_all(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_squeeze_all(self.as_raw(), o) })
    }

    /// Inserts a size-1 dim at `dim` (in `[-ndim-1, ndim]`).
    pub fn unsqueeze(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_unsqueeze(self.as_raw(), dim, o) })
    }

    /// Broadcasts size-1 dims to `shape` (stride 0); -1 keeps a size; new leading dims allowed.
    pub fn expand(&self, shape: &[i64]) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_expand(self.as_raw(), shape.as_ptr(), shape.len() as i32, o) })
    }

    /// Merges dims `start..=end` into one (a view when possible).
    pub fn flatten(&self, start_dim: i64, end_dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_flatten(self.as_raw(), start_dim, end_dim, o) })
    }

    /// `length` elements of `dim` starting at `start`.
    pub fn narrow(&self, dim: i64, start: i64, length: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_narrow(self.as_raw(), dim, start, length, o) })
    }

    /// Python slice `start:end:step` of `dim` (step > 0; clamped like Python, negatives from the end).
    pub fn slice(&self, dim: i64, start: i64, end: i64, step: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_slice(self.as_raw(), dim, start, end, step, o) })
    }

    /// Entry `index` of `dim`, removing `dim`.
    pub fn select(&self, dim: i64, index: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_select(self.as_raw(), dim, index, o) })
    }

    /// The diagonal of dims `dim1` and `dim2` as a view (`offset` > 0 above the main diagonal, < 0 below),
    /// appended as the last dim, like `torch.diagonal`.
    pub fn diagonal(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_diagonal(self.as_raw(), offset, dim1, dim2, o) })
    }

    /// This tensor (a new reference) when contiguous, else a contiguous copy.
    pub fn contiguous(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_contiguous(self.as_raw(), o) })
    }

    /// A contiguous copy with its own storage (PyTorch's `clone()`; differentiable).
    #[doc(alias = "clone")]
    pub fn copy(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_clone(self.as_raw(), o) })
    }

    /// A view sharing storage but cut from the autograd graph.
    pub fn detach(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_detach(self.as_raw(), o) })
    }

    /// Converts to `dtype` (this tensor itself when it already has it; differentiable between floats).
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_to_dtype(self.as_raw(), dtype.to_raw(), o) })
    }

    /// Copies to `device` (this tensor itself when already there; differentiable).
    pub fn to_device(&self, device: Device) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_to_device(self.as_raw(), device.to_raw(), o) })
    }

    // ---- indexing and joining ----

    /// Entries at the integer 1-D `index` along `dim`.
    pub fn index_select(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_index_select(self.as_raw(), dim, index.as_raw(), o) })
    }

    /// `out[i][j] = self[index[i][j]][j]` for dim 0 (and so on); `index` has this tensor's rank.
    pub fn gather(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_gather(self.as_raw(), dim, index.as_raw(), o) })
    }

    /// A copy with `src` written at `index` along `dim`.
    pub fn scatter(&self, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_scatter(self.as_raw(), dim, index.as_raw(), src.as_raw(), o) })
    }

    /// A copy with `src` added at `index` along `dim`.
    pub fn scatter_add(&self, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_scatter_add(self.as_raw(), dim, index.as_raw(), src.as_raw(), o) })
    }

    /// A copy with `value` where `mask` (bool, broadcast) is true.
    pub fn masked_fill(&self, mask: &Tensor, value: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_masked_fill(self.as_raw(), mask.as_raw(), value, o) })
    }

    /// 1-D tensor of the elements where `mask` (bool, broadcast) is true.
    pub fn masked_select(&self, mask: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_masked_select(self.as_raw(), mask.as_raw(), o) })
    }

    /// Concatenates tensors along `dim`.
    pub fn cat(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        let hs = raws(tensors);
        out1(|o| unsafe { sys::ct_cat(hs.as_ptr(), hs.len() as i32, dim, o) })
    }

    /// Stacks same-shape tensors along a new `dim`.
    pub fn stack(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        let hs = raws(tensors);
        out1(|o| unsafe { sys::ct_stack(hs.as_ptr(), hs.len() as i32, dim, o) })
    }

    fn pieces(
        &self,
        f: unsafe extern "C" fn(sys::ct_tensor, i64, i64, *mut sys::ct_tensor, i32, *mut i32) -> sys::ct_status,
        arg: i64,
        dim: i64,
    ) -> Result<Vec<Tensor>> {
        // First ask for the count, then fetch exactly that many views.
        let mut n = 0i32;
        check(unsafe { f(self.as_raw(), arg, dim, std::ptr::null_mut(), 0, &mut n) })?;
        let mut hs = vec![std::ptr::null_mut(); n as usize];
        check(unsafe { f(self.as_raw(), arg, dim, hs.as_mut_ptr(), n, &mut n) })?;
        Ok(hs.into_iter().take(n as usize).map(|h| unsafe { Tensor::from_raw(h) }).collect())
    }

    /// Views of `split_size` elements along `dim` (the last may be smaller).
    pub fn split(&self, split_size: i64, dim: i64) -> Result<Vec<Tensor>> {
        self.pieces(sys::ct_split, split_size, dim)
    }

    /// `chunks` views along `dim` (sizes like `torch.chunk`).
    pub fn chunk(&self, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
        self.pieces(sys::ct_chunk, chunks, dim)
    }
}

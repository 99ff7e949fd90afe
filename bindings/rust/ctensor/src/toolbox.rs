//! The everyday tensor toolbox (issue 14): in-place scatters, `index_add` / `index_copy` / `index_put` and
//! their in-place forms, thin wrappers over the C ABI (the library does the work and the checks).
use crate::error::{check, Result};
use crate::sys;
use crate::tensor::{out1, raws, Tensor};

impl Tensor {
    /// Writes `src` at `index` along `dim` in place (`scatter` into this tensor).
    pub fn scatter_(&mut self, dim: i64, index: &Tensor, src: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_scatter_(self.as_raw(), dim, index.as_raw(), src.as_raw()) })
    }

    /// Adds `src` at `index` along `dim` in place (`scatter_add` into this tensor).
    pub fn scatter_add_(&mut self, dim: i64, index: &Tensor, src: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_scatter_add_(self.as_raw(), dim, index.as_raw(), src.as_raw()) })
    }

    /// A copy with `alpha * src`'s slices along `dim` added at the 1-D `index` (duplicates sum).
    pub fn index_add(&self, dim: i64, index: &Tensor, src: &Tensor, alpha: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_index_add(self.as_raw(), dim, index.as_raw(), src.as_raw(), alpha, o) })
    }

    /// `index_add` in place.
    pub fn index_add_(&mut self, dim: i64, index: &Tensor, src: &Tensor, alpha: f64) -> Result<()> {
        check(unsafe { sys::ct_index_add_(self.as_raw(), dim, index.as_raw(), src.as_raw(), alpha) })
    }

    /// A copy with `src`'s slices along `dim` copied to the 1-D `index`.
    pub fn index_copy(&self, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_index_copy(self.as_raw(), dim, index.as_raw(), src.as_raw(), o) })
    }

    /// `index_copy` in place.
    pub fn index_copy_(&mut self, dim: i64, index: &Tensor, src: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_index_copy_(self.as_raw(), dim, index.as_raw(), src.as_raw()) })
    }

    /// A copy with `self[indices[0], ..., indices[n-1]] = values` (or `+=` with `accumulate`): the index
    /// tensors broadcast together and pick positions in the first `n` dims (negative values count from the end).
    pub fn index_put(&self, indices: &[&Tensor], values: &Tensor, accumulate: bool) -> Result<Tensor> {
        let hs = raws(indices);
        let n = count(&hs)?;
        out1(|o| unsafe { sys::ct_index_put(self.as_raw(), hs.as_ptr(), n, values.as_raw(), accumulate as i32, o) })
    }

    /// `index_put` in place.
    pub fn index_put_(&mut self, indices: &[&Tensor], values: &Tensor, accumulate: bool) -> Result<()> {
        let hs = raws(indices);
        let n = count(&hs)?;
        check(unsafe { sys::ct_index_put_(self.as_raw(), hs.as_ptr(), n, values.as_raw(), accumulate as i32) })
    }
}

fn count(hs: &[sys::ct_tensor]) -> Result<i32> {
    i32::try_from(hs.len())
        .map_err(|_| crate::Error::InvalidArgument(format!("index_put: {} index tensors", hs.len())))
}

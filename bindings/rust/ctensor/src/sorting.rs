//! Sorting and selection (sort, argsort, topk, kthvalue, unique), cumprod, reordering (flip, roll, tril,
//! triu) and einsum as tensor methods, with PyTorch's semantics and tch-rs-like signatures.
use std::ffi::CString;

use ctensor_sys as sys;

use crate::error::{check, Error, Result};
use crate::tensor::{out1, raws, Tensor};

/// Runs a C call that fills a (values, indices) pair of new handles.
pub(crate) fn pair(call: impl FnOnce(*mut sys::ct_tensor, *mut sys::ct_tensor) -> sys::ct_status) -> Result<(Tensor, Tensor)> {
    let (mut v, mut i) = (std::ptr::null_mut(), std::ptr::null_mut());
    check(call(&mut v, &mut i))?;
    // SAFETY: on success both out-parameters hold new references that we now own.
    Ok(unsafe { (Tensor::from_raw(v), Tensor::from_raw(i)) })
}

/// The distinct values of a tensor with, for each input element, the position of its value in `values`
/// (`inverse`, the input's shape) and how often each value occurs (`counts`); see [`Tensor::unique_all`].
#[derive(Debug, Clone)]
pub struct Unique {
    /// The distinct values (1-D, the input's dtype).
    pub values: Tensor,
    /// int64, the input's shape: `values[inverse[i]] == input[i]`.
    pub inverse: Tensor,
    /// int64, `values`' shape: occurrences of each value.
    pub counts: Tensor,
}

impl Tensor {
    /// Sorts along `dim` (negative counts from the end): the values and their int64 positions in `self`.
    /// The sort is stable (equal values keep their input order); NaN sorts last ascending and first
    /// descending, as in PyTorch. Differentiable in the values.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let x = Tensor::from_slice(&[3.0f32, 1.0, 2.0, 1.0], &[4])?;
    /// let (values, indices) = x.sort(0, false)?;
    /// assert_eq!(values.to_vec::<f32>()?, vec![1.0, 1.0, 2.0, 3.0]);
    /// assert_eq!(indices.to_vec::<i64>()?, vec![1, 3, 2, 0]);   // stable: the first 1.0 comes first
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn sort(&self, dim: i64, descending: bool) -> Result<(Tensor, Tensor)> {
        pair(|v, i| unsafe { sys::ct_sort(self.as_raw(), dim, descending as i32, 1, v, i) })
    }

    /// The int64 positions that sort `self` along `dim` (the indices of [`Tensor::sort`]; stable).
    pub fn argsort(&self, dim: i64, descending: bool) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_argsort(self.as_raw(), dim, descending as i32, 1, o) })
    }

    /// The `k` largest (or, with `largest = false`, smallest) values along `dim` and their int64 positions.
    /// The result is always sorted (best first), which also satisfies `sorted = false`. Differentiable in
    /// the values.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let x = Tensor::from_slice(&[1i64, 5, 3, 4], &[4])?;
    /// let (values, indices) = x.topk(2, -1, true, true)?;
    /// assert_eq!((values.to_vec::<i64>()?, indices.to_vec::<i64>()?), (vec![5, 4], vec![1, 3]));
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn topk(&self, k: i64, dim: i64, largest: bool, sorted: bool) -> Result<(Tensor, Tensor)> {
        pair(|v, i| unsafe { sys::ct_topk(self.as_raw(), k, dim, largest as i32, sorted as i32, v, i) })
    }

    /// The `k`-th smallest value along `dim` (`k` counts from 1) and its int64 position; `keepdim` keeps
    /// `dim` with size 1. Differentiable in the values.
    pub fn kthvalue(&self, k: i64, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        pair(|v, i| unsafe { sys::ct_kthvalue(self.as_raw(), k, dim, keepdim as i32, v, i) })
    }

    /// The distinct values of the flattened tensor: ascending when `sorted`, else in order of first
    /// occurrence. Not differentiable.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let x = Tensor::from_slice(&[3i64, 1, 3, 2, 1], &[5])?;
    /// assert_eq!(x.unique(true)?.to_vec::<i64>()?, vec![1, 2, 3]);
    /// assert_eq!(x.unique(false)?.to_vec::<i64>()?, vec![3, 1, 2]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn unique(&self, sorted: bool) -> Result<Tensor> {
        let null = std::ptr::null_mut();
        out1(|o| unsafe { sys::ct_unique(self.as_raw(), sorted as i32, o, null, null) })
    }

    /// [`Tensor::unique`] with the inverse indices and the counts (torch's `return_inverse=True,
    /// return_counts=True`).
    pub fn unique_all(&self, sorted: bool) -> Result<Unique> {
        let mut h = [std::ptr::null_mut(); 3];
        let [values, inverse, counts] = &mut h;
        check(unsafe { sys::ct_unique(self.as_raw(), sorted as i32, values, inverse, counts) })?;
        // SAFETY: on success all three out-parameters hold new references that we now own.
        let [values, inverse, counts] = h.map(|raw| unsafe { Tensor::from_raw(raw) });
        Ok(Unique { values, inverse, counts })
    }

    /// Cumulative product along `dim` (integer and bool inputs give int64). Differentiable, also through
    /// zeros.
    pub fn cumprod(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_cumprod(self.as_raw(), dim, o) })
    }

    /// A copy with the order of elements reversed along each of `dims`.
    pub fn flip(&self, dims: &[i64]) -> Result<Tensor> {
        let n = len_i32("flip", dims)?;
        out1(|o| unsafe { sys::ct_flip(self.as_raw(), dims.as_ptr(), n, o) })
    }

    /// Rolls by `shifts[i]` along `dims[i]` (elements leaving one end come back at the other); with empty
    /// `dims`, rolls the flattened tensor by the single shift and restores the shape (like `torch.roll`).
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let x = Tensor::from_slice(&[1i64, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(x.roll(&[1], &[1])?.to_vec::<i64>()?, vec![3, 1, 2, 6, 4, 5]);
    /// assert_eq!(x.roll(&[-1], &[])?.to_vec::<i64>()?, vec![2, 3, 4, 5, 6, 1]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn roll(&self, shifts: &[i64], dims: &[i64]) -> Result<Tensor> {
        let (ns, nd) = (len_i32("roll", shifts)?, len_i32("roll", dims)?);
        out1(|o| unsafe { sys::ct_roll(self.as_raw(), shifts.as_ptr(), ns, dims.as_ptr(), nd, o) })
    }

    /// The lower triangle of the last two dims: element `[i, j]` is kept when `j - i <= diagonal`, the rest
    /// is zero.
    pub fn tril(&self, diagonal: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_tril(self.as_raw(), diagonal, o) })
    }

    /// The upper triangle of the last two dims: element `[i, j]` is kept when `j - i >= diagonal`, the rest
    /// is zero.
    pub fn triu(&self, diagonal: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_triu(self.as_raw(), diagonal, o) })
    }

    /// Einstein summation like `torch.einsum`: explicit (`"ij,jk->ik"`) or implicit (`"ij,jk"`) output,
    /// repeated indices for diagonals and traces, `...` for broadcast dims. Differentiable.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let a = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let b = Tensor::from_slice(&[5.0f64, 6.0, 7.0, 8.0], &[2, 2])?;
    /// let c = Tensor::einsum("ij,jk->ik", &[&a, &b])?;
    /// assert_eq!(c.to_vec::<f64>()?, a.matmul(&b)?.to_vec::<f64>()?);
    /// assert_eq!(Tensor::einsum("ii", &[&a])?.item()?, 5.0);   // trace
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn einsum(equation: &str, operands: &[&Tensor]) -> Result<Tensor> {
        let eq = CString::new(equation)
            .map_err(|_| Error::InvalidArgument(format!("einsum: equation {equation:?} contains a NUL byte")))?;
        let hs = raws(operands);
        let n = len_i32("einsum", &hs)?;
        out1(|o| unsafe { sys::ct_einsum(eq.as_ptr(), hs.as_ptr(), n, o) })
    }
}

/// A slice length as the C API's int32 count; a longer slice is an error (never a truncated count).
pub(crate) fn len_i32<T>(op: &str, s: &[T]) -> Result<i32> {
    i32::try_from(s.len()).map_err(|_| Error::InvalidArgument(format!("{op}: {} entries do not fit in int32", s.len())))
}

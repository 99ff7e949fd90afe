//! The everyday tensor toolbox (issue 14): in-place scatters, `index_add` / `index_copy` / `index_put` and
//! their in-place forms, `searchsorted`, `bincount`, `histc`, `cummax` / `cummin`, `nan_to_num`, `diff`,
//! `take_along_dim`, and the dtype limits `finfo` / `iinfo`: thin wrappers over the C ABI (the library does the
//! work and the checks).
use crate::error::{check, ensure_abi, Result};
use crate::sorting::pair;
use crate::sys;
use crate::tensor::{opt_raw, out1, raws, Tensor};
use crate::types::DType;

/// How [`Tensor::scatter_reduce`] combines the values written to one position (torch's `reduce`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScatterReduce {
    /// Their sum.
    Sum,
    /// Their product.
    Prod,
    /// Their mean (integer tensors: floor division).
    Mean,
    /// Their maximum (a NaN wins).
    Amax,
    /// Their minimum (a NaN wins).
    Amin,
}

impl ScatterReduce {
    fn code(self) -> i32 {
        match self {
            ScatterReduce::Sum => sys::CT_SCATTER_SUM,
            ScatterReduce::Prod => sys::CT_SCATTER_PROD,
            ScatterReduce::Mean => sys::CT_SCATTER_MEAN,
            ScatterReduce::Amax => sys::CT_SCATTER_AMAX,
            ScatterReduce::Amin => sys::CT_SCATTER_AMIN,
        }
    }
}

impl Tensor {
    /// Writes `src` at `index` along `dim` in place (`scatter` into this tensor).
    pub fn scatter_(&mut self, dim: i64, index: &Tensor, src: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_scatter_(self.as_raw(), dim, index.as_raw(), src.as_raw()) })
    }

    /// Adds `src` at `index` along `dim` in place (`scatter_add` into this tensor).
    pub fn scatter_add_(&mut self, dim: i64, index: &Tensor, src: &Tensor) -> Result<()> {
        check(unsafe { sys::ct_scatter_add_(self.as_raw(), dim, index.as_raw(), src.as_raw()) })
    }

    /// A copy where each `src` value (over `index`'s shape) is combined into the position `index` names along `dim`
    /// by `reduce`, together with this tensor's own value when `include_self` (torch's `scatter_reduce`).
    pub fn scatter_reduce(&self, dim: i64, index: &Tensor, src: &Tensor, reduce: ScatterReduce, include_self: bool)
        -> Result<Tensor> {
        let (r, s) = (reduce.code(), include_self as i32);
        out1(|o| unsafe { sys::ct_scatter_reduce(self.as_raw(), dim, index.as_raw(), src.as_raw(), r, s, o) })
    }

    /// [`Tensor::scatter_reduce`] into this tensor.
    pub fn scatter_reduce_(&mut self, dim: i64, index: &Tensor, src: &Tensor, reduce: ScatterReduce, include_self: bool)
        -> Result<()> {
        let (r, s) = (reduce.code(), include_self as i32);
        check(unsafe { sys::ct_scatter_reduce_(self.as_raw(), dim, index.as_raw(), src.as_raw(), r, s) })
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

impl Tensor {
    /// Where each of `values` would be inserted into the last dim of this sorted tensor (1-D, or N-d with
    /// `values`' leading dims): the first position whose element is `>=` the value (`right`: `>`); int64, or
    /// int32 with `out_int32`; `sorter` (int64) is the order that sorts an unsorted sequence.
    pub fn searchsorted(
        &self,
        values: &Tensor,
        right: bool,
        out_int32: bool,
        sorter: Option<&Tensor>,
    ) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_searchsorted(self.as_raw(), values.as_raw(), right as i32, out_int32 as i32, opt_raw(sorter), o)
        })
    }

    /// The bucket of each element of this tensor among the sorted 1-D `boundaries` (torch.bucketize).
    pub fn bucketize(&self, boundaries: &Tensor, right: bool, out_int32: bool) -> Result<Tensor> {
        boundaries.searchsorted(self, right, out_int32, None)
    }

    /// Counts of each value of this non-negative 1-D integer tensor (sums of `weights` when given), at least
    /// `minlength` bins.
    pub fn bincount(&self, weights: Option<&Tensor>, minlength: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_bincount(self.as_raw(), opt_raw(weights), minlength, o) })
    }

    /// The histogram of this floating tensor over `bins` equal bins of `[min, max]` (`min == max`: the data's range).
    pub fn histc(&self, bins: i64, min: f64, max: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_histc(self.as_raw(), bins, min, max, o) })
    }

    /// The running maximum along `dim` and the int64 position it came from (differentiable in the values).
    pub fn cummax(&self, dim: i64) -> Result<(Tensor, Tensor)> {
        pair(|v, i| unsafe { sys::ct_cummax(self.as_raw(), dim, v, i) })
    }

    /// The running minimum along `dim` and the int64 position it came from (differentiable in the values).
    pub fn cummin(&self, dim: i64) -> Result<(Tensor, Tensor)> {
        pair(|v, i| unsafe { sys::ct_cummin(self.as_raw(), dim, v, i) })
    }
}

impl Tensor {
    /// NaN, +inf and -inf replaced (`None`: torch's defaults 0, the dtype's max, its lowest); integers: a copy.
    pub fn nan_to_num(&self, nan: Option<f64>, posinf: Option<f64>, neginf: Option<f64>) -> Result<Tensor> {
        let (n, p, q) = (nan.unwrap_or(0.0), posinf.unwrap_or(0.0), neginf.unwrap_or(0.0));
        let (hn, hp, hq) = (nan.is_some() as i32, posinf.is_some() as i32, neginf.is_some() as i32);
        out1(|o| unsafe { sys::ct_nan_to_num(self.as_raw(), n, hn, p, hp, q, hq, o) })
    }

    /// The `n`-th forward difference along `dim`, with `prepend` / `append` joined before / after.
    pub fn diff(&self, n: i64, dim: i64, prepend: Option<&Tensor>, append: Option<&Tensor>) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_diff(self.as_raw(), n, dim, opt_raw(prepend), opt_raw(append), o) })
    }

    /// Gathers along `dim` after broadcasting this tensor and `indices` in every other dim (`None`: flattened).
    pub fn take_along_dim(&self, indices: &Tensor, dim: Option<i64>) -> Result<Tensor> {
        let (d, has) = (dim.unwrap_or(0), dim.is_some() as i32);
        out1(|o| unsafe { sys::ct_take_along_dim(self.as_raw(), indices.as_raw(), d, has, o) })
    }
}

/// The limits of a floating dtype (torch.finfo).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FInfo {
    /// Storage bits.
    pub bits: i32,
    /// The difference between 1 and the next value.
    pub eps: f64,
    /// The largest finite value.
    pub max: f64,
    /// The lowest finite value.
    pub min: f64,
    /// The smallest positive normal value (`smallest_normal`).
    pub tiny: f64,
    /// 10^-(decimal digits of precision).
    pub resolution: f64,
}

/// The limits of an integer dtype (torch.iinfo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IInfo {
    /// Storage bits.
    pub bits: i32,
    /// The lowest value.
    pub min: i64,
    /// The largest value.
    pub max: i64,
}

/// The limits of floating `dtype`, read from the library (an integer dtype is `Error::DType`).
pub fn finfo(dtype: DType) -> Result<FInfo> {
    ensure_abi()?;
    let field = |f: i32| -> Result<f64> {
        let mut v = 0.0;
        check(unsafe { sys::ct_finfo(dtype.to_raw(), f, &mut v) })?;
        Ok(v)
    };
    Ok(FInfo {
        bits: field(sys::CT_FINFO_BITS)? as i32,
        eps: field(sys::CT_FINFO_EPS)?,
        max: field(sys::CT_FINFO_MAX)?,
        min: field(sys::CT_FINFO_MIN)?,
        tiny: field(sys::CT_FINFO_TINY)?,
        resolution: field(sys::CT_FINFO_RESOLUTION)?,
    })
}

/// The limits of integer `dtype`, read from the library (a floating or bool dtype is `Error::DType`).
pub fn iinfo(dtype: DType) -> Result<IInfo> {
    ensure_abi()?;
    let field = |f: i32| -> Result<i64> {
        let mut v = 0;
        check(unsafe { sys::ct_iinfo(dtype.to_raw(), f, &mut v) })?;
        Ok(v)
    };
    Ok(IInfo {
        bits: field(sys::CT_IINFO_BITS)? as i32,
        min: field(sys::CT_IINFO_MIN)?,
        max: field(sys::CT_IINFO_MAX)?,
    })
}

fn count(hs: &[sys::ct_tensor]) -> Result<i32> {
    i32::try_from(hs.len()).map_err(|_| crate::Error::InvalidArgument(format!("index_put: {} index tensors", hs.len())))
}

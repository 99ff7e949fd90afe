//! The rest of the tensor toolbox (issue 14): `repeat_interleave`, `meshgrid`, `median` / `nanmedian`,
//! `quantile` / `nanquantile` and `cdist`: thin wrappers over the C ABI (the library does the work and the checks).
use crate::error::{check, Result};
use crate::sorting::pair;
use crate::sys;
use crate::tensor::{out1, raws, Tensor};

/// How often `repeat_interleave` repeats each element: one count for all, or an integer tensor of counts.
pub enum Repeats<'a> {
    /// Every element the same number of times.
    Count(i64),
    /// One count per slice along the dim (or a single count), an integer tensor.
    PerSlice(&'a Tensor),
}

/// `quantile`'s interpolation between the two nearest ranks (torch's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// `lower + (upper - lower) * fraction`.
    Linear,
    /// The lower rank's value.
    Lower,
    /// The upper rank's value.
    Higher,
    /// `(lower + upper) / 2`.
    Midpoint,
    /// The nearest rank's value (half to even).
    Nearest,
}

impl Interpolation {
    fn code(self) -> i32 {
        match self {
            Interpolation::Linear => sys::CT_QUANTILE_LINEAR,
            Interpolation::Lower => sys::CT_QUANTILE_LOWER,
            Interpolation::Higher => sys::CT_QUANTILE_HIGHER,
            Interpolation::Midpoint => sys::CT_QUANTILE_MIDPOINT,
            Interpolation::Nearest => sys::CT_QUANTILE_NEAREST,
        }
    }
}

fn opt(v: Option<i64>) -> (i64, i32) {
    (v.unwrap_or(0), v.is_some() as i32)
}

/// The coordinate grids of 0-d or 1-D tensors of one dtype (`xy`: the first two dims swapped, numpy's
/// Cartesian indexing); the grids are expanded views and pass gradients back.
pub fn meshgrid(tensors: &[&Tensor], xy: bool) -> Result<Vec<Tensor>> {
    let hs = raws(tensors);
    let n = i32::try_from(hs.len())
        .map_err(|_| crate::Error::InvalidArgument(format!("meshgrid: {} tensors", hs.len())))?;
    let mut outs: Vec<sys::ct_tensor> = vec![std::ptr::null_mut(); hs.len()];
    let indexing = if xy { sys::CT_MESHGRID_XY } else { sys::CT_MESHGRID_IJ };
    check(unsafe { sys::ct_meshgrid(hs.as_ptr(), n, indexing, outs.as_mut_ptr(), n) })?;
    // SAFETY: on success every slot holds a new reference that we now own.
    Ok(outs.into_iter().map(|h| unsafe { Tensor::from_raw(h) }).collect())
}

impl Tensor {
    /// Each element repeated along `dim` (`None`: over the flattened tensor); `output_size`, when given, must
    /// equal the total. The gradient sums each element's copies.
    pub fn repeat_interleave(&self, repeats: Repeats<'_>, dim: Option<i64>, output_size: Option<i64>) -> Result<Tensor> {
        let (d, has_d) = opt(dim);
        let (os, has_os) = opt(output_size);
        let (rt, rs) = match repeats {
            Repeats::Count(n) => (std::ptr::null_mut(), n),
            Repeats::PerSlice(t) => (t.as_raw(), 0),
        };
        out1(|o| unsafe { sys::ct_repeat_interleave(self.as_raw(), rt, rs, d, has_d, os, has_os, o) })
    }

    /// The lower median of all elements (NaN when one is NaN), 0-d.
    pub fn median(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_median(self.as_raw(), o) })
    }

    /// The lower median of the non-NaN elements, 0-d.
    pub fn nanmedian(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_nanmedian(self.as_raw(), o) })
    }

    /// The lower median along `dim` and its int64 position (a row holding NaN gives its first NaN).
    pub fn median_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        pair(|v, i| unsafe { sys::ct_median_dim(self.as_raw(), dim, keepdim as i32, v, i) })
    }

    /// `median_dim` ignoring NaN.
    pub fn nanmedian_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        pair(|v, i| unsafe { sys::ct_nanmedian_dim(self.as_raw(), dim, keepdim as i32, v, i) })
    }

    /// The `q`-quantile (0 <= q <= 1) along `dim` (`None`: of all elements).
    pub fn quantile(&self, q: f64, dim: Option<i64>, keepdim: bool, mode: Interpolation) -> Result<Tensor> {
        self.quantile_impl(None, q, dim, keepdim, mode, false)
    }

    /// The quantiles for each value of the 0-d or 1-D tensor `q` (the input's dtype); a 1-D `q` puts its dim first.
    pub fn quantile_t(&self, q: &Tensor, dim: Option<i64>, keepdim: bool, mode: Interpolation) -> Result<Tensor> {
        self.quantile_impl(Some(q), 0.0, dim, keepdim, mode, false)
    }

    /// `quantile` ignoring NaN.
    pub fn nanquantile(&self, q: f64, dim: Option<i64>, keepdim: bool, mode: Interpolation) -> Result<Tensor> {
        self.quantile_impl(None, q, dim, keepdim, mode, true)
    }

    /// `quantile_t` ignoring NaN.
    pub fn nanquantile_t(&self, q: &Tensor, dim: Option<i64>, keepdim: bool, mode: Interpolation) -> Result<Tensor> {
        self.quantile_impl(Some(q), 0.0, dim, keepdim, mode, true)
    }

    fn quantile_impl(
        &self,
        q: Option<&Tensor>,
        qs: f64,
        dim: Option<i64>,
        keepdim: bool,
        mode: Interpolation,
        nan: bool,
    ) -> Result<Tensor> {
        let (d, has_d) = opt(dim);
        let qh = q.map_or(std::ptr::null_mut(), |t| t.as_raw());
        let f = if nan { sys::ct_nanquantile } else { sys::ct_quantile };
        out1(|o| unsafe { f(self.as_raw(), qh, qs, d, has_d, keepdim as i32, mode.code(), o) })
    }

    /// The `p`-norm distances `[B.., P, R]` between this tensor's rows `[B.., P, M]` and `other`'s `[B.., R, M]`;
    /// `compute_mode` as torch (0: matmul form for p = 2 when P or R > 25, 1: always, 2: never).
    pub fn cdist(&self, other: &Tensor, p: f64, compute_mode: i32) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_cdist(self.as_raw(), other.as_raw(), p, compute_mode, o) })
    }
}

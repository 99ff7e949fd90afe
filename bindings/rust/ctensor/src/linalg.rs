//! torch.linalg as tensor methods with tch-rs's names (`linalg_inv`, `linalg_qr`, ...) plus torch's aliases
//! (`det`, `inverse`, `slogdet`, `logdet`, `pinverse`, `matrix_power`): LAPACK on the CPU, float32/float64,
//! batched over leading dims.
//! Errors (a singular matrix, a non-positive-definite one) are [`Error::InvalidArgument`] naming the batch element.
use std::ffi::CString;

use ctensor_sys as sys;

use crate::error::{check, ensure_abi, Error, Result};
use crate::tensor::{out1, Tensor};

/// Which factors [`Tensor::linalg_qr`] returns (torch's `mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QrMode {
    /// Q `[.., m, k]`, R `[.., k, n]`, k = min(m, n).
    Reduced,
    /// Q `[.., m, m]`, R `[.., m, n]`.
    Complete,
    /// R only; Q is an empty `[0]` tensor.
    R,
}

/// Which triangle of a symmetric matrix [`Tensor::linalg_eigh`] reads (torch's `UPLO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Uplo {
    /// The lower triangle (`UPLO='L'`, torch's default).
    Lower,
    /// The upper triangle (`UPLO='U'`).
    Upper,
}

/// The LAPACK driver of [`Tensor::linalg_lstsq_ex`] (torch's `driver`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LstsqDriver {
    /// Complete orthogonal factorisation with column pivoting: any rank (torch's default on the CPU).
    #[default]
    Gelsy,
    /// QR or LQ: A must have full rank.
    Gels,
    /// SVD by divide and conquer: any rank; gives the singular values.
    Gelsd,
    /// SVD: any rank; gives the singular values.
    Gelss,
}

/// What [`Tensor::linalg_lstsq_ex`] returns (torch's named tuple).
#[derive(Debug)]
pub struct Lstsq {
    /// `[.., n, k]` (`[.., n]` for a vector B): the minimum-norm least-squares solution; differentiable.
    pub solution: Tensor,
    /// `[.., k]` squared residual norms when m > n, the driver is not gelsy and A has full rank; else `[0]`.
    pub residuals: Tensor,
    /// int64 `[..]` (`[0]` for gels).
    pub rank: Tensor,
    /// `[.., min(m, n)]` for gelsd and gelss; else `[0]`.
    pub singular_values: Tensor,
}

/// Runs a C call that fills n new handles (all or none, per the C ABI).
fn outs<const N: usize>(call: impl FnOnce(&mut [sys::ct_tensor; N]) -> sys::ct_status) -> Result<[Tensor; N]> {
    ensure_abi()?;
    let mut hs = [std::ptr::null_mut(); N];
    check(call(&mut hs))?;
    // SAFETY: on success every out-parameter holds a new reference that we now own.
    Ok(hs.map(|h| unsafe { Tensor::from_raw(h) }))
}

impl Tensor {
    /// The inverse of each square matrix.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let a = Tensor::from_slice(&[4.0f64, 7.0, 2.0, 6.0], &[2, 2])?;
    /// let inv = a.linalg_inv()?.to_vec::<f64>()?;
    /// assert!((inv[0] - 0.6).abs() < 1e-12 && (inv[1] + 0.7).abs() < 1e-12);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn linalg_inv(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_inv(self.as_raw(), o) })
    }

    /// torch.inverse: the same as [`Tensor::linalg_inv`].
    pub fn inverse(&self) -> Result<Tensor> {
        self.linalg_inv()
    }

    /// The determinant of each square matrix (shape: the batch dims).
    pub fn linalg_det(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_det(self.as_raw(), o) })
    }

    /// torch.det: the same as [`Tensor::linalg_det`].
    pub fn det(&self) -> Result<Tensor> {
        self.linalg_det()
    }

    /// (sign, log|det|) of each square matrix; sign 0 and -inf for a singular one. Differentiable in log|det|.
    pub fn linalg_slogdet(&self) -> Result<(Tensor, Tensor)> {
        let [s, l] = outs(|h| unsafe { sys::ct_linalg_slogdet(self.as_raw(), &mut h[0], &mut h[1]) })?;
        Ok((s, l))
    }

    /// torch.slogdet: the same as [`Tensor::linalg_slogdet`].
    pub fn slogdet(&self) -> Result<(Tensor, Tensor)> {
        self.linalg_slogdet()
    }

    /// torch.logdet: log det; NaN where det < 0 and -inf where it is 0.
    pub fn logdet(&self) -> Result<Tensor> {
        let (sign, logabsdet) = self.linalg_slogdet()?;
        logabsdet.masked_fill(&sign.lt(&sign.zeros_like()?)?, f64::NAN)
    }

    /// X with `self @ X = b`; `b` is a matrix `[.., n, k]`, or a vector (1-D, or `self`'s shape without its
    /// last dim), batch dims broadcast.
    pub fn linalg_solve(&self, b: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_solve(self.as_raw(), b.as_raw(), o) })
    }

    /// The Cholesky factor L (`self = L L^T`) or, with `upper`, `L^T`; reads the lower triangle.
    pub fn linalg_cholesky(&self, upper: bool) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_cholesky(self.as_raw(), upper as i32, o) })
    }

    /// (Q, R) with `self = Q R`.
    pub fn linalg_qr(&self, mode: QrMode) -> Result<(Tensor, Tensor)> {
        let m = match mode {
            QrMode::Reduced => sys::CT_QR_REDUCED,
            QrMode::Complete => sys::CT_QR_COMPLETE,
            QrMode::R => sys::CT_QR_R,
        };
        let [q, r] = outs(|h| unsafe { sys::ct_linalg_qr(self.as_raw(), m, &mut h[0], &mut h[1]) })?;
        Ok((q, r))
    }

    /// (ascending eigenvalues, eigenvectors as columns) of symmetric matrices read from the `uplo` triangle.
    pub fn linalg_eigh(&self, uplo: Uplo) -> Result<(Tensor, Tensor)> {
        let up = (uplo == Uplo::Upper) as i32;
        let [w, v] = outs(|h| unsafe { sys::ct_linalg_eigh(self.as_raw(), up, &mut h[0], &mut h[1]) })?;
        Ok((w, v))
    }

    /// The eigenvalues of [`Tensor::linalg_eigh`] alone.
    pub fn linalg_eigvalsh(&self, uplo: Uplo) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_eigvalsh(self.as_raw(), (uplo == Uplo::Upper) as i32, o) })
    }

    /// (eigenvalues, eigenvectors as columns of unit norm) of real square matrices, both complex (complex64 for
    /// float32, complex128 for float64), as torch.linalg.eig (LAPACK geev).
    pub fn linalg_eig(&self) -> Result<(Tensor, Tensor)> {
        let [w, v] = outs(|h| unsafe { sys::ct_linalg_eig(self.as_raw(), &mut h[0], &mut h[1]) })?;
        Ok((w, v))
    }

    /// The eigenvalues of [`Tensor::linalg_eig`] alone.
    pub fn linalg_eigvals(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_eigvals(self.as_raw(), o) })
    }

    /// (U, S, Vh) with `self = U diag(S) Vh`, S descending; `full_matrices` gives square U and Vh.
    pub fn linalg_svd(&self, full_matrices: bool) -> Result<(Tensor, Tensor, Tensor)> {
        let f = full_matrices as i32;
        let [u, s, vh] = outs(|h| {
            let [u, s, vh] = h;
            unsafe { sys::ct_linalg_svd(self.as_raw(), f, u, s, vh) }
        })?;
        Ok((u, s, vh))
    }

    /// The singular values, descending.
    pub fn linalg_svdvals(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_svdvals(self.as_raw(), o) })
    }

    /// X with `self @ X = b` (`left`) or `X @ self = b`, `self` triangular (`upper` or lower; `unitriangular`:
    /// its diagonal is taken as 1). No singularity check (a zero diagonal gives inf/NaN).
    pub fn linalg_solve_triangular(&self, b: &Tensor, upper: bool, left: bool, unitriangular: bool) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_linalg_solve_triangular(
                self.as_raw(),
                b.as_raw(),
                upper as i32,
                left as i32,
                unitriangular as i32,
                o,
            )
        })
    }

    /// `self` to the power `n` (square matrices; n < 0 inverts first, n = 0 gives the identity).
    pub fn linalg_matrix_power(&self, n: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_matrix_power(self.as_raw(), n, o) })
    }

    /// torch.matrix_power: the same as [`Tensor::linalg_matrix_power`].
    pub fn matrix_power(&self, n: i64) -> Result<Tensor> {
        self.linalg_matrix_power(n)
    }

    /// The cross product with `other` along `dim` (size 3 there; same rank, broadcast).
    pub fn linalg_cross(&self, other: &Tensor, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_cross(self.as_raw(), other.as_raw(), dim, o) })
    }

    /// `(sum |x|^ord)^(1/ord)` over `dims` (empty: all); `ord` infinite: max / min of |x|; 0: the nonzero count.
    pub fn linalg_vector_norm(&self, ord: f64, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        let n = i32::try_from(dims.len())
            .map_err(|_| Error::InvalidArgument("linalg_vector_norm: too many dims".into()))?;
        out1(|o| unsafe { sys::ct_linalg_vector_norm(self.as_raw(), ord, dims.as_ptr(), n, keepdim as i32, o) })
    }

    /// A matrix norm over `(dim0, dim1)`: `ord` is "fro", "nuc", "inf", "-inf", "1", "-1", "2" or "-2".
    pub fn linalg_matrix_norm(&self, ord: &str, dim0: i64, dim1: i64, keepdim: bool) -> Result<Tensor> {
        let c = CString::new(ord).map_err(|_| Error::InvalidArgument("linalg_matrix_norm: ord holds a NUL".into()))?;
        out1(|o| unsafe { sys::ct_linalg_matrix_norm(self.as_raw(), c.as_ptr(), dim0, dim1, keepdim as i32, o) })
    }

    /// The pseudo-inverse (SVD); singular values at most `max(atol, rtol * largest)` are dropped. `None` is
    /// torch's default for each tolerance.
    pub fn linalg_pinv(&self, atol: Option<f64>, rtol: Option<f64>) -> Result<Tensor> {
        let (a, r) = (atol.unwrap_or(-1.0), rtol.unwrap_or(-1.0));
        out1(|o| unsafe { sys::ct_linalg_pinv(self.as_raw(), a, r, o) })
    }

    /// torch.pinverse: [`Tensor::linalg_pinv`] with the default tolerances.
    pub fn pinverse(&self) -> Result<Tensor> {
        self.linalg_pinv(None, None)
    }

    /// The number (int64) of singular values above [`Tensor::linalg_pinv`]'s tolerance.
    pub fn linalg_matrix_rank(&self, atol: Option<f64>, rtol: Option<f64>) -> Result<Tensor> {
        let (a, r) = (atol.unwrap_or(-1.0), rtol.unwrap_or(-1.0));
        out1(|o| unsafe { sys::ct_linalg_matrix_rank(self.as_raw(), a, r, o) })
    }

    /// The minimum-norm least-squares solution of `self @ X = b` with the default driver (gelsy, any rank):
    /// [`Tensor::linalg_lstsq_ex`]'s `solution`.
    pub fn linalg_lstsq(&self, b: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linalg_lstsq(self.as_raw(), b.as_raw(), o) })
    }

    /// torch.linalg.lstsq(self, b, rcond, driver) on the CPU: `b` is `[.., m, k]`, or `[.., m]` when it has one
    /// dim less than `self`; batch dims broadcast. `rcond` None: eps * max(m, n). The solution's gradient is that
    /// of `pinv(self) @ b`.
    ///
    /// ```
    /// use ctensor::{LstsqDriver, Tensor};
    /// let a = Tensor::from_slice(&[1.0f64, 2.0, 2.0, 4.0, 3.0, 6.0], &[3, 2])?; // rank 1
    /// let b = Tensor::from_slice(&[1.0f64, 2.0, 4.0], &[3])?;
    /// let r = a.linalg_lstsq_ex(&b, None, LstsqDriver::Gelsd)?;
    /// assert_eq!(r.rank.to_vec::<i64>()?, vec![1]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn linalg_lstsq_ex(&self, b: &Tensor, rcond: Option<f64>, driver: LstsqDriver) -> Result<Lstsq> {
        let d = match driver {
            LstsqDriver::Gelsy => sys::CT_LSTSQ_GELSY,
            LstsqDriver::Gels => sys::CT_LSTSQ_GELS,
            LstsqDriver::Gelsd => sys::CT_LSTSQ_GELSD,
            LstsqDriver::Gelss => sys::CT_LSTSQ_GELSS,
        };
        let rc = rcond.unwrap_or(-1.0);
        let [solution, residuals, rank, singular_values] = outs(|h| {
            let [x, r, k, s] = h;
            unsafe { sys::ct_linalg_lstsq_ex(self.as_raw(), b.as_raw(), rc, d, x, r, k, s) }
        })?;
        Ok(Lstsq { solution, residuals, rank, singular_values })
    }
}

"""ctensor.linalg: torch.linalg's names over the C ABI's ct_linalg_* (LAPACK on the CPU; CUDA tensors raise
NotImplementedError). Matrices are the last two dims, batched over the leading ones; float32/float64 and
complex64/complex128, with torch's real dtypes for real-valued results of complex input.
Decompositions return named tuples with torch's field names. ctensor.det/inverse/logdet/slogdet/pinverse/
matrix_power and the Tensor methods of those names are torch's aliases."""
import collections

from . import _C
from ._tensor import Tensor

__all__ = ["inv", "det", "slogdet", "solve", "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals",
           "solve_triangular", "lstsq", "pinv", "matrix_rank", "matrix_norm", "vector_norm", "norm", "matrix_power",
           "cross", "eig", "eigvals"]

slogdet_ret = collections.namedtuple("slogdet", ["sign", "logabsdet"])
qr_ret = collections.namedtuple("qr", ["Q", "R"])
eigh_ret = collections.namedtuple("eigh", ["eigenvalues", "eigenvectors"])
eig_ret = collections.namedtuple("eig", ["eigenvalues", "eigenvectors"])
svd_ret = collections.namedtuple("svd", ["U", "S", "Vh"])
lstsq_ret = collections.namedtuple("lstsq", ["solution", "residuals", "rank", "singular_values"])

_QR_MODES = {"reduced": 0, "complete": 1, "r": 2}


def _uplo(UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO must be 'L' or 'U', got %r" % (UPLO,))
    return UPLO == "U"


def inv(A):
    """A^-1 (raises ValueError naming the batch element for a singular matrix)."""
    return _C.linalg_inv(A)


def det(A):
    return _C.linalg_det(A)


def slogdet(A):
    """(sign, logabsdet) of det(A); sign 0 and logabsdet -inf for a singular matrix."""
    return slogdet_ret(*_C.linalg_slogdet(A))


def solve(A, B, *, left=True):
    """X with A X = B (left) or X A = B; B is a matrix, or a vector when 1-D or of A's shape without the last dim."""
    if left:
        return _C.linalg_solve(A, B)
    return _C.linalg_solve(A.mT, B.mT).mT


def cholesky(A, *, upper=False):
    return _C.linalg_cholesky(A, bool(upper))


def qr(A, mode="reduced"):
    if mode not in _QR_MODES:
        raise ValueError("qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or "
                         "'complete'" % (mode,))
    return qr_ret(*_C.linalg_qr(A, _QR_MODES[mode]))


def eigh(A, UPLO="L"):
    """Ascending eigenvalues and eigenvectors (columns) of symmetric A, read from its UPLO triangle."""
    return eigh_ret(*_C.linalg_eigh(A, _uplo(UPLO)))


def eigvalsh(A, UPLO="L"):
    return _C.linalg_eigvalsh(A, _uplo(UPLO))


def eig(A):
    """Complex eigenvalues and unit-norm eigenvectors (columns) of real or complex square A (LAPACK geev, as torch's CPU)."""
    return eig_ret(*_C.linalg_eig(A))


def eigvals(A):
    return _C.linalg_eigvals(A)


def svd(A, full_matrices=True):
    """A = U diag(S) Vh with S descending."""
    return svd_ret(*_C.linalg_svd(A, bool(full_matrices)))


def svdvals(A):
    return _C.linalg_svdvals(A)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    return _C.linalg_solve_triangular(A, B, bool(upper), bool(left), bool(unitriangular))


_LSTSQ_DRIVERS = {None: 0, "gelsy": 0, "gels": 1, "gelsd": 2, "gelss": 3}  # the C ABI's CT_LSTSQ_*


def lstsq(A, B, rcond=None, *, driver=None):
    """torch.linalg.lstsq through LAPACK: driver 'gelsy' (the CPU's default; any rank), 'gels' (full rank; the only
    driver, and the default, on CUDA),
    'gelsd' or 'gelss' (any rank, with singular values). Returns (solution, residuals, rank, singular_values) as
    torch: residuals only when m > n, the driver is not gelsy and A has full rank; rank empty for gels; singular
    values only for gelsd/gelss. The solution's gradient is that of pinv(A) @ B."""
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if driver is None and A.is_cuda:  # torch's CUDA default: gels, the only driver on CUDA
        driver = "gels"
    return lstsq_ret(*_C.linalg_lstsq_ex(A, B, -1.0 if rcond is None else float(rcond), _LSTSQ_DRIVERS[driver]))


def _tol(v):
    return -1.0 if v is None else float(v)


def pinv(A, *, atol=None, rtol=None, hermitian=False):
    """The pseudo-inverse through the SVD; singular values <= max(atol, rtol * largest) are dropped."""
    return _C.linalg_pinv(A, _tol(atol), _tol(rtol))


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):
    return _C.linalg_matrix_rank(A, _tol(atol), _tol(rtol))


def _ord_text(ord):
    if isinstance(ord, str):
        return ord
    if ord in (float("inf"), float("-inf")):
        return "inf" if ord > 0 else "-inf"
    if ord in (1, -1, 2, -2):
        return str(int(ord))
    raise ValueError("linalg.matrix_norm: Order %r not supported." % (ord,))


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    x = A if dtype is None else A.to(dtype)
    return _C.linalg_matrix_norm(x, _ord_text(ord), dim[0], dim[1], bool(keepdim))


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    x = x if dtype is None else x.to(dtype)
    if isinstance(dim, int):
        dim = (dim,)
    return _C.linalg_vector_norm(x, float(ord), None if dim is None else tuple(dim), bool(keepdim))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.norm: a matrix norm when ord is a string or dim has two entries (or A is 2-D with ord given and
    dim None), else a vector norm (2-norm of the flattened A for ord and dim None)."""
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None and len(dim) == 2 or (dim is None and ord is not None and A.dim() == 2):
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    if isinstance(ord, str):
        raise ValueError("linalg.norm: ord %r needs a matrix (2 dims)" % (ord,))
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def matrix_power(A, n):
    return _C.linalg_matrix_power(A, int(n))


def cross(input, other, *, dim=-1):
    return _C.linalg_cross(input, other, dim)


def logdet(A):
    """torch.logdet: log det(A); NaN where det(A) < 0, -inf where it is 0."""
    sign, logabsdet = slogdet(A)
    return logabsdet.masked_fill(sign < 0, float("nan"))


# torch's aliases outside torch.linalg, also as Tensor methods
inverse = inv
pinverse = pinv
for _name, _fn in dict(det=det, inverse=inv, slogdet=slogdet, logdet=logdet, pinverse=pinv,
                       matrix_power=matrix_power).items():
    setattr(Tensor, _name, _fn)

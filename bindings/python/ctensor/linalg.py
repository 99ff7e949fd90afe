"""ctensor.linalg: torch.linalg's names over the C ABI's ct_linalg_* (LAPACK on the CPU; CUDA tensors raise
NotImplementedError). Matrices are the last two dims, batched over the leading ones; float32/float64 only.
Decompositions return named tuples with torch's field names. ctensor.det/inverse/logdet/slogdet and the Tensor
methods of those names are torch's aliases."""
import collections

from . import _C
from ._tensor import Tensor

__all__ = ["inv", "det", "slogdet", "solve", "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals",
           "solve_triangular"]

slogdet_ret = collections.namedtuple("slogdet", ["sign", "logabsdet"])
qr_ret = collections.namedtuple("qr", ["Q", "R"])
eigh_ret = collections.namedtuple("eigh", ["eigenvalues", "eigenvectors"])
svd_ret = collections.namedtuple("svd", ["U", "S", "Vh"])

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


def svd(A, full_matrices=True):
    """A = U diag(S) Vh with S descending."""
    return svd_ret(*_C.linalg_svd(A, bool(full_matrices)))


def svdvals(A):
    return _C.linalg_svdvals(A)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    return _C.linalg_solve_triangular(A, B, bool(upper), bool(left), bool(unitriangular))


def logdet(A):
    """torch.logdet: log det(A); NaN where det(A) < 0, -inf where it is 0."""
    sign, logabsdet = slogdet(A)
    return logabsdet.masked_fill(sign < 0, float("nan"))


# torch's aliases outside torch.linalg, also as Tensor methods
inverse = inv
for _name, _fn in dict(det=det, inverse=inv, slogdet=slogdet, logdet=logdet).items():
    setattr(Tensor, _name, _fn)

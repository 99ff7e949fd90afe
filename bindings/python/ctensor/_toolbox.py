"""The everyday tensor toolbox (issue 14) with torch's names and signatures: the in-place scatters,
index_add / index_copy / index_put and their in-place forms, searchsorted / bucketize, bincount, histc,
cummax / cummin, nan_to_num, diff, take_along_dim (functions and Tensor methods) and finfo / iinfo (read from the
core's ct_finfo / ct_iinfo). The work is the C ABI's (ct_index_add, ...); this file only adapts arguments."""
import collections
from . import _C
from ._creation import full, tensor
from ._tensor import Tensor
from ._types import get_default_dtype

_TB = _C.TensorBase


def _source(input, index, src, value):
    """src as a tensor: value (or a number passed as src) fills index's shape in input's dtype (torch's
    scatter_(dim, index, value))."""
    src = value if src is None else src
    if isinstance(src, _TB):
        return src
    return full(tuple(index.shape), src, dtype=input.dtype, device=input.device)


def _values(input, values):
    if isinstance(values, _TB):
        return values
    return tensor(values, dtype=input.dtype, device=input.device)


def _indices(indices):
    if isinstance(indices, _TB):
        return [indices]
    out = []
    for t in indices:
        if not isinstance(t, _TB):
            t = tensor(t)
        out.append(t)
    return out


def _scatter_(self, dim, index, src=None, value=None, reduce=None):
    if reduce is not None:
        raise NotImplementedError("scatter_: the reduce argument is not supported; use scatter_add_")
    _C.scatter_(self, dim, index, _source(self, index, src, value))
    return self


def _scatter_add_(self, dim, index, src):
    _C.scatter_add_(self, dim, index, src)
    return self


def index_add(input, dim, index, source, *, alpha=1):
    return _C.index_add(input, dim, index, source, float(alpha))


def _index_add_(self, dim, index, source, *, alpha=1):
    _C.index_add_(self, dim, index, source, float(alpha))
    return self


def index_copy(input, dim, index, source):
    return _C.index_copy(input, dim, index, source)


def _index_copy_(self, dim, index, source):
    _C.index_copy_(self, dim, index, source)
    return self


def index_put(input, indices, values, accumulate=False):
    return _C.index_put(input, _indices(indices), _values(input, values), bool(accumulate))


def _index_put_(self, indices, values, accumulate=False):
    _C.index_put_(self, _indices(indices), _values(self, values), bool(accumulate))
    return self


cummax_ret = collections.namedtuple("cummax", ["values", "indices"])
cummin_ret = collections.namedtuple("cummin", ["values", "indices"])


def _as_tensor_like(v, like):
    """v as a tensor on like's device: a Python number becomes a 0-d int64/float64 tensor (exact; compared in the
    promoted type)."""
    return v if isinstance(v, _TB) else tensor(v, dtype="float64" if isinstance(v, float) else None, device=like.device)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError("searchsorted: side must be 'left' or 'right', got %r" % (side,))
        if right and side == "left":
            raise ValueError("searchsorted: side='left' and right=True contradict each other")
        right = side == "right"
    return _C.searchsorted(sorted_sequence, _as_tensor_like(input, sorted_sequence), bool(right), bool(out_int32),
                           sorter)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    return _C.searchsorted(boundaries, _as_tensor_like(input, boundaries), bool(right), bool(out_int32), None)


def bincount(input, weights=None, minlength=0):
    return _C.bincount(input, weights, int(minlength))


def histc(input, bins=100, min=0, max=0):
    return _C.histc(input, int(bins), float(min), float(max))


def cummax(input, dim):
    return cummax_ret(*_C.cummax(input, dim))


def cummin(input, dim):
    return cummin_ret(*_C.cummin(input, dim))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return _C.nan_to_num(input, nan, posinf, neginf)


def _nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    _C.copy_(self, _C.nan_to_num(self, nan, posinf, neginf))
    return self


def diff(input, n=1, dim=-1, prepend=None, append=None):
    return _C.diff(input, int(n), int(dim), prepend, append)


def take_along_dim(input, indices, dim=None):
    return _C.take_along_dim(input, indices, dim)


class finfo:
    """torch.finfo: the limits of a floating dtype (bits, eps, max, min, tiny = smallest_normal, resolution)."""

    def __init__(self, type=None):
        self.dtype = get_default_dtype() if type is None else type
        code = self.dtype.code
        self.bits = int(_C.finfo(code, _C.CT_FINFO_BITS))
        self.eps = _C.finfo(code, _C.CT_FINFO_EPS)
        self.max = _C.finfo(code, _C.CT_FINFO_MAX)
        self.min = _C.finfo(code, _C.CT_FINFO_MIN)
        self.tiny = self.smallest_normal = _C.finfo(code, _C.CT_FINFO_TINY)
        self.resolution = _C.finfo(code, _C.CT_FINFO_RESOLUTION)

    def __repr__(self):
        return "finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, tiny=%g, dtype=%s)" % (
            self.resolution, self.min, self.max, self.eps, self.smallest_normal, self.tiny, self.dtype.name)


class iinfo:
    """torch.iinfo: the limits of an integer dtype (bits, min, max)."""

    def __init__(self, type):
        self.dtype = type
        self.bits = _C.iinfo(type.code, _C.CT_IINFO_BITS)
        self.min = _C.iinfo(type.code, _C.CT_IINFO_MIN)
        self.max = _C.iinfo(type.code, _C.CT_IINFO_MAX)

    def __repr__(self):
        return "iinfo(min=%d, max=%d, dtype=%s)" % (self.min, self.max, self.dtype.name)


for _name, _fn in dict(scatter_=_scatter_, scatter_add_=_scatter_add_, index_add=index_add, index_add_=_index_add_,
                       index_copy=index_copy, index_copy_=_index_copy_, index_put=index_put,
                       index_put_=_index_put_, bincount=bincount, histc=histc, cummax=cummax,
                       cummin=cummin, nan_to_num=nan_to_num, nan_to_num_=_nan_to_num_, diff=diff,
                       take_along_dim=take_along_dim).items():
    setattr(Tensor, _name, _fn)

__all__ = ["index_add", "index_copy", "index_put", "searchsorted", "bucketize", "bincount", "histc", "cummax",
           "cummin", "nan_to_num", "diff", "take_along_dim", "finfo", "iinfo"]

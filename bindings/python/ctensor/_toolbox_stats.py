"""The rest of the tensor toolbox (issue 14) with torch 1.13's names and signatures: repeat_interleave, meshgrid,
median / nanmedian, quantile / nanquantile, cdist (functions and Tensor methods), and scatter / scatter_ with
reduce="add". The work is the C ABI's (ct_repeat_interleave, ...); this file only adapts arguments."""
import collections
from . import _C
from ._creation import full
from ._tensor import Tensor

_TB = _C.TensorBase

# CT_QUANTILE_* (fixed ABI values)
_INTERPOLATION = {"linear": 0, "lower": 1, "higher": 2, "midpoint": 3, "nearest": 4}
# torch.cdist's compute_mode names -> ct_cdist's codes
_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}

median_ret = collections.namedtuple("median", ["values", "indices"])
nanmedian_ret = collections.namedtuple("nanmedian", ["values", "indices"])


def _opt_int(v, what):
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("%s must be an int or None, got %s" % (what, type(v).__name__))
    return v


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(repeats): each index i repeated repeats[i] times
        if not isinstance(input, _TB):
            raise TypeError("repeat_interleave: repeats must be a Tensor when it is the only argument")
        from ._creation import arange
        return repeat_interleave(arange(input.numel(), device=input.device), input, 0, output_size=output_size)
    if isinstance(repeats, _TB):
        return _C.repeat_interleave(input, repeats, 0, _opt_int(dim, "dim"), _opt_int(output_size, "output_size"))
    if isinstance(repeats, bool) or not isinstance(repeats, int):
        raise TypeError("repeat_interleave: repeats must be an int or a Tensor, got %s" % type(repeats).__name__)
    return _C.repeat_interleave(input, None, repeats, _opt_int(dim, "dim"), _opt_int(output_size, "output_size"))


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise ValueError("meshgrid: indexing must be 'ij' or 'xy', got %r" % (indexing,))
    return _C.meshgrid(list(tensors), indexing == "xy")


def _median(nan, input, dim, keepdim):
    if dim is None:
        if keepdim:
            raise TypeError("median: keepdim needs a dim")
        return _C.median(input, nan)
    ret = nanmedian_ret if nan else median_ret
    return ret(*_C.median_dim(input, int(dim), bool(keepdim), nan))


def median(input, dim=None, keepdim=False):
    return _median(False, input, dim, keepdim)


def nanmedian(input, dim=None, keepdim=False):
    return _median(True, input, dim, keepdim)


def _quantile(nan, input, q, dim, keepdim, interpolation):
    if interpolation not in _INTERPOLATION:
        raise ValueError("%s: interpolation must be one of %s, got %r"
                         % ("nanquantile" if nan else "quantile", ", ".join(_INTERPOLATION), interpolation))
    if isinstance(q, _TB):
        return _C.quantile(input, q, 0.0, _opt_int(dim, "dim"), bool(keepdim), _INTERPOLATION[interpolation], nan)
    return _C.quantile(input, None, float(q), _opt_int(dim, "dim"), bool(keepdim), _INTERPOLATION[interpolation], nan)


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(False, input, q, dim, keepdim, interpolation)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(True, input, q, dim, keepdim, interpolation)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    if compute_mode not in _CDIST_MODES:
        raise ValueError("cdist: %r is not a valid value for compute_mode" % (compute_mode,))
    return _C.cdist(x1, x2, float(p), _CDIST_MODES[compute_mode])


def _scatter_source(input, index, src, value):
    src = value if src is None else src
    if isinstance(src, _TB):
        return src
    return full(tuple(index.shape), src, dtype=input.dtype, device=input.device)


_SCATTER_REDUCE = {"sum": 0, "prod": 1, "mean": 2, "amax": 3, "amin": 4}  # the C ABI's CT_SCATTER_*
_SCATTER_MODES = {"add": "sum", "multiply": "prod"}  # scatter(..., reduce=) names


def _reduce_code(reduce, op):
    if reduce not in _SCATTER_REDUCE:
        raise RuntimeError("%s(): reduce argument must be either sum, prod, mean, amax or amin, got %s" % (op, reduce))
    return _SCATTER_REDUCE[reduce]


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """torch.scatter_reduce: src's values combined into a copy of input at index along dim by reduce ('sum',
    'prod', 'mean', 'amax', 'amin'), with input's own values when include_self; differentiable as torch."""
    return _C.scatter_reduce(input, dim, index, src, _reduce_code(reduce, "scatter_reduce"), bool(include_self))


def _scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    _C.scatter_reduce_(self, dim, index, src, _reduce_code(reduce, "scatter_reduce_"), bool(include_self))
    return self


def _scatter_mode(reduce):
    if reduce is not None and reduce not in _SCATTER_MODES:
        raise RuntimeError("reduce argument must be either add or multiply, got %s" % (reduce,))
    return None if reduce is None else _SCATTER_REDUCE[_SCATTER_MODES[reduce]]


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    mode = _scatter_mode(reduce)
    src = _scatter_source(input, index, src, value)
    return _C.scatter(input, dim, index, src) if mode is None else _C.scatter_reduce(input, dim, index, src, mode, True)


def _scatter_(self, dim, index, src=None, value=None, *, reduce=None):
    mode = _scatter_mode(reduce)
    src = _scatter_source(self, index, src, value)
    if mode is None:
        _C.scatter_(self, dim, index, src)
    else:
        _C.scatter_reduce_(self, dim, index, src, mode, True)
    return self


for _name, _fn in dict(repeat_interleave=repeat_interleave, median=median, nanmedian=nanmedian, quantile=quantile,
                       nanquantile=nanquantile, scatter=scatter, scatter_=_scatter_,
                       scatter_reduce=scatter_reduce, scatter_reduce_=_scatter_reduce_).items():
    setattr(Tensor, _name, _fn)

__all__ = ["repeat_interleave", "meshgrid", "median", "nanmedian", "quantile", "nanquantile", "cdist", "scatter", "scatter_reduce"]

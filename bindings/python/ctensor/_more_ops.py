"""The last reduction / product ops of issue 14 with torch 1.13's names and signatures: logcumsumexp, aminmax,
var_mean, std_mean, kron, tensordot, inner (functions, and Tensor methods where torch has them). The work is the
C ABI's (ct_logcumsumexp, ...); this file only adapts arguments."""
import builtins
import collections
import numbers
from . import _C
from ._tensor import Tensor

aminmax_ret = collections.namedtuple("aminmax", ["min", "max"])


def _dim_list(dim):
    if dim is None or isinstance(dim, numbers.Integral):
        return dim
    return tuple(dim)


def _correction(unbiased, correction, op):
    if unbiased is not None and correction is not None:
        raise RuntimeError("%s: cannot specify both unbiased and correction" % op)
    if correction is not None:
        return float(correction)
    return 1.0 if unbiased is None or unbiased else 0.0


def logcumsumexp(input, dim):
    return _C.logcumsumexp(input, dim)


def aminmax(input, *, dim=None, keepdim=False):
    if dim is not None and (isinstance(dim, builtins.bool) or not isinstance(dim, numbers.Integral)):
        raise TypeError("aminmax: dim must be an int or None, got %s" % type(dim).__name__)
    return aminmax_ret(*_C.aminmax(input, dim, bool(keepdim)))


def _stat_mean(is_std, op, input, dim, unbiased, keepdim, correction):
    if isinstance(dim, builtins.bool):  # var_mean(x, False): the old `unbiased` positional form
        dim, unbiased = None, dim
    return _C.var_mean(input, _dim_list(dim), _correction(unbiased, correction, op), bool(keepdim), is_std)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _stat_mean(False, "var_mean", input, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _stat_mean(True, "std_mean", input, dim, unbiased, keepdim, correction)


def kron(input, other):
    return _C.kron(input, other)


def tensordot(a, b, dims=2):
    """torch.tensordot: dims an int n (a's last n dims with b's first n) or a pair of dim lists."""
    if isinstance(dims, numbers.Integral) and not isinstance(dims, builtins.bool):
        if dims < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims=%d" % dims)
        return _C.tensordot(a, b, [i - dims for i in range(dims)], list(range(dims)))
    if isinstance(dims, _C.TensorBase):
        dims = dims.tolist()
        if isinstance(dims, int):
            return tensordot(a, b, dims)
    if not isinstance(dims, (list, tuple)) or len(dims) != 2:
        raise RuntimeError("tensordot expects dims to be an int or a pair of dim lists, got %r" % (dims,))
    da, db = ([d] if isinstance(d, numbers.Integral) else list(d) for d in dims)
    return _C.tensordot(a, b, da, db)


def inner(input, other):
    return _C.inner(input, other)


for _name, _fn in dict(logcumsumexp=logcumsumexp, aminmax=aminmax, kron=kron, inner=inner).items():
    setattr(Tensor, _name, _fn)

__all__ = ["logcumsumexp", "aminmax", "var_mean", "std_mean", "kron", "tensordot", "inner"]

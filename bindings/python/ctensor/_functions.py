"""Op functions with PyTorch signatures (ctensor.sum, ctensor.add, ...) and the Tensor-method bindings of
these and of _shape_ops.py.
Ops whose signature already matches call the C functions directly (bound with _C.instancemethod, so
`x.exp()` has no Python frame); the others adapt arguments here."""
import builtins
import collections
import math
import numbers

import numpy as np

from . import _C
from ._creation import full, tensor, zeros
from ._shape_ops import (broadcast_to, chunk, expand, expand_as, flatten, flip, gather, index_select,  # noqa: F401
                         masked_fill, masked_select, movedim, narrow, nonzero, argwhere, permute, repeat, reshape,
                         diag, diag_embed, diagonal, trace,
                         reshape_as, scatter, scatter_add, select, split, squeeze, tile, transpose, unbind, unflatten,
                         unsqueeze, view, view_as)
from ._tensor import Tensor
from ._types import BY_CODE

_TB = _C.TensorBase
M = _C.instancemethod

UNARY = ("neg abs sign exp log log1p expm1 sqrt rsqrt sin cos tan tanh sigmoid relu silu floor ceil "
         "reciprocal logical_not contiguous clone detach t").split()
BINARY = "mul div maximum minimum atan2 remainder eq ne lt le gt ge logical_and logical_or logical_xor dot outer".split()

for _name in UNARY + BINARY:
    globals()[_name] = getattr(_C, _name)
    setattr(Tensor, _name, M(getattr(_C, _name)))

negative, absolute, multiply, true_divide, arctan2 = _C.neg, _C.abs, _C.mul, _C.div, _C.atan2
greater, greater_equal, less, less_equal, not_equal = _C.gt, _C.ge, _C.lt, _C.le, _C.ne
ger = _C.outer

max_ret = collections.namedtuple("max", ["values", "indices"])
min_ret = collections.namedtuple("min", ["values", "indices"])


def _dims(dim):
    if dim is None or isinstance(dim, numbers.Integral):
        return dim
    return tuple(dim)


# ---- arithmetic -----------------------------------------------------------------------------------------

def add(input, other, *, alpha=1):
    return _C.add(input, other, alpha)


def sub(input, other, *, alpha=1):
    return _C.sub(input, other, alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    return _C.sub(other, input, alpha)


def pow(input, exponent):
    if isinstance(input, _TB) and isinstance(exponent, (builtins.int, builtins.float)) and input.is_floating_point():
        return _C.pow_scalar(input, exponent)
    return _C.pow(input, exponent)


def float_power(input, exponent):
    return pow(input.double() if isinstance(input, _TB) else tensor(input, dtype="float64"), exponent)


def square(input):
    return _C.mul(input, input)


def floor_divide(input, other):
    return input // other if isinstance(input, _TB) else tensor(input) // other


def _trunc(q):
    return _C.where(_C.lt(q, 0), _C.ceil(q), _C.floor(q))


def div_with_mode(input, other, rounding_mode=None):
    if rounding_mode is None:
        return _C.div(input, other)
    if rounding_mode == "floor":
        return floor_divide(input, other)
    if rounding_mode == "trunc":
        q = _trunc(_C.div(input, other))
        dt = _C.add(input, other, 1)._dtype_code
        return q if BY_CODE[dt].is_floating_point else _C.to_dtype(q, dt)
    raise ValueError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'"
                     % rounding_mode)


def trunc(input):
    return _trunc(input) if input.is_floating_point() else _C.clone(input)


fix = trunc


def round(input, *, decimals=0):
    if decimals == 0:
        return _C.round(input)
    scale = 10.0 ** decimals
    return _C.div(_C.round(_C.mul(input, scale)), scale)


def fmod(input, other):
    """C fmod: the remainder of truncated division, with the sign of input (remainder() follows the divisor)."""
    magnitude = _C.abs(other) if isinstance(other, _TB) else builtins.abs(other)
    return _C.mul(_C.sign(input), _C.remainder(_C.abs(input), magnitude))


def lerp(input, end, weight):
    """input + weight * (end - input); weight a number or a tensor (broadcast)."""
    return _C.add(input, _C.mul(_C.sub(end, input, 1), weight), 1)


def frac(input):
    return _C.sub(input, trunc(input), 1)


def log2(input):
    return _C.div(_C.log(input), math.log(2.0))


def log10(input):
    return _C.div(_C.log(input), math.log(10.0))


def exp2(input):
    return _C.pow(2.0, input)


def gelu(input, approximate="none"):
    if approximate == "none":
        return _C.gelu(input)
    if approximate != "tanh":
        raise ValueError("approximate argument must be either none or tanh.")
    inner = _C.mul(_C.add(input, _C.mul(_C.pow_scalar(input, 3.0), 0.044715), 1), math.sqrt(2.0 / math.pi))
    return _C.mul(_C.mul(input, 0.5), _C.add(_C.tanh(inner), 1.0, 1))


def softplus(input, beta=1.0, threshold=20.0):
    if beta == 1.0:
        return _C.softplus(input)
    return _C.div(_C.softplus(_C.mul(input, beta)), beta)


def clamp(input, min=None, max=None):
    if isinstance(min, _TB) or isinstance(max, _TB):
        out = input
        if min is not None:
            out = _C.maximum(out, min)
        if max is not None:
            out = _C.minimum(out, max)
        return out
    if min is None and max is None:
        raise ValueError("clamp: at least one of 'min' or 'max' must not be None")
    return _C.clamp(input, min, max)


clip = clamp


def isnan(input):
    return _C.ne(input, input)


def isinf(input):
    return _C.eq(_C.abs(input), math.inf) if input.is_floating_point() else zeros(input.shape, dtype="bool")


def isfinite(input):
    return _C.logical_not(_C.logical_or(isnan(input), isinf(input)))


def where(condition, input=None, other=None):
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return _C.where(condition, input, other)


# ---- reductions -----------------------------------------------------------------------------------------

def sum(input, dim=None, keepdim=False, *, dtype=None):
    return _C.sum(input if dtype is None else input.to(dtype), _dims(dim), keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    return _C.mean(input if dtype is None else input.to(dtype), _dims(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    return _C.prod(input if dtype is None else input.to(dtype), _dims(dim), keepdim)


def _correction(unbiased, correction):
    if correction is not None:
        return builtins.float(correction)
    return 1.0 if unbiased is None or unbiased else 0.0


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, builtins.bool):  # var(x, False): the old `unbiased` positional form
        dim, unbiased = None, dim
    return _C.var(input, _dims(dim), _correction(unbiased, correction), keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, builtins.bool):
        dim, unbiased = None, dim
    return _C.std(input, _dims(dim), _correction(unbiased, correction), keepdim)


def logsumexp(input, dim, keepdim=False):
    return _C.logsumexp(input, _dims(dim), keepdim)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    if p == "fro":
        p = 2.0
    elif p == "nuc":
        raise NotImplementedError("norm: the nuclear norm is not supported")
    x = input if dtype is None else input.to(dtype)
    return _C.norm(x, builtins.float(p), _dims(dim), keepdim)


def all(input, dim=None, keepdim=False):
    return _C.all(input, _dims(dim), keepdim)


def any(input, dim=None, keepdim=False):
    return _C.any(input, _dims(dim), keepdim)


def max(input, dim=None, keepdim=False):
    if isinstance(dim, _TB):
        return _C.maximum(input, dim)
    if dim is None:
        return _C.max(input)
    return max_ret(*_C.max_dim(input, dim, keepdim))


def min(input, dim=None, keepdim=False):
    if isinstance(dim, _TB):
        return _C.minimum(input, dim)
    if dim is None:
        return _C.min(input)
    return min_ret(*_C.min_dim(input, dim, keepdim))


def amax(input, dim=(), keepdim=False):
    if dim in ((), None):
        return _C.max(input)
    out = input
    for d in sorted((d % input.ndim for d in (dim if isinstance(dim, (tuple, list)) else (dim,))), reverse=True):
        out = _C.max_dim(out, d, keepdim)[0]
    return out


def amin(input, dim=(), keepdim=False):
    return _C.neg(amax(_C.neg(input), dim, keepdim))


def argmax(input, dim=None, keepdim=False):
    return _C.argmax_all(input) if dim is None else _C.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _C.argmin_all(input) if dim is None else _C.argmin(input, dim, keepdim)


def cumsum(input, dim, *, dtype=None):
    return _C.cumsum(input if dtype is None else input.to(dtype), dim)


def softmax(input, dim, dtype=None):
    return _C.softmax(input if dtype is None else input.to(dtype), dim)


def log_softmax(input, dim, dtype=None):
    return _C.log_softmax(input if dtype is None else input.to(dtype), dim)


def count_nonzero(input, dim=None):
    return sum(_C.ne(input, 0), dim)


# ---- linear algebra -------------------------------------------------------------------------------------

def matmul(input, other):
    return _C.matmul(input, other)


def mm(input, mat2):
    if input.ndim != 2 or mat2.ndim != 2:
        raise ValueError("mm: expected 2-D tensors, got %d-D and %d-D" % (input.ndim, mat2.ndim))
    return _C.matmul(input, mat2)


def bmm(input, mat2):
    if input.ndim != 3 or mat2.ndim != 3:
        raise ValueError("bmm: expected 3-D tensors, got %d-D and %d-D" % (input.ndim, mat2.ndim))
    return _C.matmul(input, mat2)


def mv(input, vec):
    return _C.matmul(input, vec)


# ---- comparisons of whole tensors ----------------------------------------------------------------------

def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = np.asarray(input.detach().cpu()), np.asarray(other.detach().cpu() if isinstance(other, _TB) else other)
    return tensor(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True if |input - other| <= atol + rtol * |other| everywhere (broadcasting)."""
    a, b = np.asarray(input.detach().cpu()), np.asarray(other.detach().cpu() if isinstance(other, _TB) else other)
    return builtins.bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def equal(input, other):
    """True if both have the same shape and elements."""
    return tuple(input.shape) == tuple(other.shape) and builtins.bool(_C.all(_C.eq(input, other), None, False))


def numel(input):
    return input.numel()


def is_tensor(obj):
    return isinstance(obj, _TB)


def is_floating_point(input):
    return input.is_floating_point()


# ---- in-place methods (return self) --------------------------------------------------------------------

def _returning_self(fn):
    def method(self, *args, **kwargs):
        fn(self, *args, **kwargs)
        return self

    method.__name__ = fn.__name__
    return method


def _via_copy(fn):
    """In-place version of an out-of-place op: computes, then copies into self (self keeps its dtype). As in torch,
    a result of a higher category than self's dtype (a float result for an integer self) is a TypeError, not a
    silent cast (ct_can_cast)."""

    def method(self, *args, **kwargs):
        result = fn(self, *args, **kwargs)
        if not _C.can_cast(result.dtype.code, self.dtype.code):
            raise TypeError("%s_: result type %s can't be cast to the desired output type %s"
                            % (getattr(fn, "__name__", "op"), result.dtype.name, self.dtype.name))
        _C.copy_(self, result)
        return self

    method.__name__ = getattr(fn, "__name__", "op") + "_"
    return method


def _add_(self, other, *, alpha=1):
    _C.add_(self, other, alpha)
    return self


def _sub_(self, other, *, alpha=1):
    _C.sub_(self, other, alpha)
    return self


def _clamp_(self, min=None, max=None):
    if isinstance(min, _TB) or isinstance(max, _TB):
        _C.copy_(self, clamp(self, min, max))
    else:
        _C.clamp_(self, min, max)
    return self


def _masked_fill_(self, mask, value):
    _C.copy_(self, masked_fill(self, mask, value))
    return self


def _uniform_(self, a=0.0, b=1.0, generator=None):
    r = _C.rand(tuple(self.shape), self._dtype_code, self._device_tuple, generator)
    _C.copy_(self, _C.add(_C.mul(r, b - a), a, 1))
    return self


def _normal_(self, mean=0.0, std=1.0, generator=None):
    r = _C.randn(tuple(self.shape), self._dtype_code, self._device_tuple, generator)
    _C.copy_(self, _C.add(_C.mul(r, std), mean, 1))
    return self


def _bernoulli_(self, p=0.5, generator=None):
    probs = full(tuple(self.shape), p, dtype="float32", device=self.device) if not isinstance(p, _TB) else p
    _C.copy_(self, _C.bernoulli(probs, generator))
    return self


_METHODS = dict(
    add=add, sub=sub, subtract=sub, pow=pow, square=square, floor_divide=floor_divide, div=div_with_mode,
    divide=div_with_mode, true_divide=_C.div, multiply=_C.mul, negative=_C.neg, absolute=_C.abs, trunc=trunc,
    fix=trunc, fmod=fmod, lerp=lerp, round=round, frac=frac, log2=log2, log10=log10, gelu=gelu, softplus=softplus,
    clamp=clamp, clip=clamp, isnan=isnan, isinf=isinf, isfinite=isfinite, sum=sum, mean=mean, prod=prod, var=var, std=std,
    logsumexp=logsumexp, norm=norm, all=all, any=any, max=max, min=min, amax=amax, amin=amin, argmax=argmax,
    argmin=argmin, cumsum=cumsum, softmax=softmax, log_softmax=log_softmax, count_nonzero=count_nonzero,
    matmul=matmul, mm=mm, bmm=bmm, mv=mv, reshape=reshape, view=view, permute=permute, expand=expand,
    expand_as=expand_as, view_as=view_as, reshape_as=reshape_as, broadcast_to=broadcast_to, flatten=flatten,
    unflatten=unflatten, squeeze=squeeze, unsqueeze=unsqueeze, transpose=transpose, swapaxes=transpose,
    swapdims=transpose, movedim=movedim, narrow=narrow, select=select, diagonal=diagonal, diag=diag,
    diag_embed=diag_embed, trace=trace, split=split, chunk=chunk, unbind=unbind,
    flip=flip, repeat=repeat, tile=tile, index_select=index_select, gather=gather, scatter=scatter,
    scatter_add=scatter_add, masked_fill=masked_fill, masked_select=masked_select, nonzero=nonzero,
    argwhere=argwhere, allclose=allclose, isclose=isclose, equal=equal, greater=_C.gt, greater_equal=_C.ge,
    less=_C.lt, less_equal=_C.le, not_equal=_C.ne, arctan2=_C.atan2, ger=_C.outer,
    add_=_add_, sub_=_sub_, clamp_=_clamp_, clip_=_clamp_, masked_fill_=_masked_fill_, uniform_=_uniform_,
    normal_=_normal_, bernoulli_=_bernoulli_,
    mul_=_returning_self(_C.mul_), div_=_returning_self(_C.div_), copy_=_returning_self(_C.copy_),
    zero_=_returning_self(_C.zero_), fill_=_returning_self(_C.fill_),
    pow_=_via_copy(pow), relu_=_via_copy(_C.relu), sigmoid_=_via_copy(_C.sigmoid), tanh_=_via_copy(_C.tanh),
    exp_=_via_copy(_C.exp), log_=_via_copy(_C.log), sqrt_=_via_copy(_C.sqrt), abs_=_via_copy(_C.abs),
    neg_=_via_copy(_C.neg), floor_=_via_copy(_C.floor), ceil_=_via_copy(_C.ceil), round_=_via_copy(_C.round),
    remainder_=_via_copy(_C.remainder), fmod_=_via_copy(fmod), lerp_=_via_copy(lerp), maximum_=_via_copy(_C.maximum),
    minimum_=_via_copy(_C.minimum),
)


def where_method(self, condition, other):
    return _C.where(condition, self, other)


_METHODS["where"] = where_method

for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, M(_fn) if isinstance(_fn, type(_C.add)) else _fn)

def _new_factory(kind):
    from . import _creation

    make = getattr(_creation, kind)

    def method(self, *size, dtype=None, device=None, requires_grad=False):
        return make(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    method.__name__ = "new_" + kind
    return method


Tensor.new_zeros = _new_factory("zeros")
Tensor.new_ones = _new_factory("ones")
Tensor.new_empty = _new_factory("empty")


def _new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


Tensor.new_full = _new_full
Tensor.new_tensor = _new_tensor
div = divide = div_with_mode

_PRIVATE = {"Tensor", "M", "full", "tensor", "zeros", "BY_CODE", "where_method", "div_with_mode"}
__all__ = sorted(n for n, v in globals().items()
                 if not n.startswith("_") and callable(v) and not isinstance(v, type) and n not in _PRIVATE)

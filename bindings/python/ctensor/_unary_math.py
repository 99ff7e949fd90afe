"""Unary math ops of issue 14 with torch 1.13's names: asin .. atanh (and the arc* aliases), erf, erfc, erfinv,
lgamma, digamma, logit, sinc, sgn, deg2rad, rad2deg, signbit, isposinf, isneginf, positive, i0 - as functions,
Tensor methods and in-place methods (computed, then copied into self, as the other in-place unary methods).
The work is the C ABI's; this file only adapts arguments."""
from . import _C
from ._tensor import Tensor

_M = _C.instancemethod
_PLAIN = ("asin acos atan sinh cosh asinh acosh atanh erf erfc erfinv lgamma digamma sinc sgn deg2rad rad2deg "
          "signbit isposinf isneginf i0").split()
_ALIASES = dict(arcsin="asin", arccos="acos", arctan="atan", arcsinh="asinh", arccosh="acosh", arctanh="atanh")
# torch has an in-place method for every op here but the bool-valued ones and positive
_INPLACE = [n for n in _PLAIN if n not in ("signbit", "isposinf", "isneginf")] + list(_ALIASES)


def logit(input, eps=None):
    """log(p / (1 - p)) of input clamped to [eps, 1 - eps] (no clamp when eps is None)."""
    return _C.logit(input, -1.0 if eps is None else float(eps))


def positive(input):
    """input itself (torch returns self); a bool tensor is an error."""
    _C.positive(input)  # the dtype check; the handle it returns is the same tensor
    return input


def _inplace(fn):
    def method(self, *args, **kwargs):
        _C.copy_(self, fn(self, *args, **kwargs))
        return self

    return method


for _name in _PLAIN:
    globals()[_name] = getattr(_C, _name)
    setattr(Tensor, _name, _M(getattr(_C, _name)))
for _alias, _name in _ALIASES.items():
    globals()[_alias] = getattr(_C, _name)
    setattr(Tensor, _alias, _M(getattr(_C, _name)))
Tensor.logit = logit
Tensor.positive = positive
for _name in _INPLACE:
    _fn = getattr(_C, _ALIASES.get(_name, _name))
    _m = _inplace(_fn)
    _m.__name__ = _name + "_"
    setattr(Tensor, _name + "_", _m)
Tensor.logit_ = _inplace(logit)

__all__ = _PLAIN + list(_ALIASES) + ["logit", "positive"]

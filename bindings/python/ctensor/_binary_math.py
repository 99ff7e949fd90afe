"""Binary math and integer ops (issue 14) with torch 1.13's names: logaddexp, logaddexp2, hypot, xlogy, copysign,
fmax, fmin, heaviside, nextafter, bitwise_and/or/xor/not, bitwise_left_shift/right_shift, gcd, lcm as functions and
Tensor methods, plus the in-place forms torch has (hypot_, bitwise_and_, ...), and addcmul / addcdiv. The operators & | ^ ~ << >> are in
src/number.c. The C functions do the work (bound in src/ops.c); a Python number on either side is a wrapped scalar."""
from . import _C
from ._functions import _via_copy
from ._tensor import Tensor

_INTEGER = "bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_left_shift bitwise_right_shift gcd lcm".split()
_NAMES = "logaddexp logaddexp2 hypot xlogy copysign fmax fmin heaviside nextafter".split() + _INTEGER
_INPLACE = "hypot xlogy copysign heaviside nextafter".split() + _INTEGER

for _name in _NAMES:
    globals()[_name] = getattr(_C, _name)
    setattr(Tensor, _name, _C.instancemethod(getattr(_C, _name)))
for _name in _INPLACE:
    setattr(Tensor, _name + "_", _via_copy(getattr(_C, _name)))


def addcmul(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2 (broadcast over the three)."""
    return _C.addcmul(input, tensor1, tensor2, value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 / tensor2 (tensor1 and tensor2 may not both be integer tensors)."""
    return _C.addcdiv(input, tensor1, tensor2, value)


Tensor.addcmul, Tensor.addcdiv = addcmul, addcdiv
Tensor.addcmul_, Tensor.addcdiv_ = _via_copy(addcmul), _via_copy(addcdiv)

__all__ = list(_NAMES) + ["addcmul", "addcdiv"]

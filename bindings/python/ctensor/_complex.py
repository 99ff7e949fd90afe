"""complex64 / complex128 (issue 15) with torch 1.13's names: complex, real, imag, view_as_real, view_as_complex,
conj, angle, polar (functions), Tensor.real / .imag properties and Tensor.conj / angle / is_complex. The work is the
C ABI's (ct_complex, ...); this file only adapts arguments."""
from . import _C
from ._tensor import Tensor


def complex(real, imag):
    return _C.complex(real, imag)


def real(input):
    return _C.real(input)


def imag(input):
    return _C.imag(input)


def view_as_real(input):
    return _C.view_as_real(input)


def view_as_complex(input):
    return _C.view_as_complex(input)


def conj(input):
    return _C.conj(input)


def angle(input):
    return _C.angle(input)


def polar(abs, angle):
    return _C.polar(abs, angle)


def is_complex(input):
    return input.dtype.is_complex


for _name, _fn in dict(conj=conj, angle=angle, is_complex=is_complex).items():
    setattr(Tensor, _name, _fn)


def _part_source(value):
    from ._creation import tensor  # a number becomes a 0-d float64 tensor (copy_ broadcasts and casts it)
    return value if isinstance(value, _C.TensorBase) else tensor(float(value), dtype="float64")


def _set_real(self, value):  # t.real = v writes v into the real part (torch); a real t is written whole
    _C.copy_(_C.real(self), _part_source(value))


def _set_imag(self, value):  # t.imag = v writes the imaginary part; a real t has none (TypeError, as .imag)
    _C.copy_(_C.imag(self), _part_source(value))


Tensor.real = property(real, _set_real)
Tensor.imag = property(imag, _set_imag)

__all__ = ["complex", "real", "imag", "view_as_real", "view_as_complex", "conj", "angle", "polar", "is_complex"]

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
Tensor.real = property(real)
Tensor.imag = property(imag)

__all__ = ["complex", "real", "imag", "view_as_real", "view_as_complex", "conj", "angle", "polar", "is_complex"]

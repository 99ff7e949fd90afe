"""ctensor.nn padding layers (PyTorch names): ConstantPad1d/2d/3d, ZeroPad1d/2d/3d, ReflectionPad1d/2d/3d,
ReplicationPad1d/2d/3d and CircularPad1d/2d/3d, each a call of ctensor.nn.functional.pad."""
from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Optional, Sequence, Union

from . import functional as F
from .module import Module

if TYPE_CHECKING:
    from .. import Tensor


class _Pad(Module):
    """padding is an int (the same amount on every side) or a tuple of 2 * _dims ints ordered like F.pad:
    (left, right) of the last dim, then (top, bottom), then (front, back)."""

    _dims = 1
    _mode = "constant"

    def __init__(self, padding: Union[int, Sequence[int]], value: Optional[float] = None) -> None:
        super().__init__()
        if isinstance(padding, (int, numbers.Integral)):
            padding = (int(padding),) * (2 * self._dims)
        padding = tuple(int(p) for p in padding)
        if len(padding) != 2 * self._dims:
            raise ValueError("%s: padding must be an int or a tuple of %d ints, got %s"
                             % (type(self).__name__, 2 * self._dims, padding))
        self.padding, self.value = padding, value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self._mode, self.value)

    def extra_repr(self):
        return "%s" % (self.padding,) if self.value is None else "padding=%s, value=%s" % (self.padding, self.value)


class _ConstantPad(_Pad):
    """Pads with a constant value."""

    def __init__(self, padding: Union[int, Sequence[int]], value: float) -> None:
        super().__init__(padding, float(value))


class _ZeroPad(_Pad):
    """Pads with zeros."""

    def __init__(self, padding: Union[int, Sequence[int]]) -> None:
        super().__init__(padding, None)


def _make(name, base, dims, mode, doc):
    return type(name, (base,), {"_dims": dims, "_mode": mode, "__doc__": doc, "__module__": __name__})


ConstantPad1d = _make("ConstantPad1d", _ConstantPad, 1, "constant", "Pads the last dim with value.")
ConstantPad2d = _make("ConstantPad2d", _ConstantPad, 2, "constant", "Pads the last 2 dims with value.")
ConstantPad3d = _make("ConstantPad3d", _ConstantPad, 3, "constant", "Pads the last 3 dims with value.")
ZeroPad1d = _make("ZeroPad1d", _ZeroPad, 1, "constant", "Pads the last dim with zeros.")
ZeroPad2d = _make("ZeroPad2d", _ZeroPad, 2, "constant", "Pads the last 2 dims with zeros.")
ZeroPad3d = _make("ZeroPad3d", _ZeroPad, 3, "constant", "Pads the last 3 dims with zeros.")
ReflectionPad1d = _make("ReflectionPad1d", _ZeroPad, 1, "reflect",
                        "Mirrors [N, C, W] or [C, W] input at its edges (the edge itself is not repeated).")
ReflectionPad2d = _make("ReflectionPad2d", _ZeroPad, 2, "reflect",
                        "Mirrors [N, C, H, W] or [C, H, W] input at its edges (the edge itself is not repeated).")
ReflectionPad3d = _make("ReflectionPad3d", _ZeroPad, 3, "reflect",
                        "Mirrors [N, C, D, H, W] or [C, D, H, W] input at its edges.")
ReplicationPad1d = _make("ReplicationPad1d", _ZeroPad, 1, "replicate",
                         "Repeats the edge values of [N, C, W] or [C, W] input.")
ReplicationPad2d = _make("ReplicationPad2d", _ZeroPad, 2, "replicate",
                         "Repeats the edge values of [N, C, H, W] or [C, H, W] input.")
ReplicationPad3d = _make("ReplicationPad3d", _ZeroPad, 3, "replicate",
                         "Repeats the edge values of [N, C, D, H, W] or [C, D, H, W] input.")
CircularPad1d = _make("CircularPad1d", _ZeroPad, 1, "circular", "Wraps [N, C, W] or [C, W] input around.")
CircularPad2d = _make("CircularPad2d", _ZeroPad, 2, "circular", "Wraps [N, C, H, W] or [C, H, W] input around.")
CircularPad3d = _make("CircularPad3d", _ZeroPad, 3, "circular",
                      "Wraps [N, C, D, H, W] or [C, D, H, W] input around.")

"""ctensor.nn.functional convolutions (issue 14): conv1d/2d/3d and conv_transpose1d/2d/3d with torch's
signatures, each one call of the C ABI's ct_convolution (one N-d implementation for every rank)."""
from __future__ import annotations

import numbers

from .. import _C


def _ntuple(v, n, name="argument"):
    """v repeated n times when it is an int, else a tuple of exactly n ints (ValueError otherwise)."""
    if isinstance(v, numbers.Integral):
        return (int(v),) * n
    t = tuple(int(i) for i in v)
    if len(t) == 1 and n > 1:
        t = t * n
    if len(t) != n:
        raise ValueError("expected %s to be a single int or a tuple of %d ints, got %s" % (name, n, v))
    return t


def _same_padding(input, weight, n, stride, dilation):
    """padding='same' as torch: the total d * (k - 1) per dim, split with the extra element on the right (that
    extra is padded onto the input first). Returns (input, symmetric padding)."""
    if any(s != 1 for s in _ntuple(stride, n, "stride")):
        raise ValueError("padding='same' is not supported for strided convolutions")
    dil = _ntuple(dilation, n, "dilation")
    ks = tuple(weight.shape)[2:]
    sym, extra = [], []
    for d, k in zip(dil, ks):
        total = d * (k - 1)
        sym.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        from .functional import pad
        amounts = []
        for e in reversed(extra):  # F.pad lists the last dim first
            amounts += [0, e]
        input = pad(input, amounts)
    return input, tuple(sym)


def _conv(n, input, weight, bias, stride, padding, dilation, groups):
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            input, padding = _same_padding(input, weight, n, stride, dilation)
        else:
            raise ValueError("Invalid padding string '%s', should be one of {'valid', 'same'}" % padding)
    return _C.convolution(input, weight, bias, _ntuple(stride, n, "stride"), _ntuple(padding, n, "padding"),
                          _ntuple(dilation, n, "dilation"), False, (0,) * n, int(groups))


def _conv_transpose(n, input, weight, bias, stride, padding, output_padding, groups, dilation):
    return _C.convolution(input, weight, bias, _ntuple(stride, n, "stride"), _ntuple(padding, n, "padding"),
                          _ntuple(dilation, n, "dilation"), True, _ntuple(output_padding, n, "output_padding"),
                          int(groups))


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(3, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(1, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(2, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(3, input, weight, bias, stride, padding, output_padding, groups, dilation)

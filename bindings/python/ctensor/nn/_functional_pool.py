"""ctensor.nn.functional pooling over 1 and 3 spatial dims (issue 14): max_pool1d/3d (indices, dilation,
ceil_mode), avg_pool1d/3d (count_include_pad, divisor_override) and adaptive_avg/max_pool1d/3d with torch's
signatures, each one call of the C ABI's N-d pooling (ct_max_pool_nd, ct_avg_pool_nd, ct_adaptive_*_pool_nd)."""
from __future__ import annotations

import numbers

from .. import _C
from ._functional_conv import _ntuple


def _stride(stride, kernel, n):
    if stride is None or (not isinstance(stride, numbers.Integral) and len(stride) == 0):
        return kernel
    return _ntuple(stride, n, "stride")


def _max_pool(n, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    k = _ntuple(kernel_size, n, "kernel_size")
    out, indices = _C.max_pool_nd(input, k, _stride(stride, k, n), _ntuple(padding, n, "padding"),
                                  _ntuple(dilation, n, "dilation"), bool(ceil_mode))
    return (out, indices) if return_indices else out


def _avg_pool(n, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    k = _ntuple(kernel_size, n, "kernel_size")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    return _C.avg_pool_nd(input, k, _stride(stride, k, n), _ntuple(padding, n, "padding"), bool(ceil_mode),
                          bool(count_include_pad), int(divisor_override or 0))


def _adaptive_size(input, output_size, n):
    """output_size as n ints, None entries taken from the input's trailing sizes, like torch."""
    if isinstance(output_size, numbers.Integral) or output_size is None:
        output_size = (output_size,) * n
    output_size = tuple(output_size)
    if len(output_size) != n:
        raise ValueError("output_size must be an int or a tuple of %d values, got %s" % (n, output_size))
    sizes = tuple(input.shape)[-n:]
    return tuple(s if o is None else int(o) for o, s in zip(output_size, sizes))


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """torch.nn.functional.max_pool1d of [N, C, L] or [C, L]; indices are positions along L."""
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """torch.nn.functional.max_pool3d of [N, C, D, H, W] or [C, D, H, W]; indices are flat (d * H + h) * W + w."""
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """torch.nn.functional.avg_pool1d of [N, C, L] or [C, L]."""
    return _avg_pool(1, input, kernel_size, stride, padding, ceil_mode, count_include_pad, None)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """torch.nn.functional.avg_pool3d of [N, C, D, H, W] or [C, D, H, W]."""
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def adaptive_avg_pool1d(input, output_size):
    return _C.adaptive_pool_nd(input, _adaptive_size(input, output_size, 1), False)


def adaptive_avg_pool3d(input, output_size):
    return _C.adaptive_pool_nd(input, _adaptive_size(input, output_size, 3), False)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out, indices = _C.adaptive_pool_nd(input, _adaptive_size(input, output_size, 1), True)
    return (out, indices) if return_indices else out


def adaptive_max_pool3d(input, output_size, return_indices=False):
    out, indices = _C.adaptive_pool_nd(input, _adaptive_size(input, output_size, 3), True)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool3d(input, output_size, True)

"""Pooling against PyTorch: F.max_pool2d (dilation, ceil_mode, return_indices), F.avg_pool2d (ceil_mode,
count_include_pad, divisor_override), adaptive average/max pooling and the nn layers; values, indices and
float64 gradients."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn

from conftest import requires_torch


def _compare(fn_c, fn_t, shape, rng, with_indices=False, rtol=1e-7, atol=1e-9):
    """Runs fn on the same float64 input in both libraries; compares values, indices and gradients."""
    torch = requires_torch()
    a = rng.standard_normal(shape)
    x, t = ct.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    out_c, out_t = fn_c(x), fn_t(t)
    if with_indices:
        (out_c, idx_c), (out_t, idx_t) = out_c, out_t
        assert idx_c.dtype == ct.int64
        np.testing.assert_array_equal(idx_c.numpy(), idx_t.numpy())
    assert tuple(out_c.shape) == tuple(out_t.shape)
    np.testing.assert_allclose(out_c.detach().numpy(), out_t.detach().numpy(), rtol=rtol, atol=atol)
    g = rng.standard_normal(tuple(out_t.shape))
    out_c.backward(ct.tensor(g))
    out_t.backward(torch.tensor(g))
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol)


MAX_CASES = [  # (shape, kwargs)
    ((2, 3, 7, 6), dict(kernel_size=2)),
    ((1, 2, 7, 7), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ((2, 2, 9, 8), dict(kernel_size=(3, 2), stride=(1, 2), padding=1, dilation=(2, 3))),
    ((1, 3, 8, 7), dict(kernel_size=(2, 3), stride=(3, 2), padding=1, dilation=2, ceil_mode=True)),
    ((3, 5, 5), dict(kernel_size=2, stride=2, ceil_mode=True)),
    ((1, 1, 6, 6), dict(kernel_size=3, stride=2, ceil_mode=True)),
    ((2, 1, 5, 5), dict(kernel_size=2, stride=2, padding=1, ceil_mode=True)),
    ((1, 2, 1, 9), dict(kernel_size=3, stride=1, padding=1)),
]


@pytest.mark.parametrize("case", range(len(MAX_CASES)))
@pytest.mark.parametrize("return_indices", [False, True])
def test_max_pool2d_matches_torch(case, return_indices, rng):
    torch = requires_torch()
    shape, kw = MAX_CASES[case]
    _compare(lambda x: nn.functional.max_pool2d(x, return_indices=return_indices, **kw),
             lambda t: torch.nn.functional.max_pool2d(t, return_indices=return_indices, **kw), shape, rng,
             with_indices=return_indices)


AVG_CASES = [
    ((2, 3, 7, 6), dict(kernel_size=2)),
    ((1, 2, 7, 7), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ((1, 2, 7, 7), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)),
    ((2, 2, 9, 8), dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 1), count_include_pad=False)),
    ((1, 3, 8, 7), dict(kernel_size=(2, 3), stride=(3, 2), padding=1, divisor_override=4)),
    ((3, 5, 5), dict(kernel_size=2, stride=2, ceil_mode=True, divisor_override=3)),
    ((1, 1, 5, 5), dict(kernel_size=2, stride=2, ceil_mode=True)),
]


@pytest.mark.parametrize("case", range(len(AVG_CASES)))
def test_avg_pool2d_matches_torch(case, rng):
    torch = requires_torch()
    shape, kw = AVG_CASES[case]
    _compare(lambda x: nn.functional.avg_pool2d(x, **kw), lambda t: torch.nn.functional.avg_pool2d(t, **kw), shape,
             rng)


ADAPTIVE_CASES = [
    ((2, 3, 7, 5), (3, 2)),
    ((1, 2, 10, 9), 4),
    ((3, 5, 5), (5, 5)),
    ((1, 1, 4, 13), (9, 11)),
    ((2, 2, 6, 7), (None, 3)),
    ((1, 3, 8, 8), 1),
]


@pytest.mark.parametrize("case", range(len(ADAPTIVE_CASES)))
def test_adaptive_pooling_matches_torch(case, rng):
    torch = requires_torch()
    shape, size = ADAPTIVE_CASES[case]
    _compare(lambda x: nn.functional.adaptive_avg_pool2d(x, size),
             lambda t: torch.nn.functional.adaptive_avg_pool2d(t, size), shape, rng)
    _compare(lambda x: nn.functional.adaptive_max_pool2d(x, size, return_indices=True),
             lambda t: torch.nn.functional.adaptive_max_pool2d(t, size, return_indices=True), shape, rng,
             with_indices=True)


def test_pooling_layers_match_torch(rng):
    torch = requires_torch()
    pairs = [
        (nn.MaxPool2d(3, 2, 1, dilation=1, ceil_mode=True), torch.nn.MaxPool2d(3, 2, 1, dilation=1, ceil_mode=True)),
        (nn.MaxPool2d(2, dilation=2), torch.nn.MaxPool2d(2, dilation=2)),
        (nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False),
         torch.nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False)),
        (nn.AvgPool2d(2, divisor_override=3), torch.nn.AvgPool2d(2, divisor_override=3)),
        (nn.AdaptiveAvgPool2d((3, None)), torch.nn.AdaptiveAvgPool2d((3, None))),
        (nn.AdaptiveMaxPool2d(4), torch.nn.AdaptiveMaxPool2d(4)),
    ]
    for mine, theirs in pairs:
        _compare(mine, theirs, (2, 3, 9, 7), rng)
    out, idx = nn.MaxPool2d(2, return_indices=True)(ct.tensor(rng.standard_normal((1, 2, 4, 4))))
    assert tuple(out.shape) == tuple(idx.shape) == (1, 2, 2, 2)
    out, idx = nn.AdaptiveMaxPool2d(3, return_indices=True)(ct.tensor(rng.standard_normal((2, 5, 5))))
    assert tuple(idx.shape) == (2, 3, 3)


def test_pooling_errors():
    x = ct.zeros(1, 1, 5, 5)
    with pytest.raises(Exception, match="dilation must be positive"):
        nn.functional.max_pool2d(x, 2, dilation=0)
    with pytest.raises(Exception, match="output size"):
        nn.functional.max_pool2d(x, 3, 1, dilation=3)
    with pytest.raises(Exception, match="padding 2 should be at most half of kernel size 3"):
        nn.functional.avg_pool2d(x, 3, 1, 2, ceil_mode=True)
    with pytest.raises(RuntimeError, match="divisor must be not zero"):
        nn.functional.avg_pool2d(x, 2, divisor_override=0)
    with pytest.raises(Exception, match="output size must be non-negative"):
        nn.functional.adaptive_max_pool2d(x, (-1, 2))

"""Pooling over 1 and 3 spatial dims (issue 14) against PyTorch 1.13: max (indices, dilation, ceil_mode, NaN),
avg (count_include_pad, divisor_override, ceil_mode) and adaptive avg/max, values, indices and gradients in
float64, the nn layers, bad input, and CUDA (the emulated backend in CI)."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F
from conftest import requires_torch

DEVICES = ["cpu"] + (["cuda"] if ct.cuda.is_available() else [])

# (function name, input shape, kwargs)
CASES = [
    ("max_pool1d", (2, 3, 11), dict(kernel_size=3, stride=2, padding=1)),
    ("max_pool1d", (2, 3, 10), dict(kernel_size=3, stride=2, dilation=2, ceil_mode=True, return_indices=True)),
    ("max_pool3d", (2, 2, 5, 6, 7), dict(kernel_size=(2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0),
                                         return_indices=True)),
    ("max_pool3d", (1, 2, 7, 5, 6), dict(kernel_size=3, stride=2, dilation=(2, 1, 1), ceil_mode=True,
                                         return_indices=True)),
    ("max_pool3d", (2, 4, 4, 4), dict(kernel_size=2, return_indices=True)),  # unbatched
    ("avg_pool1d", (2, 3, 11), dict(kernel_size=4, stride=3, padding=2, ceil_mode=True)),
    ("avg_pool1d", (2, 3, 9), dict(kernel_size=3, padding=1, count_include_pad=False)),
    ("avg_pool3d", (2, 2, 5, 6, 7), dict(kernel_size=(3, 2, 3), stride=2, padding=1)),
    ("avg_pool3d", (1, 2, 6, 5, 7), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)),
    ("avg_pool3d", (1, 2, 4, 5, 6), dict(kernel_size=2, stride=1, padding=1, divisor_override=3)),
    ("adaptive_avg_pool1d", (2, 3, 10), dict(output_size=4)),
    ("adaptive_avg_pool3d", (2, 2, 5, 7, 6), dict(output_size=(3, 4, 2))),
    ("adaptive_avg_pool3d", (2, 5, 7, 6), dict(output_size=(2, None, 4))),
    ("adaptive_max_pool1d", (2, 3, 10), dict(output_size=3, return_indices=True)),
    ("adaptive_max_pool3d", (2, 2, 5, 7, 6), dict(output_size=(3, 4, 2), return_indices=True)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "%s-%s-%s" % c)
def test_matches_torch(case, device, rng):
    torch = requires_torch()
    name, shape, kw = case
    x = rng.standard_normal(shape)
    cx, tx = ct.tensor(x, requires_grad=True, device=device), torch.tensor(x, requires_grad=True)
    y, ty = getattr(F, name)(cx, **kw), getattr(torch.nn.functional, name)(tx, **kw)
    if kw.get("return_indices"):
        (y, iy), (ty, ity) = y, ty
        assert iy.dtype == ct.int64
        np.testing.assert_array_equal(iy.cpu().numpy(), ity.numpy())
    assert tuple(y.shape) == tuple(ty.shape)
    np.testing.assert_allclose(y.detach().cpu().numpy(), ty.detach().numpy(), rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(tuple(ty.shape))
    y.backward(ct.tensor(g, device=device))
    ty.backward(torch.tensor(g))
    np.testing.assert_allclose(cx.grad.cpu().numpy(), tx.grad.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name,kw", [("max_pool3d", dict(kernel_size=2, stride=1)),
                                     ("avg_pool3d", dict(kernel_size=2, padding=1)),
                                     ("adaptive_max_pool1d", dict(output_size=3))])
def test_double_backward_matches_torch(name, kw, rng):
    torch = requires_torch()
    shape = (1, 2, 7) if name.endswith("1d") else (1, 2, 3, 4, 3)
    x = rng.standard_normal(shape)
    grads = []
    for mod, fn in ((ct, getattr(F, name)), (torch, getattr(torch.nn.functional, name))):
        xi = mod.tensor(x, requires_grad=True)
        y = fn(xi, **kw)
        (gx,) = mod.autograd.grad((y * y).sum(), [xi], create_graph=True)
        (gx * gx).sum().backward()
        grads.append(xi.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)


def test_max_pool3d_nan_and_ties_pick_torchs_index():
    torch = requires_torch()
    x = np.zeros((1, 1, 2, 2, 2))
    x[0, 0, 1, 0, 1] = np.nan
    for arr in (x, np.ones((1, 1, 2, 2, 2))):
        y, i = F.max_pool3d(ct.tensor(arr), 2, return_indices=True)
        ty, ti = torch.nn.functional.max_pool3d(torch.tensor(arr), 2, return_indices=True)
        np.testing.assert_array_equal(i.numpy(), ti.numpy())
        np.testing.assert_array_equal(np.isnan(y.numpy()), np.isnan(ty.numpy()))


@pytest.mark.parametrize("cls,args,shape", [
    ("MaxPool1d", (3, 2, 1), (2, 3, 9)), ("MaxPool3d", (2,), (1, 2, 4, 6, 4)), ("AvgPool1d", (3,), (2, 3, 9)),
    ("AvgPool3d", (2, 1, 1), (1, 2, 4, 4, 4)), ("AdaptiveAvgPool1d", (4,), (2, 3, 9)),
    ("AdaptiveAvgPool3d", ((2, 3, 1),), (1, 2, 4, 6, 4)), ("AdaptiveMaxPool1d", (2,), (2, 3, 9)),
    ("AdaptiveMaxPool3d", (2,), (1, 2, 4, 6, 4))])
def test_layers_match_torch(cls, args, shape, rng):
    torch = requires_torch()
    x = rng.standard_normal(shape)
    y, ty = getattr(nn, cls)(*args)(ct.tensor(x)), getattr(torch.nn, cls)(*args)(torch.tensor(x))
    np.testing.assert_allclose(y.numpy(), ty.numpy(), rtol=1e-12, atol=1e-12)


def test_bad_input_names_op_and_values():
    x = ct.randn(1, 2, 4, 4, 4)
    with pytest.raises(ValueError, match=r"max_pool3d: expected input with 5 dims"):
        F.max_pool3d(ct.randn(4, 4), 2)
    with pytest.raises(ValueError, match=r"max_pool3d: padding 2 should be at most half of kernel size 2"):
        F.max_pool3d(x, 2, padding=2)
    with pytest.raises(ValueError, match=r"avg_pool1d: output size 0 in spatial dim 0 is too small"):
        F.avg_pool1d(ct.randn(1, 2, 1), 4, 1, 1)
    with pytest.raises(ValueError, match=r"max_pool1d: stride must be positive, got 0"):
        F.max_pool1d(ct.randn(1, 2, 5), 2, 0)
    with pytest.raises(ValueError, match=r"adaptive_avg_pool3d: output size must be non-negative, got -1"):
        F.adaptive_avg_pool3d(x, (2, -1, 2))
    with pytest.raises(ValueError, match=r"adaptive_max_pool3d: expected input with non-zero sizes"):
        F.adaptive_max_pool3d(ct.randn(1, 2, 0, 3, 3), 2)

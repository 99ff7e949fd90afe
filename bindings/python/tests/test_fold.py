"""F.unfold / F.fold and pixel_shuffle / pixel_unshuffle (issue 14) against PyTorch 1.13: values and gradients in
float64 (incl. double backward of the unfold/fold pair), the nn layers, bad input, and CUDA."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F
from conftest import requires_torch

DEVICES = ["cpu"] + (["cuda"] if ct.cuda.is_available() else [])
UNFOLD = [((2, 3, 7, 6), dict(kernel_size=(3, 2), dilation=(1, 2), padding=(1, 0), stride=(2, 1))),
          ((3, 5, 5), dict(kernel_size=2)),
          ((1, 2, 4, 4), dict(kernel_size=1, stride=2))]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape,kw", UNFOLD)
def test_unfold_and_fold_match_torch(shape, kw, device, rng):
    torch = requires_torch()
    x = rng.standard_normal(shape)
    cx, tx = ct.tensor(x, requires_grad=True, device=device), torch.tensor(x, requires_grad=True)
    y, ty = F.unfold(cx, **kw), torch.nn.functional.unfold(tx, **kw)
    np.testing.assert_allclose(y.detach().cpu().numpy(), ty.detach().numpy(), rtol=0, atol=0)
    cols = rng.standard_normal(tuple(ty.shape))
    cc, tc = ct.tensor(cols, requires_grad=True, device=device), torch.tensor(cols, requires_grad=True)
    z, tz = F.fold(cc, shape[-2:], **kw), torch.nn.functional.fold(tc, shape[-2:], **kw)
    np.testing.assert_allclose(z.detach().cpu().numpy(), tz.detach().numpy(), rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(tuple(ty.shape))
    y.backward(ct.tensor(g, device=device))
    ty.backward(torch.tensor(g))
    np.testing.assert_allclose(cx.grad.cpu().numpy(), tx.grad.numpy(), rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(tuple(tz.shape))
    z.backward(ct.tensor(g, device=device))
    tz.backward(torch.tensor(g))
    np.testing.assert_allclose(cc.grad.cpu().numpy(), tc.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_unfold_double_backward(rng):
    torch = requires_torch()
    x = rng.standard_normal((1, 2, 5, 4))
    grads = []
    for mod, fn in ((ct, F.unfold), (torch, torch.nn.functional.unfold)):
        xi = mod.tensor(x, requires_grad=True)
        y = fn(xi, 2, padding=1)
        (gx,) = mod.autograd.grad((y * y * y).sum(), [xi], create_graph=True)
        (gx * gx).sum().backward()
        grads.append(xi.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("device", DEVICES)
def test_pixel_shuffle_matches_torch(device, rng):
    torch = requires_torch()
    for shape, r in (((2, 8, 3, 4), 2), ((9, 2, 3), 3), ((2, 1, 4, 2, 2), 2)):
        x = rng.standard_normal(shape)
        cx, tx = ct.tensor(x, requires_grad=True, device=device), torch.tensor(x, requires_grad=True)
        y, ty = F.pixel_shuffle(cx, r), torch.nn.functional.pixel_shuffle(tx, r)
        np.testing.assert_array_equal(y.detach().cpu().numpy(), ty.detach().numpy())
        back = F.pixel_unshuffle(y, r)
        np.testing.assert_array_equal(back.detach().cpu().numpy(), x)
        np.testing.assert_array_equal(
            F.pixel_unshuffle(ct.tensor(ty.detach().numpy(), device=device), r).cpu().numpy(),
            torch.nn.functional.pixel_unshuffle(ty, r).detach().numpy())
        g = rng.standard_normal(tuple(ty.shape))
        y.backward(ct.tensor(g, device=device))
        ty.backward(torch.tensor(g))
        np.testing.assert_array_equal(cx.grad.cpu().numpy(), tx.grad.numpy())


def test_layers_match_torch(rng):
    torch = requires_torch()
    x = rng.standard_normal((2, 4, 6, 6))
    u, tu = nn.Unfold(3, padding=1, stride=2), torch.nn.Unfold(3, padding=1, stride=2)
    cols = u(ct.tensor(x))
    np.testing.assert_allclose(cols.numpy(), tu(torch.tensor(x)).numpy())
    f, tf = nn.Fold((6, 6), 3, padding=1, stride=2), torch.nn.Fold((6, 6), 3, padding=1, stride=2)
    np.testing.assert_allclose(f(cols).numpy(), tf(torch.tensor(cols.numpy())).numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(nn.PixelShuffle(2)(ct.tensor(x)).numpy(),
                                  torch.nn.PixelShuffle(2)(torch.tensor(x)).numpy())
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(ct.tensor(x)).numpy(),
                                  torch.nn.PixelUnshuffle(2)(torch.tensor(x)).numpy())


def test_bad_input():
    with pytest.raises(ValueError, match=r"unfold: expected input with 4 dims"):
        F.unfold(ct.randn(2, 3), 2)
    with pytest.raises(ValueError, match=r"unfold: no sliding block fits"):
        F.unfold(ct.randn(1, 1, 2, 2), 3)
    with pytest.raises(ValueError, match=r"fold: expected size of input's dimension 1 to be divisible"):
        F.fold(ct.randn(1, 5, 4), (3, 3), 2)
    with pytest.raises(ValueError, match=r"fold: input \[1, 4, 5\] has 5 blocks but output size 3x3"):
        F.fold(ct.randn(1, 4, 5), (3, 3), 2)
    with pytest.raises(ValueError, match=r"pixel_shuffle: channels 3 are not divisible by upscale_factor\^2 = 4"):
        F.pixel_shuffle(ct.randn(1, 3, 2, 2), 2)
    with pytest.raises(ValueError, match=r"pixel_unshuffle: height 3 and width 4 must be divisible"):
        F.pixel_unshuffle(ct.randn(1, 1, 3, 4), 2)

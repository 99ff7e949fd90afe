"""F.interpolate / F.upsample* and nn.Upsample* against torch 1.13: values and input gradients for every mode x
1/2/3 spatial dims x align_corners x size / scale_factor (integer, non-integer, downsampling), float32 and float64,
double backward, torch's argument errors, and CUDA (emulated in CI) against the CPU."""
import itertools

import numpy as np
import pytest
import torch

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

TF = torch.nn.functional
SHAPES = {1: (2, 3, 7), 2: (2, 2, 5, 6), 3: (1, 2, 4, 3, 5)}
MODES = {"nearest": (1, 2, 3), "nearest-exact": (1, 2, 3), "area": (1, 2, 3), "linear": (1,), "bilinear": (2,),
         "trilinear": (3,), "bicubic": (2,)}
# size or scale_factor per spatial rank: upsampling, downsampling, non-integer factors, mixed, recomputed
RESIZES = [dict(size=[11, 4, 8]), dict(size=[3, 9, 2]), dict(scale_factor=2.0), dict(scale_factor=0.5),
           dict(scale_factor=1.7), dict(scale_factor=[1.3, 0.6, 2.5]), dict(scale_factor=1.05),
           dict(scale_factor=2.6, recompute_scale_factor=True)]


def data(shape, dtype=np.float64):
    return (np.sin(np.arange(int(np.prod(shape))).reshape(shape) * 0.37) * 3).astype(dtype)


def cut(kw, k):
    """kw with per-dim lists cut to k spatial dims."""
    return {n: (v[:k] if isinstance(v, list) else v) for n, v in kw.items()}


def run(lib, x, **kw):
    """Output and input gradient of (interpolate(x) * cos weights).sum() on lib."""
    t = lib.tensor(x.copy(), requires_grad=True)
    out = (F if lib is ct else TF).interpolate(t, **kw)
    wt = np.cos(np.arange(out.numel()).reshape(tuple(out.shape))).astype(x.dtype)
    (out * lib.tensor(wt)).sum().backward()
    return out.detach().numpy(), t.grad.numpy()


def torch_grad_differs(mode, x, kw):
    """torch 1.13's nearest and bicubic backwards copy the gradient of a same-size axis (nearest: also halve a
    doubled one) even when a scale_factor maps it elsewhere, which their forwards do not: there the two disagree,
    and ctensor's gradient is its forward's adjoint."""
    if mode not in ("nearest", "bicubic") or "scale_factor" not in kw or kw.get("recompute_scale_factor"):
        return False
    k = x.ndim - 2
    f = kw["scale_factor"] if isinstance(kw["scale_factor"], list) else [kw["scale_factor"]] * k
    out = [int(np.floor(n * s)) for n, s in zip(x.shape[2:], f)]
    if mode == "bicubic":
        return out == list(x.shape[2:]) and any(s != 1.0 for s in f)
    return any(o in (n, 2 * n) and s not in (1.0, 2.0) for o, n, s in zip(out, x.shape[2:], f))


CASES = [(m, k, a, r) for m, ks in MODES.items() for k in ks
         for a in ([None] if m in ("nearest", "nearest-exact", "area") else [False, True]) for r in range(len(RESIZES))]


@pytest.mark.parametrize("mode,k,align,r", CASES)
def test_interpolate_like_torch(mode, k, align, r):
    kw = cut(RESIZES[r], k)
    if align is not None:
        kw["align_corners"] = align
    x = data(SHAPES[k])
    (o, g), (to, tg) = run(ct, x, mode=mode, **kw), run(torch, x, mode=mode, **kw)
    np.testing.assert_allclose(o, to, rtol=1e-12, atol=1e-12)
    if not torch_grad_differs(mode, x, kw):
        np.testing.assert_allclose(g, tg, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode,k", [(m, k) for m, ks in MODES.items() for k in ks])
def test_interpolate_float32_like_torch(mode, k):
    x = data(SHAPES[k], np.float32)
    kw = dict(scale_factor=1.7) if mode != "bicubic" else dict(size=[9, 4], align_corners=False)
    (o, g), (to, tg) = run(ct, x, mode=mode, **kw), run(torch, x, mode=mode, **kw)
    assert o.dtype == np.float32
    np.testing.assert_allclose(o, to, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(g, tg, rtol=1e-5, atol=1e-5)


def test_interpolate_nearest_backward_is_the_forwards_adjoint_where_torch_differs():
    x = data((1, 1, 10))
    o, g = run(ct, x, mode="nearest", scale_factor=1.05)
    to, _ = run(torch, x, mode="nearest", scale_factor=1.05)
    np.testing.assert_allclose(o, to)  # [0, 0, 1, ..., 8]: input 9 unused, input 0 used twice
    wt = np.cos(np.arange(10))
    assert g[0, 0, 9] == 0 and np.isclose(g[0, 0, 0], wt[0] + wt[1])


@pytest.mark.parametrize("mode,k", [("bilinear", 2), ("bicubic", 2), ("trilinear", 3), ("nearest", 2)])
def test_interpolate_double_backward_like_torch(mode, k):
    x = data(SHAPES[k])
    kw = dict(scale_factor=1.5)
    if mode != "nearest":
        kw["align_corners"] = False
    res = []
    for lib in (ct, torch):
        t = lib.tensor(x.copy(), requires_grad=True)
        out = (F if lib is ct else TF).interpolate(t, mode=mode, **kw)
        g = lib.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape)), requires_grad=True)
        (gx,) = (ct.autograd if lib is ct else torch.autograd).grad(out, t, g, create_graph=True)
        (gx * lib.tensor(data(x.shape))).sum().backward()
        res.append((gx.detach().numpy(), g.grad.numpy()))
    for a, b in zip(*res):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_upsample_functions_and_modules_like_torch():
    x = data((2, 3, 4, 5))
    pairs = [(lambda f, t: f.upsample(t, scale_factor=2, mode="bilinear", align_corners=False)),
             (lambda f, t: f.upsample_nearest(t, size=(7, 3))),
             (lambda f, t: f.upsample_bilinear(t, scale_factor=1.5))]
    for fn in pairs:
        with pytest.warns(UserWarning):
            o = fn(F, ct.tensor(x))
        np.testing.assert_allclose(o.numpy(), fn(TF, torch.tensor(x)).numpy(), rtol=1e-12, atol=1e-12)
    mods = [(nn.Upsample(scale_factor=2, mode="nearest"), torch.nn.Upsample(scale_factor=2, mode="nearest")),
            (nn.Upsample(size=(6, 9), mode="bicubic", align_corners=True),
             torch.nn.Upsample(size=(6, 9), mode="bicubic", align_corners=True)),
            (nn.UpsamplingNearest2d(scale_factor=3), torch.nn.UpsamplingNearest2d(scale_factor=3)),
            (nn.UpsamplingBilinear2d(size=(3, 8)), torch.nn.UpsamplingBilinear2d(size=(3, 8)))]
    for m, tm in mods:
        np.testing.assert_allclose(m(ct.tensor(x)).numpy(), tm(torch.tensor(x)).numpy(), rtol=1e-12, atol=1e-12)
        assert repr(m) == repr(tm)


def test_interpolate_empty_batch_like_torch():
    x = np.zeros((0, 2, 3))
    assert tuple(F.interpolate(ct.tensor(x), size=5).shape) == tuple(TF.interpolate(torch.tensor(x), size=5).shape)


@pytest.mark.parametrize("call,err,msg", [
    (lambda f, x: f.interpolate(x, size=4, scale_factor=2.0), ValueError, "only one of size or scale_factor"),
    (lambda f, x: f.interpolate(x), ValueError, "either size or scale_factor"),
    (lambda f, x: f.interpolate(x, size=4, mode="nearest", align_corners=True), ValueError, "align_corners option"),
    (lambda f, x: f.interpolate(x, size=4, recompute_scale_factor=True), ValueError, "recompute_scale_factor"),
    (lambda f, x: f.interpolate(x, size=4, mode="bilinear"), NotImplementedError, "bilinear mode needs 4D input"),
    (lambda f, x: f.interpolate(x, size=4, mode="bicubic"), NotImplementedError, "Input Error"),
    (lambda f, x: f.interpolate(x, size=[4, 4]), ValueError, "same number of spatial dimensions"),
    (lambda f, x: f.interpolate(x, size=4, mode="cubic"), NotImplementedError, "Input Error"),
])
def test_interpolate_argument_errors_like_torch(call, err, msg):
    for lib, f in ((ct, F), (torch, TF)):
        with pytest.raises(err, match=msg):
            call(f, lib.tensor(data((1, 2, 5))))


def test_interpolate_library_errors():
    x = ct.tensor(data((1, 2, 5)))
    with pytest.raises(ValueError, match="interpolate: output size must be positive, got 0"):
        F.interpolate(x, size=0)
    with pytest.raises(ValueError, match=r"interpolate: output size along spatial dim 0 must be positive"):
        F.interpolate(x, scale_factor=0.1)
    with pytest.raises(TypeError, match="interpolate: input must be float32 or float64, got int64"):
        F.interpolate(ct.tensor(np.arange(5).reshape(1, 1, 5)), size=3)
    with pytest.raises(ValueError, match=r"interpolate: input must have non-empty channel and spatial dims"):
        F.interpolate(ct.tensor(np.zeros((1, 0, 5))), size=3)


@pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA backend (run_tests.sh runs this again on the "
                    "emulated CUDA backend)")
def test_interpolate_cuda_matches_cpu():
    x = data((2, 2, 4, 5))
    for mode, kw in itertools.product(["bilinear", "bicubic", "nearest", "area"], [dict(scale_factor=1.7)]):
        if mode in ("bilinear", "bicubic"):
            kw = dict(kw, align_corners=True)
        outs = []
        for dev in ("cpu", "cuda"):
            t = ct.tensor(x.copy()).to(dev).detach().requires_grad_()
            out = F.interpolate(t, mode=mode, **kw)
            assert out.device == ct.device(dev if dev == "cpu" else "cuda:0")
            (out * out).sum().backward()
            outs.append((out.to("cpu").detach().numpy(), t.grad.to("cpu").numpy()))
        for a, b in zip(*outs):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)

"""Native float16 / bfloat16 CUDA kernels (issue 15, Note [Native half on CUDA]): reductions and softmax on half CUDA
tensors equal the float32-copy fallback spelled out (x.float(), the op, rounded back) bit for bit, forward and
gradient (softmax's gradient within a rounding: it reads the saved half output), and run under autocast on "cuda".
Skipped without a device; run_tests.sh runs this file again against the emulated backend."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn.functional as F

pytestmark = pytest.mark.skipif(not ct.cuda.is_available(),
                                reason="no CUDA device: %s" % ct.cuda.unavailable_reason())

HALVES = [ct.float16, ct.bfloat16]

REDUCTIONS = {
    "sum(1)": lambda x: x.sum(1),
    "sum()": lambda x: x.sum(),
    "mean(0, keepdim)": lambda x: x.mean(0, keepdim=True),
    "prod(1)": lambda x: x.prod(1),
    "var(1)": lambda x: x.var(1),
    "std()": lambda x: x.std(),
    "logsumexp(0)": lambda x: ct.logsumexp(x, 0),
    "norm()": lambda x: x.norm(),
    "max()": lambda x: x.max(),
    "min(0)[0]": lambda x: x.min(0)[0],
    "amax": lambda x: x.max(1)[0],
}


def _bits(t):
    return t.detach().cpu().float().numpy()


def _leaf(dtype, seed, shape=(7, 33), lo=-2.0, hi=2.0):
    rng = np.random.default_rng(seed)
    x = ct.tensor(rng.uniform(lo, hi, size=shape).astype(np.float32)).to(dtype).to("cuda")
    return x.requires_grad_()


def _fallback(op, x):
    y = op(x.float())
    return y.to(x.dtype) if y.dtype is ct.float32 else y


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_cuda_half_reduction_equals_fallback(dtype, name):
    op = REDUCTIONS[name]
    lo = 0.5 if name.startswith("prod") else -2.0
    xn, xf = _leaf(dtype, 1, lo=lo), _leaf(dtype, 1, lo=lo)
    got, want = op(xn), _fallback(op, xf)
    assert got.is_cuda and got.dtype is dtype
    np.testing.assert_array_equal(_bits(got), _bits(want))
    seed = ct.tensor(np.random.default_rng(2).uniform(-1, 1, size=got.shape).astype(np.float32)).to(dtype).cuda()
    got.backward(seed)
    want.backward(seed)
    assert xn.grad.dtype is dtype
    np.testing.assert_array_equal(_bits(xn.grad), _bits(xf.grad))


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_cuda_half_argmax_and_softmax(dtype):
    x = _leaf(dtype, 3)
    np.testing.assert_array_equal(x.argmax(1).cpu().numpy(), x.float().argmax(1).cpu().numpy())
    for f in (lambda t: F.softmax(t, 1), lambda t: F.log_softmax(t, 0)):
        xn, xf = _leaf(dtype, 4), _leaf(dtype, 4)
        got, want = f(xn), _fallback(f, xf)
        np.testing.assert_array_equal(_bits(got), _bits(want))
        got.sum().backward()
        want.sum().backward()
        tol = 4e-3 if dtype is ct.float16 else 3e-2
        np.testing.assert_allclose(_bits(xn.grad), _bits(xf.grad), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_cuda_autocast_half_reductions(dtype):
    """Under autocast the linear output is half; its reductions then run natively and equal the CPU's."""
    rng = np.random.default_rng(5)
    a = ct.tensor(rng.uniform(-1, 1, size=(16, 24)).astype(np.float32))
    w = ct.tensor(rng.uniform(-1, 1, size=(10, 24)).astype(np.float32))
    outs = []
    for device in ("cpu", "cuda"):
        ad, wd = a.to(device), w.to(device).detach().requires_grad_()
        with ct.autocast(device, dtype=dtype):
            y = F.linear(ad, wd)
            assert y.dtype is dtype
            loss = y.max(1)[0].sum() + y.mean()
        loss.backward()
        outs.append((_bits(y.sum(0)), y.argmax(1).cpu().numpy(), _bits(wd.grad)))
    tol = 2e-2 if dtype is ct.float16 else 1e-1
    for want, got in zip(*outs):
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)

"""Native float16 / bfloat16 CUDA kernels (issue 15, Note [Native half on CUDA]): reductions and softmax on half CUDA
tensors equal the float32-copy fallback spelled out (x.float(), the op, rounded back) bit for bit, forward and
gradient (softmax's gradient within a rounding: it reads the saved half output), and run under autocast on "cuda".
layer_norm / group_norm / batch_norm equal the fallback in the forward (gradients within tolerance: Note [Native half
norms]); SGD / Adam / AdamW steps on half CUDA parameters equal the CPU's half steps (Note [Native half step]).
Skipped without a device; run_tests.sh runs this file again against the emulated backend."""
import os

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


NORMS = {
    "layer_norm": (lambda x, w, b: F.layer_norm(x, (33,), w, b), 33),
    "group_norm": (lambda x, w, b: F.group_norm(x, 3, w, b), 6),
    "batch_norm": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), 6),
}


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("name", sorted(NORMS))
def test_cuda_half_norm_equals_fallback(dtype, name):
    f, c = NORMS[name]
    shape = (4, 5, 33) if name == "layer_norm" else (4, 6, 7)
    xn, xf = _leaf(dtype, 6, shape), _leaf(dtype, 6, shape)
    wn, wf = _leaf(dtype, 7, (c,), 0.5, 1.5), _leaf(dtype, 7, (c,), 0.5, 1.5)
    bn, bf = _leaf(dtype, 8, (c,)), _leaf(dtype, 8, (c,))
    got, want = f(xn, wn, bn), f(xf.float(), wf.float(), bf.float()).to(dtype)
    assert got.is_cuda and got.dtype is dtype
    np.testing.assert_array_equal(_bits(got), _bits(want))
    seed = ct.tensor(np.random.default_rng(9).uniform(-1, 1, size=got.shape).astype(np.float32)).to(dtype).cuda()
    got.backward(seed)
    want.backward(seed)
    tol = 1e-2 if dtype is ct.float16 else 6e-2
    for a, b in ((xn, xf), (wn, wf), (bn, bf)):
        assert a.grad.dtype is dtype
        np.testing.assert_allclose(_bits(a.grad), _bits(b.grad), rtol=tol, atol=tol)


OPTIMIZERS = {
    "sgd": lambda p: ct.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01),
    "sgd_nesterov": lambda p: ct.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True),
    "adam": lambda p: ct.optim.Adam(p, lr=1e-2, weight_decay=0.1),
    "adamw": lambda p: ct.optim.AdamW(p, lr=1e-2, weight_decay=0.05),
}


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_cuda_half_optimizer_step_equals_cpu(dtype, name):
    rng = np.random.default_rng(10)
    p0 = rng.uniform(-2, 2, size=(9, 13)).astype(np.float32)
    grads = [rng.uniform(-1, 1, size=(9, 13)).astype(np.float32) for _ in range(3)]
    results = []
    for device in ("cpu", "cuda"):
        p = ct.tensor(p0).to(dtype).to(device).requires_grad_()
        opt = OPTIMIZERS[name]([p])
        for g in grads:
            p.grad = ct.tensor(g).to(dtype).to(device)
            opt.step()
        assert p.dtype is dtype
        results.append(_bits(p))
    # the emulated backend runs the CPU's float math exactly; a GPU may contract a * b + c into an FMA
    tol = 0 if "emulated" in os.environ.get("CTENSOR_CUDA_BACKEND", "") else (2 ** -10 if dtype is ct.float16 else 2 ** -7)
    np.testing.assert_allclose(results[1], results[0], rtol=tol, atol=0)

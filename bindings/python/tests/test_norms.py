"""F.layer_norm / group_norm / batch_norm / instance_norm (over the C ABI's fused ops) against PyTorch 1.13: values,
gradients of input, weight and bias, second derivatives, running statistics (training and eval), float32, float16,
the modules, and the errors."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

from conftest import requires_torch


def _pair(torch, array, dtype="float64", requires_grad=True):
    return (ct.tensor(array, dtype=getattr(ct, dtype), requires_grad=requires_grad),
            torch.tensor(array, dtype=getattr(torch, dtype), requires_grad=requires_grad))


def _np(t):
    return t.detach().double().numpy()


def _check(mine_fn, torch_fn, shape, nparams, rng, dtype="float64", rtol=1e-9, atol=1e-10):
    """Values and the gradients of x and of each parameter, for the same random upstream gradient."""
    torch = requires_torch()
    x = rng.standard_normal(shape) * 3 + 1
    xs = _pair(torch, x, dtype)
    params = [_pair(torch, rng.standard_normal(n), dtype) for n in nparams]
    y_mine = mine_fn(xs[0], *[p[0] for p in params])
    y_torch = torch_fn(xs[1], *[p[1] for p in params])
    np.testing.assert_allclose(_np(y_mine), y_torch.detach().double().numpy(), rtol=rtol, atol=atol)
    up = rng.standard_normal(tuple(y_torch.shape))
    y_mine.backward(ct.tensor(up, dtype=y_mine.dtype))
    y_torch.backward(torch.tensor(up, dtype=y_torch.dtype))
    for mine, theirs in [xs] + params:
        np.testing.assert_allclose(_np(mine.grad), theirs.grad.double().numpy(), rtol=rtol * 10, atol=atol * 10)


@pytest.mark.parametrize("shape,ns", [((4, 6, 5), (5,)), ((3, 4, 5), (4, 5)), ((7, 33), (33,)), ((2, 1000), (1000,))])
def test_layer_norm_matches_torch(shape, ns, rng):
    torch = requires_torch()
    n = int(np.prod(ns))
    _check(lambda x, w, b: F.layer_norm(x, ns, w.reshape(ns), b.reshape(ns)),
           lambda x, w, b: torch.nn.functional.layer_norm(x, ns, w.reshape(ns), b.reshape(ns)), shape, [n, n], rng)
    _check(lambda x: F.layer_norm(x, ns, eps=1e-3), lambda x: torch.nn.functional.layer_norm(x, ns, eps=1e-3),
           shape, [], rng)


@pytest.mark.parametrize("shape,groups", [((4, 6, 5), 3), ((4, 6), 2), ((2, 8, 3, 3), 8), ((3, 4, 2, 2, 2), 1)])
def test_group_norm_matches_torch(shape, groups, rng):
    torch = requires_torch()
    c = shape[1]
    _check(lambda x, w, b: F.group_norm(x, groups, w, b), lambda x, w, b: torch.nn.functional.group_norm(x, groups, w, b),
           shape, [c, c], rng)


@pytest.mark.parametrize("shape", [(4, 6, 5), (8, 3), (2, 3, 4, 4)])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_matches_torch_with_running_stats(shape, training, rng):
    torch = requires_torch()
    c = shape[1]
    stats = rng.standard_normal(c), rng.random(c) + 0.5
    rm, rv = (ct.tensor(s, dtype=ct.float64) for s in stats)
    trm, trv = (torch.tensor(s) for s in stats)
    _check(lambda x, w, b: F.batch_norm(x, rm, rv, w, b, training, 0.3, 1e-4),
           lambda x, w, b: torch.nn.functional.batch_norm(x, trm, trv, w, b, training, 0.3, 1e-4), shape, [c, c], rng)
    np.testing.assert_allclose(rm.numpy(), trm.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(rv.numpy(), trv.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("use_input_stats", [True, False])
def test_instance_norm_matches_torch(use_input_stats, rng):
    torch = requires_torch()
    stats = rng.standard_normal(4), rng.random(4) + 0.5
    rm, rv = (ct.tensor(s, dtype=ct.float64) for s in stats)
    trm, trv = (torch.tensor(s) for s in stats)
    _check(lambda x, w, b: F.instance_norm(x, rm, rv, w, b, use_input_stats, 0.2),
           lambda x, w, b: torch.nn.functional.instance_norm(x, trm, trv, w, b, use_input_stats, 0.2),
           (3, 4, 5), [4, 4], rng)
    np.testing.assert_allclose(rm.numpy(), trm.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(rv.numpy(), trv.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("op", ["layer", "group", "batch"])
def test_double_backward_matches_torch(op, rng):
    torch = requires_torch()
    x_np, w_np, b_np = rng.standard_normal((3, 4, 5)), rng.standard_normal(4), rng.standard_normal(4)
    results = []
    for lib, fn in ((ct, F), (torch, torch.nn.functional)):
        x, w, b = (lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in (x_np, w_np, b_np))
        if op == "layer":
            y = fn.layer_norm(x.transpose(1, 2), (4,), w, b)
        elif op == "group":
            y = fn.group_norm(x, 2, w, b)
        else:
            y = fn.batch_norm(x, None, None, w, b, True)
        gx, gw = (ct.autograd.grad if lib is ct else torch.autograd.grad)((y ** 3).sum(), [x, w], create_graph=True)
        ((gx * gx).sum() + (gw * gw).sum()).backward()
        results.append([t.grad.detach().numpy() for t in (x, w, b)])
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("float16", 2e-2)])
def test_low_precision_follows_torch(dtype, tol, rng):
    torch = requires_torch()
    if dtype == "float16":  # torch 1.13's CPU layer_norm has no float16 kernel: compare with its float32 result
        x = rng.standard_normal((6, 64)).astype(np.float16)
        y = F.layer_norm(ct.tensor(x), (64,))
        assert y.dtype == ct.float16
        want = torch.nn.functional.layer_norm(torch.tensor(x.astype(np.float32)), (64,)).numpy()
        np.testing.assert_allclose(_np(y), want, rtol=tol, atol=tol)
        return
    _check(lambda x, w, b: F.layer_norm(x, (64,), w, b), lambda x, w, b: torch.nn.functional.layer_norm(x, (64,), w, b),
           (6, 64), [64, 64], rng, dtype, tol, tol)
    _check(lambda x, w, b: F.batch_norm(x, None, None, w, b, True),
           lambda x, w, b: torch.nn.functional.batch_norm(x, None, None, w, b, True), (6, 4, 9), [4, 4], rng, dtype,
           tol, tol)


def test_modules_match_torch_over_training_steps(rng):
    torch = requires_torch()
    pairs = [(nn.BatchNorm2d(3).double(), torch.nn.BatchNorm2d(3).double(), (4, 3, 5, 5)),
             (nn.BatchNorm1d(3, momentum=None).double(), torch.nn.BatchNorm1d(3, momentum=None).double(), (6, 3)),
             (nn.InstanceNorm1d(3, track_running_stats=True).double(),
              torch.nn.InstanceNorm1d(3, track_running_stats=True).double(), (2, 3, 7)),
             (nn.LayerNorm((5,)).double(), torch.nn.LayerNorm((5,)).double(), (3, 4, 5)),
             (nn.GroupNorm(3, 6).double(), torch.nn.GroupNorm(3, 6).double(), (2, 6, 4))]
    for mine, theirs, shape in pairs:
        for step in range(3):
            if step == 2:
                mine.eval()
                theirs.eval()
            x = rng.standard_normal(shape)
            y_mine, y_torch = mine(ct.tensor(x)), theirs(torch.tensor(x))
            np.testing.assert_allclose(_np(y_mine), y_torch.detach().numpy(), rtol=1e-9, atol=1e-10)
        for name, value in theirs.state_dict().items():
            np.testing.assert_allclose(np.asarray(mine.state_dict()[name].numpy(), dtype=float), value.numpy(),
                                       rtol=1e-12, err_msg=f"{type(mine).__name__}.{name}")


def test_errors_keep_torch_messages():
    x = ct.zeros(2, 4, 3)
    with pytest.raises(ValueError, match=r"Given normalized_shape=\[5\], expected input with shape \[\*, 5\]"):
        F.layer_norm(x, (5,))
    with pytest.raises(RuntimeError, match="divisible by num_groups"):
        F.group_norm(x, 3)
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        F.batch_norm(ct.zeros(1, 4), None, None, training=True)
    with pytest.raises(RuntimeError, match="running_mean must be defined in evaluation mode"):
        F.batch_norm(x, None, None)
    with pytest.raises(TypeError, match="group_norm: weight must have the input's dtype float32, got float64"):
        F.group_norm(x, 2, ct.ones(4, dtype=ct.float64))
    with pytest.raises(ValueError, match="layer_norm: expected weight of shape \\[3\\], got \\[4\\]"):
        F.layer_norm(x, (3,), ct.ones(4))


@pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA backend (run_tests.sh runs this again on the "
                    "emulated backend)")
def test_norms_cuda_match_cpu(rng):
    x, w, b = rng.standard_normal((4, 6, 5)), rng.standard_normal(6), rng.standard_normal(6)
    stats = rng.standard_normal(6), rng.random(6) + 0.5
    calls = [lambda x, w, b, rm, rv: F.layer_norm(x, (6, 5)),
             lambda x, w, b, rm, rv: F.group_norm(x, 3, w, b),
             lambda x, w, b, rm, rv: F.batch_norm(x, rm, rv, w, b, True, 0.2),
             lambda x, w, b, rm, rv: F.batch_norm(x, rm, rv, w, b, False),
             lambda x, w, b, rm, rv: F.instance_norm(x, None, None, w, b)]
    for call in calls:
        results = []
        for device in ("cpu", "cuda"):
            ts = [ct.tensor(v, dtype=ct.float64, requires_grad=True).to(device) for v in (x, w, b)]
            for t in ts:
                t.retain_grad()
            rm, rv = (ct.tensor(s, dtype=ct.float64).to(device) for s in stats)
            y = call(*ts, rm, rv)
            assert y.device == ct.device(device if device == "cpu" else "cuda:0")
            (y * y * y).sum().backward()
            results.append([y.to("cpu").detach().numpy(), rm.to("cpu").numpy(), rv.to("cpu").numpy()] +
                           [None if t.grad is None else t.grad.to("cpu").numpy() for t in ts])
        for cpu, cuda in zip(*results):
            assert (cpu is None) == (cuda is None)
            if cpu is not None:
                np.testing.assert_allclose(cuda, cpu, rtol=1e-9, atol=1e-10)

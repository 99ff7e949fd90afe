"""ctensor.scatter_reduce / Tensor.scatter_reduce_ and scatter(..., reduce="add" | "multiply") against PyTorch 1.13:
values for every reduction with and without include_self (float64, float32, int64), gradients of input and src
(including ties in amax/amin and zeros in prod), the in-place forms and the errors torch raises."""
import numpy as np
import pytest

import ctensor as ct

from conftest import requires_torch

REDUCES = ["sum", "prod", "mean", "amax", "amin"]


def _inputs(rng, dtype=np.float64):
    x = rng.uniform(0.5, 2.0, (3, 5)).astype(dtype)
    src = rng.uniform(0.5, 2.0, (3, 4)).astype(dtype)
    index = rng.integers(0, 5, (3, 3))  # src wider than index: only src[:, :3] is read
    return x, src, index


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dim", [0, 1])
def test_values_and_gradients(reduce, include_self, dim):
    torch = requires_torch()
    x, src, index = _inputs(np.random.default_rng(1))
    src = src[:, :3].copy()  # torch 1.13's backward fails for a src wider than index (values are tested below)
    if dim == 0:
        index = index % 3
    tx, ts = torch.tensor(x, requires_grad=True), torch.tensor(src, requires_grad=True)
    cx, cs = ct.tensor(x, requires_grad=True), ct.tensor(src, requires_grad=True)
    want = tx.scatter_reduce(dim, torch.tensor(index), ts, reduce, include_self=include_self)
    got = cx.scatter_reduce(dim, ct.tensor(index), cs, reduce, include_self=include_self)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-12)
    g = np.random.default_rng(2).standard_normal(x.shape)
    want.backward(torch.tensor(g))
    got.backward(ct.tensor(g))
    np.testing.assert_allclose(cx.grad.numpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cs.grad.numpy(), ts.grad.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduce", REDUCES)
def test_integers_and_float32(reduce):
    torch = requires_torch()
    rng = np.random.default_rng(3)
    x, src, index = rng.integers(-9, 9, (4, 3)), rng.integers(-9, 9, (4, 3)), rng.integers(0, 3, (4, 3))
    for include_self in (True, False):
        want = torch.tensor(x).scatter_reduce(1, torch.tensor(index), torch.tensor(src), reduce, include_self=include_self)
        got = ct.tensor(x).scatter_reduce(1, ct.tensor(index), ct.tensor(src), reduce, include_self=include_self)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    xf, sf, i = _inputs(rng, np.float32)
    want = torch.tensor(xf).scatter_reduce(1, torch.tensor(i), torch.tensor(sf), reduce)
    got = ct.scatter_reduce(ct.tensor(xf), 1, ct.tensor(i), ct.tensor(sf), reduce)
    assert got.dtype == ct.float32
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_ties_and_zeros_gradients():
    torch = requires_torch()
    cases = [("amax", [3.0, 0.0], [3.0, 3.0, 1.0], [0, 0, 1]), ("amin", [1.0, 2.0], [1.0, 5.0, 1.0], [0, 1, 0]),
             ("prod", [2.0, 0.0], [0.0, 5.0, 3.0], [0, 0, 1]), ("prod", [2.0, 4.0], [0.0, 0.0, 3.0], [0, 0, 1])]
    for reduce, x, src, index in cases:
        tx, ts = torch.tensor(x, requires_grad=True), torch.tensor(src, requires_grad=True)
        cx, cs = ct.tensor(x, requires_grad=True), ct.tensor(src, requires_grad=True)
        tx.scatter_reduce(0, torch.tensor(index), ts, reduce).sum().backward()
        cx.scatter_reduce(0, ct.tensor(index), cs, reduce).sum().backward()
        np.testing.assert_allclose(cx.grad.numpy(), tx.grad.numpy(), err_msg=reduce)
        np.testing.assert_allclose(cs.grad.numpy(), ts.grad.numpy(), err_msg=reduce)


def test_in_place_and_scatter_reduce_modes():
    torch = requires_torch()
    x, src, index = _inputs(np.random.default_rng(4))
    for mode in ("add", "multiply"):
        want = torch.tensor(x).scatter(1, torch.tensor(index), torch.tensor(src), reduce=mode)
        np.testing.assert_allclose(ct.tensor(x).scatter(1, ct.tensor(index), ct.tensor(src), reduce=mode).numpy(),
                                   want.numpy(), rtol=1e-12)
        t = ct.tensor(x)
        assert t.scatter_(1, ct.tensor(index), ct.tensor(src), reduce=mode) is t
        np.testing.assert_allclose(t.numpy(), want.numpy(), rtol=1e-12)
        want_value = torch.tensor(x).scatter(1, torch.tensor(index), 1.5, reduce=mode)
        np.testing.assert_allclose(ct.tensor(x).scatter(1, ct.tensor(index), value=1.5, reduce=mode).numpy(),
                                   want_value.numpy(), rtol=1e-12)
    t = ct.tensor(x)
    want = torch.tensor(x).scatter_reduce_(1, torch.tensor(index), torch.tensor(src), "amax", include_self=False)
    assert t.scatter_reduce_(1, ct.tensor(index), ct.tensor(src), "amax", include_self=False) is t
    np.testing.assert_allclose(t.numpy(), want.numpy())


def test_errors():
    x, src, index = _inputs(np.random.default_rng(5))
    cx, cs, ci = ct.tensor(x), ct.tensor(src), ct.tensor(index)
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin"):
        cx.scatter_reduce(1, ci, cs, "max")
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply"):
        cx.scatter(1, ci, cs, reduce="sum")
    with pytest.raises(IndexError, match="out of bounds"):
        cx.scatter_reduce(1, ct.tensor(index + 5), cs, "sum")
    with pytest.raises(TypeError, match="src dtype"):
        cx.scatter_reduce(1, ci, cs.float(), "sum")

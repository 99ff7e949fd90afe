"""ctensor.linalg.lstsq against torch.linalg.lstsq (PyTorch 1.13) for every CPU driver: solutions, residuals,
ranks and singular values of full-rank and rank-deficient matrices, vector and broadcast B, rcond, gradients
(also for rank-deficient A, where both take that of pinv(A) @ B) and the errors torch raises."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.linalg as LA

from conftest import requires_torch

DRIVERS = ["gelsy", "gels", "gelsd", "gelss"]


def _both(a, b, **kw):
    torch = requires_torch()
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    ca, cb = ct.tensor(a, requires_grad=True), ct.tensor(b, requires_grad=True)
    return (ca, cb, LA.lstsq(ca, cb, **kw)), (ta, tb, torch.linalg.lstsq(ta, tb, **kw))


def _check_outputs(c, t, rtol=1e-9, atol=1e-10):
    for name in ("solution", "residuals", "rank", "singular_values"):
        got, want = getattr(c, name), getattr(t, name)
        assert tuple(got.shape) == tuple(want.shape), name
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1], name
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=rtol, atol=atol, err_msg=name)


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("shape_a,shape_b", [((6, 3), (6, 2)), ((3, 5), (3, 2)), ((2, 5, 3), (2, 5)),
                                             ((1, 4, 3), (2, 4, 2)), ((2, 4, 4), (2, 4, 1))])
def test_values_and_gradients(driver, shape_a, shape_b):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(shape_a), rng.standard_normal(shape_b)
    (ca, cb, rc), (ta, tb, rt) = _both(a, b, driver=driver)
    _check_outputs(rc, rt)
    if len(shape_b) < len(shape_a):
        return  # torch 1.13's backward fails for a vector B (mat1 and mat2 shapes); C++ gradchecks ours
    g = rng.standard_normal(tuple(rt.solution.shape))
    rc.solution.backward(ct.tensor(g))
    rt.solution.backward(__import__("torch").tensor(g))
    np.testing.assert_allclose(ca.grad.numpy(), ta.grad.numpy(), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(cb.grad.numpy(), tb.grad.numpy(), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("driver", ["gelsy", "gelsd", "gelss"])
def test_rank_deficient(driver):
    rng = np.random.default_rng(4)
    u, v = rng.standard_normal((5, 2)), rng.standard_normal((2, 4))
    a, b = u @ v, rng.standard_normal((5, 3))  # rank 2 of 4 columns
    (ca, cb, rc), (ta, tb, rt) = _both(a, b, driver=driver)
    _check_outputs(rc, rt, rtol=1e-8, atol=1e-8)
    assert int(rc.rank) == 2
    rc.solution.sum().backward()
    rt.solution.sum().backward()
    np.testing.assert_allclose(ca.grad.numpy(), ta.grad.numpy(), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(cb.grad.numpy(), tb.grad.numpy(), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("rcond", [1e-1, 0.5])
def test_rcond_cuts_small_singular_values(rcond):
    a = np.diag([1.0, 0.3, 0.01])
    b = np.ones((3, 1))
    (_, _, rc), (_, _, rt) = _both(a, b, driver="gelsd", rcond=rcond)
    _check_outputs(rc, rt)


def test_float32_and_default_driver():
    torch = requires_torch()
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((7, 3)).astype(np.float32), rng.standard_normal((7, 2)).astype(np.float32)
    rc, rt = LA.lstsq(ct.tensor(a), ct.tensor(b)), torch.linalg.lstsq(torch.tensor(a), torch.tensor(b))
    assert rc.solution.dtype == ct.float32
    np.testing.assert_allclose(rc.solution.numpy(), rt.solution.numpy(), rtol=1e-4, atol=1e-5)
    assert tuple(rc.residuals.shape) == (0,) and rc.rank.dtype == ct.int64


def test_empty_sizes():
    torch = requires_torch()
    b = np.arange(6.0).reshape(3, 2)
    for a_shape, b_arr in (((3, 0), b), ((0, 3), np.zeros((0, 2)))):
        a = np.zeros(a_shape)
        rc = LA.lstsq(ct.tensor(a), ct.tensor(b_arr), driver="gelsd")
        rt = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b_arr), driver="gelsd")
        _check_outputs(rc, rt)


def test_errors():
    rng = np.random.default_rng(6)
    a, b = ct.tensor(rng.standard_normal((4, 3))), ct.tensor(rng.standard_normal((4, 2)))
    with pytest.raises(RuntimeError, match="parameter `driver` should be one of"):
        LA.lstsq(a, b, driver="foo")
    with pytest.raises(ValueError, match=r"input.size\(-2\) should match other.size\(-2\)"):
        LA.lstsq(a, ct.tensor(rng.standard_normal((3, 2))))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        LA.lstsq(ct.tensor(rng.standard_normal(4)), ct.tensor(rng.standard_normal(4)))
    with pytest.raises(TypeError, match="same dtype"):
        LA.lstsq(a, b.float())
    with pytest.raises(ValueError, match="does not have full rank"):  # inv and solve raise ValueError too
        LA.lstsq(ct.tensor(np.array([[1.0, 0.0], [0.0, 0.0], [2.0, 0.0]])), ct.tensor(np.ones((3, 1))), driver="gels")

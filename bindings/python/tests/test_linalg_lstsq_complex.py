"""ctensor.linalg.lstsq on complex64/complex128 against torch.linalg.lstsq (PyTorch 1.13) for every CPU driver: the
four outputs (complex solution, real residuals and singular values, int64 rank) of tall, wide, square, batched,
broadcast and rank-deficient A, gradients of real-valued losses with respect to complex A and B (torch's
conjugate/Wirtinger convention), and torch's mixed-dtype errors."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.linalg as LA

from conftest import requires_torch

DRIVERS = ["gelsy", "gels", "gelsd", "gelss"]
TORCH_DTYPE_NAMES = {"float32": "Float", "float64": "Double", "complex64": "ComplexFloat",
                     "complex128": "ComplexDouble"}


def _crandn(rng, shape, dtype):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def _both(a, b, **kw):
    torch = requires_torch()
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    ca, cb = ct.tensor(a, requires_grad=True), ct.tensor(b, requires_grad=True)
    return (ca, cb, LA.lstsq(ca, cb, **kw)), (ta, tb, torch.linalg.lstsq(ta, tb, **kw))


def _check_outputs(c, t, rtol, atol):
    for name in ("solution", "residuals", "rank", "singular_values"):
        got, want = getattr(c, name), getattr(t, name)
        assert tuple(got.shape) == tuple(want.shape), name
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1], name
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=rtol, atol=atol, err_msg=name)


def _tols(dtype):
    return (1e-4, 1e-5) if dtype == np.complex64 else (1e-9, 1e-10)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("shape_a,shape_b", [((6, 3), (6, 2)), ((3, 5), (3, 2)), ((4, 4), (4, 1)),
                                             ((2, 5, 3), (2, 5, 2)), ((1, 4, 3), (2, 4, 2)), ((2, 5, 3), (2, 5))])
def test_values_and_gradients(dtype, driver, shape_a, shape_b):
    rng = np.random.default_rng(11)
    a, b = _crandn(rng, shape_a, dtype), _crandn(rng, shape_b, dtype)
    (ca, cb, rc), (ta, tb, rt) = _both(a, b, driver=driver)
    rtol, atol = _tols(dtype)
    _check_outputs(rc, rt, rtol, atol)
    if len(shape_b) < len(shape_a):
        return  # torch 1.13's backward fails for a vector B (mat1 and mat2 shapes); the C++ tests gradcheck ours
    # a real loss of the complex solution: (|X|^2 w).sum() with real weights w
    w = rng.uniform(0.5, 1.5, tuple(rt.solution.shape)).astype(np.float32 if dtype == np.complex64 else np.float64)
    ((rc.solution.abs() ** 2) * ct.tensor(w)).sum().backward()
    ((rt.solution.abs() ** 2) * __import__("torch").tensor(w)).sum().backward()
    assert ca.grad.dtype == ca.dtype and cb.grad.dtype == cb.dtype
    gtol = (2e-3, 1e-4) if dtype == np.complex64 else (1e-7, 1e-9)
    np.testing.assert_allclose(ca.grad.numpy(), ta.grad.numpy(), rtol=gtol[0], atol=gtol[1])
    np.testing.assert_allclose(cb.grad.numpy(), tb.grad.numpy(), rtol=gtol[0], atol=gtol[1])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("driver", ["gelsy", "gelsd", "gelss"])
def test_rank_deficient(dtype, driver):
    rng = np.random.default_rng(12)
    u, v = _crandn(rng, (5, 2), np.complex128), _crandn(rng, (2, 4), np.complex128)
    a, b = (u @ v).astype(dtype), _crandn(rng, (5, 3), dtype)  # rank 2 of 4 columns
    (ca, cb, rc), (ta, tb, rt) = _both(a, b, driver=driver)
    rtol, atol = (1e-3, 1e-4) if dtype == np.complex64 else (1e-8, 1e-8)
    _check_outputs(rc, rt, rtol, atol)
    assert int(rc.rank) == 2
    rc.solution.abs().sum().backward()
    rt.solution.abs().sum().backward()
    np.testing.assert_allclose(ca.grad.numpy(), ta.grad.numpy(), rtol=10 * rtol, atol=10 * atol)
    np.testing.assert_allclose(cb.grad.numpy(), tb.grad.numpy(), rtol=10 * rtol, atol=10 * atol)


def test_rcond_and_default_driver():
    torch = requires_torch()
    a = np.diag([1.0, 0.3j, 0.01 + 0.01j])
    b = np.ones((3, 1), dtype=np.complex128)
    for rcond in (1e-1, 0.5, None):
        (_, _, rc), (_, _, rt) = _both(a, b, driver="gelsd", rcond=rcond)
        _check_outputs(rc, rt, 1e-9, 1e-10)
    rc, rt = LA.lstsq(ct.tensor(a), ct.tensor(b)), torch.linalg.lstsq(torch.tensor(a), torch.tensor(b))
    _check_outputs(rc, rt, 1e-9, 1e-10)  # gelsy: residuals and singular values empty float64, rank int64


def test_empty_sizes():
    torch = requires_torch()
    b = (np.arange(6.0) + 1j).reshape(3, 2)
    for a_shape, b_arr in (((3, 0), b), ((0, 3), np.zeros((0, 2), dtype=np.complex128))):
        a = np.zeros(a_shape, dtype=np.complex128)
        rc = LA.lstsq(ct.tensor(a), ct.tensor(b_arr), driver="gelsd")
        rt = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b_arr), driver="gelsd")
        _check_outputs(rc, rt, 1e-12, 1e-12)


@pytest.mark.parametrize("dt_a,dt_b", [("complex64", "float32"), ("float32", "complex64"),
                                       ("complex64", "complex128"), ("complex128", "float64")])
def test_mixed_dtypes_raise_torchs_error(dt_a, dt_b):
    torch = requires_torch()
    a, b = np.ones((3, 2)), np.ones((3, 1))
    with pytest.raises(RuntimeError) as te:
        torch.linalg.lstsq(torch.tensor(a, dtype=getattr(torch, dt_a)), torch.tensor(b, dtype=getattr(torch, dt_b)))
    with pytest.raises(TypeError) as ce:
        LA.lstsq(ct.tensor(a).to(getattr(ct, dt_a)), ct.tensor(b).to(getattr(ct, dt_b)))
    want = str(te.value).replace(TORCH_DTYPE_NAMES[dt_a], dt_a, 1)
    want = want[::-1].replace(TORCH_DTYPE_NAMES[dt_b][::-1], dt_b[::-1], 1)[::-1]
    assert want.startswith("torch.") and str(ce.value) == want[len("torch."):]

"""The unary math ops of issue 14 against torch 1.13: values and gradients for float32/float64, half and
bfloat16 within tolerance, integer and bool inputs promoting, complex where torch computes them (with torch's
gradient convention), domain edges, empty and 0-d tensors, in-place methods, aliases and refusals."""
import numpy as np
import pytest

import ctensor as ct

from conftest import ct_torch_pair, requires_torch

# op -> (low, high) of the random inputs (inside the domain, away from poles)
DOMAINS = {
    "asin": (-0.9, 0.9), "acos": (-0.9, 0.9), "atan": (-3, 3), "sinh": (-2, 2), "cosh": (-2, 2),
    "asinh": (-3, 3), "acosh": (1.2, 4), "atanh": (-0.9, 0.9), "erf": (-2, 2), "erfc": (-2, 2),
    "erfinv": (-0.95, 0.95), "lgamma": (-3.7, 5), "digamma": (-3.7, 5), "logit": (0.05, 0.95), "sinc": (-2.5, 2.5),
    "sgn": (-2, 2), "deg2rad": (-400, 400), "rad2deg": (-7, 7), "i0": (-6, 6), "positive": (-2, 2),
}
BOOL_OPS = ("signbit", "isposinf", "isneginf")
COMPLEX_OPS = ("asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "sinc", "sgn")


def _values(op, rng, shape=(3, 4)):
    lo, hi = DOMAINS[op]
    a = rng.uniform(lo, hi, shape)
    if op in ("lgamma", "digamma"):
        a = np.where(np.abs(a - np.round(a)) < 0.1, a + 0.3, a)  # away from the poles at non-positive integers
    return a


def _close(c, t, tol):
    torch = requires_torch()
    assert c.dtype.name == str(t.dtype).replace("torch.", "")
    np.testing.assert_allclose(np.asarray(c.detach().to(ct.float64) if c.dtype.is_floating_point else c.detach()),
                               t.detach().to(torch.float64).numpy() if t.dtype.is_floating_point else t.numpy(),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("op", sorted(DOMAINS))
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-10), (np.float32, 2e-5)])
def test_values_and_gradients_vs_torch(op, dtype, tol, rng):
    torch = requires_torch()
    c, t = ct_torch_pair(_values(op, rng), dtype, grad=True)
    yc, yt = getattr(ct, op)(c), getattr(torch, op)(t)
    _close(yc, yt, tol)
    g = rng.standard_normal(yt.shape).astype(dtype)
    yc.backward(ct.tensor(g))
    yt.backward(torch.tensor(g))
    # torch 1.13 gives real sgn an "efficient zero tensor" gradient, whose numpy() reads no real memory
    tg = torch.zeros_like(t) if t.grad._is_zerotensor() else t.grad
    np.testing.assert_allclose(c.grad.numpy(), tg.numpy(), rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("op", sorted(DOMAINS))
def test_double_backward_vs_torch(op, rng):
    torch = requires_torch()
    if op in ("positive", "deg2rad", "rad2deg", "sgn"):  # constant first derivatives: nothing to differentiate
        return
    c, t = ct_torch_pair(_values(op, rng, (5,)), np.float64, grad=True)
    (gc,) = ct.autograd.grad(getattr(ct, op)(c).sum(), [c], create_graph=True)
    (gt,) = torch.autograd.grad(getattr(torch, op)(t).sum(), [t], create_graph=True)
    (ggc,) = ct.autograd.grad((gc * gc).sum(), [c])
    (ggt,) = torch.autograd.grad((gt * gt).sum(), [t])
    np.testing.assert_allclose(ggc.numpy(), ggt.numpy(), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("op", sorted(DOMAINS) + list(BOOL_OPS))
@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_half_types_compute_in_float32(op, half, rng):
    torch = requires_torch()
    a = _values(op if op in DOMAINS else "sinh", rng)
    c = ct.tensor(a.astype(np.float32)).to(getattr(ct, half))
    y = getattr(ct, op)(c)
    # torch 1.13's CPU kernels refuse half for most of these ops: the reference is float32 rounded to the half type
    ref = getattr(torch, op)(torch.tensor(a, dtype=getattr(torch, half)).float())
    ref = ref if ref.dtype == torch.bool else ref.to(getattr(torch, half))
    assert y.dtype is (ct.bool if op in BOOL_OPS else getattr(ct, half))
    tol = 1e-2 if half == "float16" else 2e-2
    np.testing.assert_allclose(np.asarray(y.to(ct.float64)), ref.double().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("op", sorted(DOMAINS) + list(BOOL_OPS))
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_integer_and_bool_inputs_as_torch(op, dtype):
    torch = requires_torch()
    a = np.array([-2, -1, 0, 1, 3]) if dtype is not np.bool_ else np.array([True, False, True])
    c, t = ct_torch_pair(a, dtype)
    try:
        yt = getattr(torch, op)(t)
    except RuntimeError:
        with pytest.raises(Exception, match=op):
            getattr(ct, op)(c)
        return
    yc = getattr(ct, op)(c)
    assert yc.dtype.name == str(yt.dtype).replace("torch.", "")
    np.testing.assert_allclose(np.asarray(yc).astype(np.float64), yt.numpy().astype(np.float64), rtol=1e-6,
                               atol=1e-6, equal_nan=True)


SPECIAL = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, -1e30, 0.5, 1.0, -1.0, 2.0, -2.0, -2.5]


@pytest.mark.parametrize("op", sorted(set(DOMAINS) - {"i0", "sgn"}) + list(BOOL_OPS))
def test_special_values_as_torch(op):
    torch = requires_torch()
    c, t = ct_torch_pair(np.array(SPECIAL), np.float64)
    yc, yt = getattr(ct, op)(c), getattr(torch, op)(t)
    a, b = np.asarray(yc).astype(np.float64), yt.numpy().astype(np.float64)
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-300, equal_nan=True)
    assert np.array_equal(np.signbit(a[~np.isnan(a)]), np.signbit(b[~np.isnan(b)]))


def test_domain_edges():
    assert np.isnan(ct.acosh(ct.tensor([0.5])).item())
    assert ct.atanh(ct.tensor([1.0])).item() == float("inf")
    assert ct.erfinv(ct.tensor([1.0])).item() == float("inf")
    assert ct.erfinv(ct.tensor([-1.0])).item() == float("-inf")
    assert ct.lgamma(ct.tensor([-1.0, -2.0])).tolist() == [float("inf")] * 2
    assert ct.i0(ct.tensor([800.0], dtype=ct.float64)).item() == float("inf")


@pytest.mark.parametrize("eps", [None, 0.0, 1e-6, 0.1, 0.5])
def test_logit_eps_values_and_gradients(eps):
    torch = requires_torch()
    a = np.array([-0.5, 0.0, 0.05, 0.3, 0.5, 0.95, 1.0, 1.5])
    c, t = ct_torch_pair(a, np.float64, grad=True)
    yc, yt = ct.logit(c, eps), torch.logit(t, eps)
    np.testing.assert_allclose(yc.detach().numpy(), yt.detach().numpy(), rtol=1e-12, equal_nan=True)
    yc.sum().backward()
    yt.sum().backward()
    np.testing.assert_allclose(c.grad.numpy(), t.grad.numpy(), rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(c.detach().logit(eps=eps).numpy(), yt.detach().numpy(), rtol=1e-12, equal_nan=True)
    with pytest.raises(Exception, match="logit"):
        ct.logit(c, 0.7)


@pytest.mark.parametrize("op", COMPLEX_OPS)
@pytest.mark.parametrize("dtype,tol", [(np.complex128, 1e-10), (np.complex64, 1e-5)])
def test_complex_values_and_gradients_vs_torch(op, dtype, tol, rng):
    torch = requires_torch()
    a = rng.uniform(-0.9, 0.9, (2, 3)) + 1j * rng.uniform(-0.9, 0.9, (2, 3))
    c, t = ct_torch_pair(a, dtype, grad=True)
    yc, yt = getattr(ct, op)(c), getattr(torch, op)(t)
    assert yc.dtype.name == str(yt.dtype).replace("torch.", "")
    np.testing.assert_allclose(np.asarray(yc.detach()), yt.detach().numpy(), rtol=tol, atol=tol)
    # a real loss of the complex result: torch's gradient convention
    (yc.real * 1.5 + yc.imag * -0.5).sum().backward()
    (yt.real * 1.5 + yt.imag * -0.5).sum().backward()
    np.testing.assert_allclose(np.asarray(c.grad), t.grad.numpy(), rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("op", sorted(set(DOMAINS) - set(COMPLEX_OPS) - {"positive"}) + list(BOOL_OPS))
def test_complex_refused_like_torch(op):
    torch = requires_torch()
    c, t = ct_torch_pair(np.array([1 + 1j]), np.complex64)
    with pytest.raises(RuntimeError):
        getattr(torch, op)(t)
    with pytest.raises(Exception, match=op + ".*complex64"):
        getattr(ct, op)(c)


@pytest.mark.parametrize("op", sorted(DOMAINS) + list(BOOL_OPS))
def test_empty_and_zero_dim(op):
    torch = requires_torch()
    for shape in [(0,), (2, 0, 3), ()]:
        a = np.full(shape, 0.5)
        c, t = ct_torch_pair(a, np.float32)
        yc, yt = getattr(ct, op)(c), getattr(torch, op)(t)
        assert tuple(yc.shape) == tuple(yt.shape)
        assert yc.dtype.name == str(yt.dtype).replace("torch.", "")
        np.testing.assert_allclose(np.asarray(yc).astype(np.float64), yt.numpy().astype(np.float64), rtol=1e-6)


def test_positive_is_self_and_bool_refused():
    x = ct.tensor([1.0, -2.0], requires_grad=True)
    assert ct.positive(x) is x and x.positive() is x
    with pytest.raises(Exception, match="positive"):
        ct.positive(ct.tensor([True]))


def test_inplace_methods_and_aliases():
    torch = requires_torch()
    a = np.array([0.1, -0.4, 0.7])
    for name in ("asin", "acos", "atan", "sinh", "cosh", "asinh", "atanh", "erf", "erfc", "erfinv", "lgamma",
                 "digamma", "sinc", "sgn", "deg2rad", "rad2deg", "i0", "arcsin", "arccos", "arctan", "arcsinh",
                 "arctanh"):
        c, t = ct_torch_pair(a, np.float64)
        r = getattr(c, name + "_")()
        getattr(t, name + "_")()
        assert r is c
        np.testing.assert_allclose(c.numpy(), t.numpy(), rtol=1e-12, err_msg=name)
        np.testing.assert_allclose(getattr(ct, name)(ct.tensor(a)).numpy(), getattr(torch, name)(torch.tensor(a)).numpy(),
                                   rtol=1e-12, err_msg=name)
    c, t = ct_torch_pair(np.array([0.2, 0.9]), np.float64)
    c.logit_(0.25)
    t.logit_(0.25)
    np.testing.assert_allclose(c.numpy(), t.numpy(), rtol=1e-12)
    np.testing.assert_allclose(ct.arccosh(ct.tensor([2.0], dtype=ct.float64)).numpy(), [np.arccosh(2.0)], rtol=1e-14)


def test_digamma_derivatives_vs_mpmath():
    # torch 1.13's trigamma is accurate to ~5e-10 relative; ctensor's polygamma to a few ulp
    mpmath = pytest.importorskip("mpmath")
    v = [0.3, 1.549, 3.966, 7.5, 25.0, -1.5, -3.7]
    x = ct.tensor(v, dtype=ct.float64, requires_grad=True)
    (g1,) = ct.autograd.grad(ct.digamma(x).sum(), [x], create_graph=True)
    (g2,) = ct.autograd.grad(g1.sum(), [x])
    for n, g in ((1, g1), (2, g2)):
        ref = [float(mpmath.polygamma(n, mpmath.mpf(a))) for a in v]
        np.testing.assert_allclose(g.detach().numpy(), ref, rtol=1e-13)
    np.testing.assert_allclose(ct.i0(ct.tensor(v, dtype=ct.float64)).numpy(),
                               [float(mpmath.besseli(0, a)) for a in v], rtol=1e-14)
    np.testing.assert_allclose(ct.erfinv(ct.tensor([0.3, -0.9, 0.999999], dtype=ct.float64)).numpy(),
                               [float(mpmath.erfinv(a)) for a in (0.3, -0.9, 0.999999)], rtol=1e-14)

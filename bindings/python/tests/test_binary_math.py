"""The binary math ops of issue 14 (logaddexp, logaddexp2, hypot, xlogy, copysign, fmax, fmin, heaviside,
nextafter) against torch 1.13: values for every dtype torch accepts (result dtype as torch), broadcasting, mixed
dtypes, Python numbers on either side, edge values, refusals, gradients in float64 and the in-place forms."""
import math

import numpy as np
import pytest

import ctensor as ct
from conftest import requires_torch

INF, NAN = math.inf, math.nan
FLOAT_ONLY = ["logaddexp", "logaddexp2", "hypot", "nextafter"]
PROMOTING = ["xlogy", "copysign"]           # integers and bool give the default float dtype
KEEPING = ["fmax", "fmin", "heaviside"]     # any real dtype, integers stay integers
DIFFERENTIABLE = ["logaddexp", "logaddexp2", "hypot", "xlogy", "copysign", "fmax", "fmin"]
ALL = FLOAT_ONLY + PROMOTING + KEEPING


def data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith("int") or dtype == "uint8":
        return rng.integers(-3 if dtype != "uint8" else 0, 4, shape).astype(dtype)
    v = rng.standard_normal(shape) * 2
    v[..., 0] = 0.0  # zeros reach xlogy's and heaviside's special cases
    return v.astype(np.float32 if dtype in ("float16", "bfloat16") else dtype)


def pair(torch, arr, dtype):
    return ct.tensor(arr).to(getattr(ct, dtype)), torch.tensor(arr).to(getattr(torch, dtype))


def host(t):
    t = t.detach()
    return t.double().numpy() if t.dtype.is_floating_point else t.numpy()


def same_dtype(c, t):
    assert str(c.dtype).split(".")[-1] == str(t.dtype).split(".")[-1], (c.dtype, t.dtype)


def torch_accepts(torch, name, a, b):
    try:
        return getattr(torch, name)(a, b)
    except (RuntimeError, TypeError):
        return None


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16", "int64", "int32", "uint8", "bool"])
def test_values_and_dtypes_against_torch(name, dtype):
    torch = requires_torch()
    a, ta = pair(torch, data(dtype, (3, 1, 4), 1), dtype)
    b, tb = pair(torch, data(dtype, (2, 4), 2), dtype)
    want = torch_accepts(torch, name, ta, tb)
    if name == "nextafter" and dtype in ("float16", "bfloat16"):  # ctensor: float32 / float64 only
        with pytest.raises(TypeError, match="nextafter: not implemented for " + dtype):
            ct.nextafter(a, b)
        return
    if want is None and not (dtype == "float16" and name in FLOAT_ONLY):
        with pytest.raises(TypeError, match=name):
            getattr(ct, name)(a, b)
        return
    if want is None:  # torch 1.13's CPU lacks the float16 kernel: the reference is float32, rounded
        want = getattr(torch, name)(ta.float(), tb.float()).half()
    got = getattr(ct, name)(a, b)
    same_dtype(got, want)
    assert tuple(got.shape) == tuple(want.shape)
    tol = {"float16": 2e-3, "bfloat16": 1e-2, "float32": 1e-6}.get(dtype, 1e-12)
    np.testing.assert_allclose(host(got), host(want), rtol=tol, atol=tol, equal_nan=True)
    np.testing.assert_allclose(host(getattr(a, name)(b)), host(want), rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("da,db", [("float32", "float64"), ("int64", "float32"), ("float64", "int32"),
                                   ("bfloat16", "float32"), ("bool", "float64")])
def test_mixed_dtypes_follow_torch(name, da, db):
    torch = requires_torch()
    a, ta = pair(torch, data(da, (2, 3), 3), da)
    b, tb = pair(torch, data(db, (3,), 4), db)
    want = torch_accepts(torch, name, ta, tb)
    if want is None:
        with pytest.raises(TypeError, match=name):
            getattr(ct, name)(a, b)
        return
    got = getattr(ct, name)(a, b)
    same_dtype(got, want)
    tol = 1e-2 if "bfloat16" in (da, db) else 1e-6
    np.testing.assert_allclose(host(got), host(want), rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("name,number", [("xlogy", 2.5), ("xlogy", 3), ("copysign", -2.0), ("copysign", 1)])
def test_number_operands_as_torch(name, number):
    torch = requires_torch()
    arr = data("float32", (5,), 5)
    x, tx = ct.tensor(arr), torch.tensor(arr)
    for got, want in [(getattr(ct, name)(x, number), getattr(torch, name)(tx, number))] + (
            [(ct.xlogy(number, x.abs()), torch.xlogy(number, tx.abs()))] if name == "xlogy" else []):
        same_dtype(got, want)
        np.testing.assert_allclose(host(got), host(want), rtol=1e-6, equal_nan=True)
    ix, tix = ct.tensor([1, -2, 0]), torch.tensor([1, -2, 0])
    got, want = getattr(ct, name)(ix, number), getattr(torch, name)(tix, number)
    same_dtype(got, want)
    np.testing.assert_allclose(host(got), host(want), rtol=1e-6, equal_nan=True)


def test_edge_values():
    torch = requires_torch()
    cases = [
        ("logaddexp", [-INF, INF, -INF, 1000.0, NAN, 5.0], [-INF, INF, 2.0, 1000.0, 1.0, NAN]),
        ("logaddexp2", [-INF, INF, -INF, 1000.0, NAN, -INF], [-INF, INF, 2.0, 1000.0, 1.0, INF]),
        ("xlogy", [0.0, 0.0, 0.0, 0.0, NAN, 1.0, 2.0], [0.0, NAN, INF, -1.0, 1.0, 0.0, -1.0]),
        ("fmax", [NAN, 1.0, NAN, -0.0, INF], [2.0, NAN, NAN, 0.0, NAN]),
        ("fmin", [NAN, 1.0, NAN, -0.0, -INF], [2.0, NAN, NAN, 0.0, NAN]),
        ("hypot", [INF, 3e300, 0.0, -INF], [NAN, 4e300, -0.0, 1.0]),
        ("copysign", [2.0, -3.0, NAN, 0.0], [-0.0, 0.0, -1.0, -INF]),
        ("heaviside", [-1.0, 0.0, -0.0, 2.0, NAN, INF], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("nextafter", [0.0, 1.0, 1.0, INF, NAN, 0.0], [1.0, 1.0, 0.0, 0.0, 1.0, -0.0]),
    ]
    for name, x, y in cases:
        for dtype in ("float32", "float64"):
            got = getattr(ct, name)(ct.tensor(x).to(getattr(ct, dtype)), ct.tensor(y).to(getattr(ct, dtype)))
            want = getattr(torch, name)(torch.tensor(x).to(getattr(torch, dtype)),
                                        torch.tensor(y).to(getattr(torch, dtype)))
            np.testing.assert_array_equal(np.signbit(host(got)), np.signbit(host(want)), err_msg=name)
            np.testing.assert_allclose(host(got), host(want), rtol=1e-15, atol=0, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
@pytest.mark.parametrize("shapes", [[(3, 4), (3, 4)], [(2, 1, 4), (3, 1)], [(4,), ()]])
def test_gradients_against_torch(name, shapes):
    torch = requires_torch()
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(s) for s in shapes]
    if name == "xlogy":
        arrays[1] = np.abs(arrays[1]) + 0.5
        arrays[0].flat[0] = 0.0  # torch's gradient there is log(b), not 0
    xs = [ct.tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, tout = getattr(ct, name)(*xs), getattr(torch, name)(*ts)
    np.testing.assert_allclose(host(out), host(tout), rtol=1e-12)
    g = rng.standard_normal(tuple(tout.shape))
    out.backward(ct.tensor(g))
    tout.backward(torch.tensor(g))
    for x, t in zip(xs, ts):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("name", ["fmax", "fmin"])
def test_fmax_fmin_gradient_with_nan_and_ties(name):
    torch = requires_torch()
    x, y = [NAN, 1.0, 2.0, NAN, 3.0], [1.0, NAN, 2.0, NAN, -3.0]
    a, b = ct.tensor(x, requires_grad=True), ct.tensor(y, requires_grad=True)
    ta, tb = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    getattr(ct, name)(a, b).sum().backward()
    getattr(torch, name)(ta, tb).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), ta.grad.numpy())
    np.testing.assert_array_equal(b.grad.numpy(), tb.grad.numpy())


def test_double_backward_against_torch():
    torch = requires_torch()
    for name in ["logaddexp", "logaddexp2", "hypot", "xlogy"]:
        arrays = [np.array([0.3, -1.2, 2.0]), np.array([0.7, 1.5, 0.4])]
        xs = [ct.tensor(a, requires_grad=True) for a in arrays]
        ts = [torch.tensor(a, requires_grad=True) for a in arrays]
        (gc,) = ct.autograd.grad(getattr(ct, name)(*xs).sum(), [xs[0]], create_graph=True)
        (gt,) = torch.autograd.grad(getattr(torch, name)(*ts).sum(), [ts[0]], create_graph=True)
        hc = ct.autograd.grad(gc.sum(), xs, allow_unused=True)
        ht = torch.autograd.grad(gt.sum(), ts, allow_unused=True)
        for u, v in zip(hc, ht):
            u = np.zeros(3) if u is None else u.numpy()
            v = np.zeros(3) if v is None else v.numpy()
            np.testing.assert_allclose(u, v, rtol=1e-10, atol=1e-12, err_msg=name)


def test_no_gradient_ops_and_refusals():
    a = ct.tensor([1.0, -2.0], requires_grad=True)
    assert not ct.heaviside(a, ct.tensor([0.5, 0.5])).requires_grad
    assert not ct.nextafter(a, ct.tensor([0.0, 0.0])).requires_grad
    with pytest.raises(TypeError, match="heaviside: input and values must have one dtype"):
        ct.heaviside(ct.tensor([1.0]), ct.tensor([1.0], dtype=ct.float64))
    with pytest.raises(TypeError, match="logaddexp: not implemented for int64"):
        ct.logaddexp(ct.tensor([1]), ct.tensor([2]))
    with pytest.raises(ValueError, match="hypot"):
        ct.hypot(ct.ones(2), ct.ones(3))
    z = ct.complex(ct.ones(2), ct.ones(2))
    for name in ALL:
        with pytest.raises((TypeError, NotImplementedError)):
            getattr(ct, name)(z, z)


@pytest.mark.parametrize("name", ["hypot", "xlogy", "copysign", "heaviside", "nextafter"])
def test_inplace_forms(name):
    torch = requires_torch()
    x, y = [1.5, -2.0, 0.0], [0.5, 3.0, -1.0]
    a, ta = ct.tensor(x), torch.tensor(x)
    r = getattr(a, name + "_")(ct.tensor(y))
    getattr(ta, name + "_")(torch.tensor(y))
    assert r is a
    np.testing.assert_allclose(a.numpy(), ta.numpy(), rtol=1e-6, equal_nan=True)


def test_empty_and_zero_dim():
    for name in ALL:
        e = getattr(ct, name)(ct.zeros(0, 3), ct.tensor(2.0))
        assert tuple(e.shape) == (0, 3)
        assert tuple(getattr(ct, name)(ct.tensor(1.0), ct.tensor(2.0)).shape) == ()


@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("value", [1, -0.5, 2])
def test_addcmul_addcdiv_against_torch(name, value):
    torch = requires_torch()
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal((3,)), rng.standard_normal((2, 1)), np.abs(rng.standard_normal((1, 3))) + 0.5]
    xs = [ct.tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, tout = getattr(ct, name)(*xs, value=value), getattr(torch, name)(*ts, value=value)
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), rtol=1e-12)
    g = rng.standard_normal(tuple(tout.shape))
    out.backward(ct.tensor(g))
    tout.backward(torch.tensor(g))
    for x, t in zip(xs, ts):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
    # methods, in-place forms and float32 / mixed dtypes
    a32, t32 = ct.tensor(arrays[0], dtype=ct.float32), torch.tensor(arrays[0], dtype=torch.float32)
    i, ti = ct.tensor([1, 2, 3]), torch.tensor([1, 2, 3])
    got, want = getattr(a32, name)(i, a32, value=value), getattr(t32, name)(ti, t32, value=value)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    assert getattr(a32, name + "_")(a32, a32, value=value) is a32
    getattr(t32, name + "_")(t32, t32, value=value)
    np.testing.assert_allclose(a32.numpy(), t32.numpy(), rtol=1e-5, atol=1e-6)  # one rounding in another order


def test_addc_integer_rules_as_torch():
    torch = requires_torch()
    i, ti = ct.tensor([1, 2, 3]), torch.tensor([1, 2, 3])
    got, want = ct.addcmul(i, i, i, value=2.7), torch.addcmul(ti, ti, ti, value=2.7)
    assert got.tolist() == want.tolist() and got.dtype == ct.int64
    with pytest.raises(TypeError, match="addcdiv: integer division"):
        ct.addcdiv(i, i, i)
    with pytest.raises(ValueError, match="addcmul"):
        ct.addcmul(ct.ones(2, 3), ct.ones(4), ct.ones(3))

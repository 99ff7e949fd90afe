"""The last reduction / product ops of issue 14 against torch 1.13: logcumsumexp, aminmax, var_mean, std_mean, kron,
tensordot, inner - values and gradients for every dtype torch accepts, dims (negative, several, none), keepdim, 0-d
and empty inputs, -inf / NaN, and errors (ctensor's exception kinds; torch raises too)."""
import numpy as np
import pytest

import ctensor as ct

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(1414)
NAN, INF = float("nan"), float("inf")
CT_DT = {"float32": ct.float32, "float64": ct.float64, "float16": ct.float16, "bfloat16": ct.bfloat16,
         "int64": ct.int64, "int32": ct.int32, "int16": ct.int16, "int8": ct.int8, "uint8": ct.uint8, "bool": ct.bool}
TORCH_DT = {k: getattr(torch, k) for k in CT_DT}
TOL = {"float64": 1e-12, "float32": 1e-5, "float16": 2e-3, "bfloat16": 2e-2}


def both(a, dtype="float64", requires_grad=False):
    t = torch.tensor(np.asarray(a, dtype=np.float64)).to(TORCH_DT[dtype])
    c = ct.tensor(np.asarray(a, dtype=np.float64)).to(CT_DT[dtype])
    if requires_grad:
        t.requires_grad_(True)
        c.requires_grad_(True)
    return c, t


def check(c, t, tol=1e-12):
    assert tuple(c.shape) == tuple(t.shape), (tuple(c.shape), tuple(t.shape))
    assert str(c.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
    cv = c.detach().to(ct.float64).numpy() if c.dtype != ct.bool else c.numpy()
    tv = t.detach().to(torch.float64).numpy() if t.dtype != torch.bool else t.numpy()
    np.testing.assert_allclose(cv, tv, rtol=tol, atol=tol, equal_nan=True)


def grads_match(fc, ft, a, dtype="float64", tol=1e-10):
    """Values and the gradient of sum(w * f(x)) for a random w (every output of a tuple result)."""
    xc, xt = both(a, dtype, requires_grad=True)
    yc, yt = fc(xc), ft(xt)
    yc, yt = (yc, yt) if isinstance(yt, tuple) else ((yc,), (yt,))
    lc, lt = 0, 0
    for c, t in zip(yc, yt):
        check(c, t, tol)
        w = RNG.standard_normal(tuple(t.shape))
        lc = (c * ct.tensor(w).to(c.dtype)).sum() + lc
        lt = (t * torch.tensor(w).to(t.dtype)).sum() + lt
    lc.backward()
    lt.backward()
    check(xc.grad, xt.grad, tol)


# ---- logcumsumexp ----

@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16"])
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), -2),
                                       ((), 0), ((), -1), ((0, 3), 0), ((2, 0), 1), ((4, 1), 1)])
def test_logcumsumexp_values_and_grads(dtype, shape, dim):
    a = RNG.standard_normal(shape) * 3
    grads_match(lambda x: ct.logcumsumexp(x, dim), lambda x: torch.logcumsumexp(x, dim), a, dtype, TOL[dtype])
    xc, xt = both(a, dtype)
    check(xc.logcumsumexp(dim), xt.logcumsumexp(dim), TOL[dtype])


def test_logcumsumexp_float16_is_computed_in_float32():  # torch 1.13's CPU has no float16 kernel: compare via float32
    a = RNG.standard_normal((3, 5))
    xc, _ = both(a, "float16")
    ref = torch.logcumsumexp(torch.tensor(a).half().float(), 1).half()
    check(ct.logcumsumexp(xc, 1), ref, 2e-3)


def test_logcumsumexp_extremes_and_infinities():
    a = [-INF, -INF, 1.0, NAN, 2.0]
    check(ct.logcumsumexp(both(a)[0], 0), torch.logcumsumexp(both(a)[1], 0))
    for a in ([INF, -INF, 1.0, INF], [-1000.0, 0.0, 1000.0], [1e300, -1e300, 5.0]):
        grads_match(lambda x: ct.logcumsumexp(x, 0), lambda x: torch.logcumsumexp(x, 0), a)
    # -inf inputs: gradients as torch gives them (NaN at the -inf positions, finite after)
    grads_match(lambda x: ct.logcumsumexp(x, 0), lambda x: torch.logcumsumexp(x, 0), [-INF, -INF, 1.0, 2.0])
    grads_match(lambda x: ct.logcumsumexp(x, 0), lambda x: torch.logcumsumexp(x, 0), [0.5, -INF, 1.0])


def test_logcumsumexp_double_backward():
    a = RNG.standard_normal((2, 4))
    xc, xt = both(a, requires_grad=True)
    gc, = ct.autograd.grad(ct.logcumsumexp(xc, 1).sum(), xc, create_graph=True)
    gt, = torch.autograd.grad(torch.logcumsumexp(xt, 1).sum(), xt, create_graph=True)
    check(gc, gt)
    (gc * gc).sum().backward()
    (gt * gt).sum().backward()
    check(xc.grad, xt.grad, 1e-10)


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_logcumsumexp_refuses_non_floating(dtype):
    xc, xt = both([1, 0], dtype)
    with pytest.raises(TypeError, match="logcumsumexp"):
        ct.logcumsumexp(xc, 0)
    with pytest.raises(RuntimeError):
        torch.logcumsumexp(xt, 0)


def test_logcumsumexp_errors():
    xc, xt = both([[1.0, 2.0]])
    for d in (2, -3):
        with pytest.raises(IndexError):
            ct.logcumsumexp(xc, d)
        with pytest.raises(IndexError):
            torch.logcumsumexp(xt, d)
    with pytest.raises(TypeError, match="logcumsumexp"):
        ct.logcumsumexp(ct.tensor([1 + 1j]), 0)
    with pytest.raises(RuntimeError):
        torch.logcumsumexp(torch.tensor([1 + 1j]), 0)


# ---- aminmax ----

@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "int16", "int8", "uint8", "bool", "bfloat16"])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (None, True), (0, False), (1, True), (-1, False), (-2, True)])
def test_aminmax_values(dtype, dim, keepdim):
    a = RNG.integers(0 if dtype in ("uint8", "bool") else -50, 2 if dtype == "bool" else 50, (3, 4))
    xc, xt = both(a, dtype)
    if dtype == "bfloat16":  # torch 1.13's CPU aminmax has no bfloat16 kernel: compare with its float32 result
        xt = xt.float()
    rc, rt = ct.aminmax(xc, dim=dim, keepdim=keepdim), torch.aminmax(xt, dim=dim, keepdim=keepdim)
    if dtype == "bfloat16":
        rt = type(rt)((rt.min.bfloat16(), rt.max.bfloat16()))
    check(rc.min, rt.min)
    check(rc.max, rt.max)
    m2 = xc.aminmax(dim=dim, keepdim=keepdim)
    check(m2[0], rt[0])
    check(m2[1], rt[1])


@pytest.mark.parametrize("a,dim,keepdim", [(3.5, None, False), (3.5, None, True), (3.5, 0, False), (3.5, 0, True),
                                           ([1.0, NAN, -INF, 3.0], None, False), ([INF, -INF], 0, False),
                                           (np.zeros((0, 3)), 1, False), (np.zeros((0, 3)), 1, True),
                                           (RNG.standard_normal(1000), 0, False), (RNG.standard_normal((7, 33)), -1, True)])
def test_aminmax_edges(a, dim, keepdim):
    xc, xt = both(a)
    rc, rt = ct.aminmax(xc, dim=dim, keepdim=keepdim), torch.aminmax(xt, dim=dim, keepdim=keepdim)
    check(rc.min, rt.min)
    check(rc.max, rt.max)


def test_aminmax_errors_and_no_gradient():
    for a, dim in ((np.zeros(0), None), (np.zeros((0, 3)), 0)):
        xc, xt = both(a)
        with pytest.raises(IndexError, match="aminmax"):
            ct.aminmax(xc, dim=dim)
        with pytest.raises((IndexError, RuntimeError)):
            torch.aminmax(xt, dim=dim)
    with pytest.raises(IndexError):
        ct.aminmax(both([1.0])[0], dim=1)
    with pytest.raises(TypeError, match="aminmax"):
        ct.aminmax(ct.tensor([1 + 1j]))
    with pytest.raises(TypeError):
        ct.aminmax(both([1.0])[0], dim=1.5)
    # torch 1.13 has no derivative for aminmax (backward raises); ctensor's results carry no history
    xc, xt = both([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError):
        torch.aminmax(xt).min.backward()
    assert not ct.aminmax(xc).min.requires_grad
    with pytest.raises(RuntimeError):
        ct.aminmax(xc).min.backward()


# ---- var_mean / std_mean ----

@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kwargs", [{}, {"dim": 1}, {"dim": -1, "keepdim": True}, {"dim": (0, 2)}, {"dim": [-1, 0]},
                                    {"dim": None, "unbiased": False}, {"dim": 1, "unbiased": True, "keepdim": True},
                                    {"dim": 0, "correction": 0}, {"dim": 2, "correction": 2}])
def test_stat_mean_values_and_grads(name, dtype, kwargs):
    a = RNG.standard_normal((3, 4, 5))
    fc, ft = getattr(ct, name), getattr(torch, name)
    grads_match(lambda x: fc(x, **kwargs), lambda x: ft(x, **kwargs), a, dtype, TOL[dtype])


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_stat_mean_forms_and_edges(name):
    fc, ft = getattr(ct, name), getattr(torch, name)
    a = RNG.standard_normal((3, 4))
    xc, xt = both(a)
    for rc, rt in ((fc(xc, False), ft(xt, False)), (fc(xc, 1, False, True), ft(xt, 1, False, True))):
        check(rc[0], rt[0])
        check(rc[1], rt[1])
    for a, kw in ((2.5, {}), (np.zeros((0, 3)), {"dim": 0}), (np.zeros((0, 3)), {"dim": 1}), (np.ones(1), {})):
        xc, xt = both(a)
        rc, rt = fc(xc, **kw), ft(xt, **kw)
        check(rc[0], rt[0])
        check(rc[1], rt[1])
    xc, xt = both(a, "float16")  # torch 1.13 accepts float16 here; ctensor computes in float32
    rc, rt = fc(both(np.ones((2, 3)), "float16")[0]), ft(both(np.ones((2, 3)), "float16")[1])
    check(rc[0], rt[0], 2e-3)
    check(rc[1], rt[1], 2e-3)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_stat_mean_errors(name):
    fc, ft = getattr(ct, name), getattr(torch, name)
    xc, xt = both([1, 2], "int64")
    with pytest.raises(TypeError, match=name):
        fc(xc)
    with pytest.raises(RuntimeError):
        ft(xt)
    xc, xt = both([[1.0, 2.0]])
    with pytest.raises(IndexError):
        fc(xc, 2)
    with pytest.raises(IndexError):
        ft(xt, 2)
    with pytest.raises(RuntimeError):
        fc(xc, 0, unbiased=True, correction=1)


# ---- kron ----

@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 2)), ((2, 3), (4,)), ((3,), (2, 2, 2)), ((), (3,)), ((), ()),
                                   ((2, 0), (3, 4)), ((1, 2, 1), (2, 1, 3))])
def test_kron_values_and_grads(sa, sb):
    a, b = RNG.standard_normal(sa), RNG.standard_normal(sb)
    (ac, at), (bc, bt) = both(a, requires_grad=True), both(b, requires_grad=True)
    rc, rt = ct.kron(ac, bc), torch.kron(at, bt)
    check(rc, rt)
    w = RNG.standard_normal(tuple(rt.shape))
    (rc * ct.tensor(w)).sum().backward()
    (rt * torch.tensor(w)).sum().backward()
    check(ac.grad, at.grad, 1e-10)
    check(bc.grad, bt.grad, 1e-10)
    check(ac.detach().kron(bc.detach()), rt)


@pytest.mark.parametrize("da,db", [("float32", "float32"), ("int64", "int64"), ("int64", "float32"),
                                   ("bool", "bool"), ("float32", "float64"), ("int32", "int8")])
def test_kron_dtypes(da, db):
    a, b = RNG.integers(0, 3, (2, 2)), RNG.integers(0, 3, (3,))
    check(ct.kron(both(a, da)[0], both(b, db)[0]), torch.kron(both(a, da)[1], both(b, db)[1]), 1e-6)


# ---- tensordot / inner ----

@pytest.mark.parametrize("sa,sb,dims", [((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])), ((2, 3, 4), (4, 3, 5), 1),
                                        ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (4, 5), 0), ((2, 3, 4), (4, 3, 5), ([-2], [-2])),
                                        ((3, 4), (3, 4), ((0, 1), (0, 1))), ((2, 1, 4), (4, 3, 5), ([1], [1])),
                                        ((2, 3, 4), (4, 1, 5), ([1], [1])), ((2, 0), (0, 3), 1), ((), (), 0),
                                        ((3,), (3,), ([0], [0])), ((2, 3), (3,), [[1], [0]])])
def test_tensordot_values_and_grads(sa, sb, dims):
    a, b = RNG.standard_normal(sa), RNG.standard_normal(sb)
    (ac, at), (bc, bt) = both(a, requires_grad=True), both(b, requires_grad=True)
    rc, rt = ct.tensordot(ac, bc, dims), torch.tensordot(at, bt, dims)
    check(rc, rt)
    w = RNG.standard_normal(tuple(rt.shape))
    (rc * ct.tensor(w)).sum().backward()
    (rt * torch.tensor(w)).sum().backward()
    check(ac.grad, at.grad, 1e-10)
    check(bc.grad, bt.grad, 1e-10)


@pytest.mark.parametrize("dtype", ["float32", "int64", "float64"])
def test_tensordot_dtypes(dtype):
    a, b = RNG.integers(-3, 3, (2, 3, 4)), RNG.integers(-3, 3, (4, 3))
    check(ct.tensordot(both(a, dtype)[0], both(b, dtype)[0], ([1, 2], [1, 0])),
          torch.tensordot(both(a, dtype)[1], both(b, dtype)[1], ([1, 2], [1, 0])), 1e-5)


def test_tensordot_errors():
    a, b = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((4, 3, 5))
    (ac, at), (bc, bt) = both(a), both(b)
    cases = [(2, ValueError, "contracted dimensions need to match"), (-1, RuntimeError, "dims >= 0"),
             (4, IndexError, None), (([1], [1, 0]), ValueError, "same length"),
             (([1, 1], [1, 1]), ValueError, "multiple times"), (([5], [1]), IndexError, None)]
    for dims, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            ct.tensordot(ac, bc, dims)
        with pytest.raises((RuntimeError, IndexError)):
            torch.tensordot(at, bt, dims)
    with pytest.raises(TypeError, match="tensordot"):
        ct.tensordot(ac, bc.to(ct.float32), 1)
    with pytest.raises(RuntimeError):
        torch.tensordot(at, bt.float(), 1)


@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 3)), ((3,), (3,)), ((2, 3, 4), (4,)), ((), (3, 2)), ((2,), ()),
                                   ((0,), (0,)), ((2, 0), (3, 0))])
def test_inner_values_and_grads(sa, sb):
    a, b = RNG.standard_normal(sa), RNG.standard_normal(sb)
    (ac, at), (bc, bt) = both(a, requires_grad=True), both(b, requires_grad=True)
    rc, rt = ct.inner(ac, bc), torch.inner(at, bt)
    check(rc, rt)
    w = RNG.standard_normal(tuple(rt.shape))
    (rc * ct.tensor(w)).sum().backward()
    (rt * torch.tensor(w)).sum().backward()
    check(ac.grad, at.grad, 1e-10)
    check(bc.grad, bt.grad, 1e-10)
    check(ac.detach().inner(bc.detach()), rt)


def test_inner_errors():
    (ac, at), (bc, bt) = both(np.ones((2, 3))), both(np.ones((4, 2)))
    with pytest.raises(ValueError, match="last dimension must match"):
        ct.inner(ac, bc)
    with pytest.raises(RuntimeError, match="last dimension must match"):
        torch.inner(at, bt)


# ---- autocast (torch 1.13's torch.cpu.amp.autocast, the rows in ops/autocast.cpp) ----

AUTOCAST = {
    "logcumsumexp": lambda m, x, y: m.logcumsumexp(x, 0), "var_mean": lambda m, x, y: m.var_mean(x, 1)[0],
    "std_mean": lambda m, x, y: m.std_mean(x)[1], "kron": lambda m, x, y: m.kron(x, y),
    "tensordot": lambda m, x, y: m.tensordot(x, y, 1), "inner": lambda m, x, y: m.inner(x, y),
}


@pytest.mark.parametrize("name", sorted(AUTOCAST))
@pytest.mark.parametrize("dx,dy", [("float32", "float32"), ("bfloat16", "bfloat16"), ("float32", "bfloat16")])
def test_autocast_matches_torch(name, dx, dy):
    a, b = RNG.standard_normal((3, 3)), RNG.standard_normal((3, 3))
    outs = []
    for mod, dts in ((ct, CT_DT), (torch, TORCH_DT)):
        x, y = mod.tensor(a).to(dts[dx]), mod.tensor(b).to(dts[dy])
        with mod.cpu.amp.autocast(dtype=mod.bfloat16):
            outs.append(AUTOCAST[name](mod, x, y))
    ours, ref = outs
    assert ours.dtype.name == str(ref.dtype).replace("torch.", "")
    np.testing.assert_allclose(ours.float().numpy(), ref.float().numpy(), rtol=3e-2, atol=5e-2)

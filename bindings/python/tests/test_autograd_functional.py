"""ctensor.autograd.functional against torch.autograd.functional 1.13: jacobian, hessian, vjp, jvp, hvp and vhp
give torch's values and result structure (Tensor vs tuple, nested tuples) for single and tuple inputs and outputs,
create_graph keeps a differentiable result, strict mode raises where torch does, and bad v raises like torch."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.autograd.functional as AF

from conftest import requires_torch


def shapes_and_values(obj):
    if isinstance(obj, tuple):
        return tuple(shapes_and_values(o) for o in obj)
    return (tuple(obj.shape), obj.detach().numpy())


def assert_same(mine, theirs, rtol=1e-10, atol=1e-12):
    if isinstance(theirs, tuple):
        assert isinstance(mine, tuple) and len(mine) == len(theirs), (type(mine), len(theirs))
        for a, b in zip(mine, theirs):
            assert_same(a, b, rtol, atol)
        return
    assert not isinstance(mine, tuple), "expected a Tensor, got a tuple"
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol)


def both(torch, *arrays):
    return (tuple(ct.tensor(a, dtype=ct.float64) for a in arrays),
            tuple(torch.tensor(a, dtype=torch.float64) for a in arrays))


# functions written once for both libraries (lib is ctensor or torch)
def f_vec(lib):
    return lambda x: (x.exp() * x.sin()).reshape(2, 3) @ lib.ones(3, 2, dtype=lib.float64) + x.sum()


def f_two_in_two_out(lib):
    return lambda x, y: ((x * y).tanh(), (x ** 2).sum() * y)


def f_scalar(lib):
    return lambda x: (x.sin() * x.pow(3)).sum() + (x * x).sum().sqrt()


def f_scalar2(lib):
    return lambda x, y: (x.exp() * y.sin()).sum() + (x ** 2 * y).sum()


@pytest.mark.parametrize("create_graph", [False, True])
def test_jacobian_matches_torch(rng, create_graph):
    torch = requires_torch()
    import torch.autograd.functional as TF

    (x,), (tx,) = both(torch, rng.standard_normal(6))
    assert_same(AF.jacobian(f_vec(ct), x, create_graph=create_graph), TF.jacobian(f_vec(torch), tx,
                                                                                  create_graph=create_graph))
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    (x, y), (tx, ty) = both(torch, a, b)
    mine = AF.jacobian(f_two_in_two_out(ct), (x, y), create_graph=create_graph)
    theirs = TF.jacobian(f_two_in_two_out(torch), (tx, ty), create_graph=create_graph)
    assert_same(mine, theirs)
    assert mine[0][1].shape == (2, 3, 2, 3)
    assert all(not m.requires_grad for row in mine for m in row) or create_graph
    # a tuple of one input keeps the tuple; a tensor output of a tuple input gives a tuple of inputs
    assert_same(AF.jacobian(lambda x: x * 2, (x,)), TF.jacobian(lambda x: x * 2, (tx,)))
    assert_same(AF.jacobian(lambda x, y: x * y, (x, y)), TF.jacobian(lambda x, y: x * y, (tx, ty)))


def test_jacobian_of_unused_input_and_strict(rng):
    torch = requires_torch()
    import torch.autograd.functional as TF

    (x, y), (tx, ty) = both(torch, rng.standard_normal(3), rng.standard_normal(2))
    assert_same(AF.jacobian(lambda x, y: x * 3, (x, y)), TF.jacobian(lambda x, y: x * 3, (tx, ty)))
    with pytest.raises(RuntimeError, match="independent of input 1"):
        AF.jacobian(lambda x, y: x * 3, (x, y), strict=True)
    with pytest.raises(RuntimeError, match="does not require gradients"):
        AF.jacobian(lambda x: ct.ones(2), x, strict=True)
    with pytest.raises(NotImplementedError, match="vectorize"):
        AF.jacobian(lambda x: x, x, vectorize=True)
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        AF.jacobian(lambda x: x, [1.0, 2.0])


@pytest.mark.parametrize("create_graph", [False, True])
def test_hessian_matches_torch(rng, create_graph):
    torch = requires_torch()
    import torch.autograd.functional as TF

    (x,), (tx,) = both(torch, rng.standard_normal(4))
    assert_same(AF.hessian(f_scalar(ct), x, create_graph=create_graph),
                TF.hessian(f_scalar(torch), tx, create_graph=create_graph))
    (x, y), (tx, ty) = both(torch, rng.standard_normal(3), rng.standard_normal(3))
    mine = AF.hessian(f_scalar2(ct), (x, y), create_graph=create_graph)
    assert_same(mine, TF.hessian(f_scalar2(torch), (tx, ty), create_graph=create_graph))
    assert mine[0][1].shape == (3, 3)
    with pytest.raises(RuntimeError, match="single element"):
        AF.hessian(lambda x: x * 2, x)


def test_hessian_create_graph_is_differentiable(rng):
    torch = requires_torch()
    import torch.autograd.functional as TF

    a = rng.standard_normal(3)
    x = ct.tensor(a, dtype=ct.float64, requires_grad=True)
    tx = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    AF.hessian(lambda v: (v ** 4).sum(), x, create_graph=True).sum().backward()
    TF.hessian(lambda v: (v ** 4).sum(), tx, create_graph=True).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("create_graph", [False, True])
def test_vjp_and_jvp_match_torch(rng, create_graph):
    torch = requires_torch()
    import torch.autograd.functional as TF

    (x, y), (tx, ty) = both(torch, rng.standard_normal((2, 3)), rng.standard_normal((2, 3)))
    (v1, v2), (tv1, tv2) = both(torch, rng.standard_normal((2, 3)), rng.standard_normal((2, 3)))
    for fn_name, v, tv in [("vjp", (v1, v2), (tv1, tv2)), ("jvp", (v1, v2), (tv1, tv2))]:
        mine = getattr(AF, fn_name)(f_two_in_two_out(ct), (x, y), v, create_graph=create_graph)
        theirs = getattr(TF, fn_name)(f_two_in_two_out(torch), (tx, ty), tv, create_graph=create_graph)
        assert_same(mine, theirs)
    (x,), (tx,) = both(torch, rng.standard_normal(6))
    (v,), (tv,) = both(torch, rng.standard_normal((2, 2)))
    assert_same(AF.vjp(f_vec(ct), x, v), TF.vjp(f_vec(torch), tx, tv))
    (w,), (tw,) = both(torch, rng.standard_normal(6))
    assert_same(AF.jvp(f_vec(ct), x, w), TF.jvp(f_vec(torch), tx, tw))
    # v=None: scalar output for vjp, single-element input for jvp
    assert_same(AF.vjp(f_scalar(ct), x), TF.vjp(f_scalar(torch), tx))
    (s,), (ts,) = both(torch, np.array([0.7]))
    assert_same(AF.jvp(lambda t: t.exp() * 3, s), TF.jvp(lambda t: t.exp() * 3, ts))


@pytest.mark.parametrize("create_graph", [False, True])
def test_hvp_and_vhp_match_torch(rng, create_graph):
    torch = requires_torch()
    import torch.autograd.functional as TF

    (x, y), (tx, ty) = both(torch, rng.standard_normal(3), rng.standard_normal(3))
    (v1, v2), (tv1, tv2) = both(torch, rng.standard_normal(3), rng.standard_normal(3))
    for fn_name in ("hvp", "vhp"):
        mine = getattr(AF, fn_name)(f_scalar2(ct), (x, y), (v1, v2), create_graph=create_graph)
        theirs = getattr(TF, fn_name)(f_scalar2(torch), (tx, ty), (tv1, tv2), create_graph=create_graph)
        assert_same(mine, theirs)
        mine = getattr(AF, fn_name)(f_scalar(ct), x, v1, create_graph=create_graph)
        theirs = getattr(TF, fn_name)(f_scalar(torch), tx, tv1, create_graph=create_graph)
        assert_same(mine, theirs)
    # closed form: f = x^T A x / 2 has H = (A + A^T) / 2
    a = rng.standard_normal((3, 3))
    A = ct.tensor(a, dtype=ct.float64)
    _, hv = AF.hvp(lambda t: (t @ A @ t) / 2, x, v1)
    np.testing.assert_allclose(hv.numpy(), (a + a.T) / 2 @ v1.numpy(), rtol=1e-12)


def test_results_are_detached_without_create_graph(rng):
    x = ct.tensor(rng.standard_normal(3), dtype=ct.float64, requires_grad=True)
    out, g = AF.vjp(lambda t: (t ** 2).sum(), x)
    assert not out.requires_grad and not g.requires_grad
    out, g = AF.vjp(lambda t: (t ** 2).sum(), x, create_graph=True)
    assert g.requires_grad
    assert x.grad is None  # the functional API never accumulates into .grad


def test_v_errors_like_torch(rng):
    x = ct.tensor(rng.standard_normal(3), dtype=ct.float64)
    with pytest.raises(RuntimeError, match="v has invalid size"):
        AF.vjp(lambda t: t * 2, x, ct.ones(4, dtype=ct.float64))
    with pytest.raises(RuntimeError, match="v can only be None"):
        AF.vjp(lambda t: t * 2, x)
    with pytest.raises(RuntimeError, match="v is a tuple of invalid length"):
        AF.jvp(lambda a, b: a * b, (x, x), (x,))
    with pytest.raises(RuntimeError, match="should return a single Tensor"):
        AF.hvp(lambda t: (t.sum(), t.sum()), x, x)
    z = ct.ones(1, dtype=ct.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="independent of input 0"):
        AF.vjp(lambda t: z.sum(), x, strict=True)
    with pytest.raises(RuntimeError, match="does not require gradients"):
        AF.vjp(lambda t: ct.ones(1, dtype=ct.float64).sum(), x, strict=True)
    with pytest.raises(RuntimeError, match="jacobian of the user-provided function with respect to input 0"):
        AF.hvp(lambda t: (t * 2).sum(), x, x, strict=True)

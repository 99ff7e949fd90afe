"""diagonal (a view), diag, diag_embed, trace, fmod, lerp and logspace: values against NumPy, gradients against
PyTorch, view semantics and errors."""
import numpy as np
import pytest

import ctensor as ct
from conftest import requires_torch


@pytest.mark.parametrize("offset", [0, 1, -1, 3, -3, 7])
@pytest.mark.parametrize("dims", [(0, 1), (1, 0), (-1, 0), (2, 1)])
def test_diagonal_matches_numpy(offset, dims, rng):
    x = rng.standard_normal((3, 4, 5))
    got = ct.tensor(x).diagonal(offset, *dims)
    np.testing.assert_array_equal(got.numpy(), np.diagonal(x, offset, *dims))
    np.testing.assert_array_equal(ct.diagonal(ct.tensor(x), offset=offset, dim1=dims[0], dim2=dims[1]).numpy(),
                                  np.diagonal(x, offset, *dims))


def test_diagonal_is_a_view_and_differentiable():
    m = ct.arange(12.0).reshape(3, 4)
    d = m.diagonal(1)
    d.fill_(-1.0)
    np.testing.assert_array_equal(m.numpy(), [[0, -1, 2, 3], [4, 5, -1, 7], [8, 9, 10, -1]])
    x = ct.ones(3, 3, requires_grad=True)
    (x.diagonal(-1) * ct.tensor([2.0, 3.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 0, 0], [2, 0, 0], [0, 3, 0]])


def test_diag_diag_embed_and_trace_vs_torch(rng):
    torch = requires_torch()
    v, m, b = rng.standard_normal(3), rng.standard_normal((4, 3)), rng.standard_normal((2, 3))
    cases = [
        (lambda lib, t: lib.diag(t, 1), v), (lambda lib, t: lib.diag(t, -2), v), (lambda lib, t: lib.diag(t), m),
        (lambda lib, t: t.diag(-1), m), (lambda lib, t: lib.trace(t), m), (lambda lib, t: t.trace(), m),
        (lambda lib, t: lib.diag_embed(t), b), (lambda lib, t: lib.diag_embed(t, 1, 0, 2), b),
        (lambda lib, t: t.diag_embed(-1, 2, 0), b),
    ]
    for i, (fn, data) in enumerate(cases):
        ct_in, torch_in = ct.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
        ct_out, torch_out = fn(ct, ct_in), fn(torch, torch_in)
        np.testing.assert_allclose(ct_out.detach().numpy(), torch_out.detach().numpy(), err_msg="case %d" % i)
        weights = rng.standard_normal(tuple(torch_out.shape))
        (ct_out * ct.tensor(weights)).sum().backward()
        (torch_out * torch.tensor(weights)).sum().backward()
        np.testing.assert_allclose(ct_in.grad.numpy(), torch_in.grad.numpy(), err_msg="case %d" % i)


def test_fmod_and_lerp_vs_torch(rng):
    torch = requires_torch()
    a = rng.uniform(-5, 5, (3, 4))
    b = rng.uniform(0.5, 2, (3, 4)) * rng.choice([-1, 1], (3, 4))
    ct_a, ct_b = ct.tensor(a, requires_grad=True), ct.tensor(b, requires_grad=True)
    t_a, t_b = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    ct_r, t_r = ct.fmod(ct_a, ct_b), torch.fmod(t_a, t_b)
    np.testing.assert_allclose(ct_r.detach().numpy(), np.fmod(a, b), rtol=1e-12, atol=1e-12)
    ct_r.sum().backward()
    t_r.sum().backward()
    np.testing.assert_allclose(ct_a.grad.numpy(), t_a.grad.numpy())
    np.testing.assert_allclose(ct_b.grad.numpy(), t_b.grad.numpy())
    np.testing.assert_array_equal(ct.tensor([-7, 7, -7, 7]).fmod(ct.tensor([3, 3, -3, -3])).numpy(), [-1, 1, -1, 1])
    assert ct.tensor([-7, 7]).fmod(3).dtype == ct.int64
    np.testing.assert_allclose(ct.tensor(a).fmod(1.5).numpy(), np.fmod(a, 1.5), rtol=1e-12, atol=1e-12)
    ct_w = ct.tensor(rng.uniform(0, 1, (4,)), requires_grad=True)
    t_w = torch.tensor(ct_w.detach().numpy(), requires_grad=True)
    ct_e, t_e = ct.tensor(b, requires_grad=True), torch.tensor(b, requires_grad=True)
    ct_l, t_l = ct.lerp(ct_a.detach().requires_grad_(), ct_e, ct_w), torch.lerp(t_a.detach(), t_e, t_w)
    np.testing.assert_allclose(ct_l.detach().numpy(), t_l.detach().numpy(), rtol=1e-12)
    ct_l.sum().backward()
    t_l.sum().backward()
    np.testing.assert_allclose(ct_w.grad.numpy(), t_w.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(ct_e.grad.numpy(), t_e.grad.numpy(), rtol=1e-12)
    x = ct.zeros(3)
    assert x.lerp_(ct.ones(3), 0.25) is x
    np.testing.assert_allclose(x.numpy(), [0.25] * 3)


def test_logspace():
    np.testing.assert_allclose(ct.logspace(0, 3, 4).numpy(), np.logspace(0, 3, 4), rtol=1e-6)
    np.testing.assert_allclose(ct.logspace(-1, 1, 5, base=2.0, dtype=ct.float64).numpy(),
                               np.logspace(-1, 1, 5, base=2.0), rtol=1e-12)
    assert ct.logspace(0, 1, 3, requires_grad=True).requires_grad


def test_errors():
    with pytest.raises(ValueError, match="diagonal: expected a tensor with at least 2 dims, got \\[3\\]"):
        ct.ones(3).diagonal()
    with pytest.raises(ValueError, match="dim1 and dim2 must differ"):
        ct.ones(2, 2).diagonal(0, 1, -1)
    with pytest.raises(IndexError):
        ct.ones(2, 2).diagonal(0, 0, 2)
    with pytest.raises(RuntimeError, match="diag\\(\\): Supports 1D or 2D tensors. Got 3D"):
        ct.diag(ct.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match="trace: expected a matrix"):
        ct.trace(ct.ones(2))
    with pytest.raises(IndexError, match="diag_embed"):
        ct.diag_embed(ct.ones(2), 0, 0, 0)

"""torch.linalg.eig / eigvals (issue 14) and complex linalg.solve against torch 1.13: values (LAPACK geev on both
sides, so eigenvectors agree including their phase), gradients of phase-invariant losses, the phase error, and
bad input."""
import numpy as np
import pytest
import torch

import ctensor as ct


def pair(x, requires_grad=False):
    t = torch.from_numpy(x.copy()).requires_grad_(requires_grad)
    c = ct.from_numpy(x.copy()).requires_grad_(requires_grad)
    return c, t


def close(c, t, tol):
    np.testing.assert_allclose(c.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-10), (np.float32, 2e-4)])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (2, 1, 3, 3), (1, 1), (0, 3, 3), (2, 0, 0)])
def test_eig_values_match_torch(dtype, tol, shape):
    x = np.random.default_rng(len(shape) * 7 + shape[-1]).standard_normal(shape).astype(dtype)
    c, t = pair(x)
    lc, vc = ct.linalg.eig(c)
    lt, vt = torch.linalg.eig(t)
    assert str(lc.dtype).split(".")[-1] == str(lt.dtype).split(".")[-1]
    assert lc.shape == tuple(lt.shape) and vc.shape == tuple(vt.shape)
    close(lc, lt, tol)
    close(vc, vt, tol)
    close(ct.linalg.eigvals(c), torch.linalg.eigvals(t), tol)
    if x.size:  # A V = V diag(L)
        av = np.asarray(x, dtype=np.complex128) @ vc.numpy()
        np.testing.assert_allclose(av, vc.numpy() * lc.numpy()[..., None, :], atol=tol * 100)


def test_eig_complex_pairs_and_real_eigenvalues():
    rot = np.array([[0.0, -2.0], [2.0, 0.0]])  # eigenvalues +-2i
    lc, vc = ct.linalg.eig(ct.tensor(rot))
    lt, vt = torch.linalg.eig(torch.tensor(rot))
    close(lc, lt, 1e-12)
    close(vc, vt, 1e-12)
    diag = np.diag([3.0, -1.0, 2.0])
    np.testing.assert_allclose(ct.linalg.eigvals(ct.tensor(diag)).numpy(), [3, -1, 2])


@pytest.mark.parametrize("n", [2, 4])
def test_eig_gradients_match_torch(n):
    x = np.random.default_rng(n).standard_normal((2, n, n))
    c, t = pair(x, True)
    w = np.random.default_rng(n + 1).standard_normal((2, n))

    def loss(lib, a):
        lam, v = lib.linalg.eig(a)
        wt = lib.from_numpy(w.copy()) if lib is ct else torch.from_numpy(w.copy())
        # phase-invariant: |V|, real and imaginary parts of the eigenvalues
        return (lam.real * wt).sum() + (lam.imag ** 2).sum() + (v.abs() ** 2 * wt.unsqueeze(-2)).sum()

    loss(ct, c).backward()
    loss(torch, t).backward()
    close(c.grad, t.grad, 1e-8)

    c2, t2 = pair(x, True)
    (ct.linalg.eigvals(c2).real * ct.from_numpy(w.copy())).sum().backward()
    (torch.linalg.eigvals(t2).real * torch.from_numpy(w.copy())).sum().backward()
    close(c2.grad, t2.grad, 1e-8)
    assert c2.grad.dtype == ct.float64


def test_eig_phase_dependent_loss_is_refused():
    x = np.array([[0.0, -2.0, 0.5], [2.0, 0.1, 0.3], [0.2, 0.4, 1.0]])  # a complex pair
    c, t = pair(x, True)
    with pytest.raises(RuntimeError, match="e\\^\\{i phi\\}"):
        torch.linalg.eig(t)[1].real.sum().backward()
    with pytest.raises(Exception, match="e\\^\\{i phi\\}"):
        ct.linalg.eig(c)[1].real.sum().backward()


def test_eig_bad_input():
    with pytest.raises(Exception, match="linalg.eig: A must be batches of square matrices"):
        ct.linalg.eig(ct.ones(2, 3))
    with pytest.raises(Exception, match="at least 2 dimensions"):
        ct.linalg.eigvals(ct.ones(3))
    with pytest.raises(TypeError, match="linalg.eig.*int64"):
        ct.linalg.eig(ct.ones(2, 2, dtype=ct.int64))
    with pytest.raises(TypeError, match="linalg.eigvals.*bool"):
        ct.linalg.eigvals(ct.ones(2, 2, dtype=ct.bool))
    with pytest.raises(ValueError, match="should not contain infs or NaNs"):
        ct.linalg.eig(ct.tensor([[1.0, float("nan")], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="should not contain infs or NaNs"):
        ct.linalg.eigvals(ct.tensor([[1.0, float("inf")], [0.0, 1.0]]))


@pytest.mark.parametrize("dtype,tol", [(np.complex128, 1e-10), (np.complex64, 1e-4)])
def test_complex_solve_values_and_gradients(dtype, tol):
    rng = np.random.default_rng(9)
    a = (rng.standard_normal((2, 4, 4)) + 1j * rng.standard_normal((2, 4, 4)) + 4 * np.eye(4)).astype(dtype)
    b = (rng.standard_normal((2, 4, 3)) + 1j * rng.standard_normal((2, 4, 3))).astype(dtype)
    ca, ta = pair(a, True)
    cb, tb = pair(b, True)
    xc, xt = ct.linalg.solve(ca, cb), torch.linalg.solve(ta, tb)
    close(xc, xt, tol)
    g = (rng.standard_normal((2, 4, 3)) + 1j * rng.standard_normal((2, 4, 3))).astype(dtype)
    (xc * ct.from_numpy(g.copy())).abs().sum().backward()
    (xt * torch.from_numpy(g.copy())).abs().sum().backward()
    close(ca.grad, ta.grad, tol * 10)
    close(cb.grad, tb.grad, tol * 10)
    vec = torch.linalg.solve(ta.detach(), tb.detach()[..., 0])  # a batch of vectors
    close(ct.linalg.solve(ca.detach(), cb.detach()[..., 0]), vec, tol)
    with pytest.raises(TypeError, match="same dtype"):
        ct.linalg.solve(ca.detach(), ct.ones(2, 4, 3, dtype=ct.complex128 if dtype == np.complex64 else ct.complex64))
    with pytest.raises(TypeError, match="same dtype"):
        ct.linalg.solve(ca.detach(), ct.ones(2, 4, 3))


def test_complex_solve_singular():
    a = ct.tensor([[1 + 1j, 2 + 2j], [1 + 1j, 2 + 2j]])
    with pytest.raises(ValueError, match="linalg.solve: The diagonal element 2 is zero"):
        ct.linalg.solve(a, ct.ones(2, dtype=ct.complex64))


def test_eig_double_backward_matches_torch():
    x = np.random.default_rng(5).standard_normal((3, 3))
    c, t = pair(x, True)
    grads = []
    for lib, a in ((ct, c), (torch, t)):
        lam, v = lib.linalg.eig(a)
        loss = (lam.real ** 2).sum() + (v.abs() ** 2 * lib.arange(3.0, dtype=lib.float64)).sum()
        (g,) = (ct.autograd.grad if lib is ct else torch.autograd.grad)(loss, [a], create_graph=True)
        (g ** 2).sum().backward()
        grads.append(a.grad)
    close(grads[0], grads[1], 1e-7)

"""ctensor.linalg against torch.linalg (PyTorch 1.13): values and gradients in float64 (decompositions unique only up
to signs are compared through sign-independent functions of their factors), float32, batched and empty inputs,
the torch aliases (det, inverse, logdet, slogdet and their Tensor methods), and the errors torch raises."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.linalg as LA

from conftest import requires_torch


def _pair(arrays):
    torch = requires_torch()
    return ([ct.tensor(a, requires_grad=True) for a in arrays],
            [torch.tensor(a, requires_grad=True) for a in arrays])


def _compare(fn, arrays, rng, rtol=1e-7, atol=1e-9):
    """fn(module, *inputs) -> tensor or tuple of tensors: values and the gradient of <outputs, g> agree with torch."""
    torch = requires_torch()
    xs, ts = _pair(arrays)
    out_c, out_t = fn(ct, *xs), fn(torch, *ts)
    out_c = out_c if isinstance(out_c, tuple) else (out_c,)
    out_t = out_t if isinstance(out_t, tuple) else (out_t,)
    loss_c, loss_t = 0, 0
    for c, t in zip(out_c, out_t):
        assert tuple(c.shape) == tuple(t.shape)
        np.testing.assert_allclose(c.detach().numpy(), t.detach().numpy(), rtol=rtol, atol=atol)
        if t.requires_grad:
            g = rng.standard_normal(tuple(t.shape))
            loss_c = loss_c + (c * ct.tensor(g)).sum()
            loss_t = loss_t + (t * torch.tensor(g)).sum()
    loss_c.backward()
    loss_t.backward()
    for x, t in zip(xs, ts):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=rtol * 100, atol=atol * 100)


def _wc(rng, *shape):
    """Well-conditioned square matrices: random plus 3 on the diagonal."""
    return rng.standard_normal(shape) + 3 * np.eye(shape[-1])


def _spd(m, x):
    return x @ x.mT + m.eye(x.shape[-1], dtype=x.dtype)


def _sym(x):
    return x + x.mT


def _mat(m):
    return m.linalg


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (2, 1, 2, 2)])
def test_inv_det_slogdet_solve(shape):
    rng = np.random.default_rng(1)
    a = _wc(rng, *shape)
    a[..., 0, :] *= -1  # negative determinants too
    _compare(lambda m, x: _mat(m).inv(x), [a], rng)
    _compare(lambda m, x: _mat(m).det(x), [a], rng)
    _compare(lambda m, x: _mat(m).slogdet(x), [a], rng)
    _compare(lambda m, x, b: _mat(m).solve(x, b), [a, rng.standard_normal(shape[:-1] + (2,))], rng)
    _compare(lambda m, x, b: _mat(m).solve(x, b), [a, rng.standard_normal(shape[:-1])], rng)  # vector rhs
    _compare(lambda m, x, b: _mat(m).solve(x, b, left=False), [a, rng.standard_normal(shape[:-2] + (2, shape[-1]))], rng)


def test_det_gradient_at_singular_matrices():
    a = np.array([[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 5.0]],    # rank 2
                  [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]],    # rank 1: a zero gradient
                  [[2.0, 0.0, 1.0], [0.0, 3.0, 1.0], [1.0, 1.0, 4.0]]])
    # torch 1.13 gives 0 for the rank-2 matrix; the gradient of det is its cofactor matrix wherever A is
    x = ct.tensor(a, requires_grad=True)
    d = LA.det(x)
    np.testing.assert_allclose(d.detach().numpy(), np.linalg.det(a), atol=1e-12)
    d.sum().backward()
    cof = np.array([[[(-1) ** (i + j) * np.linalg.det(np.delete(np.delete(m, i, 0), j, 1)) for j in range(3)]
                     for i in range(3)] for m in a])
    np.testing.assert_allclose(x.grad.numpy(), cof, rtol=1e-9, atol=1e-9)


def test_solve_broadcasts_batches():
    rng = np.random.default_rng(2)
    _compare(lambda m, x, b: _mat(m).solve(x, b), [_wc(rng, 3, 3), rng.standard_normal((2, 3, 1))], rng)
    _compare(lambda m, x, b: _mat(m).solve(x, b), [_wc(rng, 2, 1, 3, 3), rng.standard_normal((4, 3, 2))], rng)
    _compare(lambda m, x, b: _mat(m).solve(x, b), [_wc(rng, 2, 3, 3), rng.standard_normal((3,))], rng)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(upper):
    rng = np.random.default_rng(3)
    _compare(lambda m, x: _mat(m).cholesky(_spd(m, x), upper=upper), [rng.standard_normal((2, 4, 4))], rng)


@pytest.mark.parametrize("upper,left,unit", [(u, l, d) for u in (False, True) for l in (False, True) for d in (False, True)])
def test_solve_triangular(upper, left, unit):
    rng = np.random.default_rng(4)
    b = rng.standard_normal((2, 3, 2) if left else (2, 2, 3))
    _compare(lambda m, x, y: _mat(m).solve_triangular(x, y, upper=upper, left=left, unitriangular=unit),
             [_wc(rng, 3, 3), b], rng)


def test_eigvalsh_svdvals_values_and_gradients():
    rng = np.random.default_rng(5)
    for uplo in ("L", "U"):
        _compare(lambda m, x: _mat(m).eigvalsh(x, UPLO=uplo), [rng.standard_normal((2, 4, 4))], rng)
        _compare(lambda m, x: _mat(m).eigvalsh(_sym(x), UPLO=uplo), [rng.standard_normal((4, 4))], rng)
    for shape in ((4, 3), (3, 5), (2, 3, 3)):
        _compare(lambda m, x: _mat(m).svdvals(x), [rng.standard_normal(shape)], rng)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(shape, mode):
    torch = requires_torch()
    rng = np.random.default_rng(6)
    a = rng.standard_normal(shape)
    q, r = LA.qr(ct.tensor(a), mode=mode)
    tq, tr = torch.linalg.qr(torch.tensor(a), mode=mode)
    assert tuple(q.shape) == tuple(tq.shape) and tuple(r.shape) == tuple(tr.shape)
    # R is unique up to the signs of its rows
    np.testing.assert_allclose(np.abs(r.numpy()), np.abs(tr.numpy()), rtol=1e-9, atol=1e-10)
    if mode != "r":
        np.testing.assert_allclose((q @ r).numpy(), a, rtol=1e-9, atol=1e-10)
    if mode == "reduced" or (mode == "complete" and shape[-2] <= shape[-1]):
        # gradients of sign-independent functions: Q diag(R) and R^T R-like products
        _compare(lambda m, x: (lambda qr: (qr[0] * qr[1].diagonal(dim1=-2, dim2=-1).unsqueeze(-2),
                                            qr[1].mT @ qr[1]))(_mat(m).qr(x, mode=mode)), [a], rng)


def test_eigh():
    rng = np.random.default_rng(7)
    for uplo in ("L", "U"):
        def f(m, x):
            w, v = _mat(m).eigh(x, UPLO=uplo)
            return w, (v * w.unsqueeze(-2) ** 2) @ v.mT, v @ v.mT
        _compare(f, [rng.standard_normal((2, 4, 4))], rng)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("full", [False, True])
def test_svd(shape, full):
    rng = np.random.default_rng(8)
    k = min(shape[-2:])

    def f(m, x):
        u, s, vh = _mat(m).svd(x, full_matrices=full)
        uk, vk = u[..., :k], vh[..., :k, :]
        return s, (uk * s.unsqueeze(-2)) @ vk, uk @ uk.mT, vk.mT @ vk, (uk * s.unsqueeze(-2) ** 2) @ uk.mT
    _compare(f, [rng.standard_normal(shape)], rng, rtol=1e-6)
    u, s, vh = LA.svd(ct.tensor(rng.standard_normal(shape)), full_matrices=full)
    assert u.shape[-1] == (shape[-2] if full else k) and vh.shape[-2] == (shape[-1] if full else k)


def test_float32_and_empty():
    torch = requires_torch()
    rng = np.random.default_rng(9)
    a = _wc(rng, 2, 3, 3).astype(np.float32)
    for name in ("inv", "det", "svdvals"):
        got = getattr(LA, name)(ct.tensor(a))
        assert got.dtype == ct.float32
        np.testing.assert_allclose(got.numpy(), getattr(torch.linalg, name)(torch.tensor(a)).numpy(), rtol=1e-4,
                                   atol=1e-5)
    assert LA.inv(ct.zeros(0, 3, 3)).shape == (0, 3, 3)
    np.testing.assert_array_equal(LA.det(ct.zeros(2, 0, 0)).numpy(), [1, 1])
    s, l = LA.slogdet(ct.zeros(0, 2, 2))
    assert s.shape == (0,) and l.shape == (0,)
    u, s, vh = LA.svd(ct.zeros(3, 0))
    np.testing.assert_array_equal(u.numpy(), np.eye(3))
    assert s.shape == (0,) and vh.shape == (0, 0)
    w, v = LA.eigh(ct.zeros(2, 0, 0))
    assert w.shape == (2, 0) and v.shape == (2, 0, 0)


def test_aliases_and_methods():
    torch = requires_torch()
    rng = np.random.default_rng(10)
    a = _wc(rng, 2, 3, 3)
    a[0, 0, :] *= -1
    x, t = ct.tensor(a), torch.tensor(a)
    np.testing.assert_allclose(ct.det(x).numpy(), torch.det(t).numpy(), rtol=1e-10)
    np.testing.assert_allclose(x.det().numpy(), t.det().numpy(), rtol=1e-10)
    np.testing.assert_allclose(ct.inverse(x).numpy(), torch.inverse(t).numpy(), rtol=1e-10)
    np.testing.assert_allclose(x.inverse().numpy(), t.inverse().numpy(), rtol=1e-10)
    np.testing.assert_allclose(ct.logdet(x).numpy(), torch.logdet(t).numpy(), rtol=1e-10)  # NaN for det < 0
    np.testing.assert_allclose(x.slogdet().logabsdet.numpy(), t.slogdet().logabsdet.numpy(), rtol=1e-10)
    assert ct.logdet(ct.tensor([[1.0, 2.0], [2.0, 4.0]])).item() == float("-inf")


def test_errors():
    with pytest.raises(ValueError, match=r"linalg.inv: \(Batch element 1\): The diagonal element 2 is zero"):
        LA.inv(ct.tensor([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]]))
    with pytest.raises(ValueError, match="linalg.solve: The diagonal element 2 is zero"):
        LA.solve(ct.tensor([[1.0, 2.0], [2.0, 4.0]]), ct.tensor([1.0, 1.0]))
    with pytest.raises(ValueError, match="not positive-definite"):
        LA.cholesky(ct.tensor([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="square matrices, but they are 2 by 3"):
        LA.det(ct.zeros(2, 3))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        LA.inv(ct.zeros(3))
    with pytest.raises(TypeError, match="floating point"):
        LA.inv(ct.tensor([[1, 0], [0, 1]]))
    with pytest.raises(TypeError, match="same dtype"):
        LA.solve(ct.eye(2, dtype=ct.float64), ct.ones(2, dtype=ct.float32))
    with pytest.raises(ValueError, match="Incompatible shapes"):
        LA.solve(ct.eye(2), ct.ones(3))
    with pytest.raises(ValueError, match="unrecognized mode"):
        LA.qr(ct.eye(2), mode="full")
    with pytest.raises(ValueError, match="UPLO"):
        LA.eigh(ct.eye(2), UPLO="X")
    q, r = LA.qr(ct.randn(4, 2, dtype=ct.float64, requires_grad=True), mode="complete")
    with pytest.raises(NotImplementedError, match="mode='complete'"):
        q.sum().backward()


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_lstsq_pinv_matrix_rank(shape):
    torch = requires_torch()
    rng = np.random.default_rng(11)
    a = rng.standard_normal(shape)
    b = rng.standard_normal(shape[:-1] + (2,))
    _compare(lambda m, x, y: _mat(m).lstsq(x, y).solution, [a, b], rng, rtol=1e-6)
    _compare(lambda m, x: _mat(m).pinv(x), [a], rng, rtol=1e-6)
    np.testing.assert_array_equal(LA.matrix_rank(ct.tensor(a)).numpy(), torch.linalg.matrix_rank(torch.tensor(a)).numpy())
    low = a[..., :1] * np.ones(shape[-1])  # rank 1
    np.testing.assert_array_equal(LA.matrix_rank(ct.tensor(low)).numpy(), torch.linalg.matrix_rank(torch.tensor(low)).numpy())
    assert LA.matrix_rank(ct.tensor(low)).dtype == ct.int64
    for atol, rtol in ((0.5, None), (None, 0.3), (0.1, 0.2)):
        np.testing.assert_array_equal(LA.matrix_rank(ct.tensor(a), atol=atol, rtol=rtol).numpy(),
                                      torch.linalg.matrix_rank(torch.tensor(a), atol=atol, rtol=rtol).numpy())
        np.testing.assert_allclose(LA.pinv(ct.tensor(a), atol=atol, rtol=rtol).numpy(),
                                   torch.linalg.pinv(torch.tensor(a), atol=atol, rtol=rtol).numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("ord", ["fro", "nuc", float("inf"), float("-inf"), 1, -1, 2, -2])
def test_matrix_norm(ord):
    rng = np.random.default_rng(12)
    a = rng.standard_normal((2, 3, 4))
    _compare(lambda m, x: _mat(m).matrix_norm(x, ord), [a], rng, rtol=1e-6)
    _compare(lambda m, x: _mat(m).matrix_norm(x, ord, dim=(0, 2), keepdim=True), [a], rng, rtol=1e-6)
    _compare(lambda m, x: _mat(m).norm(x[0], ord), [a], rng, rtol=1e-6)


@pytest.mark.parametrize("ord", [2, 1, 3.5, 0, float("inf"), float("-inf"), -1, -2.5])
def test_vector_norm(ord):
    rng = np.random.default_rng(13)
    a = rng.standard_normal((3, 4))
    fns = [lambda m, x: _mat(m).vector_norm(x, ord), lambda m, x: _mat(m).vector_norm(x, ord, dim=1, keepdim=True),
           lambda m, x: _mat(m).vector_norm(x, ord, dim=(0, 1))]
    for f in fns:
        if ord == 0:  # no gradient: values only
            torch = requires_torch()
            np.testing.assert_allclose(f(ct, ct.tensor(a)).numpy(), f(torch, torch.tensor(a)).numpy())
        else:
            _compare(f, [a], rng, rtol=1e-6)
    _compare(lambda m, x: _mat(m).norm(x), [a], rng)
    _compare(lambda m, x: _mat(m).norm(x, dim=0), [a], rng)


def test_matrix_power_and_cross():
    torch = requires_torch()
    rng = np.random.default_rng(14)
    a = _wc(rng, 2, 3, 3)
    for n in (0, 1, 2, 5, -1, -3):
        _compare(lambda m, x: _mat(m).matrix_power(x, n), [a], rng, rtol=1e-6)
    ints = np.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(LA.matrix_power(ct.tensor(ints), 3).numpy(),
                                  torch.linalg.matrix_power(torch.tensor(ints), 3).numpy())
    np.testing.assert_array_equal(ct.tensor(ints).matrix_power(2).numpy(), np.linalg.matrix_power(ints, 2))
    _compare(lambda m, x, y: _mat(m).cross(x, y), [rng.standard_normal((4, 3)), rng.standard_normal((4, 3))], rng)
    _compare(lambda m, x, y: _mat(m).cross(x, y, dim=0), [rng.standard_normal((3, 2)), rng.standard_normal((3, 1))], rng)
    with pytest.raises(ValueError, match="size 3"):
        LA.cross(ct.zeros(2, 4), ct.zeros(2, 4))
    with pytest.raises(TypeError, match="negative powers"):
        LA.matrix_power(ct.tensor(ints), -1)
    with pytest.raises(ValueError, match="ord must be"):
        ct._C.linalg_matrix_norm(ct.zeros(2, 2), "3", -2, -1, False)
    np.testing.assert_allclose(ct.pinverse(ct.tensor(a)).numpy(), torch.pinverse(torch.tensor(a)).numpy(), rtol=1e-9)

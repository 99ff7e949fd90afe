"""test_linalg_complex.py - torch.linalg on complex64/complex128 (issues 14/15) against PyTorch 1.13: values and
the gradients of real-valued losses ((|f(A)|^2).sum() and a phase-sensitive Re/Im mix where the op's output is
phase-free), batched inputs, real-valued outputs' dtypes, and the errors."""
import numpy as np
import pytest
import torch

import ctensor as ct

TORCH = {np.complex64: torch.complex64, np.complex128: torch.complex128}
DTYPES = [np.complex64, np.complex128]


def tol(dtype):
    return dict(rtol=2e-3, atol=2e-4) if dtype == np.complex64 else dict(rtol=1e-7, atol=1e-9)


def rand(rng, shape, dtype):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def well_conditioned(rng, shape, dtype):
    return (rand(rng, shape, dtype) + 3 * np.eye(shape[-1])).astype(dtype)


def hermitian_pd(rng, shape, dtype):
    x = rand(rng, shape, np.complex128)
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + np.eye(shape[-1])).astype(dtype)


def abs2(o):
    return (o.abs() ** 2).sum()


def re_im(o):  # a loss that sees the phase of a complex output
    return (o.real * 2 + o.imag * 3).sum() if o.dtype.is_complex else (o * 1.5).sum()


def compare(fn, arrays, dtype, loss=abs2):
    """fn(lib, *tensors) in ctensor and torch: equal outputs (as the loss) and equal gradients of the loss."""
    tt = [torch.tensor(a, requires_grad=True) for a in arrays]
    cc = [ct.tensor(a).requires_grad_() for a in arrays]
    total = []
    for lib, xs in ((torch, tt), (ct, cc)):
        out = fn(lib, *xs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        value = sum(loss(o) for o in outs)
        value.backward()
        total.append(value.item())
    np.testing.assert_allclose(total[1], total[0], **tol(dtype))
    for t, c in zip(tt, cc):
        assert c.grad.dtype == c.dtype
        np.testing.assert_allclose(c.grad.numpy(), t.grad.numpy(), **tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_lu_family(dtype):
    rng = np.random.default_rng(1)
    a = well_conditioned(rng, (2, 3, 3), dtype)
    for loss in (abs2, re_im):
        compare(lambda L, x: L.linalg.inv(x), [a], dtype, loss)
        compare(lambda L, x: L.linalg.det(x), [a], dtype, loss)
        compare(lambda L, x: L.linalg.matrix_power(x, 3), [a], dtype, loss)
        compare(lambda L, x: L.linalg.matrix_power(x, -2), [a], dtype, loss)
        compare(lambda L, x, b: L.linalg.solve(x, b), [a, rand(rng, (2, 3, 2), dtype)], dtype, loss)
    # slogdet: the complex unit sign and the real logabsdet, both in the loss
    compare(lambda L, x: L.linalg.slogdet(x), [a], dtype, re_im)
    sign, logabs = ct.linalg.slogdet(ct.tensor(a))
    tsign, tlogabs = torch.linalg.slogdet(torch.tensor(a))
    assert sign.dtype == ct.tensor(a).dtype and logabs.dtype == (ct.float32 if dtype == np.complex64 else ct.float64)
    np.testing.assert_allclose(sign.numpy(), tsign.numpy(), **tol(dtype))
    np.testing.assert_allclose(logabs.numpy(), tlogabs.numpy(), **tol(dtype))


def test_det_of_singular_complex_matrix():
    # the gradient is conj(g cof(A)) (Note [Singular det]); torch 1.13 returns zeros here, so the closed form
    a = ct.tensor(np.array([[1 + 1j, 2 + 2j], [1 + 1j, 2 + 2j]])).requires_grad_()
    d = ct.linalg.det(a)
    assert abs(d.item()) == 0
    (d * (2 - 1j)).real.sum().backward()
    x = 1 + 1j
    cof = np.array([[2 * x, -x], [-2 * x, x]])
    np.testing.assert_allclose(a.grad.numpy(), np.conj((2 - 1j) * cof), rtol=1e-12, atol=1e-12)
    sign, logabs = ct.linalg.slogdet(a.detach())
    assert sign.item() == 0 and logabs.item() == float("-inf")


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_and_triangular(dtype):
    rng = np.random.default_rng(2)
    h = hermitian_pd(rng, (2, 3, 3), dtype)
    for upper in (False, True):
        compare(lambda L, x: L.linalg.cholesky(x, upper=upper), [h], dtype)
        compare(lambda L, x: L.linalg.cholesky(x, upper=upper), [h], dtype, re_im)  # U = L^H, not L^T
    for upper in (False, True):
        for left in (False, True):
            for unit in (False, True):
                b = rand(rng, (2, 3, 4) if left else (2, 4, 3), dtype)
                compare(lambda L, x, y: L.linalg.solve_triangular(x, y, upper=upper, left=left, unitriangular=unit),
                        [well_conditioned(rng, (2, 3, 3), dtype), b], dtype, re_im)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)])
def test_qr_svd_pinv_norms(dtype, shape):
    rng = np.random.default_rng(3)
    a = rand(rng, shape, dtype)
    compare(lambda L, x: L.linalg.qr(x), [a], dtype)
    compare(lambda L, x: L.linalg.qr(x), [a], dtype, re_im)  # Q diag(phase) changes both: still phase-free
    compare(lambda L, x: L.linalg.svdvals(x), [a], dtype)
    compare(lambda L, x: L.linalg.svd(x, full_matrices=False), [a], dtype)
    compare(lambda L, x: L.linalg.pinv(x), [a], dtype, re_im)
    for ord in ("fro", "nuc", 2, -2, 1, -1, float("inf")):
        compare(lambda L, x: L.linalg.matrix_norm(x, ord), [a], dtype, lambda o: o.sum())
    compare(lambda L, x: L.linalg.vector_norm(x, 3), [a], dtype, lambda o: o.sum())
    s = ct.linalg.svdvals(ct.tensor(a))
    assert s.dtype == (ct.float32 if dtype == np.complex64 else ct.float64)
    u, s, vh = ct.linalg.svd(ct.tensor(a), full_matrices=True)  # reconstruction with the full factors
    k = min(shape[-2:])
    rebuilt = u.numpy()[..., :k] * s.numpy()[..., None, :] @ vh.numpy()[..., :k, :]
    np.testing.assert_allclose(rebuilt, a, **tol(dtype))
    assert ct.linalg.matrix_rank(ct.tensor(a)).numpy().tolist() == torch.linalg.matrix_rank(torch.tensor(a)).tolist()


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_eigvalsh(dtype):
    rng = np.random.default_rng(4)
    h = hermitian_pd(rng, (2, 4, 4), dtype)
    for uplo in ("L", "U"):
        compare(lambda L, x: L.linalg.eigh(x, UPLO=uplo), [h], dtype)
        compare(lambda L, x: L.linalg.eigvalsh(x, UPLO=uplo), [h], dtype, re_im)
    w = ct.linalg.eigvalsh(ct.tensor(h))
    assert w.dtype == (ct.float32 if dtype == np.complex64 else ct.float64)
    np.testing.assert_allclose(w.numpy(), torch.linalg.eigvalsh(torch.tensor(h)).numpy(), **tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_eig_eigvals_of_complex_input(dtype):
    rng = np.random.default_rng(5)
    a = rand(rng, (2, 3, 3), dtype)
    compare(lambda L, x: L.linalg.eig(x), [a], dtype)  # |V|^2 and |L|^2: phase-free
    compare(lambda L, x: L.linalg.eigvals(x), [a], dtype, re_im)
    lam, v = ct.linalg.eig(ct.tensor(a))
    assert lam.dtype == ct.tensor(a).dtype and v.dtype == ct.tensor(a).dtype
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * lam.numpy()[..., None, :], **tol(dtype))
    np.testing.assert_allclose(np.sort_complex(lam.numpy().ravel()),
                               np.sort_complex(torch.linalg.eigvals(torch.tensor(a)).numpy().ravel()), **tol(dtype))


def test_complex_errors():
    h = ct.tensor([[1 + 0j, 2], [2, 1]])
    with pytest.raises(ValueError, match="linalg.cholesky: .*not positive-definite"):
        ct.linalg.cholesky(h)
    with pytest.raises(ValueError, match=r"linalg.inv: \(Batch element 1\): The diagonal element 2 is zero"):
        ct.linalg.inv(ct.tensor([[[1 + 0j, 0], [0, 1]], [[1 + 1j, 2 + 2j], [1 + 1j, 2 + 2j]]]))
    with pytest.raises(TypeError, match="linalg.solve_triangular: Expected A and B to have the same dtype"):
        ct.linalg.solve_triangular(h, ct.ones(2, 2), upper=True)
    with pytest.raises(TypeError, match="same dtype"):
        ct.linalg.solve_triangular(h, ct.ones(2, 2, dtype=ct.complex128), upper=True)
    with pytest.raises(TypeError, match="linalg.lstsq: Expected input and other to have the same dtype"):
        ct.linalg.lstsq(h, ct.ones(2, 2))
    with pytest.raises(Exception, match="linalg.eigh: A must be batches of square matrices"):
        ct.linalg.eigh(ct.ones(2, 3, dtype=ct.complex64))
    empty = ct.zeros(0, 3, 3, dtype=ct.complex64)
    assert ct.linalg.inv(empty).shape == (0, 3, 3)
    assert ct.linalg.svdvals(empty).dtype == ct.float32 and ct.linalg.svdvals(empty).shape == (0, 3)
    assert ct.linalg.det(ct.zeros(2, 0, 0, dtype=ct.complex128)).numpy().tolist() == [1, 1]

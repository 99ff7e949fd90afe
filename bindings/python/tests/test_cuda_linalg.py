"""torch.linalg on CUDA tensors (cuSOLVER; run_tests.sh runs this file again on the emulated backend, which runs
LAPACK behind the same table entry): values and gradients against torch 1.13 on the CPU, batched and empty shapes,
and the errors. Without a device every test is skipped with the library's reason."""
import numpy as np
import pytest
import torch

import ctensor as ct

pytestmark = pytest.mark.skipif(not ct.cuda.is_available(),
                                reason="no CUDA device: %s" % ct.cuda.unavailable_reason())


def _pair(a, dtype=np.float64):
    """A CUDA ctensor leaf and a CPU torch leaf with the values of a, both requiring grad."""
    a = np.asarray(a, dtype=dtype)
    return ct.tensor(a, device="cuda", requires_grad=True), torch.tensor(a, requires_grad=True)


def _conditioned(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, shape) + shape[-1] * np.eye(shape[-1])


def _check(ct_out, t_out, ct_leaves, t_leaves, tol):
    """Values of ct_out (cuda) against t_out, then gradients of a fixed random weighting of the outputs."""
    assert ct_out.is_cuda
    np.testing.assert_allclose(ct_out.detach().cpu().numpy(), t_out.detach().numpy(), rtol=tol, atol=tol)
    w = np.random.default_rng(7).uniform(-1, 1, tuple(t_out.shape))
    (ct_out * ct.tensor(w, dtype=ct_out.dtype, device="cuda")).sum().backward()
    (t_out * torch.tensor(w, dtype=t_out.dtype)).sum().backward()
    for c, t in zip(ct_leaves, t_leaves):
        if t.grad is None:  # an input the op does not use (or an empty one, where torch skips the backward)
            assert c.grad is None or c.grad.numel() == 0
            continue
        assert c.grad.is_cuda
        np.testing.assert_allclose(c.grad.cpu().numpy(), t.grad.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-8), (np.float32, 2e-3)])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 2, 2)])
def test_square_ops_match_torch(shape, dtype, tol):
    a = _conditioned(shape, 1)
    b = np.random.default_rng(2).uniform(-1, 1, shape[:-1] + (2,))
    for name, f in [("inv", lambda m, A, B: m.linalg.inv(A)),
                    ("det", lambda m, A, B: m.linalg.det(A)),
                    ("logabsdet", lambda m, A, B: m.linalg.slogdet(A)[1]),
                    ("solve", lambda m, A, B: m.linalg.solve(A, B)),
                    ("cholesky", lambda m, A, B: m.linalg.cholesky(A @ A.transpose(-2, -1))),
                    ("eigvalsh", lambda m, A, B: m.linalg.eigvalsh(A + A.transpose(-2, -1))),
                    ("svdvals", lambda m, A, B: m.linalg.svdvals(A)),
                    ("solve_triangular", lambda m, A, B: m.linalg.solve_triangular(A, B, upper=True)),
                    ("matrix_power", lambda m, A, B: m.linalg.matrix_power(A, -2))]:
        ca, ta = _pair(a, dtype)
        cb, tb = _pair(b, dtype)
        _check(f(ct, ca, cb), f(torch, ta, tb), [ca, cb], [ta, tb], tol)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_factorisations_match_torch(shape):
    a = np.random.default_rng(3).uniform(-1, 1, shape)
    ca, ta = _pair(a)
    cq, cr = ct.linalg.qr(ca)
    tq, tr = torch.linalg.qr(ta)
    _check(ct.cat([cq.reshape(-1), cr.reshape(-1)]), torch.cat([tq.reshape(-1), tr.reshape(-1)]), [ca], [ta], 1e-8)
    # singular vectors and eigenvectors up to sign: |U|, S, |Vh| (and |V| with the eigenvalues)
    ca, ta = _pair(a)
    cu, cs, cvh = ct.linalg.svd(ca, full_matrices=False)
    tu, ts, tvh = torch.linalg.svd(ta, full_matrices=False)
    _check(ct.cat([cu.abs().reshape(-1), cs.reshape(-1), cvh.abs().reshape(-1)]),
           torch.cat([tu.abs().reshape(-1), ts.reshape(-1), tvh.abs().reshape(-1)]), [ca], [ta], 1e-7)
    if shape[-1] == shape[-2]:
        ca, ta = _pair(a)
        cl, cv = ct.linalg.eigh(ca, UPLO="U")
        tl, tv = torch.linalg.eigh(ta, UPLO="U")
        _check(ct.cat([cl.reshape(-1), cv.abs().reshape(-1)]), torch.cat([tl.reshape(-1), tv.abs().reshape(-1)]),
               [ca], [ta], 1e-7)
    ca, ta = _pair(a)
    _check(ct.linalg.pinv(ca), torch.linalg.pinv(ta), [ca], [ta], 1e-8)
    ca, ta = _pair(a)
    _check(ct.linalg.matrix_norm(ca, ord="nuc"), torch.linalg.matrix_norm(ta, ord="nuc"), [ca], [ta], 1e-8)
    assert ct.linalg.matrix_rank(ct.tensor(a, device="cuda")).cpu().tolist() == \
        torch.linalg.matrix_rank(torch.tensor(a)).tolist()


def test_errors_on_cuda():
    singular = ct.tensor([[[2.0, 0.0], [0.0, 2.0]], [[1.0, 2.0], [2.0, 4.0]]], device="cuda")
    with pytest.raises(ValueError, match=r"linalg.inv: \(Batch element 1\): The diagonal element 2 is zero"):
        ct.linalg.inv(singular)
    with pytest.raises(ValueError, match=r"linalg.cholesky: \(Batch element 1\).*not positive-definite"):
        ct.linalg.cholesky(singular)
    assert ct.linalg.det(singular).cpu().tolist() == [4.0, 0.0]
    with pytest.raises(Exception, match="cuda:0"):
        ct.linalg.solve(singular[0], ct.ones(2, 1, dtype=ct.float64))
    with pytest.raises(Exception, match="cpu"):
        ct.linalg.solve(singular[0], ct.ones(2, 1, dtype=ct.float64))


@pytest.mark.parametrize("shape_a,shape_b", [((5, 3), (5, 2)), ((3, 5), (3, 2)), ((2, 4, 4), (2, 4, 1))])  # torch 1.13 cannot differentiate a vector B
def test_lstsq_gels_matches_torch(shape_a, shape_b):
    rng = np.random.default_rng(5)
    a, b = rng.uniform(-1, 1, shape_a), rng.uniform(-1, 1, shape_b)
    ca, ta = _pair(a)
    cb, tb = _pair(b)
    got, want = ct.linalg.lstsq(ca, cb), torch.linalg.lstsq(ta, tb, driver="gels")  # gels: CUDA's default
    assert got.rank.numel() == 0 and got.singular_values.numel() == 0
    if want.residuals.numel():
        np.testing.assert_allclose(got.residuals.detach().cpu().numpy(), want.residuals.detach().numpy(), atol=1e-10)
    _check(got.solution, want.solution, [ca, cb], [ta, tb], 1e-8)
    with pytest.raises(NotImplementedError, match="only the gels driver"):
        ct.linalg.lstsq(ca, cb, driver="gelsd")

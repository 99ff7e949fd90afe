"""Complex matmul / mm / bmm / mv / linear (issue 15) through cgemm/zgemm against torch 1.13: every operand layout
(contiguous, transposed, strided, broadcast batches, 1-D), gradients of real losses (torch's convention: the
backward conjugates through BLAS flags) and second-order gradients."""
import numpy as np
import pytest

import ctensor as ct
from conftest import ct_torch_pair

torch = pytest.importorskip("torch")
RNG = np.random.default_rng(15)


def rand_c(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def both(a, dtype, grad=False):
    return ct_torch_pair(a, dtype, grad)


def close(c, t, tol):
    np.testing.assert_allclose(np.asarray(c.detach()), t.detach().numpy(), rtol=tol, atol=tol)


LAYOUTS = [  # (a shape, b shape, how each operand is viewed)
    ((3, 4), (4, 5), lambda x: x), ((4, 3), (5, 4), lambda x: x.transpose(-1, -2)),
    ((2, 3, 4), (2, 4, 5), lambda x: x), ((2, 3, 4), (4, 5), lambda x: x), ((3, 4), (2, 4, 5), lambda x: x),
    ((2, 1, 3, 4), (3, 4, 2), lambda x: x), ((4,), (4, 5), lambda x: x), ((3, 4), (4,), lambda x: x),
    ((4,), (4,), lambda x: x), ((3, 8), (4, 10), lambda x: x[:, ::2]), ((0, 4), (4, 5), lambda x: x),
    ((3, 0), (0, 5), lambda x: x),
]


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize("case", range(len(LAYOUTS)))
def test_matmul_layouts_and_gradients(dt, case):
    sa, sb, view = LAYOUTS[case]
    tol = 1e-4 if dt == np.complex64 else 1e-11
    (a, ta), (b, tb) = both(rand_c(*sa), dt, True), both(rand_c(*sb), dt, True)
    out, tout = view(a) @ view(b), view(ta) @ view(tb)
    if len(sa) == len(sb) == 1:  # Debian's torch 1.13 returns 0 for a complex dot (its cdotu call): the closed form
        tout = (ta * tb).sum()
    assert out.dtype.name == str(tout.dtype).replace("torch.", "")
    close(out, tout, tol)
    w = rand_c(*tout.shape).astype(dt)  # a real loss that weighs real and imaginary parts differently
    (c_w, t_w) = both(w, dt)
    (out * c_w).real.sum().backward() if out.numel() else (out.abs().sum()).backward()
    (tout * t_w).real.sum().backward() if tout.numel() else (tout.abs().sum()).backward()
    close(a.grad, ta.grad, tol)
    close(b.grad, tb.grad, tol)


def test_mm_bmm_mv_and_conj_operands():
    (a, ta), (b, tb) = both(rand_c(2, 3, 4), np.complex128), both(rand_c(2, 4, 5), np.complex128)
    close(ct.bmm(a, b), torch.bmm(ta, tb), 1e-12)
    close(ct.mm(a[0], b[1]), torch.mm(ta[0], tb[1]), 1e-12)
    close(ct.mv(a[0], b[0, :, 0]), torch.mv(ta[0], tb[0, :, 0]), 1e-12)
    # a conjugate-transposed operand (the adjoint), as the backward passes it
    close(a[0].conj().t() @ a[1], ta[0].conj().t() @ ta[1], 1e-12)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_linear_matches_torch(dt):
    tol = 1e-4 if dt == np.complex64 else 1e-11
    (x, tx), (w, tw), (b, tb) = both(rand_c(2, 3, 4), dt, True), both(rand_c(5, 4), dt, True), both(rand_c(5), dt, True)
    for bias, tbias in ((b, tb), (None, None)):
        out = ct.nn.functional.linear(x, w, bias)
        tout = torch.nn.functional.linear(tx, tw, tbias)
        close(out, tout, tol)
        (out.abs() ** 2).sum().backward()
        (tout.abs() ** 2).sum().backward()
        for c, t in ((x, tx), (w, tw), (b, tb)):
            assert (c.grad is None) == (t.grad is None)
            if c.grad is not None:
                close(c.grad, t.grad, tol)
            c.grad, t.grad = None, None


def test_second_order_gradients():
    (a, ta), (b, tb) = both(rand_c(3, 4), np.complex128, True), both(rand_c(4, 2), np.complex128, True)
    ga, = ct.autograd.grad((a @ b).abs().sum(), [a], create_graph=True)
    tga, = torch.autograd.grad((ta @ tb).abs().sum(), [ta], create_graph=True)
    close(ga, tga, 1e-10)
    (ga * ga.conj()).real.sum().backward()
    (tga * tga.conj()).real.sum().backward()
    close(b.grad, tb.grad, 1e-9)


def test_refusals():
    a = ct.ones(2, 2, dtype=ct.complex64)
    with pytest.raises(TypeError, match="complex64.*float32|float32.*complex64"):
        a @ ct.ones(2, 2)

"""complex64 / complex128 (issue 15) against torch 1.13: dtypes and aliases, promotion, repr, item, NumPy and torch
(DLPack, zero-copy) conversions, real / imag / conj / angle / polar / view_as_real, elementwise ops, reductions,
matmul, gradients of real losses of complex intermediates (torch's convention), and clean refusals."""
import numpy as np
import pytest

import ctensor as ct
from conftest import ct_torch_pair

torch = pytest.importorskip("torch")

Z = np.array([[1 + 2j, -0.5 + 0.7j, 2 - 1j], [0.3 - 0.4j, -1.5 - 2j, 0.25 + 0.1j]])
W = np.array([[0.5 - 1j, 2 + 0.5j, -1 - 1j], [3 + 2j, 0.1 - 0.2j, -0.7 + 0.3j]])


def both(a, dtype=np.complex128, grad=False):
    return ct_torch_pair(a, dtype, grad)


def close(c, t, tol=1e-12):
    if c is None or t is None:  # an input the loss does not use: no gradient in either
        assert c is None and t is None
        return
    np.testing.assert_allclose(np.asarray(c.detach()), t.detach().numpy(), rtol=tol, atol=tol)


def test_dtypes_aliases_and_numpy():
    assert ct.cfloat is ct.complex64 and ct.cdouble is ct.complex128
    assert ct.complex64.itemsize == 8 and ct.complex128.itemsize == 16 and ct.complex64.is_complex
    c = ct.from_numpy(Z.astype(np.complex64))
    assert c.dtype is ct.complex64
    assert np.array_equal(np.asarray(c), Z.astype(np.complex64))
    assert c.to(ct.complex128).dtype is ct.complex128
    assert c[0, 0].item() == complex(1, 2) and isinstance(c[0, 0].item(), complex)


def test_torch_dlpack_round_trip_is_zero_copy():
    for dt in (torch.complex64, torch.complex128):
        t = torch.tensor([[1 + 2j, 3 - 1j]], dtype=dt)
        c = ct.from_dlpack(t)
        assert c.dtype.name == str(dt).replace("torch.", "")
        back = torch.from_dlpack(c)
        assert back.data_ptr() == t.data_ptr() and torch.equal(back, t)


def test_repr_matches_torch():
    for arr, dt in ((Z, np.complex64), (Z, np.complex128), (np.array([1 + 2j, 3 - 4j]), np.complex64),
                    (np.array(2.5 - 1j), np.complex64), (np.array([1e-5 + 1j, 1e5 - 2j]), np.complex128)):
        c, t = both(arr, dt)
        # values and layout as torch; where the suffix wraps differs (torch counts "dtype=torch.complex128")
        norm = lambda r: " ".join(r.replace("torch.", "").replace("ctensor.", "").split())  # noqa: E731
        assert norm(repr(c)) == norm(repr(t)), (repr(c), repr(t))


def test_parts_conj_angle_polar_view_as_real():
    c, t = both(Z)
    close(c.real, t.real)
    close(c.imag, t.imag)
    close(c.conj(), t.conj().resolve_conj())
    close(c.angle(), t.angle())
    close(c.abs(), t.abs())
    close(ct.view_as_real(c), torch.view_as_real(t))
    close(ct.view_as_complex(ct.view_as_real(c)), t)
    close(ct.polar(c.abs(), c.angle()), torch.polar(t.abs(), t.angle()))
    close(ct.complex(c.real, c.imag), torch.complex(t.real, t.imag))
    r, rt = both(np.array([-1.0, 0.0, 2.0]), np.float64)
    close(r.angle(), rt.angle())
    c.real.mul_(0) if hasattr(c.real, "mul_") else None  # real is a view: writing it writes c
    assert np.all(np.asarray(c).real == 0)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_ops_match_torch(dt):
    tol = 2e-6 if dt == np.complex64 else 1e-12
    (a, ta), (b, tb) = both(Z, dt), both(W, dt)
    for f in (lambda x, y: x + y, lambda x, y: x - 2 * y, lambda x, y: x * y, lambda x, y: x / y,
              lambda x, y: x ** y, lambda x, y: (x == y), lambda x, y: (x != x)):
        close(f(a, b), f(ta, tb), tol)
    for name in ("exp", "log", "sqrt", "sin", "cos", "tanh", "reciprocal", "neg", "abs"):
        close(getattr(a, name)(), getattr(ta, name)(), tol)
    close(a.sum(), ta.sum(), tol)
    close(a.sum(dim=0), ta.sum(dim=0), tol)
    close(a.mean(dim=1, keepdim=True), ta.mean(dim=1, keepdim=True), tol)
    close(a @ b.t(), ta @ tb.t(), tol)
    close(ct.cat([a, b]), torch.cat([ta, tb]), 0)
    close(a.t().contiguous().reshape(-1), ta.t().contiguous().reshape(-1), 0)
    # mixed promotion with real tensors and Python numbers
    r, tr = both(np.array([1.5, -2.0, 0.5]), np.float64)
    close(a * r, ta * tr, tol)
    assert (a * r).dtype.name == str((ta * tr).dtype).replace("torch.", "")
    close(a * 2.5, ta * 2.5, tol)


def test_gradients_match_torch():
    (z, tz), (w, tw) = both(Z, grad=True), both(W, grad=True)
    losses = [
        lambda z, w: (z * w).abs().sum(),
        lambda z, w: (z / w).exp().abs().sum() + (z @ w.t()).abs().mean(),
        lambda z, w: z.sqrt().sin().abs().sum() + z.tanh().real.sum() * 0.5 + z.log().imag.sum(),
        lambda z, w: z.angle().sum() + (z.conj() * w).real.sum() + z.abs().sum(),
    ]
    for loss in losses:
        for x in (z, w, tz, tw):
            x.grad = None
        loss(z, w).backward()
        loss(tz, tw).backward()
        close(z.grad, tz.grad, 1e-10)
        close(w.grad, tw.grad, 1e-10)
    vr, tvr = both(Z, grad=True)
    (ct.view_as_real(vr * vr) ** 2).sum().backward()
    (torch.view_as_real(tvr * tvr) ** 2).sum().backward()
    close(vr.grad, tvr.grad, 1e-10)


def test_ops_without_a_complex_kernel_refuse():
    c, _ = both(Z, np.complex64)
    for f in (lambda: c.max(), lambda: c.floor(), lambda: c.relu(), lambda: c < c, lambda: c.sort()):
        with pytest.raises(Exception, match="complex64"):
            f()
    with pytest.raises(Exception, match="imag"):
        ct.ones(2).imag

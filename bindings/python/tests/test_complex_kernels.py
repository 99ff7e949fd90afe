"""Complex kernels added for issue 15 against torch 1.13: prod (all / dim), cumsum, cumprod, sigmoid, tan, rsqrt,
with gradients of real losses (torch's convention: g * conj(f'(z))), zeros in prod / cumprod (the exact paths),
the backward of complex pow (tensor and scalar exponents, either operand complex), and softmax refused as torch's
CPU kernel refuses it."""
import numpy as np
import pytest

import ctensor as ct
from conftest import ct_torch_pair

torch = pytest.importorskip("torch")
RNG = np.random.default_rng(151)
Z = (RNG.standard_normal((3, 4)) + 1j * RNG.standard_normal((3, 4))) * 0.7
WITH_ZERO = Z.copy()
WITH_ZERO[1, 2] = 0
WITH_ZEROS = WITH_ZERO.copy()
WITH_ZEROS[1, 0] = 0


def both(a, dtype=np.complex128, grad=True):
    return ct_torch_pair(a, dtype, grad)


def close(c, t, tol):
    assert c.shape == tuple(t.shape), (c.shape, t.shape)
    np.testing.assert_allclose(np.asarray(c.detach()), t.detach().resolve_conj().numpy(), rtol=tol, atol=tol)


OPS = [
    ("prod", lambda x: x.prod()), ("prod dim 1", lambda x: x.prod(1)), ("prod dim 0 keepdim", lambda x: x.prod(0, keepdim=True)),
    ("cumsum 0", lambda x: x.cumsum(0)), ("cumsum -1", lambda x: x.cumsum(-1)),
    ("cumprod 1", lambda x: x.cumprod(1)), ("cumprod 0", lambda x: x.cumprod(0)),
    ("sigmoid", lambda x: x.sigmoid()), ("tan", lambda x: x.tan()), ("rsqrt", lambda x: x.rsqrt()),
]


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize("data", [Z, WITH_ZERO, WITH_ZEROS], ids=["plain", "one zero", "two zeros"])
@pytest.mark.parametrize("name,f", OPS, ids=[n for n, _ in OPS])
def test_op_and_gradient_match_torch(dt, data, name, f):
    if name == "rsqrt" and data is not Z:
        pytest.skip("rsqrt(0) is inf")
    tol = 2e-5 if dt == np.complex64 else 1e-11
    c, t = both(data, dt)
    out, tout = f(c), f(t)
    assert out.dtype.name == str(tout.dtype).replace("torch.", "")
    close(out, tout, tol)
    wc, wt = both(RNG.standard_normal(tuple(tout.shape)) + 1j, dt, grad=False)
    (out * wc).real.sum().backward()
    (tout * wt).real.sum().backward()
    close(c.grad, t.grad, 10 * tol)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_zero_dim_and_empty(dt):
    for shape in ((), (0,), (2, 0)):
        data = np.full(shape, 0.5 - 0.25j)
        c, t = both(data, dt, grad=False)
        for f in (lambda x: x.prod(), lambda x: x.cumsum(0) if x.ndim else x.cumsum(0), lambda x: x.cumprod(-1) if x.ndim else x.cumprod(0)):
            close(f(c), f(t), 1e-6)


def test_second_order_prod_cumprod():
    for f in (lambda x: x.prod(1), lambda x: x.cumprod(1)):
        c, t = both(Z)
        g, = ct.autograd.grad(f(c).abs().sum(), [c], create_graph=True)
        tg, = torch.autograd.grad(f(t).abs().sum(), [t], create_graph=True)
        close(g, tg, 1e-10)
        (g.abs() ** 2).sum().backward()
        (tg.abs() ** 2).sum().backward()
        close(c.grad, t.grad, 1e-9)


@pytest.mark.parametrize("case", ["tensor**tensor", "tensor**scalar", "real**complex", "complex**real", "zero base"])
def test_pow_backward_matches_torch(case):
    zero = Z.copy()
    zero[0, 0] = 0
    a_data, b_data = {"tensor**tensor": (Z, Z[::-1] * 0.5), "tensor**scalar": (Z, None),
                      "real**complex": (np.abs(Z.real) + 0.1, Z), "complex**real": (Z, Z.real),
                      "zero base": (zero, Z * 0.3 + 1)}[case]
    (a, ta) = both(a_data, np.complex128 if np.iscomplexobj(a_data) else np.float64)
    if b_data is None:
        out, tout = a ** 2.5, ta ** 2.5
        b = tb = None
    else:
        (b, tb) = both(b_data, np.complex128 if np.iscomplexobj(b_data) else np.float64)
        out, tout = a ** b, ta ** tb
    close(out, tout, 1e-11)
    (out.abs() + out.angle()).sum().backward()
    (tout.abs() + tout.angle()).sum().backward()
    close(a.grad, ta.grad, 1e-9)
    if b is not None:
        close(b.grad, tb.grad, 1e-9)


def test_softmax_refuses_like_torch():
    c, t = both(Z, np.complex64, grad=False)
    for f in (lambda x: x.softmax(0), lambda x: x.log_softmax(-1)):
        with pytest.raises(RuntimeError):
            f(t)
        with pytest.raises(TypeError, match="complex64"):
            f(c)


def test_truth_ops_match_torch():
    data = WITH_ZEROS.copy()
    data[2, :] = 0
    data[0, 1] = 0.25j  # a purely imaginary element is true
    c, t = both(data, np.complex64, grad=False)
    for f in (lambda x: x.logical_not(), lambda x: x.nonzero(), lambda x: x.any(), lambda x: x.any(0)):
        r, tr = f(c), f(t)
        assert np.array_equal(np.asarray(r), tr.numpy()), (r, tr)
    # torch 1.13's all(dim) casts complex to real (warning "discards the imaginary part"): 0.25j counts as false
    # there; compared with the truth value x != 0 instead
    for f in (lambda x: x.all(), lambda x: x.all(1), lambda x: x.all(0)):
        r, tr = f(c), f(t != 0)
        assert np.array_equal(np.asarray(r), tr.numpy()), (r, tr)

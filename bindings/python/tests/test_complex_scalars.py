"""Python complex numbers with tensors (issue 15) against torch 1.13: arithmetic with complex scalars on either side
and their result dtypes for every real and complex dtype, in-place refusals, comparisons (== / != work, ordering is
refused), ct.tensor / ct.full of complex values (the default dtype's complex counterpart) and the .real / .imag
setters."""
import numpy as np
import pytest

import ctensor as ct

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64", "complex64", "complex128"]
SCALARS = [1j, 1 + 2j, -0.5 - 0.25j, complex(3, 0)]
OPS = [lambda a, s: a * s, lambda a, s: s * a, lambda a, s: a + s, lambda a, s: s + a, lambda a, s: a - s,
       lambda a, s: s - a, lambda a, s: a / s, lambda a, s: s / a, lambda a, s: a ** s]


def name(dt):
    return str(dt).replace("torch.", "").replace("ctensor.", "")


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("dims", [(3,), ()], ids=["1-d", "0-d"])
def test_arithmetic_with_complex_scalars_matches_torch(dt, dims):
    base = np.array([1, 2, 3][: (dims[0] if dims else 1)]).reshape(dims)
    data = base.astype(np.bool_ if dt == "bool" else getattr(np, dt)) + (0.5j if dt.startswith("complex") else 0)
    c, t = ct.tensor(data, dtype=getattr(ct, dt)), torch.tensor(data, dtype=getattr(torch, dt))
    for s in SCALARS:
        for f in OPS:
            try:
                tr = f(t, s)
            except RuntimeError:  # torch refuses bool - x, and so does ctensor
                assert dt == "bool"
                with pytest.raises(TypeError, match="bool"):
                    f(c, s)
                continue
            r = f(c, s)
            assert name(r.dtype) == name(tr.dtype), (dt, s, r.dtype, tr.dtype)
            tol = 1e-6 if tr.dtype == torch.complex64 else 1e-12
            np.testing.assert_allclose(np.asarray(r), tr.numpy(), rtol=tol, atol=tol)
        assert np.array_equal(np.asarray(c == s), (t == s).numpy())
        assert np.array_equal(np.asarray(c != s), (t != s).numpy())


def test_ordering_and_inplace_refuse():
    c, t = ct.ones(2), torch.ones(2)
    for f in (lambda x: x < 1j, lambda x: x >= 1 + 1j):
        with pytest.raises(RuntimeError):
            f(t)
        with pytest.raises(RuntimeError, match="complex64"):  # NotImplementedError is a RuntimeError
            f(c)
    with pytest.raises(RuntimeError):
        t *= 1j
    with pytest.raises(TypeError, match="complex64.*float32"):
        c *= 1j
    z = ct.ones(2, dtype=ct.complex64)
    z *= 1j
    assert np.array_equal(np.asarray(z), np.array([1j, 1j], dtype=np.complex64))


def test_gradient_through_a_complex_scalar():
    c, t = ct.tensor([0.5, -1.0], requires_grad=True), torch.tensor([0.5, -1.0], requires_grad=True)
    ((c * (1 + 2j)).exp().abs().sum() + (c + 1j).angle().sum()).backward()
    ((t * (1 + 2j)).exp().abs().sum() + (t + 1j).angle().sum()).backward()
    np.testing.assert_allclose(np.asarray(c.grad), t.grad.numpy(), rtol=1e-6)


def test_creation_from_complex_values():
    for data, kw in (([1 + 2j], {}), ([1, 2.5 + 1j], {}), ([[1j, 2], [3, 4]], {}), (1 - 1j, {}),
                     ([1 + 2j], {"dtype": "complex128"}), ([1, 2], {"dtype": "complex64"})):
        c = ct.tensor(data, **{k: getattr(ct, v) for k, v in kw.items()})
        t = torch.tensor(data, **{k: getattr(torch, v) for k, v in kw.items()})
        assert name(c.dtype) == name(t.dtype) and np.array_equal(np.asarray(c), t.numpy()), (data, c, t)
    for fill, kw in ((1 + 2j, {}), (3, {"dtype": "complex128"}), (2.5j, {"dtype": "complex64"}), (1j, {"dtype": "complex128"})):
        c = ct.full((2, 3), fill, **{k: getattr(ct, v) for k, v in kw.items()})
        t = torch.full((2, 3), fill, **{k: getattr(torch, v) for k, v in kw.items()})
        assert name(c.dtype) == name(t.dtype) and np.array_equal(np.asarray(c), t.numpy()), (fill, c, t)
    previous = ct.get_default_dtype()
    ct.set_default_dtype(ct.float64)
    try:
        assert ct.tensor([1j]).dtype is ct.complex128 and ct.full((1,), 1j).dtype is ct.complex128
    finally:
        ct.set_default_dtype(previous)


def test_real_and_imag_setters_match_torch():
    data = np.array([1 + 2j, -3 + 0.5j], dtype=np.complex64)
    c, t = ct.tensor(data), torch.tensor(data)
    c.real, t.real = ct.tensor([5.0, 6.0]), torch.tensor([5.0, 6.0])
    c.imag, t.imag = 7.5, 7.5
    assert np.array_equal(np.asarray(c), t.numpy())
    r, tr = ct.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0])
    r.real, tr.real = 3.0, 3.0
    assert np.array_equal(np.asarray(r), tr.numpy())
    with pytest.raises(RuntimeError):
        tr.imag = 1.0
    with pytest.raises(TypeError, match="imag"):
        r.imag = 1.0

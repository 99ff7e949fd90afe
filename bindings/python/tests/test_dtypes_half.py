"""float16, bfloat16, int8, int16 against torch 1.13 and NumPy: every bit pattern's conversion, promotion of all
100 dtype pairs, NumPy and DLPack round trips, printing, and ops computed in float32 and rounded back."""
import numpy as np
import pytest

import ctensor as ct
from conftest import requires_torch

NEW = [ct.float16, ct.bfloat16, ct.int8, ct.int16]


def torch_dtype(torch, d):
    return getattr(torch, d.name)


def test_dtype_objects_and_aliases():
    assert ct.half is ct.float16 and ct.short is ct.int16
    assert ct.float16.itemsize == 2 and ct.bfloat16.itemsize == 2 and ct.int8.itemsize == 1
    assert ct.float16.is_floating_point and ct.bfloat16.is_floating_point and not ct.int8.is_floating_point
    x = ct.tensor([1.5, -2.0])
    assert x.half().dtype is ct.float16 and x.bfloat16().dtype is ct.bfloat16
    assert x.char().dtype is ct.int8 and x.short().dtype is ct.int16
    assert repr(ct.bfloat16) == "ctensor.bfloat16"


@pytest.mark.parametrize("d", [ct.float16, ct.bfloat16])
def test_every_bit_pattern_matches_torch(d):
    torch = requires_torch()
    bits = torch.arange(-32768, 32768, dtype=torch.int32).to(torch.int16)
    ref = bits.view(torch_dtype(torch, d))
    t = ct.from_dlpack(ref)  # zero-copy import of the 65 536 patterns
    assert t.dtype is d
    got = t.float().numpy()
    want = ref.float().numpy()
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))
    # float32 -> half rounding on the same values, their midpoints and random floats, against torch
    w64 = want[ok].astype(np.float64)
    f = np.concatenate([want[ok], (w64[:-1] + w64[1:]) / 2,
                        np.random.default_rng(0).standard_normal(100000).astype(np.float32) * 1000])
    f = f[np.isfinite(f)].astype(np.float32)
    mine = ct.tensor(f).to(d)
    theirs = torch.from_numpy(f).to(torch_dtype(torch, d))
    assert np.array_equal(mine.float().numpy().view(np.uint32), theirs.float().numpy().view(np.uint32))


def test_promotion_of_all_pairs_matches_torch():
    torch = requires_torch()
    for a in ct._DTYPES:
        for b in ct._DTYPES:
            want = torch.promote_types(torch_dtype(torch, a) if a is not ct.bool_ else torch.bool,
                                       torch_dtype(torch, b) if b is not ct.bool_ else torch.bool)
            got = (ct.ones(2, dtype=a) * ct.ones(2, dtype=b)).dtype
            assert got.name == str(want).replace("torch.", ""), (a, b, got, want)


@pytest.mark.parametrize("nd", [np.float16, np.int8, np.int16])
def test_numpy_round_trip(nd):
    a = (np.arange(12).reshape(3, 4) - 5).astype(nd)
    t = ct.from_numpy(a)
    assert t.dtype.numpy == np.dtype(nd)
    a[0, 0] = 7  # shared memory
    assert t[0, 0].item() == 7
    back = t.numpy()
    assert back.dtype == np.dtype(nd) and np.array_equal(back, a)


def test_bfloat16_numpy_is_refused():
    with pytest.raises(TypeError, match="bfloat16"):
        ct.ones(2, dtype=ct.bfloat16).numpy()


@pytest.mark.parametrize("d", NEW)
def test_torch_dlpack_round_trip(d):
    torch = requires_torch()
    x = torch.tensor([[1, -2, 3], [4, 5, -6]], dtype=torch_dtype(torch, d))
    t = ct.from_dlpack(x)
    assert t.dtype is d and t.tolist() == x.tolist()
    y = torch.from_dlpack(t)
    assert y.dtype == x.dtype and torch.equal(y, x)
    y[0, 0] = 9  # zero-copy both ways
    assert x[0, 0].item() == 9


@pytest.mark.parametrize("d", [ct.float16, ct.bfloat16])
def test_repr_as_torch(d):
    torch = requires_torch()
    vals = [1.5, -2.0, 0.1, 1000.0]
    mine = repr(ct.tensor(vals, dtype=d))
    theirs = repr(torch.tensor(vals, dtype=torch_dtype(torch, d)))
    # torch wraps its longer "dtype=torch.float16" suffix onto a new line; the text is otherwise the same
    assert mine.split() == theirs.replace("torch.", "").split()


@pytest.mark.parametrize("d", NEW)
def test_creation(d):
    torch = requires_torch()
    td = torch_dtype(torch, d)
    assert ct.arange(0, 10, 3, dtype=d).tolist() == torch.arange(0, 10, 3, dtype=td).tolist()
    assert ct.linspace(-1, 1, 5, dtype=d).tolist() == torch.linspace(-1, 1, 5, dtype=td).tolist()
    assert ct.eye(3, dtype=d).tolist() == torch.eye(3).tolist()  # torch 1.13 has no bfloat16 eye on the CPU
    assert ct.full((2,), 3, dtype=d).tolist() == torch.full((2,), 3, dtype=td).tolist()
    if d.is_floating_point:
        assert ct.tensor(0.1, dtype=d).item() == torch.tensor(0.1, dtype=td).item()
        assert ct.rand(100, dtype=d).dtype is d and ct.randn(100, dtype=d).dtype is d


@pytest.mark.parametrize("d", [ct.float16, ct.bfloat16])
def test_ops_match_torch_with_half_tolerance(d):
    torch = requires_torch()
    rng = np.random.default_rng(5)
    a = rng.standard_normal((8, 16)).astype(np.float32)
    b = rng.uniform(0.5, 2, (8, 16)).astype(np.float32)
    w = rng.standard_normal((4, 16)).astype(np.float32)
    td = torch_dtype(torch, d)
    A, B, W = (ct.tensor(v).to(d) for v in (a, b, w))
    TA, TB, TW = (torch.from_numpy(v).to(td) for v in (a, b, w))
    tol = dict(rtol=1e-2, atol=1e-2) if d is ct.float16 else dict(rtol=4e-2, atol=4e-2)
    cases = [
        (A + B * 2, TA + TB * 2), (A / B, TA / TB), (A.exp(), TA.float().exp().to(td)), (A.tanh(), TA.float().tanh().to(td)),
        (A.sum(), TA.sum()), (A.mean(1), TA.mean(1)), (A @ W.t(), (TA.float() @ TW.float().t()).to(td)),
        (ct.softmax(A, 1), torch.softmax(TA.float(), 1).to(td)),
        (A.max(), TA.max()), (A.amax(1), TA.amax(1)), (A.sort(1)[0], TA.sort(1)[0]),
        (A.std(), TA.float().std().to(td)),
    ]
    assert A.argmax().item() == TA.float().argmax().item()
    for mine, theirs in cases:
        assert mine.dtype is d
        np.testing.assert_allclose(mine.float().numpy(), theirs.float().numpy(), **tol)


@pytest.mark.parametrize("d", [ct.float16, ct.bfloat16])
def test_gradients_are_half(d):
    torch = requires_torch()
    x = ct.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=d, requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.dtype is d
    tx = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch_dtype(torch, d), requires_grad=True)
    (tx * tx).sum().backward()
    assert x.grad.tolist() == tx.grad.tolist()


def test_module_half_and_bfloat16():
    m = ct.nn.Linear(3, 2)
    m.half()
    assert m.weight.dtype is ct.float16 and m.bias.dtype is ct.float16
    y = m(ct.ones(4, 3, dtype=ct.float16))
    assert y.dtype is ct.float16 and y.shape == (4, 2)
    m.bfloat16()
    assert m.weight.dtype is ct.bfloat16


def test_int8_int16_wrap_like_torch():
    torch = requires_torch()
    a = [100, -100, 127]
    assert (ct.tensor(a, dtype=ct.int8) * 2).tolist() == (torch.tensor(a, dtype=torch.int8) * 2).tolist()
    assert (ct.tensor(a, dtype=ct.int8) + ct.tensor(a, dtype=ct.int16)).dtype is ct.int16
    assert (ct.tensor([1], dtype=ct.int8) + ct.tensor([1], dtype=ct.uint8)).dtype is ct.int16


def test_linalg_on_half_computes_through_float32_and_mixed_dtypes_still_fail():
    # docs/dtypes.md: torch 1.13 refuses half in LAPACK ops; ctensor computes them in float32 and rounds
    x = ct.tensor([[2.0, 0.0], [0.0, 4.0]], dtype=ct.float16)
    inv = ct.linalg.inv(x)
    assert inv.dtype is ct.float16 and inv.tolist() == [[0.5, 0.0], [0.0, 0.25]]
    with pytest.raises(Exception, match="float16"):  # an op that wants equal dtypes names the half one
        ct.scatter(x, 0, ct.tensor([[0, 1]]), ct.tensor([[1.0, 2.0]]))


@pytest.mark.parametrize("d", [ct.float16, ct.bfloat16])
def test_nn_ops_on_half_match_torch_float32_rounded(d):
    torch = requires_torch()
    import ctensor.nn.functional as F
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    v = rng.standard_normal((4, 5)).astype(np.float32)
    td = torch_dtype(torch, d)
    X, W, V = (ct.tensor(a).to(d) for a in (x, w, v))
    TX, TW, TV = (torch.from_numpy(a).to(td).float() for a in (x, w, v))
    tgt = [0, 1, 2, 3]
    tol = dict(rtol=1e-2, atol=1e-2) if d is ct.float16 else dict(rtol=4e-2, atol=4e-2)
    cases = [
        (F.conv2d(X, W), torch.nn.functional.conv2d(TX, TW)),
        (F.max_pool2d(X, 2), torch.nn.functional.max_pool2d(TX, 2)),
        (F.avg_pool2d(X, 2), torch.nn.functional.avg_pool2d(TX, 2)),
        (F.cross_entropy(V, ct.tensor(tgt)), torch.nn.functional.cross_entropy(TV, torch.tensor(tgt))),
        (F.mse_loss(V, V * 0.5), torch.nn.functional.mse_loss(TV, TV * 0.5)),
        (F.embedding(ct.tensor([3, 0]), V), TV[[3, 0]]),
        (V.cumprod(1), TV.cumprod(1)),
    ]
    for mine, theirs in cases:
        assert mine.dtype is d
        np.testing.assert_allclose(mine.float().numpy(), theirs.to(td).float().numpy(), **tol)
    y = X.clone()
    y.requires_grad = True
    F.conv2d(y, W).sum().backward()
    assert y.grad.dtype is d

"""Values of op functions and methods against NumPy: elementwise math, reductions with dims and keepdim,
shape/view ops, joins and splits, where/clamp and indexing ops, including 0-d and empty tensors."""
import math

import numpy as np
import pytest

import ctensor as ct

UNARY = {
    "exp": np.exp, "log": np.log, "log1p": np.log1p, "expm1": np.expm1, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x), "sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "relu": lambda x: np.maximum(x, 0), "abs": np.abs, "neg": np.negative,
    "sign": np.sign, "floor": np.floor, "ceil": np.ceil, "round": np.round, "reciprocal": lambda x: 1 / x,
    "silu": lambda x: x / (1 + np.exp(-x)), "softplus": lambda x: np.log1p(np.exp(x)),
    "gelu": lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2))), "square": np.square,
    "log2": np.log2, "log10": np.log10, "trunc": np.trunc,
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_functions_and_methods(name, rng):
    x = rng.uniform(0.1, 3.0, (3, 4)) * rng.choice([-1, 1], (3, 4))
    if name in ("log", "log1p", "sqrt", "rsqrt", "log2", "log10"):
        x = np.abs(x)
    x = x.astype(np.float64)
    t = ct.tensor(x)
    expected = UNARY[name](x)
    np.testing.assert_allclose(getattr(ct, name)(t).numpy(), expected, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(getattr(t, name)().numpy(), expected, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(getattr(ct, name)(t[:, ::2]).numpy(), expected[:, ::2], rtol=1e-6, atol=1e-12)
    assert getattr(ct, name)(ct.zeros(0, 3, dtype=ct.float64)).shape == (0, 3)


def test_pow_and_clamp(rng):
    x = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)
    t = ct.tensor(x)
    np.testing.assert_allclose(t.pow(2.5).numpy(), x ** 2.5, rtol=1e-5)
    np.testing.assert_allclose(ct.pow(2.0, t).numpy(), 2.0 ** x, rtol=1e-5)
    np.testing.assert_allclose(ct.pow(t, t).numpy(), x ** x, rtol=1e-5)
    np.testing.assert_allclose(t.clamp(0.8, 1.5).numpy(), np.clip(x, 0.8, 1.5))
    np.testing.assert_allclose(t.clamp(min=1.0).numpy(), np.maximum(x, 1.0))
    np.testing.assert_allclose(t.clamp(max=1.0).numpy(), np.minimum(x, 1.0))
    lo = ct.full((3,), 1.0)
    np.testing.assert_allclose(ct.clamp(t, min=lo).numpy(), np.maximum(x, 1.0))
    u = t.clone()
    u.clamp_(max=1.0)
    np.testing.assert_allclose(u.numpy(), np.minimum(x, 1.0))


def test_binary_functions(rng):
    a = rng.standard_normal((3, 4))
    b = rng.standard_normal((4,))
    ta, tb = ct.tensor(a), ct.tensor(b)
    np.testing.assert_allclose(ct.add(ta, tb, alpha=2).numpy(), a + 2 * b)
    np.testing.assert_allclose(ct.sub(ta, tb, alpha=0.5).numpy(), a - 0.5 * b)
    np.testing.assert_allclose(ct.maximum(ta, tb).numpy(), np.maximum(a, b))
    np.testing.assert_allclose(ct.minimum(ta, tb).numpy(), np.minimum(a, b))
    np.testing.assert_allclose(ct.atan2(ta, tb).numpy(), np.arctan2(a, b))
    np.testing.assert_allclose(ta.mul(tb).numpy(), a * b)
    np.testing.assert_allclose(ta.div(tb).numpy(), a / b)
    np.testing.assert_allclose(ta.div(tb, rounding_mode="floor").numpy(), np.floor(a / b))
    np.testing.assert_allclose(ta.div(tb, rounding_mode="trunc").numpy(), np.trunc(a / b))
    assert ct.logical_and(ta > 0, tb > 0).tolist() == np.logical_and(a > 0, b > 0).tolist()
    assert ct.logical_or(ta > 0, tb > 0).tolist() == np.logical_or(a > 0, b > 0).tolist()
    assert ct.logical_xor(ta > 0, tb > 0).tolist() == np.logical_xor(a > 0, b > 0).tolist()
    assert ct.logical_not(ta > 0).tolist() == (a <= 0).tolist()


REDUCTIONS = [
    ("sum", np.sum), ("mean", np.mean), ("prod", np.prod), ("amax", np.max), ("amin", np.min),
]


REDUCTION_DIMS = [(None, False), (0, False), (1, True), (-1, False), (-1, True), ((0, 2), False), ((0, 2), True)]


@pytest.mark.parametrize("name,ref", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
@pytest.mark.parametrize("dim,keepdim", REDUCTION_DIMS, ids=repr)
def test_reductions(name, ref, dim, keepdim, rng):
    x = rng.uniform(0.5, 1.5, (2, 3, 4))
    t = ct.tensor(x)
    fn = getattr(ct, name)
    if dim is None:
        got = fn(t)
    elif name == "prod" and isinstance(dim, tuple):  # PyTorch's prod takes one dim: reduce one at a time
        got = fn(fn(t, dim[1], keepdim=keepdim), dim[0], keepdim=keepdim)
    else:
        got = fn(t, dim, keepdim=keepdim)
    np.testing.assert_allclose(got.numpy(), ref(x, axis=dim, keepdims=keepdim), rtol=1e-10)


@pytest.mark.parametrize("dim", [None, 0, (1, 2)])
@pytest.mark.parametrize("correction", [0, 1])
def test_var_std_logsumexp_norm(dim, correction, rng):
    x = rng.standard_normal((3, 4, 5))
    t = ct.tensor(x)
    np.testing.assert_allclose(t.var(dim, correction=correction).numpy(), x.var(axis=dim, ddof=correction))
    np.testing.assert_allclose(t.std(dim, correction=correction, keepdim=True).numpy(),
                               x.std(axis=dim, ddof=correction, keepdims=True))
    if dim is not None:
        lse = np.log(np.exp(x).sum(axis=dim))
        np.testing.assert_allclose(ct.logsumexp(t, dim).numpy(), lse, rtol=1e-10)
    np.testing.assert_allclose(t.norm(dim=dim).numpy(), np.sqrt((x ** 2).sum(axis=dim)), rtol=1e-10)
    np.testing.assert_allclose(t.norm(p=1, dim=dim).numpy(), np.abs(x).sum(axis=dim), rtol=1e-10)
    np.testing.assert_allclose(t.norm(p=math.inf, dim=dim).numpy(), np.abs(x).max(axis=dim), rtol=1e-10)


def test_sum_dtypes_and_empty():
    assert ct.tensor([1, 2, 3]).sum().item() == 6 and ct.tensor([1, 2, 3]).sum().dtype is ct.int64
    assert ct.tensor([True, True, False]).sum().item() == 2
    assert ct.zeros(0).sum().item() == 0.0
    assert ct.tensor([1, 2], dtype=ct.int32).sum(dtype=ct.float64).dtype is ct.float64
    assert ct.tensor(5.0).sum().item() == 5.0


def test_max_min_arg(rng):
    x = rng.standard_normal((3, 5))
    t = ct.tensor(x)
    assert t.max().item() == x.max() and t.min().item() == x.min()
    v, i = t.max(dim=1)
    np.testing.assert_array_equal(v.numpy(), x.max(axis=1))
    np.testing.assert_array_equal(i.numpy(), x.argmax(axis=1))
    r = t.min(0, keepdim=True)
    assert r.values.shape == (1, 5) and r.indices.dtype is ct.int64
    assert t.argmax().item() == x.argmax() and t.argmin().item() == x.argmin()
    np.testing.assert_array_equal(t.argmax(dim=0).numpy(), x.argmax(axis=0))
    np.testing.assert_array_equal(ct.max(t, ct.zeros(5, dtype=ct.float64)).numpy(), np.maximum(x, 0))
    assert ct.all(ct.tensor([True, True])).item() and not ct.any(ct.tensor([False, False])).item()
    assert ct.tensor([[1, 0], [1, 1]]).all(dim=1).tolist() == [False, True]
    np.testing.assert_allclose(t.cumsum(1).numpy(), np.cumsum(x, axis=1))


def test_softmax_family(rng):
    x = rng.standard_normal((2, 5))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    sm = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(ct.softmax(ct.tensor(x), 1).numpy(), sm, rtol=1e-10)
    np.testing.assert_allclose(ct.tensor(x).log_softmax(-1).numpy(), np.log(sm), rtol=1e-10)


def test_shape_ops(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    t = ct.tensor(x)
    assert t.view(6, 4).shape == (6, 4) and t.view(-1).shape == (24,) and t.view((4, 6)).shape == (4, 6)
    np.testing.assert_array_equal(t.reshape(4, -1).numpy(), x.reshape(4, -1))
    np.testing.assert_array_equal(t.permute(2, 0, 1).numpy(), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(t.transpose(0, 2).numpy(), x.swapaxes(0, 2))
    np.testing.assert_array_equal(t.T.numpy(), x.T)
    np.testing.assert_array_equal(t.flatten().numpy(), x.ravel())
    np.testing.assert_array_equal(t.flatten(1).numpy(), x.reshape(2, 12))
    np.testing.assert_array_equal(t.unsqueeze(1).numpy(), x[:, None])
    np.testing.assert_array_equal(t[:, :1].squeeze(1).numpy(), x[:, 0])
    assert ct.zeros(1, 3, 1).squeeze().shape == (3,)
    np.testing.assert_array_equal(t[:, :1].expand(2, 5, 4).numpy(), np.broadcast_to(x[:, :1], (2, 5, 4)))
    np.testing.assert_array_equal(t.narrow(2, 1, 2).numpy(), x[:, :, 1:3])
    np.testing.assert_array_equal(t.repeat(2, 1, 1).numpy(), np.tile(x, (2, 1, 1)))
    np.testing.assert_array_equal(t.flip(0).numpy(), x[::-1])
    assert t.permute(2, 0, 1).contiguous().is_contiguous()
    assert not t.transpose(0, 1).is_contiguous()
    c = t.clone()
    assert not c._shares_storage(t) and ct.equal(c, t)
    with pytest.raises(ValueError):
        t.view(5, 5)
    with pytest.raises(IndexError):
        t.transpose(0, 3)
    m = ct.tensor(rng.standard_normal((3, 2)))
    np.testing.assert_array_equal(m.t().numpy(), m.numpy().T)


def test_join_and_split(rng):
    a = rng.standard_normal((2, 3))
    b = rng.standard_normal((2, 3))
    ta, tb = ct.tensor(a), ct.tensor(b)
    np.testing.assert_array_equal(ct.cat([ta, tb]).numpy(), np.concatenate([a, b]))
    np.testing.assert_array_equal(ct.cat((ta, tb), dim=1).numpy(), np.concatenate([a, b], axis=1))
    np.testing.assert_array_equal(ct.stack([ta, tb], 1).numpy(), np.stack([a, b], 1))
    parts = ct.cat([ta, tb], 1).split(2, dim=1)
    assert [p.shape[1] for p in parts] == [2, 2, 2]
    parts = ta.split([1, 2], dim=1)
    np.testing.assert_array_equal(parts[1].numpy(), a[:, 1:])
    chunks = ct.arange(7).chunk(3)
    assert [c.tolist() for c in chunks] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [u.tolist() for u in ct.tensor([[1, 2], [3, 4]]).unbind(1)] == [[1, 3], [2, 4]]
    with pytest.raises(ValueError):
        ct.cat([ta, ct.zeros(2, 4, dtype=ct.float64)])


def test_where_and_indexing_ops(rng):
    x = rng.standard_normal((3, 4))
    t = ct.tensor(x)
    np.testing.assert_array_equal(ct.where(t > 0, t, 0.0).numpy(), np.where(x > 0, x, 0.0))
    np.testing.assert_array_equal(t.where(t > 0, ct.zeros(4, dtype=ct.float64)).numpy(), np.where(x > 0, x, 0))
    idx = ct.tensor([2, 0])
    np.testing.assert_array_equal(t.index_select(1, idx).numpy(), x[:, [2, 0]])
    g = ct.tensor([[0, 1], [2, 3], [1, 1]])
    np.testing.assert_array_equal(t.gather(1, g).numpy(), np.take_along_axis(x, g.numpy(), 1))
    s = ct.zeros(3, 4, dtype=ct.float64).scatter(1, g, ct.ones(3, 2, dtype=ct.float64))
    expected = np.zeros((3, 4))
    np.put_along_axis(expected, g.numpy(), 1.0, 1)
    np.testing.assert_array_equal(s.numpy(), expected)
    sa = ct.zeros(3, 4, dtype=ct.float64).scatter_add(1, ct.tensor([[1, 1], [0, 0], [3, 3]]),
                                                      ct.ones(3, 2, dtype=ct.float64))
    assert sa.tolist() == [[0, 2, 0, 0], [2, 0, 0, 0], [0, 0, 0, 2]]
    np.testing.assert_array_equal(t.masked_fill(t < 0, 9.0).numpy(), np.where(x < 0, 9.0, x))
    np.testing.assert_array_equal(t.masked_select(t > 0).numpy(), x[x > 0])
    np.testing.assert_array_equal(ct.nonzero(t > 0).numpy(), np.argwhere(x > 0))
    rows, cols = ct.where(t > 0)
    np.testing.assert_array_equal(rows.numpy(), np.nonzero(x > 0)[0])


def test_matmul_family(rng):
    a = rng.standard_normal((5, 2, 3))
    b = rng.standard_normal((3, 4))
    np.testing.assert_allclose(ct.matmul(ct.tensor(a), ct.tensor(b)).numpy(), a @ b, rtol=1e-10)
    np.testing.assert_allclose(ct.bmm(ct.tensor(a), ct.tensor(a).transpose(1, 2)).numpy(),
                               a @ a.transpose(0, 2, 1), rtol=1e-10)
    v, w = rng.standard_normal(3), rng.standard_normal(4)
    assert abs(ct.dot(ct.tensor(v), ct.tensor(v)).item() - v @ v) < 1e-12
    np.testing.assert_allclose(ct.outer(ct.tensor(v), ct.tensor(w)).numpy(), np.outer(v, w))
    with pytest.raises(ValueError):
        ct.mm(ct.tensor(a), ct.tensor(b))


def test_inplace_methods_return_self():
    t = ct.tensor([1.0, -2.0, 3.0])
    assert t.add_(1) is t and t.tolist() == [2.0, -1.0, 4.0]
    assert t.sub_(ct.tensor([1.0, 1.0, 1.0]), alpha=2).tolist() == [0.0, -3.0, 2.0]
    assert t.mul_(2).tolist() == [0.0, -6.0, 4.0] and t.div_(2).tolist() == [0.0, -3.0, 2.0]
    assert t.relu_().tolist() == [0.0, 0.0, 2.0] and t.fill_(7).tolist() == [7.0] * 3
    assert t.zero_().tolist() == [0.0] * 3
    assert t.copy_(ct.tensor([1, 2, 3])).tolist() == [1.0, 2.0, 3.0] and t.dtype is ct.float32
    assert t.masked_fill_(t > 1.5, -1).tolist() == [1.0, -1.0, -1.0]
    v = t.clone().exp_()
    np.testing.assert_allclose(v.numpy(), np.exp(t.numpy()), rtol=1e-6)


def test_allclose_equal_isclose():
    a = ct.tensor([1.0, 2.0])
    assert ct.allclose(a, a + 1e-9) and not ct.allclose(a, a + 1e-3)
    assert ct.equal(a, a.clone()) and not ct.equal(a, ct.tensor([1.0]))
    assert ct.isclose(a, ct.tensor([1.0, 3.0])).tolist() == [True, False]

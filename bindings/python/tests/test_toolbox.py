"""The everyday tensor toolbox (issue 14) against torch 1.13: in-place scatters, index_add / index_copy /
index_put (functions, methods, in-place forms and advanced-index assignment), values and gradients, duplicates,
negative, out-of-range and empty indices, and the in-place autograd rules (leaf errors, history rebase,
version-counter errors)."""
import numpy as np
import pytest

import ctensor as ct

torch = pytest.importorskip("torch")


def both(a, requires_grad=False):
    a = np.asarray(a, dtype=np.float64)
    return (ct.tensor(a, requires_grad=requires_grad), torch.tensor(a, requires_grad=requires_grad))


def check(c, t, atol=1e-12):
    np.testing.assert_allclose(c.detach().numpy(), t.detach().numpy(), atol=atol)


def ix(v):
    return ct.tensor(np.asarray(v, dtype=np.int64)), torch.tensor(np.asarray(v, dtype=np.int64))


RNG = np.random.default_rng(14)


@pytest.mark.parametrize("dim,index", [(0, [2, 0, 2]), (1, [1, 1]), (-1, [0]), (0, [])])
@pytest.mark.parametrize("alpha", [1, -2.5])
def test_index_add_values_and_grads(dim, index, alpha):
    x = RNG.standard_normal((3, 2))
    shape = list(x.shape)
    shape[dim] = len(index)
    s = RNG.standard_normal(shape)
    (cx, tx), (cs, ts), (ci, ti) = both(x, True), both(s, True), ix(index)
    cy, ty = ct.index_add(cx, dim, ci, cs, alpha=alpha), torch.index_add(tx, dim, ti, ts, alpha=alpha)
    check(cy, ty)
    w = RNG.standard_normal(ty.shape)
    (cy * ct.tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    check(cx.grad, tx.grad)
    check(cs.grad, ts.grad)
    check(cx.detach().index_add(dim, ci, cs.detach(), alpha=alpha), tx.detach().index_add(dim, ti, ts.detach(), alpha=alpha))


@pytest.mark.parametrize("dim,index", [(0, [2, 0]), (1, [1]), (0, [])])
def test_index_copy_values_and_grads(dim, index):
    x = RNG.standard_normal((3, 2))
    shape = list(x.shape)
    shape[dim] = len(index)
    s = RNG.standard_normal(shape)
    (cx, tx), (cs, ts), (ci, ti) = both(x, True), both(s, True), ix(index)
    cy, ty = ct.index_copy(cx, dim, ci, cs), torch.index_copy(tx, dim, ti, ts)
    check(cy, ty)
    w = RNG.standard_normal(ty.shape)
    (cy * ct.tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    check(cx.grad, tx.grad)
    check(cs.grad, ts.grad)


INDEX_PUT = [
    (([0, 2],), (2, 4)),                 # rows
    (([0, -1], [1, 3]), (2,)),           # two indices, a negative one
    (([[0], [2]], [1, 3]), (2, 2)),      # broadcast indices
    (([1, 1, 1],), (4,)),                # duplicates (values broadcast over the rows)
    (([-3, 2],), ()),                    # a scalar value
    (([],), (0, 4)),                     # empty
]


@pytest.mark.parametrize("indices,vshape", INDEX_PUT, ids=repr)
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_values_and_grads(indices, vshape, accumulate):
    x = RNG.standard_normal((3, 4))
    v = RNG.standard_normal(vshape)
    (cx, tx), (cv, tv) = both(x, True), both(v, True)
    ci, ti = zip(*(ix(i) for i in indices))
    cy, ty = ct.index_put(cx, ci, cv, accumulate), torch.index_put(tx, ti, tv, accumulate)
    dup = not accumulate and indices == ([1, 1, 1],)
    if not dup:  # torch's CPU result for non-accumulated duplicates is unspecified; ours is the last write
        check(cy, ty)
    w = RNG.standard_normal(ty.shape)
    (cy * ct.tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    check(cx.grad, tx.grad)
    check(cv.grad, tv.grad)


def test_duplicates_last_write_wins_or_sum():
    x = ct.zeros(3)
    i = ct.tensor([1, 1, 1])
    assert x.index_put(i, ct.tensor([1.0, 2.0, 3.0])).tolist() == [0, 3, 0]
    assert x.index_put((i,), ct.tensor([1.0, 2.0, 3.0]), accumulate=True).tolist() == [0, 6, 0]
    assert x.index_copy(0, i, ct.tensor([4.0, 5.0, 6.0])).tolist() == [0, 6, 0]
    assert x.clone().index_add_(0, i, ct.tensor([4.0, 5.0, 6.0])).tolist() == [0, 15, 0]


def test_in_place_forms_match_torch():
    x = RNG.standard_normal((3, 4))
    cx, tx = both(x)
    ci, ti = ix([[0, 1, 2, 0]])
    cs, ts = both(RNG.standard_normal((1, 4)))
    assert cx.scatter_(0, ci, cs) is cx
    tx.scatter_(0, ti, ts)
    check(cx, tx)
    cx.scatter_(1, ix([[3], [0]])[0], -7.0)
    tx.scatter_(1, ix([[3], [0]])[1], -7.0)
    check(cx, tx)
    cx.scatter_add_(0, ci, cs)
    tx.scatter_add_(0, ti, ts)
    check(cx, tx)
    cx.index_add_(1, ix([3, 3])[0], ct.ones(3, 2, dtype=ct.float64), alpha=2)
    tx.index_add_(1, ix([3, 3])[1], torch.ones(3, 2, dtype=torch.float64), alpha=2)
    check(cx, tx)
    cx.index_copy_(0, ix([1])[0], ct.zeros(1, 4, dtype=ct.float64))
    tx.index_copy_(0, ix([1])[1], torch.zeros(1, 4, dtype=torch.float64))
    check(cx, tx)
    assert cx.index_put_((ix([0, 2])[0], ix([-1, 0])[0]), 5.0, accumulate=True) is cx
    tx.index_put_((ix([0, 2])[1], ix([-1, 0])[1]), torch.tensor(5.0, dtype=torch.float64), accumulate=True)
    check(cx, tx)
    assert cx._version == 6


def test_in_place_autograd_rebase_leaf_and_version():
    x = RNG.standard_normal((3, 2))
    (cx, tx), (cs, ts) = both(x, True), both(RNG.standard_normal((2, 2)), True)
    with pytest.raises(RuntimeError, match="index_add_: a leaf tensor that requires grad"):
        cx.index_add_(0, ct.tensor([0, 2]), cs)
    cy, ty = cx.exp() * 2, tx.exp() * 2
    cy.index_put_((ct.tensor([0, 0]),), cs, accumulate=True)
    ty.index_put_((torch.tensor([0, 0]),), ts, accumulate=True)
    cy.index_copy_(0, ct.tensor([2]), cs[:1] * 3)
    ty.index_copy_(0, torch.tensor([2]), ts[:1] * 3)
    check(cy, ty)
    (cy * cy).sum().backward()
    (ty * ty).sum().backward()
    check(cx.grad, tx.grad)
    check(cs.grad, ts.grad)
    z = (cx * 1).exp()  # exp saves its output; writing it makes backward fail
    z.scatter_(0, ct.tensor([[1, 0]]), ct.zeros(1, 2, dtype=ct.float64))
    with pytest.raises(RuntimeError, match="ExpBackward"):
        z.sum().backward()


def test_errors_name_the_op_and_values():
    x = ct.zeros(3, 2)
    with pytest.raises(IndexError, match="index_put: index 5 is out of bounds for dimension 0 with size 3"):
        x.index_put_((ct.tensor([5]),), ct.tensor(1.0))
    with pytest.raises(IndexError, match="index_add: index -1 is out of bounds for dim 0 with size 3"):
        x.index_add(0, ct.tensor([-1]), ct.ones(1, 2))
    with pytest.raises(ValueError, match="index_copy: source of shape"):
        x.index_copy(0, ct.tensor([0, 1]), ct.ones(1, 2))
    with pytest.raises(TypeError, match="index_put: values dtype float64"):
        ct.index_put(x, (ct.tensor([0]),), ct.tensor(1.0, dtype=ct.float64))
    with pytest.raises(IndexError):
        x[ct.tensor([3])] = 1.0
    assert x.tolist() == [[0, 0], [0, 0], [0, 0]]


SETITEM = [
    ([0, 2],), (slice(None), [1, 0]), ([0, 2], [1, 1]), ([[0], [2]], slice(None)), (1, [0, 1]),
    (Ellipsis, [-1]), ([-1, 0],), ([True, False, True],), ([0, 2], slice(None), [3, 0]),
    (slice(0, 2), [[0], [1]], [2, 3]),
]


@pytest.mark.parametrize("idx", SETITEM, ids=repr)
def test_setitem_with_tensor_indices_matches_torch(idx):
    a = RNG.standard_normal((3, 4, 5))
    c, t = ct.tensor(a), torch.tensor(a)
    shape = t[idx].shape
    v = RNG.standard_normal(shape)
    c[idx] = ct.tensor(v)
    t[idx] = torch.tensor(v)
    check(c, t)
    v1 = RNG.standard_normal(shape[-1:])  # broadcast value
    c[idx] = ct.tensor(v1)
    t[idx] = torch.tensor(v1)
    check(c, t)
    c[idx] = 2.5
    t[idx] = 2.5
    check(c, t)


def test_setitem_is_differentiable_through_index_put():
    a = RNG.standard_normal((3, 4))
    (cx, tx), (cv, tv) = both(a, True), both(RNG.standard_normal(2), True)
    cy, ty = cx * 1, tx * 1
    cy[[0, 2], [1, 3]] = cv
    ty[[0, 2], [1, 3]] = tv
    (cy.sin()).sum().backward()
    (ty.sin()).sum().backward()
    check(cx.grad, tx.grad)
    check(cv.grad, tv.grad)


# ---- counting and searching ----

@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_searchsorted_and_bucketize_match_torch(right, dtype):
    seq = np.sort(RNG.integers(-5, 6, size=(3, 7)), axis=-1).astype(dtype)
    vals = RNG.integers(-6, 7, size=(3, 4)).astype(dtype)
    c = ct.searchsorted(ct.tensor(seq), ct.tensor(vals), right=right)
    t = torch.searchsorted(torch.tensor(seq), torch.tensor(vals), right=right)
    assert c.tolist() == t.tolist() and c.dtype == ct.int64
    c = ct.searchsorted(ct.tensor(seq[0]), ct.tensor(vals), side="right" if right else "left", out_int32=True)
    t = torch.searchsorted(torch.tensor(seq[0]), torch.tensor(vals), right=right, out_int32=True)
    assert c.tolist() == t.tolist() and c.dtype == ct.int32
    assert ct.bucketize(ct.tensor(vals), ct.tensor(seq[1]), right=right).tolist() == \
        torch.bucketize(torch.tensor(vals), torch.tensor(seq[1]), right=right).tolist()
    assert ct.searchsorted(ct.tensor(seq[2]), 2, right=right).tolist() == \
        torch.searchsorted(torch.tensor(seq[2]), 2, right=right).tolist()


def test_searchsorted_sorter_and_nan():
    raw = np.array([5.0, 1.0, np.nan, 3.0])
    order = np.argsort(raw)  # NaN last
    v = np.array([0.0, 3.0, 4.0, np.nan, 9.0])
    c = ct.searchsorted(ct.tensor(raw), ct.tensor(v), sorter=ct.tensor(order))
    t = torch.searchsorted(torch.tensor(raw), torch.tensor(v), sorter=torch.tensor(order))
    assert c.tolist() == t.tolist()
    with pytest.raises(ValueError, match="searchsorted: sorted_sequence of shape"):
        ct.searchsorted(ct.zeros(2, 3), ct.zeros(3, 1))


@pytest.mark.parametrize("weights", [None, "float32", "float64", "int64"])
def test_bincount_matches_torch(weights):
    x = RNG.integers(0, 6, size=20)
    w = None if weights is None else RNG.integers(-3, 4, size=20).astype(weights)
    for minlength in (0, 10):
        c = ct.bincount(ct.tensor(x), None if w is None else ct.tensor(w), minlength=minlength)
        t = torch.bincount(torch.tensor(x), None if w is None else torch.tensor(w), minlength=minlength)
        assert c.tolist() == t.tolist() and str(c.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
    assert ct.tensor([], dtype=ct.int64).bincount().tolist() == []
    with pytest.raises(ValueError, match="bincount: input must be non-negative, got -1"):
        ct.bincount(ct.tensor([0, -1]))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bins,lo,hi", [(10, 0, 0), (7, -1.5, 2.0), (3, 0.25, 0.25), (1, -10, 10)])
def test_histc_matches_torch(dtype, bins, lo, hi):
    x = RNG.standard_normal(50).astype(dtype)
    c = ct.histc(ct.tensor(x), bins=bins, min=lo, max=hi)
    t = torch.histc(torch.tensor(x), bins=bins, min=lo, max=hi)
    check(c, t)
    assert ct.tensor(x).histc(bins, lo, hi).dtype == c.dtype


@pytest.mark.parametrize("op", ["cummax", "cummin"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cummax_cummin_match_torch(op, dim):
    a = RNG.standard_normal((4, 5))
    a[1, 2] = a[0, 2]  # ties
    (cx, tx) = both(a, True)
    (cv, ci), (tv, ti) = getattr(ct, op)(cx, dim), getattr(torch, op)(tx, dim)
    check(cv, tv)
    assert ci.tolist() == ti.tolist()
    w = RNG.standard_normal(a.shape)
    (cv * ct.tensor(w)).sum().backward()
    (tv * torch.tensor(w)).sum().backward()
    check(cx.grad, tx.grad)
    nan = np.array([1.0, 3.0, np.nan, 5.0])
    r = getattr(ct.tensor(nan), op)(0)
    e = getattr(torch.tensor(nan), op)(0)
    np.testing.assert_array_equal(r.values.numpy(), e.values.numpy())
    assert r.indices.tolist() == e.indices.tolist()
    ints = getattr(ct.tensor([[3, 1], [2, 2]], dtype=ct.int32), op)(dim % 2)
    assert ints.values.tolist() == getattr(torch.tensor([[3, 1], [2, 2]], dtype=torch.int32), op)(dim % 2).values.tolist()


# ---- composites and dtype limits ----

@pytest.mark.parametrize("kwargs", [{}, {"nan": 2.0}, {"nan": -1.0, "posinf": 5.0, "neginf": -5.0}, {"posinf": 1e30}])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nan_to_num_matches_torch(kwargs, dtype):
    a = np.array([1.0, np.nan, np.inf, -np.inf, -2.5, 0.0], dtype=dtype)
    (cx, tx) = ct.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    cy, ty = ct.nan_to_num(cx, **kwargs), torch.nan_to_num(tx, **kwargs)
    np.testing.assert_array_equal(cy.detach().numpy(), ty.detach().numpy())
    (cy * 3).sum().backward()
    (ty * 3).sum().backward()
    np.testing.assert_array_equal(cx.grad.numpy(), tx.grad.numpy())
    assert ct.tensor([1, 2]).nan_to_num().tolist() == [1, 2]
    z = ct.tensor(a)
    assert z.nan_to_num_(**kwargs) is z
    np.testing.assert_array_equal(z.numpy(), ty.detach().numpy())


@pytest.mark.parametrize("n,dim,pre,app", [(1, -1, None, None), (2, 0, None, None), (1, 1, (3, 1), None),
                                           (3, 1, (3, 2), (3, 1)), (0, 0, None, None), (6, 1, None, None)])
def test_diff_matches_torch(n, dim, pre, app):
    a = RNG.standard_normal((3, 4))
    (cx, tx) = both(a, True)
    cp, tp = both(RNG.standard_normal(pre), True) if pre else (None, None)
    ca, ta = both(RNG.standard_normal(app), True) if app else (None, None)
    cy, ty = ct.diff(cx, n, dim, cp, ca), torch.diff(tx, n, dim, tp, ta)
    check(cy, ty)
    if ty.numel():
        w = RNG.standard_normal(ty.shape)
        (cy * ct.tensor(w)).sum().backward()
        (ty * torch.tensor(w)).sum().backward()
        check(cx.grad, tx.grad)
        if pre:
            check(cp.grad, tp.grad)
    b = [True, False, False, True, True]
    assert ct.tensor(b).diff().tolist() == torch.tensor(b).diff().tolist()
    assert ct.tensor([1, 4, 9], dtype=ct.int32).diff().tolist() == [3, 5]


@pytest.mark.parametrize("ishape,dim", [((3, 1), 1), ((1, 4), 0), ((2, 4), 0), ((5,), None), ((3, 2), -1)])
def test_take_along_dim_matches_torch(ishape, dim):
    a = RNG.standard_normal((3, 4))
    limit = 12 if dim is None else a.shape[dim]
    i = RNG.integers(0, limit, size=ishape)
    (cx, tx) = both(a, True)
    cy = ct.take_along_dim(cx, ct.tensor(i), dim)
    ty = torch.take_along_dim(tx, torch.tensor(i), dim)
    check(cy, ty)
    w = RNG.standard_normal(ty.shape)
    (cy * ct.tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    check(cx.grad, tx.grad)
    check(cx.detach().take_along_dim(ct.tensor(i), dim), ty)


@pytest.mark.parametrize("dim", [None, 0])
def test_take_along_dim_refuses_floating_indices_naming_itself(dim):
    with pytest.raises(TypeError, match="take_along_dim: indices must be int64 or int32, got float32"):
        ct.take_along_dim(ct.zeros(3), ct.tensor([0.5]), dim)
    with pytest.raises(RuntimeError):
        torch.take_along_dim(torch.zeros(3), torch.tensor([0.5]), dim)


def test_finfo_iinfo_match_torch():
    for c, t in ((ct.float32, torch.float32), (ct.float64, torch.float64)):
        f, g = ct.finfo(c), torch.finfo(t)
        for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution"):
            assert getattr(f, attr) == getattr(g, attr), attr
    assert ct.finfo().dtype == ct.get_default_dtype()
    for c, t in ((ct.uint8, torch.uint8), (ct.int32, torch.int32), (ct.int64, torch.int64)):
        f, g = ct.iinfo(c), torch.iinfo(t)
        assert (f.bits, f.min, f.max) == (g.bits, g.min, g.max)
    with pytest.raises(TypeError, match="finfo: int32 is not a floating point dtype"):
        ct.finfo(ct.int32)
    with pytest.raises(TypeError, match="iinfo: bool is not an integer dtype"):
        ct.iinfo(ct.bool_)

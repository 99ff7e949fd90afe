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

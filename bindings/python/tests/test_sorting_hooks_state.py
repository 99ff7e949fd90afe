"""sort/argsort/topk/kthvalue/unique/cumprod/flip/roll/tril/triu/einsum against NumPy (and PyTorch when installed),
Tensor.register_hook, and Optimizer.state_dict/load_state_dict resuming training exactly."""
import numpy as np
import pytest

import ctensor as ct
from conftest import requires_torch


def test_sort_namedtuple_nan_last_and_stable(rng):
    x = np.array([[3.0, np.nan, 1.0, 3.0, 0.0], [2.0, 2.0, -1.0, np.nan, 5.0]])
    t = ct.tensor(x)
    r = ct.sort(t)
    assert isinstance(r, tuple) and r.values is r[0] and r.indices is r[1]
    order = np.argsort(x, axis=-1, kind="stable")  # NumPy also puts NaN last
    np.testing.assert_array_equal(r.indices.numpy(), order)
    np.testing.assert_array_equal(r.values.numpy(), np.take_along_axis(x, order, -1))
    d = t.sort(dim=1, descending=True)
    assert np.isnan(d.values.numpy()[:, 0]).all()  # NaN first descending (like torch)
    np.testing.assert_array_equal(ct.argsort(t, 0).numpy(), np.argsort(x, 0, kind="stable"))
    assert r.indices.dtype == ct.int64


def test_topk_kthvalue_msort(rng):
    x = rng.permutation(20).reshape(4, 5).astype(np.float32)
    t = ct.tensor(x)
    v, i = ct.topk(t, 2)
    np.testing.assert_array_equal(v.numpy(), -np.sort(-x, 1)[:, :2])
    np.testing.assert_array_equal(np.take_along_axis(x, i.numpy(), 1), v.numpy())
    small = t.topk(3, dim=0, largest=False)
    np.testing.assert_array_equal(small.values.numpy(), np.sort(x, 0)[:3])
    k = ct.kthvalue(t, 2, 1, keepdim=True)
    np.testing.assert_array_equal(k.values.numpy(), np.sort(x, 1)[:, 1:2])
    np.testing.assert_array_equal(ct.msort(t).numpy(), np.sort(x, 0))
    with pytest.raises(IndexError, match="topk: k"):
        ct.topk(t, 6)


def test_unique_kwargs(rng):
    x = rng.integers(0, 5, (4, 6))
    t = ct.tensor(x)
    vals, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    u = ct.unique(t)
    np.testing.assert_array_equal(u.numpy(), vals)
    u, i, c = ct.unique(t, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(i.numpy(), inv.reshape(x.shape))
    np.testing.assert_array_equal(c.numpy(), counts)
    u, c = t.unique(return_counts=True)
    np.testing.assert_array_equal(c.numpy(), counts)
    first = ct.unique(ct.tensor([3, 1, 3, 2]), sorted=False)
    np.testing.assert_array_equal(first.numpy(), [3, 1, 2])


@pytest.mark.parametrize("shape,dim", [((6, 3), 0), ((6, 3), 1), ((4, 3, 2), 1), ((5, 2, 3), -1), ((5, 2, 3), 0),
                                       ((0, 3), 0), ((7,), 0)])
def test_unique_dim_matches_torch(rng, shape, dim):
    torch = requires_torch()
    x = rng.integers(0, 2, size=shape)
    for ri, rc in [(False, False), (True, True), (True, False), (False, True)]:
        want = torch.unique(torch.tensor(x), dim=dim, return_inverse=ri, return_counts=rc)
        got = ct.unique(ct.tensor(x), dim=dim, return_inverse=ri, return_counts=rc)
        want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
        for w, g in zip(want, got):
            assert tuple(g.shape) == tuple(w.shape)
            np.testing.assert_array_equal(g.numpy(), w.numpy())
    with pytest.raises(IndexError):
        ct.unique(ct.tensor(x), dim=len(shape))


def test_cumprod_flip_roll_tril_triu(rng):
    x = rng.standard_normal((3, 4))
    t = ct.tensor(x)
    np.testing.assert_allclose(ct.cumprod(t, 1).numpy(), np.cumprod(x, 1))
    np.testing.assert_allclose(t.cumprod(dim=0).numpy(), np.cumprod(x, 0))
    assert ct.cumprod(ct.tensor([1, 2, 3], dtype=ct.int32), 0).dtype == ct.int64
    np.testing.assert_array_equal(ct.flip(t, (0, 1)).numpy(), x[::-1, ::-1])
    np.testing.assert_array_equal(t.flip(1).numpy(), x[:, ::-1])
    np.testing.assert_array_equal(ct.fliplr(t).numpy(), np.fliplr(x))
    np.testing.assert_array_equal(ct.roll(t, 1, 1).numpy(), np.roll(x, 1, 1))
    np.testing.assert_array_equal(ct.roll(t, (1, -2), (0, 1)).numpy(), np.roll(x, (1, -2), (0, 1)))
    np.testing.assert_array_equal(t.roll(5).numpy(), np.roll(x, 5))
    for k in (-1, 0, 2):
        np.testing.assert_array_equal(ct.tril(t, k).numpy(), np.tril(x, k))
        np.testing.assert_array_equal(t.triu(diagonal=k).numpy(), np.triu(x, k))
    with pytest.raises(ValueError, match="tril"):
        ct.tril(ct.ones(3))


def test_einsum_against_numpy(rng):
    a, b, c = rng.standard_normal((3, 4)), rng.standard_normal((4, 5)), rng.standard_normal((2, 3, 4))
    ta, tb, tc = ct.tensor(a), ct.tensor(b), ct.tensor(c)
    for eq, ops, nops in [("ij,jk->ik", (ta, tb), (a, b)), ("ij,jk", (ta, tb), (a, b)), ("ij->ji", (ta,), (a,)),
                          ("ii->i", (ct.tensor(a[:, :3]),), (a[:, :3],)), ("bij,jk->bik", (tc, tb), (c, b)),
                          ("...j,jk->...k", (tc, tb), (c, b)), ("i,j->ij", (ta[0], tb[0]), (a[0], b[0]))]:
        np.testing.assert_allclose(ct.einsum(eq, *ops).numpy(), np.einsum(eq, *nops), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ct.einsum("ij,jk->ik", [ta, tb]).numpy(), a @ b, rtol=1e-10)
    with pytest.raises(ValueError, match="einsum"):
        ct.einsum("ij,jk->ik", ta, ta)


def test_gradients_against_torch(rng):
    torch = requires_torch()
    x = rng.standard_normal((3, 4))
    x[1, 2] = 0.0
    cases = [lambda m, t: m.sort(t, 1, descending=True)[0], lambda m, t: m.topk(t, 2, 0)[0],
             lambda m, t: m.kthvalue(t, 2, 1)[0], lambda m, t: m.cumprod(t, 1), lambda m, t: m.flip(t, (0,)),
             lambda m, t: m.roll(t, 1, 1), lambda m, t: m.tril(t, 1), lambda m, t: m.einsum("ij,kj->ik", t, t)]
    for f in cases:
        t = ct.tensor(x, requires_grad=True)
        tt = torch.tensor(x, requires_grad=True)
        w = rng.standard_normal(tuple(f(ct, t).shape))
        (f(ct, t) * ct.tensor(w)).sum().backward()
        (f(torch, tt) * torch.tensor(w)).sum().backward()
        np.testing.assert_allclose(f(ct, t).detach().numpy(), f(torch, tt).detach().numpy(), rtol=1e-10)
        np.testing.assert_allclose(t.grad.numpy(), tt.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_cumprod_gradient_with_zeros_by_hand():
    t = ct.tensor([2.0, 0.0, 3.0], dtype=ct.float64, requires_grad=True)
    ct.cumprod(t, 0).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), [1.0, 8.0, 0.0])


def test_register_hook_leaf_nonleaf_and_remove():
    x = ct.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    h = x.register_hook(lambda g: seen.append(g.numpy().copy()) or g * 10)
    (x * x).sum().backward()
    np.testing.assert_allclose(seen[0], [2.0, 4.0])
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 40.0])
    h.remove()
    h.remove()  # idempotent
    x.grad = None
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda g: g + 1)
    y.sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), [2.0, 2.0])
    with pytest.raises(RuntimeError):
        ct.tensor([1.0]).register_hook(lambda g: g)


def test_hook_exception_propagates():
    x = ct.tensor([1.0], requires_grad=True)

    def bad(g):
        raise KeyError("boom")

    x.register_hook(bad)
    with pytest.raises(KeyError, match="boom"):
        (x * 2).sum().backward()


def _train(opt, params, data):
    for d in data:
        opt.zero_grad()
        sum(((p * d) ** 2).sum() for p in params).backward()
        opt.step()


@pytest.mark.parametrize("make", [lambda p: ct.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=0.01),
                                  lambda p: ct.optim.Adam(p, lr=0.05, betas=(0.8, 0.9)),
                                  lambda p: ct.optim.AdamW(p, lr=0.05)])
def test_optimizer_state_dict_round_trip_resumes_identically(make):
    a = [ct.tensor([0.5, -1.0, 2.0], requires_grad=True), ct.tensor([[1.5, 0.25]], requires_grad=True)]
    opt_a = make(a)
    _train(opt_a, a, [1.0, 0.5, 0.8])
    sd = opt_a.state_dict()
    assert sorted(sd["state"]) == [0, 1]
    b = [p.detach().clone().requires_grad_() for p in a]
    opt_b = make(b)
    opt_b.load_state_dict(sd)
    _train(opt_a, a, [0.3, 1.2])
    _train(opt_b, b, [0.3, 1.2])
    for pa, pb in zip(a, b):
        np.testing.assert_array_equal(pa.detach().numpy(), pb.detach().numpy())
    c = [p.detach().clone().requires_grad_() for p in b]
    fresh = make(c)
    _train(fresh, c, [0.7])
    _train(opt_b, b, [0.7])
    assert not np.array_equal(b[0].detach().numpy(), c[0].detach().numpy())


def test_optimizer_state_dict_layout_matches_torch():
    torch = requires_torch()
    p = ct.tensor([1.0, 2.0], requires_grad=True)
    tp = torch.tensor([1.0, 2.0], requires_grad=True)
    opt, topt = ct.optim.Adam([p], lr=0.1), torch.optim.Adam([tp], lr=0.1)
    for o, x, m in ((opt, p, ct), (topt, tp, torch)):
        (x * x).sum().backward()
        o.step()
    sd, tsd = opt.state_dict(), topt.state_dict()
    assert set(sd["state"][0]) == set(tsd["state"][0])
    assert float(sd["state"][0]["step"]) == float(tsd["state"][0]["step"])
    np.testing.assert_allclose(sd["state"][0]["exp_avg"].numpy(), tsd["state"][0]["exp_avg"].numpy(), rtol=1e-6)
    q = ct.tensor([1.0, 2.0], requires_grad=True)
    opt2 = ct.optim.Adam([q], lr=0.1)
    opt2.load_state_dict(tsd)  # a torch state dict loads too
    np.testing.assert_allclose(opt2.state_dict()["state"][0]["exp_avg_sq"].numpy(),
                               tsd["state"][0]["exp_avg_sq"].numpy(), rtol=1e-6)


def test_int64_beyond_2_53_is_exact():
    big = 2 ** 62 + 1
    t = ct.tensor([big, -big, 3])
    assert t.dtype == ct.int64
    assert t.tolist() == [big, -big, 3]
    assert t[0].item() == big
    assert (t == big).tolist() == [True, False, False]
    assert (t + 1).tolist()[0] == big + 1
    u = ct.zeros(2, dtype=ct.int64)
    u.fill_(big)
    assert u.tolist() == [big, big]
    assert ct.full((2,), big).tolist() == [big, big]
    assert ct.full((1,), -big, dtype=ct.int64).item() == -big
    i32 = ct.tensor([1, 2], dtype=ct.int32)
    assert (i32 + 5).dtype == ct.int32
    with pytest.raises(OverflowError):
        t + 2 ** 70

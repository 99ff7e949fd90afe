"""The rest of the tensor toolbox (issue 14) against torch 1.13: repeat_interleave, meshgrid, median / nanmedian,
quantile / nanquantile, cdist and scatter(reduce="add") - values, shapes, gradients, ties and NaN, empty and 0-d
inputs, errors."""
import numpy as np
import pytest

import ctensor as ct

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(1413)
NAN = float("nan")


def both(a, requires_grad=False, dtype=np.float64):
    a = np.asarray(a, dtype=dtype)
    return ct.tensor(a, requires_grad=requires_grad), torch.tensor(a, requires_grad=requires_grad)


def check(c, t, atol=1e-12):
    assert tuple(c.shape) == tuple(t.shape)
    np.testing.assert_allclose(c.detach().numpy(), t.detach().numpy(), atol=atol, rtol=1e-10, equal_nan=True)


def grads_match(fc, ft, a, atol=1e-10):
    xc, xt = both(a, requires_grad=True)
    yc, yt = fc(xc), ft(xt)
    check(yc, yt)
    w = RNG.standard_normal(tuple(yt.shape))
    (yc * ct.tensor(w)).sum().backward()
    (yt * torch.tensor(w)).sum().backward()
    check(xc.grad, xt.grad, atol)


@pytest.mark.parametrize("repeats,dim", [(2, None), (3, 0), (2, 1), (0, 1), ([1, 0, 2], 0), ([2], 1), ([1, 3], -1)])
def test_repeat_interleave_values_and_grads(repeats, dim):
    a = RNG.standard_normal((3, 2)) if not isinstance(repeats, list) or len(repeats) != 2 else RNG.standard_normal((3, 2))
    rc = ct.tensor(np.array(repeats, dtype=np.int64)) if isinstance(repeats, list) else repeats
    rt = torch.tensor(repeats) if isinstance(repeats, list) else repeats
    grads_match(lambda x: ct.repeat_interleave(x, rc, dim=dim), lambda x: torch.repeat_interleave(x, rt, dim=dim), a)
    xc, xt = both(a)
    check(xc.repeat_interleave(rc, dim), xt.repeat_interleave(rt, dim))


def test_repeat_interleave_forms_and_errors():
    check(ct.repeat_interleave(ct.tensor([2, 0, 1])), torch.repeat_interleave(torch.tensor([2, 0, 1])))
    check(ct.repeat_interleave(ct.tensor(5.0), 3), torch.repeat_interleave(torch.tensor(5.0), 3))
    xc, xt = both([[1, 2], [3, 4]])
    check(ct.repeat_interleave(xc, ct.tensor([1, 2]), dim=0, output_size=3),
          torch.repeat_interleave(xt, torch.tensor([1, 2]), dim=0, output_size=3))
    with pytest.raises(ValueError, match="output_size 4"):
        ct.repeat_interleave(xc, ct.tensor([1, 2]), dim=0, output_size=4)
    with pytest.raises(ValueError, match="repeats can not be negative"):
        ct.repeat_interleave(xc, -1)
    with pytest.raises(ValueError, match="repeats"):
        ct.repeat_interleave(xc, ct.tensor([1, 2, 3]), dim=0)
    with pytest.raises(TypeError):
        ct.repeat_interleave(xc, ct.tensor([1.0, 2.0]), dim=0)


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid_values_and_grads(indexing):
    a, b, c = RNG.standard_normal(2), RNG.standard_normal(3), RNG.standard_normal(4)
    ac, at = both(a, True)
    bc, bt = both(b, True)
    cc, ct_ = both(c, True)
    gc = ct.meshgrid(ac, bc, cc, indexing=indexing)
    gt = torch.meshgrid(at, bt, ct_, indexing=indexing)
    assert len(gc) == 3
    for u, v in zip(gc, gt):
        check(u, v)
    w = RNG.standard_normal(tuple(gt[0].shape))
    ((gc[0] * gc[1].exp() + gc[2]) * ct.tensor(w)).sum().backward()
    ((gt[0] * gt[1].exp() + gt[2]) * torch.tensor(w)).sum().backward()
    for u, v in ((ac, at), (bc, bt), (cc, ct_)):
        check(u.grad, v.grad, 1e-10)
    check(ct.meshgrid([ct.tensor(1.0), ct.tensor([1.0, 2.0])], indexing="ij")[1],
          torch.meshgrid([torch.tensor(1.0), torch.tensor([1.0, 2.0])], indexing="ij")[1])
    with pytest.raises(TypeError, match="one dtype"):
        ct.meshgrid(ct.tensor([1.0]), ct.tensor([1]))
    with pytest.raises(ValueError):
        ct.meshgrid(ct.tensor([[1.0]]))


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@pytest.mark.parametrize("data,dim,keepdim", [
    ([[1, 1, 1, 2], [3, 1, 1, 2]], 1, False), ([[1, NAN, 2, NAN], [NAN, 4, NAN, NAN]], 1, True),
    ([[5, 3, 9], [1, 7, 2]], 0, False), ([[NAN, 3, 9], [1, 7, 2]], 0, True), (4.0, 0, False)])
def test_median_dim_matches_torch(fn, data, dim, keepdim):
    xc, xt = both(data)
    vc, ic = getattr(ct, fn)(xc, dim, keepdim)
    vt, it = getattr(torch, fn)(xt, dim, keepdim)
    check(vc, vt)
    check(ic, it)
    r = getattr(xc, fn)(dim=dim, keepdim=keepdim)
    check(r.values, vt)
    check(r.indices, it)
    check(getattr(ct, fn)(xc), getattr(torch, fn)(xt))


def test_median_grads_ints_and_empty():
    a = RNG.standard_normal((4, 5))
    grads_match(lambda x: ct.median(x, 1).values, lambda x: torch.median(x, 1).values, a)
    grads_match(lambda x: x.nanmedian(0, True).values, lambda x: x.nanmedian(0, True).values, a)
    grads_match(lambda x: ct.median(x), lambda x: torch.median(x), a)
    xc, xt = both([[5, 3, 9], [1, 7, 2]], dtype=np.int64)
    check(ct.median(xc, 1).values, torch.median(xt, 1).values)
    check(ct.median(xc), torch.median(xt))
    check(ct.median(ct.tensor([])), torch.median(torch.tensor([])))
    # an all-NaN row: NaN (torch's index there comes from nth_element over equal keys; ours is 0)
    check(ct.nanmedian(ct.tensor([[NAN, NAN, NAN]]), 1).values, torch.nanmedian(torch.tensor([[NAN, NAN, NAN]]), 1).values)
    with pytest.raises(IndexError, match="non-zero size"):
        ct.median(ct.zeros(2, 0), 1)


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("q,dim,keepdim", [(0.3, None, False), (0.5, 1, True), ([0.0, 0.25, 0.9, 1.0], 0, False),
                                           ([0.1, 0.7], None, True), ([0.5], -1, False), (0.75, 0, True)])
def test_quantile_matches_torch(interpolation, q, dim, keepdim):
    a = RNG.standard_normal((4, 5))
    qc = ct.tensor(np.array(q)) if isinstance(q, list) else q
    qt = torch.tensor(q, dtype=torch.float64) if isinstance(q, list) else q
    grads_match(lambda x: ct.quantile(x, qc, dim, keepdim, interpolation=interpolation),
                lambda x: torch.quantile(x, qt, dim, keepdim, interpolation=interpolation), a)
    b = a.copy()
    b[1, 2] = b[3, 0] = NAN
    b[2, :] = NAN
    for fn in ("quantile", "nanquantile"):
        xc, xt = both(b)
        check(getattr(xc, fn)(qc, dim, keepdim, interpolation=interpolation),
              getattr(xt, fn)(qt, dim, keepdim, interpolation=interpolation))


def test_quantile_errors():
    x = ct.tensor([1.0, 2.0])
    with pytest.raises(ValueError, match=r"range \[0, 1\]"):
        ct.quantile(x, 1.5)
    with pytest.raises(ValueError, match=r"range \[0, 1\]"):
        ct.quantile(x, ct.tensor([0.5, -0.5], dtype=ct.float64).to(ct.float32))
    with pytest.raises(TypeError, match="dtype"):
        ct.quantile(x, ct.tensor([0.5], dtype=ct.float64))
    with pytest.raises(TypeError, match="float32 or float64"):
        ct.quantile(ct.tensor([1, 2]), 0.5)
    with pytest.raises(ValueError, match="interpolation"):
        ct.quantile(x, 0.5, interpolation="cubic")


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, 0.5, float("inf")])
@pytest.mark.parametrize("shapes", [((5, 3), (4, 3)), ((2, 5, 3), (1, 4, 3)), ((30, 2), (3, 2))])
def test_cdist_matches_torch(p, shapes):
    a, b = RNG.standard_normal(shapes[0]), RNG.standard_normal(shapes[1])
    bc, bt = both(b, True)
    grads_match(lambda x: ct.cdist(x, bc, p), lambda x: torch.cdist(x, bt, p), a, atol=1e-8)
    check(bc.grad, bt.grad, 1e-8)


def test_cdist_modes_zero_distance_and_errors():
    a = RNG.standard_normal((3, 2))
    for mode in ("use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
        grads_match(lambda x: ct.cdist(x, x.detach() + 1, compute_mode=mode),
                    lambda x: torch.cdist(x, x.detach() + 1, compute_mode=mode), a, atol=1e-8)
    xc, xt = both([[1.0, 2.0]], True)
    ct.cdist(xc, ct.tensor([[1.0, 2.0], [0.0, 0.0]], dtype=ct.float64)).sum().backward()
    torch.cdist(xt, torch.tensor([[1.0, 2.0], [0.0, 0.0]], dtype=torch.float64)).sum().backward()
    check(xc.grad, xt.grad)
    check(ct.cdist(ct.zeros(0, 2), ct.zeros(3, 2)), torch.cdist(torch.zeros(0, 2), torch.zeros(3, 2)))
    with pytest.raises(ValueError, match="columns"):
        ct.cdist(ct.zeros(2, 3), ct.zeros(2, 2))
    with pytest.raises(ValueError, match="non-negative"):
        ct.cdist(ct.zeros(2, 3), ct.zeros(2, 3), -1)
    with pytest.raises(ValueError, match="compute_mode"):
        ct.cdist(ct.zeros(2, 3), ct.zeros(2, 3), compute_mode="fast")


@pytest.mark.parametrize("use_value", [False, True])
def test_scatter_reduce_add(use_value):
    a = RNG.standard_normal((3, 4))
    idx = np.array([[0, 1, 0, 2], [2, 2, 1, 0]])
    src = RNG.standard_normal((2, 4))
    xc, xt = both(a)
    ic, it = ct.tensor(idx), torch.tensor(idx)
    sc, st = (1.5, 1.5) if use_value else both(src)
    check(xc.scatter(0, ic, sc, reduce="add"), xt.scatter(0, it, st, reduce="add"))
    check(xc.clone().scatter_(0, ic, sc, reduce="add"), xt.clone().scatter_(0, it, st, reduce="add"))
    check(xc.scatter(0, ic, sc, reduce="multiply"), xt.scatter(0, it, st, reduce="multiply"))

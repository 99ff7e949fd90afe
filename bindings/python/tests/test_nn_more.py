"""More ctensor.nn against PyTorch: loss options (BCE weights and pos_weight, stable logits, L1/smooth L1/Huber,
KL divergence, cosine similarity, pairwise distance) with values and input gradients, the loss modules' buffers
and legacy arguments, InstanceNorm1d/2d/3d (training, running statistics, eval, unbatched input), Dropout3d and
LocalResponseNorm, plus the error paths."""
import warnings

import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

from conftest import requires_torch


def _np(t):
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def _pairs(torch, *arrays, requires_grad=True):
    """Each array as a float64 ctensor and torch tensor, in two lists (mine, theirs)."""
    mine = [ct.tensor(a, dtype=ct.float64, requires_grad=requires_grad) for a in arrays]
    theirs = [torch.tensor(a, dtype=torch.float64, requires_grad=requires_grad) for a in arrays]
    return mine, theirs


def _compare(torch, fn_mine, fn_torch, arrays, rng, grad_of=None, rtol=1e-10, atol=1e-12):
    """Values and the gradients (of the inputs at positions grad_of, default all) of the same computation."""
    mine, theirs = _pairs(torch, *arrays)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out_mine, out_torch = fn_mine(*mine), fn_torch(*theirs)
    np.testing.assert_allclose(_np(out_mine), _np(out_torch), rtol=rtol, atol=atol)
    upstream = rng.standard_normal(tuple(out_torch.shape))
    out_mine.backward(ct.tensor(upstream, dtype=ct.float64))
    out_torch.backward(torch.tensor(upstream, dtype=torch.float64))
    for i in (range(len(arrays)) if grad_of is None else grad_of):
        np.testing.assert_allclose(_np(mine[i].grad), _np(theirs[i].grad), rtol=rtol, atol=atol, err_msg=str(i))


REDUCTIONS = ["none", "mean", "sum"]


# ---- binary cross entropy ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weight_shape", [None, (4,), (3, 1), (3, 4)])
def test_binary_cross_entropy_weight_matches_torch(reduction, weight_shape, rng):
    torch = requires_torch()
    p, y = rng.uniform(0.05, 0.95, (3, 4)), rng.uniform(0, 1, (3, 4))
    w = None if weight_shape is None else rng.uniform(0.1, 2.0, weight_shape)
    wm = None if w is None else ct.tensor(w, dtype=ct.float64)
    wt = None if w is None else torch.tensor(w, dtype=torch.float64)
    _compare(torch, lambda a, b: F.binary_cross_entropy(a, b, wm, reduction=reduction),
             lambda a, b: torch.nn.functional.binary_cross_entropy(a, b, wt, reduction=reduction), [p, y], rng)


def test_binary_cross_entropy_clamps_log_like_torch():
    torch = requires_torch()
    p, y, w = np.array([0.0, 1.0, 0.0, 1.0, 0.5]), np.array([1.0, 0.0, 0.0, 1.0, 1.0]), np.arange(1.0, 6.0)
    mine = F.binary_cross_entropy(ct.tensor(p), ct.tensor(y), ct.tensor(w), reduction="none")
    theirs = torch.nn.functional.binary_cross_entropy(torch.tensor(p), torch.tensor(y), torch.tensor(w),
                                                      reduction="none")
    np.testing.assert_allclose(mine.numpy(), theirs.numpy())
    assert mine.numpy()[0] == 100.0 and mine.numpy()[1] == 200.0  # log clamped at -100, times the weight


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weight,pos_weight", [(None, None), ((4,), None), (None, (4,)), ((3, 4), (4,)),
                                               ((3, 1), (1,))])
def test_bce_with_logits_weights_match_torch(reduction, weight, pos_weight, rng):
    torch = requires_torch()
    x, y = rng.standard_normal((3, 4)) * 3, rng.uniform(0, 1, (3, 4))
    x[0, 0] = 0.0
    w = None if weight is None else rng.uniform(0.1, 2.0, weight)
    pw = None if pos_weight is None else rng.uniform(0.5, 3.0, pos_weight)

    def args(lib, dtype):
        return tuple(None if a is None else lib.tensor(a, dtype=dtype) for a in (w, pw))

    wm, pwm = args(ct, ct.float64)
    wt, pwt = args(torch, torch.float64)
    _compare(torch, lambda a, b: F.binary_cross_entropy_with_logits(a, b, wm, reduction=reduction, pos_weight=pwm),
             lambda a, b: torch.nn.functional.binary_cross_entropy_with_logits(a, b, wt, reduction=reduction,
                                                                               pos_weight=pwt),
             [x, y], rng)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bce_with_logits_is_stable_for_large_logits(dtype):
    torch = requires_torch()
    x, y = np.array([-800.0, -40.0, 0.0, 40.0, 800.0]), np.array([1.0, 1.0, 0.5, 0.0, 0.0])
    pw = np.array([2.5])
    xm = ct.tensor(x, dtype=dtype, requires_grad=True)
    xt = torch.tensor(x, dtype=getattr(torch, dtype), requires_grad=True)
    mine = F.binary_cross_entropy_with_logits(xm, ct.tensor(y, dtype=dtype), reduction="none",
                                              pos_weight=ct.tensor(pw, dtype=dtype))
    theirs = torch.nn.functional.binary_cross_entropy_with_logits(xt, torch.tensor(y, dtype=xt.dtype),
                                                                  reduction="none",
                                                                  pos_weight=torch.tensor(pw, dtype=xt.dtype))
    assert np.all(np.isfinite(mine.detach().numpy()))
    np.testing.assert_allclose(_np(mine), _np(theirs), rtol=1e-6)
    mine.sum().backward()
    theirs.sum().backward()
    np.testing.assert_allclose(_np(xm.grad), _np(xt.grad), rtol=1e-6, atol=1e-7)
    # hand values: x = -800, y = 1, pos_weight 2.5 -> 2.5 * 800; x = 800, y = 0 -> 800
    assert mine.detach().numpy()[0] == pytest.approx(2000.0) and mine.detach().numpy()[4] == pytest.approx(800.0)


def test_bce_modules_keep_weights_as_buffers(rng):
    torch = requires_torch()
    w, pw = rng.uniform(0.5, 2.0, (4,)), rng.uniform(0.5, 2.0, (4,))
    mine = nn.BCEWithLogitsLoss(weight=ct.tensor(w), pos_weight=ct.tensor(pw), reduction="sum")
    theirs = torch.nn.BCEWithLogitsLoss(weight=torch.tensor(w), pos_weight=torch.tensor(pw), reduction="sum")
    assert list(mine.state_dict()) == list(theirs.state_dict()) == ["weight", "pos_weight"]
    assert list(nn.BCEWithLogitsLoss().state_dict()) == list(torch.nn.BCEWithLogitsLoss().state_dict()) == []
    assert [n for n, _ in nn.BCELoss(weight=ct.ones(2)).named_buffers()] == ["weight"]
    mine.double()
    assert mine.weight.dtype == ct.float64 and mine.pos_weight.dtype == ct.float64
    x, y = rng.standard_normal((2, 4)), rng.uniform(0, 1, (2, 4))
    np.testing.assert_allclose(mine(ct.tensor(x), ct.tensor(y)).item(),
                               theirs(torch.tensor(x), torch.tensor(y)).item(), rtol=1e-12)
    p = rng.uniform(0.1, 0.9, (2, 4))
    np.testing.assert_allclose(nn.BCELoss(ct.tensor(w))(ct.tensor(p), ct.tensor(y)).item(),
                               torch.nn.BCELoss(torch.tensor(w))(torch.tensor(p), torch.tensor(y)).item(), rtol=1e-12)


def test_bce_errors():
    with pytest.raises(ValueError, match=r"Target size \(\[2\]\) must be the same as input size \(\[2, 1\]\)"):
        F.binary_cross_entropy_with_logits(ct.zeros(2, 1), ct.zeros(2))
    with pytest.raises(ValueError, match="different to the input size"):
        F.binary_cross_entropy(ct.zeros(2, 1), ct.zeros(2))
    with pytest.raises(RuntimeError, match=r"weight of shape \[3\] cannot be broadcast to the input's shape \[2, 4\]"):
        F.binary_cross_entropy(ct.full((2, 4), 0.5), ct.ones(2, 4), weight=ct.ones(3))
    with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
        F.binary_cross_entropy_with_logits(ct.zeros(2), ct.zeros(2), pos_weight=ct.ones(2), reduction="avg")


# ---- regression losses ------------------------------------------------------------------------------------------

REGRESSION = [
    ("l1_loss", {}),
    ("smooth_l1_loss", {"beta": 1.0}),
    ("smooth_l1_loss", {"beta": 0.3}),
    ("smooth_l1_loss", {"beta": 0.0}),
    ("huber_loss", {"delta": 1.0}),
    ("huber_loss", {"delta": 0.4}),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,kwargs", REGRESSION)
@pytest.mark.parametrize("target_shape", [(3, 4), (4,)])
def test_regression_losses_match_torch(name, kwargs, reduction, target_shape, rng):
    torch = requires_torch()
    x, y = rng.standard_normal((3, 4)), rng.standard_normal(target_shape)
    _compare(torch, lambda a, b: getattr(F, name)(a, b, reduction=reduction, **kwargs),
             lambda a, b: getattr(torch.nn.functional, name)(a, b, reduction=reduction, **kwargs), [x, y], rng)


def test_regression_losses_by_hand_and_warnings():
    x, y = ct.tensor([0.0, 0.5, 3.0]), ct.tensor([0.0, 0.0, 0.0])
    assert F.huber_loss(x, y, reduction="none", delta=2.0).tolist() == [0.0, 0.125, 4.0]  # 2 * (3 - 1)
    assert F.smooth_l1_loss(x, y, reduction="none", beta=2.0).tolist() == [0.0, 0.0625, 2.0]
    assert F.l1_loss(x, y, reduction="sum").item() == 3.5
    with pytest.warns(UserWarning, match=r"target size \(\[3\]\) that is different to the input size \(\[2, 3\]\)"):
        F.l1_loss(ct.zeros(2, 3), x)
    with pytest.raises(RuntimeError, match="huber_loss does not support non-positive values for delta"):
        F.huber_loss(x, y, delta=0.0)
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values for beta"):
        F.smooth_l1_loss(x, y, beta=-1.0)


def test_loss_modules_match_torch_and_take_legacy_arguments(rng):
    torch = requires_torch()
    x, y = rng.standard_normal((2, 5)), rng.standard_normal((2, 5))
    cases = [("HuberLoss", dict(delta=0.5, reduction="sum")), ("SmoothL1Loss", dict(beta=0.5)),
             ("L1Loss", dict(reduction="none")), ("MSELoss", dict(size_average=False)),
             ("L1Loss", dict(reduce=False)), ("SmoothL1Loss", dict(size_average=True, reduce=True))]
    for name, kwargs in cases:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mine, theirs = getattr(nn, name)(**kwargs), getattr(torch.nn, name)(**kwargs)
        assert mine.reduction == theirs.reduction, name
        assert any("size_average and reduce args will be deprecated" in str(w.message) for w in caught) == \
            ("reduce" in kwargs or "size_average" in kwargs)
        np.testing.assert_allclose(_np(mine(ct.tensor(x), ct.tensor(y))), _np(theirs(torch.tensor(x),
                                                                                      torch.tensor(y))), rtol=1e-12)
    with pytest.warns(UserWarning, match="reduction='sum'"):
        assert F.mse_loss(ct.ones(2), ct.zeros(2), size_average=False).item() == 2.0


def test_weighted_losses_keep_weight_buffers(rng):
    torch = requires_torch()
    w = rng.uniform(0.5, 2.0, 3)
    logits, target = rng.standard_normal((4, 3)), np.array([0, 2, 1, 2])
    for name in ("CrossEntropyLoss", "NLLLoss"):
        mine, theirs = getattr(nn, name)(weight=ct.tensor(w)), getattr(torch.nn, name)(weight=torch.tensor(w))
        assert list(mine.state_dict()) == list(theirs.state_dict()) == ["weight"]
        got = mine(ct.tensor(logits), ct.tensor(target)).item()
        assert got == pytest.approx(theirs(torch.tensor(logits), torch.tensor(target)).item(), rel=1e-12)
    assert list(nn.CrossEntropyLoss().state_dict()) == []


# ---- KL divergence ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS + ["batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_matches_torch(reduction, log_target, rng):
    torch = requires_torch()
    x = np.log(rng.dirichlet(np.ones(5), size=3))
    y = rng.dirichlet(np.ones(5), size=3)
    y[0, 1] = 0.0  # 0 * log 0 counts as 0
    if log_target:
        y = np.log(rng.dirichlet(np.ones(5), size=3))
    def both(xs, ys, grad_of):
        _compare(torch, lambda a, b: F.kl_div(a, b, reduction=reduction, log_target=log_target),
                 lambda a, b: torch.nn.functional.kl_div(a, b, reduction=reduction, log_target=log_target), [xs, ys],
                 rng, grad_of=grad_of)

    both(x, y, [0] if not log_target else None)  # the target's gradient at 0 is -inf/nan in torch: not compared
    if not log_target:
        both(x, rng.dirichlet(np.ones(5), size=3), None)


def test_kl_div_by_hand_module_and_warning():
    p, q = np.array([[0.5, 0.5], [0.9, 0.1]]), np.array([[0.25, 0.75], [0.5, 0.5]])
    expected = np.sum(q * np.log(q / p)) / 2  # KL(q || p), batch mean
    assert nn.KLDivLoss(reduction="batchmean")(ct.tensor(np.log(p)), ct.tensor(q)).item() == pytest.approx(expected)
    assert F.kl_div(ct.tensor(np.log(p)), ct.tensor(np.log(q)), reduction="batchmean",
                    log_target=True).item() == pytest.approx(expected)
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(ct.tensor(np.log(p)), ct.tensor(q))
    with pytest.raises(ValueError, match="bogus is not a valid value for reduction"):
        F.kl_div(ct.zeros(2), ct.zeros(2), reduction="bogus")
    with pytest.raises(ValueError, match="bogus is not a valid value for reduction"):
        nn.KLDivLoss(reduction="bogus")


# ---- distances --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shapes,dim", [(((4, 3), (4, 3)), 1), (((4, 3), (1, 3)), 1), (((2, 3, 4), (3, 4)), -1),
                                        (((5,), (5,)), 0), (((2, 3, 4), (2, 3, 4)), 0)])
def test_cosine_similarity_matches_torch(shapes, dim, rng):
    torch = requires_torch()
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    _compare(torch, lambda x, y: F.cosine_similarity(x, y, dim=dim),
             lambda x, y: torch.nn.functional.cosine_similarity(x, y, dim=dim), [a, b], rng)
    np.testing.assert_allclose(_np(nn.CosineSimilarity(dim=dim)(ct.tensor(a), ct.tensor(b))),
                               _np(torch.nn.CosineSimilarity(dim=dim)(torch.tensor(a), torch.tensor(b))), rtol=1e-12)


def test_cosine_similarity_clamps_each_norm_like_torch_1_13():
    torch = requires_torch()
    a, b = np.array([[1e-5, 0.0], [3.0, 4.0]]), np.array([[1e-5, 0.0], [1e-9, 0.0]])
    mine = F.cosine_similarity(ct.tensor(a), ct.tensor(b), dim=1, eps=1e-3).numpy()
    theirs = torch.nn.functional.cosine_similarity(torch.tensor(a), torch.tensor(b), dim=1, eps=1e-3).numpy()
    np.testing.assert_allclose(mine, theirs, rtol=1e-12)
    np.testing.assert_allclose(mine, [1e-4, 0.6 * 1e-6], rtol=1e-12)  # (1e-5 / 1e-3) ** 2 and 3/5 * 1e-9 / 1e-3
    with pytest.raises(RuntimeError, match="expected floating point inputs"):
        F.cosine_similarity(ct.tensor([1, 2]), ct.tensor([1, 2]), dim=0)
    with pytest.raises(RuntimeError, match=r"size of tensor a \(2\) must match the size of tensor b \(4\)"):
        F.cosine_similarity(ct.ones(2, 3), ct.ones(4, 3))


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, float("inf")])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shapes", [((4, 3), (4, 3)), ((4, 3), (3,)), ((5,), (5,))])
def test_pairwise_distance_matches_torch(p, keepdim, shapes, rng):
    torch = requires_torch()
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    _compare(torch, lambda x, y: nn.PairwiseDistance(p=p, keepdim=keepdim)(x, y),
             lambda x, y: torch.nn.PairwiseDistance(p=p, keepdim=keepdim)(x, y), [a, b], rng)


def test_pairwise_distance_by_hand():
    d = F.pairwise_distance(ct.tensor([[0.0, 0.0], [1.0, 1.0]]), ct.tensor([3.0, 4.0]), eps=0.0)
    np.testing.assert_allclose(d.numpy(), [5.0, np.sqrt(13.0)])
    with pytest.raises(RuntimeError, match="pairwise_distance: the size of tensor a"):
        F.pairwise_distance(ct.ones(2, 3), ct.ones(4, 3))


# ---- InstanceNorm -----------------------------------------------------------------------------------------------

IN_CASES = [
    ("InstanceNorm1d", (4, 3, 5), {}),
    ("InstanceNorm1d", (3, 5), {"affine": True}),  # unbatched
    ("InstanceNorm2d", (2, 3, 4, 5), {"affine": True, "track_running_stats": True}),
    ("InstanceNorm2d", (3, 4, 2), {"track_running_stats": True, "momentum": 0.3}),  # unbatched
    ("InstanceNorm2d", (2, 2, 3, 3), {"eps": 1e-3, "affine": True}),
    ("InstanceNorm3d", (2, 2, 3, 2, 2), {"affine": True, "track_running_stats": True}),
]


def _copy_affine(mine, theirs, rng):
    torch = requires_torch()
    for name in ("weight", "bias"):
        value = rng.standard_normal(tuple(getattr(theirs, name).shape))
        getattr(mine, name).data = ct.tensor(value, dtype=ct.float64)
        with torch.no_grad():
            getattr(theirs, name).copy_(torch.tensor(value))


@pytest.mark.parametrize("name,shape,kwargs", IN_CASES)
def test_instance_norm_matches_torch(name, shape, kwargs, rng):
    torch = requires_torch()
    batched = len(shape) == int(name[-2]) + 2
    channels = shape[1] if batched else shape[0]
    mine = getattr(nn, name)(channels, **kwargs).double()
    theirs = getattr(torch.nn, name)(channels, **kwargs).double()
    if mine.affine:
        _copy_affine(mine, theirs, rng)
    for step in range(3):
        x = rng.standard_normal(shape) * (step + 1) + step
        _compare(torch, lambda a: mine(a), lambda a: theirs(a), [x], rng, rtol=1e-9, atol=1e-10)
        if mine.affine:
            for p_mine, p_torch in ((mine.weight, theirs.weight), (mine.bias, theirs.bias)):
                np.testing.assert_allclose(_np(p_mine.grad), _np(p_torch.grad), rtol=1e-9, atol=1e-10)
                p_mine.grad, p_torch.grad = None, None
    assert list(mine.state_dict()) == list(theirs.state_dict())
    for buffer in ("running_mean", "running_var"):
        if theirs.track_running_stats:
            np.testing.assert_allclose(_np(getattr(mine, buffer)), _np(getattr(theirs, buffer)), rtol=1e-12)
    mine.eval()
    theirs.eval()
    x = rng.standard_normal(shape)
    _compare(torch, lambda a: mine(a), lambda a: theirs(a), [x], rng, rtol=1e-9, atol=1e-10)
    assert repr(mine) == repr(theirs)


def test_instance_norm_functional_by_hand_and_errors():
    x = ct.tensor([[[1.0, 3.0], [2.0, 2.0]]], dtype=ct.float64)  # [N=1, C=2, L=2]
    out = F.instance_norm(x, eps=0.0)
    np.testing.assert_allclose(out.numpy(), [[[-1.0, 1.0], [np.nan, np.nan]]])  # constant plane: 0 / 0
    rm, rv = ct.zeros(2, dtype=ct.float64), ct.ones(2, dtype=ct.float64)
    F.instance_norm(x, rm, rv, momentum=0.5)
    np.testing.assert_allclose(rm.numpy(), [1.0, 1.0])  # 0.5 * 0 + 0.5 * mean
    np.testing.assert_allclose(rv.numpy(), [1.5, 0.5])  # 0.5 * 1 + 0.5 * unbiased variance (2 and 0)
    with pytest.raises(ValueError, match="Expected more than 1 spatial element when training"):
        F.instance_norm(ct.ones(2, 3, 1))
    with pytest.raises(RuntimeError, match="running_mean and running_var to be defined"):
        F.instance_norm(x, use_input_stats=False)
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        nn.InstanceNorm2d(2)(ct.ones(2, 3))
    with pytest.raises(ValueError, match=r"expected input's size at dim=1 to match num_features \(3\), but got: 2"):
        nn.InstanceNorm1d(3, affine=True)(ct.ones(4, 2, 5))
    with pytest.warns(UserWarning, match="does not match num_features"):
        nn.InstanceNorm1d(3)(ct.ones(4, 2, 5))


# ---- Dropout3d and LocalResponseNorm ----------------------------------------------------------------------------

def test_dropout3d_zeroes_whole_channels():
    ct.manual_seed(7)
    x = ct.ones(8, 16, 2, 3, 2, requires_grad=True)
    y = F.dropout3d(x, 0.5, training=True)
    per_channel = y.detach().numpy().reshape(8, 16, -1)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert np.all(per_channel.min(axis=2) == per_channel.max(axis=2))  # one draw per (sample, channel)
    assert 0.3 < (per_channel[:, :, 0] == 0).mean() < 0.7
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())
    unbatched = nn.Dropout3d(0.5)(ct.ones(6, 2, 2, 2)).numpy().reshape(6, -1)
    assert np.all(unbatched.min(axis=1) == unbatched.max(axis=1))
    module = nn.Dropout3d(0.5)
    module.eval()
    assert ct.equal(module(x), x)
    with pytest.warns(UserWarning, match="Received a 3-D input to dropout3d"):
        F.dropout3d(ct.ones(2, 3, 4), 0.5)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        F.dropout3d(x, 1.5)


@pytest.mark.parametrize("shape,size", [((2, 6, 5), 3), ((2, 5, 3, 4), 2), ((1, 4, 2, 2, 3), 5), ((2, 3, 4), 1)])
def test_local_response_norm_matches_torch(shape, size, rng):
    torch = requires_torch()
    x = rng.standard_normal(shape) * 3
    kwargs = dict(alpha=0.3, beta=0.7, k=1.5)
    _compare(torch, lambda a: nn.LocalResponseNorm(size, **kwargs)(a),
             lambda a: torch.nn.LocalResponseNorm(size, **kwargs)(a), [x], rng)
    assert repr(nn.LocalResponseNorm(size, **kwargs)) == repr(torch.nn.LocalResponseNorm(size, **kwargs))


def test_local_response_norm_by_hand_and_errors():
    x = ct.tensor([[[1.0], [2.0], [3.0]]], dtype=ct.float64)  # [1, 3, 1], size 2: channels c-1 and c
    out = F.local_response_norm(x, 2, alpha=1.0, beta=1.0, k=0.0).numpy().ravel()
    np.testing.assert_allclose(out, [1.0 / 0.5, 2.0 / 2.5, 3.0 / 6.5])
    with pytest.raises(ValueError, match=r"Expected 3D or higher dimensionality input \(got 2 dimensions\)"):
        F.local_response_norm(ct.ones(2, 3), 2)
    assert F.local_response_norm(ct.ones(0, 3, 2), 2).shape == (0, 3, 2)


# ---- CUDA (skipped without a device; run with CTENSOR_CUDA_BACKEND=<emulated backend> to exercise) ---------------

@pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA device")
def test_new_nn_pieces_on_cuda_match_cpu(rng):
    x, y = rng.standard_normal((3, 4, 5, 2)), rng.uniform(0, 1, (3, 4, 5, 2))
    w, pw = rng.uniform(0.5, 2.0, (2,)), rng.uniform(0.5, 2.0, (2,))
    results = {}
    for device in ("cpu", "cuda"):
        model = nn.Sequential(nn.InstanceNorm2d(4, affine=True, track_running_stats=True),
                              nn.LocalResponseNorm(3)).double().to(device)
        inp = ct.tensor(x, dtype=ct.float64, device=device, requires_grad=True)
        target = ct.tensor(y, dtype=ct.float64, device=device)
        out = model(inp)
        loss = (nn.BCEWithLogitsLoss(weight=ct.tensor(w, device=device), pos_weight=ct.tensor(pw, device=device))(
            out, target) + F.huber_loss(out, target, delta=0.5) + F.kl_div(out, target, reduction="batchmean")
            + F.cosine_similarity(out, target).sum() + F.pairwise_distance(out, target).sum())
        loss.backward()
        assert loss.is_cuda == (device == "cuda") and model[0].running_mean.is_cuda == (device == "cuda")
        results[device] = (loss, inp.grad, model[0].weight.grad, model[0].running_var)
    for on_cpu, on_cuda in zip(results["cpu"], results["cuda"]):
        np.testing.assert_allclose(_np(on_cuda.cpu()), _np(on_cpu), rtol=1e-9, atol=1e-10)
    dropped = F.dropout3d(ct.ones(8, 16, 2, 2, 2, device="cuda"), 0.5).cpu().numpy().reshape(8, 16, -1)
    assert np.all(dropped.min(axis=2) == dropped.max(axis=2))

"""The losses beyond cross entropy/nll/mse/bce (l1, smooth_l1, huber, kl_div, margin ranking, hinge embedding, soft
margin, multilabel soft margin, multi margin, cosine embedding, triplet margin, poisson and gaussian nll) against
PyTorch 1.13: values and gradients for every reduction, broadcasting, the legacy size_average/reduce arguments,
the nn modules, and bad shapes and labels raising torch's exception types. The conformance suite holds the same
ops' cases for every language; here the Python surface is checked."""
import warnings

import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

from conftest import requires_torch

REDUCTIONS = ("none", "mean", "sum")


def _run(m, fn, diff, const):
    xs = [m.tensor(a, requires_grad=True) for a in diff]
    cs = [m.tensor(c) for c in const]
    return xs, fn(m, *xs, *cs)


def compare(fn, diff, const=(), rtol=1e-7, atol=1e-9):
    """fn(module, *differentiable inputs, *constant inputs) in ctensor and torch: values and input gradients."""
    torch = requires_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        xs_c, out_c = _run(ct, fn, diff, const)
        xs_t, out_t = _run(torch, fn, diff, const)
    assert tuple(out_c.shape) == tuple(out_t.shape)
    np.testing.assert_allclose(out_c.detach().numpy(), out_t.detach().numpy(), rtol=rtol, atol=atol)
    g = np.random.default_rng(1).standard_normal(tuple(out_t.shape))
    out_c.backward(ct.tensor(g))
    out_t.backward(torch.tensor(g))
    for x, t in zip(xs_c, xs_t):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol)


rng = np.random.default_rng(14)
X, Y, Z = rng.standard_normal((4, 5)), rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
SIGNS = np.where(rng.random((4,)) < 0.5, -1.0, 1.0)
SIGNS5 = np.where(rng.random((4, 5)) < 0.5, -1.0, 1.0)
LABELS = (rng.random((4, 5)) < 0.5).astype(np.float64)
CLASSES = np.array([2, 0, 4, 4])
POS = rng.random((4, 5)) + 0.1

CASES = {
    "l1": (lambda m, x, y, r: m.nn.functional.l1_loss(x, y, reduction=r), [X, Y[0]], []),
    "smooth_l1": (lambda m, x, y, r: m.nn.functional.smooth_l1_loss(x, y, reduction=r, beta=0.7), [X, Y], []),
    "smooth_l1_beta0": (lambda m, x, y, r: m.nn.functional.smooth_l1_loss(x, y, reduction=r, beta=0.0), [X, Y], []),
    "huber": (lambda m, x, y, r: m.nn.functional.huber_loss(x, y, reduction=r, delta=0.6), [X, Y[:, :1]], []),
    "kl_div": (lambda m, x, y, r: m.nn.functional.kl_div(x, y, reduction=r), [X, POS], []),
    "kl_div_log": (lambda m, x, y, r: m.nn.functional.kl_div(x, y, reduction=r, log_target=True), [X, Y], []),
    "margin_ranking": (lambda m, a, b, y, r: m.nn.functional.margin_ranking_loss(a, b, y, 0.3, reduction=r),
                       [X[:, 0], Y[:, 0]], [SIGNS]),
    "margin_ranking_bcast": (lambda m, a, b, y, r: m.nn.functional.margin_ranking_loss(a, b, y, 0.1, reduction=r),
                             [X, Y[:1]], [SIGNS5]),
    "hinge": (lambda m, x, y, r: m.nn.functional.hinge_embedding_loss(x, y, 0.5, reduction=r), [X], [SIGNS5]),
    "soft_margin": (lambda m, x, y, r: m.nn.functional.soft_margin_loss(x, y, reduction=r), [X], [SIGNS5[0]]),
    "multilabel": (lambda m, x, y, r: m.nn.functional.multilabel_soft_margin_loss(x, y, reduction=r), [X], [LABELS]),
    "multilabel_weight": (lambda m, x, w, y, r: m.nn.functional.multilabel_soft_margin_loss(x, y, w, reduction=r),
                          [X, POS[0]], [LABELS]),
    "multi_margin": (lambda m, x, y, r: m.nn.functional.multi_margin_loss(x, y, reduction=r), [X], [CLASSES]),
    "multi_margin_p2": (lambda m, x, y, w, r: m.nn.functional.multi_margin_loss(x, y, 2, 0.4, w, reduction=r),
                        [X], [CLASSES, POS[0]]),
    "cosine": (lambda m, a, b, y, r: m.nn.functional.cosine_embedding_loss(a, b, y, -0.2, reduction=r),
               [X, Y], [SIGNS]),
    "triplet": (lambda m, a, p, n, r: m.nn.functional.triplet_margin_loss(a, p, n, reduction=r), [X, Y, Z], []),
    "triplet_p1_swap": (lambda m, a, p, n, r: m.nn.functional.triplet_margin_loss(a, p, n, 0.5, 1, swap=True,
                                                                                   reduction=r), [X, Y, Z], []),
    "poisson": (lambda m, x, y, r: m.nn.functional.poisson_nll_loss(x, y, reduction=r), [X, POS * 3], []),
    "poisson_full": (lambda m, x, y, r: m.nn.functional.poisson_nll_loss(x, y, False, True, reduction=r),
                     [POS, POS * 3], []),
    "gaussian": (lambda m, x, y, v, r: m.nn.functional.gaussian_nll_loss(x, y, v, reduction=r), [X, Y, POS], []),
    "gaussian_homoscedastic": (lambda m, x, y, v, r: m.nn.functional.gaussian_nll_loss(x, y, v, True, reduction=r),
                               [X, Y, POS[:, 0]], []),
}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_match_torch(name, reduction):
    fn, diff, const = CASES[name]
    compare(lambda m, *a: fn(m, *a, reduction), diff, const)


def test_kl_div_batchmean_and_legacy_arguments():
    compare(lambda m, x, y: m.nn.functional.kl_div(x, y, reduction="batchmean"), [X, POS])
    compare(lambda m, x, y: m.nn.functional.soft_margin_loss(x, y, size_average=False), [X], [SIGNS5])
    compare(lambda m, x, y: m.nn.functional.multi_margin_loss(x, y, reduce=False), [X], [CLASSES])
    compare(lambda m, x, y: m.nn.functional.multi_margin_loss(x, y, reduction="none"), [X[0]], [CLASSES[:1]])
    compare(lambda m, x, y: m.nn.functional.multi_margin_loss(x, y, reduction="none"), [X[0]], [np.int64(3)])


MODULES = {
    "MarginRankingLoss": ({"margin": 0.2}, [X[:, 0], Y[:, 0]], [SIGNS]),
    "HingeEmbeddingLoss": ({"margin": 2.0, "reduction": "sum"}, [X], [SIGNS5]),
    "SoftMarginLoss": ({}, [X], [SIGNS5]),
    "MultiLabelSoftMarginLoss": ({"reduction": "none"}, [X], [LABELS]),
    "MultiMarginLoss": ({"p": 2, "margin": 0.5}, [X], [CLASSES]),
    "CosineEmbeddingLoss": ({"margin": 0.1}, [X, Y], [SIGNS]),
    "TripletMarginLoss": ({"margin": 0.3, "p": 3.0, "swap": True}, [X, Y, Z], []),
    "PoissonNLLLoss": ({"log_input": False, "full": True}, [POS], [POS * 4]),
    "GaussianNLLLoss": ({"full": True, "reduction": "sum"}, [X, Y, POS], []),
    "L1Loss": ({}, [X, Y], []),
    "SmoothL1Loss": ({"beta": 0.5}, [X, Y], []),
    "HuberLoss": ({"delta": 0.5}, [X, Y], []),
    "KLDivLoss": ({"reduction": "batchmean", "log_target": True}, [X, Y], []),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_match_torch(name):
    kwargs, diff, const = MODULES[name]
    compare(lambda m, *a: getattr(m.nn, name)(**kwargs)(*a), diff, const)


def test_weighted_modules_keep_the_weight_as_a_buffer():
    w = ct.tensor(POS[0])
    for loss in (nn.MultiLabelSoftMarginLoss(weight=w), nn.MultiMarginLoss(weight=w)):
        assert "weight" in loss.state_dict()
    compare(lambda m, x, y, w: m.nn.MultiMarginLoss(weight=w)(x, y), [X], [CLASSES, POS[0]])


def test_bad_shapes_and_labels_raise_torchs_exception_types():
    torch = requires_torch()
    bad = {
        "margin_ranking dims": lambda m: m.nn.functional.margin_ranking_loss(m.zeros(3), m.zeros(3, 1), m.zeros(3)),
        "l1 broadcast": lambda m: m.nn.functional.l1_loss(m.zeros(3, 4), m.zeros(3)),
        "multi_margin label": lambda m: m.nn.functional.multi_margin_loss(m.zeros(2, 3), m.tensor([0, 3])),
        "multi_margin target": lambda m: m.nn.functional.multi_margin_loss(m.zeros(2, 3), m.tensor([0, 1, 2])),
        "multi_margin 3d": lambda m: m.nn.functional.multi_margin_loss(m.zeros(2, 3, 4), m.tensor([0, 1])),
        "cosine target": lambda m: m.nn.functional.cosine_embedding_loss(m.zeros(3, 4), m.zeros(3, 4), m.zeros(3, 1)),
        "cosine inputs": lambda m: m.nn.functional.cosine_embedding_loss(m.zeros(4), m.zeros(4), m.zeros(3)),
        "triplet dims": lambda m: m.nn.functional.triplet_margin_loss(m.zeros(3, 4), m.zeros(4), m.zeros(3, 4)),
        "soft_margin shape": lambda m: m.nn.functional.soft_margin_loss(m.zeros(4), m.zeros(3, 4)),
    }
    for name, call in bad.items():
        with pytest.raises(Exception) as theirs:
            call(torch)
        with pytest.raises(Exception) as ours:
            call(ct)
        # torch raises RuntimeError for these; ctensor raises ValueError (CT_ERR_SHAPE) or IndexError (a label)
        assert isinstance(ours.value, (ValueError, IndexError)), (name, ours.value)
        assert isinstance(theirs.value, RuntimeError), name
    values = {
        "multi_margin p": lambda m: m.nn.functional.multi_margin_loss(m.zeros(2, 3), m.tensor([0, 1]), p=3),
        "gaussian var size": lambda m: m.nn.functional.gaussian_nll_loss(m.zeros(3, 4), m.zeros(3, 4), m.ones(4)),
        "gaussian var sign": lambda m: m.nn.functional.gaussian_nll_loss(m.zeros(2), m.zeros(2), -m.ones(2)),
        "poisson reduction": lambda m: m.nn.functional.poisson_nll_loss(m.zeros(2), m.zeros(2), reduction="avg"),
    }
    for name, call in values.items():
        with pytest.raises(ValueError):
            call(torch)
        with pytest.raises(ValueError):
            call(ct)
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values for beta"):
        F.smooth_l1_loss(ct.zeros(2), ct.zeros(2), beta=-1.0)
    with pytest.raises(TypeError):
        F.multi_margin_loss(ct.zeros(2, 3), ct.tensor([0.0, 1.0]))


CTC_LP = np.log(np.random.default_rng(5).dirichlet(np.ones(5), size=(6, 3)))  # [T=6, N=3, C=5], normalised rows
CTC_TARGETS = np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("layout", ["padded", "concatenated", "tensor_lengths", "zero_infinity", "blank4"])
def test_ctc_loss_matches_torch(layout, reduction):
    lengths_in, lengths_tg = [6, 5, 2], [3, 2, 1]
    targets = CTC_TARGETS
    kwargs = {"reduction": reduction}
    if layout == "concatenated":
        targets = np.array([1, 2, 2, 3, 1, 4])
    if layout == "zero_infinity":
        lengths_in, kwargs["zero_infinity"] = [6, 1, 2], True  # sample 1 has no alignment: loss and gradient 0
    if layout == "blank4":
        targets, kwargs["blank"] = np.array([[1, 2, 2], [3, 1, 0], [0, 0, 0]]), 4

    def fn(m, lp, t):
        il, tl = lengths_in, lengths_tg
        if layout == "tensor_lengths":
            il, tl = m.tensor(il), m.tensor(tl)
        return m.nn.functional.ctc_loss(lp, t, il, tl, **kwargs)

    compare(fn, [CTC_LP], [targets])


def test_ctc_module_and_unbatched_input():
    compare(lambda m, lp, t: m.nn.CTCLoss(blank=0, reduction="sum")(lp, t, [6, 4, 3], [3, 2, 1]), [CTC_LP],
            [CTC_TARGETS])
    compare(lambda m, lp, t: m.nn.functional.ctc_loss(lp, t, [6], [3], reduction="none"), [CTC_LP[:, 0]],
            [CTC_TARGETS[0]])
    with pytest.raises(IndexError):
        F.ctc_loss(ct.tensor(CTC_LP), ct.tensor([[1, 5, 2], [3, 1, 0], [4, 0, 0]]), [6, 5, 2], [3, 2, 1])
    with pytest.raises(ValueError):
        F.ctc_loss(ct.tensor(CTC_LP), ct.tensor(CTC_TARGETS), [7, 5, 2], [3, 2, 1])
    with pytest.raises(ValueError):
        F.ctc_loss(ct.tensor(CTC_LP), ct.tensor(CTC_TARGETS), [6, 5], [3, 2])

"""Ops on float16/bfloat16 against torch 1.13 (issue 15, docs/dtypes.md). Each row calls one op through module m
(ctensor or torch) on the same half values. The reference is torch in that dtype where torch 1.13 has the CPU
kernel. Where torch refuses the dtype, the reference is ctensor's own float32 result on the same values, rounded
to the dtype. Gradients are checked the same way. Also: Module.half()/bfloat16() training an MLP and a conv net
(the loss falls), and finfo / nan_to_num use the half dtype's own limits."""
import numpy as np
import pytest

import ctensor as ct
from conftest import requires_torch

HALF = [ct.float16, ct.bfloat16]
# one unit in the last place at 1: tolerances are a few of them, relative to the output's scale
ULP = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7}


def F(m):
    return m.nn.functional


def ints(m, values):
    return m.tensor(values, dtype=m.int64)


# name, call(m, *inputs), input shapes, differentiable. Inputs are standard normal unless the name says otherwise.
ROWS = [
    ("exp", lambda m, x: m.exp(x), [(3, 4)], True),
    ("sigmoid", lambda m, x: m.sigmoid(x), [(3, 4)], True),
    ("gelu", lambda m, x: F(m).gelu(x), [(3, 4)], True),
    ("add", lambda m, x, y: m.add(x, y), [(3, 4), (4,)], True),
    ("mul", lambda m, x, y: x * y, [(3, 4), (3, 4)], True),
    ("div", lambda m, x, y: x / (y.abs() + 1), [(3, 4), (3, 4)], True),
    ("atan2", lambda m, x, y: m.atan2(x, y), [(3, 4), (3, 4)], True),
    ("sum", lambda m, x: m.sum(x, 1), [(3, 40)], True),
    ("mean", lambda m, x: x.mean(), [(3, 40)], True),
    ("var", lambda m, x: m.var(x, 1), [(3, 40)], True),
    ("logsumexp", lambda m, x: m.logsumexp(x, 1), [(3, 8)], True),
    ("norm", lambda m, x: x.norm(), [(3, 8)], True),
    ("prod", lambda m, x: m.prod(x, 1), [(3, 4)], True),
    ("cumsum", lambda m, x: m.cumsum(x, 1), [(3, 8)], True),
    ("max_dim", lambda m, x: m.max(x, 1)[0], [(3, 8)], True),
    ("argmax", lambda m, x: m.argmax(x, 1), [(3, 8)], False),
    ("sort", lambda m, x: m.sort(x, 1)[0], [(3, 8)], True),
    ("topk", lambda m, x: m.topk(x, 2, 1)[0], [(3, 8)], True),
    ("kthvalue", lambda m, x: m.kthvalue(x, 2, 1)[0], [(3, 8)], True),
    ("median", lambda m, x: m.median(x, 1)[0], [(3, 7)], True),
    ("quantile", lambda m, x: m.quantile(x, 0.3, dim=1), [(3, 8)], True),
    ("matmul", lambda m, x, y: m.matmul(x, y), [(3, 16), (16, 5)], True),
    ("linear", lambda m, x, w, b: F(m).linear(x, w, b), [(3, 16), (5, 16), (5,)], True),
    ("conv2d", lambda m, x, w: F(m).conv2d(x, w, padding=1), [(2, 3, 5, 5), (4, 3, 3, 3)], True),
    ("max_pool2d", lambda m, x: F(m).max_pool2d(x, 2), [(2, 3, 4, 4)], True),
    ("avg_pool2d", lambda m, x: F(m).avg_pool2d(x, 2), [(2, 3, 4, 4)], True),
    ("adaptive_avg_pool2d", lambda m, x: F(m).adaptive_avg_pool2d(x, 3), [(2, 3, 5, 5)], True),
    ("softmax", lambda m, x: m.softmax(x, 1), [(3, 8)], True),
    ("log_softmax", lambda m, x: m.log_softmax(x, 1), [(3, 8)], True),
    ("layer_norm", lambda m, x: F(m).layer_norm(x, (8,)), [(3, 8)], True),
    ("group_norm", lambda m, x: F(m).group_norm(x, 2), [(2, 4, 3)], True),
    ("cross_entropy", lambda m, x: F(m).cross_entropy(x, ints(m, [1, 0, 4])), [(3, 5)], True),
    ("nll_loss", lambda m, x: F(m).nll_loss(x, ints(m, [1, 0, 4])), [(3, 5)], True),
    ("mse_loss", lambda m, x, y: F(m).mse_loss(x, y), [(3, 5), (3, 5)], True),
    ("l1_loss", lambda m, x, y: F(m).l1_loss(x, y), [(3, 5), (3, 5)], True),
    ("smooth_l1_loss", lambda m, x, y: F(m).smooth_l1_loss(x, y), [(3, 5), (3, 5)], True),
    ("bce_with_logits", lambda m, x, y: F(m).binary_cross_entropy_with_logits(x, y.sigmoid()), [(3, 5), (3, 5)], True),
    ("binary_cross_entropy", lambda m, x, y: F(m).binary_cross_entropy(x.sigmoid(), y.sigmoid()), [(3, 5), (3, 5)], True),
    ("kl_div", lambda m, x, y: F(m).kl_div(m.log_softmax(x, 1), m.softmax(y, 1), reduction="batchmean"), [(3, 5), (3, 5)], True),
    ("gather", lambda m, x: m.gather(x, 1, ints(m, [[0, 2], [1, 1], [3, 0]])), [(3, 4)], True),
    ("scatter_add", lambda m, x, y: m.scatter_add(x, 1, ints(m, [[0, 2], [1, 1], [3, 0]]), y), [(3, 4), (3, 2)], True),
    ("index_add", lambda m, x, y: m.index_add(x, 0, ints(m, [2, 0, 2]), y), [(4, 3), (3, 3)], True),
    ("index_select", lambda m, x: m.index_select(x, 0, ints(m, [2, 0, 2])), [(4, 3)], True),
    ("nonzero", lambda m, x: m.nonzero(x > 0), [(3, 4)], False),
    ("cdist", lambda m, x, y: m.cdist(x, y), [(3, 4), (5, 4)], True),
    ("interpolate", lambda m, x: F(m).interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False),
     [(1, 2, 3, 3)], True),
    ("embedding", lambda m, w: F(m).embedding(ints(m, [[0, 2], [4, 1]]), w), [(5, 3)], True),
    ("linalg_inv", lambda m, x: m.linalg.inv(x + 4 * m.eye(3, dtype=x.dtype)), [(3, 3)], True),
    ("linalg_det", lambda m, x: m.linalg.det(x + 4 * m.eye(3, dtype=x.dtype)), [(3, 3)], True),
    ("linalg_svdvals", lambda m, x: m.linalg.svdvals(x), [(4, 3)], True),
]


def values(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def run(m, call, arrays, dtype, grad):
    """The op's output and the inputs' gradients (backward of sum(out * weights)), as float64 numpy arrays."""
    xs = [m.tensor(a).to(dtype) for a in arrays]
    if grad:
        for x in xs:
            x.requires_grad_(True)
    out = call(m, *xs)
    grads = []
    if grad:
        w = m.tensor(values(tuple(out.shape), 99)).to(out.dtype)
        (out * w).sum().backward()
        grads = [x.grad for x in xs]
    return out, grads


def host(t):
    return t.detach().double().numpy() if t.dtype.is_floating_point else t.numpy()


def reference_dtype_name(t):
    return str(t.dtype).replace("torch.", "").replace("ctensor.", "")


def assert_close(got, want, dtype_name, slack, what):
    assert reference_dtype_name(got) == reference_dtype_name(want), (what, got.dtype, want.dtype)
    g, w = host(got), host(want)
    assert g.shape == w.shape, (what, g.shape, w.shape)
    if not np.issubdtype(w.dtype, np.floating):
        np.testing.assert_array_equal(g, w, err_msg=what)
        return
    scale = max(1.0, float(np.max(np.abs(w[np.isfinite(w)]), initial=0.0)))
    np.testing.assert_allclose(g, w, rtol=slack * ULP[dtype_name], atol=slack * ULP[dtype_name] * scale, err_msg=what)


def rounded(torch, arrays, tdtype):
    """The input values rounded to the half dtype, as float32 arrays."""
    return [torch.from_numpy(a).to(tdtype).float().numpy() for a in arrays]


@pytest.mark.parametrize("dtype", HALF, ids=lambda d: d.name)
@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_op_matches_torch_or_float32_rounded(row, dtype):
    torch = requires_torch()
    name, call, shapes, grad = row
    tdtype = getattr(torch, dtype.name)
    arrays = rounded(torch, [values(s, i) for i, s in enumerate(shapes)], tdtype)
    got, got_grads = run(ct, call, arrays, dtype, grad)
    try:
        want, want_grads = run(torch, call, arrays, tdtype, grad)
        against = "torch"
    except (RuntimeError, AttributeError, TypeError, NotImplementedError):
        # torch 1.13 has no CPU kernel for this dtype: our float32 result on the same values, rounded
        f_out, f_grads = run(ct, call, arrays, ct.float32, grad)
        round_to = lambda t: torch.from_numpy(host(t)).to(tdtype if t.dtype.is_floating_point else torch.int64)
        want, want_grads = round_to(f_out), [round_to(g) for g in f_grads]
        against = "float32 rounded"
    assert_close(got, want, dtype.name, 8, f"{name} output vs {against}")
    for k, (g, w) in enumerate(zip(got_grads, want_grads)):
        assert g is not None and g.dtype is dtype, (name, k, g)
        assert_close(g, w, dtype.name, 32, f"{name} gradient {k} vs {against}")


@pytest.mark.parametrize("dtype", HALF, ids=lambda d: d.name)
def test_finfo_and_nan_to_num_use_the_half_limits(dtype):
    torch = requires_torch()
    tdtype = getattr(torch, dtype.name)
    f, t = ct.finfo(dtype), torch.finfo(tdtype)
    assert (f.bits, f.eps, f.max, f.min, f.tiny, f.resolution) == (t.bits, t.eps, t.max, t.min, t.tiny, t.resolution)
    x = [float("inf"), -float("inf"), float("nan"), 1.5]
    got = ct.nan_to_num(ct.tensor(x).to(dtype))
    assert got.dtype is dtype
    assert got.float().tolist() == torch.nan_to_num(torch.tensor(x).to(tdtype)).float().tolist()


@pytest.mark.parametrize("dtype", HALF, ids=lambda d: d.name)
@pytest.mark.parametrize("opt", ["sgd", "adam", "adamw"])
def test_optimizer_step_on_half_parameters_matches_torch(opt, dtype):
    torch = requires_torch()
    tdtype = getattr(torch, dtype.name)
    p0 = torch.tensor(values((6,), 3)).to(tdtype).float().numpy()  # values the half dtype holds
    make = {"sgd": lambda m, p: m.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
            "adam": lambda m, p: m.optim.Adam([p], lr=0.05, weight_decay=0.01),
            "adamw": lambda m, p: m.optim.AdamW([p], lr=0.05, weight_decay=0.1)}[opt]
    def steps(m, d):
        p = m.tensor(p0).to(d).requires_grad_(True)
        o = make(m, p)
        for step in range(4):
            p.grad = m.tensor(values((6,), 10 + step)).to(d)
            o.step()
        return p

    ours = steps(ct, dtype)
    try:
        theirs = steps(torch, tdtype)
    except RuntimeError:  # torch 1.13's Adam/AdamW on the CPU lack float16 (addcmul): torch in float32, rounded
        theirs = steps(torch, torch.float32).detach().to(tdtype)
    assert ours.dtype is dtype
    # torch rounds after every tensor op of the update, ctensor once per stored tensor (docs/dtypes.md)
    assert_close(ours, theirs, dtype.name, 16, f"{opt} parameter after 4 steps")


def train(model, x, y, steps, loss_fn):
    opt = ct.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(float(loss.float().item()))
    return losses


@pytest.mark.parametrize("to_half", ["half", "bfloat16"])
def test_mlp_and_conv_net_train_in_half(to_half):
    ct.manual_seed(0)
    nn = ct.nn
    dtype = ct.float16 if to_half == "half" else ct.bfloat16
    x = ct.tensor(values((32, 8), 1)).to(dtype)
    y = ct.tensor((values((32,), 2) > 0).astype(np.int64))
    mlp = getattr(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)), to_half)()
    assert all(p.dtype is dtype for p in mlp.parameters())
    losses = train(mlp, x, y, 30, nn.functional.cross_entropy)
    assert losses[-1] < 0.8 * losses[0], losses
    img = ct.tensor(values((8, 1, 6, 6), 3)).to(dtype)
    target = ct.tensor(values((8, 3), 4)).to(dtype)
    conv = getattr(nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3)),
                   to_half)()
    losses = train(conv, img, target, 30, nn.functional.mse_loss)
    assert all(p.dtype is dtype for p in conv.parameters())
    assert losses[-1] < 0.8 * losses[0], losses

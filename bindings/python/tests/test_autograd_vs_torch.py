"""Gradients of every differentiable op against PyTorch (float64, random upstream gradients), including
broadcasting and keepdim. The same lambda runs on both libraries since ctensor mirrors PyTorch's API."""
import numpy as np
import pytest

import ctensor as ct

from conftest import requires_torch


def _inputs(shapes, domain, rng):
    out = []
    for s in shapes:
        a = rng.standard_normal(s)
        if domain == "pos":
            a = np.abs(a) + 0.5
        elif domain == "unit":
            a = rng.uniform(0.05, 0.95, s)
        out.append(a)
    return out


def check_against_torch(fn, shapes, rng, domain="any", rtol=1e-7, atol=1e-9):
    torch = requires_torch()
    arrays = _inputs(shapes, domain, rng)
    xs = [ct.tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out_c, out_t = fn(ct, *xs), fn(torch, *ts)
    assert tuple(out_c.shape) == tuple(out_t.shape)
    np.testing.assert_allclose(out_c.detach().numpy(), out_t.detach().numpy(), rtol=rtol, atol=atol)
    g = rng.standard_normal(tuple(out_t.shape))
    out_c.backward(ct.tensor(g))
    out_t.backward(torch.tensor(g))
    for x, t in zip(xs, ts):
        if t.grad is None:
            assert x.grad is None or not x.grad.numpy().any()
            continue
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol)


def F(m):
    return m.nn.functional


CASES = {
    # binary with broadcasting
    "add": (lambda m, a, b: a + b, [(3, 1, 4), (5, 1)], "any"),
    "add_alpha": (lambda m, a, b: m.add(a, b, alpha=-2.5), [(2, 3), (3,)], "any"),
    "sub": (lambda m, a, b: a - b, [(4, 1), (1, 3)], "any"),
    "rsub_scalar": (lambda m, a: 2.0 - a, [(3,)], "any"),
    "mul": (lambda m, a, b: a * b, [(2, 3, 4), (3, 1)], "any"),
    "div": (lambda m, a, b: a / b, [(2, 3), (2, 1)], "pos"),
    "rdiv_scalar": (lambda m, a: 3.0 / a, [(4,)], "pos"),
    "pow_tensor": (lambda m, a, b: a ** b, [(3, 2), (2,)], "pos"),
    "pow_scalar": (lambda m, a: a ** 3.5, [(3, 2)], "pos"),
    "rpow": (lambda m, a: 2.0 ** a, [(5,)], "any"),
    "maximum": (lambda m, a, b: m.maximum(a, b), [(3, 4), (4,)], "any"),
    "minimum": (lambda m, a, b: m.minimum(a, b), [(3, 4), (3, 1)], "any"),
    "atan2": (lambda m, a, b: m.atan2(a, b), [(3, 2), (3, 2)], "pos"),
    "where": (lambda m, a, b: m.where(a > 0, a, b), [(3, 4), (4,)], "any"),
    "matmul_2d": (lambda m, a, b: a @ b, [(3, 4), (4, 2)], "any"),
    "matmul_batched_broadcast": (lambda m, a, b: a @ b, [(2, 1, 3, 4), (5, 4, 2)], "any"),
    "matmul_vec": (lambda m, a, b: a @ b, [(3, 4), (4,)], "any"),
    "dot": (lambda m, a, b: m.dot(a, b), [(5,), (5,)], "any"),
    "outer": (lambda m, a, b: m.outer(a, b), [(3,), (4,)], "any"),
    # unary
    "neg": (lambda m, a: -a, [(3, 4)], "any"),
    "abs": (lambda m, a: abs(a), [(3, 4)], "any"),
    "exp": (lambda m, a: m.exp(a), [(3, 4)], "any"),
    "log": (lambda m, a: m.log(a), [(3, 4)], "pos"),
    "log1p": (lambda m, a: m.log1p(a), [(3, 4)], "pos"),
    "expm1": (lambda m, a: m.expm1(a), [(3, 4)], "any"),
    "sqrt": (lambda m, a: m.sqrt(a), [(3, 4)], "pos"),
    "rsqrt": (lambda m, a: m.rsqrt(a), [(3, 4)], "pos"),
    "sin": (lambda m, a: m.sin(a), [(3, 4)], "any"),
    "cos": (lambda m, a: m.cos(a), [(3, 4)], "any"),
    "tan": (lambda m, a: m.tan(a), [(3, 4)], "unit"),
    "tanh": (lambda m, a: m.tanh(a), [(3, 4)], "any"),
    "sigmoid": (lambda m, a: m.sigmoid(a), [(3, 4)], "any"),
    "relu": (lambda m, a: m.relu(a), [(3, 4)], "any"),
    "gelu": (lambda m, a: F(m).gelu(a), [(3, 4)], "any"),
    "gelu_tanh": (lambda m, a: F(m).gelu(a, approximate="tanh"), [(3, 4)], "any"),
    "silu": (lambda m, a: F(m).silu(a), [(3, 4)], "any"),
    "softplus": (lambda m, a: F(m).softplus(a), [(3, 4)], "any"),
    "reciprocal": (lambda m, a: m.reciprocal(a), [(3, 4)], "pos"),
    "clamp": (lambda m, a: m.clamp(a, -0.5, 0.7), [(4, 5)], "any"),
    "square": (lambda m, a: m.square(a), [(4,)], "any"),
    # reductions
    "sum_all": (lambda m, a: a.sum(), [(3, 4)], "any"),
    "sum_dim": (lambda m, a: a.sum(dim=1), [(3, 4, 2)], "any"),
    "sum_keepdim": (lambda m, a: a.sum(dim=(0, 2), keepdim=True), [(3, 4, 2)], "any"),
    "mean_dim": (lambda m, a: a.mean(-1), [(3, 4)], "any"),
    "mean_keepdim": (lambda m, a: a.mean(0, keepdim=True), [(3, 4)], "any"),
    "prod_dim": (lambda m, a: a.prod(1), [(3, 4)], "pos"),
    "prod_all": (lambda m, a: a.prod(), [(2, 3)], "pos"),
    "var": (lambda m, a: a.var(1), [(3, 5)], "any"),
    "var_keepdim_biased": (lambda m, a: a.var(0, unbiased=False, keepdim=True), [(4, 3)], "any"),
    "std": (lambda m, a: a.std(), [(3, 5)], "any"),
    "logsumexp": (lambda m, a: m.logsumexp(a, 1), [(3, 5)], "any"),
    "logsumexp_keepdim": (lambda m, a: m.logsumexp(a, 0, keepdim=True), [(3, 5)], "any"),
    "norm": (lambda m, a: a.norm(), [(3, 5)], "any"),
    "norm_dim": (lambda m, a: a.norm(dim=1, keepdim=True), [(3, 5)], "any"),
    "max_all": (lambda m, a: a.max(), [(3, 5)], "any"),
    "max_dim": (lambda m, a: a.max(dim=1)[0], [(3, 5)], "any"),
    "min_dim_keepdim": (lambda m, a: a.min(0, keepdim=True).values, [(3, 5)], "any"),
    "cumsum": (lambda m, a: a.cumsum(1), [(3, 5)], "any"),
    "softmax": (lambda m, a: m.softmax(a, 1), [(3, 5)], "any"),
    "log_softmax": (lambda m, a: m.log_softmax(a, 0), [(3, 5)], "any"),
    # views and joins
    "reshape": (lambda m, a: a.reshape(4, 3) * 2, [(3, 4)], "any"),
    "view_of_transpose": (lambda m, a: a.t().reshape(-1), [(3, 4)], "any"),
    "permute": (lambda m, a: a.permute(2, 0, 1), [(2, 3, 4)], "any"),
    "expand": (lambda m, a: a.expand(3, 4, 5), [(4, 1)], "any"),
    "narrow": (lambda m, a: a.narrow(1, 1, 2), [(3, 4)], "any"),
    "slicing": (lambda m, a: a[1:, ::2], [(3, 5)], "any"),
    "select": (lambda m, a: a[:, -1], [(3, 5)], "any"),
    "squeeze_unsqueeze": (lambda m, a: a.unsqueeze(0).squeeze(2), [(3, 1, 2)], "any"),
    "flatten": (lambda m, a: a.flatten(1), [(2, 3, 4)], "any"),
    "cat": (lambda m, a, b: m.cat([a, b], 1), [(2, 3), (2, 2)], "any"),
    "stack": (lambda m, a, b: m.stack([a, b], 2), [(2, 3), (2, 3)], "any"),
    "split": (lambda m, a: a.split(2, 1)[1] * 3, [(2, 5)], "any"),
    "chunk": (lambda m, a: a.chunk(2, 0)[0], [(5, 2)], "any"),
    "index_select": (lambda m, a: a.index_select(0, m.tensor([2, 0, 2])), [(3, 4)], "any"),
    "advanced_index": (lambda m, a: a[m.tensor([[0, 1], [2, 2]]), 1:], [(3, 4)], "any"),
    "mask_index": (lambda m, a: a[a > 0], [(3, 4)], "any"),
    "gather": (lambda m, a: a.gather(1, m.tensor([[0, 0], [1, 3], [2, 1]])), [(3, 4)], "any"),
    "scatter_add": (lambda m, a, b: a.scatter_add(1, m.tensor([[0, 0], [1, 3]]), b), [(2, 4), (2, 2)], "any"),
    "masked_fill": (lambda m, a: a.masked_fill(a > 0.5, 2.0), [(3, 4)], "any"),
    "to_float32_and_back": (lambda m, a: a.float().double() * a, [(3,)], "any"),
    "clone": (lambda m, a: a.clone() * a, [(3,)], "any"),
    # nn
    "linear": (lambda m, x, w, b: F(m).linear(x, w, b), [(5, 3), (4, 3), (4,)], "any"),
    "linear_3d_nobias": (lambda m, x, w: F(m).linear(x, w), [(2, 5, 3), (4, 3)], "any"),
    "conv2d": (lambda m, x, w, b: F(m).conv2d(x, w, b, stride=2, padding=1), [(2, 3, 7, 6), (4, 3, 3, 3), (4,)],
               "any"),
    "conv2d_groups_dilation": (lambda m, x, w: F(m).conv2d(x, w, None, 1, 2, 2, 2), [(1, 4, 6, 6), (2, 2, 3, 3)],
                               "any"),
    "max_pool2d": (lambda m, x: F(m).max_pool2d(x, 2), [(2, 3, 6, 4)], "any"),
    "max_pool2d_stride_pad": (lambda m, x: F(m).max_pool2d(x, 3, 2, 1), [(1, 2, 7, 7)], "any"),
    "avg_pool2d": (lambda m, x: F(m).avg_pool2d(x, (2, 3), 1, (1, 1)), [(1, 2, 5, 6)], "any"),
    "cross_entropy": (lambda m, x: F(m).cross_entropy(x, m.tensor([1, 0, 3])), [(3, 4)], "any"),
    "cross_entropy_sum_ignore": (lambda m, x: F(m).cross_entropy(x, m.tensor([1, -100, 3]), reduction="sum"),
                                 [(3, 4)], "any"),
    "cross_entropy_none": (lambda m, x: F(m).cross_entropy(x, m.tensor([2, 0]), reduction="none"), [(2, 3)], "any"),
    "nll_loss": (lambda m, x: F(m).nll_loss(m.log_softmax(x, 1), m.tensor([1, 2])), [(2, 3)], "any"),
    "cross_entropy_spatial": (lambda m, x: F(m).cross_entropy(x, m.tensor([[[0, 1], [3, 2], [1, 1]],
                                                                           [[2, 0], [0, 3], [1, -100]]])),
                              [(2, 4, 3, 2)], "any"),
    "cross_entropy_weight_smoothing": (lambda m, x: F(m).cross_entropy(
        x, m.tensor([[1, 3], [0, -100], [2, 2]]), weight=m.tensor([0.5, 2.0, 1.0, 1.5], dtype=m.float64),
        label_smoothing=0.15), [(3, 4, 2)], "any"),
    "cross_entropy_weight_sum": (lambda m, x: F(m).cross_entropy(
        x, m.tensor([1, 0, 3]), weight=m.tensor([0.5, 2.0, 1.0, 1.5], dtype=m.float64), reduction="sum"),
        [(3, 4)], "any"),
    "cross_entropy_probs": (lambda m, x, y: F(m).cross_entropy(x, m.softmax(y, 1), label_smoothing=0.1),
                            [(3, 4, 2), (3, 4, 2)], "any"),
    "nll_loss_weight_spatial": (lambda m, x: F(m).nll_loss(
        m.log_softmax(x, 1), m.tensor([[2, 0], [1, 1]]), weight=m.tensor([1.0, 0.25, 3.0], dtype=m.float64)),
        [(2, 3, 2)], "any"),
    "mse_loss": (lambda m, a, b: F(m).mse_loss(a, b), [(3, 4), (3, 4)], "any"),
    "mse_loss_none": (lambda m, a, b: F(m).mse_loss(a, b, reduction="none"), [(3, 4), (3, 4)], "any"),
    "l1_loss": (lambda m, a, b: F(m).l1_loss(a, b), [(3, 4), (3, 4)], "any"),
    "smooth_l1_loss": (lambda m, a, b: F(m).smooth_l1_loss(a, b), [(3, 4), (3, 4)], "any"),
    "bce": (lambda m, p, y: F(m).binary_cross_entropy(p, y), [(3, 4), (3, 4)], "unit"),
    "bce_logits": (lambda m, x, y: F(m).binary_cross_entropy_with_logits(x, y.sigmoid()), [(3, 4), (3, 4)], "any"),
    "embedding": (lambda m, w: F(m).embedding(m.tensor([[0, 2], [2, 1]]), w), [(3, 4)], "any"),
    "layer_norm": (lambda m, x, w, b: F(m).layer_norm(x, (4,), w, b), [(3, 4), (4,), (4,)], "any"),
    "leaky_relu": (lambda m, x: F(m).leaky_relu(x, 0.1), [(3, 4)], "any"),
    "dropout_eval": (lambda m, x: F(m).dropout(x, 0.5, training=False), [(3, 4)], "any"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_torch(name, rng):
    fn, shapes, domain = CASES[name]
    check_against_torch(fn, shapes, rng, domain)

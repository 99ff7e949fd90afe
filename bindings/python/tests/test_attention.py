"""Attention against PyTorch 1.13: F.scaled_dot_product_attention (values and gradients against torch's math,
softmax(q k^T * scale + mask) v, since 1.13 has no fused op), F.multi_head_attention_forward / nn.MultiheadAttention
(torch's state_dict loaded; kdim/vdim, bias_kv, zero_attn, masks, batch_first, weights), the Transformer modules
(eval-mode outputs of a torch state_dict), dropout behaviour, errors, and CUDA (emulated backend in CI)."""
import math

import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

torch = pytest.importorskip("torch")

cuda = pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA device: %s" % ct.cuda.unavailable_reason())


def _ct(t, requires_grad=False, device="cpu"):
    x = ct.tensor(t.detach().numpy(), device=device)
    if requires_grad:
        x.requires_grad = True
    return x


def _np(x):
    return x.detach().cpu().numpy()


def _torch_sdpa(q, k, v, mask=None, causal=False, scale=None):
    s = q @ k.transpose(-2, -1) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if mask is not None:
        s = s + (torch.zeros(mask.shape, dtype=q.dtype).masked_fill(~mask, -math.inf) if mask.dtype == torch.bool
                 else mask)
    if causal:
        s = s + torch.full(s.shape[-2:], -math.inf, dtype=q.dtype).triu(1)
    return torch.softmax(s, -1) @ v


SDPA_CASES = [
    ("4-d", (2, 3, 5, 8), (2, 3, 7, 8), (2, 3, 7, 4), None, False, None),
    ("blocks", (2, 70, 8), (2, 150, 8), (2, 150, 5), None, False, None),
    ("bool mask", (2, 70, 8), (2, 150, 8), (2, 150, 5), ("bool", (70, 150)), False, None),
    ("float mask", (2, 2, 9, 4), (2, 2, 11, 4), (2, 2, 11, 3), ("float", (2, 1, 9, 11)), False, 0.5),
    ("causal", (1, 100, 4), (1, 140, 4), (1, 140, 6), None, True, None),
    ("broadcast batch", (2, 1, 5, 4), (3, 7, 4), (7, 2), None, False, None),
]


def _sdpa_inputs(case, seed=0):
    _, qs, ks, vs, mask, causal, scale = case
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(s, dtype=torch.float64, generator=g) for s in (qs, ks, vs))
    m = None
    if mask is not None:
        m = torch.rand(mask[1], generator=g, dtype=torch.float64)
        m = m > 0.2 if mask[0] == "bool" else m * 2 - 1
        if mask[0] == "bool":
            m[..., 0] = True  # no fully masked rows (torch's math gives NaN there, as ours does)
    return q, k, v, m, causal, scale


@pytest.mark.parametrize("case", SDPA_CASES, ids=[c[0] for c in SDPA_CASES])
def test_sdpa_values_and_grads_match_torch_math(case):
    q, k, v, m, causal, scale = _sdpa_inputs(case)
    tq, tk, tv = (t.clone().requires_grad_() for t in (q, k, v))
    ref = _torch_sdpa(tq, tk, tv, m, causal, scale)
    cq, ck, cv = (_ct(t, True) for t in (q, k, v))
    out = F.scaled_dot_product_attention(cq, ck, cv, attn_mask=None if m is None else _ct(m), is_causal=causal,
                                         scale=scale)
    np.testing.assert_allclose(_np(out), ref.detach().numpy(), rtol=1e-10, atol=1e-10)
    go = torch.randn(ref.shape, dtype=torch.float64)
    ref.backward(go)
    out.backward(_ct(go))
    for c, t in ((cq, tq), (ck, tk), (cv, tv)):
        np.testing.assert_allclose(_np(c.grad), t.grad.numpy(), rtol=1e-9, atol=1e-10)


def test_sdpa_float32_and_float_mask_gradient():
    q, k, v, m, _, _ = _sdpa_inputs(SDPA_CASES[3], seed=3)
    tm = m.clone().requires_grad_()
    ref = _torch_sdpa(q.float(), k.float(), v.float(), tm.float())
    cm = _ct(m.float(), True)
    out = F.scaled_dot_product_attention(_ct(q.float()), _ct(k.float()), _ct(v.float()), attn_mask=cm)
    assert out.dtype == ct.float32
    np.testing.assert_allclose(_np(out), ref.detach().numpy(), rtol=1e-5, atol=1e-5)
    ref.sum().backward()
    out.sum().backward()
    np.testing.assert_allclose(_np(cm.grad), tm.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_sdpa_dropout_is_reproducible_and_unbiased():
    g = ct.Generator().manual_seed(5)
    q, k = ct.randn(4, 64, 8), ct.randn(4, 256, 8)
    v = ct.ones(4, 256, 1)
    a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.25, generator=g)
    assert abs(float(a.mean()) - 1.0) < 0.02
    g.manual_seed(5)
    b = F.scaled_dot_product_attention(q, k, v, dropout_p=0.25, generator=g)
    np.testing.assert_array_equal(_np(a), _np(b))


def _torch_mha(kind):
    kw = {"kdim": 6, "vdim": 5} if kind == "kvdim" else {}
    if kind == "bias_kv":
        kw = {"add_bias_kv": True, "add_zero_attn": True}
    torch.manual_seed(0)
    m = torch.nn.MultiheadAttention(8, 2, dtype=torch.float64, batch_first=(kind == "batch_first"), **kw)
    with torch.no_grad():  # non-zero biases so that they are checked
        for name, p in m.named_parameters():
            if "bias" in name:
                p.normal_()
    return m


def _ct_module_from(torch_module, ct_module):
    ct_module.load_state_dict({k: ct.tensor(v.numpy()) for k, v in torch_module.state_dict().items()})
    return ct_module


@pytest.mark.parametrize("kind", ["packed", "kvdim", "bias_kv", "batch_first"])
@pytest.mark.parametrize("need_weights", [True, False])
def test_multihead_attention_matches_torch(kind, need_weights):
    tm = _torch_mha(kind)
    cm = _ct_module_from(tm, nn.MultiheadAttention(8, 2, kdim=6 if kind == "kvdim" else None,
                                                    vdim=5 if kind == "kvdim" else None,
                                                    add_bias_kv=kind == "bias_kv", add_zero_attn=kind == "bias_kv",
                                                    batch_first=kind == "batch_first", dtype=ct.float64))
    assert sorted(cm.state_dict()) == sorted(tm.state_dict())
    tm.eval(), cm.eval()
    g = torch.Generator().manual_seed(1)
    L, S, N = 5, 7, 3
    q = torch.randn((N, L, 8) if kind == "batch_first" else (L, N, 8), dtype=torch.float64, generator=g)
    shape_kv = (N, S) if kind == "batch_first" else (S, N)
    k = torch.randn(shape_kv + (6 if kind == "kvdim" else 8,), dtype=torch.float64, generator=g)
    v = torch.randn(shape_kv + (5 if kind == "kvdim" else 8,), dtype=torch.float64, generator=g)
    kpm = torch.zeros(N, S, dtype=torch.bool)
    kpm[0, -2:] = True
    am = torch.rand(L, S, generator=g, dtype=torch.float64)
    tq, tk, tv = (t.clone().requires_grad_() for t in (q, k, v))
    ref, ref_w = tm(tq, tk, tv, key_padding_mask=kpm, attn_mask=am, need_weights=need_weights)
    cq, ck, cv = (_ct(t, True) for t in (q, k, v))
    out, w = cm(cq, ck, cv, key_padding_mask=_ct(kpm), attn_mask=_ct(am), need_weights=need_weights)
    np.testing.assert_allclose(_np(out), ref.detach().numpy(), rtol=1e-10, atol=1e-10)
    if need_weights:
        np.testing.assert_allclose(_np(w), ref_w.detach().numpy(), rtol=1e-10, atol=1e-12)
    else:
        assert w is None
    go = torch.randn(ref.shape, dtype=torch.float64, generator=g)
    ref.backward(go)
    out.backward(_ct(go))
    for c, t in ((cq, tq), (ck, tk), (cv, tv)):
        np.testing.assert_allclose(_np(c.grad), t.grad.numpy(), rtol=1e-9, atol=1e-10)
    cparams = dict(cm.named_parameters())
    for name, p in tm.named_parameters():
        np.testing.assert_allclose(_np(cparams[name].grad), p.grad.numpy(), rtol=1e-9, atol=1e-10, err_msg=name)


@pytest.mark.parametrize("batch_first", [False, True])
def test_self_attention_one_projection_matches_torch_grads(batch_first):
    tm = _torch_mha("batch_first" if batch_first else "packed")
    cm = _ct_module_from(tm, nn.MultiheadAttention(8, 2, batch_first=batch_first, dtype=ct.float64))
    x = torch.randn(3, 5, 8, dtype=torch.float64, generator=torch.Generator().manual_seed(6))
    tx, cx = x.clone().requires_grad_(), _ct(x, True)
    ref, _ = tm(tx, tx, tx, need_weights=False)
    out, _ = cm(cx, cx, cx, need_weights=False)
    np.testing.assert_allclose(_np(out), ref.detach().numpy(), rtol=1e-10, atol=1e-10)
    ref.pow(2).sum().backward()
    out.pow(2).sum().backward()
    np.testing.assert_allclose(_np(cx.grad), tx.grad.numpy(), rtol=1e-9, atol=1e-10)
    cparams = dict(cm.named_parameters())
    for name, p in tm.named_parameters():
        np.testing.assert_allclose(_np(cparams[name].grad), p.grad.numpy(), rtol=1e-9, atol=1e-10, err_msg=name)


def test_multihead_attention_per_head_weights_unbatched_and_bool_3d_mask():
    tm = _torch_mha("packed")
    cm = _ct_module_from(tm, nn.MultiheadAttention(8, 2, dtype=ct.float64))
    g = torch.Generator().manual_seed(2)
    q, kv = torch.randn(4, 8, dtype=torch.float64, generator=g), torch.randn(6, 8, dtype=torch.float64, generator=g)
    am = torch.rand(2, 4, 6, generator=g) > 0.7
    am[..., 0] = False
    ref, ref_w = tm(q, kv, kv, attn_mask=am, average_attn_weights=False)
    out, w = cm(_ct(q), _ct(kv), _ct(kv), attn_mask=_ct(am), average_attn_weights=False)
    assert tuple(w.shape) == (2, 4, 6)
    np.testing.assert_allclose(_np(out), ref.detach().numpy(), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(_np(w), ref_w.detach().numpy(), rtol=1e-10, atol=1e-12)


def _pair(kind, **kw):
    torch.manual_seed(0)
    tcls = getattr(torch.nn, kind)
    ccls = getattr(nn, kind)
    targs = dict(kw)
    if targs.get("activation") == "gelu":
        targs["activation"] = torch.nn.functional.gelu
    return tcls(dtype=torch.float64, **targs), ccls(dtype=ct.float64, **kw)


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_transformer_layers_load_torch_state_and_match(norm_first, activation):
    kw = dict(d_model=8, nhead=2, dim_feedforward=16, norm_first=norm_first, activation=activation,
              batch_first=True)
    te, ce = _pair("TransformerEncoderLayer", **kw)
    td, cd = _pair("TransformerDecoderLayer", **kw)
    g = torch.Generator().manual_seed(3)
    src, tgt = torch.randn(2, 6, 8, dtype=torch.float64, generator=g), torch.randn(2, 5, 8, dtype=torch.float64, generator=g)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(5).double()
    kpm = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    for tmod, cmod in ((te, ce), (td, cd)):
        _ct_module_from(tmod, cmod)
        tmod.eval(), cmod.eval()
    np.testing.assert_allclose(_np(ce(_ct(src), src_key_padding_mask=_ct(kpm))),
                               te(src, src_key_padding_mask=kpm).detach().numpy(), rtol=1e-9, atol=1e-10)
    cmask = nn.Transformer.generate_square_subsequent_mask(5, dtype=ct.float64)
    np.testing.assert_array_equal(_np(cmask), mask.numpy())
    np.testing.assert_allclose(_np(cd(_ct(tgt), _ct(src), tgt_mask=cmask, memory_key_padding_mask=_ct(kpm))),
                               td(tgt, src, tgt_mask=mask, memory_key_padding_mask=kpm).detach().numpy(),
                               rtol=1e-9, atol=1e-10)


def test_transformer_and_stacks_load_torch_state_and_match():
    tt, cmod = _pair("Transformer", d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2,
                     dim_feedforward=16)
    _ct_module_from(tt, cmod)
    assert sorted(cmod.state_dict()) == sorted(tt.state_dict())
    tt.eval(), cmod.eval()
    g = torch.Generator().manual_seed(4)
    src, tgt = torch.randn(6, 2, 8, dtype=torch.float64, generator=g), torch.randn(5, 2, 8, dtype=torch.float64, generator=g)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(5).double()
    ref = tt(src, tgt, tgt_mask=mask)
    out = cmod(_ct(src), _ct(tgt), tgt_mask=_ct(mask))
    np.testing.assert_allclose(_np(out), ref.detach().numpy(), rtol=1e-9, atol=1e-10)


def test_encoder_layer_trains_with_dropout():
    layer = nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, dropout=0.1, batch_first=True)
    x = ct.randn(3, 10, 16)
    out = layer(x, is_causal=True)
    out.pow(2).mean().backward()
    assert all(p.grad is not None for p in layer.parameters())


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="divisible by num_heads"):
        nn.MultiheadAttention(10, 3)
    q, k, v = ct.randn(2, 3, 4), ct.randn(2, 5, 3), ct.randn(2, 5, 6)
    with pytest.raises(Exception, match="scaled_dot_product_attention.*key's last dim must equal query's"):
        F.scaled_dot_product_attention(q, k, v)
    with pytest.raises(Exception, match="attn_mask must be bool or floating, got int64"):
        F.scaled_dot_product_attention(q, ct.randn(2, 5, 4), v, attn_mask=ct.zeros(3, 5, dtype=ct.int64))
    with pytest.raises(Exception, match="attn_mask \\[3, 4\\] does not broadcast"):
        F.scaled_dot_product_attention(q, ct.randn(2, 5, 4), v, attn_mask=ct.zeros(3, 4))
    m = nn.MultiheadAttention(8, 2)
    x = ct.randn(5, 2, 8)
    with pytest.raises(Exception, match="multi_head_attention_forward: expected a 2-D attn_mask"):
        m(x, x, x, attn_mask=ct.zeros(4, 4))
    with pytest.raises(Exception, match="key_padding_mask"):
        m(x, x, x, key_padding_mask=ct.zeros(3, 5, dtype=ct.bool))


@cuda
def test_sdpa_and_mha_on_cuda_match_cpu():
    q, k, v, m, causal, _ = _sdpa_inputs(SDPA_CASES[2])
    outs, grads = [], []
    for dev in ("cpu", "cuda"):
        cq, ck, cv = (_ct(t, True, dev) for t in (q, k, v))
        out = F.scaled_dot_product_attention(cq, ck, cv, attn_mask=_ct(m, device=dev), is_causal=True)
        out.sum().backward()
        outs.append(_np(out))
        grads.append([_np(t.grad) for t in (cq, ck, cv)])
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-10, atol=1e-10)
    for a, b in zip(grads[1], grads[0]):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-10)
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True, dtype=ct.float64).eval()
    x = ct.randn(2, 5, 8, dtype=ct.float64)
    ref = _np(layer(x))
    np.testing.assert_allclose(_np(layer.to("cuda")(x.to("cuda"))), ref, rtol=1e-10, atol=1e-10)

"""ctensor.nn.functional's attention: scaled_dot_product_attention (torch 2.x signature) and
multi_head_attention_forward (torch 1.13's), each one call into the C ABI (ct_scaled_dot_product_attention,
ct_multi_head_attention_forward)."""
from __future__ import annotations

import math
import warnings

from .. import _C


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 generator=None):
    """softmax(query @ key^T * scale + mask) @ value with dropout_p of the probabilities dropped.

    query [..., L, E], key [..., S, E], value [..., S, Ev]; attn_mask bool (True = take part) or floating (added),
    broadcastable to [..., L, S]; is_causal masks key j > query i; scale None = 1 / sqrt(E). On the CPU the kernel
    is blocked (no [L, S] matrix) and its backward recomputes the probabilities."""
    return _C.scaled_dot_product_attention(query, key, value, attn_mask, float(dropout_p), bool(is_causal),
                                           math.nan if scale is None else float(scale), generator)


def _mask_dtype_ok(mask, what):
    if mask is not None and mask._dtype_code == _C.CT_UINT8:
        warnings.warn("Byte tensor for %s in nn.MultiheadAttention is deprecated. Use bool tensor instead." % what)
        return _C.to_dtype(mask, _C.CT_BOOL)
    return mask


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False, generator=None):
    """torch.nn.functional.multi_head_attention_forward (seq-first [L, N, E] or unbatched [L, E]); returns
    (attn_output, attn_weights or None). static_k / static_v are not supported."""
    if static_k is not None or static_v is not None:
        raise NotImplementedError("multi_head_attention_forward: static_k / static_v are not supported")
    if query.shape[-1] != embed_dim_to_check:
        raise ValueError("was expecting embedding dimension of %d, but got %d" % (embed_dim_to_check, query.shape[-1]))
    if use_separate_proj_weight:
        in_proj_weight = None
    else:
        q_proj_weight = k_proj_weight = v_proj_weight = None
        if in_proj_weight is None:
            raise ValueError("use_separate_proj_weight is False but in_proj_weight is None")
    attn_mask = _mask_dtype_ok(attn_mask, "attn_mask")
    key_padding_mask = _mask_dtype_ok(key_padding_mask, "key_padding_mask")
    if is_causal and attn_mask is not None:
        attn_mask = None  # torch 2.x: is_causal is a hint that attn_mask is the causal mask
    return _C.multi_head_attention_forward(query, key, value, int(num_heads), in_proj_weight, in_proj_bias, bias_k,
                                           bias_v, bool(add_zero_attn), float(dropout_p), out_proj_weight,
                                           out_proj_bias, bool(training), key_padding_mask, bool(need_weights),
                                           attn_mask, q_proj_weight, k_proj_weight, v_proj_weight,
                                           bool(average_attn_weights), bool(is_causal), generator)

// multi_head_attention.cpp - torch.nn.functional.multi_head_attention_forward (torch 1.13's steps) composed of
// core ops: in-projection (packed or separate weights for kdim/vdim), bias_k/bias_v, add_zero_attn, the key
// padding mask merged into attn_mask, attention, out-projection. Without need_weights the attention is the fused
// scaled_dot_product_attention; with it the probabilities are materialised (softmax of the scores) and returned.
#include <array>
#include <cmath>
#include <limits>
#include "autograd/grad_mode.h"
#include "ops/attention.h"
#include "ops/nn_common.h"

namespace ct {

namespace {

constexpr const char* kOp = "multi_head_attention_forward";
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// m padded with one zero (false) column at the end of its last dim (torch's pad(m, (0, 1))).
Tensor pad_last(const Tensor& m) {
    Shape s = m.sizes();
    s.back() = 1;
    return cat({m, zeros(s, m.dtype(), m.device())}, -1);
}

// The additive form of a mask in dtype (bool: -inf where true, i.e. torch MHA's "not allowed").
Tensor additive_blocked(const Tensor& m, DType dtype) {
    if (m.dtype() != DType::Bool) return to_dtype(m, dtype);
    return masked_fill(zeros(m.sizes(), dtype, m.device()), m, kNegInf);
}

void check_mask_dtype(const Tensor& m, const char* what) {
    if (m.defined() && m.dtype() != DType::Bool && !is_floating(m.dtype()))
        fail(CT_ERR_DTYPE, kOp, ": ", what, " must be bool or floating, got ", dtype_name(m.dtype()));
}

void expect_shape(const Tensor& t, const Shape& want, const char* what) {
    if (t.sizes() != want)
        fail(CT_ERR_SHAPE, kOp, ": expected ", what, " of shape ", shape_str(want), ", got ", shape_str(t.sizes()));
}

// q, k, v after the in-projection ([L, N, E], [S, N, E], [S, N, E]).
// self_attention: query, key and value are one tensor (then one [3E, E] product is split, as torch does).
std::array<Tensor, 3> in_projection(const MhaArgs& a, const Tensor& query, const Tensor& key, const Tensor& value,
                                    int64_t E, bool self_attention) {
    Tensor bq, bk, bv;
    if (a.in_proj_bias.defined()) {
        expect_shape(a.in_proj_bias, {3 * E}, "in_proj_bias");
        bq = narrow(a.in_proj_bias, 0, 0, E), bk = narrow(a.in_proj_bias, 0, E, E),
        bv = narrow(a.in_proj_bias, 0, 2 * E, E);
    }
    if (a.in_proj_weight.defined()) {
        expect_shape(a.in_proj_weight, {3 * E, E}, "in_proj_weight");
        if (key.size(2) != E || value.size(2) != E)
            fail(CT_ERR_SHAPE, kOp, ": key ", shape_str(key.sizes()), " and value ", shape_str(value.sizes()),
                 " must have embed_dim ", E, " with a packed in_proj_weight (use q/k/v_proj_weight for kdim/vdim)");
        const Tensor& w = a.in_proj_weight;
        if (self_attention) {
            Tensor qkv = linear(query, w, a.in_proj_bias);
            return {narrow(qkv, -1, 0, E), narrow(qkv, -1, E, E), narrow(qkv, -1, 2 * E, E)};
        }
        return {linear(query, narrow(w, 0, 0, E), bq), linear(key, narrow(w, 0, E, E), bk),
                linear(value, narrow(w, 0, 2 * E, E), bv)};
    }
    if (!a.q_proj_weight.defined() || !a.k_proj_weight.defined() || !a.v_proj_weight.defined())
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": give in_proj_weight or all of q_proj_weight, k_proj_weight and "
             "v_proj_weight");
    expect_shape(a.q_proj_weight, {E, E}, "q_proj_weight");
    expect_shape(a.k_proj_weight, {E, key.size(2)}, "k_proj_weight [embed_dim, kdim]");
    expect_shape(a.v_proj_weight, {E, value.size(2)}, "v_proj_weight [embed_dim, vdim]");
    return {linear(query, a.q_proj_weight, bq), linear(key, a.k_proj_weight, bk), linear(value, a.v_proj_weight, bv)};
}

}  // namespace

std::pair<Tensor, Tensor> multi_head_attention_forward(const MhaArgs& a) {
    for (const Tensor* t : {&a.query, &a.key, &a.value, &a.out_proj_weight})
        if (!t->defined()) fail(CT_ERR_INVALID_ARGUMENT, kOp, ": query, key, value and out_proj_weight are required");
    const bool batched = a.query.dim() == 3;
    if (!batched && a.query.dim() != 2)
        fail(CT_ERR_SHAPE, kOp, ": expected query [L, N, E] or unbatched [L, E], got ", shape_str(a.query.sizes()));
    if (a.key.dim() != a.query.dim() || a.value.dim() != a.query.dim())
        fail(CT_ERR_SHAPE, kOp, ": query ", shape_str(a.query.sizes()), ", key ", shape_str(a.key.sizes()),
             " and value ", shape_str(a.value.sizes()), " must all be batched (3-D) or all unbatched (2-D)");
    check_mask_dtype(a.attn_mask, "attn_mask");
    check_mask_dtype(a.key_padding_mask, "key_padding_mask");
    Tensor query = batched ? a.query : unsqueeze(a.query, 1), key = batched ? a.key : unsqueeze(a.key, 1);
    Tensor value = batched ? a.value : unsqueeze(a.value, 1), kpm = a.key_padding_mask;
    if (kpm.defined() && !batched) kpm = unsqueeze(kpm, 0);
    const int64_t L = query.size(0), N = query.size(1), E = query.size(2), S0 = key.size(0), H = a.num_heads;
    if (H <= 0 || E % H != 0)
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": embed_dim ", E, " is not divisible by num_heads ", H);
    if (key.size(1) != N || value.size(0) != S0 || value.size(1) != N)
        fail(CT_ERR_SHAPE, kOp, ": key ", shape_str(key.sizes()), " and value ", shape_str(value.sizes()),
             " must share the sequence length and batch (query ", shape_str(query.sizes()), ")");
    if (!(a.dropout_p >= 0.0 && a.dropout_p <= 1.0))
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": dropout_p must be in [0, 1], got ", a.dropout_p);
    const int64_t hd = E / H;
    const bool self_attention = a.query.is_same(a.key) && a.key.is_same(a.value);
    auto [q, k, v] = in_projection(a, query, key, value, E, self_attention);
    Tensor mask = a.attn_mask;
    if (mask.defined()) {
        if (mask.dim() == 2) expect_shape(mask, {L, S0}, "a 2-D attn_mask [L, S]");
        else if (mask.dim() == 3) expect_shape(mask, {N * H, L, S0}, "a 3-D attn_mask [N * num_heads, L, S]");
        else fail(CT_ERR_SHAPE, kOp, ": attn_mask must be 2-D or 3-D, got ", shape_str(mask.sizes()));
        if (mask.dim() == 2) mask = unsqueeze(mask, 0);
    }
    if (a.bias_k.defined() != a.bias_v.defined())
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": bias_k and bias_v must be given together");
    if (a.bias_k.defined()) {
        expect_shape(a.bias_k, {1, 1, E}, "bias_k");
        expect_shape(a.bias_v, {1, 1, E}, "bias_v");
        k = cat({k, expand(a.bias_k, {1, N, E})}, 0), v = cat({v, expand(a.bias_v, {1, N, E})}, 0);
        if (mask.defined()) mask = pad_last(mask);
        if (kpm.defined()) kpm = pad_last(kpm);
    }
    q = transpose(reshape(q, {L, N * H, hd}), 0, 1);
    k = transpose(reshape(k, {k.size(0), N * H, hd}), 0, 1);
    v = transpose(reshape(v, {v.size(0), N * H, hd}), 0, 1);
    if (a.add_zero_attn) {
        k = cat({k, zeros({N * H, 1, hd}, k.dtype(), k.device())}, 1);
        v = cat({v, zeros({N * H, 1, hd}, v.dtype(), v.device())}, 1);
        if (mask.defined()) mask = pad_last(mask);
        if (kpm.defined()) kpm = pad_last(kpm);
    }
    const int64_t S = k.size(1);
    if (kpm.defined()) {
        expect_shape(kpm, {N, S}, "key_padding_mask [N, S] (S after bias_k and add_zero_attn)");
        kpm = reshape(expand(reshape(kpm, {N, 1, 1, S}), {N, H, 1, S}), {N * H, 1, S});
        if (!mask.defined()) mask = kpm;
        else if (mask.dtype() == DType::Bool && kpm.dtype() == DType::Bool) mask = logical_or(mask, kpm);
        else mask = add(additive_blocked(mask, q.dtype()), additive_blocked(kpm, q.dtype()));
    }
    if (mask.defined()) mask = additive_blocked(mask, q.dtype());
    const double p = a.training ? a.dropout_p : 0.0, scale = 1.0 / std::sqrt((double)hd);
    Tensor attn, weights;
    if (a.need_weights) {
        Tensor s = matmul(mul_scalar(q, scale), transpose(k, -2, -1));
        if (mask.defined()) s = add(s, mask);
        if (a.is_causal) s = add(s, causal_additive_mask(L, S, s.dtype(), s.device()));
        weights = softmax(s, -1);
        if (p > 0) weights = dropout(weights, p, true, a.gen);
        attn = matmul(weights, v);
    } else {
        attn = scaled_dot_product_attention(q, k, v, mask, p, a.is_causal, scale, a.gen);
    }
    Tensor out = linear(reshape(transpose(attn, 0, 1), {L * N, E}), a.out_proj_weight, a.out_proj_bias);
    out = reshape(out, {L, N, out.size(1)});
    if (!batched) out = squeeze(out, 1);
    if (!a.need_weights) return {out, Tensor()};
    weights = reshape(weights, {N, H, L, S});
    if (a.average_attn_weights) weights = mean(weights, {1}, false);
    if (!batched) weights = squeeze(weights, 0);
    return {out, weights};
}

}  // namespace ct

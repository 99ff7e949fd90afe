// capi_attention.cpp - C API: attention (scaled_dot_product_attention, multi_head_attention_forward).
#include "capi/capi_common.h"
#include "core/generator.h"
#include "ops/attention.h"

using namespace ct;

extern "C" {

ct_status ct_scaled_dot_product_attention(ct_tensor q, ct_tensor k, ct_tensor v, ct_tensor attn_mask,
                                          double dropout_p, int32_t is_causal, double scale, ct_generator gen,
                                          ct_tensor* out) {
    const char* op = "scaled_dot_product_attention";
    return guard([&] {
        check_out(out, op);
        Tensor Q = get_tensor(q, op, "q"), K = get_tensor(k, op, "k"), V = get_tensor(v, op, "v");
        Tensor M = get_optional_tensor(attn_mask, op, "attn_mask");
        std::shared_ptr<Generator> g = generator_arg(gen, op);
        *out = new_tensor_handle(scaled_dot_product_attention(Q, K, V, M, dropout_p, is_causal != 0, scale, g.get()));
    });
}

ct_status ct_multi_head_attention_forward(ct_tensor query, ct_tensor key, ct_tensor value, int64_t num_heads,
                                          ct_tensor in_proj_weight, ct_tensor in_proj_bias, ct_tensor bias_k,
                                          ct_tensor bias_v, int32_t add_zero_attn, double dropout_p,
                                          ct_tensor out_proj_weight, ct_tensor out_proj_bias, int32_t training,
                                          ct_tensor key_padding_mask, int32_t need_weights, ct_tensor attn_mask,
                                          ct_tensor q_proj_weight, ct_tensor k_proj_weight, ct_tensor v_proj_weight,
                                          int32_t average_attn_weights, int32_t is_causal, ct_generator gen,
                                          ct_tensor* out, ct_tensor* out_weights) {
    const char* op = "multi_head_attention_forward";
    return guard([&] {
        check_out(out, op);
        if (need_weights) check_out(out_weights, op, "out_weights");
        MhaArgs a;
        a.query = get_tensor(query, op, "query"), a.key = get_tensor(key, op, "key");
        a.value = get_tensor(value, op, "value"), a.num_heads = num_heads;
        a.in_proj_weight = get_optional_tensor(in_proj_weight, op, "in_proj_weight");
        a.in_proj_bias = get_optional_tensor(in_proj_bias, op, "in_proj_bias");
        a.bias_k = get_optional_tensor(bias_k, op, "bias_k"), a.bias_v = get_optional_tensor(bias_v, op, "bias_v");
        a.add_zero_attn = add_zero_attn != 0, a.dropout_p = dropout_p;
        a.out_proj_weight = get_tensor(out_proj_weight, op, "out_proj_weight");
        a.out_proj_bias = get_optional_tensor(out_proj_bias, op, "out_proj_bias");
        a.training = training != 0, a.need_weights = need_weights != 0;
        a.key_padding_mask = get_optional_tensor(key_padding_mask, op, "key_padding_mask");
        a.attn_mask = get_optional_tensor(attn_mask, op, "attn_mask");
        a.q_proj_weight = get_optional_tensor(q_proj_weight, op, "q_proj_weight");
        a.k_proj_weight = get_optional_tensor(k_proj_weight, op, "k_proj_weight");
        a.v_proj_weight = get_optional_tensor(v_proj_weight, op, "v_proj_weight");
        a.average_attn_weights = average_attn_weights != 0, a.is_causal = is_causal != 0;
        std::shared_ptr<Generator> g = generator_arg(gen, op);
        a.gen = g.get();
        std::pair<Tensor, Tensor> r = multi_head_attention_forward(a);
        set_tensor_outs({{r.first, out}, {r.second, out_weights}});  // weights undefined -> NULL
    });
}

}  // extern "C"

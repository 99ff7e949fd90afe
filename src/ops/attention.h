// attention.h - attention ops (attention.cpp, multi_head_attention.cpp): torch's scaled_dot_product_attention and
// multi_head_attention_forward.
#pragma once
#include "ops/ops.h"

namespace ct {

// softmax(q k^T * scale + mask) v with dropout_p of the probabilities dropped (gen: null = the default generator):
// q [..., L, E], k [..., S, E], v [..., S, Ev] (leading dims broadcast) -> [..., L, Ev]. mask: undefined, bool (true
// = attend) or floating (added), broadcastable to [..., L, S]; is_causal also masks j > i. scale NaN or <= 0:
// 1 / sqrt(E). Note [Attention problem] in cpu/flash_attention.h.
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                                    double dropout_p, bool is_causal, double scale, Generator* gen);

// The [L, S] additive causal mask: 0 where j <= i, -inf where j > i (torch's top-left tril), on device.
Tensor causal_additive_mask(int64_t L, int64_t S, DType dtype, Device device);

// torch.nn.functional.multi_head_attention_forward's arguments (seq-first: query [L, N, E] or unbatched [L, E]).
// Packed projection when in_proj_weight is defined, else q/k/v_proj_weight ([E, E], [E, kdim], [E, vdim]);
// in_proj_bias [3 * E] either way. Masks are bool (true = not allowed) or floating (added); key_padding_mask [N, S].
// is_causal masks key j > query i in addition to attn_mask. gen: null = the default generator.
struct MhaArgs {
    Tensor query, key, value;
    int64_t num_heads = 1;
    Tensor in_proj_weight, in_proj_bias, bias_k, bias_v;
    bool add_zero_attn = false;
    double dropout_p = 0;
    Tensor out_proj_weight, out_proj_bias;
    bool training = true;
    Tensor key_padding_mask;
    bool need_weights = true;
    Tensor attn_mask, q_proj_weight, k_proj_weight, v_proj_weight;
    bool average_attn_weights = true, is_causal = false;
    Generator* gen = nullptr;
};
// The attention output [L, N, E] (or [L, E]) and, with need_weights, the weights [N, L, S] averaged over heads or
// [N, H, L, S] (unbatched: without N); undefined weights otherwise.
std::pair<Tensor, Tensor> multi_head_attention_forward(const MhaArgs& a);

}  // namespace ct

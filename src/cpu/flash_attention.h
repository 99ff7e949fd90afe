// flash_attention.h - the blocked (FlashAttention-2 style) CPU kernels of scaled_dot_product_attention: the
// forward keeps a running max and sum per query row over key blocks (online softmax) and the row's
// log-sum-exp; the backward recomputes each block's probabilities from that log-sum-exp. No [L, S] matrix is
// held beyond one [Br, Bc] block per task. Plain arrays only (the op layer in ops/attention.cpp owns tensors).
#pragma once
#include <cstdint>
#include <vector>
#include "core/generator.h"

namespace ct {

// Note [Attention problem]: B independent attentions (the flattened batch), each q [L, E], k [S, E], v [S, Ev],
// out [L, Ev], contiguous row-major, b-th at b * L * E etc. Scores s_ij = scale * q_i . k_j + mask_ij, -inf
// where causal and j > i (torch's top-left tril). A fully masked row gives NaN (as softmax of all -inf does) and
// log-sum-exp +inf; its backward is 0.
template <typename T> struct AttentionProblem {
    int64_t B = 0, L = 0, S = 0, E = 0, Ev = 0;
    T scale = 1;
    bool causal = false;
    // Additive mask in T or null; element (b, i, j) at mask[mask_batch_offset[b] + i * mask_row + j * mask_col]
    // (strides of a broadcast view, so a [L, S] mask shared by all b costs nothing).
    const T* mask = nullptr;
    std::vector<int64_t> mask_batch_offset;
    int64_t mask_row = 0, mask_col = 0;
    // Note [Attention dropout]: probabilities are dropped after the softmax sum (as torch's math path: dropout of
    // softmax). Element (b, i, j) with flat index f = (b * L + i) * S + j is kept when
    // uniform24(word f % 4 of counter f / 4 of the stream) < 1 - p, and scaled by 1 / (1 - p); the backward
    // recomputes the same keep bits from the saved stream (no mask is stored).
    double dropout_p = 0;
    PhiloxStream dropout_stream;
};

// out [B, L, Ev] and lse [B, L] (log-sum-exp of each score row) from q, k, v.
template <typename T>
void flash_attention_forward(const AttentionProblem<T>& p, const T* q, const T* k, const T* v, T* out, T* lse);

// Gradients dq [B, L, E], dk [B, S, E], dv [B, S, Ev] (overwritten) from dout [B, L, Ev] and the forward's out
// and lse; dscores (null or [B, L, S], overwritten) receives the gradient of the scores (the additive mask's).
template <typename T>
void flash_attention_backward(const AttentionProblem<T>& p, const T* q, const T* k, const T* v, const T* out,
                              const T* lse, const T* dout, T* dq, T* dk, T* dv, T* dscores);

}  // namespace ct

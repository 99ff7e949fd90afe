// flash_attention.cpp - blocked CPU attention (see flash_attention.h): per (batch, query block) task the forward
// walks key blocks with one sgemm/dgemm for the scores and one for P V; per batch task the backward walks key
// blocks outside and query blocks inside (FlashAttention-2's order), five gemms per block.
#pragma GCC optimize("no-trapping-math")
#include "cpu/flash_attention.h"
#include <cmath>
#include <limits>
#include "cpu/gemm.h"
#include "cpu/nn_rows.h"
#include "cpu/parallel.h"

namespace ct {

namespace {

constexpr int64_t kBlockQ = 64;   // query rows per block (Br)
constexpr int64_t kBlockK = 128;  // key columns per block (Bc)

// One block's scores: blk[r * Bc + c] = scale * q_(i0+r) . k_(j0+c) + mask, -inf where causal cuts.
template <typename T>
void block_scores(const AttentionProblem<T>& p, int64_t b, const T* qb, const T* kb, int64_t i0, int64_t rows,
                  int64_t j0, int64_t cols, T* blk) {
    gemm(false, true, rows, cols, p.E, p.scale, qb + i0 * p.E, p.E, kb + j0 * p.E, p.E, T(0), blk, kBlockK);
    const T ninf = -std::numeric_limits<T>::infinity();
    for (int64_t r = 0; r < rows; ++r) {
        T* s = blk + r * kBlockK;
        const int64_t i = i0 + r;
        if (p.mask) {
            const T* m = p.mask + p.mask_batch_offset[(size_t)b] + i * p.mask_row + j0 * p.mask_col;
            for (int64_t c = 0; c < cols; ++c) s[c] += m[c * p.mask_col];
        }
        if (p.causal)
            for (int64_t c = std::max<int64_t>(0, i + 1 - j0); c < cols; ++c) s[c] = ninf;
    }
}

// The dropout factors of row i's cols scores from key j0 (Note [Attention dropout]): keep-scale or 0.
template <typename T> void dropout_factors(const AttentionProblem<T>& p, int64_t b, int64_t i, int64_t j0, int64_t cols,
                                           T* z) {
    const float keep_below = (float)(1.0 - p.dropout_p);
    const T keep_scale = p.dropout_p < 1.0 ? (T)(1.0 / (1.0 - p.dropout_p)) : T(0);
    const uint64_t f0 = (uint64_t)((b * p.L + i) * p.S + j0), f1 = f0 + (uint64_t)cols;
    for (uint64_t counter = f0 >> 2; counter <= (f1 - 1) >> 2; ++counter) {  // four scores per Philox block
        const PhiloxWords w = p.dropout_stream.block(counter);
        for (uint64_t f = std::max(counter << 2, f0); f < std::min((counter << 2) + 4, f1); ++f)
            z[f - f0] = uniform24(w[f & 3]) < keep_below ? keep_scale : T(0);
    }
}

// Multiplies a row of P by its dropout factors (z: scratch of cols values).
template <typename T> void apply_dropout(const AttentionProblem<T>& p, int64_t b, int64_t i, int64_t j0, int64_t cols,
                                         T* row, T* z) {
    dropout_factors(p, b, i, j0, cols, z);
    for (int64_t c = 0; c < cols; ++c) row[c] *= z[c];
}

// The key columns a query block sees: all S, or up to its last row when causal.
template <typename T> int64_t key_end(const AttentionProblem<T>& p, int64_t i0, int64_t rows) {
    return p.causal ? std::min(p.S, i0 + rows) : p.S;
}

template <typename T>
void forward_task(const AttentionProblem<T>& p, int64_t b, int64_t i0, const T* q, const T* k, const T* v, T* out,
                  T* lse, std::vector<T>& blk, std::vector<T>& acc, std::vector<T>& mx, std::vector<T>& sum,
                  std::vector<T>& z) {
    const T ninf = -std::numeric_limits<T>::infinity();
    const int64_t rows = std::min(kBlockQ, p.L - i0);
    const T *qb = q + b * p.L * p.E, *kb = k + b * p.S * p.E, *vb = v + b * p.S * p.Ev;
    std::fill(acc.begin(), acc.begin() + rows * p.Ev, T(0));
    std::fill(mx.begin(), mx.end(), ninf);
    std::fill(sum.begin(), sum.end(), T(0));
    const int64_t kend = key_end(p, i0, rows);
    for (int64_t j0 = 0; j0 < kend; j0 += kBlockK) {
        const int64_t cols = std::min(kBlockK, kend - j0);
        block_scores(p, b, qb, kb, i0, rows, j0, cols, blk.data());
        for (int64_t r = 0; r < rows; ++r) {
            T* s = blk.data() + r * kBlockK;
            const T m_new = max_nan(mx[(size_t)r], row_max(s, cols));
            if (m_new == ninf) {  // everything so far masked: this block adds nothing
                std::fill(s, s + cols, T(0));
                continue;
            }
            const T alpha = std::exp(mx[(size_t)r] - m_new);  // 0 when the old max was -inf
            exp_shifted(s, s, cols, m_new);
            T rs = 0;
            for (int64_t c = 0; c < cols; ++c) rs += s[c];
            sum[(size_t)r] = sum[(size_t)r] * alpha + rs;
            mx[(size_t)r] = m_new;
            if (alpha != T(1)) {
                T* a = acc.data() + r * p.Ev;
                for (int64_t c = 0; c < p.Ev; ++c) a[c] *= alpha;
            }
            if (p.dropout_p > 0) apply_dropout(p, b, i0 + r, j0, cols, s, z.data());
        }
        gemm(false, false, rows, p.Ev, cols, T(1), blk.data(), kBlockK, vb + j0 * p.Ev, p.Ev, T(1), acc.data(), p.Ev);
    }
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t i = i0 + r;
        T* o = out + (b * p.L + i) * p.Ev;
        const T l = sum[(size_t)r];
        const T inv = l > T(0) ? T(1) / l : std::numeric_limits<T>::quiet_NaN();
        for (int64_t c = 0; c < p.Ev; ++c) o[c] = acc[(size_t)(r * p.Ev + c)] * inv;
        lse[b * p.L + i] = l > T(0) ? mx[(size_t)r] + std::log(l) : std::numeric_limits<T>::infinity();
    }
}

// P of one block from its scores and the rows' log-sum-exp (0 for a fully masked row, lse = +inf).
template <typename T> void block_probs(int64_t rows, int64_t cols, const T* lse_rows, T* blk) {
    for (int64_t r = 0; r < rows; ++r) {
        T* s = blk + r * kBlockK;
        if (std::isinf(lse_rows[r])) std::fill(s, s + cols, T(0));
        else exp_shifted(s, s, cols, lse_rows[r]);
    }
}

template <typename T>
void backward_task(const AttentionProblem<T>& p, int64_t b, const T* q, const T* k, const T* v, const T* out,
                   const T* lse, const T* dout, T* dq, T* dk, T* dv, T* dscores) {
    const int64_t L = p.L, S = p.S, E = p.E, Ev = p.Ev;
    const T *qb = q + b * L * E, *kb = k + b * S * E, *vb = v + b * S * Ev, *ob = out + b * L * Ev;
    const T *dob = dout + b * L * Ev, *lb = lse + b * L;
    T *dqb = dq + b * L * E, *dkb = dk + b * S * E, *dvb = dv + b * S * Ev;
    std::fill(dqb, dqb + L * E, T(0));
    std::fill(dkb, dkb + S * E, T(0));
    std::fill(dvb, dvb + S * Ev, T(0));
    // D_i = dout_i . out_i (= sum_j P_ij dP_ij, FlashAttention-2's D; it holds with dropout too).
    std::vector<T> D((size_t)L), P((size_t)(kBlockQ * kBlockK)), Pd, Z, dP((size_t)(kBlockQ * kBlockK));
    for (int64_t i = 0; i < L; ++i) {
        T d = 0;
        if (!std::isinf(lb[i]))
            for (int64_t c = 0; c < Ev; ++c) d += dob[i * Ev + c] * ob[i * Ev + c];
        D[(size_t)i] = d;
    }
    if (p.dropout_p > 0) Pd.resize(P.size()), Z.resize(P.size());  // Z: the block's dropout factors, drawn once
    for (int64_t j0 = 0; j0 < S; j0 += kBlockK) {
        const int64_t cols = std::min(kBlockK, S - j0);
        for (int64_t i0 = p.causal ? j0 / kBlockQ * kBlockQ : 0; i0 < L; i0 += kBlockQ) {
            const int64_t rows = std::min(kBlockQ, L - i0);
            block_scores(p, b, qb, kb, i0, rows, j0, cols, P.data());
            block_probs(rows, cols, lb + i0, P.data());
            const T* pv = P.data();  // the probabilities that multiplied V (after dropout)
            if (p.dropout_p > 0) {
                for (int64_t r = 0; r < rows; ++r) {
                    T *z = Z.data() + r * kBlockK, *pr = P.data() + r * kBlockK, *pd = Pd.data() + r * kBlockK;
                    dropout_factors(p, b, i0 + r, j0, cols, z);
                    for (int64_t c = 0; c < cols; ++c) pd[c] = pr[c] * z[c];
                }
                pv = Pd.data();
            }
            gemm(true, false, cols, Ev, rows, T(1), pv, kBlockK, dob + i0 * Ev, Ev, T(1), dvb + j0 * Ev, Ev);
            gemm(false, true, rows, cols, Ev, T(1), dob + i0 * Ev, Ev, vb + j0 * Ev, Ev, T(0), dP.data(), kBlockK);
            for (int64_t r = 0; r < rows; ++r) {
                T *dp = dP.data() + r * kBlockK, *pr = P.data() + r * kBlockK;
                if (p.dropout_p > 0)  // dP = dPd * keep-scale
                    for (int64_t c = 0; c < cols; ++c) dp[c] *= Z[(size_t)(r * kBlockK + c)];
                const T d = D[(size_t)(i0 + r)];
                for (int64_t c = 0; c < cols; ++c) dp[c] = pr[c] * (dp[c] - d);  // dS
                if (dscores) std::copy(dp, dp + cols, dscores + (b * L + i0 + r) * S + j0);
            }
            gemm(false, false, rows, E, cols, p.scale, dP.data(), kBlockK, kb + j0 * E, E, T(1), dqb + i0 * E, E);
            gemm(true, false, cols, E, rows, p.scale, dP.data(), kBlockK, qb + i0 * E, E, T(1), dkb + j0 * E, E);
        }
    }
}

}  // namespace

template <typename T>
void flash_attention_forward(const AttentionProblem<T>& p, const T* q, const T* k, const T* v, T* out, T* lse) {
    const int64_t qblocks = (p.L + kBlockQ - 1) / kBlockQ;
    parallel_for(p.B * qblocks, 1, [&](int64_t t0, int64_t t1) {
        std::vector<T> blk((size_t)(kBlockQ * kBlockK)), acc((size_t)(kBlockQ * p.Ev)), mx((size_t)kBlockQ),
            sum((size_t)kBlockQ), z((size_t)kBlockK);
        for (int64_t t = t0; t < t1; ++t)
            forward_task(p, t / qblocks, t % qblocks * kBlockQ, q, k, v, out, lse, blk, acc, mx, sum, z);
    });
}

template <typename T>
void flash_attention_backward(const AttentionProblem<T>& p, const T* q, const T* k, const T* v, const T* out,
                              const T* lse, const T* dout, T* dq, T* dk, T* dv, T* dscores) {
    if (dscores && p.causal) std::fill(dscores, dscores + p.B * p.L * p.S, T(0));  // blocks causal skips
    parallel_for(p.B, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) backward_task(p, b, q, k, v, out, lse, dout, dq, dk, dv, dscores);
    });
}

template void flash_attention_forward<float>(const AttentionProblem<float>&, const float*, const float*, const float*,
                                             float*, float*);
template void flash_attention_forward<double>(const AttentionProblem<double>&, const double*, const double*,
                                              const double*, double*, double*);
template void flash_attention_backward<float>(const AttentionProblem<float>&, const float*, const float*,
                                              const float*, const float*, const float*, const float*, float*, float*,
                                              float*, float*);
template void flash_attention_backward<double>(const AttentionProblem<double>&, const double*, const double*,
                                               const double*, const double*, const double*, const double*, double*,
                                               double*, double*, double*);

}  // namespace ct

// norm_kernels.h - the fused CPU kernels behind layer_norm, group_norm and batch_norm (ops/nn_norms.cpp): one
// geometry describes all three, so each kernel exists once (float32 / float64, double accumulators).
#pragma once
#include <cstdint>

namespace ct {

// Note [Norm geometry]: x is seen as contiguous [N, C, S] and normalised over "rows" of it; the affine weight and
// bias are indexed by channel c in [0, C).
//  - layer_norm: N = leading elements, C = numel of normalized_shape, S = 1, groups = 1: row n is x[n, :, :].
//  - group_norm: x [N, C, *] with S = prod(*), groups = num_groups: row n * groups + g covers the channels
//    [g * C / groups, (g + 1) * C / groups) of sample n, contiguous.
//  - batch_norm: per_channel: row c covers x[:, c, :] (N pieces of S elements, C * S apart).
// Each row has row_size() elements; mean / rstd are per row. C % groups == 0 is checked by the op.
struct NormGeom {
    int64_t N = 0, C = 0, S = 1;
    int64_t groups = 1;
    bool per_channel = false;
    int64_t rows() const { return per_channel ? C : N * groups; }
    int64_t row_size() const { return per_channel ? N * S : (C / groups) * S; }
};

// mean[r], var[r] (biased) and rstd[r] = 1 / sqrt(var + eps) of every row: two passes (mean, then the squared
// deviations) in double accumulators; parallel over rows.
template <typename T> void norm_stats(const T* x, const NormGeom& g, double eps, T* mean, T* var, T* rstd);

// y = (x - mean[row]) * rstd[row] * w[c] + b[c]; w / b NULL mean 1 / 0.
template <typename T>
void norm_apply(const T* x, const NormGeom& g, const T* mean, const T* rstd, const T* w, const T* b, T* y);

// The gradients of norm_apply with respect to x (dx; batch statistics when train, else mean / rstd constants),
// w (dw) and b (db), each NULL when not wanted; w NULL means 1. One pass per row for the row sums, one for dx;
// dw / db are summed per block of rows and then over blocks (deterministic for a given thread count).
template <typename T>
void norm_backward(const T* dy, const T* x, const NormGeom& g, const T* mean, const T* rstd, const T* w, bool train,
                   T* dx, T* dw, T* db);

}  // namespace ct

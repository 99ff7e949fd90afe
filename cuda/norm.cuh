// norm.cuh - the elementwise half of layer_norm / group_norm / batch_norm on CUDA for float16/bfloat16 x
// (ops/nn_norms.cpp, Note [Native half norms]): y = (x - mean[row]) * rstd[row] * w[c] + b[c] over the geometry of
// Note [Norm geometry] (cpu/norm_kernels.h), with mean / rstd the float32 statistics per row. The statistics
// themselves are the native half reductions (cuda/reduce.cuh); the backward is composed of ops.
#pragma once
#include "cuda/half_types.cuh"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

// a * b rounded, never contracted with a following add into an FMA (the fallback runs the product and the sum as
// two float32 kernels, each rounded).
#if defined(__CUDACC__) && !defined(CT_CUDA_EMULATION)
__device__ inline float mul_rn(float a, float b) { return __fmul_rn(a, b); }
#else
inline float mul_rn(float a, float b) { return a * b; }
#endif

// One thread per element of contiguous x [N, C, S]; w / b (NULL: 1 / 0) are indexed by channel. The float ops are
// the fallback's (its float32 kernels sub, mul, mul, add in that order), so y equals it bit for bit.
template <typename S>
__global__ void norm_apply_kernel(int64_t n, ct_cuda_norm g, const S* x, const float* mean, const float* rstd,
                                  const S* w, const S* b, S* y) {
    const int64_t cpg = g.C / g.groups;
    for (int64_t i = first_index(); i < n; i += index_step()) {
        const int64_t c = (i / g.S) % g.C, row = g.per_channel ? c : (i / (g.S * g.C)) * g.groups + c / cpg;
        float t = mul_rn(load(x[i]) - mean[row], rstd[row]);
        if (w) t = mul_rn(t, load(w[c]));
        if (b) t = t + load(b[c]);
        y[i] = store<S>(t);
    }
}

// CT_ERR_DTYPE unless float16/bfloat16; CT_ERR_INVALID_ARGUMENT for a bad geometry or a missing operand.
inline int32_t launch_norm_apply(LaunchConfig c, cudaStream_t s, int32_t dtype, const ct_cuda_norm* g, const void* x,
                                 const float* mean, const float* rstd, const void* w, const void* b, void* y) {
    if (!g || g->N < 0 || g->C < 0 || g->S < 0 || g->groups <= 0 || (g->C % g->groups) != 0)
        return CT_ERR_INVALID_ARGUMENT;
    const int64_t n = g->N * g->C * g->S;  // the op checked numel: no overflow
    if (n > 0 && (!x || !mean || !rstd || !y)) return CT_ERR_INVALID_ARGUMENT;
    auto run = [&](auto tag) {
        using S = typename decltype(tag)::type;
        if (n == 0) return;
        auto* k = &norm_apply_kernel<S>;
        CT_LAUNCH(k, blocks_for(n, c), c.threads, s, n, *g, static_cast<const S*>(x), mean, rstd,
                  static_cast<const S*>(w), static_cast<const S*>(b), static_cast<S*>(y));
    };
    if (dtype == CT_FLOAT16) run(TypeTag<half_t>{});
    else if (dtype == CT_BFLOAT16) run(TypeTag<bfloat16_t>{});
    else return CT_ERR_DTYPE;
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

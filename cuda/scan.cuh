// scan.cuh - logcumsumexp (issue 14): one thread per (outer, inner) column of contiguous data viewed as
// [outer, n, inner], serial along n with math::LogAddExp (the CPU scan's functor), float32 accumulating in double.
#pragma once
#include <cstdint>
#include "ctensor.h"
#include "cuda/launch.cuh"

namespace ct {
namespace cuda {

template <typename T> __global__ void logcumsumexp_kernel(T* data, int64_t outer, int64_t n, int64_t inner) {
    for (int64_t col = first_index(); col < outer * inner; col += index_step()) {
        int64_t o = col / inner, j = col - o * inner;
        T* base = data + o * n * inner + j;
        double acc = -INFINITY;
        for (int64_t k = 0; k < n; ++k) {
            acc = math::LogAddExp{}(acc, (double)base[k * inner]);
            base[k * inner] = (T)acc;
        }
    }
}

inline int32_t launch_logcumsumexp(LaunchConfig c, cudaStream_t s, void* data, int32_t dtype, int64_t outer,
                                   int64_t n, int64_t inner) {
    if (outer < 0 || n < 0 || inner < 0) return CT_ERR_INVALID_ARGUMENT;
    int64_t cols = outer * inner;
    if (cols == 0 || n == 0) return CT_OK;
    if (dtype == CT_FLOAT32) {
        auto* k = &logcumsumexp_kernel<float>;
        CT_LAUNCH(k, blocks_for(cols, c), c.threads, s, static_cast<float*>(data), outer, n, inner);
    } else if (dtype == CT_FLOAT64) {
        auto* k = &logcumsumexp_kernel<double>;
        CT_LAUNCH(k, blocks_for(cols, c), c.threads, s, static_cast<double*>(data), outer, n, inner);
    } else {
        return CT_ERR_DTYPE;
    }
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

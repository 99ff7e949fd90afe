// launch.cuh - what every kernel of the backend shares: CT_LAUNCH (native <<<>>> under nvcc, a host loop
// under cuda/emulation.h), launch configuration, the grid-stride index and strided operand offsets.
// CT_LAUNCH's first argument is a kernel pointer variable (`auto* k = &kernel<T>;`): template commas would
// split the macro's arguments.
#pragma once
#if defined(__CUDACC__) && !defined(CT_CUDA_EMULATION)
#include <cuda_runtime.h>
#define CT_LAUNCH(kernel, grid, block, stream, ...) kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__)
#define CT_EMULATION_NO_SLP
#else
#include "cuda/emulation.h"
#endif
#include <algorithm>
#include <cstdint>
#include "core/backend.h"
#include "core/scalar_math.h"

namespace ct {
namespace cuda {

// Threads per block and the cap on blocks; kernels are grid-stride loops, so any grid covers any size.
struct LaunchConfig {
    unsigned max_blocks;
    unsigned threads;
};

inline unsigned blocks_for(int64_t n, LaunchConfig c) {
    int64_t blocks = (n + c.threads - 1) / c.threads;
    return (unsigned)std::min<int64_t>(std::max<int64_t>(blocks, 1), c.max_blocks);
}

// Elements described by a layout (ndim 0: one element); ct_cuda_layout or ct_cuda_layout4.
template <typename Layout> inline int64_t layout_numel(const Layout& L) {
    int64_t n = 1;
    for (int32_t d = 0; d < L.ndim; ++d) n *= L.sizes[d];
    return n;
}

// The grid-stride loop: this thread's first index and the step.
__device__ inline int64_t first_index() { return (int64_t)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ inline int64_t index_step() { return (int64_t)gridDim.x * blockDim.x; }

// i / size for an index i >= 0 and a size > 0: in 32 bits when both fit (a 64-bit division is several times the
// instructions of a 32-bit one on the GPU, and multi-dim layouts divide once per dim per element).
__device__ inline int64_t divide_index(int64_t i, int64_t size) {
    if ((((uint64_t)i | (uint64_t)size) >> 32) == 0) return (int64_t)((uint32_t)i / (uint32_t)size);
    return i / size;
}

// Element offsets of the first N operands of L for the row-major linear index i.
template <int N> struct Offsets {
    int64_t at[N];
};
template <int N, typename Layout> __device__ inline Offsets<N> offsets_of(const Layout& L, int64_t i) {
    Offsets<N> o;
    for (int k = 0; k < N; ++k) o.at[k] = 0;
    if (L.ndim == 1) {  // the common coalesced case (contiguous, or a scalar broadcast with stride 0)
        for (int k = 0; k < N; ++k) o.at[k] = i * L.strides[k][0];
        return o;
    }
    for (int d = L.ndim - 1; d >= 0; --d) {
        int64_t q = divide_index(i, L.sizes[d]);
        int64_t r = i - q * L.sizes[d];
        i = q;
        for (int k = 0; k < N; ++k) o.at[k] += r * L.strides[k][d];
    }
    return o;
}

}  // namespace cuda
}  // namespace ct

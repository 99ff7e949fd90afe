// index.cuh - indexing kernels of the nn family (cuda-nn): gather / scatter / scatter_add along one dim over a
// strided 3-operand layout, and masked_fill. scatter_add accumulates with atomics under nvcc (a CAS loop on the
// enclosing word for 1- and 2-byte types); under cuda/emulation.h threads run one at a time, so a plain add is exact.
#pragma once
#include <cstring>
#include <type_traits>
#include "core/dtype.h"
#include "cuda/half_types.cuh"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

#if defined(__CUDACC__) && !defined(CT_CUDA_EMULATION)
template <typename T> __device__ inline void atomic_add(T* p, T v) {
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value || std::is_same<T, int32_t>::value) {
        atomicAdd(p, v);
    } else if constexpr (std::is_same<T, int64_t>::value) {  // two's complement: unsigned add wraps the same way
        atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
    } else {  // 1- and 2-byte types (uint8, int8, bool, int16, the half types: sum in float, rounded): compare-and-swap
              // the aligned 32-bit word holding them
        static_assert(sizeof(T) == 1 || sizeof(T) == 2, "atomic_add: unexpected type");
        using Bits = std::conditional_t<sizeof(T) == 1, unsigned char, unsigned short>;
        const unsigned int mask = sizeof(T) == 1 ? 0xffu : 0xffffu;
        unsigned int* word = reinterpret_cast<unsigned int*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t(3));
        const unsigned shift = (unsigned)(reinterpret_cast<uintptr_t>(p) & 3) * 8;
        unsigned int old = *word, assumed;
        do {
            assumed = old;
            Bits bits = (Bits)((assumed >> shift) & mask);
            T cur;
            memcpy(&cur, &bits, sizeof(T));
            const T next = store<T>((compute_t<T>)(load(cur) + load(v)));
            memcpy(&bits, &next, sizeof(T));
            old = atomicCAS(word, assumed, (assumed & ~(mask << shift)) | ((unsigned int)bits << shift));
        } while (assumed != old);
    }
}
#else
template <typename T> inline void atomic_add(T* p, T v) { *p = store<T>((compute_t<T>)(load(*p) + load(v))); }
#endif

// op: CT_CUDA_GATHER a[o0] = b[o2 + idx[o1] * step]; CT_CUDA_SCATTER a[o0 + idx[o1] * step] = b[o2];
// CT_CUDA_SCATTER_ADD a[o0 + idx[o1] * step] += b[o2]. Indices were bounds-checked by the caller.
template <typename T, typename I, int Op>
__global__ void index_kernel(ct_cuda_layout L, int64_t n, T* a, const I* idx, const T* b, int64_t step) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        Offsets<3> o = offsets_of<3>(L, i);
        const int64_t v = (int64_t)idx[o.at[1]] * step;
        if (Op == CT_CUDA_GATHER) a[o.at[0]] = b[o.at[2] + v];
        else if (Op == CT_CUDA_SCATTER) a[o.at[0] + v] = b[o.at[2]];
        else atomic_add(&a[o.at[0] + v], b[o.at[2]]);
    }
}

template <typename T> __global__ void masked_fill_kernel(ct_cuda_layout L, int64_t n, T* out, const T* x, const bool* m, T value) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        Offsets<3> o = offsets_of<3>(L, i);
        out[o.at[0]] = m[o.at[2]] ? value : x[o.at[1]];
    }
}

inline int32_t launch_index(LaunchConfig c, cudaStream_t s, int32_t op, const ct_cuda_layout& L, void* a,
                            const void* idx, int32_t index_dtype, const void* b, int32_t dtype, int64_t step) {
    if (L.nargs != 3 || L.ndim < 0 || L.ndim > CT_CUDA_MAX_DIMS || op < 0 || op >= CT_CUDA_NUM_INDEX_OPS)
        return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dtype) || (index_dtype != CT_INT64 && index_dtype != CT_INT32)) return CT_ERR_DTYPE;
    const int64_t n = layout_numel(L);
    if (n == 0) return CT_OK;
    dispatch_kernel((DType)dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto run = [&](auto itag) {
            using I = decltype(itag);
            auto* k = op == CT_CUDA_GATHER ? &index_kernel<T, I, CT_CUDA_GATHER>
                      : op == CT_CUDA_SCATTER ? &index_kernel<T, I, CT_CUDA_SCATTER>
                                              : &index_kernel<T, I, CT_CUDA_SCATTER_ADD>;
            CT_LAUNCH(k, blocks_for(n, c), c.threads, s, L, n, static_cast<T*>(a), static_cast<const I*>(idx),
                      static_cast<const T*>(b), step);
        };
        if (index_dtype == CT_INT64) run(int64_t());
        else run(int32_t());
    });
    return CT_OK;
}

inline int32_t launch_masked_fill(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, void* out, const void* x,
                                  const void* mask, int32_t dtype, double value) {
    if (L.nargs != 3 || L.ndim < 0 || L.ndim > CT_CUDA_MAX_DIMS) return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dtype)) return CT_ERR_DTYPE;
    const int64_t n = layout_numel(L);
    if (n == 0) return CT_OK;
    dispatch_kernel((DType)dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto* k = &masked_fill_kernel<T>;
        const T v = store<T>(std::is_same<T, bool>::value ? (compute_t<T>)(value != 0.0) : (compute_t<T>)value);
        CT_LAUNCH(k, blocks_for(n, c), c.threads, s, L, n, static_cast<T*>(out), static_cast<const T*>(x),
                  static_cast<const bool*>(mask), v);
    });
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

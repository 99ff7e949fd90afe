// half_types.cuh - the float16 / bfloat16 storage types of the CUDA kernels on both compilers, and the one way
// kernels read and write elements: load() gives the compute value, store<S>() rounds it back.
// Note [CUDA half kernels]: under nvcc the storage types are __half / __nv_bfloat16 (cuda_fp16.h, cuda_bf16.h);
// under cuda/emulation.h they are the core's Half / BFloat16 (core/half.h), so the emulated backend runs the same
// kernels bit for bit on the host. Both are 2-byte bit patterns of the same formats. Kernels never compute in a
// storage type: compute_t<S> is float for the half types (the element type itself otherwise), values are loaded
// as float, computed in float (reductions accumulate in float or wider) and rounded on store to nearest, ties to
// even (__float2half_rn / __float2bfloat16_rn; core/half.h Note [Half conversions] on the host).
#pragma once
#if defined(__CUDACC__) && !defined(CT_CUDA_EMULATION)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#else
#include "cuda/emulation.h"
#endif
#include <type_traits>
#include "core/dtype.h"
#include "core/half.h"

namespace ct {
namespace cuda {

#if defined(__CUDACC__) && !defined(CT_CUDA_EMULATION)
using half_t = __half;
using bfloat16_t = __nv_bfloat16;
__device__ __host__ inline float half_to_float(half_t h) { return __half2float(h); }
__device__ __host__ inline float half_to_float(bfloat16_t h) { return __bfloat162float(h); }
template <typename S> __device__ __host__ inline S float_to_half(float f);
template <> __device__ __host__ inline half_t float_to_half<half_t>(float f) { return __float2half_rn(f); }
template <> __device__ __host__ inline bfloat16_t float_to_half<bfloat16_t>(float f) { return __float2bfloat16_rn(f); }
#else
using half_t = ::ct::Half;
using bfloat16_t = ::ct::BFloat16;
inline float half_to_float(half_t h) { return (float)h; }
inline float half_to_float(bfloat16_t h) { return (float)h; }
template <typename S> inline S float_to_half(float f) { return S(f); }
#endif

static_assert(sizeof(half_t) == 2 && sizeof(bfloat16_t) == 2, "16-bit storage types");

template <typename S> struct IsKernelHalf {
    static constexpr bool value = std::is_same<S, half_t>::value || std::is_same<S, bfloat16_t>::value;
};

// The type a kernel computes in for storage type S.
template <typename S> using compute_t = std::conditional_t<IsKernelHalf<S>::value, float, S>;

// An element as its compute value (exact).
template <typename S> __device__ __host__ inline compute_t<S> load(S s) {
    if constexpr (IsKernelHalf<S>::value) return half_to_float(s);
    else return s;
}
// A compute value stored as S (half types: rounded to nearest even).
template <typename S> __device__ __host__ inline S store(compute_t<S> c) {
    if constexpr (IsKernelHalf<S>::value) return float_to_half<S>(c);
    else return c;
}

// Like core's dispatch_all, plus float16 / bfloat16 as the kernels' storage types (half_t / bfloat16_t):
// fn(TypeTag<S>) for every dtype the CUDA kernels take. Complex fails as in dispatch_all.
template <typename Fn> decltype(auto) dispatch_kernel(DType d, Fn&& fn) {
    if (d == DType::Float16) return fn(TypeTag<half_t>{});
    if (d == DType::BFloat16) return fn(TypeTag<bfloat16_t>{});
    return dispatch_all(d, fn);
}

// The backend table's dtype_supported (real and emulated backends): every real dtype, half included; complex no.
inline int32_t kernel_dtype_supported(int32_t d) { return dtype_valid(d) && !is_complex((DType)d) ? 1 : 0; }

}  // namespace cuda
}  // namespace ct

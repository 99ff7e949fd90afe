// elementwise.cuh - strided copy (with dtype conversion), fill and binary elementwise kernels, plus their
// host-side dispatch over dtypes and op codes. Grid-stride loops only, so cuda/emulation.h can run them on
// the CPU (tests/test_cuda_kernels.cpp); the scalar math is core/scalar_math.h, shared with the CPU kernels.
// float16 / bfloat16 operands are loaded as float and rounded on store (Note [CUDA half kernels]).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include "core/dtype.h"
#include "core/scalar_math.h"
#include "cuda/half_types.cuh"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

template <typename R, typename T>
__global__ void copy_kernel(ct_cuda_layout L, int64_t n, R* __restrict__ dst, const T* __restrict__ src) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        Offsets<2> o = offsets_of<2>(L, i);
        dst[o.at[0]] = store<R>(math::convert<compute_t<R>>(load(src[o.at[1]])));  // Note [Float to integer]
    }
}

template <typename R> __global__ void fill_kernel(ct_cuda_layout L, int64_t n, R* dst, R value) {
    for (int64_t i = first_index(); i < n; i += index_step()) dst[offsets_of<1>(L, i).at[0]] = value;
}

template <typename R, typename T, typename F>
__global__ void binary_kernel(ct_cuda_layout L, int64_t n, R* out, const T* a, const T* b, F f) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        Offsets<3> o = offsets_of<3>(L, i);
        out[o.at[0]] = store<R>(f(load(a[o.at[1]]), load(b[o.at[2]])));
    }
}

// Note [Vectorized contiguous kernels]. When every operand of an elementwise op is one contiguous run (a 1-d layout
// of unit strides) and 16-byte aligned, a thread moves kVecBytes of the widest operand per step: a float16 add
// reads two 16-byte vectors of 8 halves and writes one, instead of 2-byte accesses that leave the memory system
// half used. The elements past the last whole vector are done one at a time. Rows of contiguous runs (a 2-d layout
// whose inner strides are all 1, the inner size and every row stride multiples of V, e.g. a [rows, n] + [n] bias add,
// where the row operand's row stride is 0) take the same vectors, one index division per vector to find the row.
// Anything else takes the strided kernel.
constexpr int kVecBytes = 16;
template <typename T, int V> struct alignas(sizeof(T) * V) VecOf {
    T v[V];
};
template <typename... P> inline bool vec_aligned(P*... p) {
    return ((reinterpret_cast<uintptr_t>(p) % kVecBytes == 0) && ...);
}
inline bool unit_run(const ct_cuda_layout& L) {
    if (L.ndim != 1) return false;
    for (int32_t k = 0; k < L.nargs; ++k)
        if (L.strides[k][0] != 1) return false;
    return true;
}

// out[i] = f(in[i]...) over one contiguous run, V elements per vector (V = kVecBytes / the widest element); f maps
// storage elements to an R (StoreOf, ConvertTo).
template <int V, typename R, typename F, typename... T>
CT_EMULATION_NO_SLP __device__ inline void map_one_vec(VecOf<R, V>& out, const F& f, const VecOf<T, V>&... in) {
#pragma unroll
    for (int k = 0; k < V; ++k) out.v[k] = f(in.v[k]...);
}
template <int V, typename R, typename F, typename... T>
CT_EMULATION_NO_SLP __global__ void map_vec_kernel(int64_t n, R* out, F f, const T*... in) {
    const int64_t nv = n / V;
    for (int64_t j = first_index(); j < nv; j += index_step()) {
        VecOf<R, V> vo;
        map_one_vec<V>(vo, f, reinterpret_cast<const VecOf<T, V>*>(in)[j]...);
        reinterpret_cast<VecOf<R, V>*>(out)[j] = vo;
    }
    for (int64_t i = nv * V + first_index(); i < n; i += index_step()) out[i] = f(in[i]...);
}
// The rows form (Note [Vectorized contiguous kernels]): L 2-d, operand k's row r starts at r * L.strides[k][0]
// (operand 0 is out, then in...); every row holds L.sizes[1] elements, a multiple of V, as is every row stride.
template <int V, typename R, typename F, typename... T, size_t... K>
CT_EMULATION_NO_SLP __device__ inline void map_row_vec(const ct_cuda_layout& L, int64_t r, int64_t col, R* out,
                                                       const F& f, std::index_sequence<K...>, const T*... in) {
    VecOf<R, V> vo;
    map_one_vec<V>(vo, f, *reinterpret_cast<const VecOf<T, V>*>(in + r * L.strides[K + 1][0] + col)...);
    *reinterpret_cast<VecOf<R, V>*>(out + r * L.strides[0][0] + col) = vo;
}
template <int V, typename R, typename F, typename... T>
CT_EMULATION_NO_SLP __global__ void map_vec_rows_kernel(ct_cuda_layout L, R* out, F f, const T*... in) {
    const int64_t per_row = L.sizes[1] / V, nv = L.sizes[0] * per_row;
    for (int64_t j = first_index(); j < nv; j += index_step()) {
        const int64_t r = divide_index(j, per_row);
        map_row_vec<V>(L, r, (j - r * per_row) * V, out, f, std::index_sequence_for<T...>{}, in...);
    }
}
// Whether L is rows of contiguous runs that V-element vectors tile exactly (map_vec_rows_kernel's precondition).
inline bool vec_rows(const ct_cuda_layout& L, int V) {
    if (L.ndim != 2 || L.sizes[1] % V != 0) return false;
    for (int32_t k = 0; k < L.nargs; ++k)
        if (L.strides[k][1] != 1 || L.strides[k][0] % V != 0) return false;
    return true;
}

// A compute-type functor applied to storage elements, its result stored as R (half types rounded once).
template <typename R, typename F> struct StoreOf {
    F f;
    template <typename... S> __device__ R operator()(S... s) const { return store<R>(f(load(s)...)); }
};
// A storage element converted to R (the copy kernel's conversion).
template <typename R> struct ConvertTo {
    template <typename S> __device__ R operator()(S s) const {
        return store<R>(math::convert<compute_t<R>>(load(s)));  // Note [Float to integer]
    }
};
// Launches map_vec_kernel when L is one contiguous run, or map_vec_rows_kernel when it is rows of them, and every
// pointer is kVecBytes-aligned; false otherwise (the caller then launches its strided kernel).
template <typename R, typename F, typename... T>
bool launch_map_vec(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, int64_t n, R* out, F f,
                    const T*... in) {
    constexpr int V = kVecBytes / (int)std::max({sizeof(R), sizeof(T)...});
    if (!vec_aligned(out, in...)) return false;
    if (unit_run(L)) {
        auto* vec = &map_vec_kernel<V, R, F, T...>;  // Note [Vectorized contiguous kernels]
        CT_LAUNCH(vec, blocks_for((n + V - 1) / V, c), c.threads, s, n, out, f, in...);
        return true;
    }
    if (!vec_rows(L, V)) return false;
    auto* rows = &map_vec_rows_kernel<V, R, F, T...>;
    CT_LAUNCH(rows, blocks_for(n / V, c), c.threads, s, L, out, f, in...);
    return true;
}

// Converts the fill value like the CPU does (Note [Float to integer]).
template <typename R> inline R fill_value(double v) { return store<R>(math::convert<compute_t<R>>(v)); }

inline bool layout_ok(const ct_cuda_layout& L, int32_t nargs) {
    return L.nargs == nargs && L.ndim >= 0 && L.ndim <= CT_CUDA_MAX_DIMS;
}

// The launchers return a ct_status: CT_ERR_INVALID_ARGUMENT/CT_ERR_DTYPE for a bad request (nothing launched).
inline int32_t launch_copy(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, void* dst, int32_t dst_dtype,
                           const void* src, int32_t src_dtype) {
    if (!layout_ok(L, 2)) return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dst_dtype) || !dtype_valid(src_dtype)) return CT_ERR_DTYPE;
    int64_t n = layout_numel(L);
    if (n == 0) return CT_OK;
    dispatch_kernel((DType)dst_dtype, [&](auto rt) {
        using R = typename decltype(rt)::type;
        dispatch_kernel((DType)src_dtype, [&](auto st) {
            using T = typename decltype(st)::type;
            if (launch_map_vec(c, s, L, n, static_cast<R*>(dst), ConvertTo<R>{}, static_cast<const T*>(src))) return;
            auto* kernel = &copy_kernel<R, T>;
            CT_LAUNCH(kernel, blocks_for(n, c), c.threads, s, L, n, static_cast<R*>(dst), static_cast<const T*>(src));
        });
    });
    return CT_OK;
}

inline int32_t launch_fill(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, void* dst, int32_t dtype,
                           double value) {
    if (!layout_ok(L, 1)) return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dtype)) return CT_ERR_DTYPE;
    int64_t n = layout_numel(L);
    if (n == 0) return CT_OK;
    dispatch_kernel((DType)dtype, [&](auto rt) {
        using R = typename decltype(rt)::type;
        auto* kernel = &fill_kernel<R>;
        CT_LAUNCH(kernel, blocks_for(n, c), c.threads, s, L, n, static_cast<R*>(dst), fill_value<R>(value));
    });
    return CT_OK;
}

// The storage type of a kernel result: T when the functor returns T's compute type, else its own (bool).
template <typename T, typename Rc> using result_storage_t = std::conditional_t<std::is_same<Rc, compute_t<T>>::value, T, Rc>;

// Runs binary_kernel for functor f (over T's compute type): R is the storage type of its result.
template <typename T, typename F>
void launch_binary_functor(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, int64_t n, void* out,
                           const void* a, const void* b, F f) {
    using C = compute_t<T>;
    using R = result_storage_t<T, decltype(f(C(), C()))>;
    if (launch_map_vec(c, s, L, n, static_cast<R*>(out), StoreOf<R, F>{f}, static_cast<const T*>(a),
                       static_cast<const T*>(b)))
        return;
    auto* kernel = &binary_kernel<R, T, F>;
    CT_LAUNCH(kernel, blocks_for(n, c), c.threads, s, L, n, static_cast<R*>(out), static_cast<const T*>(a),
              static_cast<const T*>(b), f);
}

// out = op(a, b); a, b of dtype; out of dtype (arithmetic) or bool (comparisons, logical).
// Division, atan2 and the other float_only codes are defined for floating dtypes only (the core computes them in a
// floating dtype); the int_only codes for integer dtypes (and bool for and/or/xor).
inline int32_t launch_binary(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, int32_t op, void* out,
                             const void* a, const void* b, int32_t dtype, double alpha) {
    if (!layout_ok(L, 3) || op < 0 || op >= CT_CUDA_NUM_BINARY_OPS_V2) return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dtype)) return CT_ERR_DTYPE;
    const bool float_only =
        op == CT_CUDA_DIV || op == CT_CUDA_ATAN2 || (op >= CT_CUDA_LOGADDEXP && op <= CT_CUDA_NEXTAFTER);
    if (float_only && !is_floating((DType)dtype)) return CT_ERR_DTYPE;
    const bool int_only = op >= CT_CUDA_BITWISE_AND && op <= CT_CUDA_LCM;
    if (int_only && (is_floating((DType)dtype) || ((DType)dtype == DType::Bool && op > CT_CUDA_BITWISE_XOR)))
        return CT_ERR_DTYPE;
    int64_t n = layout_numel(L);
    if (n == 0) return CT_OK;
    dispatch_kernel((DType)dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = compute_t<T>;  // the functors compute in C (float for the half types)
        auto run = [&](auto f) { launch_binary_functor<T>(c, s, L, n, out, a, b, f); };
        switch (op) {
        case CT_CUDA_ADD: run(math::Add<C>{(C)alpha}); break;
        case CT_CUDA_SUB: run(math::Sub<C>{(C)alpha}); break;
        case CT_CUDA_MUL: run(math::Mul{}); break;
        case CT_CUDA_DIV: if constexpr (std::is_floating_point<C>::value) run(math::Div{}); break;
        case CT_CUDA_MAXIMUM: run(math::Maximum{}); break;
        case CT_CUDA_MINIMUM: run(math::Minimum{}); break;
        case CT_CUDA_EQ: run(math::Eq{}); break;
        case CT_CUDA_NE: run(math::Ne{}); break;
        case CT_CUDA_LT: run(math::Lt{}); break;
        case CT_CUDA_LE: run(math::Le{}); break;
        case CT_CUDA_GT: run(math::Gt{}); break;
        case CT_CUDA_GE: run(math::Ge{}); break;
        case CT_CUDA_LOGICAL_AND: run(math::LogicalAnd{}); break;
        case CT_CUDA_LOGICAL_OR: run(math::LogicalOr{}); break;
        case CT_CUDA_LOGICAL_XOR: run(math::LogicalXor{}); break;
        case CT_CUDA_POW: run(math::Pow{}); break;
        case CT_CUDA_ATAN2: if constexpr (std::is_floating_point<C>::value) run(math::Atan2{}); break;
        case CT_CUDA_REMAINDER: run(math::Remainder{}); break;
        case CT_CUDA_FLOOR_DIVIDE: run(math::FloorDivide{}); break;
        case CT_CUDA_FMAX: run(math::Fmax{}); break;
        case CT_CUDA_FMIN: run(math::Fmin{}); break;
        case CT_CUDA_HEAVISIDE: run(math::Heaviside{}); break;
        case CT_CUDA_BITWISE_AND: run(math::BitwiseAnd{}); break;
        case CT_CUDA_BITWISE_OR: run(math::BitwiseOr{}); break;
        case CT_CUDA_BITWISE_XOR: run(math::BitwiseXor{}); break;
        case CT_CUDA_LEFT_SHIFT: run(math::LeftShift{}); break;
        case CT_CUDA_RIGHT_SHIFT: run(math::RightShift{}); break;
        case CT_CUDA_GCD: run(math::Gcd{}); break;
        case CT_CUDA_LCM: run(math::Lcm{}); break;
        case CT_CUDA_LOGADDEXP: run(math::LogAddExp{}); break;  // LOGADDEXP .. NEXTAFTER: floating (checked above)
        case CT_CUDA_LOGADDEXP2: run(math::LogAddExp2{}); break;
        case CT_CUDA_HYPOT: run(math::Hypot{}); break;
        case CT_CUDA_XLOGY: run(math::Xlogy{}); break;
        case CT_CUDA_COPYSIGN: run(math::CopySign{}); break;
        case CT_CUDA_NEXTAFTER: run(math::NextAfter{}); break;
        }
    });
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

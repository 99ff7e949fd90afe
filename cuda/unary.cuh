// unary.cuh - unary elementwise kernels (one op-code table over the scalar_math.h functors) and the
// 4-operand where kernel, with their host-side dtype/op dispatch. Grid-stride loops only, so cuda/emulation.h
// runs them on the CPU (tests/emulated_cuda_backend.cpp, tests/test_cuda_kernels_ops.cpp). Half operands compute in
// float (Note [CUDA half kernels]).
#pragma once
#include <type_traits>
#include "core/dtype.h"
#include "ctensor.h"
#include "cuda/elementwise.cuh"
#include "cuda/launch.cuh"

namespace ct {
namespace cuda {

template <typename R, typename T, typename F>
__global__ void unary_kernel(ct_cuda_layout L, int64_t n, R* out, const T* x, F f) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        Offsets<2> o = offsets_of<2>(L, i);
        out[o.at[0]] = store<R>(f(load(x[o.at[1]])));
    }
}

template <typename T>
__global__ void where_kernel(ct_cuda_layout4 L, int64_t n, T* out, const bool* cond, const T* a, const T* b) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        Offsets<4> o = offsets_of<4>(L, i);
        out[o.at[0]] = cond[o.at[1]] ? a[o.at[2]] : b[o.at[3]];
    }
}

// Runs unary_kernel for functor f (over T's compute type): R is the storage type of its result.
template <typename T, typename F>
void launch_unary_functor(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, int64_t n, void* out,
                          const void* x, F f) {
    using R = result_storage_t<T, decltype(f(compute_t<T>()))>;
    if (launch_map_vec(c, s, L, n, static_cast<R*>(out), StoreOf<R, F>{f}, static_cast<const T*>(x))) return;
    auto* kernel = &unary_kernel<R, T, F>;
    CT_LAUNCH(kernel, blocks_for(n, c), c.threads, s, L, n, static_cast<R*>(out), static_cast<const T*>(x), f);
}

// Clamp bounds in T: floats converted, integers saturated to T's range (as the CPU op does).
template <typename T> math::Clamp<T> clamp_functor(double lo, double hi) {
    if constexpr (std::is_floating_point<T>::value) return math::Clamp<T>{(T)lo, (T)hi};
    else if constexpr (std::is_same<T, bool>::value) return math::Clamp<T>{lo != 0, hi != 0};
    else return math::Clamp<T>{math::convert<T>(lo), math::convert<T>(hi)};
}

// Ops that keep any dtype; the others need float32/float64.
inline bool unary_any_dtype(int32_t op) {
    return op == CT_CUDA_NEG || op == CT_CUDA_ABS || op == CT_CUDA_SIGN || op == CT_CUDA_RELU ||
           op == CT_CUDA_CLAMP || op == CT_CUDA_LOGICAL_NOT;
}

// The float-only functors (float32/float64 T).
template <typename T, typename Run> void run_float_unary(int32_t op, double p0, Run&& run) {
    switch (op) {
    case CT_CUDA_EXP: run(math::Exp{}); break;
    case CT_CUDA_LOG: run(math::Log{}); break;
    case CT_CUDA_LOG1P: run(math::Log1p{}); break;
    case CT_CUDA_EXPM1: run(math::Expm1{}); break;
    case CT_CUDA_SQRT: run(math::Sqrt{}); break;
    case CT_CUDA_RSQRT: run(math::Rsqrt{}); break;
    case CT_CUDA_SIN: run(math::Sin{}); break;
    case CT_CUDA_COS: run(math::Cos{}); break;
    case CT_CUDA_TAN: run(math::Tan{}); break;
    case CT_CUDA_TANH: run(math::Tanh{}); break;
    case CT_CUDA_SIGMOID: run(math::Sigmoid{}); break;
    case CT_CUDA_GELU: run(math::Gelu{}); break;
    case CT_CUDA_GELU_GRAD: run(math::GeluGrad{}); break;
    case CT_CUDA_SILU: run(math::Silu{}); break;
    case CT_CUDA_SOFTPLUS: run(math::Softplus{}); break;
    case CT_CUDA_FLOOR: run(math::Floor{}); break;
    case CT_CUDA_CEIL: run(math::Ceil{}); break;
    case CT_CUDA_ROUND: run(math::Round{}); break;
    case CT_CUDA_RECIPROCAL: run(math::Reciprocal{}); break;
    case CT_CUDA_POW_SCALAR: run(math::PowScalar<T>{(T)p0}); break;
    // unary math (issue 14)
    case CT_CUDA_ASIN: run(math::Asin{}); break;
    case CT_CUDA_ACOS: run(math::Acos{}); break;
    case CT_CUDA_ATAN: run(math::Atan{}); break;
    case CT_CUDA_SINH: run(math::Sinh{}); break;
    case CT_CUDA_COSH: run(math::Cosh{}); break;
    case CT_CUDA_ASINH: run(math::Asinh{}); break;
    case CT_CUDA_ACOSH: run(math::Acosh{}); break;
    case CT_CUDA_ATANH: run(math::Atanh{}); break;
    case CT_CUDA_ERF: run(math::Erf{}); break;
    case CT_CUDA_ERFC: run(math::Erfc{}); break;
    case CT_CUDA_ERFINV: run(math::Erfinv{}); break;
    case CT_CUDA_LGAMMA: run(math::Lgamma{}); break;
    case CT_CUDA_POLYGAMMA: run(math::Polygamma{(int)p0}); break;
    case CT_CUDA_LOGIT: run(math::Logit<T>{(T)p0}); break;
    case CT_CUDA_SINC: run(math::Sinc{}); break;
    case CT_CUDA_SIGNBIT: run(math::Signbit{}); break;
    case CT_CUDA_I0: run(math::I0{}); break;
    case CT_CUDA_I1: run(math::I1{}); break;
    default: break;
    }
}

// out = op(x); x of dtype; out of dtype (bool for LOGICAL_NOT). Returns a ct_status (nothing launched on error).
inline int32_t launch_unary(LaunchConfig c, cudaStream_t s, const ct_cuda_layout& L, int32_t op, void* out,
                            const void* x, int32_t dtype, double p0, double p1) {
    if (!layout_ok(L, 2) || op < 0 || op >= CT_CUDA_NUM_UNARY_OPS) return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dtype)) return CT_ERR_DTYPE;
    if (!unary_any_dtype(op) && !is_floating((DType)dtype)) return CT_ERR_DTYPE;
    if (op == CT_CUDA_POLYGAMMA && !(p0 >= 0 && p0 <= 1000 && p0 == (double)(int)p0)) return CT_ERR_INVALID_ARGUMENT;
    int64_t n = layout_numel(L);
    if (n == 0) return CT_OK;
    dispatch_kernel((DType)dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = compute_t<T>;  // the functors compute in C (float for the half types)
        auto run = [&](auto f) { launch_unary_functor<T>(c, s, L, n, out, x, f); };
        switch (op) {
        case CT_CUDA_NEG: run(math::Neg{}); break;
        case CT_CUDA_ABS: run(math::Abs{}); break;
        case CT_CUDA_SIGN: run(math::Sign{}); break;
        case CT_CUDA_RELU: run(math::Relu{}); break;
        case CT_CUDA_CLAMP: run(clamp_functor<C>(p0, p1)); break;
        case CT_CUDA_LOGICAL_NOT: run(math::LogicalNot{}); break;
        default:
            if constexpr (std::is_floating_point<C>::value) run_float_unary<C>(op, p0, run);
        }
    });
    return CT_OK;
}

// out = cond ? a : b over a 4-operand layout; a, b, out of dtype.
inline int32_t launch_where(LaunchConfig c, cudaStream_t s, const ct_cuda_layout4& L, void* out, const void* cond,
                            const void* a, const void* b, int32_t dtype) {
    if (L.nargs != 4 || L.ndim < 0 || L.ndim > CT_CUDA_MAX_DIMS) return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dtype)) return CT_ERR_DTYPE;
    int64_t n = layout_numel(L);
    if (n == 0) return CT_OK;
    dispatch_kernel((DType)dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto* kernel = &where_kernel<T>;
        CT_LAUNCH(kernel, blocks_for(n, c), c.threads, s, L, n, static_cast<T*>(out), static_cast<const bool*>(cond),
                  static_cast<const T*>(a), static_cast<const T*>(b));
    });
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

// dtype.h - element types, their sizes, names, promotion rules and compile-time dispatch.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include "core/error.h"
#include "core/complex_traits.h"
#include "core/half.h"

namespace ct {

enum class DType : int32_t {
    Float32 = 0, Float64 = 1, Int32 = 2, Int64 = 3, UInt8 = 4, Bool = 5,
    Float16 = 6, BFloat16 = 7, Int8 = 8, Int16 = 9, Complex64 = 10, Complex128 = 11
};
constexpr int kNumDTypes = 12;

inline bool dtype_valid(int32_t d) { return d >= 0 && d < kNumDTypes; }
// The 16-bit floating dtypes: stored as Half / BFloat16, computed in float32 (Note [Half compute]).
inline bool is_half(DType d) { return d == DType::Float16 || d == DType::BFloat16; }
inline bool is_floating(DType d) { return d == DType::Float32 || d == DType::Float64 || is_half(d); }
inline bool is_integral(DType d) {
    return d == DType::Int32 || d == DType::Int64 || d == DType::UInt8 || d == DType::Int8 || d == DType::Int16;
}
// Note [Complex dtypes]: complex64 / complex128 are interleaved (real, imag) pairs of float32 / float64 (C99,
// NumPy, DLPack kDLComplex), stored as std::complex<float> / std::complex<double>. Only the ops that have a
// complex kernel accept them (dispatch_complex); dispatch_all, dispatch_float and Tensor::data<T>() with a real T
// refuse a complex tensor naming op and dtype, and an op never drops an imaginary part on its own (cast_nograd
// refuses complex -> real; only the explicit casts to / real do, as torch). Complex tensors are CPU only.
inline bool is_complex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
// The real dtype of a complex one's parts (float32 / float64); d itself for a real dtype.
inline DType real_dtype(DType d) {
    return d == DType::Complex64 ? DType::Float32 : d == DType::Complex128 ? DType::Float64 : d;
}
// The complex dtype with parts of d's precision: complex128 for float64 (and complex128), complex64 otherwise.
inline DType complex_dtype_of(DType d) {
    return d == DType::Float64 || d == DType::Complex128 ? DType::Complex128 : DType::Complex64;
}
// The dtype a kernel computes in for d: float32 for the half dtypes, d itself otherwise.
inline DType compute_dtype(DType d) { return is_half(d) ? DType::Float32 : d; }
size_t dtype_size(DType d);
const char* dtype_name(DType d);

// Category used by type promotion: bool < integer < floating < complex.
inline int dtype_category(DType d) {
    return d == DType::Bool ? 0 : is_complex(d) ? 3 : (is_floating(d) ? 2 : 1);
}
// PyTorch's promote_types for two tensor dtypes.
DType promote_types(DType a, DType b);

template <typename T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::Float32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::Float64; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };
template <> struct DTypeOf<int8_t> { static constexpr DType value = DType::Int8; };
template <> struct DTypeOf<int16_t> { static constexpr DType value = DType::Int16; };
template <> struct DTypeOf<Half> { static constexpr DType value = DType::Float16; };
template <> struct DTypeOf<BFloat16> { static constexpr DType value = DType::BFloat16; };
template <> struct DTypeOf<std::complex<float>> { static constexpr DType value = DType::Complex64; };
template <> struct DTypeOf<std::complex<double>> { static constexpr DType value = DType::Complex128; };


// A kernel reached with a half dtype that has no float32 path (Note [Half compute]): CT_ERR_NOT_SUPPORTED naming
// the running op and the dtype.
// Header-only, so the CUDA backend (its kernels use their own half types, Note [Half on CUDA]) links without the core.
// Also used for complex dtypes reaching a kernel without a complex path (Note [Complex dtypes]).
[[noreturn]] inline void fail_half_kernel(DType d) {
    fail(CT_ERR_NOT_SUPPORTED, t_current_op ? t_current_op : "ctensor", ": not implemented for dtype ",
         d == DType::Float16 ? "float16" : d == DType::BFloat16 ? "bfloat16" : d == DType::Complex64 ? "complex64"
                                                                                                   : "complex128");
}

template <typename T> struct TypeTag { using type = T; };

// Calls fn(TypeTag<T>{}) with T the C++ type of dtype d, for every dtype a kernel computes in: the half dtypes
// are not among them (they fail with fail_half_kernel; ops convert them to compute_dtype first).
template <typename Fn> decltype(auto) dispatch_all(DType d, Fn&& fn) {
    switch (d) {
    case DType::Float32: return fn(TypeTag<float>{});
    case DType::Float64: return fn(TypeTag<double>{});
    case DType::Int32: return fn(TypeTag<int32_t>{});
    case DType::Int64: return fn(TypeTag<int64_t>{});
    case DType::UInt8: return fn(TypeTag<uint8_t>{});
    case DType::Int8: return fn(TypeTag<int8_t>{});
    case DType::Int16: return fn(TypeTag<int16_t>{});
    case DType::Float16: case DType::BFloat16: case DType::Complex64: case DType::Complex128: fail_half_kernel(d);
    case DType::Bool: default: return fn(TypeTag<bool>{});
    }
}

// Like dispatch_all, plus the storage types Half, BFloat16 and std::complex: for code that moves or converts
// elements (copies, fills, printing, item) rather than computing with them.
template <typename Fn> decltype(auto) dispatch_storage(DType d, Fn&& fn) {
    if (d == DType::Float16) return fn(TypeTag<Half>{});
    if (d == DType::BFloat16) return fn(TypeTag<BFloat16>{});
    if (d == DType::Complex64) return fn(TypeTag<std::complex<float>>{});
    if (d == DType::Complex128) return fn(TypeTag<std::complex<double>>{});
    return dispatch_all(d, fn);
}

// For a complex dtype d (caller has checked is_complex): fn(TypeTag<std::complex<float or double>>).
template <typename Fn> decltype(auto) dispatch_complex(DType d, Fn&& fn) {
    if (d == DType::Complex128) return fn(TypeTag<std::complex<double>>{});
    return fn(TypeTag<std::complex<float>>{});
}

// Like dispatch_all, for floating dtypes only (caller has checked is_floating).
template <typename Fn> decltype(auto) dispatch_float(DType d, Fn&& fn) {
    if (d == DType::Float64) return fn(TypeTag<double>{});
    if (is_half(d) || is_complex(d)) fail_half_kernel(d);
    return fn(TypeTag<float>{});
}

}  // namespace ct

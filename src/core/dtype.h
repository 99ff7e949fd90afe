// dtype.h - element types, their sizes, names, promotion rules and compile-time dispatch.
#pragma once
#include <cstdint>
#include <string>

namespace ct {

enum class DType : int32_t { Float32 = 0, Float64 = 1, Int32 = 2, Int64 = 3, UInt8 = 4, Bool = 5 };
constexpr int kNumDTypes = 6;

inline bool dtype_valid(int32_t d) { return d >= 0 && d < kNumDTypes; }
inline bool is_floating(DType d) { return d == DType::Float32 || d == DType::Float64; }
inline bool is_integral(DType d) { return d == DType::Int32 || d == DType::Int64 || d == DType::UInt8; }
size_t dtype_size(DType d);
const char* dtype_name(DType d);

// Category used by type promotion: bool < integer < floating.
inline int dtype_category(DType d) { return d == DType::Bool ? 0 : (is_floating(d) ? 2 : 1); }
// PyTorch's promote_types for two tensor dtypes.
DType promote_types(DType a, DType b);

template <typename T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::Float32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::Float64; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };

template <typename T> struct TypeTag { using type = T; };

// Calls fn(TypeTag<T>{}) with T the C++ type of dtype d.
template <typename Fn> decltype(auto) dispatch_all(DType d, Fn&& fn) {
    switch (d) {
    case DType::Float32: return fn(TypeTag<float>{});
    case DType::Float64: return fn(TypeTag<double>{});
    case DType::Int32: return fn(TypeTag<int32_t>{});
    case DType::Int64: return fn(TypeTag<int64_t>{});
    case DType::UInt8: return fn(TypeTag<uint8_t>{});
    case DType::Bool: default: return fn(TypeTag<bool>{});
    }
}

// Like dispatch_all, for floating dtypes only (caller has checked is_floating).
template <typename Fn> decltype(auto) dispatch_float(DType d, Fn&& fn) {
    if (d == DType::Float64) return fn(TypeTag<double>{});
    return fn(TypeTag<float>{});
}

}  // namespace ct

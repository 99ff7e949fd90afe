// dtype.cpp - dtype sizes, names and PyTorch-compatible promotion.
#include "core/dtype.h"
#include <algorithm>

namespace ct {

size_t dtype_size(DType d) {
    switch (d) {
    case DType::Float32: case DType::Int32: return 4;
    case DType::Float64: case DType::Int64: case DType::Complex64: return 8;
    case DType::Complex128: return 16;
    case DType::UInt8: case DType::Bool: case DType::Int8: return 1;
    case DType::Float16: case DType::BFloat16: case DType::Int16: return 2;
    }
    return 0;
}

const char* dtype_name(DType d) {
    switch (d) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::UInt8: return "uint8";
    case DType::Bool: return "bool";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Int8: return "int8";
    case DType::Int16: return "int16";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
    }
    return "unknown";
}

namespace {
// Width in bytes of an integer dtype's value range (uint8 counts as 1, as int8).
int int_width(DType d) { return (int)dtype_size(d); }
DType signed_of_width(int w) {
    return w == 1 ? DType::Int8 : w == 2 ? DType::Int16 : w == 4 ? DType::Int32 : DType::Int64;
}
}  // namespace

// As torch.promote_types: bool < integers < floating < complex. Two floats: the wider; float16 with bfloat16 is float32
// (neither holds the other). Two integers: the wider, where uint8 with a signed type needs a signed type wider
// than 8 bits (uint8 + int8 = int16).
DType promote_types(DType a, DType b) {
    if (a == b) return a;
    if (a == DType::Bool) return b;
    if (b == DType::Bool) return a;
    if (is_complex(a) || is_complex(b)) {  // complex with float64 (or complex128) is complex128 (torch 1.13)
        bool wide = a == DType::Complex128 || b == DType::Complex128 || a == DType::Float64 || b == DType::Float64;
        return wide ? DType::Complex128 : DType::Complex64;
    }
    if (is_floating(a) || is_floating(b)) {
        if (!is_floating(a)) return b;
        if (!is_floating(b)) return a;
        if (a == DType::Float64 || b == DType::Float64) return DType::Float64;
        return DType::Float32;  // float32 with anything smaller, or float16 with bfloat16
    }
    if (a == DType::UInt8 || b == DType::UInt8) {
        DType s = a == DType::UInt8 ? b : a;
        return signed_of_width(std::max(int_width(s), 2));
    }
    return signed_of_width(std::max(int_width(a), int_width(b)));
}

}  // namespace ct

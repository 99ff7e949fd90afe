// dtype.cpp - dtype sizes, names and PyTorch-compatible promotion.
#include "core/dtype.h"

namespace ct {

size_t dtype_size(DType d) {
    switch (d) {
    case DType::Float32: case DType::Int32: return 4;
    case DType::Float64: case DType::Int64: return 8;
    case DType::UInt8: case DType::Bool: return 1;
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
    }
    return "unknown";
}

DType promote_types(DType a, DType b) {
    if (a == b) return a;
    if (a == DType::Bool) return b;
    if (b == DType::Bool) return a;
    if (is_floating(a) || is_floating(b)) {
        if (a == DType::Float64 || b == DType::Float64) return DType::Float64;
        return DType::Float32;
    }
    // both integral and different
    if (a == DType::Int64 || b == DType::Int64) return DType::Int64;
    if (a == DType::Int32 || b == DType::Int32) return DType::Int32;
    return DType::UInt8;
}

}  // namespace ct

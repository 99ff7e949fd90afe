// kernels.h - CPU kernels shared by ops: strided copy with dtype conversion, fill.
#pragma once
#include "core/tensor.h"

namespace ct {

// dst[i] = (dst dtype) src[i]; src must already have dst's shape (use broadcast_view). Any strides.
void cpu_copy(const Tensor& dst, const Tensor& src);
// dst[i] = value converted to dst's dtype. Any strides.
void cpu_fill(const Tensor& dst, double value);

// Converts a double to T the way a C cast does, with bool as (v != 0).
template <typename T> inline T from_double(double v) { return static_cast<T>(v); }
template <> inline bool from_double<bool>(double v) { return v != 0.0; }

}  // namespace ct

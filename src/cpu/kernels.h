// kernels.h - CPU kernels shared by ops: strided copy with dtype conversion, fill.
#pragma once
#include "core/scalar_math.h"
#include "core/tensor.h"

namespace ct {

// dst[i] = (dst dtype) src[i]; src must already have dst's shape (use broadcast_view). Any strides.
void cpu_copy(const Tensor& dst, const Tensor& src);
// dst[i] = value converted to dst's dtype. Any strides.
void cpu_fill(const Tensor& dst, double value);

// Converts a double to T (Note [Float to integer], core/scalar_math.h).
template <typename T> inline T from_double(double v) { return math::convert<T>(v); }

}  // namespace ct

// half_compute.h - the op-level half path (Note [Half compute] in ops/elementwise.h): reductions, matmul and nn
// ops run on float32 copies of float16/bfloat16 inputs (so they accumulate in float32) and round their floating
// results back, through differentiable casts, so half inputs get half gradients (as torch).
#pragma once
#include "ops/ops.h"

namespace ct {

// x as float32 (a differentiable cast); x itself when it is not half.
inline Tensor half_to_float32(const Tensor& x) { return is_half(x.dtype()) ? to_dtype(x, DType::Float32) : x; }
// A floating result r rounded to the half dtype d (integer and bool results, e.g. indices, stay as they are).
inline Tensor round_to_half(const Tensor& r, DType d) { return is_floating(r.dtype()) ? to_dtype(r, d) : r; }

}  // namespace ct

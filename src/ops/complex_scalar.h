// complex_scalar.h - a language's complex number as a wrapped scalar (issue 15; ct_wrapped_scalar_complex).
#pragma once
#include "core/tensor.h"

namespace ct {

// A Python-style complex number re + i im: a complex128 0-d tensor marked wrapped_number, so it promotes by category
// only (result_type): with float32 / integer / bool -> complex64, float64 -> complex128, float16 / bfloat16 ->
// complex64 (ctensor has no complex32; docs/dtypes.md), complex tensors keep their dtype.
Tensor wrapped_scalar_complex(double re, double im);

}  // namespace ct

// half_convert.h - bulk conversion between the 16-bit float storage types and float32 (F16C where the CPU has
// it, checked at run time), bit-identical to the scalar conversions of core/half.h (Note [Half conversions]).
#pragma once
#include <cstdint>
#include "core/half.h"

namespace ct {

void convert_to_float(const Half* src, float* dst, int64_t n);
void convert_to_float(const BFloat16* src, float* dst, int64_t n);
void convert_from_float(const float* src, Half* dst, int64_t n);
void convert_from_float(const float* src, BFloat16* dst, int64_t n);
// Whether the F16C path is in use (for tests and the benchmark's report).
bool half_convert_uses_f16c();

}  // namespace ct

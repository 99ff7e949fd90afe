// binary_math.h - torch's two-argument elementwise math functions (issue 14): logaddexp, hypot, xlogy,
// copysign, fmax/fmin, heaviside, nextafter. Broadcasting and promotion as the other binary ops (ops/binary.cpp).
#pragma once
#include "core/tensor.h"

namespace ct {

// Floating inputs only (integer and bool refused, as torch 1.13); log(e^a + e^b) / log2(2^a + 2^b).
Tensor logaddexp(const Tensor& a, const Tensor& b);
Tensor logaddexp2(const Tensor& a, const Tensor& b);
// sqrt(a^2 + b^2) without overflow; floating inputs only.
Tensor hypot(const Tensor& a, const Tensor& b);
// a * log(b) with 0 where a == 0 (NaN where b is NaN); integers promote to float32.
Tensor xlogy(const Tensor& a, const Tensor& b);
// |a| with the sign of b; integers promote to float32; b gets a zero gradient.
Tensor copysign(const Tensor& a, const Tensor& b);
// The larger / smaller element, a NaN ignored when the other is a number; any real dtype (promoted).
Tensor fmax(const Tensor& a, const Tensor& b);
Tensor fmin(const Tensor& a, const Tensor& b);
// 0 where a < 0, b where a == 0, 1 where a > 0; a and b of one dtype (a number b takes a's); no gradient.
Tensor heaviside(const Tensor& a, const Tensor& b);
// The next floating value after a towards b; float32/float64 only; no gradient.
Tensor nextafter(const Tensor& a, const Tensor& b);
// self + value * t1 * t2 and self + value * t1 / t2 (broadcast, promoted over the three); composites, so their
// gradients are mul's / div's and add's. addcdiv refuses two integer divisors, both refuse a bool result.
Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, double value);
Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, double value);

}  // namespace ct

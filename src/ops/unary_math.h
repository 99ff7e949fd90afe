// unary_math.h - the unary math ops of issue 14 (unary_math.cpp): inverse and hyperbolic trigonometry, the error
// and gamma families, logit, sinc, sgn, angle conversions, sign-bit and infinity tests, positive and i0.
#pragma once
#include "ops/ops.h"

namespace ct {

Tensor asin(const Tensor& x);
Tensor acos(const Tensor& x);
Tensor atan(const Tensor& x);
Tensor sinh(const Tensor& x);
Tensor cosh(const Tensor& x);
Tensor asinh(const Tensor& x);
Tensor acosh(const Tensor& x);
Tensor atanh(const Tensor& x);

Tensor erf(const Tensor& x);
Tensor erfc(const Tensor& x);
Tensor erfinv(const Tensor& x);
Tensor lgamma(const Tensor& x);
Tensor digamma(const Tensor& x);
Tensor polygamma(int64_t n, const Tensor& x);  // n >= 0 (internal: digamma's derivatives)
Tensor logit(const Tensor& x, double eps);      // eps < 0: no clamping (torch's eps=None)
Tensor sinc(const Tensor& x);
Tensor sgn(const Tensor& x);

Tensor deg2rad(const Tensor& x);
Tensor rad2deg(const Tensor& x);
Tensor signbit(const Tensor& x);
Tensor isposinf(const Tensor& x);
Tensor isneginf(const Tensor& x);
Tensor positive(const Tensor& x);
Tensor i0(const Tensor& x);
Tensor i1(const Tensor& x);  // internal: i0's backward

}  // namespace ct

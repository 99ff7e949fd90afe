// bitwise.h - torch's integer ops (issue 14): bitwise and/or/xor/not, shifts, gcd, lcm. Broadcasting and promotion
// as the other binary ops (ops/binary.cpp); floating and complex inputs are refused; no gradient.
#pragma once
#include "core/tensor.h"

namespace ct {

// Bitwise and / or / xor of integer or bool tensors (bool stays bool).
Tensor bitwise_and(const Tensor& a, const Tensor& b);
Tensor bitwise_or(const Tensor& a, const Tensor& b);
Tensor bitwise_xor(const Tensor& a, const Tensor& b);
// ~x of an integer tensor, logical not of a bool tensor.
Tensor bitwise_not(const Tensor& x);
// a << b and a >> b (arithmetic for signed types) of integer tensors; a count outside [0, bit width) gives 0
// (left) or the sign fill 0 / -1 (right), as torch 2's kernels (Note [Shift counts]).
Tensor bitwise_left_shift(const Tensor& a, const Tensor& b);
Tensor bitwise_right_shift(const Tensor& a, const Tensor& b);
// The greatest common divisor (>= 0) and the least common multiple (>= 0) of integer tensors; gcd(0, 0) = 0.
Tensor gcd(const Tensor& a, const Tensor& b);
Tensor lcm(const Tensor& a, const Tensor& b);

}  // namespace ct

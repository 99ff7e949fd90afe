// bitwise.cpp - torch's integer ops (issue 14) on the shared binary driver (ops/elementwise.h): one functor each
// (core/scalar_math.h), integer and (for and/or/xor/not) bool dtypes only, never differentiable.
#include "ops/bitwise.h"
#include "core/scalar_math.h"
#include "ops/elementwise.h"

namespace ct {

namespace {

// The promoted dtype of an integer op; floating, half and complex results are refused (as torch 1.13's
// "not implemented for 'Float'"), and bool too unless allow_bool.
DType integer_result(const char* op, const Tensor& a, const Tensor& b, bool allow_bool) {
    DType d = result_type(a, b);
    if (is_floating(d) || is_complex(d) || (d == DType::Bool && !allow_bool))
        fail(CT_ERR_DTYPE, op, ": not implemented for ", dtype_name(d), " (", dtype_name(a.dtype()), " and ",
             dtype_name(b.dtype()), "; integer", allow_bool ? " and bool" : "", " tensors only)");
    return d;
}

template <typename F> Tensor integer_op(const char* op, const Tensor& a, const Tensor& b, bool allow_bool) {
    return binary_kernel<void>(op, a, b, integer_result(op, a, b, allow_bool), [](auto) { return F{}; });
}

}  // namespace

Tensor bitwise_and(const Tensor& a, const Tensor& b) { return integer_op<math::BitwiseAnd>("bitwise_and", a, b, true); }
Tensor bitwise_or(const Tensor& a, const Tensor& b) { return integer_op<math::BitwiseOr>("bitwise_or", a, b, true); }
Tensor bitwise_xor(const Tensor& a, const Tensor& b) { return integer_op<math::BitwiseXor>("bitwise_xor", a, b, true); }

Tensor bitwise_not(const Tensor& x) {
    const DType d = x.dtype();
    if (is_floating(d) || is_complex(d))
        fail(CT_ERR_DTYPE, "bitwise_not: not implemented for ", dtype_name(d), " (integer and bool tensors only)");
    if (d == DType::Bool) return logical_not(x);
    // ~x = x ^ (all bits set): the number -1 for the signed types, 255 for uint8 (each fits its dtype exactly)
    return bitwise_xor(x, wrapped_scalar(d == DType::UInt8 ? 255.0 : -1.0, true));
}

Tensor bitwise_left_shift(const Tensor& a, const Tensor& b) {
    return integer_op<math::LeftShift>("bitwise_left_shift", a, b, false);
}
Tensor bitwise_right_shift(const Tensor& a, const Tensor& b) {
    return integer_op<math::RightShift>("bitwise_right_shift", a, b, false);
}
Tensor gcd(const Tensor& a, const Tensor& b) { return integer_op<math::Gcd>("gcd", a, b, false); }
Tensor lcm(const Tensor& a, const Tensor& b) { return integer_op<math::Lcm>("lcm", a, b, false); }

}  // namespace ct

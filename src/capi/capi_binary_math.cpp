// capi_binary_math.cpp - C API: torch's two-argument elementwise math functions and integer ops (issue 14,
// ops/binary_math.h, ops/bitwise.h).
#include "capi/capi_common.h"
#include "ops/binary_math.h"
#include "ops/bitwise.h"

using namespace ct;

extern "C" {

CT_DEFINE_BINARY(logaddexp, logaddexp(A, B))
CT_DEFINE_BINARY(logaddexp2, logaddexp2(A, B))
CT_DEFINE_BINARY(hypot, hypot(A, B))
CT_DEFINE_BINARY(xlogy, xlogy(A, B))
CT_DEFINE_BINARY(copysign, copysign(A, B))
CT_DEFINE_BINARY(fmax, fmax(A, B))
CT_DEFINE_BINARY(fmin, fmin(A, B))
CT_DEFINE_BINARY(heaviside, heaviside(A, B))
CT_DEFINE_BINARY(nextafter, nextafter(A, B))
CT_DEFINE_BINARY(bitwise_and, bitwise_and(A, B))
CT_DEFINE_BINARY(bitwise_or, bitwise_or(A, B))
CT_DEFINE_BINARY(bitwise_xor, bitwise_xor(A, B))
CT_DEFINE_BINARY(bitwise_left_shift, bitwise_left_shift(A, B))
CT_DEFINE_BINARY(bitwise_right_shift, bitwise_right_shift(A, B))
CT_DEFINE_BINARY(gcd, gcd(A, B))
CT_DEFINE_BINARY(lcm, lcm(A, B))
CT_DEFINE_UNARY(bitwise_not, bitwise_not(X))

ct_status ct_addcmul(ct_tensor self, ct_tensor tensor1, ct_tensor tensor2, double value, ct_tensor* out) {
    return guard([&] {
        check_out(out, "addcmul");
        *out = new_tensor_handle(addcmul(get_tensor(self, "addcmul", "self"), get_tensor(tensor1, "addcmul", "tensor1"),
                                         get_tensor(tensor2, "addcmul", "tensor2"), value));
    });
}

ct_status ct_addcdiv(ct_tensor self, ct_tensor tensor1, ct_tensor tensor2, double value, ct_tensor* out) {
    return guard([&] {
        check_out(out, "addcdiv");
        *out = new_tensor_handle(addcdiv(get_tensor(self, "addcdiv", "self"), get_tensor(tensor1, "addcdiv", "tensor1"),
                                         get_tensor(tensor2, "addcdiv", "tensor2"), value));
    });
}

}  // extern "C"

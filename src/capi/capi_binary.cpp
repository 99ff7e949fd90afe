// capi_binary.cpp - C API: elementwise binary ops, comparisons, logical ops and where.
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

ct_status ct_add(ct_tensor a, ct_tensor b, double alpha, ct_tensor* out) {
    return guard([&] {
        check_out(out, "add");
        *out = new_tensor_handle(add(get_tensor(a, "add", "a"), get_tensor(b, "add", "b"), alpha));
    });
}

ct_status ct_sub(ct_tensor a, ct_tensor b, double alpha, ct_tensor* out) {
    return guard([&] {
        check_out(out, "sub");
        *out = new_tensor_handle(sub(get_tensor(a, "sub", "a"), get_tensor(b, "sub", "b"), alpha));
    });
}

CT_DEFINE_BINARY(mul, mul(A, B))
CT_DEFINE_BINARY(div, div(A, B))
CT_DEFINE_BINARY(pow, pow(A, B))
CT_DEFINE_BINARY(maximum, maximum(A, B))
CT_DEFINE_BINARY(minimum, minimum(A, B))
CT_DEFINE_BINARY(atan2, atan2(A, B))
CT_DEFINE_BINARY(remainder, remainder(A, B))
CT_DEFINE_BINARY(floor_divide, floor_divide(A, B))
CT_DEFINE_BINARY(eq, eq(A, B))
CT_DEFINE_BINARY(ne, ne(A, B))
CT_DEFINE_BINARY(lt, lt(A, B))
CT_DEFINE_BINARY(le, le(A, B))
CT_DEFINE_BINARY(gt, gt(A, B))
CT_DEFINE_BINARY(ge, ge(A, B))
CT_DEFINE_BINARY(logical_and, logical_and(A, B))
CT_DEFINE_BINARY(logical_or, logical_or(A, B))
CT_DEFINE_BINARY(logical_xor, logical_xor(A, B))

ct_status ct_where(ct_tensor cond, ct_tensor a, ct_tensor b, ct_tensor* out) {
    return guard([&] {
        check_out(out, "where");
        *out = new_tensor_handle(
            where(get_tensor(cond, "where", "cond"), get_tensor(a, "where", "a"), get_tensor(b, "where", "b")));
    });
}

}  // extern "C"

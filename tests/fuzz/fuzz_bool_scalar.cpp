// fuzz_bool_scalar.cpp - the fuzz action for ct_wrapped_scalar_bool (issue 15): a wrapped bool from any int32, kept
// in the pool (so every other op meets it), and pool tensor a against it on either side of the binary ops, the
// in-place ones and where. Subtraction with a bool operand is always refused; the rest may pass or fail by dtype.
#include "fuzz_common.h"

namespace fz {

void bool_scalar_ops(Input& in, Pool& p, uint8_t which) {
    bool oka = true, okc = true;
    ct_tensor a = p.pick(in, &oka);
    ct_tensor c = p.pick(in, &okc);
    const int32_t v = in.int32();
    call(in, p, "wrapped_scalar_bool", false, 1, 0, [&](ct_tensor* o) { return ct_wrapped_scalar_bool(v, o); });
    check_status("wrapped_scalar_bool", ct_wrapped_scalar_bool(v, nullptr), true);
    ct_tensor s = nullptr;
    check_status("wrapped_scalar_bool", ct_wrapped_scalar_bool(v, &s), false);
    switch (which % 3) {
    case 0:
        call(in, p, "add", !oka, 1, 0, [&](ct_tensor* o) { return ct_add(a, s, in.scalar(), o); });
        call(in, p, "sub", true, 1, 0, [&](ct_tensor* o) { return ct_sub(s, a, 1.0, o); });  // bool - x never
        call(in, p, "mul", !oka, 1, 0, [&](ct_tensor* o) { return ct_mul(s, a, o); });
        call(in, p, "div", !oka, 1, 0, [&](ct_tensor* o) { return ct_div(a, s, o); });
        call(in, p, "floor_divide", !oka, 1, 0, [&](ct_tensor* o) { return ct_floor_divide(a, s, o); });
        call(in, p, "remainder", !oka, 1, 0, [&](ct_tensor* o) { return ct_remainder(s, a, o); });
        call(in, p, "pow", !oka, 1, 0, [&](ct_tensor* o) { return ct_pow(s, a, o); });
        break;
    case 1:
        call(in, p, "eq", !oka, 1, 0, [&](ct_tensor* o) { return ct_eq(a, s, o); });
        call(in, p, "lt", !oka, 1, 0, [&](ct_tensor* o) { return ct_lt(s, a, o); });
        call(in, p, "logical_and", !oka, 1, 0, [&](ct_tensor* o) { return ct_logical_and(a, s, o); });
        call(in, p, "bitwise_xor", !oka, 1, 0, [&](ct_tensor* o) { return ct_bitwise_xor(s, a, o); });
        call(in, p, "maximum", !oka, 1, 0, [&](ct_tensor* o) { return ct_maximum(a, s, o); });
        call(in, p, "heaviside", !oka, 1, 0, [&](ct_tensor* o) { return ct_heaviside(a, s, o); });
        call(in, p, "where", !(oka && okc), 1, 0, [&](ct_tensor* o) { return ct_where(c, a, s, o); });
        break;
    case 2:  // in place: the destination keeps its dtype; sub_ is always refused
        check_status("add_", ct_add_(a, s, in.scalar()), !oka);
        check_status("sub_", ct_sub_(a, s, 1.0), true);
        check_status("mul_", ct_mul_(a, s), !oka);
        check_status("div_", ct_div_(a, s), !oka);
        check_status("add_", ct_add_(s, a, 1.0), !oka);  // into the wrapped scalar itself
        break;
    }
    ct_tensor_release(s);
}

}  // namespace fz

// capi_inplace.cpp - C API: in-place ops (each bumps the destination's version counter).
#include <optional>
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

ct_status ct_add_(ct_tensor dst, ct_tensor b, double alpha) {
    return guard([&] {
        Tensor D = get_tensor(dst, "add_", "dst");
        add_(D, get_tensor(b, "add_", "b"), alpha);
    });
}

ct_status ct_sub_(ct_tensor dst, ct_tensor b, double alpha) {
    return guard([&] {
        Tensor D = get_tensor(dst, "sub_", "dst");
        sub_(D, get_tensor(b, "sub_", "b"), alpha);
    });
}

ct_status ct_mul_(ct_tensor dst, ct_tensor b) {
    return guard([&] {
        Tensor D = get_tensor(dst, "mul_", "dst");
        mul_(D, get_tensor(b, "mul_", "b"));
    });
}

ct_status ct_div_(ct_tensor dst, ct_tensor b) {
    return guard([&] {
        Tensor D = get_tensor(dst, "div_", "dst");
        div_(D, get_tensor(b, "div_", "b"));
    });
}

ct_status ct_zero_(ct_tensor dst) {
    return guard([&] {
        Tensor D = get_tensor(dst, "zero_", "dst");
        zero_(D);
    });
}

ct_status ct_fill_(ct_tensor dst, double value) {
    return guard([&] {
        Tensor D = get_tensor(dst, "fill_", "dst");
        fill_(D, value);
    });
}

ct_status ct_copy_(ct_tensor dst, ct_tensor src) {
    return guard([&] {
        Tensor D = get_tensor(dst, "copy_", "dst");
        copy_(D, get_tensor(src, "copy_", "src"));
    });
}

ct_status ct_clamp_(ct_tensor dst, double min, int32_t has_min, double max, int32_t has_max) {
    return guard([&] {
        Tensor D = get_tensor(dst, "clamp_", "dst");
        std::optional<double> lo, hi;
        if (has_min) lo = min;
        if (has_max) hi = max;
        clamp_(D, lo, hi);
    });
}

}  // extern "C"

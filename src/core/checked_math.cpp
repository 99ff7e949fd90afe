// checked_math.cpp - element counts, contiguous strides and reachable spans of caller-given shapes and strides,
// all overflow-checked (core/checked_math.h).
#include "core/checked_math.h"
#include "core/tensor.h"

namespace ct {

Shape contiguous_strides(const Shape& sizes) {
    Shape st(sizes.size());
    int64_t acc = 1;
    for (int64_t i = (int64_t)sizes.size() - 1; i >= 0; --i) {
        st[i] = acc;
        if (i > 0) acc = checked_mul(acc, sizes[i] > 0 ? sizes[i] : 1, "contiguous_strides", "stride");
    }
    return st;
}

int64_t checked_numel(const Shape& sizes, const char* op) {
    int64_t n = 1, bound = 1;  // bound: the product of max(size, 1) (Note [Shape bound])
    for (int64_t s : sizes) {
        CT_CHECK(s >= 0, CT_ERR_INVALID_ARGUMENT, op, ": negative size ", s, " in shape ", shape_str(sizes));
        if (!mul_fits(bound, s > 0 ? s : 1, &bound))
            fail(CT_ERR_SHAPE, op, ": shape ", shape_str(sizes),
                 " has too many elements (its sizes multiply past int64)");
        n = s == 0 ? 0 : n * s;  // n <= bound
    }
    return n;
}

Span checked_span(const Shape& sizes, const Shape& strides, const char* op) {
    Span sp;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == 0) return Span{};
        int64_t reach = 0;
        if (!mul_fits(sizes[i] - 1, strides[i], &reach) ||
            !add_fits(reach < 0 ? sp.lo : sp.hi, reach, reach < 0 ? &sp.lo : &sp.hi))
            fail(CT_ERR_INVALID_ARGUMENT, op, ": shape ", shape_str(sizes), " with strides ", shape_str(strides),
                 " overflows int64");
    }
    return sp;
}

}  // namespace ct

// capi_unary.cpp - C API: elementwise unary ops, pow with a scalar exponent, and clamp.
#include <optional>
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

CT_DEFINE_UNARY(neg, neg(X))
CT_DEFINE_UNARY(abs, ct::abs(X))
CT_DEFINE_UNARY(sign, sign(X))
CT_DEFINE_UNARY(exp, ct::exp(X))
CT_DEFINE_UNARY(log, ct::log(X))
CT_DEFINE_UNARY(log1p, ct::log1p(X))
CT_DEFINE_UNARY(expm1, ct::expm1(X))
CT_DEFINE_UNARY(sqrt, ct::sqrt(X))
CT_DEFINE_UNARY(rsqrt, rsqrt(X))
CT_DEFINE_UNARY(sin, ct::sin(X))
CT_DEFINE_UNARY(cos, ct::cos(X))
CT_DEFINE_UNARY(tan, ct::tan(X))
CT_DEFINE_UNARY(tanh, ct::tanh(X))
CT_DEFINE_UNARY(sigmoid, sigmoid(X))
CT_DEFINE_UNARY(relu, relu(X))
CT_DEFINE_UNARY(gelu, gelu(X))
CT_DEFINE_UNARY(silu, silu(X))
CT_DEFINE_UNARY(softplus, softplus(X))
CT_DEFINE_UNARY(floor, ct::floor(X))
CT_DEFINE_UNARY(ceil, ct::ceil(X))
CT_DEFINE_UNARY(round, ct::round(X))
CT_DEFINE_UNARY(reciprocal, reciprocal(X))
CT_DEFINE_UNARY(logical_not, logical_not(X))

ct_status ct_pow_scalar(ct_tensor x, double exponent, ct_tensor* out) {
    return guard([&] {
        check_out(out, "pow_scalar");
        *out = new_tensor_handle(pow_scalar(get_tensor(x, "pow_scalar", "x"), exponent));
    });
}

ct_status ct_clamp(ct_tensor x, double min, int32_t has_min, double max, int32_t has_max, ct_tensor* out) {
    return guard([&] {
        check_out(out, "clamp");
        std::optional<double> lo, hi;
        if (has_min) lo = min;
        if (has_max) hi = max;
        *out = new_tensor_handle(clamp(get_tensor(x, "clamp", "x"), lo, hi));
    });
}

}  // extern "C"

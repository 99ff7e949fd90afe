// capi_unary_math.cpp - C API: the unary math ops of issue 14 (ops/unary_math.h).
#include "capi/capi_common.h"
#include "ops/unary_math.h"

using namespace ct;

extern "C" {

CT_DEFINE_UNARY(asin, ct::asin(X))
CT_DEFINE_UNARY(acos, ct::acos(X))
CT_DEFINE_UNARY(atan, ct::atan(X))
CT_DEFINE_UNARY(sinh, ct::sinh(X))
CT_DEFINE_UNARY(cosh, ct::cosh(X))
CT_DEFINE_UNARY(asinh, ct::asinh(X))
CT_DEFINE_UNARY(acosh, ct::acosh(X))
CT_DEFINE_UNARY(atanh, ct::atanh(X))
CT_DEFINE_UNARY(erf, ct::erf(X))
CT_DEFINE_UNARY(erfc, ct::erfc(X))
CT_DEFINE_UNARY(erfinv, ct::erfinv(X))
CT_DEFINE_UNARY(lgamma, ct::lgamma(X))
CT_DEFINE_UNARY(digamma, ct::digamma(X))
CT_DEFINE_UNARY(sinc, ct::sinc(X))
CT_DEFINE_UNARY(sgn, ct::sgn(X))
CT_DEFINE_UNARY(deg2rad, ct::deg2rad(X))
CT_DEFINE_UNARY(rad2deg, ct::rad2deg(X))
CT_DEFINE_UNARY(signbit, ct::signbit(X))
CT_DEFINE_UNARY(isposinf, ct::isposinf(X))
CT_DEFINE_UNARY(isneginf, ct::isneginf(X))
CT_DEFINE_UNARY(positive, ct::positive(X))
CT_DEFINE_UNARY(i0, ct::i0(X))

ct_status ct_logit(ct_tensor x, double eps, ct_tensor* out) {
    return guard([&] {
        check_out(out, "logit");
        *out = new_tensor_handle(logit(get_tensor(x, "logit", "x"), eps));
    });
}

}  // extern "C"

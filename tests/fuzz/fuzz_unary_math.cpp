// fuzz_unary_math.cpp - the fuzz actions for the unary math ops of issue 14 (asin .. i0, logit with any eps),
// reached from elementwise's unary case. Pool tensors bring every dtype (complex, half, bool, integers), 0-d,
// empty and broadcast shapes and CUDA tensors; logit's eps comes from Input::scalar (NaN, inf, huge, negative).
#include "fuzz_common.h"

namespace fz {
namespace {

using Unary = ct_status (*)(ct_tensor, ct_tensor*);
struct NamedUnary {
    const char* name;
    Unary fn;
};
const NamedUnary kUnaryMath[] = {
    {"asin", ct_asin}, {"acos", ct_acos}, {"atan", ct_atan}, {"sinh", ct_sinh}, {"cosh", ct_cosh},
    {"asinh", ct_asinh}, {"acosh", ct_acosh}, {"atanh", ct_atanh}, {"erf", ct_erf}, {"erfc", ct_erfc},
    {"erfinv", ct_erfinv}, {"lgamma", ct_lgamma}, {"digamma", ct_digamma}, {"sinc", ct_sinc}, {"sgn", ct_sgn},
    {"deg2rad", ct_deg2rad}, {"rad2deg", ct_rad2deg}, {"signbit", ct_signbit}, {"isposinf", ct_isposinf},
    {"isneginf", ct_isneginf}, {"positive", ct_positive}, {"i0", ct_i0}};
constexpr size_t kCount = sizeof(kUnaryMath) / sizeof(kUnaryMath[0]);

}  // namespace

void unary_math_ops(Input& in, Pool& p, ct_tensor a, bool ok) {
    uint8_t which = in.u8();
    if (which % (kCount + 1) == kCount) {
        double eps = in.scalar();
        // eps must be NaN-free and at most 0.5 (negative: none); only the handle can fail otherwise
        bool bad_eps = eps != eps || eps > 0.5;
        call(in, p, "logit", !ok, 1, 0, [&](ct_tensor* o) { return ct_logit(a, eps, o); });
        if (ok && bad_eps) {
            ct_tensor out = nullptr;
            if (ct_logit(a, eps, &out) == CT_OK) die("logit", "accepted an eps outside [0, 0.5]");
        }
        return;
    }
    const NamedUnary& f = kUnaryMath[which % (kCount + 1)];
    call(in, p, f.name, !ok, 1, 0, [&](ct_tensor* o) { return f.fn(a, o); });
}

}  // namespace fz

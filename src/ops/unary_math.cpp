// unary_math.cpp - the unary math ops of issue 14 and their backward formulas (torch 1.13's derivatives.yaml),
// written with ops so that they can be differentiated again. Float functions follow unary.cpp's dtype rule
// (integer/bool inputs compute in float32, half types in float); complex inputs are computed where torch 1.13
// computes them (asin..atanh, sinh, cosh, sinc, sgn) and refused naming op and dtype elsewhere.
// Invariant: every kernel here is a scalar_math.h functor, so the CPU, CUDA and emulated paths share the math.
#include "ops/unary_math.h"
#include <cmath>
#include "ops/complex_kernels.h"
#include "ops/complex_ops.h"
#include "ops/unary_common.h"

namespace ct {

using unary::float_op;
using unary::record1;
using unary::scalar;

namespace {

constexpr double kPi = special::kPi;

[[noreturn]] void refuse_complex(const char* op, const Tensor& x) {
    fail(CT_ERR_NOT_SUPPORTED, op, ": not implemented for dtype ", dtype_name(x.dtype()));
}

Tensor square(const Tensor& x) { return mul(x, x); }

}  // namespace

// ---- inverse and hyperbolic trigonometry ----

Tensor asin(const Tensor& x) {
    // d/dx asin(x) = 1 / sqrt(1 - x^2)
    return record1(float_op<math::Asin>(x), "AsinBackward", x, true, false, [](BackwardCtx& c) {
        return mul(c.grads[0], rsqrt(sub(scalar(1.0), square(c.saved(0)))));
    });
}

Tensor acos(const Tensor& x) {
    // d/dx acos(x) = -1 / sqrt(1 - x^2)
    return record1(float_op<math::Acos>(x), "AcosBackward", x, true, false, [](BackwardCtx& c) {
        return mul(c.grads[0], neg(rsqrt(sub(scalar(1.0), square(c.saved(0))))));
    });
}

Tensor atan(const Tensor& x) {
    // d/dx atan(x) = 1 / (1 + x^2)
    return record1(float_op<math::Atan>(x), "AtanBackward", x, true, false, [](BackwardCtx& c) {
        return div(c.grads[0], add_scalar(square(c.saved(0)), 1.0));
    });
}

Tensor sinh(const Tensor& x) {
    return record1(float_op<math::Sinh>(x), "SinhBackward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], cosh(c.saved(0))); });
}

Tensor cosh(const Tensor& x) {
    return record1(float_op<math::Cosh>(x), "CoshBackward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], sinh(c.saved(0))); });
}

Tensor asinh(const Tensor& x) {
    // d/dx asinh(x) = 1 / sqrt(x^2 + 1)
    return record1(float_op<math::Asinh>(x), "AsinhBackward", x, true, false, [](BackwardCtx& c) {
        return mul(c.grads[0], rsqrt(add_scalar(square(c.saved(0)), 1.0)));
    });
}

Tensor acosh(const Tensor& x) {
    // d/dx acosh(x) = 1 / sqrt(x^2 - 1); complex: 1 / (sqrt(x + 1) sqrt(x - 1)), the principal branch (torch's form)
    return record1(float_op<math::Acosh>(x), "AcoshBackward", x, true, false, [](BackwardCtx& c) {
        Tensor x = c.saved(0);
        if (is_complex(x.dtype())) return mul(c.grads[0], mul(rsqrt(add_scalar(x, 1.0)), rsqrt(add_scalar(x, -1.0))));
        return mul(c.grads[0], rsqrt(add_scalar(square(x), -1.0)));
    });
}

Tensor atanh(const Tensor& x) {
    // d/dx atanh(x) = 1 / (1 - x^2)
    return record1(float_op<math::Atanh>(x), "AtanhBackward", x, true, false, [](BackwardCtx& c) {
        return div(c.grads[0], sub(scalar(1.0), square(c.saved(0))));
    });
}

// ---- error and gamma functions ----

Tensor erf(const Tensor& x) {
    // d/dx erf(x) = 2 / sqrt(pi) exp(-x^2)
    return record1(float_op<math::Erf>(x), "ErfBackward", x, true, false, [](BackwardCtx& c) {
        return mul(c.grads[0], mul_scalar(exp(neg(square(c.saved(0)))), 2.0 / std::sqrt(kPi)));
    });
}

Tensor erfc(const Tensor& x) {
    return record1(float_op<math::Erfc>(x), "ErfcBackward", x, true, false, [](BackwardCtx& c) {
        return mul(c.grads[0], mul_scalar(exp(neg(square(c.saved(0)))), -2.0 / std::sqrt(kPi)));
    });
}

Tensor erfinv(const Tensor& x) {
    // d/dx erfinv(x) = sqrt(pi) / 2 exp(y^2)
    return record1(float_op<math::Erfinv>(x), "ErfinvBackward", x, false, true, [](BackwardCtx& c) {
        return mul(c.grads[0], mul_scalar(exp(square(c.saved(0))), 0.5 * std::sqrt(kPi)));
    });
}

Tensor lgamma(const Tensor& x) {
    return record1(float_op<math::Lgamma>(x), "LgammaBackward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], digamma(c.saved(0))); });
}

Tensor polygamma(int64_t n, const Tensor& x) {
    if (n < 0 || n > 1000) fail(CT_ERR_INVALID_ARGUMENT, "polygamma: n must be in [0, 1000], got ", n);
    Tensor out = unary::float_map(x, [n](auto) { return math::Polygamma{(int)n}; });
    return record1(out, "PolygammaBackward", x, true, false,
                   [n](BackwardCtx& c) { return mul(c.grads[0], polygamma(n + 1, c.saved(0))); });
}

Tensor digamma(const Tensor& x) { return polygamma(0, x); }

Tensor logit(const Tensor& x, double eps) {
    if (eps != eps || eps > 0.5) fail(CT_ERR_INVALID_ARGUMENT, "logit: eps must be in [0, 0.5] or negative (none), got ", eps);
    Tensor out = unary::float_map(x, [eps](auto tag) {
        using T = typename decltype(tag)::type;
        return math::Logit<T>{(T)(eps < 0 ? -1.0 : eps)};
    });
    return record1(out, "LogitBackward", x, true, false, [eps](BackwardCtx& c) {
        // g / (x (1 - x)); outside [eps, 1 - eps] 0 with eps, NaN outside [0, 1] without (torch's logit_backward)
        Tensor x = c.saved(0);
        Tensor d = div(c.grads[0], mul(x, sub(scalar(1.0), x)));
        if (eps < 0) return masked_fill(d, logical_or(lt(x, scalar(0.0)), gt(x, scalar(1.0))), NAN);
        return masked_fill(d, logical_or(lt(x, scalar(eps)), gt(x, scalar(1.0 - eps))), 0.0);
    });
}

Tensor sinc(const Tensor& x) {
    return record1(float_op<math::Sinc>(x), "SincBackward", x, true, false, [](BackwardCtx& c) {
        // d/dx sin(pi x) / (pi x) = (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at x = 0
        Tensor x = c.saved(0), p = mul_scalar(x, kPi);
        Tensor d = div(sub(mul(p, cos(p)), sin(p)), mul(p, x));
        return mul(c.grads[0], masked_fill(d, eq(x, scalar(0.0)), 0.0));
    });
}

namespace {
// z / |z|, 0 at 0.
struct ComplexSgn {
    template <typename T> T operator()(T v) const { return v == T(0) ? v : v / std::abs(v); }
};
}  // namespace

Tensor sgn(const Tensor& x) {
    if (!is_complex(x.dtype())) return sign(x);
    Tensor out = complex_unary<void>(x, [](auto) { return ComplexSgn{}; });
    if (!requires_grad(x)) return out;
    // not holomorphic: (g - sgn Re(conj(sgn) g)) / |z|, 0 at z = 0 (torch's sgn_backward)
    auto node = make_node("SgnBackward", {x}, [](BackwardCtx& c) {
        Tensor z = c.saved(0), s = c.saved(1), g = c.grads[0];
        Tensor a = ct::abs(z), zero = eq(a, scalar(0.0));
        Tensor d = div(sub(g, mul(s, real(mul(conj(s), g)))), where(zero, ones_like(a), a));
        return TensorList{where(zero, zeros_like(d), d)};
    });
    node->save(x);
    set_history(out, node);
    node->save_output(out);  // after set_history: Note [Saved outputs]
    return out;
}

// ---- angles, sign bits, infinities, Bessel ----

Tensor deg2rad(const Tensor& x) {
    if (is_complex(x.dtype())) refuse_complex("deg2rad", x);
    return mul_scalar(x, kPi / 180.0);
}

Tensor rad2deg(const Tensor& x) {
    if (is_complex(x.dtype())) refuse_complex("rad2deg", x);
    return mul_scalar(x, 180.0 / kPi);
}

Tensor signbit(const Tensor& x) {
    if (is_complex(x.dtype())) refuse_complex("signbit", x);
    if (!is_floating(x.dtype())) return lt(x, wrapped_scalar(0.0, true));  // integers: v < 0 (bool: never)
    return unary_kernel<bool>(x, x.dtype(), [](auto) { return math::Signbit{}; });
}

Tensor isposinf(const Tensor& x) {
    if (is_complex(x.dtype())) refuse_complex("isposinf", x);
    return eq(x, scalar(INFINITY));
}

Tensor isneginf(const Tensor& x) {
    if (is_complex(x.dtype())) refuse_complex("isneginf", x);
    return eq(x, scalar(-INFINITY));
}

Tensor positive(const Tensor& x) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "positive: the + operator on a bool tensor is not supported");
    return x;  // the same tensor (torch returns self)
}

Tensor i0(const Tensor& x) {
    return record1(float_op<math::I0>(x), "I0Backward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], i1(c.saved(0))); });
}

Tensor i1(const Tensor& x) {
    // d/dx i1(x) = i0(x) - i1(x) / x, 1/2 at x = 0
    return record1(float_op<math::I1>(x), "I1Backward", x, true, true, [](BackwardCtx& c) {
        Tensor x = c.saved(0), y = c.saved(1);
        Tensor d = sub(i0(x), div(y, x));
        return mul(c.grads[0], masked_fill(d, eq(x, scalar(0.0)), 0.5));
    });
}

}  // namespace ct

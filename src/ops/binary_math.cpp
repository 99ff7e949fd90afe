// binary_math.cpp - torch's two-argument elementwise math functions (issue 14) on the shared binary driver
// (ops/elementwise.h): one functor each (core/scalar_math.h), backward as torch 1.13's derivatives.yaml, built
// from differentiable ops so that double backward works.
#include "ops/binary_math.h"
#include <cmath>
#include "core/scalar_math.h"
#include "ops/binary_record.h"
#include "ops/elementwise.h"

namespace ct {

namespace {

// The result dtype of an op defined for floating inputs only: integer and bool results are refused (torch 1.13's
// "not implemented for 'Long'"); complex reaches the driver, which refuses it naming the op.
DType floating_result(const char* op, const Tensor& a, const Tensor& b) {
    DType d = result_type(a, b);
    if (!is_floating(d) && !is_complex(d))
        fail(CT_ERR_DTYPE, op, ": not implemented for ", dtype_name(a.dtype()), " and ", dtype_name(b.dtype()),
             " (floating inputs only)");
    return d;
}

Tensor number(double v) { return wrapped_scalar(v, false); }

// Backward of fmax / fmin: a takes the gradient where it won (a >= b resp. a <= b) or b is NaN, b elsewhere.
TensorList fminmax_backward(BackwardCtx& c, bool is_max) {
    Tensor a = c.saved(0), b = c.saved(1), g = c.grads[0], ga, gb;
    Tensor a_wins = logical_or(is_max ? ge(a, b) : le(a, b), ne(b, b));
    if (c.needs(0)) ga = where(a_wins, g, zeros_like(g));
    if (c.needs(1)) gb = where(a_wins, zeros_like(g), g);
    return {ga, gb};
}

}  // namespace

Tensor logaddexp(const Tensor& a, const Tensor& b) {
    DType dt = floating_result("logaddexp", a, b);
    Tensor out = binary_kernel<void>("logaddexp", a, b, dt, [](auto) { return math::LogAddExp{}; });
    return record2(out, "LogaddexpBackward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;  // d/da = 1 / (1 + e^(b - a))
        if (c.needs(0)) ga = div(c.grads[0], add_scalar(exp(sub(b, a)), 1.0));
        if (c.needs(1)) gb = div(c.grads[0], add_scalar(exp(sub(a, b)), 1.0));
        return {ga, gb};
    });
}

Tensor logaddexp2(const Tensor& a, const Tensor& b) {
    DType dt = floating_result("logaddexp2", a, b);
    Tensor out = binary_kernel<void>("logaddexp2", a, b, dt, [](auto) { return math::LogAddExp2{}; });
    return record2(out, "Logaddexp2Backward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        const double ln2 = 0.69314718055994530942;  // d/da = 1 / (1 + 2^(b - a))
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        if (c.needs(0)) ga = div(c.grads[0], add_scalar(exp(mul_scalar(sub(b, a), ln2)), 1.0));
        if (c.needs(1)) gb = div(c.grads[0], add_scalar(exp(mul_scalar(sub(a, b), ln2)), 1.0));
        return {ga, gb};
    });
}

Tensor hypot(const Tensor& a, const Tensor& b) {
    DType dt = floating_result("hypot", a, b);
    Tensor out = binary_kernel<void>("hypot", a, b, dt, [](auto) { return math::Hypot{}; });
    return record2(out, "HypotBackward", a, b, true, true, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), b = c.saved(1), r = c.saved(2), ga, gb;  // d/da = a / hypot(a, b)
        if (c.needs(0)) ga = mul(c.grads[0], div(a, r));
        if (c.needs(1)) gb = mul(c.grads[0], div(b, r));
        return {ga, gb};
    });
}

Tensor xlogy(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("xlogy", a, b, float_result(a, b), [](auto) { return math::Xlogy{}; });
    return record2(out, "XlogyBackward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        // torch 1.13: grad_a = xlogy(grad, b), 0 where a == 0 and b <= 0; grad_b = grad * a / b
        Tensor a = c.saved(0), b = c.saved(1), g = c.grads[0], ga, gb;
        if (c.needs(0)) {
            Tensor d = xlogy(g, b);
            ga = where(logical_and(eq(a, number(0.0)), le(b, number(0.0))), zeros_like(d), d);
        }
        if (c.needs(1)) gb = mul(g, div(a, b));
        return {ga, gb};
    });
}

Tensor copysign(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("copysign", a, b, float_result(a, b), [](auto) { return math::CopySign{}; });
    return record2(out, "CopysignBackward", a, b, true, true, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), r = c.saved(2), g = c.grads[0], ga, gb;  // d/da = result / a, 0 where a == 0
        if (c.needs(0)) {
            Tensor ratio = div(r, a);
            ga = mul(g, where(eq(a, number(0.0)), zeros_like(ratio), ratio));
        }
        if (c.needs(1)) gb = zeros_like(g);
        return {ga, gb};
    });
}

Tensor fmax(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("fmax", a, b, result_type(a, b), [](auto) { return math::Fmax{}; });
    return record2(out, "FmaxBackward", a, b, true, false, [](BackwardCtx& c) { return fminmax_backward(c, true); });
}

Tensor fmin(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("fmin", a, b, result_type(a, b), [](auto) { return math::Fmin{}; });
    return record2(out, "FminBackward", a, b, true, false, [](BackwardCtx& c) { return fminmax_backward(c, false); });
}

Tensor heaviside(const Tensor& a, const Tensor& b) {
    const bool numbers = a.impl()->wrapped_number || b.impl()->wrapped_number;
    if (!numbers && a.dtype() != b.dtype())  // torch 1.13 does not promote here
        fail(CT_ERR_DTYPE, "heaviside: input and values must have one dtype, got ", dtype_name(a.dtype()), " and ",
             dtype_name(b.dtype()));
    return binary_kernel<void>("heaviside", a, b, result_type(a, b), [](auto) { return math::Heaviside{}; });
}

Tensor nextafter(const Tensor& a, const Tensor& b) {
    DType dt = floating_result("nextafter", a, b);
    if (is_half(dt))  // the half dtypes compute in float32, where the next value is a different one
        fail(CT_ERR_DTYPE, "nextafter: not implemented for ", dtype_name(dt), " (float32 and float64 only)");
    return binary_kernel<void>("nextafter", a, b, dt, [](auto) { return math::NextAfter{}; });
}

// ---- addcmul / addcdiv: composites of mul / div and add (their gradients are those ops') ----

namespace {

// The scale of the product in self + value * product: an integer result takes value truncated toward zero (torch
// converts the number to the integer dtype); a bool result is refused (as torch 1.13).
double addc_scale(const char* op, const Tensor& self, const Tensor& product, double value) {
    DType d = result_type(self, product);
    if (d == DType::Bool) fail(CT_ERR_DTYPE, op, ": not implemented for bool tensors");
    if (is_floating(d) || is_complex(d)) return value;
    if (!std::isfinite(value))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": value ", value, " is not finite (integer result ", dtype_name(d), ")");
    return std::trunc(value);
}

void check_addc_shapes(const char* op, const Tensor& self, const Tensor& t1, const Tensor& t2) {
    broadcast_shapes(op, broadcast_shapes(op, self.sizes(), t1.sizes()), t2.sizes());
}

}  // namespace

Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, double value) {
    check_addc_shapes("addcmul", self, t1, t2);
    Tensor p = mul(t1, t2);
    return add(self, p, addc_scale("addcmul", self, p, value));
}

Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, double value) {
    check_addc_shapes("addcdiv", self, t1, t2);
    auto integral = [](const Tensor& t) { return !is_floating(t.dtype()) && !is_complex(t.dtype()); };
    if (integral(t1) && integral(t2))  // torch 1.13 refuses it (its result would change meaning)
        fail(CT_ERR_DTYPE, "addcdiv: integer division of ", dtype_name(t1.dtype()), " by ", dtype_name(t2.dtype()),
             " is not supported; make tensor1 or tensor2 floating");
    Tensor q = div(t1, t2);
    return add(self, q, addc_scale("addcdiv", self, q, value));
}

}  // namespace ct

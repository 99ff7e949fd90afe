// unary.cpp - elementwise math functions and their backward formulas. Float functions promote integer
// and bool inputs to float32 (like PyTorch); neg/abs/sign/floor/ceil/round keep the input dtype.
// Activations (tanh, sigmoid, relu, gelu, silu, softplus) and clamp live in unary_activations.cpp.
#include <cmath>
#include "ops/unary_common.h"

namespace ct {

using unary::float_op;
using unary::record1;
using unary::same_dtype_op;
using unary::scalar;
using unary::zero_grad;

// ---- sign-like ops: keep the dtype ----

Tensor neg(const Tensor& x) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "neg: negation of a bool tensor is not supported; use logical_not");
    Tensor out = same_dtype_op<math::Neg>(x);
    return record1(out, "NegBackward", x, false, false, [](BackwardCtx& c) { return neg(c.grads[0]); });
}

Tensor abs(const Tensor& x) {
    Tensor out = same_dtype_op<math::Abs>(x);
    return record1(out, "AbsBackward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], sign(c.saved(0))); });
}

Tensor sign(const Tensor& x) {
    Tensor out = same_dtype_op<math::Sign>(x);
    return record1(out, "SignBackward", x, false, false, zero_grad);
}

// floor/ceil/round: integers are already integral, so they get a copy (as PyTorch).
Tensor floor(const Tensor& x) {
    if (!is_floating(x.dtype())) return clone(x);
    return record1(float_op<math::Floor>(x), "FloorBackward", x, false, false, zero_grad);
}

Tensor ceil(const Tensor& x) {
    if (!is_floating(x.dtype())) return clone(x);
    return record1(float_op<math::Ceil>(x), "CeilBackward", x, false, false, zero_grad);
}

Tensor round(const Tensor& x) {
    if (!is_floating(x.dtype())) return clone(x);
    return record1(float_op<math::Round>(x), "RoundBackward", x, false, false, zero_grad);
}

Tensor logical_not(const Tensor& x) {
    return unary_kernel<bool>(x, x.dtype(), [](auto) { return math::LogicalNot{}; });
}

// ---- exponentials, logarithms, roots ----

Tensor exp(const Tensor& x) {
    return record1(float_op<math::Exp>(x), "ExpBackward", x, false, true,
                   [](BackwardCtx& c) { return mul(c.grads[0], c.saved(0)); });
}

Tensor expm1(const Tensor& x) {
    // d/dx (e^x - 1) = y + 1
    return record1(float_op<math::Expm1>(x), "Expm1Backward", x, false, true,
                   [](BackwardCtx& c) { return mul(c.grads[0], add_scalar(c.saved(0), 1.0)); });
}

Tensor log(const Tensor& x) {
    return record1(float_op<math::Log>(x), "LogBackward", x, true, false,
                   [](BackwardCtx& c) { return div(c.grads[0], c.saved(0)); });
}

Tensor log1p(const Tensor& x) {
    return record1(float_op<math::Log1p>(x), "Log1pBackward", x, true, false,
                   [](BackwardCtx& c) { return div(c.grads[0], add_scalar(c.saved(0), 1.0)); });
}

Tensor sqrt(const Tensor& x) {
    // d/dx sqrt(x) = 1 / (2 y)
    return record1(float_op<math::Sqrt>(x), "SqrtBackward", x, false, true,
                   [](BackwardCtx& c) { return div(c.grads[0], mul_scalar(c.saved(0), 2.0)); });
}

Tensor rsqrt(const Tensor& x) {
    // d/dx x^(-1/2) = -1/2 x^(-3/2) = -1/2 y^3
    return record1(float_op<math::Rsqrt>(x), "RsqrtBackward", x, false, true, [](BackwardCtx& c) {
        return mul(c.grads[0], mul_scalar(pow_scalar(c.saved(0), 3.0), -0.5));
    });
}

Tensor reciprocal(const Tensor& x) {
    // d/dx 1/x = -y^2
    return record1(float_op<math::Reciprocal>(x), "ReciprocalBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], neg(mul(y, y)));
    });
}

Tensor pow_scalar(const Tensor& x, double exponent) {
    // The exponent is a float scalar: integer and bool tensors give float32 (PyTorch's x ** 2.0).
    Tensor out = unary::float_map(x, [exponent](auto tag) {
        using T = typename decltype(tag)::type;
        return math::PowScalar<T>{(T)exponent};
    });
    return record1(out, "PowBackward", x, true, false, [exponent](BackwardCtx& c) {
        // d/dx x^e = e * x^(e-1); exponent 0 gives a zero gradient (not 0 * x^-1, which is NaN at 0)
        if (exponent == 0.0) return zeros_like(c.grads[0]);
        return mul(c.grads[0], mul_scalar(pow_scalar(c.saved(0), exponent - 1.0), exponent));
    });
}

// ---- trigonometry ----

Tensor sin(const Tensor& x) {
    return record1(float_op<math::Sin>(x), "SinBackward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], cos(c.saved(0))); });
}

Tensor cos(const Tensor& x) {
    return record1(float_op<math::Cos>(x), "CosBackward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], neg(sin(c.saved(0)))); });
}

Tensor tan(const Tensor& x) {
    // d/dx tan(x) = 1 + y^2
    return record1(float_op<math::Tan>(x), "TanBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], add_scalar(mul(y, y), 1.0));
    });
}

}  // namespace ct

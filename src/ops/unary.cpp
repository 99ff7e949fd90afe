// unary.cpp - elementwise unary ops (math functions, activations, clamp) and their backward formulas,
// written with ops so that they can be differentiated again. Float functions promote integer and bool
// inputs to float32 (like PyTorch); neg/abs/sign/floor/ceil/round/relu keep the input dtype.
#include <cmath>
#include <cstring>
#include <type_traits>
#include <limits>
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
    if (is_complex(x.dtype())) return complex_abs(x);  // a float result (Note [Complex dtypes])
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
    if (is_complex(x.dtype())) fail_half_kernel(x.dtype());  // Note [Complex dtypes]: no order
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
    if (is_complex(x.dtype())) return logical_not(complex_truth(x));
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
        Tensor y = c.saved(0);
        return mul(c.grads[0], mul_scalar(mul(y, mul(y, y)), -0.5));
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

// ---- activations ----

Tensor tanh(const Tensor& x) {
    // d/dx tanh(x) = 1 - y^2
    return record1(float_op<math::Tanh>(x), "TanhBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], sub(scalar(1.0), mul(y, y)));
    });
}

Tensor sigmoid(const Tensor& x) {
    // d/dx sigmoid(x) = y (1 - y); complex: 1 / (1 + exp(-z)) (math::Sigmoid's branch on the sign needs an order)
    Tensor y = is_complex(x.dtype()) ? complex_unary<void>(x, [](auto) { return cmath::Sigmoid{}; })
                                     : float_op<math::Sigmoid>(x);
    return record1(y, "SigmoidBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], mul(y, sub(scalar(1.0), y)));
    });
}

namespace {
// relu's backward is torch's threshold_backward: 0 where y <= 0, else g (a NaN y passes g; an inf or NaN g
// where y <= 0 gives 0, not g * 0). relu_grad_fast computes it in one pass for a CPU float gradient that
// records no history (no create_graph), of y's shape and dtype, both contiguous; undefined otherwise, and
// the differentiable masked_fill form runs.
Tensor relu_grad_fast(const Tensor& g, const Tensor& y) {
    if (requires_grad(g) || !g.device().is_cpu() || !y.device().is_cpu() || g.dtype() != y.dtype() ||
        (g.dtype() != DType::Float32 && g.dtype() != DType::Float64) || g.sizes() != y.sizes() ||
        !g.is_contiguous() || !y.is_contiguous())
        return Tensor();
    Tensor out = empty_tensor(g.sizes(), g.dtype(), g.device());
    dispatch_float(g.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* gp0 = g.data<T>();
        const T* yp0 = y.data<T>();
        T* o0 = out.data<T>();
        parallel_for(g.numel(), int64_t(1) << 16, [=](int64_t b, int64_t e) {
            // a bitwise select, branch-free (the sign of y is unpredictable) and vectorisable
            using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
            const T* __restrict gp = gp0 + b;
            const T* __restrict yp = yp0 + b;
            T* __restrict o = o0 + b;
            for (int64_t i = 0; i < e - b; ++i) {
                U bits;
                std::memcpy(&bits, gp + i, sizeof bits);
                bits &= U(0) - U(!(yp[i] <= T(0)));
                std::memcpy(o + i, &bits, sizeof bits);
            }
        });
    });
    return out;
}
}  // namespace

Tensor relu(const Tensor& x) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "relu: bool tensors are not supported");
    Tensor out = unary::same_dtype_op<math::Relu>(x);
    return record1(out, "ReluBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        if (Tensor fast = relu_grad_fast(c.grads[0], y); fast.defined()) return fast;
        return masked_fill(c.grads[0], le(y, scalar(0.0)), 0.0);
    });
}

namespace {
// d gelu / dx = Phi(x) + x phi(x): a primitive of its own so that gelu can be differentiated twice.
Tensor gelu_grad(const Tensor& x) {
    return record1(float_op<math::GeluGrad>(x), "GeluBackwardBackward", x, true, false, [](BackwardCtx& c) {
        // d/dx (Phi + x phi) = phi (2 - x^2), phi(x) = exp(-x^2 / 2) / sqrt(2 pi)
        Tensor x = c.saved(0), x2 = mul(x, x);
        Tensor phi = mul_scalar(exp(mul_scalar(x2, -0.5)), 0.39894228040143267794);
        return mul(c.grads[0], mul(phi, sub(scalar(2.0), x2)));
    });
}
}  // namespace

Tensor gelu(const Tensor& x) {
    return record1(float_op<math::Gelu>(x), "GeluBackward", x, true, false,
                   [](BackwardCtx& c) { return mul(c.grads[0], gelu_grad(c.saved(0))); });
}

Tensor silu(const Tensor& x) {
    // d/dx x s(x) = s (1 + x (1 - s))
    return record1(float_op<math::Silu>(x), "SiluBackward", x, true, false, [](BackwardCtx& c) {
        Tensor x = c.saved(0), s = sigmoid(x);
        return mul(c.grads[0], mul(s, add_scalar(mul(x, sub(scalar(1.0), s)), 1.0)));
    });
}

Tensor softplus(const Tensor& x) {
    // d/dx log(1 + e^x) = sigmoid(x); 1 above the threshold where the forward returns x
    return record1(float_op<math::Softplus>(x), "SoftplusBackward", x, true, false, [](BackwardCtx& c) {
        Tensor x = c.saved(0);
        const Tensor& g = c.grads[0];
        return where(gt(x, scalar(20.0)), g, mul(g, sigmoid(x)));
    });
}

namespace {
bool is_integral_value(double v) { return std::isfinite(v) && v == std::floor(v); }
}  // namespace

Tensor clamp(const Tensor& x, std::optional<double> lo, std::optional<double> hi) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "clamp: bool tensors cannot be clamped");
    if (!lo && !hi) fail(CT_ERR_INVALID_ARGUMENT, "clamp: at least one of min and max must be given");
    double l = lo ? *lo : -INFINITY, h = hi ? *hi : INFINITY;
    // Bounds are language scalars: a fractional (or NaN) bound promotes an integer tensor to float32,
    // an integral one keeps its dtype (the C ABI cannot tell 2 from 2.0, so integral values count as ints).
    bool int_bounds = (!lo || is_integral_value(l) || std::isinf(l)) && (!hi || is_integral_value(h) || std::isinf(h));
    DType dt = is_floating(x.dtype()) || !int_bounds ? unary::float_of(x) : x.dtype();
    Tensor out = unary_kernel<void>(x, dt, [l, h](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point<T>::value) return math::Clamp<T>{(T)l, (T)h};
        else return math::Clamp<T>{math::convert<T>(l), math::convert<T>(h)};
    });
    return record1(out, "ClampBackward", x, true, false, [l, h](BackwardCtx& c) {
        // the gradient passes where lo <= x <= hi (PyTorch's rule, also at the bounds)
        Tensor x = c.saved(0);
        Tensor inside = logical_and(ge(x, scalar(l)), le(x, scalar(h)));
        return mul(c.grads[0], to_dtype(inside, c.grads[0].dtype()));
    });
}

}  // namespace ct

// unary_activations.cpp - activation functions (tanh, sigmoid, relu, gelu, silu, softplus) and clamp,
// with backward formulas written with ops so that they can be differentiated again.
#include <cmath>
#include <limits>
#include "ops/unary_common.h"

namespace ct {

using unary::float_op;
using unary::record1;
using unary::scalar;

Tensor tanh(const Tensor& x) {
    // d/dx tanh(x) = 1 - y^2
    return record1(float_op<math::Tanh>(x), "TanhBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], sub(scalar(1.0), mul(y, y)));
    });
}

Tensor sigmoid(const Tensor& x) {
    // d/dx sigmoid(x) = y (1 - y)
    return record1(float_op<math::Sigmoid>(x), "SigmoidBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], mul(y, sub(scalar(1.0), y)));
    });
}

Tensor relu(const Tensor& x) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "relu: bool tensors are not supported");
    Tensor out = unary::same_dtype_op<math::Relu>(x);
    return record1(out, "ReluBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], to_dtype(gt(y, scalar(0.0)), c.grads[0].dtype()));
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
// A bound converted to integer type T, saturated to T's range (so comparisons in T are exact).
template <typename T> T saturate(double v) {
    if (v <= (double)std::numeric_limits<T>::lowest()) return std::numeric_limits<T>::lowest();
    if (v >= (double)std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
    return (T)v;
}
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
        else return math::Clamp<T>{saturate<T>(l), saturate<T>(h)};
    });
    return record1(out, "ClampBackward", x, true, false, [l, h](BackwardCtx& c) {
        // the gradient passes where lo <= x <= hi (PyTorch's rule, also at the bounds)
        Tensor x = c.saved(0);
        Tensor inside = logical_and(ge(x, scalar(l)), le(x, scalar(h)));
        return mul(c.grads[0], to_dtype(inside, c.grads[0].dtype()));
    });
}

}  // namespace ct

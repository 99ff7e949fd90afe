// unary.cpp - elementwise unary ops and their backward formulas. Float ops promote integer inputs to
// float32 (like PyTorch); rounding/sign/abs/neg keep the input dtype.
#include <cmath>
#include "core/scalar_math.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

DType float_of(const Tensor& x) { return is_floating(x.dtype()) ? x.dtype() : DType::Float32; }

// Records a one-input node; back(c) returns the input gradient from c.grads[0].
template <typename Back>
Tensor record1(Tensor out, const char* name, const Tensor& x, bool save_x, bool save_out, Back back) {
    if (!requires_grad(x)) return out;
    DType dx = x.dtype();
    auto node = make_node(name, {x}, [back, dx](BackwardCtx& c) {
        Tensor g = back(c);
        return TensorList{g.dtype() == dx ? g : to_dtype(g, dx)};
    });
    if (save_x) node->save(x);
    if (save_out) node->save_output(out);
    set_history(out, node);
    return out;
}

}  // namespace

Tensor neg(const Tensor& x) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "neg: negation of a bool tensor is not supported; use logical_not");
    Tensor out = unary_kernel<void>(x, x.dtype(), [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T v) { return (T)-v; };
    });
    return record1(out, "NegBackward", x, false, false, [](BackwardCtx& c) { return neg(c.grads[0]); });
}

Tensor exp(const Tensor& x) {
    Tensor out = unary_kernel<void>(x, float_of(x), [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T v) { return std::exp(v); };
    });
    return record1(out, "ExpBackward", x, false, true, [](BackwardCtx& c) { return mul(c.grads[0], c.saved(0)); });
}

Tensor log(const Tensor& x) {
    Tensor out = unary_kernel<void>(x, float_of(x), [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T v) { return std::log(v); };
    });
    return record1(out, "LogBackward", x, true, false, [](BackwardCtx& c) { return div(c.grads[0], c.saved(0)); });
}

Tensor floor(const Tensor& x) {
    if (!is_floating(x.dtype())) return clone(x);
    Tensor out = unary_kernel<void>(x, x.dtype(), [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T v) { return std::floor(v); };
    });
    return record1(out, "FloorBackward", x, false, false, [](BackwardCtx& c) { return zeros_like(c.grads[0]); });
}

Tensor relu(const Tensor& x) {
    Tensor out = unary_kernel<void>(x, x.dtype(), [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T v) { return v > T(0) ? v : T(0); };
    });
    return record1(out, "ReluBackward", x, false, true, [](BackwardCtx& c) {
        Tensor y = c.saved(0);
        return mul(c.grads[0], to_dtype(gt(y, wrapped_scalar(0.0, false)), c.grads[0].dtype()));
    });
}

}  // namespace ct

namespace ct {

Tensor clamp(const Tensor& x, std::optional<double> lo, std::optional<double> hi) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "clamp: bool tensors cannot be clamped");
    if (!lo && !hi) fail(CT_ERR_INVALID_ARGUMENT, "clamp: at least one of min and max must be given");
    double l = lo ? *lo : -INFINITY, h = hi ? *hi : INFINITY;
    Tensor out = unary_kernel<void>(x, x.dtype(), [l, h](auto tag) {
        using T = typename decltype(tag)::type;
        return [l, h](T v) {
            double d = (double)v;
            if (d != d) return v;  // NaN stays NaN
            if (d < l) d = l;
            if (d > h) d = h;  // max wins when min > max, as PyTorch
            return (T)d;
        };
    });
    return record1(out, "ClampBackward", x, true, false, [l, h](BackwardCtx& c) {
        Tensor x = c.saved(0);
        Tensor inside = logical_and(ge(x, wrapped_scalar(l, false)), le(x, wrapped_scalar(h, false)));
        return mul(c.grads[0], to_dtype(inside, c.grads[0].dtype()));
    });
}

}  // namespace ct

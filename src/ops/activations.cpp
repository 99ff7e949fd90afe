// activations.cpp - torch.nn.functional's activations beyond relu/gelu/silu/softplus: the ELU family, leaky,
// parametric and randomized ReLU, the hard and shrink functions, threshold, mish, log-sigmoid, softsign,
// tanhshrink, softmin and GLU. Each is composed of existing ops (log_sigmoid's gradient is attached explicitly), so it runs on every device they do and autograd
// differentiates it (to any order). The compositions are chosen so that the gradient is PyTorch's at the kinks
// (which branch a where picks at x == bound) and never 0 * inf: a branch that could overflow where it is not
// selected reads a clamped input (Note [Masked branches]).
#include <cmath>
#include <optional>
#include "autograd/grad_mode.h"
#include "ops/ops.h"
#include "ops/unary_common.h"

namespace ct {

// Note [Masked branches]: where(c, a, b) sends a zero gradient into the unselected branch, and a zero times an
// infinite local derivative is NaN. elu's exp branch therefore reads min(x, 0), which is all it ever selects.

namespace {
Tensor wrapped(double v) { return wrapped_scalar(v, false); }
Tensor constant_like(const Tensor& x, double v) { return full_like(x, v); }
void check_bound(const char* op, const char* name, double v, bool non_negative) {
    if (std::isnan(v) || (non_negative && v < 0))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": ", name, " must be ", non_negative ? "at least 0" : "a number", ", got ", v);
}
}  // namespace

Tensor elu(const Tensor& x, double alpha, double scale, double input_scale) {
    check_floating("elu", x);
    Tensor negative = mul_scalar(expm1(mul_scalar(clamp(x, std::nullopt, 0.0), input_scale)), alpha);
    return mul_scalar(where(gt(x, wrapped(0.0)), x, negative), scale);
}

Tensor leaky_relu(const Tensor& x, double negative_slope) {
    check_floating("leaky_relu", x);
    return where(gt(x, wrapped(0.0)), x, mul_scalar(x, negative_slope));
}

Tensor hardtanh(const Tensor& x, double min_val, double max_val) {
    check_floating("hardtanh", x);
    check_bound("hardtanh", "min_val", min_val, false);
    check_bound("hardtanh", "max_val", max_val, false);
    if (min_val > max_val) min_val = max_val;  // torch's clamp(x, min, max) = max everywhere then
    // x <= min -> min, x >= max -> max, else x (NaN stays NaN): the gradient flows strictly inside, as torch's
    return where(le(x, wrapped(min_val)), constant_like(x, min_val),
                 where(ge(x, wrapped(max_val)), constant_like(x, max_val), x));
}

Tensor hardsigmoid(const Tensor& x) {
    check_floating("hardsigmoid", x);
    return where(le(x, wrapped(-3.0)), constant_like(x, 0.0),
                 where(ge(x, wrapped(3.0)), constant_like(x, 1.0), add_scalar(mul_scalar(x, 1.0 / 6.0), 0.5)));
}

Tensor hardswish(const Tensor& x) {
    check_floating("hardswish", x);
    // x < -3 -> 0 x (so -inf gives NaN, as torch's x * relu6(x + 3) / 6), -3 <= x <= 3 -> x (x + 3) / 6, x > 3 -> x:
    // the gradient of torch's formula, -1/2 at -3 and 3/2 at 3
    Tensor middle = mul_scalar(mul(x, add_scalar(x, 3.0)), 1.0 / 6.0);
    return where(lt(x, wrapped(-3.0)), mul_scalar(x, 0.0), where(le(x, wrapped(3.0)), middle, x));
}

Tensor softshrink(const Tensor& x, double lambd) {
    check_floating("softshrink", x);
    check_bound("softshrink", "lambd", lambd, true);
    return where(gt(x, wrapped(lambd)), add_scalar(x, -lambd),
                 where(lt(x, wrapped(-lambd)), add_scalar(x, lambd), constant_like(x, 0.0)));
}

Tensor hardshrink(const Tensor& x, double lambd) {
    check_floating("hardshrink", x);
    check_bound("hardshrink", "lambd", lambd, false);
    // 0 inside [-lambd, lambd], x elsewhere (NaN stays NaN)
    return where(logical_and(ge(x, wrapped(-lambd)), le(x, wrapped(lambd))), constant_like(x, 0.0), x);
}

Tensor threshold(const Tensor& x, double threshold_value, double value) {
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "threshold: bool tensors are not supported");
    return where(le(x, wrapped(threshold_value)), constant_like(x, value), x);  // NaN stays NaN, as torch
}

Tensor mish(const Tensor& x) {
    check_floating("mish", x);
    return mul(x, tanh(softplus(x)));
}

Tensor log_sigmoid(const Tensor& x) {
    check_floating("log_sigmoid", x);
    // min(x, 0) - log1p(exp(-|x|)) is stable everywhere, but its pieces have kinks at 0 that the function does
    // not: computed without recording, with the gradient sigmoid(-x) (differentiable again) attached
    Tensor out;
    {
        NoGradGuard no_grad;
        out = sub(clamp(x, std::nullopt, 0.0), log1p(exp(neg(abs(x)))));
    }
    return unary::record1(out, "LogSigmoidBackward", x, true, false,
                          [](BackwardCtx& c) { return mul(c.grads[0], sigmoid(neg(c.saved(0)))); });
}

Tensor softsign(const Tensor& x) {
    check_floating("softsign", x);
    return div(x, add_scalar(abs(x), 1.0));
}

Tensor tanhshrink(const Tensor& x) {
    check_floating("tanhshrink", x);
    return sub(x, tanh(x));
}

Tensor softmin(const Tensor& x, int64_t dim) {
    check_floating("softmin", x);
    return softmax(neg(x), dim);
}

Tensor glu(const Tensor& x, int64_t dim) {
    if (x.dim() == 0) fail(CT_ERR_SHAPE, "glu: a 0-d tensor has no dimension to halve");
    int64_t d = wrap_dim(dim, x.dim(), "glu");
    const int64_t n = x.size(d);
    if (n % 2 != 0) fail(CT_ERR_SHAPE, "glu: halving dimension ", dim, " must have an even size, got ", n);
    check_floating("glu", x);
    return mul(narrow(x, d, 0, n / 2), sigmoid(narrow(x, d, n / 2, n / 2)));
}

Tensor prelu(const Tensor& x, const Tensor& weight) {
    check_floating("prelu", x);
    check_floating("prelu", weight);
    if (weight.dim() > 1) fail(CT_ERR_SHAPE, "prelu: weight must be 0-d or 1-d, got ", weight.dim(), " dims");
    const int64_t channels = x.dim() >= 2 ? x.size(1) : 1;
    if (weight.numel() != 1 && weight.numel() != channels)
        fail(CT_ERR_SHAPE, "prelu: weight has ", weight.numel(), " elements; expected 1 or the ", channels,
             " channels of x (dim 1)");
    Shape wshape;  // 0-d when one weight serves every element; [C, 1, ..., 1] (against x's dims 1..) per channel
    if (weight.numel() != 1) {
        wshape.push_back(channels);
        for (int64_t k = 2; k < x.dim(); ++k) wshape.push_back(1);
    }
    return where(gt(x, wrapped(0.0)), x, mul(reshape(weight, wshape), x));
}

Tensor rrelu(const Tensor& x, double lower, double upper, bool training, Generator* gen) {
    check_floating("rrelu", x);
    check_bound("rrelu", "lower", lower, false);
    check_bound("rrelu", "upper", upper, false);
    if (lower > upper)
        fail(CT_ERR_INVALID_ARGUMENT, "rrelu: lower (", lower, ") must not exceed upper (", upper, ")");
    if (!training) return leaky_relu(x, (lower + upper) / 2);
    Tensor slope;  // x > 0: 1; else r ~ U(lower, upper); a constant of the graph (torch's noise)
    {
        NoGradGuard no_grad;
        Tensor r = add_scalar(mul_scalar(rand(x.sizes(), x.dtype(), x.device(), gen), upper - lower), lower);
        slope = where(gt(x, wrapped(0.0)), constant_like(x, 1.0), r);
    }
    return mul(x, slope);
}

}  // namespace ct

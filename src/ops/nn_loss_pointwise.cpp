// nn_loss_pointwise.cpp - torch.nn.functional's elementwise losses beyond mse/bce: l1, smooth_l1, huber, kl_div,
// soft_margin, poisson_nll, gaussian_nll, hinge_embedding and margin_ranking. Each is torch 1.13's formula
// composed of differentiable ops (so it runs on every device they do, to any order of derivative), input and
// target broadcast together and the result reduced by apply_reduction.
#include <cmath>
#include "autograd/grad_mode.h"
#include "ops/nn_common.h"
#include "ops/unary_common.h"

namespace ct {

Tensor apply_reduction(const Tensor& loss, Reduction r) {
    if (r == Reduction::None) return loss;
    return r == Reduction::Mean ? mean(loss, {}, false) : sum(loss, {}, false);
}

void check_loss_pair(const char* op, const Tensor& input, const Tensor& target) {
    check_same_device(op, input, target);
    check_floating(op, input);
    broadcast_shapes(op, input.sizes(), target.sizes());
}

namespace {

Tensor wrapped(double v) { return wrapped_scalar(v, false); }

// Note [Loss branches]: smooth_l1 and huber pick their quadratic branch where |d| < bound, as torch's kernels
// do; the quadratic reads d * d (not |d| squared) so that its gradient at d == 0 is 0 without abs's kink, and
// the linear branch's gradient is sign(d), torch's at |d| >= bound.
Tensor piecewise_quadratic(const Tensor& d, double bound, const Tensor& quadratic, const Tensor& linear) {
    return where(lt(abs(d), wrapped(bound)), quadratic, linear);
}

// smooth_l1 with beta 0: |d| with torch 1.13's gradients at d == 0, which come from its kernel's d <= -beta branch:
// -1 for the input and, as torch differentiates the target by the same kernel with the roles swapped, -1 for the
// target too (not abs's 0, and not minus the input's). f(z) = (z <= 0 ? -z : z) is |z| with f'(0) = -1; the target's
// term f(t - x) enters with x detached, and a detached f(x - t) takes it back out of the value (exactly: both are
// |d| bit for bit).
Tensor smooth_l1_beta0(const Tensor& input, const Tensor& target, const Tensor& d) {
    auto f = [](const Tensor& z) { return where(le(z, wrapped(0.0)), neg(z), z); };
    if (!requires_grad(target)) return f(d);
    Tensor xd = detach(input), td = detach(target);
    return add(f(sub(input, td)), sub(f(sub(target, xd)), f(sub(xd, td))));
}

}  // namespace

Tensor l1_loss(const Tensor& input, const Tensor& target, Reduction r) {
    check_loss_pair("l1_loss", input, target);
    return apply_reduction(abs(sub(input, target)), r);
}

Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, Reduction r, double beta) {
    check_loss_pair("smooth_l1_loss", input, target);
    if (!(beta >= 0))
        fail(CT_ERR_INVALID_ARGUMENT, "smooth_l1_loss: beta must be at least 0, got ", beta);
    Tensor d = sub(input, target);
    if (beta == 0) return apply_reduction(smooth_l1_beta0(input, target, d), r);
    Tensor quadratic = mul_scalar(mul(d, d), 0.5 / beta), linear = add_scalar(abs(d), -0.5 * beta);
    return apply_reduction(piecewise_quadratic(d, beta, quadratic, linear), r);
}

Tensor huber_loss(const Tensor& input, const Tensor& target, Reduction r, double delta) {
    check_loss_pair("huber_loss", input, target);
    if (!(delta > 0)) fail(CT_ERR_INVALID_ARGUMENT, "huber_loss: delta must be positive, got ", delta);
    Tensor d = sub(input, target);
    Tensor quadratic = mul_scalar(mul(d, d), 0.5), linear = mul_scalar(add_scalar(abs(d), -0.5 * delta), delta);
    return apply_reduction(piecewise_quadratic(d, delta, quadratic, linear), r);
}

Tensor kl_div(const Tensor& input, const Tensor& target, Reduction r, bool log_target) {
    check_loss_pair("kl_div", input, target);
    Tensor pointwise;
    if (log_target) {
        pointwise = mul(exp(target), sub(target, input));
    } else {
        // xlogy(target, target) - target * input: a zero target's log reads log(1), so 0 log 0 counts as 0 and adds
        // 0 to the target's gradient there (torch's xlogy gives NaN)
        Tensor safe = where(eq(target, wrapped(0.0)), wrapped(1.0), target);
        pointwise = sub(mul(target, log(safe)), mul(target, input));
    }
    if (r != Reduction::BatchMean) return apply_reduction(pointwise, r);
    Tensor total = sum(pointwise, {}, false);  // torch: the sum divided by the batch size (dim 0 of input)
    return input.dim() == 0 ? total : div(total, wrapped((double)input.size(0)));
}

Tensor soft_margin_loss(const Tensor& input, const Tensor& target, Reduction r) {
    check_loss_pair("soft_margin_loss", input, target);
    if (broadcast_shapes("soft_margin_loss", input.sizes(), target.sizes()) != input.sizes())
        fail(CT_ERR_SHAPE, "soft_margin_loss: target of shape ", shape_str(target.sizes()),
             " must broadcast to the input's shape ", shape_str(input.sizes()));
    return apply_reduction(log1p(exp(neg(mul(input, target)))), r);
}

Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps, Reduction r) {
    check_loss_pair("poisson_nll_loss", input, target);
    Tensor loss = log_input ? sub(exp(input), mul(target, input))
                            : sub(input, mul(target, log(add_scalar(input, eps))));
    if (!full) return apply_reduction(loss, r);
    // Stirling's term t log t - t + log(2 pi t) / 2, only where t > 1; it reads max(t, 1) so that it adds 0 to the
    // masked elements' gradient (torch's is NaN at t == 0: Note [Masked branches] in activations.cpp)
    Tensor t = is_floating(target.dtype()) ? target : to_dtype(target, input.dtype());
    Tensor big = gt(t, wrapped(1.0)), tc = where(big, t, wrapped(1.0));
    Tensor stirling = add(sub(mul(tc, log(tc)), tc), mul_scalar(log(mul_scalar(tc, 2 * M_PI)), 0.5));
    return apply_reduction(add(loss, where(big, stirling, wrapped(0.0))), r);
}

namespace {

// var as torch 1.13 accepts it for input's shape: the same shape, or one dim short (unsqueezed), or with a last
// dim of 1 (homoscedastic).
Tensor gaussian_var(const Tensor& input, const Tensor& var) {
    if (var.sizes() == input.sizes()) return var;
    const Shape& si = input.sizes();
    const Shape& sv = var.sizes();
    Shape lead(si.begin(), si.empty() ? si.end() : si.end() - 1);
    if (!si.empty() && sv == lead) return unsqueeze(var, -1);
    if (!si.empty() && !sv.empty() && sv.back() == 1 && Shape(sv.begin(), sv.end() - 1) == lead) return var;
    fail(CT_ERR_SHAPE, "gaussian_nll_loss: var of shape ", shape_str(sv), " is of incorrect size for input of shape ",
         shape_str(si), " (expected the input's shape, or it without or with 1 as its last dim)");
}

}  // namespace

Tensor gaussian_nll_loss(const Tensor& input, const Tensor& target, const Tensor& var0, bool full, double eps,
                         Reduction r) {
    const char* op = "gaussian_nll_loss";
    check_loss_pair(op, input, target);
    check_same_device(op, input, var0);
    check_floating(op, var0);
    Tensor var = gaussian_var(input, var0);
    broadcast_shapes(op, broadcast_shapes(op, input.sizes(), target.sizes()), var.sizes());
    if (!(eps >= 0)) fail(CT_ERR_INVALID_ARGUMENT, op, ": eps must be at least 0, got ", eps);
    {
        NoGradGuard no_grad;
        if (var.numel() && item(any(lt(var, wrapped(0.0)), {}, false)) != 0)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": var has negative entries");
    }
    // torch clamps var at eps in place under no_grad: the value is max(var, eps), the gradient passes unchanged
    Tensor clamped;
    {
        NoGradGuard no_grad;
        clamped = clamp(var, eps, std::nullopt);
    }
    clamped = unary::record1(clamped, "GaussianNllVarClampBackward", var, false, false,
                             [](BackwardCtx& c) { return c.grads[0]; });
    Tensor d = sub(input, target);
    Tensor loss = mul_scalar(add(log(clamped), div(mul(d, d), clamped)), 0.5);
    if (full) loss = add_scalar(loss, 0.5 * std::log(2 * M_PI));
    return apply_reduction(loss, r);
}

Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target, double margin, Reduction r) {
    check_loss_pair("hinge_embedding_loss", input, target);
    // torch: where(target != 1, max(margin - x, 0), 0) + where(target != -1, x, 0)
    Tensor margin_clamp = clamp(add_scalar(neg(input), margin), 0.0, std::nullopt);
    Tensor out = add(where(ne(target, wrapped(1.0)), margin_clamp, wrapped(0.0)),
                     where(ne(target, wrapped(-1.0)), input, wrapped(0.0)));
    return apply_reduction(out, r);
}

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                           Reduction r) {
    const char* op = "margin_ranking_loss";
    if (input1.dim() != input2.dim() || input1.dim() != target.dim())
        fail(CT_ERR_SHAPE, op, ": all input tensors should have the same number of dims, got input1 ",
             shape_str(input1.sizes()), ", input2 ", shape_str(input2.sizes()), " and target ",
             shape_str(target.sizes()));
    check_loss_pair(op, input1, input2);
    check_same_device(op, input1, target);
    broadcast_shapes(op, broadcast_shapes(op, input1.sizes(), input2.sizes()), target.sizes());
    // torch: max(-target * (input1 - input2) + margin, 0)
    return apply_reduction(clamp(add_scalar(mul(neg(target), sub(input1, input2)), margin), 0.0, std::nullopt), r);
}

}  // namespace ct

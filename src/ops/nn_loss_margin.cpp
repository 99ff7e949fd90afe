// nn_loss_margin.cpp - torch.nn.functional's losses over a class or feature dim: multilabel_soft_margin,
// multi_margin, cosine_embedding and triplet_margin. Each is torch 1.13's formula (shape rules and defaults as
// torch's) composed of differentiable ops, so it runs on every device they do, to any order of derivative.
#include <cmath>
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

Tensor wrapped(double v) { return wrapped_scalar(v, false); }

// Checks class targets for multi_margin: integer (int64 or int32) with values in [0, classes).
void check_margin_targets(const char* op, const Tensor& target, int64_t classes) {
    if (target.dtype() != DType::Int64 && target.dtype() != DType::Int32)
        fail(CT_ERR_DTYPE, op, ": expected integer class targets (int64 or int32), got ", dtype_name(target.dtype()));
    NoGradGuard no_grad;
    Tensor t = to_dtype(contiguous(target.device().is_cpu() ? target : to_device(target, Device{})), DType::Int64);
    const int64_t* p = t.data<int64_t>();
    for (int64_t i = 0; i < t.numel(); ++i)
        if (p[i] < 0 || p[i] >= classes)
            fail(CT_ERR_INDEX, op, ": target ", p[i], " is out of range for ", classes, " classes");
}

// torch 1.13's pairwise_distance: the p-norm of x1 - x2 + eps over the last dim (all of a 0-d difference).
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps) {
    Tensor d = add_scalar(sub(x1, x2), eps);
    return norm(d, p, d.dim() == 0 ? IntList{} : IntList{-1}, false);
}

}  // namespace

Tensor multilabel_soft_margin_loss(const Tensor& input, const Tensor& target, const Tensor& weight, Reduction r) {
    const char* op = "multilabel_soft_margin_loss";
    check_loss_pair(op, input, target);
    if (input.dim() == 0) fail(CT_ERR_SHAPE, op, ": expected an input with a class dim (its last), got a 0-d tensor");
    // torch: -(t log_sigmoid(x) + (1 - t) log_sigmoid(-x)) [* weight], summed over the class dim / C
    Tensor loss = neg(add(mul(target, log_sigmoid(input)), mul(add_scalar(neg(target), 1.0), log_sigmoid(neg(input)))));
    if (weight.defined()) {
        check_same_device(op, input, weight);
        check_floating(op, weight);
        broadcast_shapes(op, loss.sizes(), weight.sizes());
        loss = mul(loss, weight);
    }
    const int64_t class_dim = input.dim() - 1;
    loss = div(sum(loss, {class_dim}, false), wrapped((double)input.size(class_dim)));
    return apply_reduction(loss, r);
}

Tensor multi_margin_loss(const Tensor& input, const Tensor& target, int64_t p, double margin, const Tensor& weight,
                         Reduction r) {
    // Note [Half compute]
    if (auto h = half_dtype_of(input, weight))
        return round_results(multi_margin_loss(as_float32(input), target, p, margin, as_float32(weight), r), *h);
    const char* op = "multi_margin_loss";
    check_same_device(op, input, target);
    check_floating(op, input);
    if (p != 1 && p != 2) fail(CT_ERR_INVALID_ARGUMENT, op, ": only p == 1 and p == 2 are supported, got ", p);
    const int64_t nd = input.dim();
    if (nd > 2 || (nd <= 1 && input.numel() == 0) || (nd == 2 && input.size(1) == 0))
        fail(CT_ERR_SHAPE, op, ": expected a non-empty vector or matrix (with an optional empty batch), got ",
             shape_str(input.sizes()));
    const int64_t rows = nd <= 1 ? 1 : input.size(0), classes = nd == 0 ? 1 : input.size(nd - 1);
    if (target.dim() > 1 || target.numel() != rows)
        fail(CT_ERR_SHAPE, op, ": expected a target of ", rows, " class(es) for input of shape ",
             shape_str(input.sizes()), ", got ", shape_str(target.sizes()));
    if (weight.defined()) {
        check_same_device(op, input, weight);
        check_floating(op, weight);
        if (weight.dim() != 1 || weight.numel() != classes)
            fail(CT_ERR_SHAPE, op, ": expected a weight of shape [", classes, "], got ", shape_str(weight.sizes()));
    }
    check_margin_targets(op, target, classes);
    Tensor x = reshape(input, {rows, classes}), y = reshape(to_dtype(target, DType::Int64), {rows, 1});
    // z_i = margin - x_y + x_i (torch's order of rounding); h_i = max(z_i, 0)^p over i != y, gradient where z_i > 0
    Tensor z = add(add_scalar(neg(gather(x, 1, y)), margin), x);
    Tensor h = where(gt(z, wrapped(0.0)), z, wrapped(0.0));
    if (p == 2) h = mul(h, h);
    if (weight.defined()) h = mul(h, reshape(index_select(weight, 0, reshape(y, {rows})), {rows, 1}));
    Tensor classes_row = reshape(arange(0, (double)classes, 1, DType::Int64, input.device()), {1, classes});
    h = where(eq(classes_row, y), wrapped(0.0), h);
    Tensor per = div(sum(h, {1}, false), wrapped((double)classes));
    if (r == Reduction::None) return target.dim() == 0 ? reshape(per, {}) : per;
    return apply_reduction(per, r);
}

Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                             Reduction r) {
    const char* op = "cosine_embedding_loss";
    check_loss_pair(op, input1, input2);
    check_same_device(op, input1, target);
    check_floating(op, input2);
    const int64_t td = target.dim();
    if (td > 1) fail(CT_ERR_SHAPE, op, ": expected a 0-d or 1-d target, got ", shape_str(target.sizes()));
    if (input1.dim() != td + 1 || input2.dim() != td + 1)
        fail(CT_ERR_SHAPE, op, ": a ", td, "-d target expects ", td + 1, "-d inputs, got ", shape_str(input1.sizes()),
             " and ", shape_str(input2.sizes()));
    // torch: cos = sum(x1 x2) / sqrt((sum(x1^2) + 1e-12)(sum(x2^2) + 1e-12)) over the feature dim;
    // 1 - cos where target == 1, max(cos - margin, 0) where target == -1, else 0
    const double kEps = 1e-12;
    Tensor prod_sum = sum(mul(input1, input2), {td}, false);
    Tensor mag1 = add_scalar(sum(mul(input1, input1), {td}, false), kEps);
    Tensor mag2 = add_scalar(sum(mul(input2, input2), {td}, false), kEps);
    Tensor cos = div(prod_sum, sqrt(mul(mag1, mag2)));
    broadcast_shapes(op, cos.sizes(), target.sizes());
    Tensor pos = add_scalar(neg(cos), 1.0), negative = clamp(add_scalar(cos, -margin), 0.0, std::nullopt);
    Tensor out = add(where(eq(target, wrapped(1.0)), pos, wrapped(0.0)),
                     where(eq(target, wrapped(-1.0)), negative, wrapped(0.0)));
    return apply_reduction(out, r);
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin,
                           double p, double eps, bool swap, Reduction r) {
    const char* op = "triplet_margin_loss";
    if (anchor.dim() != positive.dim() || anchor.dim() != negative.dim())
        fail(CT_ERR_SHAPE, op, ": all inputs should have the same number of dims, got ", shape_str(anchor.sizes()),
             ", ",
             shape_str(positive.sizes()), " and ", shape_str(negative.sizes()));
    check_loss_pair(op, anchor, positive);
    check_loss_pair(op, anchor, negative);
    check_floating(op, positive);
    check_floating(op, negative);
    broadcast_shapes(op, broadcast_shapes(op, anchor.sizes(), positive.sizes()), negative.sizes());
    if (std::isnan(p) || p < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": p must be at least 0, got ", p);
    // torch: max(margin + d(a, p) - d(a, n), 0), d(a, n) replaced by min(d(a, n), d(p, n)) when swap
    Tensor dist_pos = pairwise_distance(anchor, positive, p, eps);
    Tensor dist_neg = pairwise_distance(anchor, negative, p, eps);
    if (swap) dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps));
    return apply_reduction(clamp(sub(add_scalar(dist_pos, margin), dist_neg), 0.0, std::nullopt), r);
}

}  // namespace ct

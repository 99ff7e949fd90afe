// nn_loss_class.cpp - the full PyTorch forms of cross_entropy and nll_loss around the fused row kernels of
// nn_loss.cpp: inputs [N, C, d1, ...] with targets [N, d1, ...], class weights, label smoothing, and class
// probability targets. The plain case (no weight, no smoothing) runs the fused kernels on the input with
// its class dim moved last; the rest is composed of differentiable ops (log_softmax, gather, sum, ...).
#include <cmath>
#include "autograd/grad_mode.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// Number of classes: dim 1, or dim 0 of a [C] input.
int64_t class_count(const Tensor& x) { return x.dim() == 1 ? x.size(0) : x.size(1); }

// The shape of the per-element losses: [] for a [C] input, else x's shape without dim 1.
Shape batch_shape(const Tensor& x) {
    Shape s = x.sizes();
    if (x.dim() == 1) return {};
    s.erase(s.begin() + 1);
    return s;
}

// x [N, C, d...] as [N * prod(d), C] (class dim last); [C] and [N, C] are returned as they are.
Tensor classes_last(const Tensor& x) {
    if (x.dim() <= 2) return x;
    IntList perm{0};
    for (int64_t d = 2; d < x.dim(); ++d) perm.push_back(d);
    perm.push_back(1);
    int64_t rows = 1;
    for (int64_t d : batch_shape(x)) rows *= d;
    return reshape(permute(x, perm), {rows, x.size(1)});
}

void check_input(const char* op, const Tensor& x) {
    check_floating(op, x);
    if (x.dim() < 1)
        fail(CT_ERR_SHAPE, op, ": expected input of shape [C], [N, C] or [N, C, d1, ...], got a 0-d tensor");
}

// Checks a class weight vector: [C], floating, on x's device.
void check_weight(const char* op, const Tensor& x, const Tensor& weight) {
    if (!weight.defined()) return;
    check_same_device(op, x, weight);
    check_floating(op, weight);
    if (weight.dtype() != x.dtype())  // torch 1.13 raises too ("expected scalar type Float but found Double")
        fail(CT_ERR_DTYPE, op, ": the weight (", dtype_name(weight.dtype()), ") must have the input's dtype (",
             dtype_name(x.dtype()), ")");
    if (weight.dim() != 1 || weight.size(0) != class_count(x))
        fail(CT_ERR_SHAPE, op, ": expected a weight of shape [", class_count(x), "] for input of shape ",
             shape_str(x.sizes()), ", got ", shape_str(weight.sizes()));
}

// Checks integer class targets: dtype and shape batch_shape(x). Their values are range-checked by
// check_class_values on the composed path, and by the fused kernels' class_targets (nn_loss.cpp) otherwise,
// so a CUDA target is read back to the host once.
void check_class_targets(const char* op, const Tensor& x, const Tensor& target) {
    check_same_device(op, x, target);
    if (target.dtype() != DType::Int64 && target.dtype() != DType::Int32)
        fail(CT_ERR_DTYPE, op, ": expected integer class targets (int64 or int32) or floating class probabilities, got ",
             dtype_name(target.dtype()));
    if (target.sizes() != batch_shape(x))
        fail(CT_ERR_SHAPE, op, ": expected target of shape ", shape_str(batch_shape(x)), " for input of shape ",
             shape_str(x.sizes()), ", got ", shape_str(target.sizes()));
}

// Checks that class target values are in [0, C) or equal ignore_index.
void check_class_values(const char* op, const Tensor& x, const Tensor& target, int64_t ignore_index) {
    NoGradGuard ng;
    Tensor t = to_dtype(contiguous(target.device().is_cpu() ? target : to_device(target, Device{})), DType::Int64);
    const int64_t* p = t.data<int64_t>();
    const int64_t classes = class_count(x);
    for (int64_t i = 0; i < t.numel(); ++i)
        if (p[i] != ignore_index && (p[i] < 0 || p[i] >= classes))
            fail(CT_ERR_INDEX, op, ": target ", p[i], " is out of bounds for ", classes, " classes");
}

// Reduces per-element losses [M]: none -> batch shape, sum, or mean = sum / denom.
Tensor reduce_losses(const Tensor& per, Reduction r, const Tensor& denom, const Shape& none_shape) {
    if (r == Reduction::None) return reshape(per, none_shape);
    Tensor total = sum(per, {}, false);
    return r == Reduction::Sum ? total : div(total, denom);
}

// nll of log-probabilities lp [M, C] (or [C]) with class targets t [M] (or []), weights and smoothing.
Tensor weighted_class_nll(const Tensor& lp, const Tensor& t, const Tensor& weight, Reduction r, int64_t ignore_index,
                          double smoothing, const Shape& none_shape) {
    Tensor valid = ne(t, wrapped_scalar((double)ignore_index, true));
    Tensor safe = where(valid, t, zeros({}, t.dtype(), t.device()));
    Tensor picked = squeeze(gather(lp, -1, unsqueeze(safe, -1)), -1);
    Tensor w_t = to_dtype(valid, lp.dtype());  // weight of each element's target class, 0 when ignored
    if (weight.defined()) w_t = mul(w_t, reshape(index_select(weight, 0, reshape(safe, {-1})), safe.sizes()));
    Tensor denom = sum(w_t, {}, false);
    Tensor nll = reduce_losses(neg(mul(w_t, picked)), r, denom, none_shape);
    if (smoothing == 0.0) return nll;
    // PyTorch: (1 - e) * nll + e / C * sum_c(-w_c * lp_c), the second term zero for ignored elements and
    // normalised like nll under mean.
    Tensor wlp = weight.defined() ? mul(lp, weight) : lp;
    Tensor smooth = mul(neg(sum(wlp, {-1}, false)), to_dtype(valid, lp.dtype()));
    smooth = reduce_losses(smooth, r, denom, none_shape);
    double classes = (double)lp.size(-1);
    return add(mul_scalar(nll, 1.0 - smoothing), mul_scalar(smooth, smoothing / classes));
}

// cross_entropy with class probabilities p of x's shape: -sum_c w_c p_c log_softmax(x)_c per element.
Tensor probability_cross_entropy(const Tensor& x, const Tensor& target, const Tensor& weight, Reduction r,
                                 double smoothing) {
    const char* op = "cross_entropy";
    check_same_device(op, x, target);
    check_floating(op, target);
    if (target.sizes() != x.sizes())
        fail(CT_ERR_SHAPE, op, ": class probability targets must have the input's shape ", shape_str(x.sizes()),
             ", got ", shape_str(target.sizes()));
    Tensor lp = log_softmax(classes_last(x), -1), p = classes_last(target);
    double classes = (double)class_count(x);
    if (smoothing > 0.0) p = add(mul_scalar(p, 1.0 - smoothing), wrapped_scalar(smoothing / classes, false));
    if (weight.defined()) lp = mul(lp, weight);
    Tensor per = neg(sum(mul(lp, p), {-1}, false));
    int64_t elements = x.dim() == 1 ? 1 : per.numel();
    return reduce_losses(per, r, scalar_tensor((double)elements, per.dtype(), per.device()), batch_shape(x));
}

}  // namespace

Tensor cross_entropy_ex(const Tensor& logits, const Tensor& target, const Tensor& weight, Reduction r,
                        int64_t ignore_index, double label_smoothing) {
    const char* op = "cross_entropy";
    check_input(op, logits);
    check_weight(op, logits, weight);
    if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": label_smoothing must be in [0, 1], got ", label_smoothing);
    if (is_floating(target.dtype())) return probability_cross_entropy(logits, target, weight, r, label_smoothing);
    check_class_targets(op, logits, target);
    Tensor x = classes_last(logits), t = x.dim() == 2 ? reshape(target, {x.size(0)}) : target;
    if (!weight.defined() && label_smoothing == 0.0) {
        Tensor out = cross_entropy(x, t, r, ignore_index);
        return r == Reduction::None ? reshape(out, batch_shape(logits)) : out;
    }
    check_class_values(op, logits, target, ignore_index);
    return weighted_class_nll(log_softmax(x, -1), t, weight, r, ignore_index, label_smoothing, batch_shape(logits));
}

Tensor nll_loss_ex(const Tensor& log_probs, const Tensor& target, const Tensor& weight, Reduction r,
                   int64_t ignore_index) {
    const char* op = "nll_loss";
    check_input(op, log_probs);
    check_weight(op, log_probs, weight);
    check_class_targets(op, log_probs, target);
    Tensor x = classes_last(log_probs), t = x.dim() == 2 ? reshape(target, {x.size(0)}) : target;
    if (!weight.defined()) {
        Tensor out = nll_loss(x, t, r, ignore_index);
        return r == Reduction::None ? reshape(out, batch_shape(log_probs)) : out;
    }
    check_class_values(op, log_probs, target, ignore_index);
    return weighted_class_nll(x, t, weight, r, ignore_index, 0.0, batch_shape(log_probs));
}

}  // namespace ct

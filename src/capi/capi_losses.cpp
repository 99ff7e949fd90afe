// capi_losses.cpp - C API: the losses of ops/nn_loss_pointwise.cpp, ops/nn_loss_margin.cpp and ops/nn_ctc.cpp
// (torch.nn.functional names; reduction codes as the other losses take them).
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

namespace {
// *out = f() (which reads the handles and the reduction code), in the C API's error contract.
template <typename F> ct_status loss(const char* op, ct_tensor* out, F f) {
    return guard([&] {
        check_out(out, op);
        *out = new_tensor_handle(f());
    });
}
}  // namespace

extern "C" {

ct_status ct_l1_loss(ct_tensor input, ct_tensor target, int32_t reduction, ct_tensor* out) {
    const char* op = "l1_loss";
    return loss(op, out, [&] {
        return l1_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"), reduction_arg(reduction, op));
    });
}
ct_status ct_smooth_l1_loss(ct_tensor input, ct_tensor target, int32_t reduction, double beta, ct_tensor* out) {
    const char* op = "smooth_l1_loss";
    return loss(op, out, [&] {
        return smooth_l1_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"),
                              reduction_arg(reduction, op), beta);
    });
}
ct_status ct_huber_loss(ct_tensor input, ct_tensor target, int32_t reduction, double delta, ct_tensor* out) {
    const char* op = "huber_loss";
    return loss(op, out, [&] {
        return huber_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"),
                          reduction_arg(reduction, op), delta);
    });
}
ct_status ct_kl_div(ct_tensor input, ct_tensor target, int32_t reduction, int32_t log_target, ct_tensor* out) {
    const char* op = "kl_div";
    return loss(op, out, [&] {
        return kl_div(get_tensor(input, op, "input"), get_tensor(target, op, "target"),
                      reduction_arg(reduction, op, true), log_target != 0);
    });
}
ct_status ct_soft_margin_loss(ct_tensor input, ct_tensor target, int32_t reduction, ct_tensor* out) {
    const char* op = "soft_margin_loss";
    return loss(op, out, [&] {
        return soft_margin_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"),
                                reduction_arg(reduction, op));
    });
}
ct_status ct_poisson_nll_loss(ct_tensor input, ct_tensor target, int32_t reduction, int32_t log_input, int32_t full,
                              double eps, ct_tensor* out) {
    const char* op = "poisson_nll_loss";
    return loss(op, out, [&] {
        return poisson_nll_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"), log_input != 0,
                                full != 0, eps, reduction_arg(reduction, op));
    });
}
ct_status ct_gaussian_nll_loss(ct_tensor input, ct_tensor target, ct_tensor var, int32_t reduction, int32_t full,
                               double eps, ct_tensor* out) {
    const char* op = "gaussian_nll_loss";
    return loss(op, out, [&] {
        return gaussian_nll_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"),
                                 get_tensor(var, op, "var"), full != 0, eps, reduction_arg(reduction, op));
    });
}
ct_status ct_hinge_embedding_loss(ct_tensor input, ct_tensor target, int32_t reduction, double margin, ct_tensor* out) {
    const char* op = "hinge_embedding_loss";
    return loss(op, out, [&] {
        return hinge_embedding_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"), margin,
                                    reduction_arg(reduction, op));
    });
}
ct_status ct_margin_ranking_loss(ct_tensor input1, ct_tensor input2, ct_tensor target, int32_t reduction,
                                 double margin, ct_tensor* out) {
    const char* op = "margin_ranking_loss";
    return loss(op, out, [&] {
        return margin_ranking_loss(get_tensor(input1, op, "input1"), get_tensor(input2, op, "input2"),
                                   get_tensor(target, op, "target"), margin, reduction_arg(reduction, op));
    });
}
ct_status ct_multilabel_soft_margin_loss(ct_tensor input, ct_tensor target, ct_tensor weight, int32_t reduction,
                                         ct_tensor* out) {
    const char* op = "multilabel_soft_margin_loss";
    return loss(op, out, [&] {
        return multilabel_soft_margin_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"),
                                           get_optional_tensor(weight, op, "weight"), reduction_arg(reduction, op));
    });
}
ct_status ct_multi_margin_loss(ct_tensor input, ct_tensor target, int32_t reduction, int64_t p, double margin,
                               ct_tensor weight, ct_tensor* out) {
    const char* op = "multi_margin_loss";
    return loss(op, out, [&] {
        return multi_margin_loss(get_tensor(input, op, "input"), get_tensor(target, op, "target"), p, margin,
                                 get_optional_tensor(weight, op, "weight"), reduction_arg(reduction, op));
    });
}
ct_status ct_cosine_embedding_loss(ct_tensor input1, ct_tensor input2, ct_tensor target, int32_t reduction,
                                   double margin, ct_tensor* out) {
    const char* op = "cosine_embedding_loss";
    return loss(op, out, [&] {
        return cosine_embedding_loss(get_tensor(input1, op, "input1"), get_tensor(input2, op, "input2"),
                                     get_tensor(target, op, "target"), margin, reduction_arg(reduction, op));
    });
}
ct_status ct_triplet_margin_loss(ct_tensor anchor, ct_tensor positive, ct_tensor negative, int32_t reduction,
                                 double margin, double p, double eps, int32_t swap, ct_tensor* out) {
    const char* op = "triplet_margin_loss";
    return loss(op, out, [&] {
        return triplet_margin_loss(get_tensor(anchor, op, "anchor"), get_tensor(positive, op, "positive"),
                                   get_tensor(negative, op, "negative"), margin, p, eps, swap != 0,
                                   reduction_arg(reduction, op));
    });
}

ct_status ct_ctc_loss(ct_tensor log_probs, ct_tensor targets, const int64_t* input_lengths,
                      const int64_t* target_lengths, int64_t n, int32_t reduction, int64_t blank, int32_t zero_infinity,
                      ct_tensor* out) {
    const char* op = "ctc_loss";
    return loss(op, out, [&] {
        if (n < 0 || (n > 0 && (!input_lengths || !target_lengths)))
            fail(CT_ERR_INVALID_ARGUMENT, op, ": expected n >= 0 lengths in non-NULL arrays, got n = ", n);
        Tensor lp = get_tensor(log_probs, op, "log_probs"), t = get_tensor(targets, op, "targets");
        IntList in_len(input_lengths, input_lengths + n), tg_len(target_lengths, target_lengths + n);
        return ctc_loss(lp, t, in_len, tg_len, blank, reduction_arg(reduction, op), zero_infinity != 0);
    });
}

}  // extern "C"

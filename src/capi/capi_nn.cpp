// capi_nn.cpp - C API: neural-network functions (linear, softmax, losses, dropout, embedding, conv, pooling).
#include "capi/capi_common.h"
#include "core/generator.h"
#include "ops/ops.h"

using namespace ct;

Reduction ct::reduction_arg(int32_t r, const char* op, bool batchmean_ok) {
    if (batchmean_ok && r == CT_REDUCTION_BATCHMEAN) return Reduction::BatchMean;
    if (r != CT_REDUCTION_NONE && r != CT_REDUCTION_MEAN && r != CT_REDUCTION_SUM)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": unknown reduction ", r, " (expected 0 = none, 1 = mean, 2 = sum",
             batchmean_ok ? ", 3 = batchmean)" : ")");
    return (Reduction)r;
}

namespace {

// Copies a {h, w} array argument; it must not be NULL.
void pair_arg(const int64_t* v, int64_t out[2], const char* op, const char* arg) {
    if (!v) fail(CT_ERR_INVALID_ARGUMENT, op, ": ", arg, " is NULL (expected an array of 2 values {h, w})");
    out[0] = v[0];
    out[1] = v[1];
}

Pool2dParams pool_args(const int64_t* kernel, const int64_t* stride, const int64_t* padding, const char* op) {
    Pool2dParams p;
    pair_arg(kernel, p.kernel, op, "kernel");
    pair_arg(stride, p.stride, op, "stride");
    pair_arg(padding, p.padding, op, "padding");
    return p;
}

// The shared shape of the loss entry points: (input, target, reduction) -> out.
template <typename F>
ct_status loss_call(const char* op, ct_tensor input, ct_tensor target, int32_t reduction, ct_tensor* out, F f) {
    return guard([&] {
        check_out(out, op);
        Tensor x = get_tensor(input, op, "input"), t = get_tensor(target, op, "target");
        *out = new_tensor_handle(f(x, t, reduction_arg(reduction, op)));
    });
}

}  // namespace

extern "C" {

ct_status ct_linear(ct_tensor x, ct_tensor weight, ct_tensor bias, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linear");
        *out = new_tensor_handle(linear(get_tensor(x, "linear", "x"), get_tensor(weight, "linear", "weight"),
                                        get_optional_tensor(bias, "linear", "bias")));
    });
}

ct_status ct_softmax(ct_tensor x, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "softmax");
        *out = new_tensor_handle(softmax(get_tensor(x, "softmax", "x"), dim));
    });
}

ct_status ct_log_softmax(ct_tensor x, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "log_softmax");
        *out = new_tensor_handle(log_softmax(get_tensor(x, "log_softmax", "x"), dim));
    });
}

ct_status ct_cross_entropy(ct_tensor logits, ct_tensor target, int32_t reduction, int64_t ignore_index,
                           ct_tensor* out) {
    auto f = [&](const Tensor& x, const Tensor& t, Reduction r) {
        return cross_entropy_ex(x, t, Tensor(), r, ignore_index, 0.0);
    };
    return loss_call("cross_entropy", logits, target, reduction, out, f);
}

ct_status ct_nll_loss(ct_tensor log_probs, ct_tensor target, int32_t reduction, int64_t ignore_index, ct_tensor* out) {
    auto f = [&](const Tensor& x, const Tensor& t, Reduction r) { return nll_loss_ex(x, t, Tensor(), r, ignore_index); };
    return loss_call("nll_loss", log_probs, target, reduction, out, f);
}

ct_status ct_cross_entropy_ex(ct_tensor logits, ct_tensor target, ct_tensor weight, int32_t reduction,
                              int64_t ignore_index, double label_smoothing, ct_tensor* out) {
    return guard([&] {
        const char* op = "cross_entropy";
        check_out(out, op);
        Tensor x = get_tensor(logits, op, "logits"), t = get_tensor(target, op, "target");
        Tensor w = get_optional_tensor(weight, op, "weight");
        *out = new_tensor_handle(cross_entropy_ex(x, t, w, reduction_arg(reduction, op), ignore_index, label_smoothing));
    });
}

ct_status ct_nll_loss_ex(ct_tensor log_probs, ct_tensor target, ct_tensor weight, int32_t reduction,
                         int64_t ignore_index, ct_tensor* out) {
    return guard([&] {
        const char* op = "nll_loss";
        check_out(out, op);
        Tensor x = get_tensor(log_probs, op, "log_probs"), t = get_tensor(target, op, "target");
        Tensor w = get_optional_tensor(weight, op, "weight");
        *out = new_tensor_handle(nll_loss_ex(x, t, w, reduction_arg(reduction, op), ignore_index));
    });
}

ct_status ct_mse_loss(ct_tensor input, ct_tensor target, int32_t reduction, ct_tensor* out) {
    return loss_call("mse_loss", input, target, reduction, out,
                     [](const Tensor& x, const Tensor& t, Reduction r) { return mse_loss(x, t, r); });
}

ct_status ct_binary_cross_entropy(ct_tensor probs, ct_tensor target, int32_t reduction, ct_tensor* out) {
    return loss_call("binary_cross_entropy", probs, target, reduction, out,
                     [](const Tensor& x, const Tensor& t, Reduction r) { return binary_cross_entropy(x, t, r); });
}

ct_status ct_binary_cross_entropy_with_logits(ct_tensor logits, ct_tensor target, int32_t reduction, ct_tensor* out) {
    return loss_call("binary_cross_entropy_with_logits", logits, target, reduction, out,
                     [](const Tensor& x, const Tensor& t, Reduction r) {
                         return binary_cross_entropy_with_logits(x, t, r);
                     });
}

ct_status ct_dropout(ct_tensor x, double p, int32_t training, ct_generator gen, ct_tensor* out) {
    return guard([&] {
        check_out(out, "dropout");
        Tensor X = get_tensor(x, "dropout", "x");
        std::shared_ptr<Generator> g = generator_arg(gen, "dropout");
        *out = new_tensor_handle(dropout(X, p, training != 0, g.get()));
    });
}

ct_status ct_embedding(ct_tensor weight, ct_tensor indices, ct_tensor* out) {
    return guard([&] {
        check_out(out, "embedding");
        *out = new_tensor_handle(
            embedding(get_tensor(weight, "embedding", "weight"), get_tensor(indices, "embedding", "indices")));
    });
}

ct_status ct_embedding_ex(ct_tensor weight, ct_tensor indices, int64_t padding_idx, int32_t has_padding_idx,
                          int32_t scale_grad_by_freq, ct_tensor* out) {
    const char* op = "embedding_ex";
    return guard([&] {
        check_out(out, op);
        std::optional<int64_t> padding;
        if (has_padding_idx) padding = padding_idx;
        *out = new_tensor_handle(embedding_ex(get_tensor(weight, op, "weight"), get_tensor(indices, op, "indices"),
                                              padding, scale_grad_by_freq != 0));
    });
}

ct_status ct_embedding_renorm_(ct_tensor weight, ct_tensor indices, double max_norm, double norm_type) {
    const char* op = "embedding_renorm_";
    return guard([&] {
        Tensor w = get_tensor(weight, op, "weight");
        embedding_renorm_(w, get_tensor(indices, op, "indices"), max_norm, norm_type);
    });
}

ct_status ct_embedding_bag(ct_tensor weight, ct_tensor indices, ct_tensor offsets, int32_t mode,
                           ct_tensor per_sample_weights, int32_t include_last_offset, int64_t padding_idx,
                           int32_t has_padding_idx, int32_t scale_grad_by_freq, ct_tensor* out) {
    const char* op = "embedding_bag";
    return guard([&] {
        check_out(out, op);
        std::optional<int64_t> padding;
        if (has_padding_idx) padding = padding_idx;
        *out = new_tensor_handle(embedding_bag(get_tensor(weight, op, "weight"), get_tensor(indices, op, "indices"),
                                               get_optional_tensor(offsets, op, "offsets"), mode,
                                               get_optional_tensor(per_sample_weights, op, "per_sample_weights"),
                                               include_last_offset != 0, padding, scale_grad_by_freq != 0));
    });
}

ct_status ct_conv2d(ct_tensor x, ct_tensor weight, ct_tensor bias, const int64_t* stride, const int64_t* padding,
                    const int64_t* dilation, int64_t groups, ct_tensor* out) {
    return guard([&] {
        check_out(out, "conv2d");
        Conv2dParams p;
        pair_arg(stride, p.stride, "conv2d", "stride");
        pair_arg(padding, p.padding, "conv2d", "padding");
        pair_arg(dilation, p.dilation, "conv2d", "dilation");
        p.groups = groups;
        *out = new_tensor_handle(conv2d(get_tensor(x, "conv2d", "x"), get_tensor(weight, "conv2d", "weight"),
                                        get_optional_tensor(bias, "conv2d", "bias"), p));
    });
}

ct_status ct_max_pool2d(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                        ct_tensor* out) {
    return guard([&] {
        check_out(out, "max_pool2d");
        Pool2dParams p = pool_args(kernel, stride, padding, "max_pool2d");
        *out = new_tensor_handle(max_pool2d(get_tensor(x, "max_pool2d", "x"), p));
    });
}

ct_status ct_avg_pool2d(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                        ct_tensor* out) {
    return guard([&] {
        check_out(out, "avg_pool2d");
        Pool2dParams p = pool_args(kernel, stride, padding, "avg_pool2d");
        *out = new_tensor_handle(avg_pool2d(get_tensor(x, "avg_pool2d", "x"), p));
    });
}

ct_status ct_max_pool2d_ex(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                           const int64_t* dilation, int32_t ceil_mode, ct_tensor* out, ct_tensor* indices_out) {
    return guard([&] {
        check_out(out, "max_pool2d");
        Pool2dParams p = pool_args(kernel, stride, padding, "max_pool2d");
        pair_arg(dilation, p.dilation, "max_pool2d", "dilation");
        p.ceil_mode = ceil_mode != 0;
        auto res = max_pool2d_with_indices(get_tensor(x, "max_pool2d", "x"), p);
        set_tensor_outs({{res.first, out}, {res.second, indices_out}});
    });
}

ct_status ct_avg_pool2d_ex(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                           int32_t ceil_mode, int32_t count_include_pad, int64_t divisor_override, ct_tensor* out) {
    return guard([&] {
        check_out(out, "avg_pool2d");
        Pool2dParams p = pool_args(kernel, stride, padding, "avg_pool2d");
        p.ceil_mode = ceil_mode != 0;
        p.count_include_pad = count_include_pad != 0;
        p.divisor_override = divisor_override;
        *out = new_tensor_handle(avg_pool2d(get_tensor(x, "avg_pool2d", "x"), p));
    });
}

ct_status ct_adaptive_avg_pool2d(ct_tensor x, const int64_t* output_size, ct_tensor* out) {
    return guard([&] {
        check_out(out, "adaptive_avg_pool2d");
        int64_t size[2];
        pair_arg(output_size, size, "adaptive_avg_pool2d", "output_size");
        *out = new_tensor_handle(adaptive_avg_pool2d(get_tensor(x, "adaptive_avg_pool2d", "x"), size));
    });
}

ct_status ct_adaptive_max_pool2d(ct_tensor x, const int64_t* output_size, ct_tensor* out, ct_tensor* indices_out) {
    return guard([&] {
        check_out(out, "adaptive_max_pool2d");
        int64_t size[2];
        pair_arg(output_size, size, "adaptive_max_pool2d", "output_size");
        auto res = adaptive_max_pool2d(get_tensor(x, "adaptive_max_pool2d", "x"), size);
        set_tensor_outs({{res.first, out}, {res.second, indices_out}});
    });
}

}  // extern "C"

// capi_cuda.cpp - C API: CUDA device queries through the backend loader, and the set of ops that accept
// CUDA tensors (Note [CUDA at the C boundary] in capi_common.h).
#include <cstring>
#include <string_view>
#include <unordered_set>
#include "capi/capi_common.h"
#include "core/backend.h"

namespace ct {

namespace {
// C-level op names (as passed to get_tensor) whose implementation handles CUDA tensors. Everything else
// refuses them at the boundary. Ops here may still fail cleanly deeper down (Note [Device data]).
const std::unordered_set<std::string_view>& cuda_capable_ops() {
    static const std::unordered_set<std::string_view> ops = {
        // metadata and autograd bookkeeping (no element access)
        "tensor_ndim", "tensor_shape", "tensor_strides", "tensor_offset", "tensor_numel", "tensor_dtype",
        "tensor_device", "tensor_is_contiguous", "tensor_data_ptr", "tensor_version", "tensor_shares_storage",
        "set_requires_grad", "requires_grad", "is_leaf", "grad", "set_grad", "retain_grad", "grad_fn_name",
        "backward", "autograd_grad", "custom_function_apply",
        // creation, host transfers, moves
        "empty_like", "zeros_like", "ones_like", "full_like", "copy_to_host", "item", "item_int64", "to_device",
        // views and copies (strided copy kernel)
        "reshape", "view", "transpose", "permute", "squeeze", "squeeze_all", "unsqueeze", "expand", "flatten",
        "narrow", "slice", "select", "diagonal", "contiguous", "clone", "detach", "to_dtype", "t",
        // binary elementwise kernels (ct_cuda_binary_op)
        "add", "sub", "mul", "div", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
        "logical_or", "logical_xor",
        // in-place forms of the above (copy + binary kernels)
        "add_", "sub_", "mul_", "div_", "zero_", "fill_", "copy_",
        // ---- nn family (cuda-nn) ----
        // matrix products (cuBLAS gemm)
        "matmul", "dot", "outer", "linear",
        // softmax and losses (row kernels; sums of losses as products with ones)
        "softmax", "log_softmax", "cross_entropy", "nll_loss", "mse_loss", "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        // random (drawn on the host from the same Philox streams as the CPU, then copied)
        "bernoulli", "dropout",
        // joining (strided copy kernel into slices) and splitting (views)
        "cat", "stack", "split", "chunk",
        // indexing (index kernels; indices are bounds-checked on the host; masks compacted on the host)
        "index_select", "gather", "scatter", "scatter_add", "masked_fill", "masked_select", "nonzero", "embedding",
        // optimizers whose update runs on CUDA (SGD: composed of binary kernels)
        "sgd",
        // class losses in their full form (composed of CUDA-capable ops; targets are checked on the host)
        "cross_entropy_ex", "nll_loss_ex",
        // unary, where and reductions (cuda-ops): ct_cuda_unary_op, where, ct_cuda_reduce_op, cumsum
        "neg", "abs", "sign", "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid",
        "relu", "gelu", "silu", "softplus", "floor", "ceil", "round", "reciprocal", "logical_not", "pow_scalar",
        "clamp", "clamp_", "pow", "atan2", "remainder", "floor_divide", "where", "sum", "mean", "prod", "var", "std", "logsumexp",
        "norm", "all", "any", "max", "min", "max_dim", "min_dim", "argmax", "argmin", "argmax_all", "argmin_all",
        "cumsum",
        // unary math (issue 14): unary kernels, composites of CUDA ops (deg2rad, rad2deg, isposinf, isneginf,
        // signbit of integers), aliases (positive); complex inputs are CPU-only (Note [Complex dtypes])
        "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "lgamma",
        "digamma", "logit", "sinc", "sgn", "deg2rad", "rad2deg", "signbit", "isposinf", "isneginf", "positive", "i0",
        // ---- conv, pooling, optimizers (cuda-conv) ----
        // Adam/AdamW (one fused kernel per parameter); optimizer state lives on the parameter's device
        "adam", "adamw", "optimizer_set_state",
        // conv2d (im2col/col2im kernels + cuBLAS), pooling (window kernels)
        "conv2d", "max_pool2d", "avg_pool2d",
        // ---- pooling options and adaptive pooling (pool-options) ----
        "adaptive_avg_pool2d", "adaptive_max_pool2d",
        // DLPack export of CUDA tensors (kDLCUDA; the device is synchronised first)
        "to_dlpack", "to_dlpack_versioned",
        // ---- per-device tests (device-tests) ----
        // ordering ops: computed on a host copy, results copied back (Note [Sorting on CUDA] in ops/sort.cpp);
        // cumprod's forward scan likewise; the backwards run on the device
        "sort", "argsort", "topk", "kthvalue", "unique", "cumprod",
        // flip (index_select with reversed indices), roll/tril/triu/einsum (composites of CUDA ops)
        "flip", "roll", "tril", "triu", "einsum",
        // printing (one host copy)
        "tensor_to_string",
        // activations (ops/activations.cpp: composites of the CUDA ops above; rrelu draws like rand)
        "elu", "leaky_relu", "hardtanh", "hardsigmoid", "hardswish", "softshrink", "hardshrink", "threshold", "mish",
        "log_sigmoid", "softsign", "tanhshrink", "softmin", "glu", "prelu", "rrelu",
        // losses (ops/nn_loss_pointwise.cpp, nn_loss_margin.cpp: composites of the CUDA ops above; multi_margin's
        // and gaussian_nll's argument checks read a host copy of the targets / var)
        "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div", "soft_margin_loss", "poisson_nll_loss",
        "gaussian_nll_loss", "hinge_embedding_loss", "margin_ranking_loss", "multilabel_soft_margin_loss",
        "multi_margin_loss", "cosine_embedding_loss", "triplet_margin_loss",
        // ctc_loss: its recursions run on a host copy, results copied back (Note [CTC on the host] in ops/nn_ctc.cpp)
        "ctc_loss",
        // attention (ops/attention.cpp: composites of the CUDA ops above, one query block of scores at a time)
        "scaled_dot_product_attention", "multi_head_attention_forward",
        // ---- N-d convolution, pooling, unfold/fold (issue 14) ----
        // ct_convolution under each user-facing name (im2col_nd/col2im_nd kernels + cuBLAS); N-d pooling (the 2-d
        // kernels, Note [Separable pooling]); unfold/fold (the same kernels); pixel_(un)shuffle (views + copies)
        "convolution", "conv_transpose", "conv1d", "conv3d", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d", "max_pool_nd", "avg_pool_nd", "adaptive_avg_pool_nd", "adaptive_max_pool_nd", "unfold",
        "fold", "pixel_shuffle", "pixel_unshuffle",
        // recurrent nets: the fused layer runs on the device, per-step cuBLAS gemms and cuda/rnn.cuh gate kernels
        // (Note [RNN on the device] in ops/rnn_layer.cpp)
        "rnn", "rnn_cell",
        // ---- the toolbox (issue 14) ----
        // indexed writes through the scatter kernels (index_put's index tensors are linearised on the host)
        "scatter_", "scatter_add_", "index_add", "index_add_", "index_copy", "index_copy_", "index_put", "index_put_",
        // counting, searching and the running extremes: computed on a host copy, results copied back
        "searchsorted", "bincount", "histc", "cummax", "cummin",
        // composites of the CUDA ops above
        "nan_to_num", "diff", "take_along_dim",
        // the rest of the toolbox (ops/toolbox_stats.h): composites of the CUDA ops above (sorting on a host copy,
        // Note [Sorting on CUDA]); repeat_interleave reads a tensor of repeats on the host
        "repeat_interleave", "meshgrid", "median", "nanmedian", "median_dim", "nanmedian_dim", "quantile",
        "nanquantile", "cdist",
        // embedding options (ops/nn_embedding_bag.cpp): embedding_ex is embedding on a gradient-scaling alias;
        // embedding_renorm_ and embedding_bag run on host copies (differentiable moves for embedding_bag)
        "embedding_ex", "embedding_renorm_", "embedding_bag",
        // interpolate (ops/nn_interpolate.cpp): the CPU kernels on differentiable host copies; area is adaptive pooling
        "interpolate",
        // normalisation layers (ops/nn_norms.cpp): composites of the CUDA ops above
        "layer_norm", "group_norm", "batch_norm",
        // scatter_reduce (ops/scatter_reduce.cpp): combined on host copies, gradients from the CUDA ops above
        "scatter_reduce", "scatter_reduce_",
        // gradient scaling (ops/amp_scaler.cpp: composites of the CUDA ops above, issue 15)
        "amp_non_finite_check_and_unscale_", "amp_update_scale_",
        // ---- binary math (issue 14): binary kernels (appended ct_cuda_binary_op codes) ----
        "logaddexp", "logaddexp2", "hypot", "xlogy", "copysign", "fmax", "fmin", "heaviside", "nextafter",
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "gcd",
        "lcm", "addcmul", "addcdiv",
        // ---- dense linear algebra on cuSOLVER (issue 14) ----
        // factorisations through the backend's linalg entry (ops/linalg_device.cpp), their backwards and the
        // composites built on them
        "linalg.inv", "linalg.det", "linalg.slogdet", "linalg.solve", "linalg.cholesky", "linalg.qr", "linalg.eigh",
        "linalg.eigvalsh", "linalg.svd", "linalg.svdvals", "linalg.solve_triangular", "linalg.matrix_power",
        "linalg.cross", "linalg.vector_norm", "linalg.matrix_norm", "linalg.pinv", "linalg.matrix_rank",
        // lstsq: the gels driver only (QR, matmul and trsm on the device), as torch
        "linalg.lstsq",
        // ---- more reductions and products (issue 14) ----
        // logcumsumexp (backend entry logcumsumexp), aminmax (the MIN and MAX reductions); var_mean, std_mean, kron,
        // tensordot, inner: composites of the CUDA ops above
        "logcumsumexp", "aminmax", "var_mean", "std_mean", "kron", "tensordot", "inner",
    };
    return ops;
}

// Backend table for a device API call that names a device index.
const ct_cuda_backend& device_api(const char* op, int32_t device) { return cuda_device_backend(op, device); }
}  // namespace

bool cuda_capable_op(const char* op) { return op && cuda_capable_ops().count(op) != 0; }

void fail_cuda_not_implemented(const char* op, const char* arg, const Tensor& t) {
    fail(CT_ERR_NOT_SUPPORTED, op, ": not implemented for cuda tensors yet (", arg, " is on ", device_str(t.device()),
         "; move it with ct_to_device(..., ct_cpu()))");
}

}  // namespace ct

using namespace ct;

extern "C" {

int32_t ct_cuda_device_count(void) { return cuda_device_count(); }

int32_t ct_cuda_is_available(char* reason, int32_t cap) {
    const char* why = nullptr;
    if (cuda_backend_or_null(&why)) return 1;
    if (reason && cap > 0) {
        std::strncpy(reason, why ? why : "unknown", (size_t)cap - 1);
        reason[cap - 1] = '\0';
    }
    return 0;
}

ct_status ct_cuda_synchronize(int32_t device) {
    return guard([&] { cuda_check("cuda_synchronize", device_api("cuda_synchronize", device).synchronize(device)); });
}

ct_status ct_cuda_memory_stats(int32_t device, int64_t* allocated, int64_t* reserved, int64_t* peak) {
    return guard([&] {
        int64_t stats[3] = {0, 0, 0};
        cuda_check("cuda_memory_stats", device_api("cuda_memory_stats", device).memory_stats(device, stats));
        if (allocated) *allocated = stats[0];
        if (reserved) *reserved = stats[1];
        if (peak) *peak = stats[2];
    });
}

ct_status ct_cuda_empty_cache(void) {
    return guard([&] { cuda_check("cuda_empty_cache", cuda_backend("cuda_empty_cache").empty_cache()); });
}

}  // extern "C"

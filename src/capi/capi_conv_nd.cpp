// capi_conv_nd.cpp - C entry points of issue 14: N-d (transposed) convolution, N-d pooling, unfold/fold.
#include "capi/capi_common.h"
#include "ops/conv_geom.h"
#include "ops/ops.h"
#include "ops/unfold.h"

using namespace ct;

namespace {

// Copies an array argument of n values (n = the spatial rank, checked by the op); NULL is an error unless
// `fallback` is given, which then fills every value.
void rank_arg(const int64_t* v, int64_t* out, int32_t n, const char* op, const char* arg, const int64_t* fallback) {
    if (n < 1 || n > 3) fail(CT_ERR_INVALID_ARGUMENT, op, ": spatial rank must be 1, 2 or 3, got ", n);
    if (!v && !fallback)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": ", arg, " is NULL (expected an array of ", n, " values)");
    for (int32_t i = 0; i < n; ++i) out[i] = v ? v[i] : *fallback;
}

}  // namespace

ct_status ct_convolution(ct_tensor x, ct_tensor weight, ct_tensor bias, const int64_t* stride,
                         const int64_t* padding, const int64_t* dilation, int32_t ndim_spatial, int32_t transposed,
                         const int64_t* output_padding, int64_t groups, ct_tensor* out) {
    return guard([&] {
        ConvNdParams p;
        p.nd = ndim_spatial;
        p.transposed = transposed != 0;
        const char* op = conv_op_name(ndim_spatial, p.transposed);
        check_out(out, op);
        const int64_t zero = 0;
        rank_arg(stride, p.stride, ndim_spatial, op, "stride", nullptr);
        rank_arg(padding, p.padding, ndim_spatial, op, "padding", nullptr);
        rank_arg(dilation, p.dilation, ndim_spatial, op, "dilation", nullptr);
        rank_arg(output_padding, p.output_padding, ndim_spatial, op, "output_padding", &zero);
        p.groups = groups;
        *out = new_tensor_handle(convolution(get_tensor(x, op, "x"), get_tensor(weight, op, "weight"),
                                             get_optional_tensor(bias, op, "bias"), p));
    });
}

namespace {

// The pooling options of an N-d pooling call (arrays of nd values, none may be NULL; dilation only for max).
PoolNdParams pool_nd_args(const char* op, int32_t nd, const int64_t* kernel, const int64_t* stride,
                          const int64_t* padding, const int64_t* dilation) {
    PoolNdParams p;
    p.nd = nd;
    const int64_t one = 1;
    rank_arg(kernel, p.kernel, nd, op, "kernel", nullptr);
    rank_arg(stride, p.stride, nd, op, "stride", nullptr);
    rank_arg(padding, p.padding, nd, op, "padding", nullptr);
    rank_arg(dilation, p.dilation, nd, op, "dilation", dilation ? nullptr : &one);
    return p;
}

}  // namespace

ct_status ct_max_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* kernel, const int64_t* stride,
                         const int64_t* padding, const int64_t* dilation, int32_t ceil_mode, ct_tensor* out,
                         ct_tensor* indices_out) {
    return guard([&] {
        check_out(out, "max_pool_nd");
        if (!dilation) fail(CT_ERR_INVALID_ARGUMENT, "max_pool_nd: dilation is NULL");
        PoolNdParams p = pool_nd_args("max_pool_nd", ndim_spatial, kernel, stride, padding, dilation);
        p.ceil_mode = ceil_mode != 0;
        auto res = max_pool_nd(autocast_pool_arg("max_pool3d", ndim_spatial, get_tensor(x, "max_pool_nd", "x")), p);
        set_tensor_outs({{res.first, out}, {res.second, indices_out}});
    });
}

ct_status ct_avg_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* kernel, const int64_t* stride,
                         const int64_t* padding, int32_t ceil_mode, int32_t count_include_pad, int64_t divisor_override,
                         ct_tensor* out) {
    return guard([&] {
        check_out(out, "avg_pool_nd");
        PoolNdParams p = pool_nd_args("avg_pool_nd", ndim_spatial, kernel, stride, padding, nullptr);
        p.ceil_mode = ceil_mode != 0;
        p.count_include_pad = count_include_pad != 0;
        p.divisor_override = divisor_override;
        *out = new_tensor_handle(
            avg_pool_nd(autocast_pool_arg("avg_pool3d", ndim_spatial, get_tensor(x, "avg_pool_nd", "x")), p));
    });
}

ct_status ct_adaptive_avg_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* output_size, ct_tensor* out) {
    return guard([&] {
        check_out(out, "adaptive_avg_pool_nd");
        int64_t size[3];
        rank_arg(output_size, size, ndim_spatial, "adaptive_avg_pool_nd", "output_size", nullptr);
        Tensor X = autocast_pool_arg("adaptive_avg_pool3d", ndim_spatial, get_tensor(x, "adaptive_avg_pool_nd", "x"));
        *out = new_tensor_handle(adaptive_avg_pool_nd(X, ndim_spatial, size));
    });
}

ct_status ct_adaptive_max_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* output_size, ct_tensor* out,
                                  ct_tensor* indices_out) {
    return guard([&] {
        check_out(out, "adaptive_max_pool_nd");
        int64_t size[3];
        rank_arg(output_size, size, ndim_spatial, "adaptive_max_pool_nd", "output_size", nullptr);
        Tensor X = autocast_pool_arg("adaptive_max_pool3d", ndim_spatial, get_tensor(x, "adaptive_max_pool_nd", "x"));
        auto res = adaptive_max_pool_nd(X, ndim_spatial, size);
        set_tensor_outs({{res.first, out}, {res.second, indices_out}});
    });
}

namespace {

UnfoldParams unfold_args(const char* op, const int64_t* kernel, const int64_t* dilation, const int64_t* padding,
                         const int64_t* stride) {
    UnfoldParams p;
    rank_arg(kernel, p.kernel, 2, op, "kernel", nullptr);
    rank_arg(dilation, p.dilation, 2, op, "dilation", nullptr);
    rank_arg(padding, p.padding, 2, op, "padding", nullptr);
    rank_arg(stride, p.stride, 2, op, "stride", nullptr);
    return p;
}

}  // namespace

ct_status ct_unfold(ct_tensor x, const int64_t* kernel, const int64_t* dilation, const int64_t* padding,
                    const int64_t* stride, ct_tensor* out) {
    return guard([&] {
        check_out(out, "unfold");
        UnfoldParams p = unfold_args("unfold", kernel, dilation, padding, stride);
        *out = new_tensor_handle(unfold_blocks(get_tensor(x, "unfold", "x"), p));
    });
}

ct_status ct_fold(ct_tensor x, const int64_t* output_size, const int64_t* kernel, const int64_t* dilation,
                  const int64_t* padding, const int64_t* stride, ct_tensor* out) {
    return guard([&] {
        check_out(out, "fold");
        UnfoldParams p = unfold_args("fold", kernel, dilation, padding, stride);
        int64_t size[2];
        rank_arg(output_size, size, 2, "fold", "output_size", nullptr);
        *out = new_tensor_handle(fold_blocks(get_tensor(x, "fold", "x"), size, p));
    });
}

ct_status ct_pixel_shuffle(ct_tensor x, int64_t upscale_factor, ct_tensor* out) {
    return guard([&] {
        check_out(out, "pixel_shuffle");
        *out = new_tensor_handle(pixel_shuffle(get_tensor(x, "pixel_shuffle", "x"), upscale_factor));
    });
}

ct_status ct_pixel_unshuffle(ct_tensor x, int64_t downscale_factor, ct_tensor* out) {
    return guard([&] {
        check_out(out, "pixel_unshuffle");
        *out = new_tensor_handle(pixel_unshuffle(get_tensor(x, "pixel_unshuffle", "x"), downscale_factor));
    });
}

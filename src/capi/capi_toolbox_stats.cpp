// capi_toolbox_stats.cpp - C API of the rest of issue 14's toolbox: repeat_interleave, meshgrid, median /
// nanmedian, quantile / nanquantile and cdist (src/ops/toolbox_stats.h).
#include "capi/capi_common.h"
#include "ops/toolbox_stats.h"

using namespace ct;

namespace {

std::optional<int64_t> opt(int64_t v, int32_t has) { return has ? std::optional<int64_t>(v) : std::nullopt; }

ct_status median_all_c(ct_tensor x, ct_tensor* out, bool ignore_nan) {
    const char* op = ignore_nan ? "nanmedian" : "median";
    return guard([&] {
        check_out(out, op);
        *out = new_tensor_handle(median_all(get_tensor(x, op, "x"), ignore_nan));
    });
}

ct_status median_dim_c(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices,
                       bool ignore_nan) {
    const char* op = ignore_nan ? "nanmedian_dim" : "median_dim";
    return guard([&] {
        auto r = median_dim(get_tensor(x, op, "x"), dim, keepdim != 0, ignore_nan);
        set_tensor_outs({{r.first, values}, {r.second, indices}});
    });
}

ct_status quantile_c(ct_tensor x, ct_tensor q, double q_scalar, int64_t dim, int32_t has_dim, int32_t keepdim,
                     int32_t interpolation, ct_tensor* out, bool ignore_nan) {
    const char* op = ignore_nan ? "nanquantile" : "quantile";
    return guard([&] {
        check_out(out, op);
        Tensor t = get_tensor(x, op, "x");
        Tensor qt = get_optional_tensor(q, op, "q");
        if (!qt.defined()) {
            if (!(q_scalar >= 0 && q_scalar <= 1))
                fail(CT_ERR_INVALID_ARGUMENT, op, ": q must be in the range [0, 1], got ", q_scalar);
            qt = scalar_tensor(q_scalar, is_floating(t.dtype()) ? t.dtype() : DType::Float64, t.device());
        }
        *out = new_tensor_handle(
            quantile(t, qt, opt(dim, has_dim), keepdim != 0, (QuantileInterp)interpolation, ignore_nan));
    });
}

}  // namespace

extern "C" {

ct_status ct_repeat_interleave(ct_tensor x, ct_tensor repeats, int64_t repeats_scalar, int64_t dim, int32_t has_dim,
                               int64_t output_size, int32_t has_output_size, ct_tensor* out) {
    return guard([&] {
        check_out(out, "repeat_interleave");
        *out = new_tensor_handle(repeat_interleave(get_tensor(x, "repeat_interleave", "x"),
                                                   get_optional_tensor(repeats, "repeat_interleave", "repeats"),
                                                   repeats_scalar, opt(dim, has_dim), opt(output_size, has_output_size)));
    });
}

ct_status ct_meshgrid(const ct_tensor* tensors, int32_t n, int32_t indexing, ct_tensor* outs, int32_t cap) {
    return guard([&] {
        check_out(outs, "meshgrid", "outs");
        if (cap < n) fail(CT_ERR_INVALID_ARGUMENT, "meshgrid: outs holds ", cap, " slots for ", n, " grids");
        if (indexing != CT_MESHGRID_IJ && indexing != CT_MESHGRID_XY)
            fail(CT_ERR_INVALID_ARGUMENT, "meshgrid: indexing must be CT_MESHGRID_IJ (0) or CT_MESHGRID_XY (1), got ",
                 indexing);
        TensorList grids = meshgrid(tensor_list_arg(tensors, n, "meshgrid", "tensors"), indexing == CT_MESHGRID_XY);
        std::vector<ct_tensor> made = new_tensor_handles(grids);  // all or none
        std::copy(made.begin(), made.end(), outs);
    });
}

ct_status ct_median(ct_tensor x, ct_tensor* out) { return median_all_c(x, out, false); }
ct_status ct_nanmedian(ct_tensor x, ct_tensor* out) { return median_all_c(x, out, true); }
ct_status ct_median_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices) {
    return median_dim_c(x, dim, keepdim, values, indices, false);
}
ct_status ct_nanmedian_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices) {
    return median_dim_c(x, dim, keepdim, values, indices, true);
}

ct_status ct_quantile(ct_tensor x, ct_tensor q, double q_scalar, int64_t dim, int32_t has_dim, int32_t keepdim,
                      int32_t interpolation, ct_tensor* out) {
    return quantile_c(x, q, q_scalar, dim, has_dim, keepdim, interpolation, out, false);
}
ct_status ct_nanquantile(ct_tensor x, ct_tensor q, double q_scalar, int64_t dim, int32_t has_dim, int32_t keepdim,
                         int32_t interpolation, ct_tensor* out) {
    return quantile_c(x, q, q_scalar, dim, has_dim, keepdim, interpolation, out, true);
}

ct_status ct_cdist(ct_tensor x1, ct_tensor x2, double p, int32_t compute_mode, ct_tensor* out) {
    return guard([&] {
        check_out(out, "cdist");
        *out = new_tensor_handle(cdist(get_tensor(x1, "cdist", "x1"), get_tensor(x2, "cdist", "x2"), p, compute_mode));
    });
}

}  // extern "C"

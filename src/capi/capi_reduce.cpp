// capi_reduce.cpp - C API: reductions over dims (NULL/0 dims = all) and their index variants.
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

namespace {
IntList dims_arg(const int64_t* dims, int32_t ndims, const char* op) { return shape_arg(dims, ndims, op, "dims"); }
}  // namespace

extern "C" {

ct_status ct_sum(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "sum");
        *out = new_tensor_handle(sum(get_tensor(x, "sum", "x"), dims_arg(dims, ndims, "sum"), keepdim != 0));
    });
}

ct_status ct_mean(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "mean");
        *out = new_tensor_handle(mean(get_tensor(x, "mean", "x"), dims_arg(dims, ndims, "mean"), keepdim != 0));
    });
}

ct_status ct_prod(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "prod");
        *out = new_tensor_handle(prod(get_tensor(x, "prod", "x"), dims_arg(dims, ndims, "prod"), keepdim != 0));
    });
}

ct_status ct_var(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "var");
        *out = new_tensor_handle(
            var(get_tensor(x, "var", "x"), dims_arg(dims, ndims, "var"), correction, keepdim != 0));
    });
}

ct_status ct_std(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "std");
        *out = new_tensor_handle(
            std_(get_tensor(x, "std", "x"), dims_arg(dims, ndims, "std"), correction, keepdim != 0));
    });
}

ct_status ct_logsumexp(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "logsumexp");
        *out = new_tensor_handle(
            logsumexp(get_tensor(x, "logsumexp", "x"), dims_arg(dims, ndims, "logsumexp"), keepdim != 0));
    });
}

ct_status ct_norm(ct_tensor x, double p, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "norm");
        *out = new_tensor_handle(norm(get_tensor(x, "norm", "x"), p, dims_arg(dims, ndims, "norm"), keepdim != 0));
    });
}

ct_status ct_all(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "all");
        *out = new_tensor_handle(all(get_tensor(x, "all", "x"), dims_arg(dims, ndims, "all"), keepdim != 0));
    });
}

ct_status ct_any(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "any");
        *out = new_tensor_handle(any(get_tensor(x, "any", "x"), dims_arg(dims, ndims, "any"), keepdim != 0));
    });
}

CT_DEFINE_UNARY(max, max_all(X))
CT_DEFINE_UNARY(min, min_all(X))
CT_DEFINE_UNARY(argmax_all, argmax_all(X))
CT_DEFINE_UNARY(argmin_all, argmin_all(X))

// values and indices are written only when both results exist (out-params untouched on failure).
ct_status ct_max_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices) {
    return guard([&] {
        check_out(values, "max_dim", "values");
        check_out(indices, "max_dim", "indices");
        auto r = max_dim(get_tensor(x, "max_dim", "x"), dim, keepdim != 0);
        set_tensor_outs({{r.first, values}, {r.second, indices}});
    });
}

ct_status ct_min_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices) {
    return guard([&] {
        check_out(values, "min_dim", "values");
        check_out(indices, "min_dim", "indices");
        auto r = min_dim(get_tensor(x, "min_dim", "x"), dim, keepdim != 0);
        set_tensor_outs({{r.first, values}, {r.second, indices}});
    });
}

ct_status ct_argmax(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "argmax");
        *out = new_tensor_handle(argmax(get_tensor(x, "argmax", "x"), dim, keepdim != 0));
    });
}

ct_status ct_argmin(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "argmin");
        *out = new_tensor_handle(argmin(get_tensor(x, "argmin", "x"), dim, keepdim != 0));
    });
}

ct_status ct_cumsum(ct_tensor x, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "cumsum");
        *out = new_tensor_handle(cumsum(get_tensor(x, "cumsum", "x"), dim));
    });
}

}  // extern "C"

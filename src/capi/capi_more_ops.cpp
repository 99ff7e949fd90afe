// capi_more_ops.cpp - C API of the issue 14 reductions and products: logcumsumexp, aminmax, var_mean, std_mean,
// kron, tensordot, inner. Two-result ops write both handles only when both exist.
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

ct_status ct_logcumsumexp(ct_tensor x, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "logcumsumexp");
        *out = new_tensor_handle(logcumsumexp(get_tensor(x, "logcumsumexp", "x"), dim));
    });
}

ct_status ct_aminmax(ct_tensor x, int64_t dim, int32_t has_dim, int32_t keepdim, ct_tensor* min, ct_tensor* max) {
    return guard([&] {
        check_out(min, "aminmax", "min");
        check_out(max, "aminmax", "max");
        std::optional<int64_t> d;
        if (has_dim) d = dim;
        auto r = aminmax(get_tensor(x, "aminmax", "x"), d, keepdim != 0);
        set_tensor_outs({{r.first, min}, {r.second, max}});
    });
}

ct_status ct_var_mean(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim,
                      ct_tensor* var, ct_tensor* mean) {
    return guard([&] {
        check_out(var, "var_mean", "var");
        check_out(mean, "var_mean", "mean");
        auto r = var_mean(get_tensor(x, "var_mean", "x"), shape_arg(dims, ndims, "var_mean", "dims"), correction,
                          keepdim != 0);
        set_tensor_outs({{r.first, var}, {r.second, mean}});
    });
}

ct_status ct_std_mean(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim,
                      ct_tensor* std, ct_tensor* mean) {
    return guard([&] {
        check_out(std, "std_mean", "std");
        check_out(mean, "std_mean", "mean");
        auto r = std_mean(get_tensor(x, "std_mean", "x"), shape_arg(dims, ndims, "std_mean", "dims"), correction,
                          keepdim != 0);
        set_tensor_outs({{r.first, std}, {r.second, mean}});
    });
}

ct_status ct_kron(ct_tensor a, ct_tensor b, ct_tensor* out) {
    return guard([&] {
        check_out(out, "kron");
        *out = new_tensor_handle(kron(get_tensor(a, "kron", "a"), get_tensor(b, "kron", "b")));
    });
}

ct_status ct_tensordot(ct_tensor a, ct_tensor b, const int64_t* dims_a, int32_t ndims_a, const int64_t* dims_b,
                       int32_t ndims_b, ct_tensor* out) {
    return guard([&] {
        check_out(out, "tensordot");
        *out = new_tensor_handle(tensordot(get_tensor(a, "tensordot", "a"), get_tensor(b, "tensordot", "b"),
                                           shape_arg(dims_a, ndims_a, "tensordot", "dims_a"),
                                           shape_arg(dims_b, ndims_b, "tensordot", "dims_b")));
    });
}

ct_status ct_inner(ct_tensor a, ct_tensor b, ct_tensor* out) {
    return guard([&] {
        check_out(out, "inner");
        *out = new_tensor_handle(inner(get_tensor(a, "inner", "a"), get_tensor(b, "inner", "b")));
    });
}

}  // extern "C"

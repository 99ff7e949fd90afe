// capi_toolbox.cpp - C API of the everyday tensor toolbox (issue 14): in-place indexed writes, index_put,
// counting and searching, composites and dtype limits.
#include "capi/capi_common.h"
#include "ops/index_write.h"
#include "ops/toolbox_ops.h"

using namespace ct;

extern "C" {

ct_status ct_scatter_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src) {
    return guard([&] {
        Tensor D = get_tensor(dst, "scatter_", "dst");
        scatter_(D, dim, get_tensor(index, "scatter_", "index"), get_tensor(src, "scatter_", "src"));
    });
}

ct_status ct_scatter_add_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src) {
    return guard([&] {
        Tensor D = get_tensor(dst, "scatter_add_", "dst");
        scatter_add_(D, dim, get_tensor(index, "scatter_add_", "index"), get_tensor(src, "scatter_add_", "src"));
    });
}

ct_status ct_scatter_reduce(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, int32_t reduce,
                            int32_t include_self, ct_tensor* out) {
    return guard([&] {
        check_out(out, "scatter_reduce");
        *out = new_tensor_handle(scatter_reduce(get_tensor(x, "scatter_reduce", "x"), dim,
                                                get_tensor(index, "scatter_reduce", "index"),
                                                get_tensor(src, "scatter_reduce", "src"), (ScatterReduce)reduce,
                                                include_self != 0));
    });
}

ct_status ct_scatter_reduce_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src, int32_t reduce,
                             int32_t include_self) {
    return guard([&] {
        Tensor D = get_tensor(dst, "scatter_reduce_", "dst");
        scatter_reduce_(D, dim, get_tensor(index, "scatter_reduce_", "index"), get_tensor(src, "scatter_reduce_", "src"),
                        (ScatterReduce)reduce, include_self != 0);
    });
}

ct_status ct_index_add(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, double alpha, ct_tensor* out) {
    return guard([&] {
        check_out(out, "index_add");
        *out =
            new_tensor_handle(index_add(get_tensor(x, "index_add", "x"), dim, get_tensor(index, "index_add", "index"),
                                        get_tensor(src, "index_add", "src"), alpha));
    });
}

ct_status ct_index_add_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src, double alpha) {
    return guard([&] {
        Tensor D = get_tensor(dst, "index_add_", "dst");
        index_add_(D, dim, get_tensor(index, "index_add_", "index"), get_tensor(src, "index_add_", "src"), alpha);
    });
}

ct_status ct_index_copy(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, ct_tensor* out) {
    return guard([&] {
        check_out(out, "index_copy");
        std::vector<Tensor> xs = {get_tensor(x, "index_copy", "x"), get_tensor(src, "index_copy", "src")};
        if (autocast_any_enabled()) autocast_promote("index_copy", xs);  // Note [Autocast at the C boundary]
        *out = new_tensor_handle(index_copy(xs[0], dim, get_tensor(index, "index_copy", "index"), xs[1]));
    });
}

ct_status ct_index_copy_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src) {
    return guard([&] {
        Tensor D = get_tensor(dst, "index_copy_", "dst");
        index_copy_(D, dim, get_tensor(index, "index_copy_", "index"), get_tensor(src, "index_copy_", "src"));
    });
}

ct_status ct_index_put(ct_tensor x, const ct_tensor* index_list, int32_t n, ct_tensor values, int32_t accumulate,
                       ct_tensor* out) {
    return guard([&] {
        check_out(out, "index_put");
        *out = new_tensor_handle(index_put(get_tensor(x, "index_put", "x"),
                                           tensor_list_arg(index_list, n, "index_put", "index_list"),
                                           get_tensor(values, "index_put", "values"), accumulate != 0));
    });
}

ct_status ct_index_put_(ct_tensor dst, const ct_tensor* index_list, int32_t n, ct_tensor values, int32_t accumulate) {
    return guard([&] {
        Tensor D = get_tensor(dst, "index_put_", "dst");
        index_put_(D, tensor_list_arg(index_list, n, "index_put_", "index_list"),
                   get_tensor(values, "index_put_", "values"), accumulate != 0);
    });
}

}  // extern "C"

// ---- counting and searching ----
extern "C" {

ct_status ct_searchsorted(ct_tensor sorted_sequence, ct_tensor values, int32_t right, int32_t out_int32,
                          ct_tensor sorter, ct_tensor* out) {
    return guard([&] {
        check_out(out, "searchsorted");
        *out = new_tensor_handle(searchsorted(get_tensor(sorted_sequence, "searchsorted", "sorted_sequence"),
                                              get_tensor(values, "searchsorted", "values"), right != 0, out_int32 != 0,
                                              get_optional_tensor(sorter, "searchsorted", "sorter")));
    });
}

ct_status ct_bincount(ct_tensor x, ct_tensor weights, int64_t minlength, ct_tensor* out) {
    return guard([&] {
        check_out(out, "bincount");
        *out = new_tensor_handle(
            bincount(get_tensor(x, "bincount", "x"), get_optional_tensor(weights, "bincount", "weights"), minlength));
    });
}

ct_status ct_histc(ct_tensor x, int64_t bins, double min, double max, ct_tensor* out) {
    return guard([&] {
        check_out(out, "histc");
        *out = new_tensor_handle(histc(get_tensor(x, "histc", "x"), bins, min, max));
    });
}

ct_status ct_cummax(ct_tensor x, int64_t dim, ct_tensor* values, ct_tensor* indices) {
    return guard([&] {
        check_out(values, "cummax", "values");
        check_out(indices, "cummax", "indices");
        auto r = cummax(get_tensor(x, "cummax", "x"), dim);
        set_tensor_outs({{r.first, values}, {r.second, indices}});
    });
}

ct_status ct_cummin(ct_tensor x, int64_t dim, ct_tensor* values, ct_tensor* indices) {
    return guard([&] {
        check_out(values, "cummin", "values");
        check_out(indices, "cummin", "indices");
        auto r = cummin(get_tensor(x, "cummin", "x"), dim);
        set_tensor_outs({{r.first, values}, {r.second, indices}});
    });
}

}  // extern "C"

// ---- composites and dtype limits ----
extern "C" {

ct_status ct_nan_to_num(ct_tensor x, double nan, int32_t has_nan, double posinf, int32_t has_posinf, double neginf,
                        int32_t has_neginf, ct_tensor* out) {
    return guard([&] {
        check_out(out, "nan_to_num");
        auto opt = [](double v, int32_t has) { return has ? std::optional<double>(v) : std::nullopt; };
        *out = new_tensor_handle(nan_to_num(get_tensor(x, "nan_to_num", "x"), opt(nan, has_nan),
                                            opt(posinf, has_posinf), opt(neginf, has_neginf)));
    });
}

ct_status ct_diff(ct_tensor x, int64_t n, int64_t dim, ct_tensor prepend, ct_tensor append, ct_tensor* out) {
    return guard([&] {
        check_out(out, "diff");
        *out =
            new_tensor_handle(diff(get_tensor(x, "diff", "x"), n, dim, get_optional_tensor(prepend, "diff", "prepend"),
                                   get_optional_tensor(append, "diff", "append")));
    });
}

ct_status ct_take_along_dim(ct_tensor x, ct_tensor indices, int64_t dim, int32_t has_dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "take_along_dim");
        *out = new_tensor_handle(take_along_dim(get_tensor(x, "take_along_dim", "x"),
                                                get_tensor(indices, "take_along_dim", "indices"),
                                                has_dim ? std::optional<int64_t>(dim) : std::nullopt));
    });
}

ct_status ct_finfo(ct_dtype dtype, int32_t field, double* value) {
    return guard([&] {
        check_out(value, "finfo", "value");
        DTypeLimits l = dtype_limits(dtype_arg(dtype, "finfo"), true);
        const double fields[] = {(double)l.bits, l.eps, l.max, l.min, l.tiny, l.resolution};
        if (field < 0 || field > CT_FINFO_RESOLUTION) fail(CT_ERR_INVALID_ARGUMENT, "finfo: unknown field ", field);
        *value = fields[field];
    });
}

ct_status ct_iinfo(ct_dtype dtype, int32_t field, int64_t* value) {
    return guard([&] {
        check_out(value, "iinfo", "value");
        DTypeLimits l = dtype_limits(dtype_arg(dtype, "iinfo"), false);
        const int64_t fields[] = {l.bits, l.imin, l.imax};
        if (field < 0 || field > CT_IINFO_MAX) fail(CT_ERR_INVALID_ARGUMENT, "iinfo: unknown field ", field);
        *value = fields[field];
    });
}

}  // extern "C"

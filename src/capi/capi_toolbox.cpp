// capi_toolbox.cpp - C API of the everyday tensor toolbox (issue 14): in-place indexed writes, index_put,
// counting and searching.
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

ct_status ct_index_add(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, double alpha, ct_tensor* out) {
    return guard([&] {
        check_out(out, "index_add");
        *out = new_tensor_handle(index_add(get_tensor(x, "index_add", "x"), dim, get_tensor(index, "index_add", "index"),
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
        *out = new_tensor_handle(index_copy(get_tensor(x, "index_copy", "x"), dim,
                                            get_tensor(index, "index_copy", "index"), get_tensor(src, "index_copy", "src")));
    });
}

ct_status ct_index_copy_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src) {
    return guard([&] {
        Tensor D = get_tensor(dst, "index_copy_", "dst");
        index_copy_(D, dim, get_tensor(index, "index_copy_", "index"), get_tensor(src, "index_copy_", "src"));
    });
}

ct_status ct_index_put(ct_tensor x, const ct_tensor* indices, int32_t n, ct_tensor values, int32_t accumulate,
                       ct_tensor* out) {
    return guard([&] {
        check_out(out, "index_put");
        *out = new_tensor_handle(index_put(get_tensor(x, "index_put", "x"), tensor_list_arg(indices, n, "index_put", "indices"),
                                           get_tensor(values, "index_put", "values"), accumulate != 0));
    });
}

ct_status ct_index_put_(ct_tensor dst, const ct_tensor* indices, int32_t n, ct_tensor values, int32_t accumulate) {
    return guard([&] {
        Tensor D = get_tensor(dst, "index_put_", "dst");
        index_put_(D, tensor_list_arg(indices, n, "index_put_", "indices"), get_tensor(values, "index_put_", "values"),
                   accumulate != 0);
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
        *out = new_tensor_handle(bincount(get_tensor(x, "bincount", "x"), get_optional_tensor(weights, "bincount", "weights"),
                                          minlength));
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
        set_pair(cummax(get_tensor(x, "cummax", "x"), dim), values, indices);
    });
}

ct_status ct_cummin(ct_tensor x, int64_t dim, ct_tensor* values, ct_tensor* indices) {
    return guard([&] {
        check_out(values, "cummin", "values");
        check_out(indices, "cummin", "indices");
        set_pair(cummin(get_tensor(x, "cummin", "x"), dim), values, indices);
    });
}

}  // extern "C"

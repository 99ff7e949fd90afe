// capi_toolbox.cpp - C API of the everyday tensor toolbox (issue 14): in-place indexed writes and index_put.
#include "capi/capi_common.h"
#include "ops/index_write.h"

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

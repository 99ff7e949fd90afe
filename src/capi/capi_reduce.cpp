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

}  // extern "C"

// capi_interpolate.cpp - the C boundary of interpolate / Upsample (ops/nn_interpolate.cpp).
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

ct_status ct_interpolate(ct_tensor x, const int64_t* size, const double* scale_factors, int32_t ndim_spatial,
                         int32_t mode, int32_t align_corners, int32_t recompute_scale_factor, ct_tensor* out) {
    const char* op = "interpolate";
    return guard([&] {
        check_out(out, op);
        *out = new_tensor_handle(interpolate(get_tensor(x, op, "x"), size, scale_factors, ndim_spatial, mode,
                                             align_corners, recompute_scale_factor != 0));
    });
}

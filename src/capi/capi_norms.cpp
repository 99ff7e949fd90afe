// capi_norms.cpp - the C boundary of the normalisation layers (ct_layer_norm, ct_group_norm, ct_batch_norm).
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

ct_status ct_layer_norm(ct_tensor x, const int64_t* normalized_shape, int32_t n, ct_tensor weight, ct_tensor bias,
                        double eps, ct_tensor* out) {
    const char* op = "layer_norm";
    return guard([&] {
        check_out(out, op);
        Shape s = shape_arg(normalized_shape, n, op, "normalized_shape");
        *out = new_tensor_handle(layer_norm(get_tensor(x, op, "x"), IntList(s.begin(), s.end()),
                                            get_optional_tensor(weight, op, "weight"),
                                            get_optional_tensor(bias, op, "bias"), eps));
    });
}

ct_status ct_group_norm(ct_tensor x, int64_t num_groups, ct_tensor weight, ct_tensor bias, double eps,
                        ct_tensor* out) {
    const char* op = "group_norm";
    return guard([&] {
        check_out(out, op);
        *out = new_tensor_handle(group_norm(get_tensor(x, op, "x"), num_groups, get_optional_tensor(weight, op, "weight"),
                                            get_optional_tensor(bias, op, "bias"), eps));
    });
}

ct_status ct_batch_norm(ct_tensor x, ct_tensor running_mean, ct_tensor running_var, ct_tensor weight, ct_tensor bias,
                        int32_t training, double momentum, double eps, ct_tensor* out) {
    const char* op = "batch_norm";
    return guard([&] {
        check_out(out, op);
        *out = new_tensor_handle(batch_norm(get_tensor(x, op, "x"), get_optional_tensor(running_mean, op, "running_mean"),
                                            get_optional_tensor(running_var, op, "running_var"),
                                            get_optional_tensor(weight, op, "weight"),
                                            get_optional_tensor(bias, op, "bias"), training != 0, momentum, eps));
    });
}

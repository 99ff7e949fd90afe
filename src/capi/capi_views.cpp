// capi_views.cpp - C API: views, layout changes and conversions.
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

ct_status ct_reshape(ct_tensor t, const int64_t* shape, int32_t ndim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "reshape");
        *out = new_tensor_handle(reshape(get_tensor(t, "reshape", "t"), shape_arg(shape, ndim, "reshape")));
    });
}

ct_status ct_view(ct_tensor t, const int64_t* shape, int32_t ndim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "view");
        *out = new_tensor_handle(view(get_tensor(t, "view", "t"), shape_arg(shape, ndim, "view")));
    });
}

ct_status ct_transpose(ct_tensor t, int64_t d0, int64_t d1, ct_tensor* out) {
    return guard([&] {
        check_out(out, "transpose");
        *out = new_tensor_handle(transpose(get_tensor(t, "transpose", "t"), d0, d1));
    });
}

ct_status ct_permute(ct_tensor t, const int64_t* perm, int32_t ndim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "permute");
        *out = new_tensor_handle(permute(get_tensor(t, "permute", "t"), shape_arg(perm, ndim, "permute", "perm")));
    });
}

ct_status ct_squeeze(ct_tensor t, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "squeeze");
        *out = new_tensor_handle(squeeze(get_tensor(t, "squeeze", "t"), dim));
    });
}

ct_status ct_squeeze_all(ct_tensor t, ct_tensor* out) {
    return guard([&] {
        check_out(out, "squeeze_all");
        *out = new_tensor_handle(squeeze_all(get_tensor(t, "squeeze_all", "t")));
    });
}

ct_status ct_unsqueeze(ct_tensor t, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "unsqueeze");
        *out = new_tensor_handle(unsqueeze(get_tensor(t, "unsqueeze", "t"), dim));
    });
}

ct_status ct_expand(ct_tensor t, const int64_t* shape, int32_t ndim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "expand");
        *out = new_tensor_handle(expand(get_tensor(t, "expand", "t"), shape_arg(shape, ndim, "expand")));
    });
}

ct_status ct_flatten(ct_tensor t, int64_t start_dim, int64_t end_dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "flatten");
        *out = new_tensor_handle(flatten(get_tensor(t, "flatten", "t"), start_dim, end_dim));
    });
}

ct_status ct_narrow(ct_tensor t, int64_t dim, int64_t start, int64_t length, ct_tensor* out) {
    return guard([&] {
        check_out(out, "narrow");
        *out = new_tensor_handle(narrow(get_tensor(t, "narrow", "t"), dim, start, length));
    });
}

ct_status ct_slice(ct_tensor t, int64_t dim, int64_t start, int64_t end, int64_t step, ct_tensor* out) {
    return guard([&] {
        check_out(out, "slice");
        *out = new_tensor_handle(slice(get_tensor(t, "slice", "t"), dim, start, end, step));
    });
}

ct_status ct_select(ct_tensor t, int64_t dim, int64_t index, ct_tensor* out) {
    return guard([&] {
        check_out(out, "select");
        *out = new_tensor_handle(select(get_tensor(t, "select", "t"), dim, index));
    });
}

ct_status ct_diagonal(ct_tensor t, int64_t offset, int64_t dim1, int64_t dim2, ct_tensor* out) {
    return guard([&] {
        check_out(out, "diagonal");
        *out = new_tensor_handle(diagonal(get_tensor(t, "diagonal", "t"), offset, dim1, dim2));
    });
}

ct_status ct_contiguous(ct_tensor t, ct_tensor* out) {
    return guard([&] {
        check_out(out, "contiguous");
        *out = new_tensor_handle(contiguous(get_tensor(t, "contiguous", "t")));
    });
}

ct_status ct_clone(ct_tensor t, ct_tensor* out) {
    return guard([&] {
        check_out(out, "clone");
        *out = new_tensor_handle(clone(get_tensor(t, "clone", "t")));
    });
}

ct_status ct_detach(ct_tensor t, ct_tensor* out) {
    return guard([&] {
        check_out(out, "detach");
        *out = new_tensor_handle(detach(get_tensor(t, "detach", "t")));
    });
}

ct_status ct_to_dtype(ct_tensor t, ct_dtype dtype, ct_tensor* out) {
    return guard([&] {
        check_out(out, "to_dtype");
        *out = new_tensor_handle(to_dtype(get_tensor(t, "to_dtype", "t"), dtype_arg(dtype, "to_dtype")));
    });
}

ct_status ct_to_device(ct_tensor t, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "to_device");
        *out = new_tensor_handle(to_device(get_tensor(t, "to_device", "t"), device_arg(device, "to_device")));
    });
}

CT_DEFINE_UNARY(t, t2d(X))

}  // extern "C"

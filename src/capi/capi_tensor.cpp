// capi_tensor.cpp - C API: tensor handles, metadata getters, creation from shapes/values/buffers, item.
#include <cstring>
#include "autograd/accumulate_grad.h"
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

namespace {
ct_status copy_dims(const Shape& src, int64_t* dst, int32_t cap, int32_t* ndim, const char* op) {
    return guard([&] {
        check_out(ndim, op, "ndim");
        if (cap < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": negative capacity ", cap);
        if (cap > 0 && !dst) fail(CT_ERR_INVALID_ARGUMENT, op, ": buffer is NULL but capacity is ", cap);
        for (int32_t i = 0; i < cap && i < (int32_t)src.size(); ++i) dst[i] = src[i];
        *ndim = (int32_t)src.size();
    });
}
}  // namespace

extern "C" {

ct_tensor ct_tensor_retain(ct_tensor t) {
    handle_retain((uintptr_t)t, HandleKind::Tensor);
    return t;
}
void ct_tensor_release(ct_tensor t) {
    std::shared_ptr<void> obj = handle_release((uintptr_t)t, HandleKind::Tensor);
    if (!obj) return;
    Tensor T(std::static_pointer_cast<TensorImpl>(std::move(obj)));
    if (T.impl()->handles.fetch_sub(1, std::memory_order_acq_rel) == 1) last_handle_released(T);
}

ct_status ct_tensor_ndim(ct_tensor t, int32_t* ndim) {
    return guard([&] {
        check_out(ndim, "tensor_ndim", "ndim");
        *ndim = (int32_t)get_tensor(t, "tensor_ndim", "t").dim();
    });
}

ct_status ct_tensor_shape(ct_tensor t, int64_t* dims, int32_t cap, int32_t* ndim) {
    Shape s;
    ct_status st = guard([&] { s = get_tensor(t, "tensor_shape", "t").sizes(); });
    return st != CT_OK ? st : copy_dims(s, dims, cap, ndim, "tensor_shape");
}

ct_status ct_tensor_strides(ct_tensor t, int64_t* strides, int32_t cap, int32_t* ndim) {
    Shape s;
    ct_status st = guard([&] { s = get_tensor(t, "tensor_strides", "t").strides(); });
    return st != CT_OK ? st : copy_dims(s, strides, cap, ndim, "tensor_strides");
}

ct_status ct_tensor_offset(ct_tensor t, int64_t* offset) {
    return guard([&] {
        check_out(offset, "tensor_offset", "offset");
        *offset = get_tensor(t, "tensor_offset", "t").offset();
    });
}

ct_status ct_tensor_numel(ct_tensor t, int64_t* numel) {
    return guard([&] {
        check_out(numel, "tensor_numel", "numel");
        *numel = get_tensor(t, "tensor_numel", "t").numel();
    });
}

ct_status ct_tensor_dtype(ct_tensor t, ct_dtype* dtype) {
    return guard([&] {
        check_out(dtype, "tensor_dtype", "dtype");
        *dtype = (ct_dtype)get_tensor(t, "tensor_dtype", "t").dtype();
    });
}

ct_status ct_tensor_device(ct_tensor t, ct_device* device) {
    return guard([&] {
        check_out(device, "tensor_device", "device");
        Device d = get_tensor(t, "tensor_device", "t").device();
        *device = ct_device{(int32_t)d.type, d.index};
    });
}

ct_status ct_tensor_is_contiguous(ct_tensor t, int32_t* contiguous) {
    return guard([&] {
        check_out(contiguous, "tensor_is_contiguous", "contiguous");
        *contiguous = get_tensor(t, "tensor_is_contiguous", "t").is_contiguous() ? 1 : 0;
    });
}

ct_status ct_tensor_data_ptr(ct_tensor t, void** data) {
    return guard([&] {
        check_out(data, "tensor_data_ptr", "data");
        *data = get_tensor(t, "tensor_data_ptr", "t").device_data();  // a device address for CUDA tensors
    });
}

ct_status ct_tensor_version(ct_tensor t, int64_t* version) {
    return guard([&] {
        check_out(version, "tensor_version", "version");
        *version = get_tensor(t, "tensor_version", "t").version();
    });
}

ct_status ct_tensor_shares_storage(ct_tensor a, ct_tensor b, int32_t* shares) {
    return guard([&] {
        check_out(shares, "tensor_shares_storage", "shares");
        Tensor A = get_tensor(a, "tensor_shares_storage", "a"), B = get_tensor(b, "tensor_shares_storage", "b");
        *shares = A.storage() == B.storage() ? 1 : 0;
    });
}

ct_status ct_empty(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "empty");
        *out = new_tensor_handle(empty(shape_arg(shape, ndim, "empty"), dtype_arg(dtype, "empty"), device_arg(device, "empty")));
    });
}

ct_status ct_zeros(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "zeros");
        *out = new_tensor_handle(zeros(shape_arg(shape, ndim, "zeros"), dtype_arg(dtype, "zeros"), device_arg(device, "zeros")));
    });
}

ct_status ct_ones(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "ones");
        *out = new_tensor_handle(ones(shape_arg(shape, ndim, "ones"), dtype_arg(dtype, "ones"), device_arg(device, "ones")));
    });
}

ct_status ct_full(const int64_t* shape, int32_t ndim, double value, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "full");
        *out = new_tensor_handle(
            full(shape_arg(shape, ndim, "full"), value, dtype_arg(dtype, "full"), device_arg(device, "full")));
    });
}

ct_status ct_scalar_tensor(double value, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "scalar_tensor");
        *out = new_tensor_handle(scalar_tensor(value, dtype_arg(dtype, "scalar_tensor"), device_arg(device, "scalar_tensor")));
    });
}

ct_status ct_wrapped_scalar(double value, int32_t is_integer, ct_tensor* out) {
    return guard([&] {
        check_out(out, "wrapped_scalar");
        *out = new_tensor_handle(wrapped_scalar(value, is_integer != 0));
    });
}

ct_status ct_wrapped_scalar_bool(int32_t value, ct_tensor* out) {
    return guard([&] {
        check_out(out, "wrapped_scalar_bool");
        *out = new_tensor_handle(wrapped_scalar_bool(value != 0));
    });
}

ct_status ct_arange(double start, double end, double step, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "arange");
        *out = new_tensor_handle(arange(start, end, step, dtype_arg(dtype, "arange"), device_arg(device, "arange")));
    });
}

ct_status ct_linspace(double start, double end, int64_t steps, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linspace");
        *out = new_tensor_handle(linspace(start, end, steps, dtype_arg(dtype, "linspace"), device_arg(device, "linspace")));
    });
}

ct_status ct_eye(int64_t n, int64_t m, ct_dtype dtype, ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "eye");
        *out = new_tensor_handle(eye(n, m, dtype_arg(dtype, "eye"), device_arg(device, "eye")));
    });
}

ct_status ct_empty_like(ct_tensor t, ct_tensor* out) {
    return guard([&] {
        check_out(out, "empty_like");
        Tensor T = get_tensor(t, "empty_like", "t");
        *out = new_tensor_handle(empty(T.sizes(), T.dtype(), T.device()));
    });
}

ct_status ct_zeros_like(ct_tensor t, ct_tensor* out) {
    return guard([&] {
        check_out(out, "zeros_like");
        *out = new_tensor_handle(zeros_like(get_tensor(t, "zeros_like", "t")));
    });
}

ct_status ct_ones_like(ct_tensor t, ct_tensor* out) {
    return guard([&] {
        check_out(out, "ones_like");
        *out = new_tensor_handle(ones_like(get_tensor(t, "ones_like", "t")));
    });
}

ct_status ct_full_like(ct_tensor t, double value, ct_tensor* out) {
    return guard([&] {
        check_out(out, "full_like");
        *out = new_tensor_handle(full_like(get_tensor(t, "full_like", "t"), value));
    });
}

ct_status ct_tensor_from_data(const void* data, int64_t nbytes, const int64_t* shape, int32_t ndim, ct_dtype dtype,
                              ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "tensor_from_data");
        *out = new_tensor_handle(from_data(data, nbytes, shape_arg(shape, ndim, "tensor_from_data"),
                                           dtype_arg(dtype, "tensor_from_data"), device_arg(device, "tensor_from_data")));
    });
}

ct_status ct_tensor_from_blob(void* data, const int64_t* shape, const int64_t* strides, int32_t ndim, ct_dtype dtype,
                              ct_device device, ct_deleter_fn deleter, void* ctx, ct_tensor* out) {
    return guard([&] {
        const char* op = "tensor_from_blob";
        check_out(out, op);
        Shape sizes = shape_arg(shape, ndim, op);
        std::function<void()> release;
        if (deleter) release = [deleter, data, ctx]() { deleter(data, ctx); };
        Tensor t = from_blob(data, sizes, strides, dtype_arg(dtype, op), device_arg(device, op), std::move(release));
        try {
            *out = new_tensor_handle(t);
        } catch (...) {
            t.storage()->release = nullptr;  // failure: the caller keeps the memory
            throw;
        }
    });
}

ct_status ct_tensor_copy_to_host(ct_tensor t, void* dst, int64_t nbytes) {
    return guard([&] { copy_to_host(get_tensor(t, "copy_to_host", "t"), dst, nbytes); });
}

ct_status ct_tensor_item(ct_tensor t, double* value) {
    return guard([&] {
        check_out(value, "item", "value");
        *value = item(get_tensor(t, "item", "t"));
    });
}

ct_status ct_tensor_item_int64(ct_tensor t, int64_t* value) {
    return guard([&] {
        check_out(value, "item_int64", "value");
        *value = item_int64(get_tensor(t, "item_int64", "t"));
    });
}

}  // extern "C"

// creation.cpp - tensors from shapes, values, ranges and host buffers; copying back out; item().
#include <cmath>
#include <cstring>
#include "cpu/kernels.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {

Tensor empty(const Shape& shape, DType dtype, Device device) {
    check_device_usable("empty", device);
    Tensor t = empty_tensor(shape, dtype, device, "empty");
    if (dtype == DType::Bool) fill_into(t, 0.0);  // Note [Bool bytes]: uninitialised bytes would not be 0 or 1
    return t;
}

namespace {
// A new tensor filled with value; op names the caller in errors.
Tensor filled(const Shape& shape, double value, DType dtype, Device device, const char* op) {
    check_device_usable(op, device);
    Tensor t = empty_tensor(shape, dtype, device, op);
    fill_into(t, value);
    return t;
}
}  // namespace

Tensor full(const Shape& shape, double value, DType dtype, Device device) {
    return filled(shape, value, dtype, device, "full");
}

Tensor zeros(const Shape& shape, DType dtype, Device device) {
    check_device_usable("zeros", device);
    Tensor t = empty_tensor(shape, dtype, device, "zeros");
    if (device.is_cpu()) std::memset(t.raw_data(), 0, (size_t)t.numel() * t.itemsize());
    else fill_into(t, 0.0);
    return t;
}

Tensor ones(const Shape& shape, DType dtype, Device device) {
    return filled(shape, 1.0, dtype, device, "ones");
}

Tensor scalar_tensor(double value, DType dtype, Device device) { return full({}, value, dtype, device); }

Tensor wrapped_scalar(double value, bool is_integer) {
    Tensor t = is_integer ? full({}, value, DType::Int64, Device{}) : full({}, value, DType::Float64, Device{});
    t.impl()->wrapped_number = true;
    return t;
}

// A language's bool: a 0-d bool wrapped number. Bool is the lowest category, so it never changes a tensor's dtype
// (bool_t + True stays bool, int8_t * True stays int8), and it takes part in bool-only checks as a bool operand
// (sub refuses it, as torch 1.13 refuses `t - True`).
Tensor wrapped_scalar_bool(bool value) {
    Tensor t = full({}, value ? 1.0 : 0.0, DType::Bool, Device{});
    t.impl()->wrapped_number = true;
    return t;
}

Tensor zeros_like(const Tensor& t) { return zeros(t.sizes(), t.dtype(), t.device()); }
Tensor ones_like(const Tensor& t) { return ones(t.sizes(), t.dtype(), t.device()); }
Tensor full_like(const Tensor& t, double value) { return full(t.sizes(), value, t.dtype(), t.device()); }

Tensor arange(double start, double end, double step, DType dtype, Device device) {
    if (step == 0 || !std::isfinite(step) || !std::isfinite(start) || !std::isfinite(end))
        fail(CT_ERR_INVALID_ARGUMENT, "arange: start ", start, ", end ", end, " and step ", step,
             " must be finite with step != 0");
    if ((step > 0 && end < start) || (step < 0 && end > start))
        fail(CT_ERR_INVALID_ARGUMENT, "arange: upper bound ", end, " and lower bound ", start,
             " are inconsistent with step sign ", step);
    check_device_usable("arange", device);
    if (!device.is_cpu()) return copy_to_device(arange(start, end, step, dtype, Device{}), device);
    double n = std::ceil((end - start) / step);
    if (n > 9e15) fail(CT_ERR_OUT_OF_MEMORY, "arange: ", n, " elements is too many");
    Tensor t = empty({(int64_t)n}, dtype, device);
    dispatch_storage(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t.data<T>();
        for (int64_t i = 0; i < (int64_t)n; ++i) p[i] = from_double<T>(start + (double)i * step);
    });
    return t;
}

Tensor linspace(double start, double end, int64_t steps, DType dtype, Device device) {
    if (steps < 0) fail(CT_ERR_INVALID_ARGUMENT, "linspace: number of steps must be non-negative, got ", steps);
    check_device_usable("linspace", device);
    if (!device.is_cpu()) return copy_to_device(linspace(start, end, steps, dtype, Device{}), device);
    Tensor t = empty({steps}, dtype, device);
    double step = steps > 1 ? (end - start) / (double)(steps - 1) : 0.0;
    dispatch_storage(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t.data<T>();
        // symmetric formula (as PyTorch) so that the last value is exactly end; one step is start alone
        int64_t half = steps == 1 ? 1 : steps / 2;
        for (int64_t i = 0; i < steps; ++i)
            p[i] = from_double<T>(i < half ? start + step * (double)i : end - step * (double)(steps - 1 - i));
    });
    return t;
}

Tensor eye(int64_t n, int64_t m, DType dtype, Device device) {
    if (n < 0 || m < 0) fail(CT_ERR_INVALID_ARGUMENT, "eye: sizes must be non-negative, got n=", n, " m=", m);
    check_device_usable("eye", device);
    if (!device.is_cpu()) return copy_to_device(eye(n, m, dtype, Device{}), device);
    Tensor t = zeros({n, m}, dtype, device);
    dispatch_storage(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t.data<T>();
        for (int64_t i = 0; i < std::min(n, m); ++i) p[i * m + i] = from_double<T>(1.0);
    });
    return t;
}

Tensor from_data(const void* data, int64_t nbytes, const Shape& shape, DType dtype, Device device) {
    int64_t n = checked_numel(shape, "from_data");
    int64_t want = checked_nbytes(n, (int64_t)dtype_size(dtype), "from_data", CT_ERR_INVALID_ARGUMENT);
    if (nbytes != want)
        fail(CT_ERR_INVALID_ARGUMENT, "from_data: got ", nbytes, " bytes but shape ", shape_str(shape), " of ",
             dtype_name(dtype), " needs ", want);
    if (!data && want > 0) fail(CT_ERR_INVALID_ARGUMENT, "from_data: data is NULL");
    check_device_usable("from_data", device);
    Tensor t = empty_tensor(shape, dtype, Device{}, "from_data");
    if (want > 0) std::memcpy(t.raw_data(), data, (size_t)want);
    if (dtype == DType::Bool) normalise_bool_bytes(t.raw_data(), want);  // Note [Bool bytes]
    return device.is_cpu() ? t : copy_to_device(t, device);
}

Tensor from_blob(void* data, const Shape& sizes, const int64_t* strides, DType dtype, Device device,
                 std::function<void()> release) {
    const char* op = "tensor_from_blob";
    int64_t n = checked_numel(sizes, op);
    Shape st = strides ? Shape(strides, strides + sizes.size()) : contiguous_strides(sizes);
    check_device_usable(op, device);  // a device whose backend cannot load would give an unreadable tensor
    check_dtype_on_device(op, dtype, device);  // Note [Half on CUDA]
    if (!data && n > 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": data is NULL");
    // a misaligned element is undefined behaviour in every kernel (and a fault on some CPUs): refused, as DLPack
    // import refuses it
    if (n > 0 && (uintptr_t)data % (uintptr_t)dtype_size(dtype) != 0)
        fail(CT_ERR_NOT_SUPPORTED, op, ": data ", data, " is not aligned to the ", dtype_size(dtype), "-byte ",
             dtype_name(dtype), " element size");
    for (size_t i = 0; i < st.size() && n > 0; ++i)
        if (st[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": negative stride ", st[i], " is not supported");
    // elements reachable from data, and their bytes
    int64_t extent = n > 0 ? checked_add(checked_span(sizes, st, op).hi, 1, op, "extent", CT_ERR_INVALID_ARGUMENT) : 0;
    int64_t nbytes = checked_nbytes(extent, (int64_t)dtype_size(dtype), op, CT_ERR_INVALID_ARGUMENT);
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = Storage::wrap(data, (size_t)nbytes, device, nullptr);  // release is set once nothing can fail
    impl->sizes = sizes;
    impl->strides = st;
    impl->dtype = dtype;
    Tensor t(std::move(impl));
    check_bool_bytes(op, t);  // Note [Bool bytes]
    t.storage()->release = std::move(release);  // moving a std::function cannot throw
    return t;
}

void copy_to_host(const Tensor& t, void* dst, int64_t nbytes) {
    int64_t want = checked_nbytes(t.numel(), (int64_t)t.itemsize(), "copy_to_host", CT_ERR_INVALID_ARGUMENT);
    if (nbytes != want)
        fail(CT_ERR_INVALID_ARGUMENT, "copy_to_host: buffer has ", nbytes, " bytes but a tensor of shape ",
             shape_str(t.sizes()), " and dtype ", dtype_name(t.dtype()), " needs ", want);
    if (!dst && want > 0) fail(CT_ERR_INVALID_ARGUMENT, "copy_to_host: destination is NULL");
    if (want == 0) return;
    auto holder = Storage::wrap(dst, (size_t)want, Device{}, nullptr);
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = holder;
    impl->sizes = t.sizes();
    impl->strides = contiguous_strides(t.sizes());
    impl->dtype = t.dtype();
    copy_into(Tensor(impl), t);  // from a CUDA tensor: packed on the device, then one device-to-host copy
}

double item(const Tensor& t) {
    if (is_complex(t.dtype()))  // Note [Complex dtypes]: never the real part silently
        fail(CT_ERR_DTYPE, "item: a ", dtype_name(t.dtype()), " tensor has no real value; read it with item_complex");
    if (t.numel() != 1)
        fail(CT_ERR_SHAPE, "item: a tensor with ", t.numel(), " elements (shape ", shape_str(t.sizes()),
             ") cannot be converted to a scalar");
    Tensor h = t.device().is_cpu() ? t : copy_to_device(t, Device{});
    return dispatch_storage(h.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        return math::convert<double>(*h.data<T>());
    });
}

int64_t item_int64(const Tensor& t) {
    if (is_complex(t.dtype()))  // Note [Complex dtypes]: never the real part silently
        fail(CT_ERR_DTYPE, "item: a ", dtype_name(t.dtype()), " tensor has no real value; read it with item_complex");
    if (t.numel() != 1)
        fail(CT_ERR_SHAPE, "item: a tensor with ", t.numel(), " elements (shape ", shape_str(t.sizes()),
             ") cannot be converted to a scalar");
    Tensor h = t.device().is_cpu() ? t : copy_to_device(t, Device{});
    return dispatch_storage(h.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        return math::convert<int64_t>(*h.data<T>());  // Note [Float to integer]
    });
}

}  // namespace ct

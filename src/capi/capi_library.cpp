// capi_library.cpp - C API: versions, errors, threads, devices, handle counting.
#include <cstring>
#include "capi/capi_common.h"
#include "core/allocator.h"
#include "core/quote.h"
#include "cpu/parallel.h"

namespace ct {

namespace {
struct LastError {
    ct_status status = CT_OK;
    std::string message;
};
thread_local LastError t_last_error;
}  // namespace

void set_last_error(ct_status status, const std::string& message) {
    t_last_error.status = status;
    t_last_error.message = escape_utf8(message);  // a caller's bytes (ct_set_error, names) stay decodable
}

Shape shape_arg(const int64_t* dims, int32_t ndim, const char* op, const char* arg) {
    if (ndim < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": ", arg, " has negative rank ", ndim);
    if (ndim > 0 && !dims) fail(CT_ERR_INVALID_ARGUMENT, op, ": ", arg, " is NULL but rank is ", ndim);
    return Shape(dims, dims + ndim);
}

DType dtype_arg(ct_dtype dtype, const char* op) {
    if (!dtype_valid(dtype)) fail(CT_ERR_DTYPE, op, ": unknown dtype value ", dtype);
    return (DType)dtype;
}

Device device_arg(ct_device device, const char* op) {
    if (device.type != CT_DEVICE_CPU && device.type != CT_DEVICE_CUDA)
        fail(CT_ERR_DEVICE, op, ": unknown device type ", device.type, " (expected 1 = cpu or 2 = cuda)");
    if (device.index < 0 || (device.type == CT_DEVICE_CPU && device.index != 0))
        fail(CT_ERR_DEVICE, op, ": invalid device index ", device.index, " for device type ", device.type);
    return Device{(DeviceType)device.type, device.index};
}

std::vector<Tensor> tensor_list_arg(const ct_tensor* hs, int32_t n, const char* op, const char* arg) {
    if (n < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": negative count ", n, " for ", arg);
    if (n > 0 && !hs) fail(CT_ERR_INVALID_ARGUMENT, op, ": ", arg, " is NULL but count is ", n);
    std::vector<Tensor> out;
    out.reserve(n);
    for (int32_t i = 0; i < n; ++i) {
        std::string name = std::string(arg) + "[" + std::to_string(i) + "]";
        out.push_back(get_tensor(hs[i], op, name.c_str()));
    }
    if (autocast_any_enabled()) autocast_promote(op, out);  // cat / stack (Note [Autocast at the C boundary])
    return out;
}

}  // namespace ct

using namespace ct;

extern "C" {

int32_t ct_version(void) { return CT_VERSION_MAJOR * 10000 + CT_VERSION_MINOR * 100 + CT_VERSION_PATCH; }
int32_t ct_abi_version(void) { return CT_ABI_VERSION; }

ct_status ct_check_abi(int32_t abi_major, int32_t min_minor) {
    return guard([&] {
        if (abi_major != CT_ABI_VERSION)
            fail(CT_ERR_VERSION, "check_abi: the caller was built for ABI ", abi_major, " but this library is ABI ",
                 CT_ABI_VERSION, " (ctensor ", CT_VERSION_MAJOR, ".", CT_VERSION_MINOR, ".", CT_VERSION_PATCH, ")");
        if (min_minor > CT_VERSION_MINOR)
            fail(CT_ERR_VERSION, "check_abi: the caller needs ctensor ", CT_VERSION_MAJOR, ".", min_minor,
                 " or later but this library is ", CT_VERSION_MAJOR, ".", CT_VERSION_MINOR, ".", CT_VERSION_PATCH);
    });
}

const char* ct_last_error(void) { return t_last_error.message.c_str(); }
ct_status ct_last_status(void) { return t_last_error.status; }

const char* ct_status_name(ct_status s) {
    static const char* names[] = {"CT_OK", "CT_ERR_INVALID_ARGUMENT", "CT_ERR_INVALID_HANDLE", "CT_ERR_SHAPE",
                                  "CT_ERR_DTYPE", "CT_ERR_DEVICE", "CT_ERR_INDEX", "CT_ERR_OUT_OF_MEMORY",
                                  "CT_ERR_NOT_COMPILED", "CT_ERR_NOT_SUPPORTED", "CT_ERR_AUTOGRAD",
                                  "CT_ERR_INTERNAL", "CT_ERR_CALLBACK", "CT_ERR_VERSION", "CT_ERR_IO",
                                  "CT_ERR_DISTRIBUTED"};
    if (s < 0 || s >= (ct_status)(sizeof names / sizeof names[0])) return "CT_ERR_UNKNOWN";
    return names[s];
}

ct_status ct_set_error(ct_status status, const char* message) {
    set_last_error(status, message ? message : "");
    return status;
}

const char* ct_dtype_name(ct_dtype d) { return dtype_valid(d) ? dtype_name((DType)d) : "unknown"; }
int32_t ct_dtype_size(ct_dtype d) { return dtype_valid(d) ? (int32_t)dtype_size((DType)d) : 0; }
ct_device ct_cpu(void) { return ct_device{CT_DEVICE_CPU, 0}; }
ct_device ct_cuda(int32_t index) { return ct_device{CT_DEVICE_CUDA, index}; }
int64_t ct_live_handles(void) { return handle_live_count(); }

ct_status ct_set_num_threads(int32_t n) {
    return guard([&] {
        if (n < 1) fail(CT_ERR_INVALID_ARGUMENT, "set_num_threads: thread count must be >= 1, got ", n);
        set_num_threads(n);
    });
}
int32_t ct_get_num_threads(void) { return get_num_threads(); }

ct_status ct_set_cpu_memory_limit(int64_t bytes) {
    return guard([&] {
        if (bytes < -1) fail(CT_ERR_INVALID_ARGUMENT, "set_cpu_memory_limit: limit ", bytes, " is negative (-1 = none)");
        cpu_set_memory_limit(bytes);
    });
}

ct_status ct_cpu_memory_stats(int64_t* allocated, int64_t* cached, int64_t* limit) {
    return guard([&] {
        if (allocated) *allocated = cpu_memory_in_use();
        if (cached) *cached = cpu_memory_cached();
        if (limit) *limit = cpu_memory_limit();
    });
}

}  // extern "C"

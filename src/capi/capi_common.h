// capi_common.h - the C boundary pattern: every ct_* function runs its body inside guard(), which turns
// engine exceptions into a status plus a thread-local message; handles are converted here and nowhere else.
#pragma once
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <new>
#include <string>
#include <vector>
#include "capi/handles.h"
#include "core/tensor.h"
#include "ops/autocast.h"
#include "ctensor.h"

namespace ct {

// Records a failure for ct_last_error / ct_last_status on this thread.
void set_last_error(ct_status status, const std::string& message);

template <typename F> ct_status guard_body(F&& body) noexcept {
    try {
        body();
        return CT_OK;
    } catch (const Error& e) {
        set_last_error(e.status(), e.what());
        return e.status();
    } catch (const std::bad_alloc&) {
        set_last_error(CT_ERR_OUT_OF_MEMORY, std::string(t_current_op ? t_current_op : "ctensor") + ": out of memory");
        return CT_ERR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        set_last_error(CT_ERR_INTERNAL, std::string("internal error: ") + e.what());
        return CT_ERR_INTERNAL;
    } catch (...) {
        set_last_error(CT_ERR_INTERNAL, "internal error: unknown exception");
        return CT_ERR_INTERNAL;
    }
}

// Runs a C function's body: exceptions become a status and the thread's last error. t_current_op is this
// call's own while it runs and the caller's again after (a C function called from a callback inside another).
template <typename F> ct_status guard(F&& body) noexcept {
    const char* outer = t_current_op;
    t_current_op = nullptr;
    ct_status status = guard_body(body);
    t_current_op = outer;
    return status;
}

// Note [CUDA at the C boundary]: every op takes its tensors through get_tensor, which refuses a tensor on a
// CUDA device with CT_ERR_NOT_SUPPORTED "<op>: not implemented for cuda tensors yet" unless op is in the
// CUDA-capable set (capi_cuda.cpp). Giving an op a CUDA kernel = adding its name there. CPU tensors pass free.
bool cuda_capable_op(const char* op);
[[noreturn]] void fail_cuda_not_implemented(const char* op, const char* arg, const Tensor& t);

// The tensor behind handle h, on any device; throws CT_ERR_INVALID_HANDLE naming op and the argument.
inline Tensor get_tensor_any_device(ct_tensor h, const char* op, const char* arg) {
    t_current_op = op;
    return Tensor(std::static_pointer_cast<TensorImpl>(handle_get((uintptr_t)h, HandleKind::Tensor, op, arg)));
}
// The tensor behind handle h; throws CT_ERR_INVALID_HANDLE naming op and the argument, or CT_ERR_NOT_SUPPORTED
// for a CUDA tensor when op has no CUDA implementation (Note [CUDA at the C boundary]). Inside an autocast
// region the tensor is cast per op's policy (Note [Autocast at the C boundary], ops/autocast.h).
inline Tensor get_tensor(ct_tensor h, const char* op, const char* arg) {
    Tensor t = get_tensor_any_device(h, op, arg);
    if (!t.device().is_cpu() && !cuda_capable_op(op)) fail_cuda_not_implemented(op, arg, t);
    if (autocast_any_enabled()) return autocast_arg(op, t);  // Note [Autocast at the C boundary]
    return t;
}
// Like get_tensor, but NULL gives an undefined Tensor (for optional arguments).
inline Tensor get_optional_tensor(ct_tensor h, const char* op, const char* arg) {
    return h ? get_tensor(h, op, arg) : Tensor();
}
// A new handle (refcount 1) for t; counted in t's impl (Note [Grad cycle] in autograd/accumulate_grad.h).
inline ct_tensor new_tensor_handle(const Tensor& t) {
    t.impl()->handles.fetch_add(1, std::memory_order_relaxed);
    try {
        return (ct_tensor)handle_new(HandleKind::Tensor, std::static_pointer_cast<void>(t.impl_ptr()));
    } catch (...) {
        t.impl()->handles.fetch_sub(1, std::memory_order_relaxed);
        throw;
    }
}
// Handles for every tensor of ts (an undefined tensor gives NULL), all or none: a failure part way releases
// the handles already made and rethrows. Callers write out-params only after this returns, so a multi-output
// op leaves its out-params untouched and leaks nothing when it fails.
inline std::vector<ct_tensor> new_tensor_handles(const std::vector<Tensor>& ts) {
    std::vector<ct_tensor> made;
    made.reserve(ts.size());
    try {
        for (const Tensor& t : ts) made.push_back(t.defined() ? new_tensor_handle(t) : nullptr);
    } catch (...) {
        for (ct_tensor h : made) ct_tensor_release(h);
        throw;
    }
    return made;
}
// One result of a multi-output op and its out-pointer (NULL: the caller did not ask for it; no handle made).
struct TensorOut {
    Tensor value;
    ct_tensor* slot;
};
// Stores each result into its out-pointer, all or none (new_tensor_handles).
inline void set_tensor_outs(std::initializer_list<TensorOut> outs) {
    std::vector<Tensor> wanted;
    for (const TensorOut& o : outs) wanted.push_back(o.slot ? o.value : Tensor());
    std::vector<ct_tensor> made = new_tensor_handles(wanted);
    size_t i = 0;
    for (const TensorOut& o : outs) {
        if (o.slot) *o.slot = made[i];
        ++i;
    }
}
// Throws CT_ERR_INVALID_ARGUMENT when an out-pointer is NULL.
inline void check_out(const void* out, const char* op, const char* arg = "out") {
    t_current_op = op;
    if (!out) fail(CT_ERR_INVALID_ARGUMENT, op, ": output pointer ", arg, " is NULL");
}
// The C text-out convention: s into buf[cap] (cut to at most cap - 1 bytes, NUL-terminated when cap > 0; cap 0
// with buf NULL only asks the length), its full length into *len when len is not NULL. Checks the buffer first.
// A cut never splits a UTF-8 character: s is valid UTF-8, and so is every prefix this writes.
template <typename N> void text_out(const std::string& s, char* buf, N cap, N* len, const char* op) {
    if (cap < 0 || (cap > 0 && !buf))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": bad buffer (capacity ", cap, ", buf ", buf ? "set" : "NULL", ")");
    if (cap > 0) {
        size_t n = std::min(s.size(), (size_t)cap - 1);
        while (n > 0 && n < s.size() && ((unsigned char)s[n] & 0xC0) == 0x80) --n;  // s[n] continues a character
        std::memcpy(buf, s.data(), n);
        buf[n] = '\0';
    }
    if (len) *len = (N)s.size();
}
// Copies a C shape array into a Shape (ndim >= 0; dims may be NULL only when ndim == 0).
Shape shape_arg(const int64_t* dims, int32_t ndim, const char* op, const char* arg = "shape");
// Checks a dtype enum value.
DType dtype_arg(ct_dtype dtype, const char* op);
// Converts a device struct (type must be CPU or CUDA).
struct Device device_arg(ct_device device, const char* op);
// The generator behind handle g, or null for NULL (= the default generator); defined in capi_random.cpp.
std::shared_ptr<class Generator> generator_arg(ct_generator g, const char* op);
// Handles array -> tensors (n >= 0, array non-NULL when n > 0).
std::vector<Tensor> tensor_list_arg(const ct_tensor* hs, int32_t n, const char* op, const char* arg);
// A CT_REDUCTION_* code as the engine's Reduction (none, mean, sum; CT_REDUCTION_BATCHMEAN only when
// batchmean_ok); anything else is CT_ERR_INVALID_ARGUMENT naming op. Defined in capi_nn.cpp.
enum class Reduction : int32_t;
Reduction reduction_arg(int32_t r, const char* op, bool batchmean_ok = false);

}  // namespace ct

// One-line definitions for the common signatures (the op name is the function name without "ct_").
#define CT_DEFINE_UNARY(name, expr)                                                 \
    ct_status ct_##name(ct_tensor x, ct_tensor* out) {                              \
        return ::ct::guard([&] {                                                    \
            ::ct::check_out(out, #name);                                            \
            ::ct::Tensor X = ::ct::get_tensor(x, #name, "x");                       \
            *out = ::ct::new_tensor_handle(expr);                                   \
        });                                                                         \
    }
#define CT_DEFINE_BINARY(name, expr)                                                \
    ct_status ct_##name(ct_tensor a, ct_tensor b, ct_tensor* out) {                 \
        return ::ct::guard([&] {                                                    \
            ::ct::check_out(out, #name);                                            \
            ::ct::Tensor A = ::ct::get_tensor(a, #name, "a");                       \
            ::ct::Tensor B = ::ct::get_tensor(b, #name, "b");                       \
            *out = ::ct::new_tensor_handle(expr);                                   \
        });                                                                         \
    }

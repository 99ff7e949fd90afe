// capi_hooks.cpp - C API: tensor hooks whose body is a C callback (torch.Tensor.register_hook for every
// binding). Invariant: destroy_ctx runs exactly once, when the last copy of the hook's function is freed.
#include "autograd/hooks.h"
#include "capi/capi_common.h"

using namespace ct;

namespace {

// Owns the user's ctx; frees it with destroy_ctx when the hook function is destroyed.
struct HookContext {
    void* ctx = nullptr;
    ct_ctx_release_fn destroy = nullptr;
    ~HookContext() {
        if (destroy) destroy(ctx);
    }
};

Tensor call_hook(ct_tensor_hook_fn hook, HookContext& hc, const Tensor& grad) {
    ct_tensor g = new_tensor_handle(grad), replacement = nullptr;
    ct_status st = hook(g, hc.ctx, &replacement);
    ct_tensor_release(g);
    if (st != CT_OK) {
        std::string msg = ct_last_error();  // read before releasing, which may not touch it but be safe
        ct_tensor_release(replacement);
        fail(CT_ERR_CALLBACK, "hook: tensor hook returned ", ct_status_name(st), ": ", msg);
    }
    if (!replacement) return Tensor();
    Tensor r;
    std::string err;
    try {
        r = get_tensor_any_device(replacement, "hook", "replacement");
    } catch (const Error& e) {
        err = e.what();
    }
    ct_tensor_release(replacement);
    if (!err.empty()) fail(CT_ERR_CALLBACK, "hook: tensor hook returned a bad handle: ", err);
    return r;
}

}  // namespace

extern "C" {

ct_status ct_tensor_register_hook(ct_tensor t, ct_tensor_hook_fn hook, void* ctx, ct_ctx_release_fn destroy_ctx,
                                  int64_t* id) {
    std::shared_ptr<HookContext> hc;
    try {
        hc = std::make_shared<HookContext>();  // built in place: a temporary's destructor would free ctx
        hc->ctx = ctx;
        hc->destroy = destroy_ctx;
    } catch (...) {
        if (destroy_ctx) destroy_ctx(ctx);
        return guard([] { throw std::bad_alloc(); });
    }
    return guard([&] {
        Tensor T = get_tensor_any_device(t, "register_hook", "t");
        if (!hook) fail(CT_ERR_INVALID_ARGUMENT, "register_hook: hook is NULL");
        check_out(id, "register_hook", "id");
        *id = register_tensor_hook(T, [hook, hc](const Tensor& g) { return call_hook(hook, *hc, g); });
    });
}

ct_status ct_tensor_remove_hook(ct_tensor t, int64_t id) {
    return guard([&] {
        Tensor T = get_tensor_any_device(t, "remove_hook", "t");
        if (!remove_tensor_hook(T, id))
            fail(CT_ERR_INVALID_ARGUMENT, "remove_hook: the tensor has no hook with id ", id);
    });
}

}  // extern "C"

// fuzz_autograd.cpp - libFuzzer target over autograd and training: graphs recorded by the ops of abi/ops.tsv,
// requires_grad, backward and autograd_grad with retain_graph/create_graph misuse, grad access, hooks and custom
// functions whose callbacks fail or misbehave, SGD/Adam/AdamW with their hyper-parameters and state. Every
// callback context must be released exactly once and nothing may be left alive at the end of an input.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "fuzz_common.h"

namespace {

using namespace fz;

// State of one input beyond the pool: optimizers, handles kept by hooks, callback contexts.
struct World {
    Pool p;
    ct_optimizer opt[2] = {nullptr, nullptr};
    std::vector<ct_tensor> kept;  // gradients retained by hooks
    int64_t handles() const {
        int64_t n = p.handles() + (opt[0] != nullptr) + (opt[1] != nullptr);
        for (size_t i = 0; i < kept.size(); ++i) {
            bool seen = false;
            for (size_t j = 0; j < i; ++j) seen |= kept[j] == kept[i];
            for (ct_tensor t : p.slot) seen |= t == kept[i];
            n += !seen;
        }
        return n;
    }
};
World* g_world = nullptr;

// ---- hooks ----
struct HookCtx {
    int mode;
    int destroyed = 0;
    ct_tensor target;
    int64_t id = -1;
};
std::vector<HookCtx*> g_hooks;

ct_status hook_fn(ct_tensor grad, void* ctx, ct_tensor* replacement) {
    HookCtx* h = (HookCtx*)ctx;
    if (h->destroyed) die("hook", "a hook ran after its context was destroyed");
    int64_t sh[3] = {3, 1, 2};
    switch (h->mode) {
    case 0: return CT_OK;
    case 1: return ct_mul(grad, grad, replacement);
    case 2: return ct_zeros(sh, 3, CT_FLOAT32, ct_cpu(), replacement);          // wrong shape
    case 3: return ct_set_error(CT_ERR_CALLBACK, "fuzz hook: refusing on purpose");
    case 4: return CT_ERR_SHAPE;                                                  // no message set
    case 5: g_world->kept.push_back(ct_tensor_retain(grad)); return CT_OK;
    case 6: *replacement = (ct_tensor)(uintptr_t)0x300000007ull; return CT_OK;   // not a handle
    case 7: return ct_to_dtype(grad, CT_INT64, replacement);                      // wrong dtype
    case 8: ct_tensor_remove_hook(h->target, h->id); return CT_OK;                // removes itself while running
    default: {
        ct_status st = ct_backward(grad, nullptr, 0, 0);                          // re-entrant backward
        return st == CT_OK ? CT_OK : CT_OK;
    }
    }
}
void hook_destroy(void* ctx) { ++((HookCtx*)ctx)->destroyed; }

// ---- custom functions ----
struct FnCtx {
    int mode;
    int released = 0;
};
std::vector<FnCtx*> g_fns;

ct_status custom_backward(void* ctx, const ct_tensor* gout, int32_t n_out, ct_tensor* gin, int32_t n_in) {
    FnCtx* f = (FnCtx*)ctx;
    if (f->released) die("custom_function", "backward ran after ctx_release");
    if (!gout || n_out <= 0 || (n_in > 0 && !gin)) die("custom_function", "backward got no grad_outputs or grad_inputs");
    for (int32_t i = 0; i < n_out; ++i)
        if (!gout[i]) die("custom_function", "a grad_output is NULL (documented: zeros instead)");
    switch (f->mode) {
    case 0: return CT_OK;  // no gradient for any input
    case 1:
        for (int32_t i = 0; i < n_in; ++i)
            if (ct_clone(gout[i % n_out], &gin[i]) != CT_OK) return ct_last_status();
        return CT_OK;
    case 2: return ct_set_error(CT_ERR_CALLBACK, "fuzz custom backward: refusing on purpose");
    case 3: if (n_in > 0) gin[0] = (ct_tensor)(uintptr_t)0x500000003ull; return CT_OK;  // not a handle
    case 4: return CT_ERR_SHAPE;                                                          // no message set
    case 5:  // makes gradients, then fails: the library must release what it was given
        for (int32_t i = 0; i < n_in; ++i) ct_clone(gout[0], &gin[i]);
        return ct_set_error(CT_ERR_CALLBACK, "fuzz custom backward: failing after making gradients");
    default: {  // a scalar gradient for every input (broadcasting or shape errors are the library's to find)
        for (int32_t i = 0; i < n_in; ++i) ct_scalar_tensor(1.0, CT_FLOAT32, ct_cpu(), &gin[i]);
        return CT_OK;
    }
    }
}
void custom_release(void* ctx) { ++((FnCtx*)ctx)->released; }

void custom_function(Input& in, World& w) {
    Pool& p = w.p;
    bool ok = true;
    ct_tensor ins[3], outs[2];
    int32_t n_in = in.u8() % 4, n_out = 1 + in.u8() % 2;
    for (int i = 0; i < n_in; ++i) ins[i] = p.pick(in, &ok);
    for (int i = 0; i < n_out; ++i) outs[i] = p.pick(in, &ok);
    if (in.u8() == 0xff) n_out = 0, ok = false;
    FnCtx* f = new FnCtx{in.u8() % 7};
    g_fns.push_back(f);
    static const char* kNames[] = {"FuzzFn", "", "\xff\xfe bad utf8", nullptr};
    const char* name = kNames[in.u8() % 4];
    ct_tensor res[2] = {kSentinel, kSentinel};
    ct_status st = ct_custom_function_apply(name, ins, n_in, outs, n_out, custom_backward, f, custom_release, res);
    check_status("custom_function_apply", st, !ok);
    for (int i = 0; i < n_out; ++i) {
        if (st != CT_OK) {
            if (res[i] != kSentinel) die("custom_function_apply", "an out-parameter was written by a failed call");
        } else {
            if (res[i] == kSentinel || !res[i]) die("custom_function_apply", "a result is missing");
            p.keep(in, "custom_function_apply", res[i]);
        }
    }
}

void register_hook(Input& in, World& w) {
    bool ok = true;
    ct_tensor t = w.p.pick(in, &ok);
    HookCtx* h = new HookCtx{in.u8() % 10};
    h->target = t;
    g_hooks.push_back(h);
    int64_t id = -77;
    ct_status st = ct_tensor_register_hook(t, hook_fn, h, hook_destroy, &id);
    check_status("tensor_register_hook", st, !ok);
    if (st != CT_OK) {
        if (id != -77) die("tensor_register_hook", "an out-parameter was written by a failed call");
        if (h->destroyed != 1) die("tensor_register_hook", "destroy_ctx did not run once on failure");
        return;
    }
    h->id = id;
    if (in.u8() % 4 == 0) {  // removed at once, or a wrong id
        int64_t rid = (in.u8() & 1) ? id : in.edge();
        check_status("tensor_remove_hook", ct_tensor_remove_hook(t, rid), false);
    }
}

void backward(Input& in, World& w) {
    Pool& p = w.p;
    bool ok = true;
    ct_tensor t = p.pick(in, &ok);
    bool ok_g = true;
    ct_tensor g = (in.u8() & 1) ? p.pick(in, &ok_g) : nullptr;
    if (!g) ok_g = true;
    int32_t retain = in.flag(), create = in.flag();
    if (in.u8() & 1) {
        check_status("backward", ct_backward(t, g, retain, create), !ok || !ok_g);
        return;
    }
    ct_tensor outputs[2], gouts[2], inputs[3];
    int32_t n_out = 1 + in.u8() % 2, n_in = in.u8() % 4;
    outputs[0] = t;
    gouts[0] = g;
    if (n_out == 2) outputs[1] = p.pick(in, &ok), gouts[1] = nullptr;
    for (int i = 0; i < n_in; ++i) inputs[i] = p.pick(in, &ok);
    int32_t allow_unused = in.flag();
    bool with_gouts = in.u8() & 1;
    ct_tensor grads[4] = {kSentinel, kSentinel, kSentinel, kSentinel};
    ct_status st = ct_autograd_grad(outputs, n_out, with_gouts ? gouts : nullptr, inputs, n_in, retain, create,
                                    allow_unused, grads);
    check_status("autograd_grad", st, !ok || (with_gouts && !ok_g));
    for (int i = 0; i < 4; ++i) {
        if (st != CT_OK || i >= n_in) {
            if (grads[i] != kSentinel) die("autograd_grad", "an out-parameter was written past n_inputs or on failure");
            continue;
        }
        if (grads[i] == kSentinel) die("autograd_grad", "a gradient slot was left unwritten");
        if (grads[i]) p.keep(in, "autograd_grad", grads[i]);
    }
}

void grad_access(Input& in, World& w) {
    Pool& p = w.p;
    bool ok = true;
    ct_tensor t = p.pick(in, &ok);
    switch (in.u8() % 7) {
    case 0: check_status("tensor_set_requires_grad", ct_tensor_set_requires_grad(t, in.int32()), !ok); break;
    case 1: call(in, p, "tensor_grad", !ok, 0, 0, [&](ct_tensor* o) {
                ct_tensor g = kSentinel;
                ct_status st = ct_tensor_grad(t, &g);
                if (st != CT_OK && g != kSentinel) die("tensor_grad", "an out-parameter was written by a failed call");
                if (st == CT_OK && g == kSentinel) die("tensor_grad", "left its result unwritten");
                if (st == CT_OK && g) p.keep(in, "tensor_grad", g);
                (void)o;
                return st;
            });
            break;
    case 2: {
        bool ok_g = true;
        ct_tensor g = (in.u8() & 1) ? p.pick(in, &ok_g) : nullptr;
        if (!g) ok_g = true;
        check_status("tensor_set_grad", ct_tensor_set_grad(t, g), !ok || !ok_g);
        break;
    }
    case 3: check_status("tensor_retain_grad", ct_tensor_retain_grad(t), !ok); break;
    case 4: {
        int32_t a = -9, b = -9;
        check_status("tensor_is_leaf", ct_tensor_is_leaf(t, &a), !ok);
        check_status("tensor_requires_grad", ct_tensor_requires_grad(t, &b), !ok);
        break;
    }
    case 5: {
        char buf[16];
        int32_t cap = in.u8() % 17, len = -9;
        ct_status st = ct_tensor_grad_fn_name(t, cap ? buf : nullptr, cap, &len);
        check_status("tensor_grad_fn_name", st, !ok);
        if (st == CT_OK && cap && (strnlen(buf, (size_t)cap) == (size_t)cap || !valid_utf8(buf, strnlen(buf, (size_t)cap))))
            die("tensor_grad_fn_name", "not NUL-terminated within the capacity or not UTF-8");
        break;
    }
    default: {
        int32_t prev = -9;
        check_status("set_grad_enabled", ct_set_grad_enabled(in.int32(), (in.u8() & 1) ? &prev : nullptr), false);
    }
    }
}

void optimizer(Input& in, World& w) {
    Pool& p = w.p;
    int k = in.u8() & 1;
    ct_optimizer o = w.opt[k];
    static const char* kHparams[] = {"lr", "momentum", "dampening", "weight_decay", "nesterov", "beta1", "beta2",
                                     "eps", "", "\xc3\x28 bad", "LR", "step"};
    static const char* kStates[] = {"momentum_buffer", "exp_avg", "exp_avg_sq", "", "\xff", "step"};
    bool ok = o != nullptr;
    switch (in.u8() % 10) {
    case 0: {  // a new optimizer over up to 4 pool tensors (maybe invalid, duplicated, non-leaf or integer)
        ct_tensor params[4];
        bool all = true;
        int32_t n = in.u8() % 5;
        for (int i = 0; i < n; ++i) params[i] = p.pick(in, &all);
        double a = in.scalar(), b = in.scalar(), c = in.scalar(), d = in.scalar(), e = in.scalar();
        ct_optimizer out = (ct_optimizer)kSentinel;
        ct_status st;
        const char* op;
        switch (in.u8() % 3) {
        case 0: op = "optim_sgd_new", st = ct_optim_sgd_new(params, n, a, b, c, d, in.flag(), &out); break;
        case 1: op = "optim_adam_new", st = ct_optim_adam_new(params, n, a, b, c, d, e, &out); break;
        default: op = "optim_adamw_new", st = ct_optim_adamw_new(params, n, a, b, c, d, e, &out);
        }
        check_status(op, st, !all);
        if (st != CT_OK) {
            if (out != (ct_optimizer)kSentinel) die(op, "an out-parameter was written by a failed call");
            return;
        }
        ct_optimizer_release(w.opt[k]);
        w.opt[k] = out;
        return;
    }
    case 1: check_status("optimizer_step", ct_optimizer_step(o), !ok); return;
    case 2: check_status("optimizer_zero_grad", ct_optimizer_zero_grad(o, in.flag()), !ok); return;
    case 3: {
        double lr = -9;
        check_status("optimizer_set_lr", ct_optimizer_set_lr(o, in.scalar()), !ok);
        check_status("optimizer_get_lr", ct_optimizer_get_lr(o, &lr), !ok);
        return;
    }
    case 4: case 5: {
        const char* name = kHparams[in.u8() % 12];
        double v = in.scalar(), got = -9;
        if (in.u8() & 1) check_status("optimizer_set_hparam", ct_optimizer_set_hparam(o, name, v), !ok);
        ct_status st = ct_optimizer_get_hparam(o, name, &got);
        check_status("optimizer_get_hparam", st, !ok);
        if (st != CT_OK && got != -9) die("optimizer_get_hparam", "an out-parameter was written by a failed call");
        return;
    }
    case 6: {
        int32_t n = -9, len = -9, cap = in.u8() % 24;
        char buf[24];
        check_status("optimizer_num_params", ct_optimizer_num_params(o, &n), !ok);
        ct_status st = ct_optimizer_state_names(o, cap ? buf : nullptr, cap, &len);
        check_status("optimizer_state_names", st, !ok);
        if (st == CT_OK && cap && strnlen(buf, (size_t)cap) == (size_t)cap) die("optimizer_state_names", "no NUL within cap");
        return;
    }
    case 7: {
        int32_t param = in.int32();
        const char* name = kStates[in.u8() % 6];
        call(in, p, "optimizer_get_state", !ok, 0, 0, [&](ct_tensor*) {
            ct_tensor s = kSentinel;
            ct_status st = ct_optimizer_get_state(o, param, name, &s);
            if (st != CT_OK && s != kSentinel) die("optimizer_get_state", "an out-parameter was written by a failed call");
            if (st == CT_OK && s == kSentinel) die("optimizer_get_state", "left its result unwritten");
            if (st == CT_OK && s) p.keep(in, "optimizer_get_state", s);
            return st;
        });
        return;
    }
    case 8: {
        int32_t param = in.int32();
        const char* name = kStates[in.u8() % 6];
        bool ok_v = true;
        ct_tensor v = (in.u8() & 1) ? p.pick(in, &ok_v) : nullptr;
        if (!v) ok_v = true;
        check_status("optimizer_set_state", ct_optimizer_set_state(o, param, name, v), !ok || !ok_v);
        return;
    }
    default: {
        int32_t param = in.int32();
        int64_t step = -9;
        if (in.u8() & 1) check_status("optimizer_set_step", ct_optimizer_set_step(o, param, in.edge()), !ok);
        ct_status st = ct_optimizer_get_step(o, param, &step);
        check_status("optimizer_get_step", st, !ok);
        if (st != CT_OK && step != -9) die("optimizer_get_step", "an out-parameter was written by a failed call");
        if (in.u8() == 0) ct_optimizer_release(w.opt[k]), w.opt[k] = nullptr;
    }
    }
}

// A small float leaf that requires grad (graphs need one).
void leaf(Input& in, World& w) {
    int64_t shape[2] = {1 + in.u8() % 4, 1 + in.u8() % 4};
    int32_t nd = in.u8() % 3;
    ct_dtype dt = in.float_dtype();
    call(in, w.p, "randn", false, 1, 0, [&](ct_tensor* o) {
        ct_status st = ct_randn(shape, nd, dt, ct_cpu(), w.p.gen, o);
        if (st == CT_OK && ct_tensor_set_requires_grad(*o, 1) != CT_OK) die("tensor_set_requires_grad", ct_last_error());
        return st;
    });
}

void finish_callbacks() {
    for (HookCtx* h : g_hooks) {
        if (h->destroyed != 1) die("tensor_register_hook", "destroy_ctx did not run exactly once after every handle was released");
        delete h;
    }
    g_hooks.clear();
    for (FnCtx* f : g_fns) {
        if (f->released != 1) die("custom_function_apply", "ctx_release did not run exactly once after every handle was released");
        delete f;
    }
    g_fns.clear();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    init_library();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Input in{data, size};
    World w;
    g_world = &w;
    if (ct_generator_new(in.u64(), &w.p.gen) != CT_OK) die("generator_new", "failed", ct_last_error());
    ct_set_grad_enabled(1, nullptr);
    for (int step = 0; step < 64 && !in.done(); ++step) {
        uint8_t action = in.u8() % 16;
        if (action < 2) create_tensor(in, w.p);
        else if (action < 4) leaf(in, w);
        else if (action < 8) call_op(in, w.p);
        else if (action < 10) backward(in, w);
        else if (action == 10) grad_access(in, w);
        else if (action == 11) register_hook(in, w);
        else if (action == 12) custom_function(in, w);
        else if (action < 15) optimizer(in, w);
        else w.p.drop(in.u8() % Pool::kSlots);
        int64_t live = ct_live_handles(), want = w.handles();
        if (live != want) {
            char detail[96];
            std::snprintf(detail, sizeof detail, "ct_live_handles() = %lld, the target holds %lld", (long long)live, (long long)want);
            die("after an autograd action", "live handle count differs (a leaked or lost handle)", detail);
        }
    }
    for (ct_tensor t : w.kept) ct_tensor_release(t);
    w.kept.clear();
    ct_optimizer_release(w.opt[0]);
    ct_optimizer_release(w.opt[1]);
    w.p.clear();
    check_live("after releasing everything", w.p);
    finish_callbacks();
    finish_blobs();
    ct_set_grad_enabled(1, nullptr);
    g_world = nullptr;
    return 0;
}

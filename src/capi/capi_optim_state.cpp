// capi_optim_state.cpp - C API: optimizer state for state_dict / load_state_dict (per-parameter state
// tensors by name, step counts).
#include <cstring>
#include "capi/capi_common.h"
#include "ops/optim.h"

using namespace ct;

namespace {

std::shared_ptr<Optimizer> optimizer_arg(ct_optimizer h, const char* op) {
    return std::static_pointer_cast<Optimizer>(handle_get((uintptr_t)h, HandleKind::Optimizer, op, "opt"));
}

size_t param_arg(int32_t param, const char* op) {
    if (param < 0) fail(CT_ERR_INDEX, op, ": parameter index ", param, " is negative");
    return (size_t)param;
}

std::string name_arg(const char* name, const char* op) {
    if (!name) fail(CT_ERR_INVALID_ARGUMENT, op, ": state name is NULL");
    return name;
}

}  // namespace

extern "C" {

ct_status ct_optimizer_num_params(ct_optimizer opt, int32_t* n) {
    return guard([&] {
        check_out(n, "optimizer_num_params", "n");
        *n = (int32_t)optimizer_arg(opt, "optimizer_num_params")->num_params();
    });
}

ct_status ct_optimizer_state_names(ct_optimizer opt, char* buf, int32_t cap, int32_t* len) {
    return guard([&] {
        const char* op = "optimizer_state_names";
        std::string names;
        for (const std::string& s : optimizer_arg(opt, op)->state_names()) names += (names.empty() ? "" : ",") + s;
        text_out(names, buf, cap, len, op);
    });
}

ct_status ct_optimizer_get_state(ct_optimizer opt, int32_t param, const char* name, ct_tensor* out) {
    return guard([&] {
        const char* op = "optimizer_get_state";
        check_out(out, op);
        Tensor t = optimizer_arg(opt, op)->get_state(param_arg(param, op), name_arg(name, op));
        *out = t.defined() ? new_tensor_handle(t) : nullptr;
    });
}

ct_status ct_optimizer_set_state(ct_optimizer opt, int32_t param, const char* name, ct_tensor value) {
    return guard([&] {
        const char* op = "optimizer_set_state";
        auto o = optimizer_arg(opt, op);
        o->set_state(param_arg(param, op), name_arg(name, op), get_optional_tensor(value, op, "value"));
    });
}

ct_status ct_optimizer_get_step(ct_optimizer opt, int32_t param, int64_t* step) {
    return guard([&] {
        const char* op = "optimizer_get_step";
        check_out(step, op, "step");
        *step = optimizer_arg(opt, op)->get_step(param_arg(param, op));
    });
}

ct_status ct_optimizer_set_step(ct_optimizer opt, int32_t param, int64_t step) {
    return guard([&] {
        const char* op = "optimizer_set_step";
        optimizer_arg(opt, op)->set_step(param_arg(param, op), step);
    });
}

}  // extern "C"

// optim_state.cpp - reading and restoring optimizers' per-parameter state (momentum buffers, Adam moments,
// step counts), so that a training run saved with state_dict resumes exactly after load_state_dict.
#include "core/quote.h"
#include "ops/device_ops.h"
#include "ops/ops.h"
#include "ops/optim.h"

namespace ct {

namespace {
void check_param(const char* opt, size_t i, size_t n) {
    if (i >= n) fail(CT_ERR_INDEX, opt, ": parameter index ", i, " is out of range for ", n, " parameter(s)");
}
}  // namespace

Tensor Optimizer::get_state(size_t i, const std::string& name) {
    check_param(name_, i, params_.size());
    Tensor* slot = state_slot(i, name);
    if (!slot) fail(CT_ERR_INVALID_ARGUMENT, name_, ": unknown state ", quote_text(name, '\''));
    return slot->defined() ? clone(*slot) : Tensor();
}

void Optimizer::set_state(size_t i, const std::string& name, const Tensor& value) {
    check_param(name_, i, params_.size());
    Tensor* slot = state_slot(i, name);
    if (!slot) fail(CT_ERR_INVALID_ARGUMENT, name_, ": unknown state ", quote_text(name, '\''));
    const Tensor& p = params_[i];
    if (!value.defined()) {
        *slot = Tensor();
    } else {
        if (value.sizes() != p.sizes())
            fail(CT_ERR_SHAPE, name_, ": state ", quote_text(name, '\''), " of shape ", shape_str(value.sizes()), " for parameter ", i,
                 " of shape ", shape_str(p.sizes()));
        check_same_device(name_, p, value);
        Tensor copy = empty_tensor(p.sizes(), p.dtype(), p.device());  // contiguous, in the parameter's dtype
        copy_into(copy, value);  // either device; converts the dtype
        *slot = copy;
    }
}

int64_t Optimizer::get_step(size_t i) {
    check_param(name_, i, params_.size());
    int64_t* slot = step_slot(i);
    if (!slot) fail(CT_ERR_NOT_SUPPORTED, name_, ": this optimizer keeps no step count");
    return *slot;
}

void Optimizer::set_step(size_t i, int64_t step) {
    check_param(name_, i, params_.size());
    int64_t* slot = step_slot(i);
    if (!slot) fail(CT_ERR_NOT_SUPPORTED, name_, ": this optimizer keeps no step count");
    if (step < 0) fail(CT_ERR_INVALID_ARGUMENT, name_, ": step count ", step, " must be >= 0");
    *slot = step;
}

Tensor* SGD::state_slot(size_t i, const std::string& name) {
    return name == "momentum_buffer" ? &momentum_buffer_[i] : nullptr;
}

Tensor* Adam::state_slot(size_t i, const std::string& name) {
    if (name == "exp_avg") return &exp_avg_[i];
    if (name == "exp_avg_sq") return &exp_avg_sq_[i];
    return nullptr;
}

}  // namespace ct

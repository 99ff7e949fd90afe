// optim_hparams.cpp - reading and changing optimizers' hyper-parameters by name while training (what
// PyTorch's param_groups edits do: schedulers cycling momentum or betas, manual weight-decay changes).
#include "core/quote.h"
#include "ops/optim.h"

namespace ct {

namespace {
[[noreturn]] void fail_unknown_hparam(const char* opt, const std::string& name, const std::vector<std::string>& known) {
    std::string list;
    for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
    fail(CT_ERR_INVALID_ARGUMENT, opt, ": unknown hyper-parameter ", quote_text(name, '\''), " (known: ", list, ")");
}
}  // namespace

double Optimizer::get_hparam(const std::string& name) const {
    double value = 0.0;
    if (name == "lr") return lr_;
    if (!read_hparam(name, value)) fail_unknown_hparam(name_, name, hparam_names());
    return value;
}

void Optimizer::set_hparam(const std::string& name, double value) {
    if (name == "lr") return set_lr(value);
    if (!write_hparam(name, value)) fail_unknown_hparam(name_, name, hparam_names());
}

bool SGD::read_hparam(const std::string& name, double& value) const {
    if (name == "momentum") value = momentum_;
    else if (name == "dampening") value = dampening_;
    else if (name == "weight_decay") value = weight_decay_;
    else if (name == "nesterov") value = nesterov_ ? 1.0 : 0.0;
    else return false;
    return true;
}

bool SGD::write_hparam(const std::string& name, double value) {
    double momentum = momentum_, dampening = dampening_, weight_decay = weight_decay_;
    bool nesterov = nesterov_;
    if (name == "momentum") momentum = value;
    else if (name == "dampening") dampening = value;
    else if (name == "weight_decay") weight_decay = value;
    else if (name == "nesterov") {
        if (value != 0.0 && value != 1.0) fail(CT_ERR_INVALID_ARGUMENT, "sgd: nesterov must be 0 or 1, got ", value);
        nesterov = value != 0.0;
    } else {
        return false;
    }
    check_hparams(momentum, dampening, weight_decay, nesterov);
    momentum_ = momentum, dampening_ = dampening, weight_decay_ = weight_decay, nesterov_ = nesterov;
    return true;
}

bool Adam::read_hparam(const std::string& name, double& value) const {
    if (name == "beta1") value = beta1_;
    else if (name == "beta2") value = beta2_;
    else if (name == "eps") value = eps_;
    else if (name == "weight_decay") value = weight_decay_;
    else return false;
    return true;
}

bool Adam::write_hparam(const std::string& name, double value) {
    double beta1 = beta1_, beta2 = beta2_, eps = eps_, weight_decay = weight_decay_;
    if (name == "beta1") beta1 = value;
    else if (name == "beta2") beta2 = value;
    else if (name == "eps") eps = value;
    else if (name == "weight_decay") weight_decay = value;
    else return false;
    check_hparams(name_, beta1, beta2, eps, weight_decay);
    beta1_ = beta1, beta2_ = beta2, eps_ = eps, weight_decay_ = weight_decay;
    return true;
}

}  // namespace ct

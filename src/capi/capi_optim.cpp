// capi_optim.cpp - C API: optimizers (SGD, Adam, AdamW) behind ct_optimizer handles.
#include <functional>
#include <memory>
#include "capi/capi_common.h"
#include "ops/optim.h"

using namespace ct;

namespace {

std::shared_ptr<Optimizer> get_optimizer(ct_optimizer h, const char* op) {
    return std::static_pointer_cast<Optimizer>(handle_get((uintptr_t)h, HandleKind::Optimizer, op, "opt"));
}

ct_status new_optimizer(ct_optimizer* out, const char* op, const std::function<std::shared_ptr<Optimizer>()>& make) {
    return guard([&] {
        check_out(out, op);
        std::shared_ptr<Optimizer> opt = make();
        *out = (ct_optimizer)handle_new(HandleKind::Optimizer, std::static_pointer_cast<void>(opt));
    });
}

}  // namespace

extern "C" {

ct_status ct_optim_sgd_new(const ct_tensor* params, int32_t n, double lr, double momentum, double dampening,
                           double weight_decay, int32_t nesterov, ct_optimizer* out) {
    return new_optimizer(out, "sgd", [&] {
        return std::make_shared<SGD>(tensor_list_arg(params, n, "sgd", "params"), lr, momentum, dampening,
                                     weight_decay, nesterov != 0);
    });
}

ct_status ct_optim_adam_new(const ct_tensor* params, int32_t n, double lr, double beta1, double beta2, double eps,
                            double weight_decay, ct_optimizer* out) {
    return new_optimizer(out, "adam", [&] {
        return std::make_shared<Adam>(tensor_list_arg(params, n, "adam", "params"), lr, beta1, beta2, eps,
                                      weight_decay, false);
    });
}

ct_status ct_optim_adamw_new(const ct_tensor* params, int32_t n, double lr, double beta1, double beta2, double eps,
                             double weight_decay, ct_optimizer* out) {
    return new_optimizer(out, "adamw", [&] {
        return std::make_shared<Adam>(tensor_list_arg(params, n, "adamw", "params"), lr, beta1, beta2, eps,
                                      weight_decay, true);
    });
}

ct_optimizer ct_optimizer_retain(ct_optimizer opt) {
    handle_retain((uintptr_t)opt, HandleKind::Optimizer);
    return opt;
}

void ct_optimizer_release(ct_optimizer opt) { handle_release((uintptr_t)opt, HandleKind::Optimizer); }

ct_status ct_optimizer_step(ct_optimizer opt) {
    return guard([&] { get_optimizer(opt, "optimizer_step")->step(); });
}

ct_status ct_optimizer_zero_grad(ct_optimizer opt, int32_t set_to_none) {
    return guard([&] { get_optimizer(opt, "optimizer_zero_grad")->zero_grad(set_to_none != 0); });
}

ct_status ct_optimizer_set_lr(ct_optimizer opt, double lr) {
    return guard([&] { get_optimizer(opt, "optimizer_set_lr")->set_lr(lr); });
}

ct_status ct_optimizer_get_lr(ct_optimizer opt, double* lr) {
    return guard([&] {
        check_out(lr, "optimizer_get_lr", "lr");
        *lr = get_optimizer(opt, "optimizer_get_lr")->lr();
    });
}

ct_status ct_optimizer_set_hparam(ct_optimizer opt, const char* name, double value) {
    return guard([&] {
        auto o = get_optimizer(opt, "optimizer_set_hparam");
        check_out(name, "optimizer_set_hparam", "name");
        o->set_hparam(name, value);
    });
}

ct_status ct_optimizer_get_hparam(ct_optimizer opt, const char* name, double* value) {
    return guard([&] {
        auto o = get_optimizer(opt, "optimizer_get_hparam");
        check_out(name, "optimizer_get_hparam", "name");
        check_out(value, "optimizer_get_hparam", "value");
        *value = o->get_hparam(name);
    });
}

}  // extern "C"

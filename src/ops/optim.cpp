// optim.cpp - SGD, Adam and AdamW with torch.optim's update rules, as one fused loop per parameter.
// Parameters are updated in place under no_grad; non-contiguous parameters go through a contiguous copy.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-math-errno", "no-trapping-math")  // lets sqrt and the selects in the loops vectorise
#endif
#include "ops/optim.h"
#include <cmath>
#include "autograd/grad_mode.h"
#include "core/backend.h"
#include "core/optim_math.h"
#include "cpu/kernels.h"
#include "ops/device_ops.h"
#include "ops/elementwise.h"
#include "ops/half_compute.h"
#include "ops/nn_common.h"

namespace ct {

namespace {
void check_lr(const char* op, double lr) {
    if (!(lr >= 0.0)) fail(CT_ERR_INVALID_ARGUMENT, op, ": invalid learning rate ", lr, " (must be >= 0)");
}
}  // namespace

Optimizer::Optimizer(const char* name, std::vector<Tensor> params, double lr)
    : name_(name), params_(std::move(params)), lr_(lr) {
    check_lr(name, lr);
    for (size_t i = 0; i < params_.size(); ++i) {
        const Tensor& p = params_[i];
        if (!is_floating(p.dtype()))
            fail(CT_ERR_DTYPE, name, ": parameter ", i, " has dtype ", dtype_name(p.dtype()),
                 "; only floating tensors can be optimized");
        if (!is_leaf(p))
            fail(CT_ERR_INVALID_ARGUMENT, name, ": parameter ", i, " (shape ", shape_str(p.sizes()),
                 ") is not a leaf tensor (it was computed by ", grad_fn_of(p)->name(), "); optimize the leaf instead");
        for (size_t j = 0; j < i; ++j)
            if (params_[j].is_same(p))
                fail(CT_ERR_INVALID_ARGUMENT, name, ": parameter ", i, " is the same tensor as parameter ", j);
    }
}

void Optimizer::set_lr(double lr) {
    check_lr(name_, lr);
    lr_ = lr;
}

void Optimizer::step() {
    NoGradGuard no_grad;
    // Note [Step all or nothing]: first everything the updates need is allocated (gradients made contiguous in
    // the parameter's dtype, copies of non-contiguous parameters, missing state); only then is any parameter
    // written. A step that fails for want of memory leaves every parameter and state as it was.
    struct Work {
        size_t i;
        Tensor target, grad;       // contiguous: the parameter itself or its copy
        std::vector<Tensor> fresh;  // state created for this step (see allocate_state)
        // Note [Half step]: per state name, its float32 copy (undefined while no state) and the half tensor the
        // result is rounded into; empty for a parameter that is not half
        std::vector<std::pair<Tensor, Tensor>> half_state;
    };
    std::vector<Work> work;
    for (size_t i = 0; i < params_.size(); ++i) {
        const Tensor& p = params_[i];
        Tensor g = grad_of(p);
        if (!g.defined()) continue;
        if (g.sizes() != p.sizes())
            fail(CT_ERR_SHAPE, name_, ": parameter ", i, " has shape ", shape_str(p.sizes()),
                 " but its grad has shape ", shape_str(g.sizes()));
        // Note [Half step]: a float16/bfloat16 parameter is updated as a float32 copy, with its grad and state as
        // float32, and the parameter and state are then rounded back into tensors of its dtype (the state is stored
        // as torch stores it). Every copy is made here, before any parameter is written (Note [Step all or nothing]).
        // On CUDA the fused kernels take the half tensors themselves and compute the same (Note [Native half step]
        // in cuda/optim.cuh): no copies.
        const DType cd = native_half(p) ? p.dtype() : compute_dtype(p.dtype());
        Work w{i, p.is_contiguous() && cd == p.dtype() ? p : contiguous_nograd(cast_nograd(p, cd)),
               contiguous_nograd(cast_nograd(g, cd)), {}, {}};
        if (cd != p.dtype())
            for (const std::string& name : state_names()) {
                const Tensor* slot = state_slot(i, name);
                w.half_state.emplace_back(slot->defined() ? contiguous_nograd(cast_nograd(*slot, cd)) : Tensor(),
                                          empty_tensor(p.sizes(), p.dtype(), p.device()));
            }
        allocate_state(i, w.target, w.fresh);
        work.push_back(std::move(w));
    }
    for (Work& w : work) {
        const Tensor& p = params_[w.i];
        const std::vector<std::string> names = w.half_state.empty() ? std::vector<std::string>{} : state_names();
        for (size_t k = 0; k < names.size(); ++k)
            if (w.half_state[k].first.defined()) *state_slot(w.i, names[k]) = w.half_state[k].first;
        update(w.i, w.target, w.grad, std::move(w.fresh));
        for (size_t k = 0; k < names.size(); ++k) {
            Tensor* slot = state_slot(w.i, names[k]);
            if (!slot->defined()) continue;
            copy_into(w.half_state[k].second, *slot);  // rounds to the parameter's dtype
            *slot = w.half_state[k].second;
        }
        if (!w.target.is_same(p)) copy_into(p, w.target);
        p.bump_version();
    }
}

void Optimizer::zero_grad(bool set_to_none) {
    for (const Tensor& p : params_) {
        Tensor g = grad_of(p);
        if (!g.defined()) continue;
        if (set_to_none) {
            set_grad_of(p, Tensor());
        } else if (tensor_requires_grad(g)) {
            // a grad with history (create_graph): start afresh, like PyTorch's detach_ + zero_
            set_grad_of(p, zeros_like(g));
        } else {
            fill_into(g, 0.0);
            g.bump_version();
        }
    }
}

// ---- SGD ------------------------------------------------------------------------------------------------

SGD::SGD(std::vector<Tensor> params, double lr, double momentum, double dampening, double weight_decay, bool nesterov)
    : Optimizer("sgd", std::move(params), lr), momentum_(momentum), dampening_(dampening),
      weight_decay_(weight_decay), nesterov_(nesterov), momentum_buffer_(params_.size()) {
    check_hparams(momentum, dampening, weight_decay, nesterov);
}

void SGD::check_hparams(double momentum, double dampening, double weight_decay, bool nesterov) {
    if (!(momentum >= 0.0)) fail(CT_ERR_INVALID_ARGUMENT, "sgd: invalid momentum ", momentum, " (must be >= 0)");
    if (!(weight_decay >= 0.0))
        fail(CT_ERR_INVALID_ARGUMENT, "sgd: invalid weight_decay ", weight_decay, " (must be >= 0)");
    if (!std::isfinite(dampening)) fail(CT_ERR_INVALID_ARGUMENT, "sgd: invalid dampening ", dampening);
    if (nesterov && (momentum <= 0.0 || dampening != 0.0))
        fail(CT_ERR_INVALID_ARGUMENT, "sgd: nesterov momentum requires a momentum > 0 and zero dampening ",
             "(got momentum ", momentum, ", dampening ", dampening, ")");
}

namespace {

// One fused SGD pass; the flags are template parameters so that each variant is a branch-free loop.
template <typename T, bool Decay, bool Momentum, bool First, bool Nesterov>
void sgd_loop(T* w, const T* g, T* buf, int64_t n, const math::SgdCoeffs<T>& c) {
    parallel_for(n, kElementwiseGrain, [&](int64_t b, int64_t e) {
        for (int64_t k = b; k < e; ++k) {
            T unused = T(0);
            math::sgd_element<Decay, Momentum, First, Nesterov>(w[k], g[k], Momentum ? buf[k] : unused, c);
        }
    });
}

template <typename T, bool Decay>
void sgd_dispatch(bool momentum, bool first, bool nesterov, T* w, const T* g, T* buf, int64_t n,
                  const math::SgdCoeffs<T>& c) {
    if (!momentum) return sgd_loop<T, Decay, false, false, false>(w, g, buf, n, c);
    if (first && nesterov) return sgd_loop<T, Decay, true, true, true>(w, g, buf, n, c);
    if (first) return sgd_loop<T, Decay, true, true, false>(w, g, buf, n, c);
    if (nesterov) return sgd_loop<T, Decay, true, false, true>(w, g, buf, n, c);
    sgd_loop<T, Decay, true, false, false>(w, g, buf, n, c);
}

}  // namespace

void SGD::allocate_state(size_t i, const Tensor& p, std::vector<Tensor>& fresh) {
    if (momentum_ != 0.0 && !momentum_buffer_[i].defined())
        fresh.push_back(empty_tensor(p.sizes(), p.dtype(), p.device()));
}

void SGD::update(size_t i, const Tensor& p, const Tensor& grad, std::vector<Tensor>&& fresh) {
    const bool momentum = momentum_ != 0.0, first = !fresh.empty();
    if (first) momentum_buffer_[i] = std::move(fresh[0]);  // filled by the update: the first step copies d
    const ct_cuda_sgd a{lr_, weight_decay_, momentum_, 1.0 - dampening_, weight_decay_ != 0.0, momentum, first,
                        nesterov_};
    if (!p.device().is_cpu()) {  // one fused kernel per parameter (float16/bfloat16 natively)
        const int32_t dev = p.device().index;
        cuda_check(name_, cuda_device_backend(name_, dev).sgd(dev, (int32_t)p.dtype(), p.numel(), p.device_data(),
                                                              grad.device_data(),
                                                              momentum ? momentum_buffer_[i].device_data() : nullptr,
                                                              &a));
        return;
    }
    dispatch_float(p.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* buf = momentum ? momentum_buffer_[i].data<T>() : nullptr;
        const math::SgdCoeffs<T> c{(T)a.lr, (T)a.wd, (T)a.mom, (T)a.keep};
        T* w = p.data<T>();
        const T* g = grad.data<T>();
        if (a.decay)
            sgd_dispatch<T, true>(momentum, first, nesterov_, w, g, buf, p.numel(), c);
        else
            sgd_dispatch<T, false>(momentum, first, nesterov_, w, g, buf, p.numel(), c);
    });
}

// ---- Adam / AdamW ---------------------------------------------------------------------------------------

Adam::Adam(std::vector<Tensor> params, double lr, double beta1, double beta2, double eps, double weight_decay,
           bool decoupled)
    : Optimizer(decoupled ? "adamw" : "adam", std::move(params), lr), beta1_(beta1), beta2_(beta2), eps_(eps),
      weight_decay_(weight_decay), decoupled_(decoupled), exp_avg_(params_.size()), exp_avg_sq_(params_.size()),
      steps_(params_.size(), 0) {
    check_hparams(name_, beta1, beta2, eps, weight_decay);
}

void Adam::check_hparams(const char* name, double beta1, double beta2, double eps, double weight_decay) {
    if (!(eps >= 0.0)) fail(CT_ERR_INVALID_ARGUMENT, name, ": invalid epsilon ", eps, " (must be >= 0)");
    if (!(beta1 >= 0.0 && beta1 < 1.0))
        fail(CT_ERR_INVALID_ARGUMENT, name, ": invalid beta1 ", beta1, " (must be in [0, 1))");
    if (!(beta2 >= 0.0 && beta2 < 1.0))
        fail(CT_ERR_INVALID_ARGUMENT, name, ": invalid beta2 ", beta2, " (must be in [0, 1))");
    if (!(weight_decay >= 0.0))
        fail(CT_ERR_INVALID_ARGUMENT, name, ": invalid weight_decay ", weight_decay, " (must be >= 0)");
}

namespace {

// One fused Adam pass over the shared element math (core/optim_math.h).
template <typename T, bool Decoupled, bool L2>
void adam_loop(T* w, const T* g, T* m, T* v, int64_t n, const math::AdamCoeffs<T>& c) {
    parallel_for(n, kElementwiseGrain, [&](int64_t b, int64_t e) {
        for (int64_t k = b; k < e; ++k) math::adam_element<Decoupled, L2>(w[k], g[k], m[k], v[k], c);
    });
}

}  // namespace

// Each moment is created (as zeros, on the parameter's device) when missing: at the first step or after
// ct_optimizer_set_state cleared it. fresh = {exp_avg, exp_avg_sq}, undefined where the moment exists.
void Adam::allocate_state(size_t i, const Tensor& p, std::vector<Tensor>& fresh) {
    fresh.push_back(exp_avg_[i].defined() ? Tensor() : zeros(p.sizes(), p.dtype(), p.device()));
    fresh.push_back(exp_avg_sq_[i].defined() ? Tensor() : zeros(p.sizes(), p.dtype(), p.device()));
}

void Adam::update(size_t i, const Tensor& p, const Tensor& grad, std::vector<Tensor>&& fresh) {
    if (fresh.at(0).defined()) exp_avg_[i] = std::move(fresh[0]);
    if (fresh.at(1).defined()) exp_avg_sq_[i] = std::move(fresh[1]);
    const double step = (double)++steps_[i];
    const double bias1 = 1.0 - std::pow(beta1_, step), bias2 = 1.0 - std::pow(beta2_, step);
    const ct_cuda_adam a{1.0 - lr_ * weight_decay_, weight_decay_, 1.0 - beta1_, beta2_, 1.0 - beta2_, eps_,
                         lr_ / bias1, std::sqrt(bias2), decoupled_ ? 1 : 0, !decoupled_ && weight_decay_ != 0.0};
    const int64_t n = p.numel();
    if (!p.device().is_cpu()) {  // one fused kernel per parameter
        const int32_t dev = p.device().index;
        cuda_check(name_, cuda_device_backend(name_, dev).adam(dev, (int32_t)p.dtype(), n, p.device_data(),
                                                               grad.device_data(), exp_avg_[i].device_data(),
                                                               exp_avg_sq_[i].device_data(), &a));
        return;
    }
    dispatch_float(p.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T *w = p.data<T>(), *m = exp_avg_[i].data<T>(), *v = exp_avg_sq_[i].data<T>();
        const T* g = grad.data<T>();
        const math::AdamCoeffs<T> c{(T)a.shrink, (T)a.l2, (T)a.w1, (T)a.b2, (T)a.w2, (T)a.eps, (T)a.step_size,
                                    (T)a.bias2_sqrt};
        if (a.decoupled)
            adam_loop<T, true, false>(w, g, m, v, n, c);
        else if (a.l2_decay)
            adam_loop<T, false, true>(w, g, m, v, n, c);
        else
            adam_loop<T, false, false>(w, g, m, v, n, c);
    });
}

}  // namespace ct

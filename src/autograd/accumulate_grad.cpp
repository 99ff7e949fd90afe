// accumulate_grad.cpp - gradient accumulation into .grad of leaves and of non-leaves that retain grad.
#include "autograd/accumulate_grad.h"
#include "autograd/grad_mode.h"
#include "ops/ops.h"

namespace ct {

AccumulateGrad::AccumulateGrad(std::shared_ptr<TensorImpl> leaf) : leaf_(std::move(leaf)), weak_leaf_(leaf_) {
    Tensor t(leaf_);
    outputs.push_back(OutputMeta{t.sizes(), t.dtype(), t.device()});
    retained.resize(1);
}

std::shared_ptr<TensorImpl> AccumulateGrad::leaf() const {
    if (auto strong = std::atomic_load(&leaf_)) return strong;
    return weak_leaf_.lock();
}

void AccumulateGrad::let_go_of_leaf() noexcept { std::atomic_store(&leaf_, std::shared_ptr<TensorImpl>()); }

namespace {

// The tensor stored as a new .grad for the incoming gradient g. g itself only when nothing else can see or write
// its memory: no C handle to it (a caller's grad_output, a hook's replacement), no other tensor on its storage,
// and not a leaf that requires grad (x.grad = x would be a cycle no release can break). Otherwise a copy, so that
// accumulating into .grad later never writes into a caller's tensor; with create_graph the copy is a
// differentiable clone that keeps g's history, which Note [Grad cycle] cuts when the leaf's last handle goes.
Tensor new_grad_value(const Tensor& g) {
    bool exclusive = g.storage().use_count() == 1 && g.is_contiguous() &&
                     g.impl()->handles.load(std::memory_order_acquire) == 0;
    if (GradMode::is_enabled()) return exclusive && (grad_fn_of(g) || !tensor_requires_grad(g)) ? g : clone(g);
    return exclusive && !tensor_requires_grad(g) ? detach(g) : clone(detach(g));
}

// Adds gg into meta.grad (the lock held): the one-phase rule, used when the .grad changed after prepare_grad.
void merge_locked(AutogradMeta& meta, const Tensor& gg, Tensor& dropped) {
    if (!meta.grad.defined()) {
        meta.grad = new_grad_value(gg);
    } else if (GradMode::is_enabled()) {
        Tensor sum = add(meta.grad, gg);  // create_graph: keep the sum differentiable
        dropped = std::move(meta.grad);
        meta.grad = std::move(sum);
    } else {
        add_(meta.grad, gg, 1.0);
    }
}

}  // namespace

PreparedGrad prepare_grad(const Tensor& t, const Tensor& g) {
    auto& meta = autograd_meta(t);
    if (g.sizes() != t.sizes())
        fail(CT_ERR_INTERNAL, "backward: gradient of shape ", shape_str(g.sizes()), " for a tensor of shape ",
             shape_str(t.sizes()));
    PreparedGrad p;
    p.target = t;
    p.grad = g.dtype() == t.dtype() ? g : to_dtype(g, t.dtype());
    {
        std::lock_guard<std::mutex> lock(meta.grad_mu);
        p.seen = meta.grad;
        if (p.seen.defined()) p.seen_version = p.seen.version();
        // create_graph: keep the sum differentiable. It reads the .grad's values, which another thread's
        // commit_grad may be adding into in place: under the lock, never beside that write (TSan, stress_threads).
        if (p.seen.defined() && GradMode::is_enabled()) p.value = add(p.seen, p.grad);
    }
    if (!p.seen.defined()) p.value = new_grad_value(p.grad);
    // else without grad mode: added in place at commit (same shape and dtype: no allocation)
    return p;
}

void commit_grad(PreparedGrad&& p) {
    const Tensor& t = p.target;
    auto& meta = autograd_meta(t);
    // Replaced gradients are dropped after the lock: freeing their graph may run custom-function context
    // releases, which may call back into the library (and release a handle of t).
    Tensor old, with_history;
    std::lock_guard<std::mutex> lock(meta.grad_mu);
    if (meta.grad.impl() != p.seen.impl() || (meta.grad.defined() && meta.grad.version() != p.seen_version)) {
        // another thread accumulated meanwhile: replaced the .grad, or added into it in place (then p.value,
        // computed from the old values, would lose that addition)
        merge_locked(meta, p.grad, old);
    } else if (p.value.defined()) {
        old = std::move(meta.grad);
        meta.grad = std::move(p.value);
    } else {
        add_(meta.grad, p.grad, 1.0);
    }
    // Note [Grad cycle]: no handle can reach t's gradient, so its history would only make a cycle.
    if (GradMode::is_enabled() && t.impl()->handles.load(std::memory_order_acquire) == 0 &&
        grad_fn_of(meta.grad)) {
        with_history = std::move(meta.grad);
        meta.grad = detach(with_history);
    }
}

void accumulate_into_grad(const Tensor& t, const Tensor& g) { commit_grad(prepare_grad(t, g)); }

void last_handle_released(const Tensor& t) noexcept {
    AutogradMeta* meta = t.impl()->autograd.get();
    if (!meta) return;
    if (meta->grad_fn) {  // Note [Former leaf cycle]
        std::shared_ptr<Node> acc;
        {
            std::lock_guard<std::mutex> lock(meta->mu);
            acc = meta->grad_accumulator.lock();
        }
        if (acc) static_cast<AccumulateGrad&>(*acc).let_go_of_leaf();
    }
    Tensor old;  // dropped after the lock: this may free the gradient's whole graph
    try {
        std::lock_guard<std::mutex> lock(meta->grad_mu);
        // a handle made meanwhile (by another thread) may want the history: keep it then
        if (t.impl()->handles.load(std::memory_order_acquire) != 0 || !meta->grad.defined() ||
            !grad_fn_of(meta->grad))
            return;
        Tensor plain = detach(meta->grad);
        old = std::move(meta->grad);
        meta->grad = std::move(plain);
    } catch (...) {
        // no memory for the detached view: the gradient keeps its history (and the cycle), nothing breaks
    }
}

TensorList AccumulateGrad::apply(TensorList&& grads) {
    if (auto leaf = this->leaf()) accumulate_into_grad(Tensor(std::move(leaf)), grads.at(0));
    return {};
}

}  // namespace ct

// hooks.cpp - registering, removing and running tensor hooks (see hooks.h).
#include "autograd/hooks.h"
#include <atomic>
#include "autograd/accumulate_grad.h"

namespace ct {

namespace {
std::atomic<int64_t> next_hook_id{1};
}  // namespace

int64_t register_tensor_hook(const Tensor& t, TensorHookFn fn, bool run_last) {
    if (!tensor_requires_grad(t))
        fail(CT_ERR_AUTOGRAD, "register_hook: cannot register a hook on a tensor (shape ", shape_str(t.sizes()),
             ") that does not require grad");
    AutogradMeta& meta = autograd_meta(t);
    std::shared_ptr<Node> fn_node = grad_fn_of(t);
    {
        std::lock_guard<std::mutex> lock(meta.mu);
        if (!meta.hooks) meta.hooks = std::make_shared<TensorHooks>();
    }
    if (fn_node) {  // non-leaf: the node that made t runs the hooks on that output's gradient
        if (fn_node->pre_hooks.size() < fn_node->outputs.size()) fn_node->pre_hooks.resize(fn_node->outputs.size());
        fn_node->pre_hooks[meta.output_nr] = meta.hooks;
    }
    int64_t id = next_hook_id.fetch_add(1);
    std::lock_guard<std::mutex> lock(meta.hooks->mu);
    (run_last ? meta.hooks->last : meta.hooks->fns).emplace_back(id, std::make_shared<TensorHookFn>(std::move(fn)));
    return id;
}

bool remove_tensor_hook(const Tensor& t, int64_t id) {
    auto* meta = t.impl()->autograd.get();
    if (!meta || !meta->hooks) return false;
    std::shared_ptr<TensorHookFn> removed;  // destroyed after the lock is released
    std::lock_guard<std::mutex> lock(meta->hooks->mu);
    for (auto* fns : {&meta->hooks->fns, &meta->hooks->last}) {
        for (auto it = fns->begin(); it != fns->end(); ++it) {
            if (it->first != id) continue;
            removed = std::move(it->second);
            fns->erase(it);
            return true;
        }
    }
    return false;
}

Tensor run_tensor_hooks(TensorHooks& hooks, Tensor g, const OutputMeta& meta, const std::string& node_name) {
    std::vector<std::shared_ptr<TensorHookFn>> fns;  // a snapshot: a hook may remove hooks while running
    {
        std::lock_guard<std::mutex> lock(hooks.mu);
        for (auto& p : hooks.fns) fns.push_back(p.second);
        for (auto& p : hooks.last) fns.push_back(p.second);
    }
    for (auto& fn : fns) {
        Tensor r = (*fn)(g);
        if (!r.defined()) continue;
        if (r.sizes() != meta.sizes || r.device() != meta.device)
            fail(CT_ERR_CALLBACK, "hook: a hook on an output of ", node_name, " returned a gradient of shape ",
                 shape_str(r.sizes()), " on ", device_str(r.device()), " for a tensor of shape ",
                 shape_str(meta.sizes), " on ", device_str(meta.device));
        if (!is_floating(r.dtype()))
            fail(CT_ERR_CALLBACK, "hook: a hook on an output of ", node_name, " returned a gradient of dtype ",
                 dtype_name(r.dtype()), " (expected a floating dtype)");
        g = r;
    }
    return g;
}

TensorHooks* hooks_of(Node* node, size_t i) {
    if (auto* acc = dynamic_cast<AccumulateGrad*>(node)) {
        auto leaf = acc->leaf();  // gone: Note [Former leaf cycle]; its hooks went with it
        auto* meta = leaf ? leaf->autograd.get() : nullptr;
        return meta ? meta->hooks.get() : nullptr;
    }
    return i < node->pre_hooks.size() ? node->pre_hooks[i].get() : nullptr;
}

}  // namespace ct

// hooks.h - tensor hooks (torch.Tensor.register_hook): functions of a tensor's gradient, run by the engine
// before the gradient is used, that may replace it. Non-leaf hooks sit on the grad_fn's pre_hooks (per
// output); leaf hooks are read from the leaf's AutogradMeta by its AccumulateGrad node.
#pragma once
#include <functional>
#include <mutex>
#include "autograd/node.h"

namespace ct {

// Returns the replacement gradient, or an undefined Tensor to keep the one given.
using TensorHookFn = std::function<Tensor(const Tensor&)>;

struct TensorHooks {
    std::mutex mu;
    std::vector<std::pair<int64_t, std::shared_ptr<TensorHookFn>>> fns;   // registration order
    std::vector<std::pair<int64_t, std::shared_ptr<TensorHookFn>>> last;  // after every fn (data-parallel reducers)
};

// Registers fn on t (which must require grad); returns the hook's id (unique in the process). run_last: fn runs
// after every other hook, whenever registered (the data-parallel reducer reads the gradient the users' hooks made,
// as torch's DDP reads it after accumulation).
int64_t register_tensor_hook(const Tensor& t, TensorHookFn fn, bool run_last = false);
// Removes hook id from t; false when t has no such hook.
bool remove_tensor_hook(const Tensor& t, int64_t id);
// Runs the hooks on g in order (each sees the previous one's result); checks shape/dtype/device stay usable.
Tensor run_tensor_hooks(TensorHooks& hooks, Tensor g, const OutputMeta& meta, const std::string& node_name);
// The hooks that apply to output i of node (null when none).
TensorHooks* hooks_of(Node* node, size_t i);

}  // namespace ct

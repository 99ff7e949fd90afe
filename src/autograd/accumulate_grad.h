// accumulate_grad.h - the node at a leaf: adds incoming gradients into the leaf's .grad.
#pragma once
#include "autograd/node.h"

namespace ct {

class AccumulateGrad : public Node {
  public:
    explicit AccumulateGrad(std::shared_ptr<TensorImpl> leaf);
    std::string name() const override { return "AccumulateGrad"; }
    TensorList apply(TensorList&& grads) override;
    // The tensor whose .grad this node writes; null once it is gone (only after let_go_of_leaf).
    std::shared_ptr<TensorImpl> leaf() const;
    // Note [Former leaf cycle]: from now on the node no longer keeps its tensor alive. Thread-safe; never throws.
    void let_go_of_leaf() noexcept;
  private:
    // Strong until let_go_of_leaf: the graph keeps its leaves alive (the leaf holds the node weakly, so this is no
    // cycle while the leaf is a leaf). Read and reset with std::atomic_load/atomic_store: a backward on another
    // thread may read it while a release lets go. weak_leaf_ never changes.
    std::shared_ptr<TensorImpl> leaf_;
    std::weak_ptr<TensorImpl> weak_leaf_;
};

// Note [Former leaf cycle]: a leaf x that required grad gets an AccumulateGrad node as soon as an op records it;
// nodes of later ops hold that node and it holds x. If x's requires_grad is then cleared and an in-place op with an
// operand that depends on x gives x a history (x.requires_grad_(False); x.mul_(x.flip(0))), x's own grad_fn
// reaches its own AccumulateGrad: x -> grad_fn -> ... -> AccumulateGrad(x) -> x, a cycle that no release breaks.
// When the last C handle to such an x goes (x has a grad_fn and its AccumulateGrad still exists), that node lets
// go of x: x stays alive while anything else holds it (views, saved tensors), and a backward that reaches the node
// after x is gone skips the accumulation, whose result no one could read. x's own history is kept, so views of x
// still rebuild theirs from it.

// Note [Grad cycle]: backward with create_graph stores in x.grad a gradient whose graph usually reaches x
// again (a node saving x, x's AccumulateGrad): x -> grad -> graph -> x, a cycle of strong references that
// would keep the whole graph, its custom-function contexts and imported DLPack memory alive forever (the
// leak PyTorch documents). Only a holder of x can reach x.grad, so when the last C handle to x goes
// (TensorImpl::handles), x.grad keeps its values but drops its history, which breaks the cycle; a handle to
// the gradient itself (from ct_tensor_grad) keeps that gradient's graph alive for double backward. For the
// same reason a gradient accumulated with create_graph into a tensor that no handle holds is stored without
// its history. A custom-function context that holds a handle to x keeps x's handle count above zero: that
// cycle runs through caller memory the library cannot see, and stays until the context lets x go.
// Called when the last C handle to t is released (Note [Grad cycle]); never throws.
void last_handle_released(const Tensor& t) noexcept;

// Adds g into t's .grad (t a leaf or a non-leaf retaining grad); records a graph when grad mode is on.
void accumulate_into_grad(const Tensor& t, const Tensor& g);

// accumulate_into_grad in two phases, so that a backward failing part-way (out of memory) changes no .grad:
// prepare_grad does all that allocates (dtype conversion, the copy or the differentiable sum) and may throw;
// commit_grad stores the result, and allocates only when another thread changed t's .grad in between (it then
// merges p.grad by the one-phase rule).
struct PreparedGrad {
    Tensor target;  // the tensor whose .grad is written
    Tensor grad;    // the incoming gradient in target's dtype
    Tensor seen;    // target's .grad when prepared
    int64_t seen_version = 0;  // seen's version then: an in-place accumulation since means value is stale
    Tensor value;   // the new .grad to store; undefined: add grad into seen in place
};
PreparedGrad prepare_grad(const Tensor& t, const Tensor& g);
void commit_grad(PreparedGrad&& p);

}  // namespace ct

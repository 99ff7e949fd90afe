// accumulate_grad.h - the node at a leaf: adds incoming gradients into the leaf's .grad.
#pragma once
#include "autograd/node.h"

namespace ct {

class AccumulateGrad : public Node {
  public:
    explicit AccumulateGrad(std::shared_ptr<TensorImpl> leaf);
    std::string name() const override { return "AccumulateGrad"; }
    TensorList apply(TensorList&& grads) override;
    const std::shared_ptr<TensorImpl>& leaf() const { return leaf_; }
  private:
    std::shared_ptr<TensorImpl> leaf_;  // strong: the graph keeps its leaves alive (no cycle: leaf holds weak)
};

// Adds g into t's .grad (t a leaf or a non-leaf retaining grad); records a graph when grad mode is on.
void accumulate_into_grad(const Tensor& t, const Tensor& g);

}  // namespace ct

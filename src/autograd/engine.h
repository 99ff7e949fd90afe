// engine.h - runs backward over the recorded graph: iterative topological order (no recursion),
// gradient summation per node input, accumulation into leaves or capture for autograd.grad.
#pragma once
#include "autograd/node.h"

namespace ct {

// tensor.backward(grad_output): grad_output undefined means ones (tensor must have one element).
void backward(const TensorList& roots, const TensorList& grad_roots, bool retain_graph, bool create_graph);

// True while this thread runs the nodes of a backward() (which accumulates into .grad), false in grad() and
// outside the engine. Hooks that act on .grad (data-parallel gradient averaging) skip autograd.grad with it.
bool backward_accumulates();

// torch.autograd.grad: gradients of roots w.r.t. inputs without touching .grad. Unused inputs give undefined
// tensors when allow_unused, else an error.
TensorList grad(const TensorList& roots, const TensorList& grad_roots, const TensorList& inputs, bool retain_graph,
                bool create_graph, bool allow_unused);

}  // namespace ct

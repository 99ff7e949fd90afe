// format.h - PyTorch-like text form of a tensor (what Python's repr(torch.tensor(...)) prints).
#pragma once
#include <string>
#include "core/tensor.h"

namespace ct {

// "tensor([[1., 2.],\n        [3., 4.]], requires_grad=True)": torch._tensor_str's rules (precision 4,
// summary with 3 edge items above 1000 elements, line width 80), dtype written as "dtype=float64".
std::string tensor_repr(const Tensor& t);

}  // namespace ct

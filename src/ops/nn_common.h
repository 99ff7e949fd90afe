// nn_common.h - helpers shared by the nn op files (nn_functional.cpp, nn_loss.cpp, nn_conv.cpp, nn_pool.cpp).
#pragma once
#include "ops/elementwise.h"

namespace ct {

// A tensor of shape sizes seen as [outer, n, inner] around dim d (contiguous layout).
struct DimLayout {
    int64_t outer, n, inner;
};
DimLayout dim_layout(const Shape& sizes, int64_t d);

// t itself when contiguous, else a contiguous copy; never records autograd (for kernels).
Tensor contiguous_nograd(const Tensor& t);

// torch's apply_loss_reduction: loss itself (None), its mean or its sum over all elements (nn_loss_pointwise.cpp).
Tensor apply_reduction(const Tensor& loss, Reduction r);
// Checks a loss's input and target: one device, floating input, shapes that broadcast (errors name op).
void check_loss_pair(const char* op, const Tensor& input, const Tensor& target);

// Output size of pooling one axis of size in (PyTorch's pooling_output_shape; nn_pool.cpp), overflow-checked.
int64_t pooled_size(const char* op, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode);

}  // namespace ct

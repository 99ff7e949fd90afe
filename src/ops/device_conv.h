// device_conv.h - N-d convolution and pooling kernels of CUDA tensors: im2col / col2im kernels around cuBLAS gemms
// (strided-batched over samples), and the pooling kernels, through the backend's table (cuda/conv.cuh).
#pragma once
#include "core/backend.h"
#include "core/tensor.h"

namespace ct {

// One convolution: the backend's per-sample geometry (3 normalised spatial dims, ops/conv_geom.h) plus batch
// size N, output channels O and the user-facing shapes of input, weight and output (spatial rank 1-3).
struct CudaConv {
    ct_cuda_conv_nd g;
    int64_t N, O;
    Shape x_shape, w_shape, out_shape;
};

// out = conv(x, w) + bias (b may be undefined); x, w contiguous, on one CUDA device.
Tensor cuda_conv_forward(const Tensor& x, const Tensor& w, const Tensor& b, const CudaConv& c);
// grad_x from go (contiguous) and w.
Tensor cuda_conv_input_grad(const Tensor& go, const Tensor& w, const CudaConv& c);
// grad_w from go and x (contiguous).
Tensor cuda_conv_weight_grad(const Tensor& go, const Tensor& x, const CudaConv& c);

// unfold: x [N, C, in...] (contiguous) -> its im2col [N, C * taps, out plane] (c.O and groups 1).
Tensor cuda_unfold(const Tensor& x, const CudaConv& c, const Shape& col_shape);
// fold: the adjoint, col [N, C * taps, out plane] (contiguous) -> [N, C, in...] (c.x_shape).
Tensor cuda_fold(const Tensor& col, const CudaConv& c);

// Runs ct_cuda_pool_op op on contiguous in (and idx) into a fresh tensor of out_shape; for CT_CUDA_MAX_POOL
// also returns the argmax positions (int64, out_shape) in *out_idx.
Tensor cuda_pool2d(int32_t op, const ct_cuda_pool2d_ex& g, const Tensor& in, const Tensor& idx, const Shape& out_shape,
                   Tensor* out_idx);

}  // namespace ct

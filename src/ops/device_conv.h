// device_conv.h - conv2d and pooling kernels of CUDA tensors: im2col / col2im kernels around cuBLAS gemms
// (strided-batched over samples), and the pooling kernels, through the backend's table (cuda/conv.cuh).
#pragma once
#include "core/backend.h"
#include "core/tensor.h"

namespace ct {

// One convolution: the backend's per-sample geometry plus batch size N and output channels O.
struct CudaConv {
    ct_cuda_conv2d g;
    int64_t N, O;
};

// out [N, O, OH, OW] = conv(x, w) + bias (b may be undefined); x, w contiguous, on one CUDA device.
Tensor cuda_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& b, const CudaConv& c);
// grad_x [N, C, H, W] from go [N, O, OH, OW] (contiguous) and w.
Tensor cuda_conv2d_input_grad(const Tensor& go, const Tensor& w, const CudaConv& c);
// grad_w [O, C/groups, KH, KW] from go and x (contiguous).
Tensor cuda_conv2d_weight_grad(const Tensor& go, const Tensor& x, const CudaConv& c);

// Runs ct_cuda_pool_op op on contiguous in (and idx) into a fresh tensor of out_shape; for CT_CUDA_MAX_POOL
// also returns the argmax positions (int64, out_shape) in *out_idx.
Tensor cuda_pool2d(int32_t op, const ct_cuda_pool2d_ex& g, const Tensor& in, const Tensor& idx, const Shape& out_shape,
                   Tensor* out_idx);

}  // namespace ct

// device_gemm.h - matrix products of CUDA tensors through the backend's cuBLAS `gemm` entry: 2-D operands with
// any strides (passed transposed or copied when neither stride is 1) and broadcast batch dims.
#pragma once
#include "core/tensor.h"

namespace ct {

// out[bs..., m, n] (contiguous, on a CUDA device) = a[..., m, k] @ b[..., k, n] + beta * out, where the batch
// dims of a and b (all but the last two; possibly fewer than bs) broadcast to bs. float32/float64 only;
// other dtypes fail with CT_ERR_NOT_SUPPORTED naming op. beta 0 ignores out's contents (even NaN).
void cuda_matmul_into(const char* op, const Tensor& out, Tensor a, Tensor b, const Shape& bs, double beta);

}  // namespace ct

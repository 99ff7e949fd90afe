// blas_handle.cuh - blas.cu's cuBLAS helpers shared with solver.cu (trsm, batched LU).
#pragma once
#include <cublas_v2.h>
#include "cuda/backend_impl.cuh"

namespace ct {
namespace cuda {

// CT_OK for CUBLAS_STATUS_SUCCESS; otherwise records "<what>: <status name>: <description>" with a mapped status.
int32_t check_blas(cublasStatus_t s, const char* what);
// The device's cuBLAS handle bound to its stream (created on first use; contexts live for the process).
int32_t blas_handle(DeviceContext* ctx, cublasHandle_t* out);

}  // namespace cuda
}  // namespace ct

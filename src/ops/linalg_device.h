// linalg_device.h - the CUDA forms of linalg_kernels.h's kernels (linalg_device.cpp): same arguments, results and
// errors, computed through the CUDA backend's linalg entry (cuSOLVER / cuBLAS trsm). linalg_kernels.cpp sends
// every non-CPU tensor here; the caller has checked that all operands share the device.
#pragma once
#include <tuple>
#include "ops/linalg_ops.h"

namespace ct {

Tensor cuda_inv_kernel(const Tensor& a, const char* op);
std::tuple<Tensor, Tensor, Tensor> cuda_lu_det_kernel(const Tensor& a);
Tensor cuda_solve_kernel(const Tensor& a, const Tensor& b, const char* op);
Tensor cuda_cholesky_kernel(const Tensor& a, const char* op);
Tensor cuda_triangular_solve_kernel(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit);
std::pair<Tensor, Tensor> cuda_qr_kernel(const Tensor& a, QrMode mode);
std::pair<Tensor, Tensor> cuda_eigh_kernel(const Tensor& a, bool upper, bool vectors, const char* op);
std::tuple<Tensor, Tensor, Tensor> cuda_svd_kernel(const Tensor& a, bool full, bool vectors, const char* op);
// lstsq_kernel's gels driver (the only one on CUDA, as torch): QR of A (m >= n) or of A^T (minimum norm), Q^T B by
// matmul and a triangular solve; buf has LAPACK's layout (residual components of a tall A in rows n..m). Other
// drivers are CT_ERR_NOT_SUPPORTED.
std::tuple<Tensor, Tensor, Tensor> cuda_lstsq_kernel(const Tensor& a, const Tensor& b, LstsqDriver driver);

}  // namespace ct

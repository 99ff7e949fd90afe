// linalg_ops.h - torch.linalg's ops in C++ (linalg_decomp.cpp: LAPACK-backed with autograd; linalg_composite.cpp:
// composed of other ops). Matrices are the last two dims of [..., m, n], batched over the rest; float32/float64.
#pragma once
#include <optional>
#include <tuple>
#include "ops/ops.h"

namespace ct {

enum class QrMode : int32_t { Reduced = 0, Complete = 1, ROnly = 2 };

Tensor linalg_inv(const Tensor& a);
Tensor linalg_det(const Tensor& a);
std::pair<Tensor, Tensor> linalg_slogdet(const Tensor& a);  // (sign, logabsdet)
Tensor linalg_solve(const Tensor& a, const Tensor& b);      // A X = B; B a vector or matrix (batch-broadcast)
Tensor linalg_cholesky(const Tensor& a, bool upper);
Tensor linalg_solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left, bool unitriangular);
std::pair<Tensor, Tensor> linalg_qr(const Tensor& a, QrMode mode);  // (Q, R); Q is an empty [0] tensor for ROnly
std::pair<Tensor, Tensor> linalg_eigh(const Tensor& a, bool upper);  // (ascending eigenvalues, eigenvectors)
Tensor linalg_eigvalsh(const Tensor& a, bool upper);
std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& a, bool full_matrices);  // (U, S, Vh)
Tensor linalg_svdvals(const Tensor& a);

}  // namespace ct

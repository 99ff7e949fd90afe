// linalg_ops.h - torch.linalg's ops in C++ (linalg_decomp.cpp: LAPACK-backed with autograd; linalg_composite.cpp:
// composed of other ops). Matrices are the last two dims of [..., m, n], batched over the rest; float32/float64 and
// complex64/complex128 (Note [Complex linalg] in linalg_decomp.cpp).
#pragma once
#include <optional>
#include <string>
#include <tuple>
#include "ops/ops.h"

namespace ct {

enum class QrMode : int32_t { Reduced = 0, Complete = 1, ROnly = 2 };

// The transpose of the last two dims, and the conjugate transpose (the plain transpose for a real x).
inline Tensor mT(const Tensor& x) { return transpose(x, -2, -1); }
inline Tensor mH(const Tensor& x) { return is_complex(x.dtype()) ? conj(mT(x)) : mT(x); }

Tensor linalg_inv(const Tensor& a);
Tensor linalg_det(const Tensor& a);
std::pair<Tensor, Tensor> linalg_slogdet(const Tensor& a);  // (sign, logabsdet)
Tensor linalg_solve(const Tensor& a, const Tensor& b);      // A X = B; B a vector or matrix (batch-broadcast)
Tensor linalg_cholesky(const Tensor& a, bool upper);
Tensor linalg_solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left, bool unitriangular);
std::pair<Tensor, Tensor> linalg_qr(const Tensor& a, QrMode mode);  // (Q, R); Q is an empty [0] tensor for ROnly
std::pair<Tensor, Tensor> linalg_eigh(const Tensor& a, bool upper);  // (ascending eigenvalues, eigenvectors)
// torch.linalg.eig / eigvals of real A (linalg_eig.cpp): complex eigenvalues and unit-norm eigenvectors
std::pair<Tensor, Tensor> linalg_eig(const Tensor& a);
Tensor linalg_eigvals(const Tensor& a);
Tensor linalg_eigvalsh(const Tensor& a, bool upper);
std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& a, bool full_matrices);  // (U, S, Vh)
Tensor linalg_svdvals(const Tensor& a);
// linalg_composite.cpp. pinv/matrix_rank: atol, rtol < 0 mean "not given" (torch's None and its default rule).
Tensor linalg_matrix_power(const Tensor& a, int64_t n);
Tensor linalg_cross(const Tensor& a, const Tensor& b, int64_t dim);
Tensor linalg_vector_norm(const Tensor& x, double ord, const IntList& dims, bool keepdim);  // dims empty = all
Tensor linalg_matrix_norm(const Tensor& x, const std::string& ord, int64_t dim0, int64_t dim1, bool keepdim);
Tensor linalg_pinv(const Tensor& a, double atol, double rtol);
Tensor linalg_matrix_rank(const Tensor& a, double atol, double rtol);  // int64
Tensor linalg_lstsq(const Tensor& a, const Tensor& b);  // linalg_lstsq_ex's solution with the default driver

// linalg_lstsq.cpp: torch.linalg.lstsq with its LAPACK drivers (values fixed: the C ABI's CT_LSTSQ_*).
enum class LstsqDriver : int32_t { Gelsy = 0, Gels = 1, Gelsd = 2, Gelss = 3 };
struct LstsqResult {
    Tensor solution;         // [..., n, k] ([..., n] for a vector B); differentiable (as pinv(A) @ B)
    // [..., k] squared residual norms (A's real dtype) when m > n, driver != gelsy and A full rank; else [0]
    Tensor residuals;
    Tensor rank;             // int64 [...] (empty [0] for gels)
    Tensor singular_values;  // [..., min(m, n)] (real dtype) for gelsd/gelss, else [0]
};
// rcond < 0: torch's default eps(dtype) * max(m, n).
LstsqResult linalg_lstsq_ex(const Tensor& a, const Tensor& b, double rcond, LstsqDriver driver);

}  // namespace ct

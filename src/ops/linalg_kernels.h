// linalg_kernels.h - the LAPACK-backed CPU kernels of torch.linalg (linalg_kernels.cpp): plain computations on
// float32/float64 and complex64/complex128 CPU tensors of shape [..., m, n] (any strides), batched over the leading
// dims, with no autograd. Real-valued results of complex input (logabsdet, eigh's eigenvalues, singular values,
// lstsq's sv) are of its real dtype; "^T" below reads "^H" for complex A. Callers (linalg_ops.cpp) have checked
// dtype, device and shapes; failures of the factorisation (a singular or non-positive-definite matrix) are thrown
// here, naming op and the batch element. CUDA tensors go to the cuSOLVER kernels of linalg_device.cpp (same
// contract, same messages).
#pragma once
#include <tuple>
#include "ops/linalg_ops.h"

namespace ct {

// The failures of a factorisation, worded as torch's, for batch element bad of a (its first nonzero LAPACK info
// code, info): a zero pivot of getrf (what: "inversion" or "solve"), a leading minor of potrf that is not
// positive-definite, an eigen/singular value iteration that did not converge (what: "eigenvalues" or
// "singular values"). Shared by the LAPACK and cuSOLVER kernels.
[[noreturn]] void fail_singular(const char* op, const Tensor& a, int64_t bad, int64_t info, const char* what);
[[noreturn]] void fail_not_positive_definite(const char* op, const Tensor& a, int64_t bad, int64_t info);
[[noreturn]] void fail_not_converged(const char* op, const Tensor& a, int64_t bad, int64_t info, const char* what);
// gels on a matrix whose triangular factor has a zero diagonal element info (1-based).
[[noreturn]] void fail_rank_deficient(const char* op, const Tensor& a, int64_t bad, int64_t info);
// Throws CT_ERR_NOT_SUPPORTED naming op unless d fits LAPACK's and cuSOLVER's 32-bit int (Note [LAPACK ints]).
int32_t linalg_int_dim(int64_t d, const char* op);
// Shapes of a batch of matrices [..., m, n]: the number of matrices, the batch dims, and the batch dims + tail.
int64_t batch_count(const Tensor& a);
Shape batch_shape_of(const Tensor& a);
Shape with_tail(Shape s, std::initializer_list<int64_t> tail);

// A^-1 of square A; a singular matrix is CT_ERR_INVALID_ARGUMENT.
Tensor inv_kernel(const Tensor& a, const char* op);
// (sign, log|det|, det) of square A from its LU factorisation, each of A's batch shape.
std::tuple<Tensor, Tensor, Tensor> lu_det_kernel(const Tensor& a);
// X with A X = B for square A [..., n, n] and B [..., n, k] of the same batch shape; singular A is an error.
Tensor solve_kernel(const Tensor& a, const Tensor& b, const char* op);
// Lower-triangular L with A = L L^T (reads A's lower triangle); not positive-definite is CT_ERR_INVALID_ARGUMENT.
Tensor cholesky_kernel(const Tensor& a, const char* op);
// X with op(A) X = B (left) or X op(A) = B (right), A triangular [..., n, n] (only its upper or lower triangle is
// read; unit: its diagonal is taken as 1), B of the same batch shape; op(A) = A^T when trans. No singularity check
// (a zero diagonal gives inf/NaN, as torch).
Tensor triangular_solve_kernel(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit);
// Q and R of A = QR: reduced (Q [m, k], R [k, n], k = min(m, n)), complete (Q [m, m], R [m, n]) or r_only (R
// reduced, Q an empty [0] tensor).
std::pair<Tensor, Tensor> qr_kernel(const Tensor& a, QrMode mode);
// Eigenvalues (ascending, [..., n]) and, when vectors, eigenvectors (columns, [..., n, n]; undefined otherwise) of
// symmetric A read from its upper (upper) or lower triangle.
std::pair<Tensor, Tensor> eigh_kernel(const Tensor& a, bool upper, bool vectors, const char* op);
// U, S (descending) and Vh of A = U diag(S) Vh: full (U [m, m], Vh [n, n]) or reduced (U [m, k], Vh [k, n]);
// U and Vh undefined when !vectors.
std::tuple<Tensor, Tensor, Tensor> svd_kernel(const Tensor& a, bool full, bool vectors, const char* op);
// Eigenvalues [..., n] and, when vectors, right eigenvectors (columns of unit norm, [..., n, n]; undefined
// otherwise) of real square A by LAPACK geev, both complex (complex64 for float32 A, complex128 for float64).
// A QR iteration that does not converge is CT_ERR_INVALID_ARGUMENT naming the batch element.
std::pair<Tensor, Tensor> eig_kernel(const Tensor& a, bool vectors, const char* op);
// The least-squares problem min ||A X - B|| for A [..., m, n] and B [..., m, k] of one batch shape, by driver with
// rcond: (buf, rank, sv) where buf [..., max(m, n), k] holds X in its first n rows and, for m > n and a full-rank
// A, the residual components in rows n..m (LAPACK's layout); rank int64 [...] (0 where min(m, n) is 0) and sv
// [..., min(m, n)] of A's real dtype (gelsd/gelss; undefined otherwise). gels of a rank-deficient A and a
// gelsd/gelss that does not converge are CT_ERR_INVALID_ARGUMENT naming the batch element.
std::tuple<Tensor, Tensor, Tensor> lstsq_kernel(const Tensor& a, const Tensor& b, LstsqDriver driver, double rcond);

}  // namespace ct

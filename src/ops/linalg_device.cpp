// linalg_device.cpp - torch.linalg's kernels on CUDA tensors: the results and errors of linalg_kernels.cpp's LAPACK
// loops, with the factorisations run by the backend's linalg entry (cuSOLVER, cuBLAS trsm; ct_cuda_linalg_op) and
// the buffers made and read with device ops (copies, views, triu/tril, reductions).
#include "ops/linalg_device.h"
#include <vector>
#include "autograd/grad_mode.h"
#include "core/backend.h"
#include "ops/device_ops.h"
#include "ops/linalg_kernels.h"
#include "ops/ops.h"

namespace ct {

// Note [Row-major on cuSOLVER]: the backend works on column-major matrices, and a contiguous row-major tensor
// [..., r, c] read column-major is the c x r matrix A^T. So a "column-major buffer of r x c matrices" here is a
// contiguous tensor of shape [..., c, r], and mT of it is the matrix. Where a transposed problem is as good, the
// row-major copy is passed as is: inv factors A and solves with A^T (getrs trans) to get A^-T column-major, i.e.
// A^-1 row-major; cholesky factors A^T's upper triangle (= A's lower one) into U, whose row-major read is L = U^T;
// eigh reads the opposite triangle of A^T; solve_triangular solves X^T op(A)^T = B^T (side and triangle swap);
// svd of a wide A is the svd of the tall A^T (cuSOLVER's gesvd wants m >= n) with U and V swapped, which again
// needs no transposing copy. Results may therefore be transposed views of the buffers.

namespace {

// A contiguous copy of t in fresh device memory (never an alias of t: the backend overwrites it).
Tensor fresh(const Tensor& t) {
    Tensor c = empty_tensor(t.sizes(), t.dtype(), t.device());
    copy_into(c, t);
    return c;
}

// The column-major buffer of a's matrices (Note [Row-major on cuSOLVER]).
Tensor colmajor(const Tensor& a) { return fresh(mT(a)); }

// eye(r, c) in every batch element of bs, in fresh memory.
Tensor batched_eye(const Tensor& like, const Shape& bs, int64_t r, int64_t c) {
    return fresh(expand(eye(r, c, like.dtype(), like.device()), with_tail(bs, {r, c})));
}

// A call of the linalg entry for batch matrices of like's dtype and device.
ct_cuda_linalg_args args_for(int32_t op, const Tensor& like, int64_t batch) {
    ct_cuda_linalg_args args{};
    args.op = op;
    args.dtype = (int32_t)like.dtype();
    args.batch = batch;
    return args;
}

// Runs args on like's device; returns the info codes (one per matrix) when want_info.
std::vector<int32_t> run(const char* op, const Tensor& like, ct_cuda_linalg_args args, bool want_info = true) {
    std::vector<int32_t> infos(want_info ? (size_t)args.batch : 0, 0);
    args.info = want_info ? infos.data() : nullptr;
    const int32_t dev = like.device().index;
    cuda_check(op, cuda_device_backend(op, dev).linalg(dev, &args));
    return infos;
}

int64_t first_failure(const std::vector<int32_t>& infos) {
    for (size_t b = 0; b < infos.size(); ++b)
        if (infos[b] != 0) return (int64_t)b;
    return -1;
}

// LU factors of a's matrices (column-major, of A itself) with their pivots; info codes of getrf (none when a
// holds no element).
std::vector<int32_t> lu_factor(const char* op, const Tensor& a, Tensor& lu, Tensor& ipiv) {
    const int64_t n = a.size(-1);
    lu = colmajor(a);
    ipiv = empty_tensor(with_tail(batch_shape_of(a), {n}), DType::Int32, a.device());
    if (lu.numel() == 0) return {};
    ct_cuda_linalg_args args = args_for(CT_CUDA_GETRF, a, batch_count(a));
    args.m = args.n = n;
    args.a = lu.device_data();
    args.ipiv = static_cast<int32_t*>(ipiv.device_data());
    return run(op, a, args);
}

// b's column-major buffer x overwritten with op(A)^-1 x from lu_factor's results.
void lu_solve(const char* op, const Tensor& lu, const Tensor& ipiv, const Tensor& x, bool trans) {
    ct_cuda_linalg_args args = args_for(CT_CUDA_GETRS, lu, batch_count(lu));
    args.n = lu.size(-1);
    args.k = x.size(-2);
    args.trans = trans;
    args.a = lu.device_data();
    args.b = x.device_data();
    args.ipiv = static_cast<int32_t*>(ipiv.device_data());
    run(op, lu, args, false);
}

}  // namespace

Tensor cuda_inv_kernel(const Tensor& a, const char* op) {
    NoGradGuard no_grad;
    const int64_t batch = batch_count(a), n = a.size(-1);
    linalg_int_dim(n, op);
    Tensor x = batched_eye(a, batch_shape_of(a), n, n);
    if (batch == 0 || n == 0) return x;
    Tensor lu, ipiv;
    std::vector<int32_t> infos = lu_factor(op, a, lu, ipiv);
    int64_t bad = first_failure(infos);
    if (bad >= 0) fail_singular(op, a, bad, infos[(size_t)bad], "inversion");
    lu_solve(op, lu, ipiv, x, true);  // A^T Y = I: Y = A^-T column-major is A^-1 row-major
    return x;
}

std::tuple<Tensor, Tensor, Tensor> cuda_lu_det_kernel(const Tensor& a) {
    NoGradGuard no_grad;
    const char* op = "linalg.det";
    const int64_t n = a.size(-1);
    linalg_int_dim(n, op);
    Tensor lu, ipiv;
    lu_factor(op, a, lu, ipiv);  // a zero pivot (info > 0) is a zero diagonal element: det 0
    // det = prod(diag U) * (-1)^(row swaps), as the CPU kernel; empty matrices give 1, 1, 0
    Tensor d = diagonal(lu, 0, -2, -1);
    Tensor swapped = to_dtype(ne(ipiv, arange(1, (double)n + 1, 1, DType::Int32, a.device())), a.dtype());
    Tensor perm = prod(add_scalar(mul_scalar(swapped, -2.0), 1.0), {-1}, false);
    Tensor det = mul(prod(d, {-1}, false), perm), sgn = mul(prod(sign(d), {-1}, false), perm);
    return {sgn, sum(log(abs(d)), {-1}, false), det};
}

Tensor cuda_solve_kernel(const Tensor& a, const Tensor& b, const char* op) {
    NoGradGuard no_grad;
    const int64_t batch = batch_count(a), n = a.size(-1), k = b.size(-1);
    linalg_int_dim(n, op), linalg_int_dim(k, op);
    Tensor x = colmajor(b);
    if (batch == 0 || n == 0) return mT(x);
    Tensor lu, ipiv;
    std::vector<int32_t> infos = lu_factor(op, a, lu, ipiv);
    int64_t bad = first_failure(infos);
    if (bad >= 0) fail_singular(op, a, bad, infos[(size_t)bad], "solve");
    if (k > 0) lu_solve(op, lu, ipiv, x, false);
    return mT(x);
}

Tensor cuda_cholesky_kernel(const Tensor& a, const char* op) {
    NoGradGuard no_grad;
    const int64_t batch = batch_count(a), n = a.size(-1);
    linalg_int_dim(n, op);
    Tensor l = fresh(a);  // column-major A^T: its upper triangle is A's lower one
    if (batch == 0 || n == 0) return l;
    ct_cuda_linalg_args args = args_for(CT_CUDA_POTRF, a, batch);
    args.m = args.n = n;
    args.upper = 1;
    args.a = l.device_data();
    std::vector<int32_t> infos = run(op, a, args);
    int64_t bad = first_failure(infos);
    if (bad >= 0) fail_not_positive_definite(op, a, bad, infos[(size_t)bad]);
    return tril(l, 0);  // U column-major is L row-major; above its diagonal is potrf's workspace
}

Tensor cuda_triangular_solve_kernel(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit) {
    NoGradGuard no_grad;
    const char* op = "linalg.solve_triangular";
    const int64_t batch = batch_count(a), n = a.size(-1), rows = b.size(-2), cols = b.size(-1);
    linalg_int_dim(n, op), linalg_int_dim(rows, op), linalg_int_dim(cols, op);
    Tensor x = fresh(b);
    if (x.numel() == 0) return x;
    Tensor ra = contiguous(a);  // read only
    ct_cuda_linalg_args args = args_for(CT_CUDA_TRSM, a, batch);
    args.m = cols;  // B^T column-major: cols x rows, solved from the other side with A^T
    args.n = rows;
    args.left = !left;
    args.upper = !upper;
    args.trans = trans;
    args.unit = unit;
    args.a = ra.device_data();
    args.b = x.device_data();
    run(op, a, args, false);
    return x;
}

std::pair<Tensor, Tensor> cuda_qr_kernel(const Tensor& a, QrMode mode) {
    NoGradGuard no_grad;
    const char* op = "linalg.qr";
    const int64_t batch = batch_count(a), m = a.size(-2), n = a.size(-1), k = std::min(m, n);
    linalg_int_dim(m, op), linalg_int_dim(n, op);
    const int64_t qcols = mode == QrMode::Complete ? m : k, rrows = mode == QrMode::Complete ? m : k;
    const Shape bs = batch_shape_of(a);
    Tensor none = empty_tensor({0}, a.dtype(), a.device());
    if (batch == 0 || k == 0)
        return {mode == QrMode::ROnly ? none : batched_eye(a, bs, m, qcols),
                zeros(with_tail(bs, {rrows, n}), a.dtype(), a.device())};
    Tensor f = colmajor(a), tau = empty_tensor(with_tail(bs, {k}), a.dtype(), a.device());
    ct_cuda_linalg_args args = args_for(CT_CUDA_GEQRF, a, batch);
    args.m = m;
    args.n = n;
    args.a = f.device_data();
    args.w = tau.device_data();
    run(op, a, args, false);
    Tensor r = triu(narrow(mT(f), -2, 0, rrows), 0);
    if (mode == QrMode::ROnly) return {none, r};
    // Q's column-major buffer: geqrf's k vectors, then the identity's columns (complete Q of a tall A)
    Tensor q = batched_eye(a, bs, qcols, m);
    copy_into(narrow(q, -2, 0, k), narrow(f, -2, 0, k));
    args = args_for(CT_CUDA_ORGQR, a, batch);
    args.m = m;
    args.n = qcols;
    args.k = k;
    args.a = q.device_data();
    args.w = tau.device_data();
    run(op, a, args, false);
    return {mT(q), r};
}

std::pair<Tensor, Tensor> cuda_eigh_kernel(const Tensor& a, bool upper, bool vectors, const char* op) {
    NoGradGuard no_grad;
    const int64_t batch = batch_count(a), n = a.size(-1);
    linalg_int_dim(n, op);
    Tensor v = fresh(a), w = empty_tensor(with_tail(batch_shape_of(a), {n}), a.dtype(), a.device());
    if (batch == 0 || n == 0) return {w, vectors ? mT(v) : Tensor()};
    ct_cuda_linalg_args args = args_for(CT_CUDA_SYEVD, a, batch);
    args.m = args.n = n;
    args.upper = !upper;  // A^T's triangles are A's, swapped
    args.vectors = vectors;
    args.a = v.device_data();
    args.w = w.device_data();
    std::vector<int32_t> infos = run(op, a, args);
    int64_t bad = first_failure(infos);
    if (bad >= 0) fail_not_converged(op, a, bad, infos[(size_t)bad], "eigenvalues");
    return {w, vectors ? mT(v) : Tensor()};
}

std::tuple<Tensor, Tensor, Tensor> cuda_svd_kernel(const Tensor& a, bool full, bool vectors, const char* op) {
    NoGradGuard no_grad;
    const int64_t batch = batch_count(a), m = a.size(-2), n = a.size(-1), k = std::min(m, n);
    linalg_int_dim(m, op), linalg_int_dim(n, op);
    const Shape bs = batch_shape_of(a);
    Tensor s = empty_tensor(with_tail(bs, {k}), a.dtype(), a.device());
    if (batch == 0 || k == 0) {
        if (!vectors) return {Tensor(), s, Tensor()};
        return {batched_eye(a, bs, m, full ? m : k), s, batched_eye(a, bs, full ? n : k, n)};
    }
    // the tall matrix T (M x N, M >= N): A, or A^T for a wide A (whose row-major copy is T column-major)
    const bool wide = m < n;
    const int64_t M = wide ? n : m, N = wide ? m : n;
    Tensor t = wide ? fresh(a) : colmajor(a), ub, vtb;
    if (vectors) {
        ub = empty_tensor(with_tail(bs, {full ? M : N, M}), a.dtype(), a.device());  // U_T column-major
        vtb = empty_tensor(with_tail(bs, {N, N}), a.dtype(), a.device());            // V_T^T column-major
    }
    ct_cuda_linalg_args args = args_for(CT_CUDA_GESVD, a, batch);
    args.m = M;
    args.n = N;
    args.full = full;
    args.vectors = vectors;
    args.a = t.device_data();
    args.w = s.device_data();
    args.u = vectors ? ub.device_data() : nullptr;
    args.vt = vectors ? vtb.device_data() : nullptr;
    std::vector<int32_t> infos = run(op, a, args);
    int64_t bad = first_failure(infos);
    if (bad >= 0) fail_not_converged(op, a, bad, infos[(size_t)bad], "singular values");
    if (!vectors) return {Tensor(), s, Tensor()};
    // tall: U = U_T, Vh = V_T^T; wide: A = T^T = V_T S U_T^T, so U = V_T (row-major read of vtb) and Vh = U_T^T
    if (wide) return {vtb, s, ub};
    return {mT(ub), s, mT(vtb)};
}

namespace {

// Fails like LAPACK's gels when a triangular factor r [..., n, n] of a has an exactly zero diagonal element (one
// read-back of the diagonals).
void check_full_rank(const char* op, const Tensor& a, const Tensor& r) {
    const int64_t n = r.size(-1);
    Tensor d = copy_to_device(to_dtype(diagonal(r, 0, -2, -1), DType::Float64), Device{});
    const double* p = d.data<double>();
    for (int64_t i = 0; i < d.numel(); ++i)
        if (p[i] == 0.0) fail_rank_deficient(op, a, i / n, i % n + 1);
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> cuda_lstsq_kernel(const Tensor& a, const Tensor& b, LstsqDriver driver) {
    NoGradGuard no_grad;
    const char* op = "linalg.lstsq";
    if (driver != LstsqDriver::Gels)
        fail(CT_ERR_NOT_SUPPORTED, op, ": only the gels driver (CT_LSTSQ_GELS) runs on CUDA tensors, as in torch; got "
             "driver ", (int32_t)driver, " for tensors on ", device_str(a.device()));
    const int64_t m = a.size(-2), n = a.size(-1), k = b.size(-1), mn = std::min(m, n);
    linalg_int_dim(m, op), linalg_int_dim(n, op), linalg_int_dim(k, op);
    const Shape bs = batch_shape_of(a);
    Tensor buf = zeros(with_tail(bs, {std::max(m, n), k}), a.dtype(), a.device());
    Tensor rank = zeros(bs, DType::Int64, a.device()), sv = empty_tensor(with_tail(bs, {mn}), a.dtype(), a.device());
    if (batch_count(a) == 0 || mn == 0 || k == 0) {  // X = 0 (no rows when n = 0), B where a residual reads it
        copy_into(narrow(buf, -2, 0, m), b);
        return {buf, rank, sv};
    }
    if (m >= n) {  // A = Q R: X = R1^-1 (Q^T B)[:n], residual components (Q^T B)[n:]
        auto qr = cuda_qr_kernel(a, QrMode::Complete);
        Tensor r1 = narrow(qr.second, -2, 0, n), qtb = matmul(mT(qr.first), b);
        check_full_rank(op, a, r1);
        copy_into(narrow(buf, -2, 0, n), cuda_triangular_solve_kernel(r1, narrow(qtb, -2, 0, n), true, true, false, false));
        copy_into(narrow(buf, -2, n, m - n), narrow(qtb, -2, n, m - n));
    } else {  // A^T = Q R: A X = B is R^T (Q^T X) = B, and the minimum-norm X is Q R^-T B
        auto qr = cuda_qr_kernel(mT(a), QrMode::Reduced);
        check_full_rank(op, a, qr.second);
        copy_into(buf, matmul(qr.first, cuda_triangular_solve_kernel(qr.second, b, true, true, true, false)));
    }
    return {buf, rank, sv};
}

}  // namespace ct

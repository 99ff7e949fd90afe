// linalg_kernels.cpp - torch.linalg's CPU kernels over OpenBLAS's LAPACK (cpu/lapack.h) and BLAS trsm: each op
// copies its input into fresh column-major (or row-major, for trsm) buffers that LAPACK may overwrite, runs one
// dtype-generic loop over the batch (split over the thread pool, each call single-threaded), and reads the
// factorisation's info codes after the loop, so that a failure names the first bad batch element.
#include "ops/linalg_kernels.h"
#include "ops/linalg_device.h"
#include <cblas.h>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>
#include "autograd/grad_mode.h"
#include "cpu/kernels.h"
#include "cpu/lapack.h"
#include "cpu/parallel.h"
#include "ops/ops.h"

namespace ct {

int64_t batch_count(const Tensor& a) {
    int64_t b = 1;
    for (int64_t i = 0; i + 2 < a.dim(); ++i) b *= a.size(i);
    return b;
}

Shape batch_shape_of(const Tensor& a) { return Shape(a.sizes().begin(), a.sizes().end() - 2); }

Shape with_tail(Shape s, std::initializer_list<int64_t> tail) {
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
}

namespace {

// A contiguous copy of t in fresh storage (never an alias of t: LAPACK overwrites it).
Tensor fresh_copy(const Tensor& t) {
    Tensor c = empty_tensor(t.sizes(), t.dtype(), t.device());
    cpu_copy(c, t);
    return c;
}

// Column-major buffer of a's matrices: [..., n, m] row-major, so batch element b is A_b (m x n) with ld m.
Tensor colmajor(const Tensor& a) {
    NoGradGuard no_grad;
    return fresh_copy(transpose(a, -2, -1));
}
// The row-major matrices of a column-major buffer (the inverse of colmajor).
Tensor from_colmajor(const Tensor& buf) { return colmajor(buf); }

// Note [Layout-free LAPACK]: a row-major buffer of A is the column-major buffer of A^T, so a kernel that can use
// A^T skips a transposed copy: det(A^T) = det(A); the inverse solves A^T Y = I with A's own LU (getrs "T"), and Y
// column-major is A^-1 row-major; cholesky factors the upper triangle of A^T, which is A's lower triangle, and U
// column-major is L row-major. The LU itself stays A's where an error names a pivot (inv, solve), so the index is
// torch's.
// Note [LAPACK ints] in cpu/lapack.h.
lapack_int lapack_dim(int64_t d, const char* op) { return (lapack_int)linalg_int_dim(d, op); }

// Runs f(b0, b1) over the batch [0, batch) on the thread pool, LAPACK single-threaded in each range. cost is
// about the flops of one matrix: small problems stay on one thread. f must not throw (it records info codes).
template <typename F> void for_each_matrix(int64_t batch, double cost, F f) {
    int64_t grain = std::max<int64_t>(1, (int64_t)((double)(int64_t(1) << 18) / std::max(cost, 1.0)));
    parallel_for(batch, grain, [&](int64_t b0, int64_t b1) {
        SingleThreadedBlas single;
        f(b0, b1);
    });
}

// dispatch_float, or dispatch_complex for a complex dtype.
template <typename Fn> void dispatch_float_or_complex(DType d, Fn&& fn) {
    if (is_complex(d)) dispatch_complex(d, fn);
    else dispatch_float(d, fn);
}

// The first batch element with a nonzero info, or -1.
int64_t first_failure(const std::vector<lapack_int>& infos) {
    for (size_t b = 0; b < infos.size(); ++b)
        if (infos[b] != 0) return (int64_t)b;
    return -1;
}

void fill_identity(Tensor& t, int64_t n) {  // t: contiguous [..., n, n]
    cpu_fill(t, 0.0);
    dispatch_float_or_complex(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t.data<T>();
        for (int64_t b = 0, batch = t.numel() / std::max<int64_t>(n * n, 1); b < batch && n > 0; ++b)
            for (int64_t i = 0; i < n; ++i) p[b * n * n + i * n + i] = T(1);
    });
}

}  // namespace

// "(Batch element b): " for a batched input, as torch words it; "" for a single matrix.
static std::string batch_prefix(const Tensor& a, int64_t b) {
    return a.dim() > 2 ? "(Batch element " + std::to_string(b) + "): " : "";
}

// Note [LAPACK ints] in cpu/lapack.h.
int32_t linalg_int_dim(int64_t d, const char* op) {
    if (d > INT_MAX) fail(CT_ERR_NOT_SUPPORTED, op, ": matrix dimension ", d, " exceeds LAPACK's int range");
    return (int32_t)d;
}

void fail_singular(const char* op, const Tensor& a, int64_t bad, int64_t info, const char* what) {
    fail(CT_ERR_INVALID_ARGUMENT, op, ": ", batch_prefix(a, bad), "The diagonal element ", info, " is zero, the ", what,
         " could not be completed because the input matrix is singular.");
}

void fail_not_positive_definite(const char* op, const Tensor& a, int64_t bad, int64_t info) {
    fail(CT_ERR_INVALID_ARGUMENT, op, ": ", batch_prefix(a, bad), "The factorization could not be completed ",
         "because the input is not positive-definite (the leading minor of order ", info, " is not positive-definite).");
}

void fail_not_converged(const char* op, const Tensor& a, int64_t bad, int64_t info, const char* what) {
    fail(CT_ERR_INVALID_ARGUMENT, op, ": ", batch_prefix(a, bad), "The algorithm failed to converge because the ",
         "input matrix is ill-conditioned or has too many repeated ", what, " (error code: ", info, ").");
}

void fail_rank_deficient(const char* op, const Tensor& a, int64_t bad, int64_t info) {
    fail(CT_ERR_INVALID_ARGUMENT, op, ": ", batch_prefix(a, bad), "The least squares solution could not be computed "
         "because the input matrix does not have full rank (error code: ", info, ").");
}

Tensor inv_kernel(const Tensor& a, const char* op) {
    if (!a.device().is_cpu()) return cuda_inv_kernel(a, op);
    const int64_t batch = batch_count(a), n = a.size(-1);
    lapack_int ln = lapack_dim(n, op);
    Tensor lu = colmajor(a), x = empty_tensor(a.sizes(), a.dtype(), a.device());
    fill_identity(x, n);
    if (batch == 0 || n == 0) return x;
    std::vector<lapack_int> infos((size_t)batch, 0);
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // getrs "T": the plain transpose for complex A too
        using T = typename decltype(tag)::type;
        T *pl = lu.data<T>(), *px = x.data<T>();
        for_each_matrix(batch, 2.0 * n * n * n, [&](int64_t b0, int64_t b1) {
            std::vector<lapack_int> ipiv((size_t)n);
            for (int64_t b = b0; b < b1; ++b) {
                Lapack<T>::getrf(&ln, &ln, pl + b * n * n, &ln, ipiv.data(), &infos[b]);
                lapack_int info = 0;
                if (infos[b] == 0) Lapack<T>::getrs("T", &ln, &ln, pl + b * n * n, &ln, ipiv.data(), px + b * n * n, &ln, &info);
            }
        });
    });
    int64_t bad = first_failure(infos);
    if (bad >= 0)
        fail_singular(op, a, bad, infos[bad], "inversion");
    return x;  // x holds (A^T)^-1 column-major, i.e. A^-1 row-major: no copy back (Note [Layout-free LAPACK])
}

std::tuple<Tensor, Tensor, Tensor> lu_det_kernel(const Tensor& a) {
    if (!a.device().is_cpu()) return cuda_lu_det_kernel(a);
    const int64_t batch = batch_count(a), n = a.size(-1);
    lapack_int ln = lapack_dim(n, "linalg.det");
    Shape bs = batch_shape_of(a);
    Tensor sign = empty_tensor(bs, a.dtype(), a.device()), logabs = empty_tensor(bs, real_dtype(a.dtype()), a.device()),
           det = empty_tensor(bs, a.dtype(), a.device());
    if (batch == 0) return {sign, logabs, det};
    Tensor lu = fresh_copy(a);  // row-major: the LU of A^T, whose determinant is A's (Note [Layout-free LAPACK])
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using R = typename Lapack<T>::Real;
        T *pl = lu.data<T>(), *ps = sign.data<T>(), *pd = det.data<T>();
        R* pla = logabs.data<R>();
        for_each_matrix(batch, 2.0 / 3.0 * n * n * n, [&](int64_t b0, int64_t b1) {
            std::vector<lapack_int> ipiv((size_t)std::max<int64_t>(n, 1));
            for (int64_t b = b0; b < b1; ++b) {
                T* m = pl + b * n * n;
                lapack_int info = 0;
                if (n > 0) Lapack<T>::getrf(&ln, &ln, m, &ln, ipiv.data(), &info);
                // det = prod(diag U) * (-1)^(row swaps); a zero pivot (info > 0) is a zero diagonal element
                T d = T(1), s = T(1);
                R la = R(0);
                for (int64_t i = 0; i < n; ++i) {
                    T u = m[i * n + i];
                    if (ipiv[i] != i + 1) d = -d, s = -s;
                    d *= u;
                    const R au = std::abs(u);
                    if constexpr (std::is_same<T, R>::value)
                        s *= u > 0 ? T(1) : u < 0 ? T(-1) : u;  // NaN stays NaN, 0 gives sign 0
                    else
                        s *= au == R(0) ? T(0) : u / au;  // complex: the unit u / |u| (0 for 0, NaN for NaN)
                    la += std::log(au);
                }
                pd[b] = d;
                ps[b] = s;
                pla[b] = la;
            }
        });
    });
    return {sign, logabs, det};
}

// solve with A's own LU on column-major copies (getrs "N"): the fallback of solve_kernel when the layout-free LU
// hits a zero pivot, so that the error names the batch element and pivot of A's LU (torch's), not of A^T's.
static Tensor solve_colmajor(const Tensor& a, const Tensor& b, const char* op) {
    const int64_t batch = batch_count(a), n = a.size(-1), k = b.size(-1);
    lapack_int ln = lapack_dim(n, op), lk = lapack_dim(k, op);
    Tensor lu = colmajor(a), x = colmajor(b);
    std::vector<lapack_int> infos((size_t)batch, 0);
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T *pl = lu.data<T>(), *px = x.data<T>();
        for_each_matrix(batch, 2.0 / 3.0 * n * n * n + 2.0 * n * n * k, [&](int64_t b0, int64_t b1) {
            std::vector<lapack_int> ipiv((size_t)n);
            for (int64_t i = b0; i < b1; ++i) {
                Lapack<T>::getrf(&ln, &ln, pl + i * n * n, &ln, ipiv.data(), &infos[i]);
                lapack_int info = 0;
                if (infos[i] == 0 && k > 0)
                    Lapack<T>::getrs("N", &ln, &lk, pl + i * n * n, &ln, ipiv.data(), px + i * n * k, &ln, &info);
            }
        });
    });
    int64_t bad = first_failure(infos);
    if (bad >= 0) fail_singular(op, a, bad, infos[bad], "solve");
    return from_colmajor(x);
}

// Note [Layout-free solve]: the row-major buffers of A [n, n] and B [n, k] are A^T and B^T column-major, and the
// row-major X is Y = X^T column-major (k x n, ld k). getrf of A's buffer gives A^T = P L U, and A X = B is
// Y A^T = B^T, so Y = B^T U^-1 L^-1 P^T: two right-side trsm on Y (starting as B's row-major copy) and the column
// swaps of P^T (ipiv applied last to first). No transposed copy of A, B or X; the same flops as getrs. A zero
// pivot of A^T's LU sends the whole call to solve_colmajor, whose LU is A's: same error, same pivot as before.
Tensor solve_kernel(const Tensor& a, const Tensor& b, const char* op) {
    if (!a.device().is_cpu()) return cuda_solve_kernel(a, b, op);
    const int64_t batch = batch_count(a), n = a.size(-1), k = b.size(-1);
    lapack_int ln = lapack_dim(n, op);
    lapack_dim(k, op);
    Tensor lu = fresh_copy(a), x = fresh_copy(b);  // A^T and Y = B^T, column-major
    if (batch == 0 || n == 0) return x;
    std::vector<lapack_int> infos((size_t)batch, 0);
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // complex: linalg.solve of complex matrices
        using T = typename decltype(tag)::type;
        T *pl = lu.data<T>(), *px = x.data<T>();
        for_each_matrix(batch, 2.0 / 3.0 * n * n * n + 2.0 * n * n * k, [&](int64_t b0, int64_t b1) {
            std::vector<lapack_int> ipiv((size_t)n);
            for (int64_t i = b0; i < b1; ++i) {
                T *f = pl + i * n * n, *y = px + i * n * k;
                Lapack<T>::getrf(&ln, &ln, f, &ln, ipiv.data(), &infos[i]);
                if (infos[i] != 0 || k == 0) continue;  // k == 0: the LU still checks A (as torch)
                blas_trsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)k, ln, f, ln, y, (int)k);
                blas_trsm(CblasColMajor, CblasRight, CblasLower, CblasNoTrans, CblasUnit, (int)k, ln, f, ln, y, (int)k);
                for (int64_t j = n - 1; j >= 0; --j)  // Y P^T: column j of Y is row j of X (k contiguous values)
                    if (ipiv[j] - 1 != j) std::swap_ranges(y + j * k, y + (j + 1) * k, y + (ipiv[j] - 1) * k);
            }
        });
    });
    if (first_failure(infos) >= 0) return solve_colmajor(a, b, op);
    return x;
}

Tensor cholesky_kernel(const Tensor& a, const char* op) {
    if (!a.device().is_cpu()) return cuda_cholesky_kernel(a, op);
    const int64_t batch = batch_count(a), n = a.size(-1);
    lapack_int ln = lapack_dim(n, op);
    Tensor l = fresh_copy(a);  // row-major: its upper triangle column-major is A's lower (Note [Layout-free LAPACK])
    if (batch == 0 || n == 0) return l;
    std::vector<lapack_int> infos((size_t)batch, 0);
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // Hermitian A: the buffer is conj(A) = conj(L) L^T
        using T = typename decltype(tag)::type;
        T* pl = l.data<T>();
        for_each_matrix(batch, 1.0 / 3.0 * n * n * n, [&](int64_t b0, int64_t b1) {
            for (int64_t b = b0; b < b1; ++b) {
                T* m = pl + b * n * n;
                Lapack<T>::potrf("U", &ln, m, &ln, &infos[b]);  // A^T = U^H U, U^T = L row-major
                for (int64_t i = 0; i < n; ++i)  // row i's entries right of the diagonal: L's strict upper part
                    for (int64_t j = i + 1; j < n; ++j) m[i * n + j] = T(0);
            }
        });
    });
    int64_t bad = first_failure(infos);
    if (bad >= 0)
        fail_not_positive_definite(op, a, bad, infos[bad]);
    return l;
}

Tensor triangular_solve_kernel(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit) {
    if (!a.device().is_cpu()) return cuda_triangular_solve_kernel(a, b, upper, left, trans, unit);
    const int64_t batch = batch_count(a), n = a.size(-1), rows = b.size(-2), cols = b.size(-1);
    const char* op = "linalg.solve_triangular";
    lapack_dim(n, op), lapack_dim(rows, op), lapack_dim(cols, op);
    Tensor ra = fresh_copy(a), x = fresh_copy(b);  // row-major: cblas takes the layout
    if (x.numel() == 0) return x;
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* pa = ra.data<T>();
        T* px = x.data<T>();
        for_each_matrix(batch, (double)n * n * (left ? cols : rows), [&](int64_t b0, int64_t b1) {
            for (int64_t i = b0; i < b1; ++i) {
                auto side = left ? CblasLeft : CblasRight;
                auto uplo = upper ? CblasUpper : CblasLower;
                auto tr = trans ? CblasTrans : CblasNoTrans;
                auto diag = unit ? CblasUnit : CblasNonUnit;
                int m = (int)rows, nn = (int)cols, lda = (int)std::max<int64_t>(n, 1), ldb = (int)std::max<int64_t>(cols, 1);
                blas_trsm(CblasRowMajor, side, uplo, tr, diag, m, nn, pa + i * n * n, lda, px + i * rows * cols, ldb);
            }
        });
    });
    return x;
}

std::pair<Tensor, Tensor> qr_kernel(const Tensor& a, QrMode mode) {
    if (!a.device().is_cpu()) return cuda_qr_kernel(a, mode);
    const char* op = "linalg.qr";
    const int64_t batch = batch_count(a), m = a.size(-2), n = a.size(-1), k = std::min(m, n);
    lapack_int lm = lapack_dim(m, op), ln = lapack_dim(n, op), lk = (lapack_int)k;
    const int64_t qcols = mode == QrMode::Complete ? m : k, rrows = mode == QrMode::Complete ? m : k;
    Shape bs = batch_shape_of(a);
    Tensor f = colmajor(a);  // geqrf's output: R above the diagonal, reflectors below
    Tensor q = empty_tensor(mode == QrMode::ROnly ? Shape{0} : with_tail(bs, {qcols, m}), a.dtype(), a.device());
    Tensor r = empty_tensor(with_tail(bs, {n, rrows}), a.dtype(), a.device());  // column-major R
    cpu_fill(r, 0.0);
    if (mode != QrMode::ROnly) fill_identity(q, m == qcols ? m : 0);  // m x 0 or m x m when k == 0
    if (batch == 0 || k == 0) return {mode == QrMode::ROnly ? q : from_colmajor(q), from_colmajor(r)};
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // complex: geqrf, ungqr
        using T = typename decltype(tag)::type;
        T *pf = f.data<T>(), *pr = r.data<T>();
        T* pq = mode == QrMode::ROnly ? nullptr : q.data<T>();
        lapack_int lq = (lapack_int)qcols, lwork = -1, info = 0;
        T query = 0, query2 = 0;
        Lapack<T>::geqrf(&lm, &ln, pf, &lm, nullptr, &query, &lwork, &info);
        if (pq) Lapack<T>::orgqr(&lm, &lq, &lk, pq, &lm, nullptr, &query2, &lwork, &info);
        const int64_t work_size = std::max<int64_t>((int64_t)std::max(std::real(query), std::real(query2)), 1);
        for_each_matrix(batch, 2.0 * m * n * k, [&](int64_t b0, int64_t b1) {
            std::vector<T> tau((size_t)k), work((size_t)work_size);
            lapack_int lw = (lapack_int)work_size, inf = 0;
            for (int64_t b = b0; b < b1; ++b) {
                T* fa = pf + b * m * n;
                Lapack<T>::geqrf(&lm, &ln, fa, &lm, tau.data(), work.data(), &lw, &inf);
                T* rb = pr + b * n * rrows;
                for (int64_t j = 0; j < n; ++j)  // R(i, j) for i <= min(j, k - 1)
                    for (int64_t i = 0; i <= std::min(j, k - 1); ++i) rb[j * rrows + i] = fa[j * m + i];
                if (!pq) continue;
                T* qb = pq + b * m * qcols;
                for (int64_t j = 0; j < k; ++j)  // the k reflectors (columns beyond k stay from the identity)
                    for (int64_t i = 0; i < m; ++i) qb[j * m + i] = fa[j * m + i];
                Lapack<T>::orgqr(&lm, &lq, &lk, qb, &lm, tau.data(), work.data(), &lw, &inf);
            }
        });
    });
    return {mode == QrMode::ROnly ? q : from_colmajor(q), from_colmajor(r)};
}

std::pair<Tensor, Tensor> eigh_kernel(const Tensor& a, bool upper, bool vectors, const char* op) {
    if (!a.device().is_cpu()) return cuda_eigh_kernel(a, upper, vectors, op);
    const int64_t batch = batch_count(a), n = a.size(-1);
    lapack_int ln = lapack_dim(n, op);
    Tensor v = colmajor(a), w = empty_tensor(with_tail(batch_shape_of(a), {n}), real_dtype(a.dtype()), a.device());
    if (batch == 0 || n == 0) return {w, vectors ? from_colmajor(v) : Tensor()};
    std::vector<lapack_int> infos((size_t)batch, 0);
    const char* jobz = vectors ? "V" : "N";
    const char* uplo = upper ? "U" : "L";
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // complex: heevd of Hermitian A, real eigenvalues
        using T = typename decltype(tag)::type;
        using R = typename Lapack<T>::Real;
        T* pv = v.data<T>();
        R* pw = w.data<R>();
        lapack_int lwork = -1, lrwork = -1, liwork = -1, info = 0, iquery = 0;
        T query = 0;
        R rquery = 0;
        Lapack<T>::syevd(jobz, uplo, &ln, pv, &ln, pw, &query, &lwork, &rquery, &lrwork, &iquery, &liwork, &info);
        const lapack_int work_size = std::max<lapack_int>((lapack_int)std::real(query), 1),
                         rwork_size = std::max<lapack_int>((lapack_int)rquery, 1), iwork_size = std::max(iquery, 1);
        for_each_matrix(batch, 9.0 * n * n * n, [&](int64_t b0, int64_t b1) {
            std::vector<T> work((size_t)work_size);
            std::vector<R> rwork((size_t)rwork_size);
            std::vector<lapack_int> iwork((size_t)iwork_size);
            lapack_int lw = work_size, lrw = rwork_size, liw = iwork_size;
            for (int64_t b = b0; b < b1; ++b)
                Lapack<T>::syevd(jobz, uplo, &ln, pv + b * n * n, &ln, pw + b * n, work.data(), &lw, rwork.data(), &lrw,
                                 iwork.data(), &liw, &infos[b]);
        });
    });
    int64_t bad = first_failure(infos);
    if (bad >= 0)
        fail_not_converged(op, a, bad, infos[bad], "eigenvalues");
    return {w, vectors ? from_colmajor(v) : Tensor()};
}

// Note [Layout-free SVD]: A's row-major buffer is A^T column-major (n x m), and gesdd of A^T = U' S V'^H gives
// A = conj(V') S U'^T, so U = conj(V') and Vh = U'^T (same S). Read back row-major: gesdd's V'^H buffer (column-major
// k' x m, ld k') is U^T column-major, i.e. U row-major [m, k']; its U' buffer (column-major n x k') is Vh row-major
// [k', n]. No conjugation and no transposed copy in or out; only the sign/phase choice of the vectors is LAPACK's
// for A^T (the SVD fixes them only up to that).
std::tuple<Tensor, Tensor, Tensor> svd_kernel(const Tensor& a, bool full, bool vectors, const char* op) {
    if (!a.device().is_cpu()) return cuda_svd_kernel(a, full, vectors, op);
    const int64_t batch = batch_count(a), m = a.size(-2), n = a.size(-1), k = std::min(m, n);
    lapack_int lm = lapack_dim(n, op), ln = lapack_dim(m, op);  // gesdd's m x n problem is A^T (n x m)
    const int64_t ucols = full ? m : k, vrows = full ? n : k;
    Shape bs = batch_shape_of(a);
    Tensor f = fresh_copy(a), s = empty_tensor(with_tail(bs, {k}), real_dtype(a.dtype()), a.device()), u, vt;
    if (vectors) {  // U [m, ucols] is gesdd's V'^H, Vh [vrows, n] its U'; the identity where k == 0
        u = empty_tensor(with_tail(bs, {m, ucols}), a.dtype(), a.device());
        vt = empty_tensor(with_tail(bs, {vrows, n}), a.dtype(), a.device());
        fill_identity(u, ucols == m ? m : 0);
        fill_identity(vt, vrows == n ? n : 0);
    }
    auto result = [&] { return std::make_tuple(vectors ? u : Tensor(), s, vectors ? vt : Tensor()); };
    if (batch == 0 || k == 0) return result();
    std::vector<lapack_int> infos((size_t)batch, 0);
    const char* jobz = !vectors ? "N" : full ? "A" : "S";
    // complex gesdd's rwork: LAPACK's bound for jobz "N" (7 k) and for the vectors (the larger of its two forms);
    // none for the real types
    const int64_t mx = std::max(m, n),
                  rwork_size = !is_complex(a.dtype()) ? 0
                               : vectors             ? std::max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k)
                                                     : 7 * k;
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // complex: gesdd c/z, real singular values
        using T = typename decltype(tag)::type;
        using R = typename Lapack<T>::Real;
        T* pf = f.data<T>();
        R* ps = s.data<R>();
        T* pu = vectors ? vt.data<T>() : nullptr;  // gesdd's U' (n x vrows, ld n)
        T* pv = vectors ? u.data<T>() : nullptr;   // gesdd's V'^H (ucols x m, ld ucols)
        lapack_int ldvt = (lapack_int)std::max<int64_t>(ucols, 1), lwork = -1, info = 0;
        std::vector<lapack_int> iwork0((size_t)(8 * k));
        T query = 0, dummy = 0;
        std::vector<R> rwork0((size_t)rwork_size);
        Lapack<T>::gesdd(jobz, &lm, &ln, pf, &lm, ps, pu ? pu : &dummy, &lm, pv ? pv : &dummy, &ldvt, &query, &lwork,
                         rwork0.data(), iwork0.data(), &info);
        const lapack_int work_size = std::max<lapack_int>((lapack_int)std::real(query), 1);
        for_each_matrix(batch, 6.0 * m * n * k, [&](int64_t b0, int64_t b1) {
            std::vector<T> work((size_t)work_size);
            std::vector<R> rwork((size_t)rwork_size);
            std::vector<lapack_int> iwork((size_t)(8 * k));
            lapack_int lw = work_size;
            T d1 = 0, d2 = 0;
            for (int64_t b = b0; b < b1; ++b)
                Lapack<T>::gesdd(jobz, &lm, &ln, pf + b * m * n, &lm, ps + b * k, pu ? pu + b * vrows * n : &d1, &lm,
                                 pv ? pv + b * m * ucols : &d2, &ldvt, work.data(), &lw, rwork.data(), iwork.data(),
                                 &infos[b]);
        });
    });
    int64_t bad = first_failure(infos);
    if (bad >= 0)
        fail_not_converged(op, a, bad, infos[bad], "singular values");
    return result();
}

}  // namespace ct

namespace ct {

std::tuple<Tensor, Tensor, Tensor> lstsq_kernel(const Tensor& a, const Tensor& b, LstsqDriver driver, double rcond) {
    if (!a.device().is_cpu()) return cuda_lstsq_kernel(a, b, driver);
    const char* op = "linalg.lstsq";
    const int64_t batch = batch_count(a), m = a.size(-2), n = a.size(-1), k = b.size(-1), mn = std::min(m, n);
    const int64_t ldb = std::max<int64_t>({m, n, 1}), kk = std::max<int64_t>(k, 1);  // k == 0: one zero column
    lapack_int lm = lapack_dim(m, op), ln = lapack_dim(n, op), lb = lapack_dim(ldb, op), lk = lapack_dim(kk, op);
    Shape bs = batch_shape_of(a);
    Tensor padded = zeros(with_tail(bs, {ldb, kk}), a.dtype(), a.device());
    {
        NoGradGuard no_grad;
        Tensor dst = narrow(narrow(padded, -2, 0, m), -1, 0, k);
        cpu_copy(dst, b);
    }
    Tensor f = colmajor(a), buf = colmajor(padded);  // buf: column-major ldb x kk per batch element
    Tensor rank = zeros(bs, DType::Int64, a.device());
    Tensor sv = empty_tensor(with_tail(bs, {mn}), real_dtype(a.dtype()), a.device());
    if (batch == 0 || mn == 0) return {narrow(from_colmajor(buf), -1, 0, k), rank, sv};
    std::vector<lapack_int> infos((size_t)batch, 0), ranks((size_t)batch, 0);
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // complex: c/z drivers, real rcond and singular values
        using T = typename decltype(tag)::type;
        using R = typename Lapack<T>::Real;
        T *pf = f.data<T>(), *pb = buf.data<T>();
        R* ps = sv.data<R>();
        const R rc = (R)rcond;
        // one driver call on matrix (fa, fb); lw = -1 is LAPACK's workspace query (no matrix is read)
        auto solve = [&](T* fa, T* fb, R* s, lapack_int* jpvt, lapack_int* rank, T* work, lapack_int lw, R* rwork,
                         lapack_int* iwork, lapack_int* inf) {
            switch (driver) {
            case LstsqDriver::Gels: Lapack<T>::gels(&lm, &ln, &lk, fa, &lm, fb, &lb, work, &lw, inf); break;
            case LstsqDriver::Gelsy:
                Lapack<T>::gelsy(&lm, &ln, &lk, fa, &lm, fb, &lb, jpvt, &rc, rank, work, &lw, rwork, inf);
                break;
            case LstsqDriver::Gelsd:
                Lapack<T>::gelsd(&lm, &ln, &lk, fa, &lm, fb, &lb, s, &rc, rank, work, &lw, rwork, iwork, inf);
                break;
            case LstsqDriver::Gelss:
                Lapack<T>::gelss(&lm, &ln, &lk, fa, &lm, fb, &lb, s, &rc, rank, work, &lw, rwork, inf);
                break;
            }
        };
        lapack_int info = 0, rk = 0, iwork_query = 0;
        T query = 0;
        R rwork_query = 0;  // complex gelsd's rwork size; the other drivers (and every real one) leave it 0
        solve(pf, pb, ps, nullptr, &rk, &query, -1, &rwork_query, &iwork_query, &info);
        const int64_t work_size = std::max<int64_t>((int64_t)std::real(query), 1);
        const int64_t iwork_size = std::max<int64_t>(iwork_query, 1);
        // complex rwork: gelsy's 2 n, gelss's 5 min(m, n), gelsd's queried size (lapack.h); unused by the real types
        const int64_t rwork_size =
            is_complex(a.dtype()) ? std::max<int64_t>({(int64_t)rwork_query, 2 * n, 5 * mn, 1}) : 1;
        for_each_matrix(batch, 2.0 * m * n * std::max(m, n), [&](int64_t b0, int64_t b1) {
            std::vector<T> work((size_t)work_size);
            std::vector<R> rwork((size_t)rwork_size);
            std::vector<lapack_int> iwork((size_t)iwork_size), jpvt((size_t)n);
            lapack_int lw = (lapack_int)work_size;
            for (int64_t bi = b0; bi < b1; ++bi) {
                T *fa = pf + bi * m * n, *fb = pb + bi * ldb * kk;
                R* s = ps + bi * mn;
                std::fill(jpvt.begin(), jpvt.end(), 0);  // gelsy: every column free to pivot
                solve(fa, fb, s, jpvt.data(), &ranks[(size_t)bi], work.data(), lw, rwork.data(), iwork.data(),
                      &infos[(size_t)bi]);
            }
        });
    });
    int64_t bad = first_failure(infos);
    if (bad >= 0 && driver == LstsqDriver::Gels) fail_rank_deficient(op, a, bad, infos[(size_t)bad]);
    if (bad >= 0) fail_not_converged(op, a, bad, infos[(size_t)bad], "singular values");
    int64_t* pr = rank.data<int64_t>();
    for (int64_t bi = 0; bi < batch; ++bi) pr[bi] = ranks[(size_t)bi];
    return {narrow(from_colmajor(buf), -1, 0, k), rank, sv};
}

// geev's real output as complex: eigenvalue j is wr[j] + i wi[j]; a conjugate pair (wi[j] > 0) stores its vectors
// as VR[:, j] +- i VR[:, j+1] (LAPACK's convention), every other vector is real. vr column-major n x n; v row-major.
template <typename T>
void geev_to_complex(int64_t n, const T* wr, const T* wi, const T* vr, std::complex<T>* l, std::complex<T>* v) {
    for (int64_t j = 0; j < n; ++j) l[j] = {wr[j], wi[j]};
    if (!v) return;
    for (int64_t j = 0; j < n; ++j) {
        if (wi[j] != T(0) && j + 1 < n && wi[j] > T(0)) {
            for (int64_t i = 0; i < n; ++i) {
                const T re = vr[j * n + i], im = vr[(j + 1) * n + i];
                v[i * n + j] = {re, im};
                v[i * n + j + 1] = {re, -im};
            }
            ++j;
        } else {
            for (int64_t i = 0; i < n; ++i) v[i * n + j] = {vr[j * n + i], T(0)};
        }
    }
}

std::pair<Tensor, Tensor> eig_kernel(const Tensor& a, bool vectors, const char* op) {
    const int64_t batch = batch_count(a), n = a.size(-1);
    lapack_int ln = lapack_dim(n, op);
    const DType cd = complex_dtype_of(a.dtype());
    Tensor l = empty_tensor(with_tail(batch_shape_of(a), {n}), cd, a.device());
    Tensor v = vectors ? empty_tensor(a.sizes(), cd, a.device()) : Tensor();
    if (batch == 0 || n == 0) return {l, v};
    Tensor f = colmajor(a);
    std::vector<lapack_int> infos((size_t)batch, 0);
    dispatch_float_or_complex(a.dtype(), [&](auto tag) {  // complex A: cgeev/zgeev, complex output directly
        using T = typename decltype(tag)::type;
        using R = typename Lapack<T>::Real;
        using C = std::complex<R>;
        constexpr bool cplx = !std::is_same<T, R>::value;
        T* pf = f.data<T>();
        C* pl = l.data<C>();
        C* pv = vectors ? v.data<C>() : nullptr;
        lapack_int lwork = -1, info = 0;
        T query = 0;
        // the query reads no values
        std::vector<T> qr((size_t)n), qi((size_t)n), qv(vectors ? (size_t)(n * n) : 1);
        std::vector<R> qrw((size_t)(2 * n));
        if constexpr (cplx)
            Lapack<T>::geev(&ln, pf, &ln, qr.data(), qv.data(), &ln, vectors, &query, &lwork, qrw.data(), &info);
        else
            Lapack<T>::geev(&ln, pf, &ln, qr.data(), qi.data(), qv.data(), &ln, vectors, &query, &lwork, &info);
        lwork = std::max<lapack_int>((lapack_int)std::real(query), 1);
        for_each_matrix(batch, 10.0 * n * n * n, [&](int64_t b0, int64_t b1) {
            std::vector<T> work((size_t)lwork), wr((size_t)n), wi((size_t)n), vr(vectors ? (size_t)(n * n) : 0);
            std::vector<R> rwork(cplx ? (size_t)(2 * n) : 0);
            for (int64_t b = b0; b < b1; ++b) {
                if constexpr (cplx) {
                    Lapack<T>::geev(&ln, pf + b * n * n, &ln, pl + b * n, vr.data(), &ln, vectors, work.data(), &lwork,
                                    rwork.data(), &infos[b]);
                    if (infos[b] == 0 && pv)  // column-major VR into row-major V
                        for (int64_t i = 0; i < n; ++i)
                            for (int64_t j = 0; j < n; ++j) pv[b * n * n + i * n + j] = vr[j * n + i];
                } else {
                    Lapack<T>::geev(&ln, pf + b * n * n, &ln, wr.data(), wi.data(), vr.data(), &ln, vectors,
                                    work.data(), &lwork, &infos[b]);
                    if (infos[b] == 0) geev_to_complex(n, wr.data(), wi.data(), vectors ? vr.data() : nullptr,
                                                       pl + b * n, pv ? pv + b * n * n : nullptr);
                }
            }
        });
    });
    int64_t bad = first_failure(infos);
    if (bad >= 0) fail_not_converged(op, a, bad, infos[bad], "eigenvalues");
    return {l, v};
}

}  // namespace ct

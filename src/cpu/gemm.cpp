// gemm.cpp - gemm split over the thread pool: the larger of m and n is cut into slices aligned to the
// register-tile width, each computed by single-threaded OpenBLAS on one thread (see gemm.h).
#include "cpu/gemm.h"
#include <cblas.h>
#include <algorithm>
#include "cpu/parallel.h"

namespace ct {
namespace {

constexpr int64_t kMinParallelWork = int64_t(1) << 18;  // m*n*k below this runs on one thread (OpenBLAS's own cut)
constexpr int64_t kAlign = 16;                          // slice boundaries are multiples of this many rows/cols

void blas_call(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
               const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (blasint)m, (blasint)n,
                (blasint)k, alpha, a, (blasint)lda, b, (blasint)ldb, beta, c, (blasint)ldc);
}

void blas_call(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
               const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (blasint)m, (blasint)n,
                (blasint)k, alpha, a, (blasint)lda, b, (blasint)ldb, beta, c, (blasint)ldc);
}

CBLAS_TRANSPOSE cblas_op(BlasOp op) {
    return op == BlasOp::N ? CblasNoTrans : op == BlasOp::T ? CblasTrans : op == BlasOp::C ? CblasConjTrans
                                                                                        : CblasConjNoTrans;
}
bool transposed(bool t) { return t; }
bool transposed(BlasOp op) { return op == BlasOp::T || op == BlasOp::C; }

void blas_call(BlasOp ta, BlasOp tb, int64_t m, int64_t n, int64_t k, std::complex<float> alpha,
               const std::complex<float>* a, int64_t lda, const std::complex<float>* b, int64_t ldb,
               std::complex<float> beta, std::complex<float>* c, int64_t ldc) {
    cblas_cgemm(CblasRowMajor, cblas_op(ta), cblas_op(tb), (blasint)m, (blasint)n, (blasint)k, &alpha, a,
                (blasint)lda, b, (blasint)ldb, &beta, c, (blasint)ldc);
}

void blas_call(BlasOp ta, BlasOp tb, int64_t m, int64_t n, int64_t k, std::complex<double> alpha,
               const std::complex<double>* a, int64_t lda, const std::complex<double>* b, int64_t ldb,
               std::complex<double> beta, std::complex<double>* c, int64_t ldc) {
    cblas_zgemm(CblasRowMajor, cblas_op(ta), cblas_op(tb), (blasint)m, (blasint)n, (blasint)k, &alpha, a,
                (blasint)lda, b, (blasint)ldb, &beta, c, (blasint)ldc);
}

// Number of slices for a dimension of extent d with `threads` threads (each slice >= kAlign).
int64_t slices_for(int64_t d, int threads) { return std::min<int64_t>(threads, d / kAlign); }

// Op is bool (real: transposed or not) or BlasOp (complex).
template <typename T, typename Op>
void pooled_gemm(Op ta, Op tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
                 int64_t ldb, T beta, T* c, int64_t ldc) {
    SingleThreadedBlas single;
    int threads = get_num_threads();
    bool small = (double)m * (double)n * (double)k < (double)kMinParallelWork;
    bool split_rows = m >= n;
    int64_t d = split_rows ? m : n, parts = slices_for(d, threads);
    if (threads <= 1 || small || parts <= 1 || in_parallel_region()) {
        blas_call(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    int64_t blocks = (d + kAlign - 1) / kAlign;
    parallel_chunks((int)parts, [&](int64_t p) {
        int64_t lo = std::min(d, blocks * p / parts * kAlign), hi = std::min(d, blocks * (p + 1) / parts * kAlign);
        if (lo >= hi) return;
        if (split_rows)  // rows lo..hi of op(A) and of C
            blas_call(ta, tb, hi - lo, n, k, alpha, transposed(ta) ? a + lo : a + lo * lda, lda, b, ldb, beta, c + lo * ldc, ldc);
        else  // columns lo..hi of op(B) and of C
            blas_call(ta, tb, m, hi - lo, k, alpha, a, lda, transposed(tb) ? b + lo * ldb : b + lo, ldb, beta, c + lo, ldc);
    });
}

}  // namespace

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
          int64_t ldb, float beta, float* c, int64_t ldc) {
    pooled_gemm<float, bool>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
    pooled_gemm<double, bool>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(BlasOp ta, BlasOp tb, int64_t m, int64_t n, int64_t k, std::complex<float> alpha,
          const std::complex<float>* a, int64_t lda, const std::complex<float>* b, int64_t ldb,
          std::complex<float> beta, std::complex<float>* c, int64_t ldc) {
    pooled_gemm<std::complex<float>, BlasOp>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(BlasOp ta, BlasOp tb, int64_t m, int64_t n, int64_t k, std::complex<double> alpha,
          const std::complex<double>* a, int64_t lda, const std::complex<double>* b, int64_t ldb,
          std::complex<double> beta, std::complex<double>* c, int64_t ldc) {
    pooled_gemm<std::complex<double>, BlasOp>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace ct

// gemm.h - the one entry to BLAS gemm: row-major C = alpha * op(A) @ op(B) + beta * C, split into row or
// column slices over ctensor's thread pool, each slice a single-threaded OpenBLAS call (so OpenBLAS never
// starts its own OpenMP team next to our workers). Safe to call from inside a parallel_for chunk (then runs
// on the calling thread only).
#pragma once
#include <complex>
#include <cstdint>

namespace ct {

void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

// Complex gemm (cblas_cgemm / zgemm): each operand is used as stored (N), transposed (T), conjugate-transposed
// (C) or conjugated (R, OpenBLAS's CblasConjNoTrans), so a conjugated operand costs no copy.
enum class BlasOp { N, T, C, R };
void gemm(BlasOp op_a, BlasOp op_b, int64_t m, int64_t n, int64_t k, std::complex<float> alpha,
          const std::complex<float>* a, int64_t lda, const std::complex<float>* b, int64_t ldb,
          std::complex<float> beta, std::complex<float>* c, int64_t ldc);
void gemm(BlasOp op_a, BlasOp op_b, int64_t m, int64_t n, int64_t k, std::complex<double> alpha,
          const std::complex<double>* a, int64_t lda, const std::complex<double>* b, int64_t ldb,
          std::complex<double> beta, std::complex<double>* c, int64_t ldc);

}  // namespace ct

// gemm.h - the one entry to BLAS gemm: row-major C = alpha * op(A) @ op(B) + beta * C, split into row or
// column slices over ctensor's thread pool, each slice a single-threaded OpenBLAS call (so OpenBLAS never
// starts its own OpenMP team next to our workers). Safe to call from inside a parallel_for chunk (then runs
// on the calling thread only).
#pragma once
#include <cstdint>

namespace ct {

void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

}  // namespace ct

// nn_blas.h - typed OpenBLAS gemm for the nn kernels (linear, conv2d): row-major C = alpha*op(A)*op(B) + beta*C
// on raw pointers (split over the thread pool by cpu/gemm.h), plus a tensor-level wrapper that passes 2-D strided
// operands to BLAS without copying when one of their strides is 1. Callable from inside a parallel_for chunk.
#pragma once
#include <algorithm>
#include "core/tensor.h"
#include "cpu/gemm.h"
#include "cpu/kernels.h"

namespace ct {

inline void blas_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
                      const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
    gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

inline void blas_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
                      const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
    gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// How a 2-D tensor is handed to BLAS: a pointer, whether it is transposed, and its leading dimension.
struct BlasOperand {
    Tensor keep;  // owns a contiguous copy when the layout was not BLAS-compatible
    bool trans = false;
    int64_t ld = 1;
};

inline BlasOperand blas_operand(const Tensor& t) {
    const int64_t r = t.sizes()[0], c = t.sizes()[1], s0 = t.strides()[0], s1 = t.strides()[1];
    if ((c == 1 || s1 == 1) && (r == 1 || s0 >= std::max<int64_t>(1, c)))
        return {t, false, r == 1 ? std::max<int64_t>(1, c) : s0};
    if ((r == 1 || s0 == 1) && (c == 1 || s1 >= std::max<int64_t>(1, r)))
        return {t, true, c == 1 ? std::max<int64_t>(1, r) : s1};
    Tensor copy = empty_tensor(t.sizes(), t.dtype(), t.device());
    cpu_copy(copy, t);
    return {copy, false, std::max<int64_t>(1, c)};
}

// out[M, N] (contiguous) = a[M, K] @ b[K, N] + beta * out; a and b are 2-D with any strides, dtype T.
template <typename T> void gemm_into(const Tensor& out, const Tensor& a, const Tensor& b, T beta) {
    const int64_t m = a.sizes()[0], k = a.sizes()[1], n = b.sizes()[1];
    if (m == 0 || n == 0) return;
    T* o = out.data<T>();
    if (k == 0) {
        for (int64_t i = 0; i < m * n; ++i) o[i] = beta == T(0) ? T(0) : o[i] * beta;
        return;
    }
    BlasOperand A = blas_operand(a), B = blas_operand(b);
    blas_gemm(A.trans, B.trans, m, n, k, T(1), A.keep.data<T>(), A.ld, B.keep.data<T>(), B.ld, beta, o,
              std::max<int64_t>(1, n));
}

}  // namespace ct

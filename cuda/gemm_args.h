// gemm_args.h - row-major GEMM expressed as the column-major call cuBLAS expects: a row-major matrix read
// column-major is its transpose, so C = op(A) op(B) becomes C^T = op(B)^T op(A)^T, i.e. the operands swap
// and m/n swap while the transpose flags carry over. Host-only, so the CPU tests check the mapping.
#pragma once
#include <cstdint>

namespace ct {
namespace cuda {

struct RowMajorGemm {
    bool trans_a, trans_b;
    int64_t m, n, k;  // C is m x n, op(A) is m x k, op(B) is k x n
    const void* a;
    int64_t lda, stride_a;
    const void* b;
    int64_t ldb, stride_b;
    void* c;
    int64_t ldc, stride_c;
    int64_t batch;
};

// One column-major GEMM call: C(m x n) = op(first) op(second), leading dims column-major.
struct ColumnMajorGemm {
    bool trans_first, trans_second;
    int64_t m, n, k;
    const void* first;
    int64_t ld_first, stride_first;
    const void* second;
    int64_t ld_second, stride_second;
    void* c;
    int64_t ldc, stride_c;
    int64_t batch;
};

// Row-major leading dims must cover a stored row: A is stored m x k (k x m when transposed), etc.
inline const char* check_row_major_gemm(const RowMajorGemm& g) {
    if (g.m < 0 || g.n < 0 || g.k < 0 || g.batch < 0) return "negative size";
    int64_t a_cols = g.trans_a ? g.m : g.k, b_cols = g.trans_b ? g.k : g.n;
    if (g.lda < (a_cols > 1 ? a_cols : 1)) return "lda is smaller than a row of A";
    if (g.ldb < (b_cols > 1 ? b_cols : 1)) return "ldb is smaller than a row of B";
    if (g.ldc < (g.n > 1 ? g.n : 1)) return "ldc is smaller than a row of C";
    return nullptr;
}

inline ColumnMajorGemm to_column_major(const RowMajorGemm& g) {
    ColumnMajorGemm r;
    r.trans_first = g.trans_b;
    r.trans_second = g.trans_a;
    r.m = g.n;
    r.n = g.m;
    r.k = g.k;
    r.first = g.b;
    r.ld_first = g.ldb;
    r.stride_first = g.stride_b;
    r.second = g.a;
    r.ld_second = g.lda;
    r.stride_second = g.stride_a;
    r.c = g.c;
    r.ldc = g.ldc;
    r.stride_c = g.stride_c;
    r.batch = g.batch;
    return r;
}

}  // namespace cuda
}  // namespace ct

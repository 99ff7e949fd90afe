// emulated_cuda_linalg.cpp - the emulated CUDA backend's linalg entry (ct_cuda_linalg_op): the same LAPACK
// routines as the CPU kernels (cpu/lapack.h) and BLAS trsm, one matrix at a time, on the host memory that poses
// as device memory. gesvd is emulated with gesdd (same contract: m >= n, s descending, U and V^T).
#include <cblas.h>
#include <algorithm>
#include <string>
#include <vector>
#include "core/backend.h"
#include "cpu/lapack.h"
#include "ctensor.h"

namespace {

using ct::lapack_int;

template <typename T> void trsm(const ct_cuda_linalg_args& g, const T* a, T* b) {
    const lapack_int m = (lapack_int)g.m, n = (lapack_int)g.n, k = g.left ? m : n;
    auto side = g.left ? CblasLeft : CblasRight;
    auto uplo = g.upper ? CblasUpper : CblasLower;
    auto tr = g.trans ? CblasTrans : CblasNoTrans;
    auto diag = g.unit ? CblasUnit : CblasNonUnit;
    const lapack_int lda = std::max(k, 1), ldb = std::max(m, 1);
    if constexpr (std::is_same<T, float>::value)
        cblas_strsm(CblasColMajor, side, uplo, tr, diag, m, n, 1.0f, a, lda, b, ldb);
    else
        cblas_dtrsm(CblasColMajor, side, uplo, tr, diag, m, n, 1.0, a, lda, b, ldb);
}

template <typename T> int32_t run(const ct_cuda_linalg_args& g, std::string* error) {
    using L = ct::Lapack<T>;
    const lapack_int m = (lapack_int)g.m, n = (lapack_int)g.n, k = (lapack_int)g.k;
    const lapack_int ldm = std::max(m, 1), ldn = std::max(n, 1);
    T *a = static_cast<T*>(g.a), *b = static_cast<T*>(g.b), *w = static_cast<T*>(g.w);
    T *u = static_cast<T*>(g.u), *vt = static_cast<T*>(g.vt);
    std::vector<T> work(1);
    std::vector<lapack_int> iwork(std::max<int64_t>(8 * (int64_t)n, 1));
    lapack_int lwork = -1, liwork = -1, info = 0;
    const char* jobz_e = g.vectors ? "V" : "N";
    const char* jobz_s = !g.vectors ? "N" : g.full ? "A" : "S";
    const char* uplo = g.upper ? "U" : "L";
    T dummy = 0;
    switch (g.op) {  // workspace queries (no matrix is read)
    case CT_CUDA_GEQRF: L::geqrf(&m, &n, a, &ldm, w, work.data(), &lwork, &info); break;
    case CT_CUDA_ORGQR: L::orgqr(&m, &n, &k, a, &ldm, w, work.data(), &lwork, &info); break;
    case CT_CUDA_SYEVD: {
        lapack_int iq = 0;
        L::syevd(jobz_e, uplo, &n, a, &ldn, w, work.data(), &lwork, nullptr, nullptr, &iq, &liwork, &info);
        iwork.resize((size_t)std::max(iq, 1));
        break;
    }
    case CT_CUDA_GESVD:
        L::gesdd(jobz_s, &m, &n, a, &ldm, w, u ? u : &dummy, &ldm, vt ? vt : &dummy, &ldn, work.data(), &lwork,
                 nullptr, iwork.data(), &info);
        break;
    default: break;
    }
    lwork = std::max<lapack_int>((lapack_int)work[0], 1);
    liwork = (lapack_int)iwork.size();
    work.resize((size_t)lwork);
    for (int64_t i = 0; i < g.batch; ++i) {
        info = 0;
        switch (g.op) {
        case CT_CUDA_GETRF: L::getrf(&n, &n, a + i * n * n, &ldn, g.ipiv + i * n, &info); break;
        case CT_CUDA_GETRS:
            L::getrs(g.trans ? "T" : "N", &n, &k, a + i * n * n, &ldn, g.ipiv + i * n, b + i * n * k, &ldn, &info);
            break;
        case CT_CUDA_POTRF: L::potrf(uplo, &n, a + i * n * n, &ldn, &info); break;
        case CT_CUDA_GEQRF:
            L::geqrf(&m, &n, a + i * m * n, &ldm, w + i * std::min(m, n), work.data(), &lwork, &info);
            break;
        case CT_CUDA_ORGQR: L::orgqr(&m, &n, &k, a + i * m * n, &ldm, w + i * k, work.data(), &lwork, &info); break;
        case CT_CUDA_SYEVD:
            L::syevd(jobz_e, uplo, &n, a + i * n * n, &ldn, w + i * n, work.data(), &lwork, nullptr, nullptr,
                     iwork.data(), &liwork, &info);
            break;
        case CT_CUDA_GESVD: {
            const int64_t ucols = g.full ? m : n;
            L::gesdd(jobz_s, &m, &n, a + i * m * n, &ldm, w + i * n, u ? u + i * m * ucols : &dummy, &ldm,
                     vt ? vt + i * n * n : &dummy, &ldn, work.data(), &lwork, nullptr, iwork.data(), &info);
            break;
        }
        case CT_CUDA_TRSM: {
            const int64_t ka = g.left ? g.m : g.n;
            trsm<T>(g, a + i * ka * ka, b + i * g.m * g.n);
            break;
        }
        default: *error = "linalg: unknown op " + std::to_string(g.op); return CT_ERR_INVALID_ARGUMENT;
        }
        if (info < 0) {
            *error = "linalg: LAPACK rejected argument " + std::to_string(-info) + " of op " + std::to_string(g.op);
            return CT_ERR_INTERNAL;
        }
        if (g.info) g.info[i] = info;
    }
    return CT_OK;
}

}  // namespace

// The linalg entry's work (status; *error set on failure); the caller has checked the device.
int32_t emulated_linalg(const ct_cuda_linalg_args* g, std::string* error) {
    if (!g) {
        *error = "linalg: args is NULL";
        return CT_ERR_INVALID_ARGUMENT;
    }
    if (g->batch < 0 || g->m < 0 || g->n < 0 || g->k < 0) {
        *error = "linalg: negative size";
        return CT_ERR_INVALID_ARGUMENT;
    }
    if (g->dtype == CT_FLOAT32) return run<float>(*g, error);
    if (g->dtype == CT_FLOAT64) return run<double>(*g, error);
    *error = "linalg: dtype " + std::to_string(g->dtype) + " is not float32 or float64";
    return CT_ERR_DTYPE;
}

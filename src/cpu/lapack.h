// lapack.h - the LAPACK routines ctensor calls, from OpenBLAS's bundled LAPACK (its Fortran symbols: Debian's
// OpenBLAS ships no lapacke.h), and one dtype-generic face Lapack<T> over the s/d pairs. Matrices are
// column-major; every integer argument is a 32-bit LAPACK int (callers check their sizes fit, Note [LAPACK ints]).
#pragma once
#include <cblas.h>
#include <climits>
#include <complex>
#include <cstdint>

namespace ct {

// Note [LAPACK ints]: OpenBLAS's LAPACK takes 32-bit ints, so every dimension and leading dimension passed in
// must be at most INT_MAX; linalg_kernels.cpp refuses larger matrices with CT_ERR_NOT_SUPPORTED.
using lapack_int = int;

extern "C" {
void sgetrf_(const lapack_int* m, const lapack_int* n, float* a, const lapack_int* lda, lapack_int* ipiv,
             lapack_int* info);
void dgetrf_(const lapack_int* m, const lapack_int* n, double* a, const lapack_int* lda, lapack_int* ipiv,
             lapack_int* info);
void sgetrs_(const char* trans, const lapack_int* n, const lapack_int* nrhs, const float* a, const lapack_int* lda,
             const lapack_int* ipiv, float* b, const lapack_int* ldb, lapack_int* info);
void dgetrs_(const char* trans, const lapack_int* n, const lapack_int* nrhs, const double* a, const lapack_int* lda,
             const lapack_int* ipiv, double* b, const lapack_int* ldb, lapack_int* info);
void spotrf_(const char* uplo, const lapack_int* n, float* a, const lapack_int* lda, lapack_int* info);
void dpotrf_(const char* uplo, const lapack_int* n, double* a, const lapack_int* lda, lapack_int* info);
void sgeqrf_(const lapack_int* m, const lapack_int* n, float* a, const lapack_int* lda, float* tau, float* work,
             const lapack_int* lwork, lapack_int* info);
void dgeqrf_(const lapack_int* m, const lapack_int* n, double* a, const lapack_int* lda, double* tau, double* work,
             const lapack_int* lwork, lapack_int* info);
void sorgqr_(const lapack_int* m, const lapack_int* n, const lapack_int* k, float* a, const lapack_int* lda,
             const float* tau, float* work, const lapack_int* lwork, lapack_int* info);
void dorgqr_(const lapack_int* m, const lapack_int* n, const lapack_int* k, double* a, const lapack_int* lda,
             const double* tau, double* work, const lapack_int* lwork, lapack_int* info);
void ssyevd_(const char* jobz, const char* uplo, const lapack_int* n, float* a, const lapack_int* lda, float* w,
             float* work, const lapack_int* lwork, lapack_int* iwork, const lapack_int* liwork, lapack_int* info);
void dsyevd_(const char* jobz, const char* uplo, const lapack_int* n, double* a, const lapack_int* lda, double* w,
             double* work, const lapack_int* lwork, lapack_int* iwork, const lapack_int* liwork, lapack_int* info);
void sgesdd_(const char* jobz, const lapack_int* m, const lapack_int* n, float* a, const lapack_int* lda, float* s,
             float* u, const lapack_int* ldu, float* vt, const lapack_int* ldvt, float* work, const lapack_int* lwork,
             lapack_int* iwork, lapack_int* info);
void dgesdd_(const char* jobz, const lapack_int* m, const lapack_int* n, double* a, const lapack_int* lda, double* s,
             double* u, const lapack_int* ldu, double* vt, const lapack_int* ldvt, double* work,
             const lapack_int* lwork, lapack_int* iwork, lapack_int* info);
void sgels_(const char* trans, const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, float* a,
            const lapack_int* lda, float* b, const lapack_int* ldb, float* work, const lapack_int* lwork,
            lapack_int* info);
void dgels_(const char* trans, const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, double* a,
            const lapack_int* lda, double* b, const lapack_int* ldb, double* work, const lapack_int* lwork,
            lapack_int* info);
void sgelsy_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, float* a, const lapack_int* lda,
             float* b, const lapack_int* ldb, lapack_int* jpvt, const float* rcond, lapack_int* rank, float* work,
             const lapack_int* lwork, lapack_int* info);
void dgelsy_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, double* a, const lapack_int* lda,
             double* b, const lapack_int* ldb, lapack_int* jpvt, const double* rcond, lapack_int* rank, double* work,
             const lapack_int* lwork, lapack_int* info);
void sgelsd_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, float* a, const lapack_int* lda,
             float* b, const lapack_int* ldb, float* s, const float* rcond, lapack_int* rank, float* work,
             const lapack_int* lwork, lapack_int* iwork, lapack_int* info);
void dgelsd_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, double* a, const lapack_int* lda,
             double* b, const lapack_int* ldb, double* s, const double* rcond, lapack_int* rank, double* work,
             const lapack_int* lwork, lapack_int* iwork, lapack_int* info);
void sgelss_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, float* a, const lapack_int* lda,
             float* b, const lapack_int* ldb, float* s, const float* rcond, lapack_int* rank, float* work,
             const lapack_int* lwork, lapack_int* info);
void dgelss_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, double* a, const lapack_int* lda,
             double* b, const lapack_int* ldb, double* s, const double* rcond, lapack_int* rank, double* work,
             const lapack_int* lwork, lapack_int* info);
// the general eigenproblem (torch.linalg.eig): real input, eigenvalues as (wr, wi), right eigenvectors in vr
void sgeev_(const char* jobvl, const char* jobvr, const lapack_int* n, float* a, const lapack_int* lda, float* wr,
            float* wi, float* vl, const lapack_int* ldvl, float* vr, const lapack_int* ldvr, float* work,
            const lapack_int* lwork, lapack_int* info);
void dgeev_(const char* jobvl, const char* jobvr, const lapack_int* n, double* a, const lapack_int* lda, double* wr,
            double* wi, double* vl, const lapack_int* ldvl, double* vr, const lapack_int* ldvr, double* work,
            const lapack_int* lwork, lapack_int* info);
// complex LU (linalg.solve of complex matrices); std::complex<T> has Fortran COMPLEX's layout
void cgetrf_(const lapack_int* m, const lapack_int* n, std::complex<float>* a, const lapack_int* lda,
             lapack_int* ipiv, lapack_int* info);
void zgetrf_(const lapack_int* m, const lapack_int* n, std::complex<double>* a, const lapack_int* lda,
             lapack_int* ipiv, lapack_int* info);
void cgetrs_(const char* trans, const lapack_int* n, const lapack_int* nrhs, const std::complex<float>* a,
             const lapack_int* lda, const lapack_int* ipiv, std::complex<float>* b, const lapack_int* ldb,
             lapack_int* info);
void zgetrs_(const char* trans, const lapack_int* n, const lapack_int* nrhs, const std::complex<double>* a,
             const lapack_int* lda, const lapack_int* ipiv, std::complex<double>* b, const lapack_int* ldb,
             lapack_int* info);
// the complex factorisations (c: complex<float>, z: complex<double>); the real-valued outputs (eigenvalues of a
// Hermitian matrix, singular values) and the rwork scratch are of the real type
#define CT_LAPACK_COMPLEX_DECL(C, R, p)                                                                              \
    void p##potrf_(const char* uplo, const lapack_int* n, C* a, const lapack_int* lda, lapack_int* info);          \
    void p##geqrf_(const lapack_int* m, const lapack_int* n, C* a, const lapack_int* lda, C* tau, C* work,          \
                   const lapack_int* lwork, lapack_int* info);                                                     \
    void p##ungqr_(const lapack_int* m, const lapack_int* n, const lapack_int* k, C* a, const lapack_int* lda,      \
                   const C* tau, C* work, const lapack_int* lwork, lapack_int* info);                              \
    void p##heevd_(const char* jobz, const char* uplo, const lapack_int* n, C* a, const lapack_int* lda, R* w,      \
                   C* work, const lapack_int* lwork, R* rwork, const lapack_int* lrwork, lapack_int* iwork,        \
                   const lapack_int* liwork, lapack_int* info);                                                    \
    void p##gesdd_(const char* jobz, const lapack_int* m, const lapack_int* n, C* a, const lapack_int* lda, R* s,   \
                   C* u, const lapack_int* ldu, C* vt, const lapack_int* ldvt, C* work, const lapack_int* lwork,   \
                   R* rwork, lapack_int* iwork, lapack_int* info);                                                 \
    void p##geev_(const char* jobvl, const char* jobvr, const lapack_int* n, C* a, const lapack_int* lda, C* w,     \
                  C* vl, const lapack_int* ldvl, C* vr, const lapack_int* ldvr, C* work, const lapack_int* lwork,  \
                  R* rwork, lapack_int* info);                                                                     \
    void p##gels_(const char* trans, const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, C* a,        \
                  const lapack_int* lda, C* b, const lapack_int* ldb, C* work, const lapack_int* lwork,            \
                  lapack_int* info);                                                                               \
    void p##gelsy_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, C* a, const lapack_int* lda,   \
                   C* b, const lapack_int* ldb, lapack_int* jpvt, const R* rcond, lapack_int* rank, C* work,       \
                   const lapack_int* lwork, R* rwork, lapack_int* info);                                           \
    void p##gelsd_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, C* a, const lapack_int* lda,   \
                   C* b, const lapack_int* ldb, R* s, const R* rcond, lapack_int* rank, C* work,                   \
                   const lapack_int* lwork, R* rwork, lapack_int* iwork, lapack_int* info);                        \
    void p##gelss_(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, C* a, const lapack_int* lda,   \
                   C* b, const lapack_int* ldb, R* s, const R* rcond, lapack_int* rank, C* work,                   \
                   const lapack_int* lwork, R* rwork, lapack_int* info);
CT_LAPACK_COMPLEX_DECL(std::complex<float>, float, c)
CT_LAPACK_COMPLEX_DECL(std::complex<double>, double, z)
#undef CT_LAPACK_COMPLEX_DECL
}

// Lapack<T> for T = float, double, std::complex<float>, std::complex<double>: the same routine names without the
// type letter, one signature for the real and the complex types so that the kernels share their code. Real stands
// for T's real type: the real routines ignore the rwork scratch the complex ones take (sized by callers from the
// workspace queries, where a real routine leaves the query's rwork value untouched). orgqr is ungqr for complex
// T, syevd heevd (Hermitian).
template <typename T> struct Lapack;

// The LU pair, the same for the real and complex types (getrs's "T" transposes, "C" conjugate-transposes).
#define CT_LAPACK_LU(T, p)                                                                                         \
        static void getrf(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, lapack_int* ipiv, \
                          lapack_int* info) {                                                                      \
            p##getrf_(m, n, a, lda, ipiv, info);                                                                   \
        }                                                                                                          \
        static void getrs(const char* tr, const lapack_int* n, const lapack_int* nrhs, const T* a,                 \
                          const lapack_int* lda, const lapack_int* ipiv, T* b, const lapack_int* ldb,              \
                          lapack_int* info) {                                                                      \
            p##getrs_(tr, n, nrhs, a, lda, ipiv, b, ldb, info);                                                    \
        }

// potrf and geqrf, the same for the real and complex types
#define CT_LAPACK_COMMON(T, p)                                                                                     \
        static void potrf(const char* uplo, const lapack_int* n, T* a, const lapack_int* lda, lapack_int* info) {  \
            p##potrf_(uplo, n, a, lda, info);                                                                      \
        }                                                                                                          \
        static void geqrf(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, T* tau, T* work,  \
                          const lapack_int* lwork, lapack_int* info) {                                             \
            p##geqrf_(m, n, a, lda, tau, work, lwork, info);                                                       \
        }

// The least-squares drivers of torch.linalg.lstsq (gels, gelsy, gelsd, gelss), the same for the real and complex
// types: R is T's real type (rcond, singular values), RW passes on the rwork argument the complex routines take
// after lwork (CT_LAPACK_RWORK) or drops it for the real ones (CT_LAPACK_NO_RWORK). rwork sizes: gelsy 2 n, gelss
// 5 min(m, n), gelsd the value its workspace query leaves in rwork[0] (a real routine leaves it untouched).
#define CT_LAPACK_RWORK(x) x,
#define CT_LAPACK_NO_RWORK(x)
#define CT_LAPACK_LSTSQ(T, R, p, RW)                                                                               \
        static void gels(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, T* a,                   \
                         const lapack_int* lda, T* b, const lapack_int* ldb, T* work, const lapack_int* lwork,     \
                         lapack_int* info) {                                                                       \
            p##gels_("N", m, n, nrhs, a, lda, b, ldb, work, lwork, info);                                          \
        }                                                                                                          \
        static void gelsy(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, T* a,                  \
                          const lapack_int* lda, T* b, const lapack_int* ldb, lapack_int* jpvt, const R* rcond,    \
                          lapack_int* rank, T* work, const lapack_int* lwork, R* rwork, lapack_int* info) {        \
            (void)rwork;                                                                                           \
            p##gelsy_(m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank, work, lwork, RW(rwork) info);                 \
        }                                                                                                          \
        static void gelsd(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, T* a,                  \
                          const lapack_int* lda, T* b, const lapack_int* ldb, R* s, const R* rcond,                \
                          lapack_int* rank, T* work, const lapack_int* lwork, R* rwork, lapack_int* iwork,         \
                          lapack_int* info) {                                                                      \
            (void)rwork;                                                                                           \
            p##gelsd_(m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, RW(rwork) iwork, info);             \
        }                                                                                                          \
        static void gelss(const lapack_int* m, const lapack_int* n, const lapack_int* nrhs, T* a,                  \
                          const lapack_int* lda, T* b, const lapack_int* ldb, R* s, const R* rcond,                \
                          lapack_int* rank, T* work, const lapack_int* lwork, R* rwork, lapack_int* info) {        \
            (void)rwork;                                                                                           \
            p##gelss_(m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, RW(rwork) info);                    \
        }

#define CT_LAPACK_TRAITS(T, p)                                                                                     \
    template <> struct Lapack<T> {                                                                                 \
        using Real = T;                                                                                            \
        CT_LAPACK_LU(T, p)                                                                                         \
        CT_LAPACK_COMMON(T, p)                                                                                     \
        /* right eigenvectors into vr (ldvr) when vectors, else vr is not touched */                            \
        static void geev(const lapack_int* n, T* a, const lapack_int* lda, T* wr, T* wi, T* vr,                    \
                         const lapack_int* ldvr, bool vectors, T* work, const lapack_int* lwork, lapack_int* info) { \
            const lapack_int one = 1;                                                                              \
            T dummy[1];                                                                                            \
            p##geev_("N", vectors ? "V" : "N", n, a, lda, wr, wi, dummy, &one, vectors ? vr : dummy,               \
                     vectors ? ldvr : &one, work, lwork, info);                                                     \
        }                                                                                                          \
        static void orgqr(const lapack_int* m, const lapack_int* n, const lapack_int* k, T* a,                     \
                          const lapack_int* lda, const T* tau, T* work, const lapack_int* lwork,                   \
                          lapack_int* info) {                                                                      \
            p##orgqr_(m, n, k, a, lda, tau, work, lwork, info);                                                    \
        }                                                                                                          \
        static void syevd(const char* jobz, const char* uplo, const lapack_int* n, T* a, const lapack_int* lda,     \
                          T* w, T* work, const lapack_int* lwork, T*, const lapack_int*, lapack_int* iwork,        \
                          const lapack_int* liwork, lapack_int* info) {                                            \
            p##syevd_(jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info);                                 \
        }                                                                                                          \
        static void gesdd(const char* jobz, const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, \
                          T* s, T* u, const lapack_int* ldu, T* vt, const lapack_int* ldvt, T* work,               \
                          const lapack_int* lwork, T*, lapack_int* iwork, lapack_int* info) {                      \
            p##gesdd_(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info);                          \
        }                                                                                                          \
        CT_LAPACK_LSTSQ(T, T, p, CT_LAPACK_NO_RWORK)                                                               \
    };
CT_LAPACK_TRAITS(float, s)
CT_LAPACK_TRAITS(double, d)
#undef CT_LAPACK_TRAITS
// Lapack<std::complex<R>>: the routines of the complex linalg ops.
#define CT_LAPACK_COMPLEX_TRAITS(R, p)                                                                             \
    template <> struct Lapack<std::complex<R>> {                                                                   \
        using T = std::complex<R>;                                                                                 \
        using Real = R;                                                                                            \
        CT_LAPACK_LU(T, p)                                                                                         \
        CT_LAPACK_COMMON(T, p)                                                                                     \
        CT_LAPACK_LSTSQ(T, R, p, CT_LAPACK_RWORK)                                                                  \
        static void orgqr(const lapack_int* m, const lapack_int* n, const lapack_int* k, T* a,                     \
                          const lapack_int* lda, const T* tau, T* work, const lapack_int* lwork,                   \
                          lapack_int* info) {                                                                      \
            p##ungqr_(m, n, k, a, lda, tau, work, lwork, info);                                                    \
        }                                                                                                          \
        static void syevd(const char* jobz, const char* uplo, const lapack_int* n, T* a, const lapack_int* lda,     \
                          R* w, T* work, const lapack_int* lwork, R* rwork, const lapack_int* lrwork,              \
                          lapack_int* iwork, const lapack_int* liwork, lapack_int* info) {                         \
            p##heevd_(jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork, info);                  \
        }                                                                                                          \
        static void gesdd(const char* jobz, const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, \
                          R* s, T* u, const lapack_int* ldu, T* vt, const lapack_int* ldvt, T* work,               \
                          const lapack_int* lwork, R* rwork, lapack_int* iwork, lapack_int* info) {                \
            p##gesdd_(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork, info);                   \
        }                                                                                                          \
        /* eigenvalues into w and, when vectors, right eigenvectors into vr (ldvr); rwork of 2 n */                \
        static void geev(const lapack_int* n, T* a, const lapack_int* lda, T* w, T* vr, const lapack_int* ldvr,    \
                         bool vectors, T* work, const lapack_int* lwork, R* rwork, lapack_int* info) {             \
            const lapack_int one = 1;                                                                              \
            T dummy[1];                                                                                            \
            p##geev_("N", vectors ? "V" : "N", n, a, lda, w, dummy, &one, vectors ? vr : dummy,                    \
                     vectors ? ldvr : &one, work, lwork, rwork, info);                                             \
        }                                                                                                          \
    };
CT_LAPACK_COMPLEX_TRAITS(float, c)
CT_LAPACK_COMPLEX_TRAITS(double, z)
#undef CT_LAPACK_COMPLEX_TRAITS
#undef CT_LAPACK_COMMON
#undef CT_LAPACK_LSTSQ
#undef CT_LAPACK_RWORK
#undef CT_LAPACK_NO_RWORK
#undef CT_LAPACK_LU

// BLAS trsm for the four LAPACK types (cblas): op(A) X = B (side CblasLeft) or X op(A) = B (CblasRight), B m x n
// overwritten by X, in the given layout.
inline void blas_trsm(CBLAS_ORDER o, CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n,
                      const float* a, int lda, float* b, int ldb) {
    cblas_strsm(o, s, u, t, d, m, n, 1.0f, a, lda, b, ldb);
}
inline void blas_trsm(CBLAS_ORDER o, CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n,
                      const double* a, int lda, double* b, int ldb) {
    cblas_dtrsm(o, s, u, t, d, m, n, 1.0, a, lda, b, ldb);
}
inline void blas_trsm(CBLAS_ORDER o, CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n,
                      const std::complex<float>* a, int lda, std::complex<float>* b, int ldb) {
    const std::complex<float> one(1.0f);
    cblas_ctrsm(o, s, u, t, d, m, n, &one, a, lda, b, ldb);
}
inline void blas_trsm(CBLAS_ORDER o, CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n,
                      const std::complex<double>* a, int lda, std::complex<double>* b, int ldb) {
    const std::complex<double> one(1.0);
    cblas_ztrsm(o, s, u, t, d, m, n, &one, a, lda, b, ldb);
}

}  // namespace ct

// solver.cu - the linalg entry (ct_cuda_linalg_op, src/core/backend.h): dense LAPACK routines from cuSOLVER and
// batched LU / triangular solves from cuBLAS, on column-major batches in the device's stream. Which call per op:
//   getrf, getrs: cublas<t>getrfBatched / getrsBatched for a batch of small matrices (n <= kSmallLu), else
//                 cusolverDn<t>getrf / getrs one matrix at a time;
//   potrf: cusolverDn<t>potrfBatched;  trsm: cublas<t>trsmBatched;
//   geqrf, orgqr, syevd, gesvd: cusolverDn<t>geqrf / orgqr / syevd / gesvd one matrix at a time (one workspace).
// Info codes land in a device array and are read back once per call; workspaces come from the caching allocator.
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <algorithm>
#include <climits>
#include <mutex>
#include <vector>
#include "cuda/backend_impl.cuh"
#include "cuda/blas_handle.cuh"

namespace ct {
namespace cuda {
namespace {

constexpr int kSmallLu = 32;            // largest n for cuBLAS's batched LU
constexpr int64_t kMaxBatch = 1 << 20;  // matrices per batched call (their pointer arrays are uploaded)

int32_t check_solver(cusolverStatus_t s, const char* what) {
    if (s == CUSOLVER_STATUS_SUCCESS) return CT_OK;
    int32_t status = s == CUSOLVER_STATUS_ALLOC_FAILED ? CT_ERR_OUT_OF_MEMORY : CT_ERR_INTERNAL;
    if (s == CUSOLVER_STATUS_NOT_SUPPORTED || s == CUSOLVER_STATUS_ARCH_MISMATCH) status = CT_ERR_NOT_SUPPORTED;
    return set_error(status, std::string("linalg: ") + what + " failed (cusolverStatus_t " + std::to_string((int)s) + ")");
}
#define CT_SOLVER_TRY(expr, what)                                      \
    do {                                                               \
        if (int32_t ct_st_ = check_solver((expr), what)) return ct_st_; \
    } while (0)
#define CT_BLAS_TRY(expr, what)                                     \
    do {                                                            \
        if (int32_t ct_st_ = check_blas((expr), what)) return ct_st_; \
    } while (0)

// The device's cuSOLVER handle bound to its stream (created on first use, like the cuBLAS handle).
int32_t solver_handle(DeviceContext* ctx, cusolverDnHandle_t* out) {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    if (!ctx->solver) {
        cusolverDnHandle_t h = nullptr;
        CT_SOLVER_TRY(cusolverDnCreate(&h), "cusolverDnCreate");
        if (int32_t st = check_solver(cusolverDnSetStream(h, ctx->stream), "cusolverDnSetStream")) {
            cusolverDnDestroy(h);
            return st;
        }
        ctx->solver = h;
    }
    *out = static_cast<cusolverDnHandle_t>(ctx->solver);
    return CT_OK;
}

// Device memory from the caching allocator, given back (stream-ordered) when it goes out of scope.
struct Scratch {
    int32_t device = 0;
    void* ptr = nullptr;
    size_t bytes = 0;
    int32_t allocate(int32_t dev, size_t n) {
        device = dev;
        bytes = std::max<size_t>(n, 1);
        return alloc(dev, bytes, &ptr);
    }
    ~Scratch() {
        if (ptr) release(device, ptr, bytes);
    }
};

// The s/d routines under one name per type.
template <typename T> struct Lib;
#define CT_SOLVER_LIB(T, P)                                                        \
    template <> struct Lib<T> {                                                    \
        static constexpr auto getrf_size = &cusolverDn##P##getrf_bufferSize;      \
        static constexpr auto getrf = &cusolverDn##P##getrf;                       \
        static constexpr auto getrs = &cusolverDn##P##getrs;                       \
        static constexpr auto potrf_batched = &cusolverDn##P##potrfBatched;        \
        static constexpr auto geqrf_size = &cusolverDn##P##geqrf_bufferSize;      \
        static constexpr auto geqrf = &cusolverDn##P##geqrf;                       \
        static constexpr auto orgqr_size = &cusolverDn##P##orgqr_bufferSize;      \
        static constexpr auto orgqr = &cusolverDn##P##orgqr;                       \
        static constexpr auto syevd_size = &cusolverDn##P##syevd_bufferSize;      \
        static constexpr auto syevd = &cusolverDn##P##syevd;                       \
        static constexpr auto gesvd_size = &cusolverDn##P##gesvd_bufferSize;      \
        static constexpr auto gesvd = &cusolverDn##P##gesvd;                       \
        static constexpr auto getrf_batched = &cublas##P##getrfBatched;            \
        static constexpr auto getrs_batched = &cublas##P##getrsBatched;            \
        static constexpr auto trsm_batched = &cublas##P##trsmBatched;              \
    };
CT_SOLVER_LIB(float, S)
CT_SOLVER_LIB(double, D)
#undef CT_SOLVER_LIB

// Uploads the pointers base + i * step (i < count) for a batched call.
template <typename T> int32_t pointer_array(DeviceContext* ctx, Scratch& s, T* base, int64_t step, int64_t count) {
    std::vector<T*> host((size_t)count);
    for (int64_t i = 0; i < count; ++i) host[(size_t)i] = base + i * step;
    if (int32_t st = s.allocate(ctx->index, host.size() * sizeof(T*))) return st;
    // from pageable memory: returns once host is staged, so it may go out of scope
    CT_CUDA_TRY(cudaMemcpyAsync(s.ptr, host.data(), host.size() * sizeof(T*), cudaMemcpyHostToDevice, ctx->stream),
                "linalg: uploading matrix pointers");
    return CT_OK;
}

// Runs f(first, count) over the batch in chunks that a batched call (int batch count) accepts.
template <typename F> int32_t in_chunks(int64_t batch, F f) {
    for (int64_t b0 = 0; b0 < batch; b0 += kMaxBatch)
        if (int32_t st = f(b0, std::min(kMaxBatch, batch - b0))) return st;
    return CT_OK;
}

cublasOperation_t op_of(int32_t trans) { return trans ? CUBLAS_OP_T : CUBLAS_OP_N; }
cublasFillMode_t fill_of(int32_t upper) { return upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER; }

template <typename T> int32_t run(DeviceContext* ctx, const ct_cuda_linalg_args& g, int* dinfo) {
    using L = Lib<T>;
    const int m = (int)g.m, n = (int)g.n, k = (int)g.k, ldm = std::max(m, 1), ldn = std::max(n, 1);
    const int64_t batch = g.batch;
    T *a = static_cast<T*>(g.a), *b = static_cast<T*>(g.b), *w = static_cast<T*>(g.w);
    T *u = static_cast<T*>(g.u), *vt = static_cast<T*>(g.vt);
    cusolverDnHandle_t h = nullptr;
    cublasHandle_t bh = nullptr;
    if (int32_t st = solver_handle(ctx, &h)) return st;
    if (int32_t st = blas_handle(ctx, &bh)) return st;
    Scratch work;
    int lwork = 0;
    auto workspace = [&]() { return work.allocate(ctx->index, (size_t)std::max(lwork, 1) * sizeof(T)); };
    T* wp = nullptr;
    switch (g.op) {
    case CT_CUDA_GETRF:
        if (n <= kSmallLu && batch > 1)
            return in_chunks(batch, [&](int64_t b0, int64_t cnt) -> int32_t {
                Scratch ptrs;
                if (int32_t st = pointer_array(ctx, ptrs, a + b0 * n * n, (int64_t)n * n, cnt)) return st;
                CT_BLAS_TRY(L::getrf_batched(bh, n, static_cast<T**>(ptrs.ptr), ldn, g.ipiv + b0 * n, dinfo + b0,
                                             (int)cnt),
                            "linalg: getrfBatched");
                return CT_OK;
            });
        CT_SOLVER_TRY(L::getrf_size(h, n, n, a, ldn, &lwork), "getrf_bufferSize");
        if (int32_t st = workspace()) return st;
        wp = static_cast<T*>(work.ptr);
        for (int64_t i = 0; i < batch; ++i)
            CT_SOLVER_TRY(L::getrf(h, n, n, a + i * n * n, ldn, wp, g.ipiv + i * n, dinfo + i), "getrf");
        return CT_OK;
    case CT_CUDA_GETRS:
        if (n <= kSmallLu && batch > 1)
            return in_chunks(batch, [&](int64_t b0, int64_t cnt) -> int32_t {
                Scratch pa, pb;
                if (int32_t st = pointer_array(ctx, pa, a + b0 * n * n, (int64_t)n * n, cnt)) return st;
                if (int32_t st = pointer_array(ctx, pb, b + b0 * n * k, (int64_t)n * k, cnt)) return st;
                int host_info = 0;  // argument errors only
                CT_BLAS_TRY(L::getrs_batched(bh, op_of(g.trans), n, k, static_cast<T**>(pa.ptr), ldn,
                                             g.ipiv + b0 * n, static_cast<T**>(pb.ptr), ldn, &host_info, (int)cnt),
                            "linalg: getrsBatched");
                return CT_OK;
            });
        for (int64_t i = 0; i < batch; ++i)
            CT_SOLVER_TRY(L::getrs(h, op_of(g.trans), n, k, a + i * n * n, ldn, g.ipiv + i * n, b + i * n * k, ldn,
                                   dinfo + i),
                          "getrs");
        return CT_OK;
    case CT_CUDA_POTRF:
        return in_chunks(batch, [&](int64_t b0, int64_t cnt) -> int32_t {
            Scratch ptrs;
            if (int32_t st = pointer_array(ctx, ptrs, a + b0 * n * n, (int64_t)n * n, cnt)) return st;
            CT_SOLVER_TRY(L::potrf_batched(h, fill_of(g.upper), n, static_cast<T**>(ptrs.ptr), ldn, dinfo + b0, (int)cnt),
                          "potrfBatched");
            return CT_OK;
        });
    case CT_CUDA_GEQRF: {
        const int64_t kk = std::min(m, n);
        CT_SOLVER_TRY(L::geqrf_size(h, m, n, a, ldm, &lwork), "geqrf_bufferSize");
        if (int32_t st = workspace()) return st;
        wp = static_cast<T*>(work.ptr);
        for (int64_t i = 0; i < batch; ++i)
            CT_SOLVER_TRY(L::geqrf(h, m, n, a + i * m * n, ldm, w + i * kk, wp, lwork, dinfo + i), "geqrf");
        return CT_OK;
    }
    case CT_CUDA_ORGQR:
        CT_SOLVER_TRY(L::orgqr_size(h, m, n, k, a, ldm, w, &lwork), "orgqr_bufferSize");
        if (int32_t st = workspace()) return st;
        wp = static_cast<T*>(work.ptr);
        for (int64_t i = 0; i < batch; ++i)
            CT_SOLVER_TRY(L::orgqr(h, m, n, k, a + i * m * n, ldm, w + i * k, wp, lwork, dinfo + i), "orgqr");
        return CT_OK;
    case CT_CUDA_SYEVD: {
        const cusolverEigMode_t jobz = g.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        CT_SOLVER_TRY(L::syevd_size(h, jobz, fill_of(g.upper), n, a, ldn, w, &lwork), "syevd_bufferSize");
        if (int32_t st = workspace()) return st;
        wp = static_cast<T*>(work.ptr);
        for (int64_t i = 0; i < batch; ++i)
            CT_SOLVER_TRY(L::syevd(h, jobz, fill_of(g.upper), n, a + i * n * n, ldn, w + i * n, wp, lwork, dinfo + i),
                          "syevd");
        return CT_OK;
    }
    case CT_CUDA_GESVD: {
        if (m < n) return set_error(CT_ERR_INVALID_ARGUMENT, "linalg: gesvd needs m >= n");
        const signed char job = !g.vectors ? 'N' : g.full ? 'A' : 'S';  // V^T is n x n either way (m >= n)
        const int64_t ucols = g.full ? m : n;
        CT_SOLVER_TRY(L::gesvd_size(h, m, n, &lwork), "gesvd_bufferSize");
        if (int32_t st = workspace()) return st;
        wp = static_cast<T*>(work.ptr);
        for (int64_t i = 0; i < batch; ++i)
            CT_SOLVER_TRY(L::gesvd(h, job, job, m, n, a + i * m * n, ldm, w + i * n, u ? u + i * m * ucols : nullptr,
                                   ldm, vt ? vt + i * n * n : nullptr, ldn, wp, lwork, nullptr, dinfo + i),
                          "gesvd");
        return CT_OK;
    }
    case CT_CUDA_TRSM: {
        const int64_t ka = g.left ? m : n;
        const T one = T(1);
        return in_chunks(batch, [&](int64_t b0, int64_t cnt) -> int32_t {
            Scratch pa, pb;
            if (int32_t st = pointer_array(ctx, pa, a + b0 * ka * ka, ka * ka, cnt)) return st;
            if (int32_t st = pointer_array(ctx, pb, b + b0 * m * n, (int64_t)m * n, cnt)) return st;
            CT_BLAS_TRY(L::trsm_batched(bh, g.left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT, fill_of(g.upper),
                                        op_of(g.trans), g.unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, m, n, &one,
                                        static_cast<T**>(pa.ptr), (int)std::max<int64_t>(ka, 1),
                                        static_cast<T**>(pb.ptr), ldm, (int)cnt),
                        "linalg: trsmBatched");
            return CT_OK;
        });
    }
    default: return set_error(CT_ERR_INVALID_ARGUMENT, "linalg: unknown op " + std::to_string(g.op));
    }
}

}  // namespace

int32_t linalg(int32_t device, const ct_cuda_linalg_args* args) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        if (!args) return set_error(CT_ERR_INVALID_ARGUMENT, "linalg: args is NULL");
        const ct_cuda_linalg_args& g = *args;
        if (g.dtype != CT_FLOAT32 && g.dtype != CT_FLOAT64)
            return set_error(CT_ERR_DTYPE, "linalg: dtype " + std::to_string(g.dtype) + " is not float32 or float64");
        for (int64_t d : {g.m, g.n, g.k})
            if (d < 0 || d > INT_MAX)
                return set_error(CT_ERR_INVALID_ARGUMENT, "linalg: matrix size " + std::to_string(d) +
                                                              " outside cuSOLVER's int range");
        if (g.batch <= 0) return g.batch == 0 ? CT_OK : set_error(CT_ERR_INVALID_ARGUMENT, "linalg: negative batch");
        Scratch info;
        if (int32_t st = info.allocate(device, (size_t)g.batch * sizeof(int))) return st;
        int* dinfo = static_cast<int*>(info.ptr);
        CT_CUDA_TRY(cudaMemsetAsync(dinfo, 0, (size_t)g.batch * sizeof(int), ctx->stream), "linalg: clearing info");
        int32_t st = g.dtype == CT_FLOAT32 ? run<float>(ctx, g, dinfo) : run<double>(ctx, g, dinfo);
        if (st != CT_OK) return st;
        CT_CUDA_TRY(cudaGetLastError(), "linalg");
        if (!g.info) return CT_OK;
        std::vector<int> host((size_t)g.batch);
        CT_CUDA_TRY(cudaMemcpyAsync(host.data(), dinfo, host.size() * sizeof(int), cudaMemcpyDeviceToHost, ctx->stream),
                    "linalg: reading info");
        CT_CUDA_TRY(cudaStreamSynchronize(ctx->stream), "linalg: waiting for the factorisation");
        std::copy(host.begin(), host.end(), g.info);
        return CT_OK;
    });
}

}  // namespace cuda
}  // namespace ct

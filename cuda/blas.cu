// blas.cu - the cuBLAS GEMM entry for matmul: row-major operands mapped to cuBLAS's column-major call
// (cuda/gemm_args.h), strided-batched with 64-bit sizes, on the device's stream with one handle per device.
// float16 / bfloat16 go through cublasGemmStridedBatchedEx with CUBLAS_COMPUTE_32F: products accumulate in
// float32 (tensor cores allowed, CUBLAS_GEMM_DEFAULT), alpha/beta are float, C is rounded to the half type once.
#include <cublas_v2.h>
#include <mutex>
#include "cuda/backend_impl.cuh"
#include "cuda/blas_handle.cuh"
#include "cuda/gemm_args.h"

namespace ct {
namespace cuda {

int32_t check_blas(cublasStatus_t s, const char* what) {
    if (s == CUBLAS_STATUS_SUCCESS) return CT_OK;
    int32_t status = s == CUBLAS_STATUS_ALLOC_FAILED ? CT_ERR_OUT_OF_MEMORY : CT_ERR_INTERNAL;
    if (s == CUBLAS_STATUS_NOT_SUPPORTED || s == CUBLAS_STATUS_ARCH_MISMATCH) status = CT_ERR_NOT_SUPPORTED;
    return set_error(status, std::string(what) + ": " + cublasGetStatusName(s) + ": " + cublasGetStatusString(s));
}

namespace {

cublasOperation_t op_of(bool trans) { return trans ? CUBLAS_OP_T : CUBLAS_OP_N; }

template <typename T, typename Gemm>
int32_t run(cublasHandle_t h, const ColumnMajorGemm& g, double alpha, double beta, Gemm gemm_fn) {
    const T al = (T)alpha, be = (T)beta;
    return check_blas(gemm_fn(h, op_of(g.trans_first), op_of(g.trans_second), g.m, g.n, g.k, &al,
                              static_cast<const T*>(g.first), g.ld_first, g.stride_first,
                              static_cast<const T*>(g.second), g.ld_second, g.stride_second, &be,
                              static_cast<T*>(g.c), g.ldc, g.stride_c, g.batch),
                      "gemm");
}

// The half types: A, B and C of type ty, float32 compute and scalars.
int32_t run_half(cublasHandle_t h, const ColumnMajorGemm& g, double alpha, double beta, cudaDataType ty) {
    const float al = (float)alpha, be = (float)beta;
    return check_blas(cublasGemmStridedBatchedEx_64(h, op_of(g.trans_first), op_of(g.trans_second), g.m, g.n, g.k,
                                                    &al, g.first, ty, g.ld_first, g.stride_first, g.second, ty,
                                                    g.ld_second, g.stride_second, &be, g.c, ty, g.ldc, g.stride_c,
                                                    g.batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                      "gemm");
}

}  // namespace

int32_t blas_handle(DeviceContext* ctx, cublasHandle_t* out) {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    if (!ctx->blas) {
        cublasHandle_t h = nullptr;
        if (int32_t st = check_blas(cublasCreate(&h), "gemm: cublasCreate")) return st;
        if (int32_t st = check_blas(cublasSetStream(h, ctx->stream), "gemm: cublasSetStream")) {
            cublasDestroy(h);
            return st;
        }
        ctx->blas = h;
    }
    *out = static_cast<cublasHandle_t>(ctx->blas);
    return CT_OK;
}

int32_t gemm(int32_t device, int32_t dtype, int32_t trans_a, int32_t trans_b, int64_t m, int64_t n, int64_t k,
             double alpha, const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b,
             double beta, void* c, int64_t ldc, int64_t stride_c, int64_t batch) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        RowMajorGemm rm{trans_a != 0, trans_b != 0, m, n, k, a, lda, stride_a, b, ldb, stride_b, c, ldc, stride_c, batch};
        if (const char* bad = check_row_major_gemm(rm)) return set_error(CT_ERR_INVALID_ARGUMENT, std::string("gemm: ") + bad);
        if (dtype != CT_FLOAT32 && dtype != CT_FLOAT64 && dtype != CT_FLOAT16 && dtype != CT_BFLOAT16)
            return set_error(CT_ERR_DTYPE, "gemm: dtype " + std::to_string(dtype) +
                                               " is not float32, float64, float16 or bfloat16");
        if (m == 0 || n == 0 || batch == 0) return CT_OK;
        cublasHandle_t h = nullptr;
        if (int32_t st = blas_handle(ctx, &h)) return st;
        ColumnMajorGemm g = to_column_major(rm);
        if (dtype == CT_FLOAT16) return run_half(h, g, alpha, beta, CUDA_R_16F);
        if (dtype == CT_BFLOAT16) return run_half(h, g, alpha, beta, CUDA_R_16BF);
        return dtype == CT_FLOAT32 ? run<float>(h, g, alpha, beta, cublasSgemmStridedBatched_64)
                                   : run<double>(h, g, alpha, beta, cublasDgemmStridedBatched_64);
    });
}

}  // namespace cuda
}  // namespace ct

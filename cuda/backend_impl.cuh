// backend_impl.cuh - internals shared by the backend's translation units: the thread-local error message,
// CUDA error mapping, per-device contexts (one stream each), the caching allocator and the exception guard.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include "core/backend.h"
#include "ctensor.h"
#include "cuda/launch.cuh"

namespace ct {
namespace cuda {

// Records message as this thread's last error; returns status.
int32_t set_error(int32_t status, const std::string& message);
// This thread's last error message.
const char* last_error();
// CT_OK for cudaSuccess; otherwise records "<what>: <CUDA error name>: <description>" with a mapped status.
int32_t check(cudaError_t e, const char* what);
#define CT_CUDA_TRY(expr, what)                         \
    do {                                                \
        int32_t ct_st_ = ::ct::cuda::check((expr), what); \
        if (ct_st_ != CT_OK) return ct_st_;             \
    } while (0)

struct DeviceContext {
    int32_t index = 0;
    cudaStream_t stream = nullptr;  // every kernel and copy of this device runs here (stream order)
    LaunchConfig launch{1, 256};
    void* blas = nullptr;           // cublasHandle_t, created on first use (blas.cu)
    void* solver = nullptr;         // cusolverDnHandle_t, created on first use (solver.cu)
};

// Number of devices found by init (0 before a successful init).
int32_t device_count();
// Makes device current and returns its context (created on first use); CT_ERR_DEVICE for a bad index.
int32_t context(int32_t device, DeviceContext** out);

// Caching allocator (allocator.cu).
int32_t alloc(int32_t device, size_t nbytes, void** ptr);
void release(int32_t device, void* ptr, size_t nbytes);
int32_t memory_stats(int32_t device, int64_t stats[3]);
int32_t empty_cache();

// Scratch blocks from the caching allocator for the kernels of one call, given back when the call returns: the
// device's one stream orders every later user of a block after the kernels enqueued here.
struct ScratchBlocks {
    int32_t device = 0;
    std::vector<std::pair<void*, size_t>> blocks;
    explicit ScratchBlocks(int32_t d) : device(d) {}
    ScratchBlocks(const ScratchBlocks&) = delete;
    ScratchBlocks& operator=(const ScratchBlocks&) = delete;
    // A block of n bytes, or nullptr when the device has no room (the caller then takes a path without scratch).
    void* take(size_t n) {
        void* p = nullptr;
        if (alloc(device, n, &p) != CT_OK) return nullptr;
        blocks.emplace_back(p, n);
        return p;
    }
    ~ScratchBlocks() {
        for (auto& b : blocks) release(device, b.first, b.second);
    }
};

// Table entries implemented in elementwise.cu and blas.cu (signatures as in ct_cuda_backend).
int32_t copy(int32_t device, const ct_cuda_layout* layout, void* dst, int32_t dst_dtype, const void* src,
             int32_t src_dtype);
int32_t fill(int32_t device, const ct_cuda_layout* layout, void* dst, int32_t dtype, double value);
int32_t binary(int32_t device, int32_t op, const ct_cuda_layout* layout, void* out, const void* a, const void* b,
               int32_t dtype, double alpha);
int32_t gemm(int32_t device, int32_t dtype, int32_t trans_a, int32_t trans_b, int64_t m, int64_t n, int64_t k,
             double alpha, const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b,
             double beta, void* c, int64_t ldc, int64_t stride_c, int64_t batch);

// nn family (cuda-nn) entries, implemented in nn.cu.
int32_t softmax(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner, const void* x,
                void* y);
int32_t softmax_backward(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner,
                         const void* g, const void* y, void* gx);
int32_t class_loss(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes, const void* x,
                   const int64_t* cls, void* loss, void* lse);
int32_t class_loss_backward(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes, const void* x,
                            const void* lse, const int64_t* cls, const void* g, int32_t g_per_row, double scale,
                            void* gx);
int32_t pointwise_loss(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x, const void* t, void* out);
int32_t pointwise_loss_backward(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x, const void* t,
                                const void* g, int32_t g_per_elem, double scale, void* gx, void* gt);
int32_t index(int32_t device, int32_t op, const ct_cuda_layout* layout, void* a, const void* idx, int32_t index_dtype,
              const void* b, int32_t dtype, int64_t step);
int32_t masked_fill(int32_t device, const ct_cuda_layout* layout, void* out, const void* x, const void* mask,
                    int32_t dtype, double value);
// Table entries of the unary/where/reduction block (unary_reduce.cu).
int32_t unary(int32_t device, int32_t op, const ct_cuda_layout* layout, void* out, const void* x, int32_t dtype,
              double p0, double p1);
int32_t where(int32_t device, const ct_cuda_layout4* layout, void* out, const void* cond, const void* a,
              const void* b, int32_t dtype);
int32_t reduce(int32_t device, int32_t op, const ct_cuda_reduce_layout* layout, void* out, void* out_index,
               const void* x, int32_t dtype, double p0);
int32_t cumsum(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner, int32_t reverse);
// logcumsumexp (issue 14): unary_reduce.cu, kernel in scan.cuh
int32_t logcumsumexp(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner);
int32_t reduce_to(int32_t device, int32_t op, const ct_cuda_reduce_layout* layout, void* out, int32_t out_dtype,
                  void* out_index, const void* x, int32_t dtype, double p0);

// norm_apply (issue 15, cudahalf3), implemented in nn.cu.
int32_t norm_apply(int32_t device, int32_t dtype, const ct_cuda_norm* geom, const void* x, const float* mean,
                   const float* rstd, const void* w, const void* b, void* y);

// conv, pooling, optimizers (cuda-conv) entries, implemented in conv.cu.
int32_t adam(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* m, void* v,
             const ct_cuda_adam* coeffs);
int32_t sgd(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* buf, const ct_cuda_sgd* coeffs);
int32_t im2col(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* x, void* col,
               const int64_t col_strides[3]);
int32_t col2im(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* col, void* x);
int32_t pool2d(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d* geom, const void* in,
               const int64_t* idx, void* out, int64_t* out_idx);
// pooling options and adaptive pooling (pool-options), implemented in conv.cu.
int32_t pool2d_ex(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d_ex* geom, const void* in,
                  const int64_t* idx, void* out, int64_t* out_idx);
// N-d convolution (issue 14), implemented in conv_nd.cu.
int32_t im2col_nd(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* x,
                  void* col, const int64_t col_strides[3]);
int32_t col2im_nd(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* col,
                  void* x);

// dense linear algebra (issue 14), implemented in solver.cu.
int32_t linalg(int32_t device, const ct_cuda_linalg_args* args);
// recurrent layers on CUDA (issue 14), implemented in rnn.cu.
int32_t rnn_step(int32_t device, const ct_cuda_rnn_step_args* args);

// Runs body (returning a status) and turns any C++ exception into a status: nothing crosses the C table.
template <typename Body> int32_t guarded(Body&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return set_error(CT_ERR_OUT_OF_MEMORY, "out of host memory in the CUDA backend");
    } catch (const std::exception& e) {
        return set_error(CT_ERR_INTERNAL, std::string("internal error in the CUDA backend: ") + e.what());
    } catch (...) {
        return set_error(CT_ERR_INTERNAL, "internal error in the CUDA backend");
    }
}

// Status of a launcher that dispatches on dtype: CT_ERR_DTYPE names the dtype, another failure is an invalid
// request, success checks for a launch error.
inline int32_t finish_dtype_launch(int32_t status, const char* what, int32_t dtype) {
    if (status == CT_ERR_DTYPE)
        return set_error(status, std::string(what) + ": unsupported dtype " + std::to_string(dtype));
    if (status != CT_OK) return set_error(status, std::string(what) + ": invalid request");
    return check(cudaGetLastError(), what);
}

// Runs launch(ctx) on device's context, turning statuses and exceptions into the table's contract.
template <typename Launch> int32_t on_device_dtype(int32_t device, const char* what, int32_t dtype, Launch launch) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        return finish_dtype_launch(launch(*ctx), what, dtype);
    });
}

}  // namespace cuda
}  // namespace ct

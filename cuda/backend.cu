// backend.cu - libctensor_cuda's one exported symbol and its function table (src/core/backend.h); runtime
// initialisation with a reason when CUDA is unusable, per-device contexts, synchronisation and memcpy.
#include <dlfcn.h>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>
#include "cuda/backend_impl.cuh"
#include "cuda/half_types.cuh"

namespace ct {
namespace cuda {
namespace {

thread_local std::string t_last_error;

struct Runtime {
    int32_t status = CT_OK;  // of initialisation
    std::string reason;
    int32_t count = 0;
    std::mutex mu;
    std::vector<DeviceContext*> contexts;  // created on first use, never destroyed (used during exit)
};

Runtime& runtime() {
    static Runtime* r = new Runtime();
    return *r;
}

// Tells "no driver installed" from "driver older than this runtime".
std::string driver_reason(cudaError_t e) {
    int runtime_version = 0;
    cudaRuntimeGetVersion(&runtime_version);
    std::string detail = std::string(" (") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + ")";
    void* driver = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver) return "no CUDA driver: libcuda.so.1 is not installed" + detail;
    ::dlclose(driver);
    return "no CUDA driver: the installed driver does not support CUDA runtime " +
           std::to_string(runtime_version / 1000) + "." + std::to_string(runtime_version % 1000 / 10) + detail;
}

void initialise(Runtime& r) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    cudaGetLastError();
    if (e == cudaErrorInsufficientDriver || e == cudaErrorStubLibrary) {
        r.reason = driver_reason(e);
    } else if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) {
        r.reason = "no CUDA device";
    } else if (e != cudaSuccess) {
        r.reason = std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorName(e) + ": " +
                   cudaGetErrorString(e);
    } else {
        r.count = n;
        r.contexts.assign((size_t)n, nullptr);
        return;
    }
    r.status = CT_ERR_NOT_COMPILED;
}

int32_t init_entry(int32_t* count) {
    return guarded([&] {
        static std::once_flag once;
        Runtime& r = runtime();
        std::call_once(once, [&] { initialise(r); });
        if (r.status != CT_OK) return set_error(r.status, r.reason);
        if (count) *count = r.count;
        return (int32_t)CT_OK;
    });
}

const char* last_error_entry() { return t_last_error.c_str(); }

int32_t create_context(int32_t device, DeviceContext** out) {
    auto ctx = std::make_unique<DeviceContext>();
    ctx->index = device;
    CT_CUDA_TRY(cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking), "creating the device stream");
    int sms = 1;
    CT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "querying the device");
    ctx->launch = LaunchConfig{(unsigned)std::max(sms, 1) * 32u, 256u};  // a few waves; loops cover the rest
    *out = ctx.release();
    return CT_OK;
}

int32_t malloc_entry(int32_t device, size_t nbytes, void** ptr) {
    return guarded([&] { return alloc(device, nbytes, ptr); });
}
void free_entry(int32_t device, void* ptr, size_t nbytes) {
    guarded([&] {
        release(device, ptr, nbytes);
        return (int32_t)CT_OK;
    });
}
int32_t stats_entry(int32_t device, int64_t stats[3]) {
    return guarded([&] { return memory_stats(device, stats); });
}
int32_t empty_cache_entry() {
    return guarded([&] { return empty_cache(); });
}

int32_t synchronize_entry(int32_t device) {
    return guarded([&] {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        return check(cudaDeviceSynchronize(), "synchronize");
    });
}

int32_t memcpy_entry(void* dst, int32_t dst_device, const void* src, int32_t src_device, size_t nbytes) {
    return guarded([&]() -> int32_t {
        if (nbytes == 0) return CT_OK;
        DeviceContext* ctx = nullptr;
        if (dst_device == CT_CUDA_HOST && src_device == CT_CUDA_HOST) {
            std::memcpy(dst, src, nbytes);
            return CT_OK;
        }
        if (dst_device == CT_CUDA_HOST) {  // a read: the host sees the bytes when this returns
            if (int32_t st = context(src_device, &ctx)) return st;
            CT_CUDA_TRY(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, ctx->stream), "copy to host");
            return check(cudaStreamSynchronize(ctx->stream), "copy to host");
        }
        if (src_device == CT_CUDA_HOST) {  // pageable source: staged before the call returns
            if (int32_t st = context(dst_device, &ctx)) return st;
            return check(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, ctx->stream), "copy to device");
        }
        if (src_device == dst_device) {
            if (int32_t st = context(dst_device, &ctx)) return st;
            return check(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, ctx->stream), "device copy");
        }
        // Between devices: wait for the source's stream, copy on the destination's, and wait for it too so
        // neither block can be reused before the copy is done.
        DeviceContext* src_ctx = nullptr;
        if (int32_t st = context(src_device, &src_ctx)) return st;
        CT_CUDA_TRY(cudaStreamSynchronize(src_ctx->stream), "peer copy");
        if (int32_t st = context(dst_device, &ctx)) return st;
        CT_CUDA_TRY(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, ctx->stream), "peer copy");
        return check(cudaStreamSynchronize(ctx->stream), "peer copy");
    });
}

const ct_cuda_backend kTable = {
    sizeof(ct_cuda_backend), CT_CUDA_BACKEND_VERSION, &init_entry, &last_error_entry, &malloc_entry, &free_entry,
    &stats_entry, &empty_cache_entry, &synchronize_entry, &memcpy_entry, &copy, &fill, &binary, &gemm,
    // ---- nn family (cuda-nn) ----
    &softmax, &softmax_backward, &class_loss, &class_loss_backward, &pointwise_loss, &pointwise_loss_backward,
    &index, &masked_fill,
    /* unary, where and reductions (cuda-ops) */
    &unary, &where, &reduce, &cumsum,
    // ---- conv, pooling, optimizers (cuda-conv) ----
    &adam, &im2col, &col2im, &pool2d,
    // ---- pooling options and adaptive pooling (pool-options) ----
    &pool2d_ex,
    // ---- N-d convolution (issue 14) ----
    &im2col_nd, &col2im_nd,
    // ---- float16/bfloat16 on CUDA (issue 15) ----
    &kernel_dtype_supported,
    // ---- dense linear algebra on cuSOLVER (issue 14) ----
    &linalg,
    // ---- recurrent layers on CUDA (issue 14) ----
    &rnn_step,
    // ---- more reductions (issue 14) ----
    &logcumsumexp,
    // ---- native float16/bfloat16 kernels (issue 15, cudanative) ----
    &reduce_to,
    // ---- native float16/bfloat16 kernels (issue 15, cudahalf3) ----
    &sgd, &norm_apply,
};

}  // namespace

int32_t set_error(int32_t status, const std::string& message) {
    t_last_error = message;
    return status;
}

const char* last_error() { return t_last_error.c_str(); }

int32_t check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return CT_OK;
    cudaGetLastError();  // clear a non-sticky error so later calls are not blamed for it
    int32_t status = CT_ERR_DEVICE;
    if (e == cudaErrorMemoryAllocation) status = CT_ERR_OUT_OF_MEMORY;
    if (e == cudaErrorInvalidValue) status = CT_ERR_INTERNAL;
    return set_error(status, std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

int32_t device_count() { return runtime().count; }

int32_t context(int32_t device, DeviceContext** out) {
    Runtime& r = runtime();
    if (r.count == 0) return set_error(CT_ERR_NOT_COMPILED, r.reason.empty() ? "CUDA is not initialised" : r.reason);
    if (device < 0 || device >= r.count)
        return set_error(CT_ERR_DEVICE, "invalid device cuda:" + std::to_string(device) + " (" +
                                            std::to_string(r.count) + " CUDA devices)");
    CT_CUDA_TRY(cudaSetDevice(device), "selecting the device");
    std::lock_guard<std::mutex> lock(r.mu);
    if (!r.contexts[(size_t)device]) {
        DeviceContext* ctx = nullptr;
        if (int32_t st = create_context(device, &ctx)) return st;
        r.contexts[(size_t)device] = ctx;
    }
    *out = r.contexts[(size_t)device];
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

// The backend's only exported symbol (the library is built with hidden visibility).
extern "C" __attribute__((visibility("default"))) const ct_cuda_backend* ct_cuda_backend_entry_v1(uint32_t version) {
    return version == CT_CUDA_BACKEND_VERSION ? &ct::cuda::kTable : nullptr;
}

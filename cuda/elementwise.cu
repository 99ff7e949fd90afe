// elementwise.cu - table entries for strided copy, fill and binary ops: validate, pick the device's stream
// and launch configuration, run the launchers of elementwise.cuh, and report launch errors.
#include "cuda/backend_impl.cuh"
#include "cuda/elementwise.cuh"

namespace ct {
namespace cuda {
namespace {

// Turns a launcher's status into a message, or checks that the launch itself succeeded.
int32_t finish(int32_t status, const char* what, const std::string& request) {
    if (status == CT_ERR_DTYPE) return set_error(status, std::string(what) + ": unsupported dtype in " + request);
    if (status != CT_OK) return set_error(status, std::string(what) + ": invalid request " + request);
    return check(cudaGetLastError(), what);
}

std::string describe(const ct_cuda_layout* L, int32_t d0, int32_t d1 = -1) {
    std::string s = "(ndim " + std::to_string(L ? L->ndim : -1) + ", dtype " + std::to_string(d0);
    if (d1 >= 0) s += "/" + std::to_string(d1);
    return s + ")";
}

}  // namespace

int32_t copy(int32_t device, const ct_cuda_layout* L, void* dst, int32_t dst_dtype, const void* src,
             int32_t src_dtype) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        if (!L) return set_error(CT_ERR_INVALID_ARGUMENT, "copy: layout is NULL");
        return finish(launch_copy(ctx->launch, ctx->stream, *L, dst, dst_dtype, src, src_dtype), "copy",
                      describe(L, dst_dtype, src_dtype));
    });
}

int32_t fill(int32_t device, const ct_cuda_layout* L, void* dst, int32_t dtype, double value) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        if (!L) return set_error(CT_ERR_INVALID_ARGUMENT, "fill: layout is NULL");
        return finish(launch_fill(ctx->launch, ctx->stream, *L, dst, dtype, value), "fill", describe(L, dtype));
    });
}

int32_t binary(int32_t device, int32_t op, const ct_cuda_layout* L, void* out, const void* a, const void* b,
               int32_t dtype, double alpha) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        if (!L) return set_error(CT_ERR_INVALID_ARGUMENT, "binary: layout is NULL");
        return finish(launch_binary(ctx->launch, ctx->stream, *L, op, out, a, b, dtype, alpha), "binary",
                      "op " + std::to_string(op) + " " + describe(L, dtype));
    });
}

}  // namespace cuda
}  // namespace ct

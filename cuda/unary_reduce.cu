// unary_reduce.cu - table entries for unary ops, where, reductions and cumsum (cuda-ops): validate, pick the
// device's stream and launch configuration, run the launchers of unary.cuh / reduce.cuh, report launch errors.
#include "cuda/backend_impl.cuh"
#include "cuda/reduce.cuh"
#include "cuda/scan.cuh"
#include "cuda/unary.cuh"

namespace ct {
namespace cuda {
namespace {

int32_t finish_launch(int32_t status, const char* what, const std::string& request) {
    if (status == CT_ERR_DTYPE) return set_error(status, std::string(what) + ": unsupported dtype in " + request);
    if (status != CT_OK) return set_error(status, std::string(what) + ": invalid request " + request);
    return check(cudaGetLastError(), what);
}

std::string request(int32_t op, int32_t dtype) {
    return "(op " + std::to_string(op) + ", dtype " + std::to_string(dtype) + ")";
}

// Runs launch(ctx) on device's context after the null checks.
template <typename Launch> int32_t on_device(int32_t device, const void* layout, const char* what, Launch&& launch) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;
        if (!layout) return set_error(CT_ERR_INVALID_ARGUMENT, std::string(what) + ": layout is NULL");
        return launch(*ctx);
    });
}

}  // namespace

int32_t unary(int32_t device, int32_t op, const ct_cuda_layout* L, void* out, const void* x, int32_t dtype, double p0,
              double p1) {
    return on_device(device, L, "unary", [&](DeviceContext& ctx) {
        return finish_launch(launch_unary(ctx.launch, ctx.stream, *L, op, out, x, dtype, p0, p1), "unary",
                             request(op, dtype));
    });
}

int32_t where(int32_t device, const ct_cuda_layout4* L, void* out, const void* cond, const void* a, const void* b,
              int32_t dtype) {
    return on_device(device, L, "where", [&](DeviceContext& ctx) {
        return finish_launch(launch_where(ctx.launch, ctx.stream, *L, out, cond, a, b, dtype), "where",
                             request(0, dtype));
    });
}

int32_t reduce(int32_t device, int32_t op, const ct_cuda_reduce_layout* L, void* out, void* out_index, const void* x,
               int32_t dtype, double p0) {
    return on_device(device, L, "reduce", [&](DeviceContext& ctx) {
        ScratchBlocks scratch(ctx.index);
        auto take = [&](size_t n) { return scratch.take(n); };
        return finish_launch(launch_reduce(ctx.launch, ctx.stream, *L, op, out, out_index, x, dtype, p0, take),
                             "reduce", request(op, dtype));
    });
}

int32_t reduce_to(int32_t device, int32_t op, const ct_cuda_reduce_layout* L, void* out, int32_t out_dtype,
                  void* out_index, const void* x, int32_t dtype, double p0) {
    return on_device(device, L, "reduce_to", [&](DeviceContext& ctx) {
        ScratchBlocks scratch(ctx.index);
        auto take = [&](size_t n) { return scratch.take(n); };
        return finish_launch(
            launch_reduce_to(ctx.launch, ctx.stream, *L, op, out, out_dtype, out_index, x, dtype, p0, take),
            "reduce_to", request(op, dtype) + " to dtype " + std::to_string(out_dtype));
    });
}

int32_t cumsum(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner, int32_t reverse) {
    int64_t dummy = 0;
    return on_device(device, &dummy, "cumsum", [&](DeviceContext& ctx) {
        return finish_launch(launch_cumsum(ctx.launch, ctx.stream, data, dtype, outer, n, inner, reverse), "cumsum",
                             request(0, dtype));
    });
}

int32_t logcumsumexp(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner) {
    int64_t dummy = 0;
    return on_device(device, &dummy, "logcumsumexp", [&](DeviceContext& ctx) {
        return finish_launch(launch_logcumsumexp(ctx.launch, ctx.stream, data, dtype, outer, n, inner),
                             "logcumsumexp", request(0, dtype));
    });
}

}  // namespace cuda
}  // namespace ct

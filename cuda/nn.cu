// nn.cu - table entries of the nn family (cuda-nn): softmax, class losses, elementwise losses and norm_apply. Each entry
// validates, picks the device's stream and launch configuration, runs a launcher of nn_rows.cuh and reports
// launch errors.
#include "cuda/backend_impl.cuh"
#include "cuda/index.cuh"
#include "cuda/nn_rows.cuh"
#include "cuda/norm.cuh"

namespace ct {
namespace cuda {
int32_t softmax(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner, const void* x,
                void* y) {
    return on_device_dtype(device, "softmax", dtype, [&](DeviceContext& c) {
        return launch_softmax(c.launch, c.stream, dtype, log_ != 0, outer, n, inner, x, y);
    });
}

int32_t norm_apply(int32_t device, int32_t dtype, const ct_cuda_norm* geom, const void* x, const float* mean,
                   const float* rstd, const void* w, const void* b, void* y) {
    return on_device_dtype(device, "norm_apply", dtype, [&](DeviceContext& c) {
        return launch_norm_apply(c.launch, c.stream, dtype, geom, x, mean, rstd, w, b, y);
    });
}

int32_t softmax_backward(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner,
                         const void* g, const void* y, void* gx) {
    return on_device_dtype(device, "softmax_backward", dtype, [&](DeviceContext& c) {
        return launch_softmax_backward(c.launch, c.stream, dtype, log_ != 0, outer, n, inner, g, y, gx);
    });
}

int32_t class_loss(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes, const void* x,
                   const int64_t* cls, void* loss, void* lse) {
    return on_device_dtype(device, "class_loss", dtype, [&](DeviceContext& c) {
        return launch_class_loss(c.launch, c.stream, dtype, op, rows, classes, x, cls, loss, lse);
    });
}

int32_t class_loss_backward(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes, const void* x,
                            const void* lse, const int64_t* cls, const void* g, int32_t g_per_row, double scale,
                            void* gx) {
    return on_device_dtype(device, "class_loss_backward", dtype, [&](DeviceContext& c) {
        return launch_class_loss_backward(c.launch, c.stream, dtype, op, rows, classes, x, lse, cls, g, g_per_row,
                                          scale, gx);
    });
}

int32_t pointwise_loss(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x, const void* t, void* out) {
    return on_device_dtype(device, "pointwise_loss", dtype, [&](DeviceContext& c) {
        return launch_pointwise_loss(c.launch, c.stream, dtype, op, n, x, t, out);
    });
}

int32_t pointwise_loss_backward(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x, const void* t,
                                const void* g, int32_t g_per_elem, double scale, void* gx, void* gt) {
    return on_device_dtype(device, "pointwise_loss_backward", dtype, [&](DeviceContext& c) {
        return launch_pointwise_loss_backward(c.launch, c.stream, dtype, op, n, x, t, g, g_per_elem, scale, gx, gt);
    });
}

int32_t index(int32_t device, int32_t op, const ct_cuda_layout* L, void* a, const void* idx, int32_t index_dtype,
              const void* b, int32_t dtype, int64_t step) {
    return on_device_dtype(device, "index", dtype, [&](DeviceContext& c) {
        return L ? launch_index(c.launch, c.stream, op, *L, a, idx, index_dtype, b, dtype, step) : CT_ERR_INVALID_ARGUMENT;
    });
}

int32_t masked_fill(int32_t device, const ct_cuda_layout* L, void* out, const void* x, const void* mask, int32_t dtype,
                    double value) {
    return on_device_dtype(device, "masked_fill", dtype, [&](DeviceContext& c) {
        return L ? launch_masked_fill(c.launch, c.stream, *L, out, x, mask, dtype, value) : CT_ERR_INVALID_ARGUMENT;
    });
}

}  // namespace cuda
}  // namespace ct

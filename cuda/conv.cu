// conv.cu - table entries of the conv, pooling and optimizer family (cuda-conv): validate, pick the device's
// stream and launch configuration, run a launcher of optim.cuh / conv.cuh and report launch errors.
#include "cuda/backend_impl.cuh"
#include "cuda/conv.cuh"
#include "cuda/optim.cuh"

namespace ct {
namespace cuda {
int32_t adam(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* m, void* v,
             const ct_cuda_adam* coeffs) {
    return on_device_dtype(device, "adam", dtype,
                     [&](DeviceContext& c) { return launch_adam(c.launch, c.stream, dtype, n, w, g, m, v, coeffs); });
}

int32_t sgd(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* buf, const ct_cuda_sgd* coeffs) {
    return on_device_dtype(device, "sgd", dtype,
                           [&](DeviceContext& c) { return launch_sgd(c.launch, c.stream, dtype, n, w, g, buf, coeffs); });
}

int32_t im2col(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* x, void* col,
               const int64_t col_strides[3]) {
    return on_device_dtype(device, "im2col", dtype, [&](DeviceContext& c) {
        return launch_im2col(c.launch, c.stream, dtype, geom, count, x, col, col_strides);
    });
}

int32_t col2im(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* col, void* x) {
    return on_device_dtype(device, "col2im", dtype,
                     [&](DeviceContext& c) { return launch_col2im(c.launch, c.stream, dtype, geom, count, col, x); });
}

int32_t pool2d(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d* geom, const void* in,
               const int64_t* idx, void* out, int64_t* out_idx) {
    return on_device_dtype(device, "pool2d", dtype, [&](DeviceContext& c) {
        return launch_pool2d(c.launch, c.stream, dtype, op, geom, in, idx, out, out_idx);
    });
}

int32_t pool2d_ex(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d_ex* geom, const void* in,
                  const int64_t* idx, void* out, int64_t* out_idx) {
    return on_device_dtype(device, "pool2d_ex", dtype, [&](DeviceContext& c) {
        return launch_pool2d_ex(c.launch, c.stream, dtype, op, geom, in, idx, out, out_idx);
    });
}

}  // namespace cuda
}  // namespace ct

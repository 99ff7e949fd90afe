// conv_nd.cu - table entries of the N-d convolution (issue 14): validate, pick the device's stream and launch
// configuration, run a launcher of conv_nd.cuh and report launch errors.
#include "cuda/backend_impl.cuh"
#include "cuda/conv_nd.cuh"

namespace ct {
namespace cuda {

int32_t im2col_nd(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* x,
                  void* col, const int64_t col_strides[3]) {
    return on_device_dtype(device, "im2col_nd", dtype, [&](DeviceContext& c) {
        return launch_im2col_nd(c.launch, c.stream, dtype, geom, count, x, col, col_strides);
    });
}

int32_t col2im_nd(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* col,
                  void* x) {
    return on_device_dtype(device, "col2im_nd", dtype, [&](DeviceContext& c) {
        return launch_col2im_nd(c.launch, c.stream, dtype, geom, count, col, x);
    });
}

}  // namespace cuda
}  // namespace ct

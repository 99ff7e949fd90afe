// rnn.cu - the rnn_step entry of the backend table (core/backend.h): one gate kernel of cuda/rnn.cuh per call on the
// device's stream, for the fused recurrent layers of ops/rnn_layer.cpp.
#include "cuda/backend_impl.cuh"
#include "cuda/rnn.cuh"

namespace ct {
namespace cuda {

int32_t rnn_step(int32_t device, const ct_cuda_rnn_step_args* args) {
    return on_device_dtype(device, "rnn_step", args ? args->dtype : -1,
                           [&](DeviceContext& c) { return launch_rnn_step(c.launch, c.stream, args); });
}

}  // namespace cuda
}  // namespace ct

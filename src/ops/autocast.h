// autocast.h - mixed-precision autocast (issue 15): the thread-local region state per device type, the one
// table saying how each op's floating inputs are cast inside a region, and the cast cache for weights.
#pragma once
#include <cstdint>
#include <vector>
#include "core/device.h"
#include "core/tensor.h"

namespace ct {

// How an op's floating (non-float64) inputs on the region's device are cast inside an autocast region
// (torch 1.13's CastPolicy). Values are the C ABI's CT_AUTOCAST_* codes.
enum class AutocastPolicy : int32_t { Passthrough = 0, LowerPrecision = 1, Float32 = 2, Promote = 3 };

// Note [Autocast state]: per thread and per device type (CPU, CUDA), like grad mode: an enabled flag and a
// half dtype (CPU default bfloat16, CUDA default float16). The nesting counter and the cache-enabled flag are
// per thread (torch's). A new thread starts outside every region.
struct AutocastState {
    static bool is_enabled(DeviceType type);
    static void set_enabled(DeviceType type, bool enabled);
    static DType dtype(DeviceType type);
    static void set_dtype(DeviceType type, DType dtype);  // float16 / bfloat16 only (CT_ERR_DTYPE otherwise)
    static bool cache_enabled();
    static void set_cache_enabled(bool enabled);
    static int32_t increment_nesting();
    static int32_t decrement_nesting();  // clears the cast cache when it reaches 0 (the outermost region exits)
    static void clear_cache();
    static int64_t cache_size();
};

// True when any device type has autocast on on this thread (one thread-local read: the fast path of every op).
bool autocast_any_enabled();
// The policy of op (the C function's name without "ct_") for device type (Passthrough when not listed).
AutocastPolicy autocast_policy(const char* op, DeviceType type);
// Note [Autocast at the C boundary]: the policy is applied where the C API turns a handle into a tensor
// (get_tensor / tensor_list_arg), so every binding gets it, and ops composed inside the engine (einsum's matmul,
// cross_entropy's log_softmax) never see it - torch's ExcludeDispatchKeyGuard for free. t as op's argument:
// cast per op's LowerPrecision / Float32 policy, else unchanged. Casts are differentiable (to_dtype).
Tensor autocast_arg(const char* op, const Tensor& t);
// Promote policy for a list of arguments: every floating input cast to the widest floating dtype among them.
void autocast_promote(const char* op, std::vector<Tensor>& ts);
// Note [Autocast by argument]: torch 1.13's CPU lists name max_pool3d, avg_pool3d, adaptive_{avg,max}_pool3d
// (float32), not their 1-d and 2-d forms; and of the recurrent nets, RNN (tanh, relu) runs in the half type
// while LSTM and GRU pass through - except that once any of their arguments is half, their internal linear
// calls run in the half type, so the result is half. The C API applies these after get_tensor:
// t as the argument of the N-d pool op3d ("max_pool3d", ...) when ndim_spatial is 3, else unchanged;
Tensor autocast_pool_arg(const char* op3d, int64_t ndim_spatial, const Tensor& t);
// the recurrent net's tensor arguments (undefined ones are skipped), cast to the half type when the net runs in it.
void autocast_rnn_args(bool plain_rnn, const std::vector<Tensor*>& args);

}  // namespace ct

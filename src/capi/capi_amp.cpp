// capi_amp.cpp - C API of issue 15: the autocast region state (ops/autocast.h) and the gradient scaler steps
// (ops/amp_scaler.h).
#include "capi/capi_common.h"
#include "ops/amp_scaler.h"
#include "ops/autocast.h"

using namespace ct;

namespace {

DeviceType device_type_arg(int32_t device_type, const char* op) {
    if (device_type == CT_DEVICE_CPU) return DeviceType::CPU;
    if (device_type == CT_DEVICE_CUDA) return DeviceType::CUDA;
    fail(CT_ERR_INVALID_ARGUMENT, op, ": device_type must be CT_DEVICE_CPU (1) or CT_DEVICE_CUDA (2), got ",
         device_type);
}

}  // namespace

extern "C" {

ct_status ct_autocast_set_enabled(int32_t device_type, int32_t enabled, int32_t* previous) {
    return guard([&] {
        DeviceType type = device_type_arg(device_type, "autocast_set_enabled");
        if (previous) *previous = AutocastState::is_enabled(type) ? 1 : 0;
        AutocastState::set_enabled(type, enabled != 0);
    });
}

ct_status ct_autocast_is_enabled(int32_t device_type, int32_t* enabled) {
    return guard([&] {
        check_out(enabled, "autocast_is_enabled", "enabled");
        *enabled = AutocastState::is_enabled(device_type_arg(device_type, "autocast_is_enabled")) ? 1 : 0;
    });
}

ct_status ct_autocast_set_dtype(int32_t device_type, ct_dtype dtype, ct_dtype* previous) {
    return guard([&] {
        const char* op = "autocast_set_dtype";
        DeviceType type = device_type_arg(device_type, op);
        DType d = dtype_arg(dtype, op);
        DType old = AutocastState::dtype(type);
        AutocastState::set_dtype(type, d);
        if (previous) *previous = (ct_dtype)old;
    });
}

ct_status ct_autocast_get_dtype(int32_t device_type, ct_dtype* dtype) {
    return guard([&] {
        check_out(dtype, "autocast_get_dtype", "dtype");
        *dtype = (ct_dtype)AutocastState::dtype(device_type_arg(device_type, "autocast_get_dtype"));
    });
}

int32_t ct_autocast_set_cache_enabled(int32_t enabled) {
    int32_t previous = AutocastState::cache_enabled() ? 1 : 0;
    AutocastState::set_cache_enabled(enabled != 0);
    return previous;
}

int32_t ct_autocast_is_cache_enabled(void) { return AutocastState::cache_enabled() ? 1 : 0; }

int32_t ct_autocast_increment_nesting(void) { return AutocastState::increment_nesting(); }

int32_t ct_autocast_decrement_nesting(void) { return AutocastState::decrement_nesting(); }

void ct_autocast_clear_cache(void) { AutocastState::clear_cache(); }

int64_t ct_autocast_cache_size(void) { return AutocastState::cache_size(); }

ct_status ct_autocast_policy(const char* op, int32_t device_type, int32_t* policy) {
    return guard([&] {
        check_out(policy, "autocast_policy", "policy");
        if (!op) fail(CT_ERR_INVALID_ARGUMENT, "autocast_policy: op is NULL");
        *policy = (int32_t)autocast_policy(op, device_type_arg(device_type, "autocast_policy"));
    });
}

ct_status ct_amp_non_finite_check_and_unscale_(const ct_tensor* grads, int32_t n, ct_tensor found_inf,
                                                ct_tensor inv_scale) {
    return guard([&] {
        const char* op = "amp_non_finite_check_and_unscale_";
        std::vector<Tensor> gs = tensor_list_arg(grads, n, op, "grads");
        Tensor found = get_tensor(found_inf, op, "found_inf");
        amp_non_finite_check_and_unscale_(gs, found, get_tensor(inv_scale, op, "inv_scale"));
    });
}

ct_status ct_amp_update_scale_(ct_tensor scale, ct_tensor growth_tracker, ct_tensor found_inf, double growth_factor,
                               double backoff_factor, int64_t growth_interval) {
    return guard([&] {
        const char* op = "amp_update_scale_";
        Tensor s = get_tensor(scale, op, "scale");
        Tensor tracker = get_tensor(growth_tracker, op, "growth_tracker");
        amp_update_scale_(s, tracker, get_tensor(found_inf, op, "found_inf"), growth_factor, backoff_factor,
                          growth_interval);
    });
}

}  // extern "C"

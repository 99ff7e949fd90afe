// amp_scaler.cpp - gradient scaler steps as composites of device ops (one implementation for CPU and CUDA:
// every op used here has a CUDA kernel), so no result ever travels to the host (no synchronisation).
#include "ops/amp_scaler.h"
#include <cmath>
#include "autograd/grad_mode.h"
#include "ops/ops.h"

namespace ct {

namespace {

// A one-element tensor of dtype (any rank: torch's scaler keeps shape [1], 0-d works too).
void check_scalar_tensor(const Tensor& t, DType dtype, const char* op, const char* arg) {
    if (!t.defined()) fail(CT_ERR_INVALID_ARGUMENT, op, ": ", arg, " is NULL");
    if (t.dtype() != dtype)
        fail(CT_ERR_DTYPE, op, ": ", arg, " must be ", dtype_name(dtype), ", got ", dtype_name(t.dtype()));
    if (t.numel() != 1) fail(CT_ERR_SHAPE, op, ": ", arg, " must have one element, got ", t.numel());
}

void check_same_device(const Tensor& t, const Tensor& ref, const char* op, const char* arg) {
    if (t.device() != ref.device())
        fail(CT_ERR_DEVICE, op, ": ", arg, " is on ", device_str(t.device()), " but found_inf is on ",
             device_str(ref.device()));
}

}  // namespace

void amp_non_finite_check_and_unscale_(std::vector<Tensor>& grads, Tensor& found_inf, const Tensor& inv_scale) {
    const char* op = "amp_non_finite_check_and_unscale_";
    check_scalar_tensor(found_inf, DType::Float32, op, "found_inf");
    check_scalar_tensor(inv_scale, DType::Float32, op, "inv_scale");
    check_same_device(inv_scale, found_inf, op, "inv_scale");
    for (size_t i = 0; i < grads.size(); ++i) {
        const Tensor& g = grads[i];
        std::string arg = "grads[" + std::to_string(i) + "]";
        if (!is_floating(g.dtype()))
            fail(CT_ERR_DTYPE, op, ": ", arg, " must be floating, got ", dtype_name(g.dtype()));
        check_same_device(g, found_inf, op, arg.c_str());
    }
    NoGradGuard no_grad;
    Device dev = found_inf.device();
    Tensor zero = scalar_tensor(0.0, DType::Float32, dev);
    // sum(g * 0) is 0 for finite g and NaN as soon as one element is inf or NaN; the totals add up in float32.
    Tensor total = zero;
    for (const Tensor& g : grads)
        total = add(total, to_dtype(sum(mul(g, zero), {}, false), DType::Float32));
    Tensor bad = to_dtype(ne(total, total), DType::Float32);
    Tensor flag = maximum(reshape(found_inf, {}), bad);
    for (Tensor& g : grads) mul_(g, reshape(inv_scale, {}));
    copy_(found_inf, reshape(flag, found_inf.sizes()));
}

void amp_update_scale_(Tensor& scale, Tensor& growth_tracker, const Tensor& found_inf, double growth_factor,
                       double backoff_factor, int64_t growth_interval) {
    const char* op = "amp_update_scale_";
    check_scalar_tensor(scale, DType::Float32, op, "scale");
    check_scalar_tensor(growth_tracker, DType::Int32, op, "growth_tracker");
    check_scalar_tensor(found_inf, DType::Float32, op, "found_inf");
    check_same_device(scale, found_inf, op, "scale");
    check_same_device(growth_tracker, found_inf, op, "growth_tracker");
    if (!std::isfinite(growth_factor) || growth_factor <= 0 || !std::isfinite(backoff_factor) || backoff_factor <= 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": growth_factor (", growth_factor, ") and backoff_factor (",
             backoff_factor, ") must be finite and positive");
    if (growth_interval < 1) fail(CT_ERR_INVALID_ARGUMENT, op, ": growth_interval must be >= 1, got ", growth_interval);
    NoGradGuard no_grad;
    Device dev = found_inf.device();
    Tensor s = reshape(scale, {});
    Tensor zero_f = scalar_tensor(0.0, DType::Float32, dev);
    Tensor zero_i = scalar_tensor(0.0, DType::Int32, dev);
    Tensor found = gt(reshape(found_inf, {}), zero_f);
    // The tracker counts in int32 like torch's; an interval past int32's range is never reached.
    Tensor successful = add(reshape(growth_tracker, {}), scalar_tensor(1.0, DType::Int32, dev));
    Tensor interval = scalar_tensor((double)std::min<int64_t>(growth_interval, INT64_C(1) << 40), DType::Int64, dev);
    Tensor grown = mul_scalar(s, growth_factor);
    Tensor grown_finite = eq(mul(grown, zero_f), zero_f);  // inf * 0 and NaN * 0 are NaN
    Tensor reached = logical_and(logical_not(found), ge(successful, interval));
    Tensor grow = logical_and(reached, grown_finite);  // torch: a growth to inf keeps the scale, resets the tracker
    Tensor new_scale = where(found, mul_scalar(s, backoff_factor), where(grow, grown, s));
    Tensor new_tracker = where(logical_or(found, reached), zero_i, successful);
    copy_(scale, reshape(new_scale, scale.sizes()));
    copy_(growth_tracker, reshape(new_tracker, growth_tracker.sizes()));
}

}  // namespace ct

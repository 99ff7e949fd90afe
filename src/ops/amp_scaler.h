// amp_scaler.h - the two device-side steps of gradient scaling (issue 15), torch's
// _amp_foreach_non_finite_check_and_unscale_ and _amp_update_scale_.
#pragma once
#include <cstdint>
#include <vector>
#include "core/tensor.h"

namespace ct {

// Each of grads (floating, on found_inf's device) multiplied in place by inv_scale (a one-element float32
// tensor); found_inf (a one-element float32 tensor) set to 1 when any gradient held an inf or NaN before the
// multiply (left as it was otherwise). All arguments are checked before anything is written. Not recorded.
void amp_non_finite_check_and_unscale_(std::vector<Tensor>& grads, Tensor& found_inf, const Tensor& inv_scale);
// One GradScaler update in place: found_inf > 0 -> scale *= backoff_factor, growth_tracker = 0; otherwise
// growth_tracker += 1, and when it reaches growth_interval scale *= growth_factor (kept only if finite) and
// growth_tracker = 0. scale, found_inf: one-element float32; growth_tracker: one-element int32; one device.
void amp_update_scale_(Tensor& scale, Tensor& growth_tracker, const Tensor& found_inf, double growth_factor,
                       double backoff_factor, int64_t growth_interval);

}  // namespace ct

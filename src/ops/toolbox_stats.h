// toolbox_stats.h - the rest of issue 14's toolbox: repeat_interleave, meshgrid, median / nanmedian, quantile /
// nanquantile (toolbox_stats.cpp, toolbox_quantile.cpp) and cdist (cdist.cpp). All are composites of primitive
// ops (their gradients and CUDA support come from those ops) except cdist, which records torch's backward.
#pragma once
#include <optional>
#include "ops/ops.h"

namespace ct {

// x with each element repeated along dim (none: over the flattened x): repeats (an integer tensor of one value or
// of dim's length) or, when repeats is undefined, repeats_scalar times. output_size, when given, must equal the
// total. The gradient is the sum over each element's copies.
Tensor repeat_interleave(const Tensor& x, const Tensor& repeats, int64_t repeats_scalar, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size);
// Coordinate grids of n 0-d or 1-D tensors (one dtype and device): expanded views of shape [s0, s1, ...]
// (xy: the first two sizes swapped, as numpy). Gradients flow back through the views.
TensorList meshgrid(const TensorList& tensors, bool xy);
// The lower median of all elements (NaN when one is NaN, unless ignore_nan: then of the non-NaN ones; NaN for
// an empty or all-NaN x).
Tensor median_all(const Tensor& x, bool ignore_nan);
// Lower median along dim with its int64 position (ties: the stable sort's order; a NaN row gives its first NaN
// unless ignore_nan). The gradient goes to the chosen element.
std::pair<Tensor, Tensor> median_dim(const Tensor& x, int64_t dim, bool keepdim, bool ignore_nan);
// Interpolation modes of quantile (the CT_QUANTILE_* values of ctensor.h).
enum class QuantileInterp : int32_t { Linear = 0, Lower = 1, Higher = 2, Midpoint = 3, Nearest = 4 };
// torch.quantile / nanquantile: q is a 0-d or 1-D tensor in x's dtype (a 1-D q puts its dim first).
Tensor quantile(const Tensor& x, const Tensor& q, std::optional<int64_t> dim, bool keepdim, QuantileInterp mode,
                bool ignore_nan);
// p-norm distances [B.., P, R] between the rows of x1 [B.., P, M] and x2 [B.., R, M] (batch dims broadcast).
// compute_mode 0: the matmul form for p == 2 when P > 25 or R > 25; 1: always for p == 2; 2: never.
Tensor cdist(const Tensor& x1, const Tensor& x2, double p, int32_t compute_mode);

}  // namespace ct

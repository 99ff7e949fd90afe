// toolbox_ops.h - the counting, searching and scan ops of issue 14 (search_count.cpp, cum_extrema.cpp) and its
// composites (toolbox_composite.cpp).
#pragma once
#include <optional>
#include "ops/ops.h"

namespace ct {

// Positions where values would be inserted into the last dim of sorted_sequence (1-D, or N-d with values'
// leading dims): the first >= value (right: > value); sorter (optional, int64) sorts an unsorted sequence.
Tensor searchsorted(const Tensor& seq, const Tensor& values, bool right, bool out_int32, const Tensor& sorter);
// Counts of each value of the non-negative 1-D integer x (summed weights when given), at least minlength bins.
Tensor bincount(const Tensor& x, const Tensor& weights, int64_t minlength);
// Histogram of x with bins equal bins over [min, max] (min == max: the data's range).
Tensor histc(const Tensor& x, int64_t bins, double min, double max);
// Running maximum / minimum along dim and the int64 position it was taken from (differentiable in values).
std::pair<Tensor, Tensor> cummax(const Tensor& x, int64_t dim);
std::pair<Tensor, Tensor> cummin(const Tensor& x, int64_t dim);

// x with NaN, +inf and -inf replaced (defaults: 0, the dtype's max, its lowest); integer x: a copy.
Tensor nan_to_num(const Tensor& x, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf);
// The n-th forward difference along dim of [prepend, x, append] (either undefined: none); bool: xor.
Tensor diff(const Tensor& x, int64_t n, int64_t dim, const Tensor& prepend, const Tensor& append);
// gather along dim after broadcasting x and indices in every other dim; no dim: over the flattened x.
Tensor take_along_dim(const Tensor& x, const Tensor& indices, std::optional<int64_t> dim);
// A dtype's limits: floating (bits, eps, max, min, tiny = smallest normal, resolution = 10^-digits) or integer
// (bits, imin, imax); the other kind is CT_ERR_DTYPE naming finfo / iinfo.
struct DTypeLimits {
    int32_t bits;
    double eps, max, min, tiny, resolution;
    int64_t imin, imax;
};
DTypeLimits dtype_limits(DType dtype, bool floating);

}  // namespace ct

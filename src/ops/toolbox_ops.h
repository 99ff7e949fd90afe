// toolbox_ops.h - the counting, searching and scan ops of issue 14 (search_count.cpp, cum_extrema.cpp).
#pragma once
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

}  // namespace ct

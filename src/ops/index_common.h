// index_common.h - the index building blocks shared by indexing.cpp (gather/scatter family) and
// index_write.cpp (index_add, index_copy, index_put): one check, one scatter loop, one index layout.
#pragma once
#include "ops/ops.h"

namespace ct {

// Throws unless index is on x's device and int64 or int32.
void check_index(const char* op, const Tensor& x, const Tensor& index);
// A 1-D (or 0-d) index laid along dim over shape (stride 0 in every other dim).
Tensor index_along(const Tensor& index, const Shape& shape, int64_t dim);
// dst[p with p[dim] := index_view[p]] = (or +=) src[p] for p over index_view's shape, in place, no autograd.
// Duplicates resolve in index order on the CPU (the last write wins; accumulate sums them). An index outside
// [0, dst.size(dim)) throws CT_ERR_INDEX naming op and the value (read from `index`, the caller's tensor).
void scatter_into(const char* op, const Tensor& dst, int64_t dim, const Tensor& index_view, const Tensor& src,
                  bool accumulate, const Tensor& index);

}  // namespace ct

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

// scatter_reduce's combining rules (values fixed: the C ABI's CT_SCATTER_*).
enum class ScatterReduce : int32_t { Sum = 0, Prod = 1, Mean = 2, Amax = 3, Amin = 4 };
// dst[p with p[dim] := index[p]] = combine(that element, src[p]) for p over index's shape (CPU; src and index of
// one shape), in index order along dim: Sum and Mean add, Prod multiplies, Amax/Amin keep the larger/smaller
// (a NaN wins, as torch). An index outside [0, dst.size(dim)) throws CT_ERR_INDEX naming op and the value.
void scatter_combine_into(const char* op, const Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src,
                          ScatterReduce mode);
// x.scatter_reduce(dim, index, src, reduce, include_self) with torch's gradients (scatter_reduce.cpp).
Tensor scatter_reduce(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduce r,
                      bool include_self);
// Throws CT_ERR_SHAPE unless index has t's rank and index.size(k) <= t.size(k) for every k != skip_dim.
void check_index_fits(const char* op, const Tensor& index, const Tensor& t, const char* what, int64_t skip_dim);

}  // namespace ct

// index_write.h - the indexed writes of issue 14: index_add, index_copy, index_put (index_write.cpp) and the
// in-place indexed writes scatter_, scatter_add_, index_add_, index_copy_, index_put_, scatter_reduce_ (inplace.cpp).
#pragma once
#include "ops/index_common.h"

namespace ct {

// x with src's slices along dim added (alpha * src) / copied at index (1-D, values in [0, x.size(dim))).
Tensor index_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src, double alpha);
Tensor index_copy(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
// x with values (broadcast to the indexed shape) written or added at the positions the index tensors
// (broadcast together, negative counted from the end) pick in x's first indices.size() dims.
Tensor index_put(const Tensor& x, const TensorList& indices, const Tensor& values, bool accumulate);

// In place; each bumps dst's version (see inplace.cpp).
void scatter_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src);
void scatter_add_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src);
void index_add_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src, double alpha);
void index_copy_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src);
void index_put_(Tensor& dst, const TensorList& indices, const Tensor& values, bool accumulate);
void scatter_reduce_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduce r,
                     bool include_self);

}  // namespace ct

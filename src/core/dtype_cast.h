// dtype_cast.h - torch's can_cast: whether a value of one dtype may be stored in another by an op's result or an
// in-place write. One rule for the in-place checks (ops/inplace.cpp) and the ct_can_cast query.
#pragma once
#include "core/dtype.h"

namespace ct {

// No cast to a lower category (bool < integer < floating < complex); within one any cast is allowed.
inline bool can_cast(DType from, DType to) { return dtype_category(from) <= dtype_category(to); }

}  // namespace ct

// checks.cpp - argument checks and shape/dtype rules shared by ops (broadcasting, promotion, dims).
#include "ops/ops.h"

namespace ct {

void check_same_device(const char* op, const Tensor& a, const Tensor& b) {
    if (a.device() != b.device())
        fail(CT_ERR_DEVICE, op, ": expected all tensors on one device, got ", device_str(a.device()), " and ",
             device_str(b.device()));
}

void check_floating(const char* op, const Tensor& t) {
    if (!is_floating(t.dtype()))
        fail(CT_ERR_DTYPE, op, ": expected a floating tensor (float32 or float64), got ", dtype_name(t.dtype()));
}

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b) {
    size_t n = std::max(a.size(), b.size());
    Shape out(n);
    for (size_t i = 0; i < n; ++i) {
        int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
        int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (da != db && da != 1 && db != 1)
            fail(CT_ERR_SHAPE, op, ": shapes ", shape_str(a), " and ", shape_str(b), " cannot be broadcast (dim ", i,
                 ": ", da, " vs ", db, ")");
        out[i] = da == 1 ? db : da;
    }
    return out;
}

namespace {
// Priority of an operand in promotion: tensors with dims > 0-d tensors > wrapped numbers.
int rank_of(const Tensor& t) { return t.impl()->wrapped_number ? 0 : (t.dim() == 0 ? 1 : 2); }
}  // namespace

DType result_type(const Tensor& a, const Tensor& b) {
    DType da = a.dtype(), db = b.dtype();
    int ra = rank_of(a), rb = rank_of(b);
    if (ra == rb) return promote_types(da, db);
    // The higher-ranked operand wins unless the lower one is of a higher category.
    const Tensor& hi = ra > rb ? a : b;
    const Tensor& lo = ra > rb ? b : a;
    if (dtype_category(lo.dtype()) > dtype_category(hi.dtype())) {
        if (lo.impl()->wrapped_number)  // a Python scalar of a higher category: default dtype of that category
            return is_floating(lo.dtype()) ? DType::Float32 : DType::Int64;
        return lo.dtype();
    }
    return hi.dtype();
}

std::vector<bool> reduce_mask(const char* op, const IntList& dims, int64_t ndim) {
    std::vector<bool> mask(ndim, dims.empty());
    for (int64_t d : dims) {
        int64_t w = wrap_dim(d, ndim, op);
        if (ndim == 0) continue;
        if (mask[w]) fail(CT_ERR_INVALID_ARGUMENT, op, ": dim ", d, " appears more than once in the dim list");
        mask[w] = true;
    }
    return mask;
}

}  // namespace ct

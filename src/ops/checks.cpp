// checks.cpp - argument checks and shape/dtype rules shared by ops (broadcasting, promotion, dims).
#include <limits>
#include "autograd/grad_mode.h"
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
        // a complex operand over a floating one keeps the floating one's precision (torch's combine_categories)
        if (is_complex(lo.dtype()) && is_floating(hi.dtype())) return complex_dtype_of(hi.dtype());
        if (is_complex(lo.dtype()) && lo.impl()->wrapped_number) return DType::Complex64;
        if (lo.impl()->wrapped_number)  // a Python scalar of a higher category: default dtype of that category
            return is_floating(lo.dtype()) ? DType::Float32 : DType::Int64;
        return lo.dtype();
    }
    return hi.dtype();
}

void check_scalar_fits(const char* op, const Tensor& t, DType compute) {
    if (!t.impl()->wrapped_number || !is_integral(compute) || t.dtype() != DType::Int64 || !t.device().is_cpu()) return;
    const int64_t v = *t.data<int64_t>();
    bool fits = dispatch_all(compute, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (v < 0) return v >= (int64_t)std::numeric_limits<T>::lowest();
        return (uint64_t)v <= (uint64_t)std::numeric_limits<T>::max();
    });
    if (!fits)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": value ", v, " cannot be converted to ", dtype_name(compute),
             " without overflow");
}

void normalise_bool_bytes(void* data, int64_t n) {
    auto* p = static_cast<uint8_t*>(data);
    for (int64_t i = 0; i < n; ++i) p[i] = p[i] != 0;
}

void check_bool_bytes(const char* op, const Tensor& t) {
    if (t.dtype() != DType::Bool || t.numel() == 0) return;
    auto bytes = std::make_shared<TensorImpl>();  // the same elements read as uint8: reading them is defined
    bytes->storage = t.storage();
    bytes->sizes = t.sizes();
    bytes->strides = t.strides();
    bytes->offset = t.impl()->offset;
    bytes->dtype = DType::UInt8;
    NoGradGuard no_grad;
    const double largest = item(max_all(Tensor(std::move(bytes))));
    if (largest > 1)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": bool memory holds the byte ", (int64_t)largest,
             "; bool elements must be the bytes 0 or 1 (compare uint8 data with != 0 instead)");
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

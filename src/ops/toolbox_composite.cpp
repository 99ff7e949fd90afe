// toolbox_composite.cpp - composites of issue 14 built from primitive ops (so their gradients, CUDA support and
// double backward come from those ops): nan_to_num, diff, take_along_dim; and the dtype limits behind
// finfo / iinfo.
#include <cfloat>
#include <cmath>
#include <limits>
#include "ops/elementwise.h"
#include "ops/toolbox_ops.h"

namespace ct {

Tensor nan_to_num(const Tensor& x, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
    if (!is_floating(x.dtype())) return clone(x);  // integers and bool have no NaN or infinity (torch: a copy)
    const double big = dtype_limits(x.dtype(), true).max;  // the dtype's own max (65504 for float16, as torch)
    auto fill = [&](double v) { return scalar_tensor(v, x.dtype(), x.device()); };
    // where() passes the gradient to x where x is kept: torch's grad * isfinite(x)
    Tensor y = where(ne(x, x), fill(nan.value_or(0.0)), x);
    y = where(eq(x, fill(INFINITY)), fill(posinf.value_or(big)), y);
    return where(eq(x, fill(-INFINITY)), fill(neginf.value_or(-big)), y);
}

Tensor diff(const Tensor& x, int64_t n, int64_t dim, const Tensor& prepend, const Tensor& append) {
    const char* op = "diff";
    if (x.dim() == 0) fail(CT_ERR_SHAPE, op, ": expects input to be at least one-dimensional");
    if (n < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": order must be non-negative, got ", n);
    const int64_t d = wrap_dim(dim, x.dim(), op);
    TensorList parts;
    for (const Tensor* t : {&prepend, &x, &append}) {
        if (!t->defined()) continue;
        if (t->dim() != x.dim())
            fail(CT_ERR_SHAPE, op, ": prepend and append must have the input's number of dims (", x.dim(), "), got shape ",
                 shape_str(t->sizes()));
        parts.push_back(*t);
    }
    Tensor y = parts.size() == 1 ? x : cat(parts, d);
    if (y.numel() == 0 && n > 0) {  // only the size along d changes: bounded work for a huge size beside a zero one
        const int64_t size = y.sizes()[d];
        return clone(narrow(y, d, 0, size > n ? size - n : 0));
    }
    for (int64_t k = 0; k < n && y.sizes()[d] > 0; ++k) {
        const int64_t len = y.sizes()[d] - 1;
        Tensor hi = narrow(y, d, 1, len), lo = narrow(y, d, 0, len);
        y = y.dtype() == DType::Bool ? logical_xor(hi, lo) : sub(hi, lo);  // torch: bool differences are xor
    }
    return n == 0 ? clone(y) : y;
}

Tensor take_along_dim(const Tensor& x, const Tensor& indices, std::optional<int64_t> dim) {
    const char* op = "take_along_dim";
    if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)  // checked here to name this op, not gather
        fail(CT_ERR_DTYPE, op, ": indices must be int64 or int32, got ", dtype_name(indices.dtype()));
    if (!dim) return gather(reshape(x, {x.numel()}), 0, reshape(indices, {indices.numel()}));
    if (indices.dim() != x.dim())
        fail(CT_ERR_SHAPE, op, ": input (shape ", shape_str(x.sizes()), ") and indices (shape ", shape_str(indices.sizes()),
             ") must have the same number of dims");
    if (x.dim() == 0)  // as torch (and d below must index a dim)
        fail(CT_ERR_INDEX, op, ": dimension specified as ", *dim, " but the input has no dimensions");
    const int64_t d = wrap_dim(*dim, x.dim(), op);
    Shape xs = x.sizes(), is = indices.sizes();  // broadcast in every dim but d
    Shape a = xs, b = is;
    a.erase(a.begin() + d), b.erase(b.begin() + d);
    Shape common = broadcast_shapes(op, a, b);
    xs = is = common;
    xs.insert(xs.begin() + d, x.sizes()[d]);
    is.insert(is.begin() + d, indices.sizes()[d]);
    return gather(expand(x, xs), d, expand(indices, is));
}

DTypeLimits dtype_limits(DType dtype, bool floating) {
    const char* op = floating ? "finfo" : "iinfo";
    if (floating != is_floating(dtype) || dtype == DType::Bool)
        fail(CT_ERR_DTYPE, op, ": ", dtype_name(dtype), " is not ", floating ? "a floating point" : "an integer",
             " dtype");
    DTypeLimits r{};
    if (dtype == DType::Float32) {
        r = {32, FLT_EPSILON, FLT_MAX, -FLT_MAX, FLT_MIN, 1e-6, 0, 0};
    } else if (dtype == DType::Float64) {
        r = {64, DBL_EPSILON, DBL_MAX, -DBL_MAX, DBL_MIN, 1e-15, 0, 0};
    } else if (dtype == DType::Float16) {  // torch.finfo(torch.float16): 2^-10, 65504, 2^-14
        r = {16, 0x1p-10, 65504.0, -65504.0, 0x1p-14, 1e-3, 0, 0};
    } else if (dtype == DType::BFloat16) {  // torch.finfo(torch.bfloat16): 2^-7, (2 - 2^-7) * 2^127, 2^-126
        r = {16, 0x1p-7, 0x1.fep127, -0x1.fep127, 0x1p-126, 1e-2, 0, 0};
    } else {
        dispatch_all(dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            r.bits = (int32_t)(8 * sizeof(T));
            r.imin = (int64_t)std::numeric_limits<T>::lowest();
            r.imax = (int64_t)std::numeric_limits<T>::max();
        });
    }
    return r;
}

}  // namespace ct

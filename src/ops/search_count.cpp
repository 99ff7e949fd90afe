// search_count.cpp - counting and searching (issue 14): searchsorted, bincount and histc. None has a gradient
// (torch's have none either). Their result sizes or values depend on the data, so CUDA tensors are read back once,
// computed on the host and the result copied over (like nonzero).
#include <cmath>
#include "ops/half_compute.h"
#include "ops/elementwise.h"
#include "ops/toolbox_ops.h"

namespace ct {
namespace {

// t itself when dense and row-major, else a contiguous copy (no autograd).
Tensor dense(const Tensor& t) {
    if (t.is_contiguous()) return t;
    Tensor c = empty_tensor(t.sizes(), t.dtype(), t.device());
    copy_into(c, t);
    return c;
}

// The host copy of t in dtype (dense, no autograd).
Tensor host_as(const Tensor& t, DType dtype) {
    return dense(cast_nograd(copy_to_device(t, Device{}), dtype));
}

// torch's binary search over n values at p (read through order when given): the first position whose value
// is >= v (left) or > v (right); a NaN value sorts after everything (it is >= nothing).
template <typename T> int64_t search(const T* p, const int64_t* order, int64_t n, T v, bool right) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        T m = p[order ? order[mid] : mid];
        if (right ? m > v : m >= v) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

void check_search_args(const char* op, const Tensor& seq, const Tensor& values, const Tensor& sorter) {
    check_same_device(op, seq, values);
    if (seq.dtype() == DType::Bool || values.dtype() == DType::Bool)
        fail(CT_ERR_DTYPE, op, ": bool tensors are not supported (got ", dtype_name(seq.dtype()), " and ",
             dtype_name(values.dtype()), ")");
    if (seq.dim() == 0) fail(CT_ERR_SHAPE, op, ": sorted_sequence must have at least one dim, got a 0-d tensor");
    if (seq.dim() > 1) {
        Shape a(seq.sizes().begin(), seq.sizes().end() - 1);
        Shape b = values.dim() > 0 ? Shape(values.sizes().begin(), values.sizes().end() - 1) : Shape{};
        if (values.dim() == 0 || a != b)
            fail(CT_ERR_SHAPE, op, ": sorted_sequence of shape ", shape_str(seq.sizes()), " and values of shape ",
                 shape_str(values.sizes()), " must agree in all but the last dim (or sorted_sequence must be 1-D)");
    }
    if (!sorter.defined()) return;
    check_same_device(op, seq, sorter);
    if (sorter.dtype() != DType::Int64)
        fail(CT_ERR_DTYPE, op, ": sorter must be int64, got ", dtype_name(sorter.dtype()));
    if (sorter.sizes() != seq.sizes())
        fail(CT_ERR_SHAPE, op, ": sorter of shape ", shape_str(sorter.sizes()), " must have sorted_sequence's shape ",
             shape_str(seq.sizes()));
}

}  // namespace

Tensor searchsorted(const Tensor& seq, const Tensor& values, bool right, bool out_int32, const Tensor& sorter) {
    // Note [Half compute]
    if (half_dtype_of(seq, values)) return searchsorted(as_float32(seq), as_float32(values), right, out_int32, sorter);
    const char* op = "searchsorted";
    check_search_args(op, seq, values, sorter);
    const DType ct = promote_types(seq.dtype(), values.dtype());
    Tensor s = host_as(seq, ct), v = host_as(values, ct);
    const int64_t n = seq.sizes().back(), m = values.dim() > 0 ? values.sizes().back() : 1;
    Tensor order;
    if (sorter.defined()) {
        order = host_as(sorter, DType::Int64);
        const int64_t* po = order.data<int64_t>();
        for (int64_t i = 0, k = order.numel(); i < k; ++i)
            if (po[i] < 0 || po[i] >= n)
                fail(CT_ERR_INDEX, op, ": sorter index ", po[i], " is out of bounds for a sequence of length ", n);
    }
    Tensor out = empty_tensor(values.sizes(), DType::Int64, Device{});
    int64_t* pr = out.data<int64_t>();
    const bool one_d = seq.dim() == 1;
    dispatch_all(ct, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T *ps = s.data<T>(), *pv = v.data<T>();
        const int64_t* po = order.defined() ? order.data<int64_t>() : nullptr;
        for (int64_t i = 0, k = v.numel(); i < k; ++i) {
            int64_t row = one_d ? 0 : i / m;  // N-d: value i searches row i / m of the sequence
            pr[i] = search<T>(ps + row * n, po ? po + row * n : nullptr, n, pv[i], right);
        }
    });
    Tensor r = out_int32 ? cast_nograd(out, DType::Int32) : out;
    return copy_to_device(r, values.device());
}

Tensor bincount(const Tensor& x, const Tensor& weights, int64_t minlength) {
    // Note [Half compute]
    if (auto h = half_dtype_of(weights)) return round_results(bincount(x, as_float32(weights), minlength), *h);
    const char* op = "bincount";
    if (x.dim() != 1) fail(CT_ERR_SHAPE, op, ": input must be 1-D, got shape ", shape_str(x.sizes()));
    if (!is_integral(x.dtype())) fail(CT_ERR_DTYPE, op, ": input must be an integer tensor, got ", dtype_name(x.dtype()));
    if (minlength < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": minlength must be non-negative, got ", minlength);
    DType od = DType::Int64;
    if (weights.defined()) {
        check_same_device(op, x, weights);
        if (weights.sizes() != x.sizes())
            fail(CT_ERR_SHAPE, op, ": weights of shape ", shape_str(weights.sizes()), " must have the input's shape ",
                 shape_str(x.sizes()));
        od = is_floating(weights.dtype()) ? weights.dtype() : DType::Float64;  // torch's result dtypes
    }
    Tensor xi = host_as(x, DType::Int64);
    const int64_t* px = xi.data<int64_t>();
    int64_t len = minlength;
    for (int64_t i = 0; i < xi.numel(); ++i) {
        if (px[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": input must be non-negative, got ", px[i]);
        if (px[i] == INT64_MAX) fail(CT_ERR_INVALID_ARGUMENT, op, ": value ", px[i], " gives too many bins");
        len = std::max(len, px[i] + 1);
    }
    Tensor out = zeros({len}, od, Device{});
    if (!weights.defined()) {
        int64_t* po = out.data<int64_t>();
        for (int64_t i = 0; i < xi.numel(); ++i) ++po[px[i]];
    } else {
        Tensor w = host_as(weights, od);
        dispatch_float(od, [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* po = out.data<T>();
            const T* pw = w.data<T>();
            for (int64_t i = 0; i < xi.numel(); ++i) po[px[i]] += pw[i];
        });
    }
    return copy_to_device(out, x.device());
}

Tensor histc(const Tensor& x, int64_t bins, double min, double max) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(histc(as_float32(x), bins, min, max), *h);
    const char* op = "histc";
    if (!is_floating(x.dtype())) fail(CT_ERR_DTYPE, op, ": input must be floating point, got ", dtype_name(x.dtype()));
    if (bins <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": bins must be > 0, got ", bins);
    if (min > max) fail(CT_ERR_INVALID_ARGUMENT, op, ": max (", max, ") must be larger than min (", min, ")");
    if (!std::isfinite(min) || !std::isfinite(max))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": range [", min, ", ", max, "] is not finite");
    Tensor xs = host_as(x, x.dtype());
    Tensor out = zeros({bins}, x.dtype(), Device{});
    dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;  // torch bins in the input's type
        const T* px = xs.data<T>();
        T* po = out.data<T>();
        const int64_t n = xs.numel();
        T lo = (T)min, hi = (T)max;
        if (lo == hi && n > 0) {  // torch: the data's range, then widened by 1 each way if still empty
            lo = INFINITY, hi = -INFINITY;
            for (int64_t i = 0; i < n; ++i)
                if (!std::isnan(px[i])) lo = std::min(lo, px[i]), hi = std::max(hi, px[i]);
            if (!std::isfinite(lo) || !std::isfinite(hi))
                fail(CT_ERR_INVALID_ARGUMENT, op, ": range of the data [", lo, ", ", hi, "] is not finite");
        }
        if (lo == hi) lo -= 1, hi += 1;
        for (int64_t i = 0; i < n; ++i) {
            T v = px[i];
            if (!(v >= lo && v <= hi)) continue;  // outside the range, or NaN
            const T pos = (v - lo) * (T)bins / (hi - lo);
            // hi - lo beyond T's range makes pos inf or NaN (inf / inf): such a value sits at the top, in the last bin
            int64_t b = std::isfinite(pos) ? (int64_t)pos : bins - 1;
            po[std::min(b, bins - 1)] += T(1);  // the top edge belongs to the last bin
        }
    });
    return copy_to_device(out, x.device());
}

}  // namespace ct

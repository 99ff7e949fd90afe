// toolbox_quantile.cpp - quantile / nanquantile (issue 14) as torch 1.13 computes them: sort along the reduced
// dim, ranks q * (n - 1) adjusted by the interpolation mode, gather below / above and lerp between them. Built
// from primitive ops, so the gradient flows through sort + gather + the lerp arithmetic (to x and to q).
#include <cmath>
#include "ops/half_compute.h"
#include "ops/toolbox_stats.h"

namespace ct {
namespace {

// torch's output shape: x's shape reduced over dim (or over everything), then q's length first when q is 1-D.
Shape quantile_shape(const Tensor& x, const Tensor& q, std::optional<int64_t> dim, bool keepdim, const char* op) {
    Shape out;
    if (dim && x.dim() > 0) {
        out = x.sizes();
        int64_t d = wrap_dim(*dim, x.dim(), op);
        if (keepdim) out[d] = 1;
        else out.erase(out.begin() + d);
    } else if (keepdim) {
        out.assign((size_t)x.dim(), 1);
    }
    if (q.dim() > 0) out.insert(out.begin(), q.numel());
    return out;
}

void check_quantile_args(const Tensor& x, const Tensor& q, std::optional<int64_t> dim, int32_t mode, const char* op) {
    if (x.numel() == 0) fail(CT_ERR_SHAPE, op, ": input tensor must be non-empty (shape ", shape_str(x.sizes()), ")");
    if (q.dim() > 1) fail(CT_ERR_SHAPE, op, ": q must be a scalar or 1-D tensor, got shape ", shape_str(q.sizes()));
    if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
        fail(CT_ERR_DTYPE, op, ": input tensor must be float32 or float64, got ", dtype_name(x.dtype()));
    if (q.dtype() != x.dtype())
        fail(CT_ERR_DTYPE, op, ": q tensor (", dtype_name(q.dtype()), ") must have the input's dtype (",
             dtype_name(x.dtype()), ")");
    check_same_device(op, x, q);
    if (dim) wrap_dim(*dim, x.dim(), op);
    if (mode < 0 || mode > (int32_t)QuantileInterp::Nearest)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": unknown interpolation mode ", mode,
             " (linear 0, lower 1, higher 2, midpoint 3, nearest 4)");
    Tensor qd = detach(q);
    if (q.numel() > 0 && item(all(logical_and(ge(qd, scalar_tensor(0, q.dtype(), q.device())),
                                              le(qd, scalar_tensor(1, q.dtype(), q.device()))),
                                  {}, false)) == 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": q values must be in the range [0, 1]");
}

// torch's lerp: a + w (b - a) for w < 0.5, else b - (b - a)(1 - w) (exact at both ends).
Tensor lerp(const Tensor& a, const Tensor& b, const Tensor& w) {
    Tensor span = sub(b, a);
    Tensor lo = add(a, mul(w, span));
    Tensor hi = sub(b, mul(span, add_scalar(mul_scalar(w, -1.0), 1.0)));
    return where(lt(w, scalar_tensor(0.5, w.dtype(), w.device())), lo, hi);
}

}  // namespace

Tensor quantile(const Tensor& x, const Tensor& q, std::optional<int64_t> dim, bool keepdim, QuantileInterp mode,
                bool ignore_nan) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x, q))
        return round_results(quantile(as_float32(x), as_float32(q), dim, keepdim, mode, ignore_nan), *h);
    const char* op = ignore_nan ? "nanquantile" : "quantile";
    check_quantile_args(x, q, dim, (int32_t)mode, op);
    Shape out_shape = quantile_shape(x, q, dim, keepdim, op);
    const int64_t len = dim && x.dim() > 0 ? x.sizes()[wrap_dim(*dim, x.dim(), op)] : x.numel();
    if (len > (int64_t)1 << 24) fail(CT_ERR_SHAPE, op, ": input tensor is too large (", len, " values along the dim)");
    // sorted values with the reduced dim last (its size-1 slot kept where dim was)
    Tensor sorted;
    if (!dim) sorted = sort(reshape(x, {x.numel()}), 0, false).first;
    else if (x.dim() == 0 || wrap_dim(*dim, x.dim(), op) == x.dim() - 1) sorted = sort(x, -1, false).first;
    else sorted = sort(transpose(unsqueeze(x, -1), wrap_dim(*dim, x.dim(), op), -1), -1, false).first;
    if (sorted.dim() == 0) sorted = reshape(sorted, {1});
    // view as out_shape (without q's dim) + [n]
    Shape in_shape(out_shape.begin() + (q.dim() > 0 ? 1 : 0), out_shape.end());
    const int64_t n = sorted.sizes().back();
    in_shape.push_back(n);
    sorted = reshape(sorted, in_shape);
    Tensor q1 = reshape(q, {q.numel()});  // treated as 1-D below
    Tensor ranks;
    if (ignore_nan) {  // ranks over the non-NaN values; an all-NaN row gets rank 0 (a NaN)
        Tensor count = to_dtype(sum(logical_not(ne(detach(sorted), detach(sorted))), {-1}, true), x.dtype());
        ranks = mul(q1, add_scalar(count, -1.0));
        ranks = masked_fill(ranks, lt(ranks, scalar_tensor(0, x.dtype(), x.device())), 0.0);
    } else {  // a row with NaN gets the last rank (a NaN)
        const double last = (double)(n - 1);
        Tensor has_nan = any(ne(detach(sorted), detach(sorted)), {-1}, true);
        Tensor r = mul_scalar(q1, last);
        Shape b = broadcast_shapes(op, r.sizes(), has_nan.sizes());
        ranks = masked_fill(expand(r, b), expand(has_nan, b), last);
    }
    if (mode == QuantileInterp::Lower) ranks = floor(ranks);
    else if (mode == QuantileInterp::Higher) ranks = ceil(ranks);
    else if (mode == QuantileInterp::Nearest) ranks = round(ranks);
    // ranks has sorted's leading dims (from the NaN count / flag) and q's length last
    Tensor below = to_dtype(detach(ranks), DType::Int64);
    Tensor values = gather(sorted, -1, below);
    if (mode == QuantileInterp::Linear || mode == QuantileInterp::Midpoint) {
        Tensor w = mode == QuantileInterp::Midpoint ? full_like(ranks, 0.5) : sub(ranks, to_dtype(below, x.dtype()));
        Tensor above = to_dtype(ceil(detach(ranks)), DType::Int64);
        values = lerp(values, gather(sorted, -1, above), w);
    }
    if (q.dim() == 0) return reshape(squeeze(values, -1), out_shape);
    // the quantiles' dim (last) goes first
    return reshape(squeeze(transpose(unsqueeze(values, 0), 0, -1), -1), out_shape);
}

}  // namespace ct

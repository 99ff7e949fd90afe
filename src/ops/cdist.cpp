// cdist.cpp - torch.cdist (issue 14): p-norm distances between the rows of x1 [B.., P, M] and x2 [B.., R, M].
// p == 2 with many rows uses torch's matmul form (a composite: its gradient comes from matmul, clamp and sqrt);
// every other case computes |x1_i - x2_j| in chunks of x1's rows (memory bounded by kChunk elements beyond the
// inputs and the result) and records torch's _cdist_backward, which gives a zero gradient where a distance is 0.
#include <cmath>
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "core/checked_math.h"
#include "ops/toolbox_stats.h"

namespace ct {
namespace {

constexpr int64_t kChunk = int64_t(1) << 22;  // elements of one chunk's differences [B.., c, R, M]

Tensor zero_like_scalar(const Tensor& t) { return scalar_tensor(0, t.dtype(), t.device()); }

// Rows of x1 per chunk so that a chunk's differences stay within kChunk elements (at least one row).
int64_t rows_per_chunk(const Tensor& b, int64_t P) {
    int64_t per_row = std::max<int64_t>(1, checked_numel(b.sizes(), "cdist"));  // B * R * M
    return std::max<int64_t>(1, std::min<int64_t>(P, kChunk / per_row));
}

// x1 rows [p0, p0 + c) minus every x2 row: [B.., c, R, M].
Tensor row_diffs(const Tensor& a, const Tensor& b, int64_t p0, int64_t c) {
    return sub(unsqueeze(narrow(a, -2, p0, c), -2), unsqueeze(b, -3));
}

// d dist / d x1 of one chunk (times g), torch's _cdist_backward: [B.., c, R, M].
Tensor chunk_grad(const Tensor& diff, const Tensor& g, const Tensor& dist, double p) {
    Tensor G = unsqueeze(g, -1), D = unsqueeze(dist, -1), zero = zero_like_scalar(diff);
    if (p == 1) return mul(sign(diff), G);
    if (p == 2) return where(eq(D, zero), zero, mul(diff, div(G, D)));
    if (std::isinf(p)) return mul(mul(sign(diff), to_dtype(eq(abs(diff), D), diff.dtype())), G);
    Tensor t = div(mul(mul(sign(diff), pow_scalar(abs(diff), p - 1)), G), pow_scalar(D, p - 1));
    return where(logical_or(eq(D, zero), eq(diff, zero)), zero, t);
}

Tensor euclid_mm(const Tensor& a, const Tensor& b) {  // torch's _euclidean_dist
    Tensor n1 = sum(pow_scalar(a, 2), {-1}, true), n2 = sum(pow_scalar(b, 2), {-1}, true);
    Tensor x1 = cat({mul_scalar(a, -2), n1, ones_like(n1)}, -1);
    Tensor x2 = cat({b, ones_like(n2), n2}, -1);
    return sqrt(clamp(matmul(x1, transpose(x2, -1, -2)), 0.0, std::nullopt));
}

void check_cdist(const Tensor& x1, const Tensor& x2, double p, int32_t mode) {
    const char* op = "cdist";
    for (const Tensor* t : {&x1, &x2})
        if (t->dim() < 2) fail(CT_ERR_SHAPE, op, ": expects at least 2-D tensors, got shape ", shape_str(t->sizes()));
    if (x1.sizes().back() != x2.sizes().back())
        fail(CT_ERR_SHAPE, op, ": x1 (shape ", shape_str(x1.sizes()), ") and x2 (shape ", shape_str(x2.sizes()),
             ") must have the same number of columns");
    if (x1.dtype() != x2.dtype() || (x1.dtype() != DType::Float32 && x1.dtype() != DType::Float64))
        fail(CT_ERR_DTYPE, op, ": expects float32 or float64 tensors of one dtype, got ", dtype_name(x1.dtype()), " and ",
             dtype_name(x2.dtype()));
    check_same_device(op, x1, x2);
    if (!(p >= 0)) fail(CT_ERR_INVALID_ARGUMENT, op, ": p must be non-negative, got ", p);
    if (mode < 0 || mode > 2) fail(CT_ERR_INVALID_ARGUMENT, op, ": compute_mode must be 0, 1 or 2, got ", mode);
}

}  // namespace

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, int32_t compute_mode) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x1, x2))
        return round_results(cdist(as_float32(x1), as_float32(x2), p, compute_mode), *h);
    check_cdist(x1, x2, p, compute_mode);
    const int64_t P = x1.sizes()[x1.dim() - 2], R = x2.sizes()[x2.dim() - 2], M = x1.sizes().back();
    Shape batch = broadcast_shapes("cdist", Shape(x1.sizes().begin(), x1.sizes().end() - 2),
                                   Shape(x2.sizes().begin(), x2.sizes().end() - 2));
    Shape s1 = batch, s2 = batch, out_shape = batch;
    s1.insert(s1.end(), {P, M}), s2.insert(s2.end(), {R, M}), out_shape.insert(out_shape.end(), {P, R});
    const int64_t out_numel = checked_numel(out_shape, "cdist");
    Tensor a = expand(x1, s1), b = expand(x2, s2);
    if (out_numel == 0 || M == 0) return sum(row_diffs(a, b, 0, P), {-1}, false);  // empty, or zeros (no columns)
    if (p == 2 && (compute_mode == 1 || (compute_mode == 0 && (P > 25 || R > 25)))) return euclid_mm(a, b);
    const int64_t c = rows_per_chunk(b, P);
    TensorList parts;
    {
        GradModeGuard no_grad(false);
        for (int64_t p0 = 0; p0 < P; p0 += c)
            parts.push_back(norm(row_diffs(a, b, p0, std::min(c, P - p0)), p, {-1}, false));
    }
    Tensor dist = parts.size() == 1 ? parts[0] : cat(parts, -2);
    if (!any_requires_grad({x1, x2})) return dist;
    Shape shape1 = x1.sizes(), shape2 = x2.sizes();
    auto node = make_node("CdistBackward", {x1, x2}, [p, c, P, shape1, shape2](BackwardCtx& ctx) {
        Tensor g = ctx.grads[0], a = ctx.saved(0), b = ctx.saved(1), dist = ctx.saved(2);
        if (p == 0) return TensorList{zeros(shape1, g.dtype(), g.device()), zeros(shape2, g.dtype(), g.device())};
        TensorList g1;
        Tensor g2;
        for (int64_t p0 = 0; p0 < P; p0 += c) {
            int64_t n = std::min(c, P - p0);
            Tensor t = chunk_grad(row_diffs(a, b, p0, n), narrow(g, -2, p0, n), narrow(dist, -2, p0, n), p);
            g1.push_back(sum(t, {-2}, false));
            Tensor t2 = sum(t, {-3}, false);
            g2 = g2.defined() ? add(g2, t2) : t2;
        }
        Tensor gx1 = g1.size() == 1 ? g1[0] : cat(g1, -2);
        return TensorList{sum_to(gx1, shape1), sum_to(neg(g2), shape2)};
    });
    node->save(detach(a));
    node->save(detach(b));
    set_history(dist, node);
    node->save_output(dist);
    return dist;
}

}  // namespace ct

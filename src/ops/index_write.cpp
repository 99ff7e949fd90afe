// index_write.cpp - index_add, index_copy and index_put (advanced-index assignment), out of place with their
// backward formulas (written with ops, so double backward works). All three copy x and write through the one
// scatter loop of indexing.cpp (scatter_into); the in-place forms live in inplace.cpp (apply_inplace).
#include <cmath>
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "ops/elementwise.h"
#include "ops/index_common.h"
#include "ops/index_write.h"

namespace ct {
namespace {

// A contiguous copy of x (no autograd): the buffer the out-of-place ops write into.
Tensor fresh_copy(const Tensor& x) {
    Tensor out = empty_tensor(x.sizes(), x.dtype(), x.device());
    copy_into(out, x);
    return out;
}

void check_same_dtype(const char* op, const Tensor& x, const Tensor& src, const char* what) {
    if (src.dtype() != x.dtype())
        fail(CT_ERR_DTYPE, op, ": ", what, " dtype ", dtype_name(src.dtype()), " differs from input dtype ",
             dtype_name(x.dtype()));
}

// The checks torch's index_add/index_copy make: a 1-D (or 0-d) int index on x's device, src of x's dtype and
// rank with x's sizes except size index.numel() at dim. Returns the wrapped dim.
int64_t check_index_slices(const char* op, const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
    check_index(op, x, index);
    check_same_device(op, x, src);
    check_same_dtype(op, x, src, "source");
    if (index.dim() > 1) fail(CT_ERR_SHAPE, op, ": index must be 1-D, got shape ", shape_str(index.sizes()));
    int64_t d = wrap_dim(dim, x.dim(), op);
    Shape want = x.sizes();
    if (x.dim() > 0) want[d] = index.numel();
    // A 0-d input takes one index with a one-value source, or (a no-op, as torch) no index with an empty 1-D one.
    bool ok = x.dim() == 0 ? (index.numel() == 1 && src.numel() == 1 && src.dim() <= 1) ||
                                 (index.numel() == 0 && src.sizes() == Shape{0})
                           : src.sizes() == want;
    if (!ok)
        fail(CT_ERR_SHAPE, op, ": source of shape ", shape_str(src.sizes()), " must have the input's shape ",
             shape_str(x.sizes()), " except size ", index.numel(), " (the index length) in dim ", d);
    return d;
}

// x with src's slices written (or added) at index along d: the forward shared by index_add and index_copy.
Tensor write_slices(const char* op, const Tensor& x, int64_t d, const Tensor& index, const Tensor& src,
                    bool accumulate) {
    Tensor out = fresh_copy(x);
    if (index.numel() == 0) return out;
    Tensor s = x.dim() == 0 ? reshape(detach(src), {}) : src;
    scatter_into(op, out, d, index_along(index, s.sizes(), d), s, accumulate, index);
    return out;
}

// g's slices at index along d, shaped as the source ss they came from: the source gradient of index_add and
// index_copy (an empty index, which a 0-d g cannot index_select, picks nothing).
Tensor slices_at(const Tensor& g, int64_t d, const Tensor& index, const Shape& ss) {
    if (index.numel() == 0) return zeros(ss, g.dtype(), g.device());
    return reshape(index_select(g, d, index), ss);
}

// The int64 positions that indices (broadcast together, each int64/int32 and in [-size, size) of its dim,
// negatives counted from the end) pick in x viewed as [prod(first n sizes), rest...], with the broadcast
// shape. Computed on the host (bounds must be checked there anyway) and moved to x's device.
Tensor linear_index(const char* op, const Tensor& x, const TensorList& indices) {
    const int64_t n = (int64_t)indices.size();
    if (n == 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": at least one index tensor is needed");
    if (n > x.dim())
        fail(CT_ERR_INDEX, op, ": too many indices (", n, ") for a tensor of dimension ", x.dim());
    Shape b;
    for (const Tensor& t : indices) {
        check_index(op, x, t);
        b = broadcast_shapes(op, b, t.sizes());
    }
    Tensor lin = zeros(b, DType::Int64, Device{});
    int64_t* pl = lin.data<int64_t>();
    for (int64_t k = 0; k < n; ++k) {
        const int64_t size = x.sizes()[k];
        Tensor v = empty_tensor(b, DType::Int64, Device{});
        copy_into(v, broadcast_view(copy_to_device(indices[k], Device{}), b));
        const int64_t* pv = v.data<int64_t>();
        for (int64_t i = 0, m = v.numel(); i < m; ++i) {
            if (pv[i] < -size || pv[i] >= size)
                fail(CT_ERR_INDEX, op, ": index ", pv[i], " is out of bounds for dimension ", k, " with size ", size);
            pl[i] = pl[i] * size + (pv[i] < 0 ? pv[i] + size : pv[i]);  // row-major over the first n dims
        }
    }
    return copy_to_device(lin, x.device());
}

// x with values (broadcast to lin.shape + x.shape[n:]) written or added at the rows lin picks in x viewed as
// [prod(first n sizes), rest...]. lin is int64 and in range (linear_index made it). Differentiable in x, values.
Tensor index_put_linear(const Tensor& x, int64_t n, const Tensor& lin, const Tensor& values, bool accumulate) {
    const char* op = "index_put";
    const Shape& xs = x.sizes();
    Shape rows = {1}, picked = lin.sizes();
    for (int64_t k = 0; k < n; ++k) rows[0] *= xs[k];  // fits: x's element count does
    rows.insert(rows.end(), xs.begin() + n, xs.end());
    picked.insert(picked.end(), xs.begin() + n, xs.end());
    bool fits = values.dim() <= (int64_t)picked.size();
    for (int64_t k = 1; fits && k <= values.dim(); ++k) {
        int64_t v = values.sizes()[values.dim() - k];
        fits = v == 1 || v == picked[picked.size() - k];
    }
    if (!fits)
        fail(CT_ERR_SHAPE, op, ": values of shape ", shape_str(values.sizes()), " cannot be broadcast to the indexed shape ",
             shape_str(picked));
    Tensor out = fresh_copy(x);
    Tensor flat_lin = reshape(lin, {lin.numel()});
    Shape flat = rows;
    flat[0] = lin.numel();
    Tensor v = empty_tensor(picked, x.dtype(), x.device());  // values broadcast, then seen as [m, rest...]
    copy_into(v, broadcast_view(values, picked));
    v = make_view(v, flat, contiguous_strides(flat), 0);
    Tensor out_rows = make_view(out, rows, contiguous_strides(rows), 0);
    scatter_into(op, out_rows, 0, index_along(flat_lin, flat, 0), v, accumulate, flat_lin);
    if (!any_requires_grad({x, values})) return out;
    Shape vs = values.sizes();
    DType vd = values.dtype();
    auto back = [n, rows, picked, vs, vd, accumulate](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor lin = c.saved(0), gx, gv;
        // without accumulate the picked positions were overwritten: x gets no gradient there
        if (c.needs(0)) gx = accumulate ? g : index_put_linear(g, n, lin, zeros(Shape{}, g.dtype(), g.device()), false);
        if (c.needs(1)) {
            Tensor sel = index_select(reshape(g, rows), 0, reshape(lin, {lin.numel()}));
            gv = reduce_to(reshape(sel, picked), vs, vd);
        }
        return {gx, gv};
    };
    auto node = make_node(accumulate ? "IndexPutAccumulateBackward" : "IndexPutBackward", {x, values}, back);
    node->save(lin);
    set_history(out, node);
    return out;
}

}  // namespace

Tensor index_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src, double alpha) {
    // Note [Half compute]
    if (auto h = same_half_dtype(x, src))
        return round_results(index_add(as_float32(x), dim, index, as_float32(src), alpha), *h);
    const char* op = "index_add";
    int64_t d = check_index_slices(op, x, dim, index, src);
    if (!is_floating(x.dtype()) && alpha != std::floor(alpha))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": alpha ", alpha, " must be an integer for ", dtype_name(x.dtype()),
             " tensors");
    Tensor scaled = src;
    if (alpha != 1.0) {
        NoGradGuard ng;
        scaled = mul(src, wrapped_scalar(alpha, !is_floating(x.dtype())));
    }
    Tensor out = write_slices(op, x, d, index, scaled, true);
    if (!any_requires_grad({x, src})) return out;
    Shape ss = src.sizes();
    auto node = make_node("IndexAddBackward", {x, src}, [d, alpha, ss](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor gs;
        if (c.needs(1)) {
            gs = slices_at(g, d, c.saved(0), ss);
            if (alpha != 1.0) gs = mul(gs, wrapped_scalar(alpha, false));
        }
        return {c.needs(0) ? g : Tensor(), gs};
    });
    node->save(index);
    set_history(out, node);
    return out;
}

Tensor index_copy(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
    // Note [Half compute]
    if (auto h = same_half_dtype(x, src))
        return round_results(index_copy(as_float32(x), dim, index, as_float32(src)), *h);
    const char* op = "index_copy";
    int64_t d = check_index_slices(op, x, dim, index, src);
    Tensor out = write_slices(op, x, d, index, src, false);
    if (!any_requires_grad({x, src})) return out;
    Shape ss = src.sizes();
    auto node = make_node("IndexCopyBackward", {x, src}, [d, ss](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor gx, gs;
        // the copied slices overwrote x there: x gets no gradient at index
        if (c.needs(0)) gx = index_copy(g, d, c.saved(0), zeros(ss, g.dtype(), g.device()));
        if (c.needs(1)) gs = slices_at(g, d, c.saved(0), ss);
        return {gx, gs};
    });
    node->save(index);
    set_history(out, node);
    return out;
}

Tensor index_put(const Tensor& x, const TensorList& indices, const Tensor& values, bool accumulate) {
    // Note [Half compute]
    if (auto h = same_half_dtype(x, values))
        return round_results(index_put(as_float32(x), indices, as_float32(values), accumulate), *h);
    const char* op = "index_put";
    check_same_device(op, x, values);
    check_same_dtype(op, x, values, "values");
    return index_put_linear(x, (int64_t)indices.size(), linear_index(op, x, indices), values, accumulate);
}

}  // namespace ct

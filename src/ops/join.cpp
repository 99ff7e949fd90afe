// join.cpp - cat and stack (copies into slices of one output; backward narrows the gradient per input) and
// split and chunk (narrow views, differentiable through narrow), following PyTorch's shape rules.
#include <algorithm>
#include "autograd/grad_mode.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {
namespace {

// PyTorch skips legacy empty tensors of shape [0] in cat whatever the other inputs' ranks.
bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.sizes()[0] == 0; }

// Checks the inputs of cat; returns the index of the first input that is not skipped (-1 if none).
int64_t check_cat_inputs(const TensorList& ts) {
    if (ts.empty()) fail(CT_ERR_INVALID_ARGUMENT, "cat: expected a non-empty list of tensors");
    int64_t ref = -1;
    for (size_t i = 0; i < ts.size(); ++i) {
        check_same_device("cat", ts[0], ts[i]);
        if (ts[i].dim() == 0)
            fail(CT_ERR_SHAPE, "cat: zero-dimensional tensor (at position ", i, ") cannot be concatenated");
        if (ref < 0 && !is_legacy_empty(ts[i])) ref = (int64_t)i;
    }
    return ref;
}

// Shape of cat(ts, d) with ts[ref] as the reference; throws CT_ERR_SHAPE naming the first mismatch.
Shape cat_shape(const TensorList& ts, int64_t ref, int64_t d) {
    const Tensor& r = ts[ref];
    Shape out = r.sizes();
    out[d] = 0;
    for (size_t i = 0; i < ts.size(); ++i) {
        const Tensor& t = ts[i];
        if (is_legacy_empty(t)) continue;
        if (t.dim() != r.dim())
            fail(CT_ERR_SHAPE, "cat: tensors must have the same number of dims: tensor ", ref, " has shape ",
                 shape_str(r.sizes()), " but tensor ", i, " has shape ", shape_str(t.sizes()));
        for (int64_t k = 0; k < t.dim(); ++k)
            if (k != d && t.sizes()[k] != r.sizes()[k])
                fail(CT_ERR_SHAPE, "cat: sizes of tensors must match except in dimension ", d, ". Expected size ",
                     r.sizes()[k], " but got size ", t.sizes()[k], " for tensor number ", i, " in the list (shapes ",
                     shape_str(r.sizes()), " and ", shape_str(t.sizes()), ")");
        out[d] = checked_add(out[d], t.sizes()[d], "cat", "size along dim");
    }
    return out;
}

// Records cat's node: input i gets narrow(grad, d, starts[i], lengths[i]) in its own dtype.
void record_cat(Tensor& out, const TensorList& ts, int64_t d, const std::vector<int64_t>& starts) {
    if (!any_requires_grad(ts)) return;
    std::vector<int64_t> lengths;
    std::vector<DType> dtypes;
    std::vector<bool> skipped;
    for (const Tensor& t : ts) {
        skipped.push_back(is_legacy_empty(t));
        lengths.push_back(is_legacy_empty(t) ? 0 : t.sizes()[d]);
        dtypes.push_back(t.dtype());
    }
    auto node = make_node("CatBackward", ts, [d, starts, lengths, dtypes, skipped](BackwardCtx& c) {
        const Tensor& g = c.grads[0];
        TensorList r(starts.size());
        for (size_t i = 0; i < starts.size(); ++i) {
            if (!c.needs(i)) continue;
            Tensor gi = skipped[i] ? zeros({0}, g.dtype(), g.device()) : narrow(g, d, starts[i], lengths[i]);
            r[i] = gi.dtype() == dtypes[i] ? gi : to_dtype(gi, dtypes[i]);
        }
        return r;
    });
    set_history(out, node);
}

}  // namespace

Tensor cat(const TensorList& ts, int64_t dim) {
    int64_t ref = check_cat_inputs(ts);
    DType dtype = ts[0].dtype();
    for (const Tensor& t : ts) dtype = promote_types(dtype, t.dtype());
    if (ref < 0) {  // every input is a legacy empty tensor
        wrap_dim(dim, 1, "cat");
        Tensor out = empty({0}, dtype, ts[0].device());
        record_cat(out, ts, 0, std::vector<int64_t>(ts.size(), 0));
        return out;
    }
    int64_t d = wrap_dim(dim, ts[ref].dim(), "cat");
    Shape shape = cat_shape(ts, ref, d);
    Tensor out = empty(shape, dtype, ts[0].device());
    std::vector<int64_t> starts;
    int64_t at = 0;
    for (const Tensor& t : ts) {
        starts.push_back(at);
        if (is_legacy_empty(t)) continue;
        Shape part = shape;
        part[d] = t.sizes()[d];
        copy_into(make_view(out, part, out.strides(), out.offset() + at * out.strides()[d]), t);
        at += part[d];
    }
    record_cat(out, ts, d, starts);
    return out;
}

Tensor stack(const TensorList& ts, int64_t dim) {
    if (ts.empty()) fail(CT_ERR_INVALID_ARGUMENT, "stack: expected a non-empty list of tensors");
    for (size_t i = 1; i < ts.size(); ++i)
        if (ts[i].sizes() != ts[0].sizes())
            fail(CT_ERR_SHAPE, "stack: expects each tensor to be equal size, but got ", shape_str(ts[0].sizes()),
                 " at entry 0 and ", shape_str(ts[i].sizes()), " at entry ", i);
    int64_t nd = ts[0].dim();
    if (dim < -nd - 1 || dim > nd)
        fail(CT_ERR_INDEX, "stack: dim ", dim, " is out of range for stacking tensors of rank ", nd,
             " (expected in [", -nd - 1, ", ", nd, "])");
    int64_t d = dim < 0 ? dim + nd + 1 : dim;
    TensorList parts;
    for (const Tensor& t : ts) parts.push_back(unsqueeze(t, d));
    return cat(parts, d);
}

SplitPlan split_plan(const Tensor& x, int64_t split_size, int64_t dim) {
    if (x.dim() == 0) fail(CT_ERR_SHAPE, "split: expects at least a 1-dimensional tensor");
    int64_t d = wrap_dim(dim, x.dim(), "split");
    int64_t n = x.sizes()[d];
    if (split_size < 0) fail(CT_ERR_INVALID_ARGUMENT, "split: split_size must be non-negative, got ", split_size);
    if (split_size == 0 && n != 0)
        fail(CT_ERR_INVALID_ARGUMENT, "split: split_size can only be 0 if dimension size is 0, but got dimension ",
             d, " of size ", n);
    // split_size larger than the dim, or an empty dim, still gives one piece (no n + split_size: it may overflow)
    return SplitPlan{d, n == 0 ? 1 : (n - 1) / split_size + 1, split_size};
}

SplitPlan chunk_plan(const Tensor& x, int64_t chunks, int64_t dim) {
    if (x.dim() == 0) fail(CT_ERR_SHAPE, "chunk: expects at least a 1-dimensional tensor");
    if (chunks <= 0) fail(CT_ERR_INVALID_ARGUMENT, "chunk: number of chunks must be greater than 0, got ", chunks);
    int64_t d = wrap_dim(dim, x.dim(), "chunk");
    int64_t n = x.sizes()[d];
    if (n == 0) return SplitPlan{d, chunks, 0};  // torch.chunk keeps the requested number of (empty) pieces here
    int64_t size = (n - 1) / chunks + 1;         // ceil(n / chunks) without overflow
    return SplitPlan{d, (n - 1) / size + 1, size};
}

Tensor split_piece(const Tensor& x, const SplitPlan& p, int64_t i) {
    int64_t n = x.sizes()[p.dim], start = std::min(i * p.size, n);  // i < p.count, so i * p.size <= n
    return narrow(x, p.dim, start, std::min(p.size, n - start));
}

}  // namespace ct

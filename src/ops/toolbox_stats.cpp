// toolbox_stats.cpp - repeat_interleave, meshgrid and median / nanmedian (issue 14), composed of primitive ops:
// expand + reshape or index_select (repeat_interleave), reshape + expand views (meshgrid), sort + gather (median).
#include <cmath>
#include "ops/half_compute.h"
#include "core/checked_math.h"
#include "ops/device_ops.h"
#include "ops/toolbox_stats.h"

namespace ct {
namespace {

// The repeat count of each of n slices from an integer repeats tensor of one value or of n values.
std::vector<int64_t> repeat_counts(const Tensor& repeats, int64_t n, const char* op) {
    if (!is_integral(repeats.dtype()))
        fail(CT_ERR_DTYPE, op, ": repeats must be an integer tensor, got ", dtype_name(repeats.dtype()));
    if (repeats.dim() > 1)
        fail(CT_ERR_SHAPE, op, ": repeats must be a 0-d or 1-D tensor, got shape ", shape_str(repeats.sizes()));
    if (repeats.numel() != 1 && repeats.numel() != n)
        fail(CT_ERR_SHAPE, op, ": repeats (", repeats.numel(), " values) must have one value or the input's size along ",
             "dim (", n, ")");
    Tensor host = contiguous(to_dtype(detach(repeats), DType::Int64));
    std::vector<int64_t> r((size_t)host.numel());
    if (!r.empty()) copy_to_host(host, r.data(), (int64_t)(r.size() * sizeof(int64_t)));
    for (int64_t v : r)
        if (v < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": repeats can not be negative, got ", v);
    if (r.size() == 1) r.assign((size_t)n, r[0]);
    return r;
}

}  // namespace

Tensor repeat_interleave(const Tensor& x, const Tensor& repeats, int64_t repeats_scalar, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
    const char* op = "repeat_interleave";
    if (repeats.defined()) check_same_device(op, x, repeats);
    if (dim && x.dim() == 0) fail(CT_ERR_INDEX, op, ": dim ", *dim, " given but the input is 0-d");
    Tensor in = dim ? x : reshape(x, {x.numel()});
    const int64_t d = dim ? wrap_dim(*dim, x.dim(), op) : 0;
    const int64_t n = in.sizes()[d];
    std::vector<int64_t> counts;
    if (repeats.defined()) counts = repeat_counts(repeats, n, op);
    else if (repeats_scalar < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": repeats can not be negative, got ", repeats_scalar);
    int64_t total = 0;
    if (repeats.defined()) {
        for (int64_t c : counts) total = checked_add(total, c, op, "the output size");
    } else {
        total = checked_mul(n, repeats_scalar, op, "the output size");
    }
    if (output_size && *output_size != total)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": output_size ", *output_size, " does not match the sum of repeats (", total, ")");
    Shape out_shape = in.sizes();
    out_shape[d] = total;
    const int64_t out_numel = checked_numel(out_shape, op);
    if (out_numel == 0) return reshape(in.numel() == 0 ? in : narrow(in, d, 0, 0), out_shape);  // nothing to copy
    if (!repeats.defined()) {  // one count: a view repeated along a new dim after d, then merged into d
        Shape wide = in.sizes();
        wide.insert(wide.begin() + d + 1, repeats_scalar);
        return reshape(expand(unsqueeze(in, d + 1), wide), out_shape);
    }
    // per-slice counts: the slice each output position copies (index_select's gradient is the segment sum)
    Tensor index = empty_tensor({total}, DType::Int64, Device{}, op);
    int64_t* pi = index.data<int64_t>();
    for (int64_t i = 0, k = 0; i < n; ++i)
        for (int64_t c = 0; c < counts[(size_t)i]; ++c) pi[k++] = i;
    return index_select(in, d, copy_to_device(index, x.device()));
}

TensorList meshgrid(const TensorList& tensors, bool xy) {
    const char* op = "meshgrid";
    if (tensors.empty()) fail(CT_ERR_INVALID_ARGUMENT, op, ": expects a non-empty list of tensors");
    Shape grid;
    for (const Tensor& t : tensors) {
        if (t.dim() > 1) fail(CT_ERR_SHAPE, op, ": expects 0-d or 1-D tensors, got shape ", shape_str(t.sizes()));
        if (t.dtype() != tensors[0].dtype())
            fail(CT_ERR_DTYPE, op, ": expects all tensors to have one dtype, got ", dtype_name(tensors[0].dtype()), " and ",
                 dtype_name(t.dtype()));
        check_same_device(op, tensors[0], t);
        grid.push_back(t.numel());
    }
    // xy (numpy's Cartesian indexing) swaps the first two output dims
    std::vector<size_t> pos(tensors.size());
    for (size_t i = 0; i < pos.size(); ++i) pos[i] = i;
    if (xy && pos.size() >= 2) std::swap(pos[0], pos[1]), std::swap(grid[0], grid[1]);
    checked_numel(grid, op);
    TensorList out;
    for (size_t i = 0; i < tensors.size(); ++i) {
        Shape s(grid.size(), 1);
        s[pos[i]] = tensors[i].numel();
        out.push_back(expand(reshape(tensors[i], s), grid));
    }
    return out;
}

std::pair<Tensor, Tensor> median_dim(const Tensor& x, int64_t dim, bool keepdim, bool ignore_nan) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(median_dim(as_float32(x), dim, keepdim, ignore_nan), *h);
    const char* op = ignore_nan ? "nanmedian" : "median";
    if (x.dtype() == DType::Bool) fail(CT_ERR_DTYPE, op, ": not implemented for bool tensors");
    const int64_t d = wrap_dim(dim, x.dim(), op);
    if (x.dim() == 0) {  // one element: itself at position 0
        Tensor idx = zeros({}, DType::Int64, x.device());
        return {keepdim ? clone(x) : clone(x), idx};
    }
    const int64_t n = x.sizes()[d];
    if (n == 0)
        fail(CT_ERR_INDEX, op, ": expected reduction dim ", dim, " to have non-zero size (input shape ",
             shape_str(x.sizes()), ")");
    // position of the median in each row's stable ascending order (NaN last, Note [NaN order] of sort.cpp)
    Tensor order = argsort(detach(x), d, false);
    auto i64 = [&](double v) { return scalar_tensor(v, DType::Int64, x.device()); };
    Tensor pos;
    if (!is_floating(x.dtype())) {
        pos = full({}, (double)((n - 1) / 2), DType::Int64, x.device());
    } else {
        Tensor nans = sum(to_dtype(ne(detach(x), detach(x)), DType::Int64), {d}, true);
        if (ignore_nan) {  // the lower middle of the numbers; an all-NaN row gives its first NaN (position 0)
            Tensor count = sub(i64((double)n), nans);
            pos = where(gt(count, i64(0)), floor_divide(sub(count, i64(1)), i64(2)), i64(0));
        } else {  // a row with NaN gives its first NaN, which the stable order puts at n - nans
            pos = where(gt(nans, i64(0)), sub(i64((double)n), nans), i64((double)((n - 1) / 2)));
        }
    }
    Shape ks = x.sizes();
    ks[d] = 1;
    Tensor idx = gather(order, d, contiguous(expand(pos, ks)));
    Tensor values = gather(x, d, idx);  // gather's gradient goes to the chosen element
    if (!keepdim) values = squeeze(values, d), idx = squeeze(idx, d);
    return {values, idx};
}

Tensor median_all(const Tensor& x, bool ignore_nan) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(median_all(as_float32(x), ignore_nan), *h);
    const char* op = ignore_nan ? "nanmedian" : "median";
    if (x.numel() == 0) {
        if (!is_floating(x.dtype()))
            fail(CT_ERR_INVALID_ARGUMENT, op, ": the median of an empty ", dtype_name(x.dtype()), " tensor is undefined");
        return full({}, NAN, x.dtype(), x.device());
    }
    return median_dim(reshape(x, {x.numel()}), 0, false, ignore_nan).first;
}

}  // namespace ct

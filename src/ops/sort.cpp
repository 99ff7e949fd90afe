// sort.cpp - ordering ops along a dim: sort, argsort, topk, kthvalue, and unique over the flattened input.
// On CUDA (Note [Sorting on CUDA]) the ordering runs on a host copy and the results are copied back.
// Note [NaN order]: like PyTorch, NaN counts as larger than every number (last ascending, first descending);
// ties keep their input order, so every result here is deterministic (stable).
#include <algorithm>
#include <cmath>
#include <numeric>
#include "cpu/parallel.h"
#include "ops/half_compute.h"
#include "ops/device_ops.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

template <typename T> bool is_nan_value(T v) {
    if constexpr (std::is_floating_point<T>::value) return std::isnan(v);
    else return false;
}

// a before b in ascending order with NaN last (Note [NaN order]); ties are left to the caller.
template <typename T> bool less_nan_last(T a, T b) {
    if (is_nan_value(b)) return !is_nan_value(a);
    return !is_nan_value(a) && a < b;
}

// x seen as [outer, n, inner] around dim d (a 0-d tensor is one slice of length 1).
struct Slices {
    int64_t outer = 1, n = 1, inner = 1;
};
Slices slices_of(const Shape& sizes, int64_t d) {
    Slices s;
    if (sizes.empty()) return s;
    s.n = sizes[d];
    for (int64_t i = 0; i < d; ++i) s.outer *= sizes[i];
    for (int64_t i = d + 1; i < (int64_t)sizes.size(); ++i) s.inner *= sizes[i];
    return s;
}

// For every slice of x along d: orders the slice's positions with arrange(begin, end, before) and writes
// positions [first, first + m) (values and int64 indices) to outputs whose dim d has size m.
template <typename Arrange>
std::pair<Tensor, Tensor> select_slices(const Tensor& x, int64_t d, bool descending, int64_t first, int64_t m,
                                        Arrange arrange) {
    // Note [Sorting on CUDA]: there is no device sort kernel yet; one read-back and two uploads per op (the
    // backward is a scatter, which runs on the device).
    if (!x.device().is_cpu()) {
        auto r = select_slices(copy_to_device(x, Device{}), d, descending, first, m, arrange);
        return {copy_to_device(r.first, x.device()), copy_to_device(r.second, x.device())};
    }
    Tensor xc = contiguous_nograd(x);
    Shape out_shape = x.sizes();
    if (!out_shape.empty()) out_shape[d] = m;
    Tensor values = empty_tensor(out_shape, x.dtype(), x.device());
    Tensor indices = empty_tensor(out_shape, DType::Int64, x.device());
    Slices s = slices_of(x.sizes(), d);
    if (values.numel() == 0 || s.n == 0) return {values, indices};
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* px = xc.data<T>();
        T* pv = values.data<T>();
        int64_t* pi = indices.data<int64_t>();
        int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(s.n, 1));
        parallel_for(s.outer * s.inner, grain, [&](int64_t b, int64_t e) {
            std::vector<int64_t> pos((size_t)s.n);
            for (int64_t t = b; t < e; ++t) {
                int64_t o = t / s.inner, j = t % s.inner;
                const T* row = px + o * s.n * s.inner + j;
                auto before = [&](int64_t p, int64_t q) {
                    T a = row[p * s.inner], c = row[q * s.inner];
                    bool lt = descending ? less_nan_last(c, a) : less_nan_last(a, c);
                    bool gt = descending ? less_nan_last(a, c) : less_nan_last(c, a);
                    return lt || (!gt && p < q);  // equal (or both NaN): input order
                };
                std::iota(pos.begin(), pos.end(), int64_t(0));
                arrange(pos.begin(), pos.end(), before);
                int64_t out_base = o * m * s.inner + j;
                for (int64_t r = 0; r < m; ++r) {
                    pv[out_base + r * s.inner] = row[pos[first + r] * s.inner];
                    pi[out_base + r * s.inner] = pos[first + r];
                }
            }
        });
    });
    return {values, indices};
}

// Records the backward of a selection: the gradient of values goes back to the selected positions.
void record_selection(const char* name, const Tensor& x, std::pair<Tensor, Tensor>& r, int64_t d, bool keepdim) {
    if (!requires_grad(x)) return;
    Shape in_shape = x.sizes();
    auto node = make_node(name, {x}, [in_shape, d, keepdim](BackwardCtx& c) {
        Tensor g = c.grads[0], idx = c.saved(0);
        if (in_shape.empty()) return TensorList{reshape(g, in_shape)};
        if (!keepdim) g = unsqueeze(g, d), idx = unsqueeze(idx, d);
        return TensorList{scatter(zeros(in_shape, g.dtype(), g.device()), d, idx, g)};
    });
    node->save(r.second);
    set_history(r.first, node);
}

using PosIter = std::vector<int64_t>::iterator;

}  // namespace

std::pair<Tensor, Tensor> sort(const Tensor& x, int64_t dim, bool descending) {
    if (is_half(x.dtype())) {  // Note [Half compute]: a selection, exact through float32
        auto r = sort(half_to_float32(x), dim, descending);
        return {round_to_half(r.first, x.dtype()), r.second};
    }
    int64_t d = wrap_dim(dim, x.dim(), "sort");
    int64_t n = x.dim() == 0 ? 1 : x.sizes()[d];
    auto r = select_slices(x, d, descending, 0, n, [](PosIter b, PosIter e, auto before) { std::sort(b, e, before); });
    record_selection("SortBackward", x, r, d, true);
    return r;
}

Tensor argsort(const Tensor& x, int64_t dim, bool descending) {
    if (is_half(x.dtype())) return argsort(half_to_float32(x), dim, descending);
    int64_t d = wrap_dim(dim, x.dim(), "argsort");
    int64_t n = x.dim() == 0 ? 1 : x.sizes()[d];
    return select_slices(x, d, descending, 0, n, [](PosIter b, PosIter e, auto before) { std::sort(b, e, before); })
        .second;
}

std::pair<Tensor, Tensor> topk(const Tensor& x, int64_t k, int64_t dim, bool largest) {
    if (is_half(x.dtype())) {
        auto r = topk(half_to_float32(x), k, dim, largest);
        return {round_to_half(r.first, x.dtype()), r.second};
    }
    int64_t d = wrap_dim(dim, x.dim(), "topk");
    int64_t n = x.dim() == 0 ? 1 : x.sizes()[d];
    if (k < 0 || k > n)
        fail(CT_ERR_INDEX, "topk: k (", k, ") is out of range for dim ", dim, " of size ", n, " (input shape ",
             shape_str(x.sizes()), ")");
    auto r = select_slices(x, d, largest, 0, k,
                           [k](PosIter b, PosIter e, auto before) { std::partial_sort(b, b + k, e, before); });
    record_selection("TopkBackward", x, r, d, true);
    return r;
}

std::pair<Tensor, Tensor> kthvalue(const Tensor& x, int64_t k, int64_t dim, bool keepdim) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(kthvalue(as_float32(x), k, dim, keepdim), *h);
    int64_t d = wrap_dim(dim, x.dim(), "kthvalue");
    int64_t n = x.dim() == 0 ? 1 : x.sizes()[d];
    if (k < 1 || k > n)
        fail(CT_ERR_INDEX, "kthvalue: k (", k, ") is out of range for dim ", dim, " of size ", n, " (input shape ",
             shape_str(x.sizes()), "; k counts from 1)");
    auto r = select_slices(x, d, false, k - 1, 1,
                           [k](PosIter b, PosIter e, auto before) { std::nth_element(b, b + (k - 1), e, before); });
    if (!keepdim && x.dim() > 0) r = {squeeze(r.first, d), squeeze(r.second, d)};
    record_selection("KthvalueBackward", x, r, d, keepdim);
    return r;
}

UniqueResult unique(const Tensor& x, bool sorted) {
    if (auto h = half_dtype_of(x)) {  // Note [Half compute]: inverse and counts stay int64
        UniqueResult r = unique(as_float32(x), sorted);
        r.values = round_results(r.values, *h);
        return r;
    }
    if (!x.device().is_cpu()) {  // Note [Sorting on CUDA]
        UniqueResult r = unique(copy_to_device(detach(x), Device{}), sorted);
        return {copy_to_device(r.values, x.device()), copy_to_device(r.inverse, x.device()),
                copy_to_device(r.counts, x.device())};
    }
    Tensor flat = contiguous_nograd(reshape(detach(x), {x.numel()}));
    int64_t n = flat.numel();
    std::vector<int64_t> order((size_t)n), group_of((size_t)n);
    std::vector<int64_t> group_start;  // position in order where each group starts
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = flat.data<T>();
        std::iota(order.begin(), order.end(), int64_t(0));
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return less_nan_last(p[a], p[b]); });
        for (int64_t i = 0; i < n; ++i) {
            // NaN != NaN, so every NaN is its own value (as PyTorch)
            if (i == 0 || !(p[order[i]] == p[order[i - 1]])) group_start.push_back(i);
            group_of[order[i]] = (int64_t)group_start.size() - 1;
        }
    });
    int64_t groups = (int64_t)group_start.size();
    // output slot of each group: sorted order, or the order of first occurrence
    std::vector<int64_t> slot((size_t)groups);
    std::iota(slot.begin(), slot.end(), int64_t(0));
    if (!sorted) {
        std::vector<int64_t> by_first(slot);
        std::sort(by_first.begin(), by_first.end(),
                  [&](int64_t a, int64_t b) { return order[group_start[a]] < order[group_start[b]]; });
        for (int64_t s = 0; s < groups; ++s) slot[by_first[s]] = s;
    }
    UniqueResult r;
    Tensor firsts = empty_tensor({groups}, DType::Int64, x.device());
    r.counts = empty_tensor({groups}, DType::Int64, x.device());
    r.inverse = empty_tensor(x.sizes(), DType::Int64, x.device());
    int64_t *pf = firsts.data<int64_t>(), *pc = r.counts.data<int64_t>(), *pinv = r.inverse.data<int64_t>();
    for (int64_t g = 0; g < groups; ++g) {
        int64_t end = g + 1 < groups ? group_start[g + 1] : n;
        pf[slot[g]] = order[group_start[g]];
        pc[slot[g]] = end - group_start[g];
    }
    for (int64_t i = 0; i < n; ++i) pinv[i] = slot[group_of[i]];
    r.values = index_select(flat, 0, firsts);
    return r;
}

}  // namespace ct

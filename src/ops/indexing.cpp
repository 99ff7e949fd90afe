// indexing.cpp - index_select, gather, scatter, scatter_add, masked_fill, masked_select and nonzero with
// their backward formulas (written with ops, so double backward works). Indices are int32 or int64, must
// not be negative, and are bounds-checked before any memory they point at is touched (for CUDA tensors on the
// host, once per op, like a device-side assert would synchronise).
#include <limits>
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "core/scalar_math.h"
#include "cpu/index_kernels.h"
#include "cpu/kernels.h"
#include "ops/device_ops.h"
#include "ops/elementwise.h"
#include "ops/index_common.h"
#include "ops/index_write.h"

namespace ct {

void check_index(const char* op, const Tensor& x, const Tensor& index) {
    check_same_device(op, x, index);
    if (index.dtype() != DType::Int64 && index.dtype() != DType::Int32)
        fail(CT_ERR_DTYPE, op, ": index must be int64 or int32, got ", dtype_name(index.dtype()));
}

namespace {

void check_mask(const char* op, const Tensor& x, const Tensor& mask) {
    check_same_device(op, x, mask);
    if (mask.dtype() != DType::Bool) fail(CT_ERR_DTYPE, op, ": mask must be bool, got ", dtype_name(mask.dtype()));
}

// Kernels see 0-d tensors as shape [1].
Tensor as_1d(const Tensor& t) { return t.dim() == 0 ? make_view(t, {1}, {1}, t.offset()) : t; }

// t itself when its elements are dense and in row-major order, else a contiguous copy (no autograd).
Tensor materialize(const Tensor& t) {
    if (t.is_contiguous()) return t;
    Tensor c = empty_tensor(t.sizes(), t.dtype(), t.device());
    copy_into(c, t);
    return c;
}

// Throws CT_ERR_INDEX naming the first index (in row-major order) outside [0, size).
[[noreturn]] void fail_bad_index(const char* op, const Tensor& index, int64_t dim, int64_t size) {
    Tensor v = empty_tensor(index.sizes(), DType::Int64, Device{});
    copy_into(v, index);
    const int64_t* p = v.data<int64_t>();
    for (int64_t i = 0, n = v.numel(); i < n; ++i)
        if (p[i] < 0 || p[i] >= size)
            fail(CT_ERR_INDEX, op, ": index ", p[i], " is out of bounds for dim ", dim, " with size ", size,
                 p[i] < 0 ? " (negative indices are not supported)" : "");
    fail(CT_ERR_INTERNAL, op, ": an out-of-bounds index was seen but not found again");
}

// Throws CT_ERR_INDEX like fail_bad_index when an index (on a CUDA device) is outside [0, limit).
void check_device_indices(const char* op, const Tensor& index, int64_t dim, int64_t limit) {
    Tensor v = empty_tensor(index.sizes(), DType::Int64, Device{});
    copy_into(v, index);
    const int64_t* p = v.data<int64_t>();
    for (int64_t i = 0, n = v.numel(); i < n; ++i)
        if (p[i] < 0 || p[i] >= limit) fail_bad_index(op, v, dim, limit);
}

// Runs the backend's index op over (a, index, b) viewed with shape sizes and the given strides.
void cuda_index(const char* op, int32_t code, const Shape& sizes, const Tensor& a, const Shape& a_st,
                const Tensor& index, const Shape& i_st, const Tensor& b, const Shape& b_st, int64_t step) {
    ct_cuda_layout L;
    const int64_t* st[3] = {a_st.data(), i_st.data(), b_st.data()};
    if (!make_cuda_layout((int32_t)sizes.size(), sizes.data(), st, 3, &L))
        fail(CT_ERR_NOT_SUPPORTED, op, ": more than ", CT_CUDA_MAX_DIMS, " dims that cannot be merged on cuda (shape ",
             shape_str(sizes), ")");
    const int32_t dev = a.device().index;
    cuda_check(op, cuda_device_backend(op, dev).index(dev, code, &L, a.device_data(), index.device_data(),
                                                      (int32_t)index.dtype(), b.device_data(), (int32_t)a.dtype(),
                                                      step));
}


// out[p] = src[p with p[dim] := index_view[p]] for p over out_shape (index_view is laid out over it).
Tensor gather_into_new(const char* op, const Tensor& src, int64_t dim, const Tensor& index_view,
                       const Shape& out_shape, const Tensor& index) {
    Tensor out = empty_tensor(out_shape, src.dtype(), src.device());
    Tensor o = as_1d(out), s = as_1d(src), iv = as_1d(index_view);
    Shape s_st = s.strides();
    const int64_t step = s_st[dim], limit = s.sizes()[dim];
    s_st[dim] = 0;
    if (!src.device().is_cpu()) {
        check_device_indices(op, index, dim, limit);
        cuda_index(op, CT_CUDA_GATHER, o.sizes(), o, o.strides(), iv, iv.strides(), s, s_st, step);
        return out;
    }
    BadIndexFlag bad;
    dispatch_storage(src.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* po = o.data<T>();
        const T* ps = s.data<T>();
        dispatch_index(iv.dtype(), [&](auto itag) {
            using I = typename decltype(itag)::type;
            index_loop<I>(o.sizes(), o.strides(), iv.data<I>(), iv.strides(), s_st, limit, bad,
                          [&](int64_t a, int64_t v, int64_t b) { po[a] = ps[b + v * step]; });
        });
    });
    if (bad.seen.load()) fail_bad_index(op, index, dim, limit);
    return out;
}

// t placed at the origin of zeros(shape) (t's sizes <= shape): the src gradient when src exceeds index.
Tensor pad_to(const Tensor& t, const Shape& shape) {
    if (t.sizes() == shape) return t;
    Tensor out = zeros(shape, t.dtype(), t.device());
    copy_into(make_view(out, t.sizes(), out.strides(), out.offset()), t);
    if (requires_grad(t)) {
        Shape ts = t.sizes();
        auto node = make_node("PadBackward", {t}, [ts](BackwardCtx& c) {
            Tensor g = c.grads[0];
            for (size_t k = 0; k < ts.size(); ++k) g = narrow(g, (int64_t)k, 0, ts[k]);
            return TensorList{g};
        });
        set_history(out, node);
    }
    return out;
}

Tensor scatter_impl(const char* op, const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                    bool accumulate) {
    check_index(op, x, index);
    check_same_device(op, x, src);
    if (src.dtype() != x.dtype())
        fail(CT_ERR_DTYPE, op, ": src dtype ", dtype_name(src.dtype()), " differs from input dtype ",
             dtype_name(x.dtype()));
    int64_t d = wrap_dim(dim, x.dim(), op);
    check_index_fits(op, index, x, "input", d);
    check_index_fits(op, index, src, "src", -1);
    Tensor out = empty_tensor(x.sizes(), x.dtype(), x.device());
    copy_into(out, x);
    scatter_into(op, out, d, index, src, accumulate, index);
    if (!any_requires_grad({x, src})) return out;
    Shape src_shape = src.sizes();
    auto back = [d, src_shape, accumulate](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor index = c.saved(0), gx, gs;
        // scatter overwrote the indexed positions, so x gets no gradient there
        if (c.needs(0)) gx = accumulate ? g : scatter(g, d, index, zeros(index.sizes(), g.dtype(), g.device()));
        if (c.needs(1)) gs = pad_to(gather(g, d, index), src_shape);
        return {gx, gs};
    };
    auto node = make_node(accumulate ? "ScatterAddBackward" : "ScatterBackward", {x, src}, back);
    node->save(index);
    set_history(out, node);
    return out;
}

// Throws unless value converts to dtype without overflow (integers) or NaN/inf going to an integer.
void check_fill_value(const char* op, double value, DType dtype) {
    if (is_floating(dtype) || dtype == DType::Bool) return;
    double lo = dtype == DType::UInt8 ? 0.0 : dtype == DType::Int32 ? -2147483648.0 : -9223372036854775808.0;
    double hi = dtype == DType::UInt8 ? 256.0 : dtype == DType::Int32 ? 2147483648.0 : 9223372036854775808.0;
    bool fits = (value >= lo || value > lo - 1.0) && value < hi;  // truncation toward zero may land on lo
    if (!fits)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": value ", value, " cannot be converted to ", dtype_name(dtype),
             " without overflow");
}

// Row-major positions of the true elements of mask broadcast to shape, as an int64 [count] tensor on mask's
// (CUDA) device: compaction is planned on the host, which needs the count anyway to size the result.
Tensor device_mask_positions(const Tensor& mask, const Shape& shape) {
    Tensor m = materialize(broadcast_view(copy_to_device(mask, Device{}), shape));
    const bool* pm = m.data<bool>();
    std::vector<int64_t> pos;
    for (int64_t i = 0, n = m.numel(); i < n; ++i)
        if (pm[i]) pos.push_back(i);
    Tensor host = empty_tensor({(int64_t)pos.size()}, DType::Int64, Device{});
    std::copy(pos.begin(), pos.end(), host.data<int64_t>());
    return copy_to_device(host, mask.device());
}

// zeros(shape) with g's values (1-D, in order) written where mask (broadcast to shape) is true:
// the backward of masked_select.
Tensor masked_expand_cuda(const Tensor& g, const Tensor& mask, const Shape& shape) {
    Tensor pos = device_mask_positions(mask, shape), gc = materialize(g);
    if (g.dim() != 1 || pos.numel() != g.numel())
        fail(CT_ERR_SHAPE, "masked_select_backward: gradient of shape ", shape_str(g.sizes()), " does not match ",
             pos.numel(), " selected elements");
    Tensor out = zeros(shape, g.dtype(), g.device());
    cuda_index("masked_select_backward", CT_CUDA_SCATTER, {pos.numel()}, out, {0}, pos, {1}, gc, {1}, 1);
    return out;
}

// masked_expand on the CPU (no history recorded).
Tensor masked_expand_cpu(const Tensor& g, const Tensor& mask, const Shape& shape) {
    Tensor m = materialize(broadcast_view(mask, shape)), gc = materialize(g);
    const bool* pm = m.data<bool>();
    auto keep = [pm](int64_t i) { return pm[i]; };
    int64_t n = m.numel();
    CompactionPlan plan = plan_compaction(n, keep);
    if (g.dim() != 1 || plan.total != g.numel())
        fail(CT_ERR_SHAPE, "masked_select_backward: gradient of shape ", shape_str(g.sizes()), " does not match ",
             plan.total, " selected elements");
    Tensor out = zeros(shape, g.dtype(), g.device());
    dispatch_storage(g.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* po = out.data<T>();
        const T* pg = gc.data<T>();
        run_compaction(plan, n, keep, [&](int64_t i, int64_t slot) { po[i] = pg[slot]; });
    });
    return out;
}

Tensor masked_expand(const Tensor& g, const Tensor& mask, const Shape& shape) {
    Tensor out = g.device().is_cpu() ? masked_expand_cpu(g, mask, shape) : masked_expand_cuda(g, mask, shape);
    if (requires_grad(g)) {
        auto node = make_node("MaskedScatterBackward", {g}, [](BackwardCtx& c) {
            return TensorList{masked_select(c.grads[0], c.saved(0))};
        });
        node->save(mask);
        set_history(out, node);
    }
    return out;
}

}  // namespace

void check_index_fits(const char* op, const Tensor& index, const Tensor& t, const char* what, int64_t skip_dim) {
    if (index.dim() != t.dim())
        fail(CT_ERR_SHAPE, op, ": index (shape ", shape_str(index.sizes()), ") must have as many dims as ", what,
             " (shape ", shape_str(t.sizes()), ")");
    for (int64_t k = 0; k < t.dim(); ++k)
        if (k != skip_dim && index.sizes()[k] > t.sizes()[k])
            fail(CT_ERR_SHAPE, op, ": index shape ", shape_str(index.sizes()), " exceeds ", what, " shape ",
                 shape_str(t.sizes()), " in dim ", k);
}

void scatter_combine_into(const char* op, const Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src,
                          ScatterReduce mode) {
    Tensor d = as_1d(dst), iv = as_1d(index), s = as_1d(src);
    Shape shape = iv.sizes(), d_st = d.strides(), i_st = iv.strides(), s_st = s.strides();
    const int64_t step = d_st[dim], limit = d.sizes()[dim];
    d_st[dim] = 0;
    move_dim_last(dim, shape, {&d_st, &i_st, &s_st});  // one output line per thread: no two write one element
    BadIndexFlag bad;
    dispatch_all(dst.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* pd = d.data<T>();
        const T* ps = s.data<T>();
        auto run = [&](auto combine) {
            dispatch_index(iv.dtype(), [&](auto itag) {
                using I = typename decltype(itag)::type;
                index_loop<I>(shape, d_st, iv.data<I>(), i_st, s_st, limit, bad, [&](int64_t a, int64_t v, int64_t b) {
                    T& e = pd[a + v * step];
                    e = combine(e, ps[b]);
                });
            });
        };
        auto is_nan = [](T v) { return v != v; };  // integers: never
        switch (mode) {
        case ScatterReduce::Sum:
        case ScatterReduce::Mean: run([](T a, T b) { return math::wrap_add(a, b); }); break;
        case ScatterReduce::Prod: run([](T a, T b) { return math::wrap_mul(a, b); }); break;
        case ScatterReduce::Amax: run([&](T a, T b) { return is_nan(a) || (!is_nan(b) && a >= b) ? a : b; }); break;
        case ScatterReduce::Amin: run([&](T a, T b) { return is_nan(a) || (!is_nan(b) && a <= b) ? a : b; }); break;
        }
    });
    if (bad.seen.load()) fail_bad_index(op, index, dim, limit);
}

// A 1-D (or 0-d) index laid along dim over shape: the index operand of index_select and its backward.
Tensor index_along(const Tensor& index, const Shape& shape, int64_t dim) {
    Shape st(shape.size(), 0);
    if (!shape.empty()) st[dim] = index.dim() == 1 ? index.strides()[0] : 0;
    return make_view(index, shape, st, index.offset());
}

// dst[p with p[dim] := index_view[p]] = (or +=) src[p] for p over index_view's shape, in place.
// Writes run with dim innermost, one output line per thread, so duplicates resolve in index order.
void scatter_into(const char* op, const Tensor& dst, int64_t dim, const Tensor& index_view, const Tensor& src,
                  bool accumulate, const Tensor& index) {
    Tensor d = as_1d(dst), iv = as_1d(index_view), s = as_1d(src);
    Shape shape = iv.sizes(), d_st = d.strides(), i_st = iv.strides(), s_st = s.strides();
    const int64_t step = d_st[dim], limit = d.sizes()[dim];
    d_st[dim] = 0;
    if (!dst.device().is_cpu()) {  // duplicates: scatter keeps any one value, scatter_add sums (atomics)
        check_device_indices(op, index, dim, limit);
        cuda_index(op, accumulate ? CT_CUDA_SCATTER_ADD : CT_CUDA_SCATTER, shape, d, d_st, iv, i_st, s, s_st, step);
        return;
    }
    move_dim_last(dim, shape, {&d_st, &i_st, &s_st});
    BadIndexFlag bad;
    dispatch_all(dst.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* pd = d.data<T>();
        const T* ps = s.data<T>();
        dispatch_index(iv.dtype(), [&](auto itag) {
            using I = typename decltype(itag)::type;
            if (accumulate)
                index_loop<I>(shape, d_st, iv.data<I>(), i_st, s_st, limit, bad, [&](int64_t a, int64_t v, int64_t b) {
                    pd[a + v * step] = math::wrap_add(pd[a + v * step], ps[b]);  // Note [Integer wrap]
                });
            else
                index_loop<I>(shape, d_st, iv.data<I>(), i_st, s_st, limit, bad,
                              [&](int64_t a, int64_t v, int64_t b) { pd[a + v * step] = ps[b]; });
        });
    });
    if (bad.seen.load()) fail_bad_index(op, index, dim, limit);
}

Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index) {
    const char* op = "index_select";
    check_index(op, x, index);
    if (index.dim() > 1) fail(CT_ERR_SHAPE, op, ": index must be 1-D, got shape ", shape_str(index.sizes()));
    int64_t d = wrap_dim(dim, x.dim(), op);
    Shape out_shape = x.sizes();
    if (x.dim() > 0) out_shape[d] = index.numel();
    else if (index.numel() != 1)
        fail(CT_ERR_INDEX, op, ": index for a 0-d input must have exactly one value, got ", index.numel());
    Tensor out = gather_into_new(op, x, d, index_along(index, out_shape, d), out_shape, index);
    if (!requires_grad(x)) return out;
    Shape xs = x.sizes();
    auto node = make_node("IndexSelectBackward", {x}, [d, xs](BackwardCtx& c) {
        const Tensor& g = c.grads[0];
        return TensorList{index_add(zeros(xs, g.dtype(), g.device()), d, c.saved(0), g, 1.0)};
    });
    node->save(index);
    set_history(out, node);
    return out;
}

Tensor gather(const Tensor& x, int64_t dim, const Tensor& index) {
    const char* op = "gather";
    check_index(op, x, index);
    int64_t d = wrap_dim(dim, x.dim(), op);
    check_index_fits(op, index, x, "input", d);
    Tensor out = gather_into_new(op, x, d, index, index.sizes(), index);
    if (!requires_grad(x)) return out;
    Shape xs = x.sizes();
    auto node = make_node("GatherBackward", {x}, [d, xs](BackwardCtx& c) {
        const Tensor& g = c.grads[0];
        return TensorList{scatter_add(zeros(xs, g.dtype(), g.device()), d, c.saved(0), g)};
    });
    node->save(index);
    set_history(out, node);
    return out;
}

Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
    // Note [Half compute]
    if (auto h = same_half_dtype(x, src)) return round_results(scatter(as_float32(x), dim, index, as_float32(src)), *h);
    return scatter_impl("scatter", x, dim, index, src, false);
}

Tensor scatter_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
    // Note [Half compute]
    if (auto h = same_half_dtype(x, src))
        return round_results(scatter_add(as_float32(x), dim, index, as_float32(src)), *h);
    return scatter_impl("scatter_add", x, dim, index, src, true);
}

Tensor masked_fill(const Tensor& x, const Tensor& mask, double value) {
    const char* op = "masked_fill";
    check_mask(op, x, mask);
    check_fill_value(op, value, x.dtype());
    Shape shape = broadcast_shapes(op, x.sizes(), mask.sizes());
    Tensor xb = broadcast_view(x, shape), mb = broadcast_view(mask, shape);
    Tensor out = empty_tensor(shape, x.dtype(), x.device());
    if (!x.device().is_cpu()) {
        ct_cuda_layout L;
        const int64_t* st[3] = {out.strides().data(), xb.strides().data(), mb.strides().data()};
        if (!make_cuda_layout((int32_t)shape.size(), shape.data(), st, 3, &L))
            fail(CT_ERR_NOT_SUPPORTED, op, ": more than ", CT_CUDA_MAX_DIMS, " dims that cannot be merged on cuda");
        const int32_t dev = x.device().index;
        cuda_check(op, cuda_device_backend(op, dev).masked_fill(dev, &L, out.device_data(), xb.device_data(),
                                                                mb.device_data(), (int32_t)x.dtype(), value));
    } else dispatch_storage(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T v = from_double<T>(value);
        map2<T, T, bool>(out, xb, mb, [v](T a, bool m) { return m ? v : a; });
    });
    if (!requires_grad(x)) return out;
    Shape xs = x.sizes();
    DType dx = x.dtype();
    auto node = make_node("MaskedFillBackward", {x}, [xs, dx](BackwardCtx& c) {
        return TensorList{reduce_to(masked_fill(c.grads[0], c.saved(0), 0.0), xs, dx)};
    });
    node->save(mask);
    set_history(out, node);
    return out;
}

Tensor masked_select(const Tensor& x, const Tensor& mask) {
    const char* op = "masked_select";
    check_mask(op, x, mask);
    Shape shape = broadcast_shapes(op, x.sizes(), mask.sizes());
    Tensor out, xc = materialize(broadcast_view(x, shape));
    if (!x.device().is_cpu()) {  // positions planned on the host, then a gather of the flat input
        Tensor pos = device_mask_positions(mask, shape);
        out = empty_tensor({pos.numel()}, x.dtype(), x.device());
        cuda_index(op, CT_CUDA_GATHER, {pos.numel()}, out, {1}, pos, {1}, xc, {0}, 1);
    } else {
        Tensor m = materialize(broadcast_view(mask, shape));
        const bool* pm = m.data<bool>();
        auto keep = [pm](int64_t i) { return pm[i]; };
        const int64_t n = m.numel();
        CompactionPlan plan = plan_compaction(n, keep);
        out = empty_tensor({plan.total}, x.dtype(), x.device());
        dispatch_storage(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* po = out.data<T>();
            const T* px = xc.data<T>();
            run_compaction(plan, n, keep, [&](int64_t i, int64_t slot) { po[slot] = px[i]; });
        });
    }
    if (!requires_grad(x)) return out;
    Shape xs = x.sizes();
    DType dx = x.dtype();
    auto node = make_node("MaskedSelectBackward", {x}, [xs, dx, shape](BackwardCtx& c) {
        return TensorList{reduce_to(masked_expand(c.grads[0], c.saved(0), shape), xs, dx)};
    });
    node->save(mask);
    set_history(out, node);
    return out;
}

Tensor nonzero(const Tensor& x) {
    if (half_dtype_of(x)) return nonzero(as_float32(x));  // Note [Half compute]: indices stay int64
    if (is_complex(x.dtype())) return nonzero(complex_truth(x));
    // The result's size depends on the values: CUDA tensors are read back once and the indices copied over.
    if (!x.device().is_cpu()) return copy_to_device(nonzero(copy_to_device(x, Device{})), x.device());
    Tensor xc = materialize(x);
    const int64_t n = xc.numel(), nd = x.dim();
    const Shape sizes = x.sizes();
    Tensor out;
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* px = xc.data<T>();
        auto keep = [px](int64_t i) { return px[i] != T(0); };  // NaN counts as nonzero
        CompactionPlan plan = plan_compaction(n, keep);
        out = empty_tensor({plan.total, nd}, DType::Int64, x.device());
        int64_t* po = out.data<int64_t>();
        run_compaction(plan, n, keep, [&](int64_t i, int64_t slot) {
            for (int64_t k = nd - 1; k >= 0; --k) {
                po[slot * nd + k] = i % sizes[k];
                i /= sizes[k];
            }
        });
    });
    return out;
}

}  // namespace ct

// nn_pool.cpp - max_pool2d, avg_pool2d (NCHW or CHW; PyTorch's dilation, ceil_mode, count_include_pad,
// divisor_override, return_indices) and adaptive_avg/max_pool2d. Window math: core/pool_window.h, shared with
// the CUDA kernels of cuda/conv.cuh that CUDA tensors run (ops/device_conv.cpp).
// Each backward is an op of its own (max_pool2d_scatter, avg_pool2d_backward) whose adjoint is the forward
// selection again, so pooling is twice differentiable. Planes (n, c) run in parallel.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")  // branch-free selects in the max-pooling window loop
#endif
#include <cmath>
#include <cstring>
#include <type_traits>
#include "autograd/grad_mode.h"
#include "core/pool_window.h"
#include "ops/half_compute.h"
#include "ops/device_conv.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// planes of [H, W] pooled into [OH, OW]; g.base.planes is the plane count.
struct PoolGeom {
    ct_cuda_pool2d_ex g;
    int64_t planes() const { return g.base.planes; }
    int64_t in_plane() const { return g.base.H * g.base.W; }
    int64_t out_plane() const { return g.base.OH * g.base.OW; }
};

void check_pool_input(const char* op, const Tensor& x) {
    if (x.dim() != 4 && x.dim() != 3)
        fail(CT_ERR_SHAPE, op, ": expected input with 4 dims [N, C, H, W] (or 3 dims [C, H, W]), got ",
             shape_str(x.sizes()));
    check_floating(op, x);
}

PoolGeom geom_of(const Tensor& x) {
    PoolGeom pg{};
    const int64_t nd = x.dim();
    pg.g.base.planes = 1;
    for (int64_t d = 0; d < nd - 2; ++d) pg.g.base.planes *= x.sizes()[d];
    pg.g.base.H = x.sizes()[nd - 2];
    pg.g.base.W = x.sizes()[nd - 1];
    pg.g.dilation[0] = pg.g.dilation[1] = 1;
    pg.g.count_include_pad = 1;
    return pg;
}

}  // namespace

// PyTorch's pooling_output_shape: floor (or ceil) division, and with ceil_mode the last window must start
// inside the input or its left padding. Overflow-checked: the kernel span, the padded size and the stride may
// each be near int64's limits.
int64_t pooled_size(const char* op, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const int64_t span = checked_add(checked_mul(d, k - 1, op, "dilation * (kernel - 1)"), 1, op, "kernel span");
    const int64_t padded = checked_add(in, checked_mul(2, p, op, "padding"), op, "padded size");
    const int64_t a = padded - span;  // both in [0, INT64_MAX]: no overflow
    const int64_t q = a / s, r = a % s;
    int64_t out = (ceil_mode ? q + (r > 0) : q - (r < 0)) + 1;
    int64_t last_start;
    if (ceil_mode && (!mul_fits(out - 1, s, &last_start) || last_start >= in + p)) --out;
    return out;
}

namespace {

PoolGeom pool_geom(const char* op, const Tensor& x, const Pool2dParams& p) {
    check_pool_input(op, x);
    for (int i = 0; i < 2; ++i) {
        if (p.kernel[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": kernel size must be positive, got ", p.kernel[i]);
        if (p.stride[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": stride must be positive, got ", p.stride[i]);
        if (p.dilation[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": dilation must be positive, got ", p.dilation[i]);
        if (p.padding[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": padding must be non-negative, got ", p.padding[i]);
        if (p.padding[i] > p.kernel[i] / 2)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": padding ", p.padding[i], " should be at most half of kernel size ",
                 p.kernel[i]);
    }
    if (p.divisor_override < 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": divisor_override must be positive (0 = none), got ", p.divisor_override);
    PoolGeom pg = geom_of(x);
    ct_cuda_pool2d_ex& g = pg.g;
    for (int i = 0; i < 2; ++i) {
        g.base.kernel[i] = p.kernel[i];
        g.base.stride[i] = p.stride[i];
        g.base.padding[i] = p.padding[i];
        g.dilation[i] = p.dilation[i];
    }
    g.count_include_pad = p.count_include_pad ? 1 : 0;
    g.divisor_override = p.divisor_override;
    g.base.OH = pooled_size(op, g.base.H, p.kernel[0], p.stride[0], p.padding[0], p.dilation[0], p.ceil_mode);
    g.base.OW = pooled_size(op, g.base.W, p.kernel[1], p.stride[1], p.padding[1], p.dilation[1], p.ceil_mode);
    if (g.base.OH < 1 || g.base.OW < 1)
        fail(CT_ERR_SHAPE, op, ": output size ", g.base.OH, "x", g.base.OW, " is too small (< 1) for input ",
             shape_str(x.sizes()), ", kernel ", p.kernel[0], "x", p.kernel[1], ", stride ", p.stride[0], "x",
             p.stride[1], ", padding ", p.padding[0], "x", p.padding[1], ", dilation ", p.dilation[0], "x",
             p.dilation[1], p.ceil_mode ? ", ceil_mode" : "");
    return pg;
}

Shape out_shape(const Tensor& x, const PoolGeom& g);

PoolGeom adaptive_geom(const char* op, const Tensor& x, const int64_t out_size[2]) {
    check_pool_input(op, x);
    if (out_size[0] < 0 || out_size[1] < 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": output size must be non-negative, got ", out_size[0], "x", out_size[1]);
    for (int64_t d = x.dim() == 4 ? 1 : 0; d < x.dim(); ++d)
        if (x.sizes()[d] == 0)
            fail(CT_ERR_SHAPE, op, ": expected input with non-zero sizes for non-batch dims, got ",
                 shape_str(x.sizes()));
    PoolGeom pg = geom_of(x);
    pg.g.adaptive = 1;
    pg.g.base.OH = out_size[0];
    pg.g.base.OW = out_size[1];
    if (checked_numel(out_shape(x, pg), op) > 0)  // the window math (pool_window.h) multiplies in by out
        for (int a = 0; a < 2; ++a)
            checked_mul(checked_add(pool::in_size(pg.g, a), 1, op, "input size + 1"),
                        checked_add(out_size[a], 1, op, "output size + 1"), op,
                        "(input size + 1) * (output size + 1)");
    return pg;
}

Shape out_shape(const Tensor& x, const PoolGeom& g) {
    Shape s = x.sizes();
    s[s.size() - 2] = g.g.base.OH;
    s[s.size() - 1] = g.g.base.OW;
    return s;
}

// fn(plane) for every plane; nothing when the output is empty (its other dims may be huge: Note [Shape bound]).
template <typename F> void for_each_plane(const PoolGeom& g, F fn) {
    if (g.out_plane() == 0) return;
    parallel_for(g.planes(), std::max<int64_t>(1, 16384 / std::max<int64_t>(1, g.in_plane() + g.out_plane())),
                 [&](int64_t p0, int64_t p1) {
                     for (int64_t pl = p0; pl < p1; ++pl) fn(pl);
                 });
}

// ---- max pooling: forward with argmax (flat h * W + w within the plane, -1 for a window of padding only),
// scatter and gather ----

// keep_mask all ones -> keep, zero -> take (a bitwise blend the compiler cannot turn into a branch).
template <typename T> inline T bit_select(int64_t keep_mask, T keep, T take) {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    U k, t;
    std::memcpy(&k, &keep, sizeof k);
    std::memcpy(&t, &take, sizeof t);
    const U m = (U)keep_mask, r = (k & m) | (t & ~m);
    T out;
    std::memcpy(&out, &r, sizeof out);
    return out;
}

// Argmax position of the first tap of output (oh, ow), -1 when the window holds no input element.
inline int64_t first_tap(const ct_cuda_pool2d_ex& g, const pool::Taps& th, int64_t ow) {
    const pool::Taps tw = pool::taps(g, 1, ow);
    return th.count() && tw.count() ? th.first * g.base.W + tw.first : -1;
}

// One output row of (non-adaptive) max pooling. Windows are scanned in row-major order (first maximum wins, the
// last NaN wins, like PyTorch), but the loop over output columns is innermost so that windows run independently.
template <typename T> void max_pool_row(const T* x, T* o, int64_t* ix, const ct_cuda_pool2d_ex& g, int64_t oh) {
    const int64_t W = g.base.W, OW = g.base.OW, s = g.base.stride[1];
    const pool::Taps th = pool::taps(g, 0, oh);
    for (int64_t ow = 0; ow < OW; ++ow) {
        o[ow] = -INFINITY;
        ix[ow] = first_tap(g, th, ow);
    }
    for (int64_t h = th.first; h < th.end; h += th.step)
        for (int64_t j = 0; j < g.base.kernel[1]; ++j) {
            // columns ow whose tap j lies inside the input: 0 <= ow * s + c < W
            const int64_t c = j * g.dilation[1] - g.base.padding[1];
            if (c > W - 1) break;  // c grows with j
            const int64_t ow0 = c < 0 ? (-c - 1) / s + 1 : 0, ow1 = std::min(OW, (W - 1 - c) / s + 1);
            const T* xr = x + h * W;
            for (int64_t ow = ow0; ow < ow1; ++ow) {
                const int64_t iw = ow * s + c;
                const T v = xr[iw], best = o[ow];
                // like PyTorch: a NaN is always taken (propagates); blended with masks, not branches, because
                // which element wins is unpredictable
                const int64_t keep = (int64_t)((v > best) | (v != v)) - 1;  // 0 to take v, all ones to keep
                o[ow] = bit_select(keep, best, v);
                ix[ow] = ((h * W + iw) & ~keep) | (ix[ow] & keep);
            }
        }
}

// True for the common 2x2 window, stride 2, no padding, no dilation whose windows all lie inside the input
// (floor mode, or a ceil mode that adds no partial window): max_pool_row_2x2 then serves every row.
inline bool is_full_2x2(const ct_cuda_pool2d_ex& g) {
    for (int a = 0; a < 2; ++a)
        if (g.base.kernel[a] != 2 || g.base.stride[a] != 2 || g.base.padding[a] != 0 || g.dilation[a] != 1)
            return false;
    return !g.adaptive && 2 * g.base.OH <= g.base.H && 2 * g.base.OW <= g.base.W;
}

// One output row of max pooling under is_full_2x2: the same scan order and NaN rule as max_pool_row (taps
// (0,0), (0,1), (1,0), (1,1); a later tap wins when greater or NaN). The row is deinterleaved into even and
// odd columns first so that the window loop reads unit-stride arrays and vectorises; each window's best and
// its offset in the window are selects of the value's width.
template <typename T> void max_pool_row_2x2(const T* x, T* o, int64_t* ix, int64_t W, int64_t OW, int64_t oh) {
    using Off = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;  // offsets < 2 W + 2: the caller checks W
    constexpr int64_t kBlock = 64;
    T a[kBlock], b[kBlock], c[kBlock], d[kBlock], best[kBlock];
    Off off[kBlock];
    const T* r0 = x + 2 * oh * W;
    const T* r1 = r0 + W;
    const Off w = (Off)W;
    for (int64_t o0 = 0; o0 < OW; o0 += kBlock) {
        const int64_t n = std::min(kBlock, OW - o0);
        for (int64_t j = 0; j < n; ++j) {
            a[j] = r0[2 * (o0 + j)], b[j] = r0[2 * (o0 + j) + 1];
            c[j] = r1[2 * (o0 + j)], d[j] = r1[2 * (o0 + j) + 1];
        }
        for (int64_t j = 0; j < n; ++j) {
            T m = a[j];
            Off at = 0;
            bool take = (b[j] > m) | (b[j] != b[j]);
            m = take ? b[j] : m, at = take ? Off(1) : at;
            take = (c[j] > m) | (c[j] != c[j]);
            m = take ? c[j] : m, at = take ? w : at;
            take = (d[j] > m) | (d[j] != d[j]);
            m = take ? d[j] : m, at = take ? Off(w + 1) : at;
            best[j] = m, off[j] = at;
        }
        const int64_t base = 2 * oh * W + 2 * o0;
        for (int64_t j = 0; j < n; ++j) {
            o[o0 + j] = best[j];
            ix[o0 + j] = base + 2 * j + (int64_t)off[j];
        }
    }
}

// One output row of adaptive max pooling (windows of varying size), same scan order and NaN rule.
template <typename T> void adaptive_max_row(const T* x, T* o, int64_t* ix, const ct_cuda_pool2d_ex& g, int64_t oh) {
    const pool::Taps th = pool::taps(g, 0, oh);
    for (int64_t ow = 0; ow < g.base.OW; ++ow) {
        const pool::Taps tw = pool::taps(g, 1, ow);
        T best = -INFINITY;
        int64_t at = first_tap(g, th, ow);
        for (int64_t h = th.first; h < th.end; ++h)
            for (int64_t w = tw.first; w < tw.end; ++w) {
                const T v = x[h * g.base.W + w];
                if (v > best || v != v) {
                    best = v;
                    at = h * g.base.W + w;
                }
            }
        o[ow] = best;
        ix[ow] = at;
    }
}

std::pair<Tensor, Tensor> max_pool_kernel(const Tensor& xc, const PoolGeom& g, const Shape& oshape) {
    if (!xc.device().is_cpu()) {
        Tensor idx;
        Tensor out = cuda_pool2d(CT_CUDA_MAX_POOL, g.g, xc, Tensor(), oshape, &idx);
        return {out, idx};
    }
    Tensor out = empty_tensor(oshape, xc.dtype(), xc.device());
    Tensor idx = empty_tensor(oshape, DType::Int64, xc.device());
    dispatch_float(xc.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const bool full_2x2 = is_full_2x2(g.g) && (sizeof(T) == 8 || g.g.base.W < (int64_t(1) << 30));
        for_each_plane(g, [&](int64_t pl) {
            const T* x = xc.data<T>() + pl * g.in_plane();
            T* o = out.data<T>() + pl * g.out_plane();
            int64_t* ix = idx.data<int64_t>() + pl * g.out_plane();
            for (int64_t oh = 0; oh < g.g.base.OH; ++oh) {
                const int64_t r = oh * g.g.base.OW;
                if (full_2x2) max_pool_row_2x2<T>(x, o + r, ix + r, g.g.base.W, g.g.base.OW, oh);
                else if (g.g.adaptive) adaptive_max_row<T>(x, o + r, ix + r, g.g, oh);
                else max_pool_row<T>(x, o + r, ix + r, g.g, oh);
            }
        });
    });
    return {out, idx};
}

Tensor max_pool_gather(const Tensor& src, const Tensor& idx, const PoolGeom& g);

// grad_x[plane][idx] += g: the backward of max pooling (linear in g; its adjoint is max_pool_gather).
Tensor max_pool_scatter(const Tensor& go, const Tensor& idx, const PoolGeom& g, const Shape& in_shape) {
    Tensor gc = contiguous_nograd(go);
    Tensor gx = !go.device().is_cpu() ? cuda_pool2d(CT_CUDA_MAX_POOL_BACKWARD, g.g, gc, idx, in_shape, nullptr)
                                      : zeros(in_shape, go.dtype(), go.device());
    if (go.device().is_cpu()) dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* s = gc.data<T>() + pl * g.out_plane();
            const int64_t* ix = idx.data<int64_t>() + pl * g.out_plane();
            T* d = gx.data<T>() + pl * g.in_plane();
            for (int64_t k = 0; k < g.out_plane(); ++k)
                if (ix[k] >= 0) d[ix[k]] += s[k];
        });
    });
    if (!requires_grad(go)) return gx;
    auto node = make_node("MaxPool2dBackwardBackward", {go}, [g](BackwardCtx& c) {
        return TensorList{max_pool_gather(c.grads[0], c.saved(0), g)};
    });
    node->save(idx);
    set_history(gx, node);
    return gx;
}

// out[plane][k] = src[plane][idx[k]] (the adjoint of max_pool_scatter; 0 where idx is -1).
Tensor max_pool_gather(const Tensor& src, const Tensor& idx, const PoolGeom& g) {
    Tensor sc = contiguous_nograd(src);
    Tensor out = !src.device().is_cpu() ? cuda_pool2d(CT_CUDA_MAX_POOL_GATHER, g.g, sc, idx, idx.sizes(), nullptr)
                                        : empty_tensor(idx.sizes(), src.dtype(), src.device());
    if (src.device().is_cpu()) dispatch_float(src.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* s = sc.data<T>() + pl * g.in_plane();
            const int64_t* ix = idx.data<int64_t>() + pl * g.out_plane();
            T* d = out.data<T>() + pl * g.out_plane();
            for (int64_t k = 0; k < g.out_plane(); ++k) d[k] = ix[k] >= 0 ? s[ix[k]] : T(0);
        });
    });
    if (!requires_grad(src)) return out;
    Shape in_shape = src.sizes();
    auto node = make_node("MaxPool2dGatherBackward", {src}, [g, in_shape](BackwardCtx& c) {
        return TensorList{max_pool_scatter(c.grads[0], c.saved(0), g, in_shape)};
    });
    node->save(idx);
    set_history(out, node);
    return out;
}

std::pair<Tensor, Tensor> max_pool_forward(const Tensor& x, const PoolGeom& g, const char* node_name) {
    auto res = max_pool_kernel(contiguous_nograd(x), g, out_shape(x, g));
    if (!requires_grad(x)) return res;
    Shape in_shape = x.sizes();
    auto node = make_node(node_name, {x}, [g, in_shape](BackwardCtx& c) {
        return TensorList{max_pool_scatter(c.grads[0], c.saved(0), g, in_shape)};
    });
    node->save(res.second);
    set_history(res.first, node);
    return res;
}

// ---- average pooling (divisor from pool::divisor: window size with or without padding, or the override) ----

Tensor avg_pool_kernel(const Tensor& xc, const PoolGeom& g, const Shape& oshape) {
    if (!xc.device().is_cpu()) return cuda_pool2d(CT_CUDA_AVG_POOL, g.g, xc, Tensor(), oshape, nullptr);
    Tensor out = empty_tensor(oshape, xc.dtype(), xc.device());
    const int64_t W = g.g.base.W, OW = g.g.base.OW;
    dispatch_float(xc.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* x = xc.data<T>() + pl * g.in_plane();
            T* o = out.data<T>() + pl * g.out_plane();
            for (int64_t oh = 0; oh < g.g.base.OH; ++oh) {
                const pool::Taps th = pool::taps(g.g, 0, oh);
                for (int64_t ow = 0; ow < OW; ++ow) {
                    const pool::Taps tw = pool::taps(g.g, 1, ow);
                    T s = 0;
                    for (int64_t h = th.first; h < th.end; ++h)
                        for (int64_t w = tw.first; w < tw.end; ++w) s += x[h * W + w];
                    o[oh * OW + ow] = s / (T)pool::divisor(g.g, oh, ow);
                }
            }
        });
    });
    return out;
}

Tensor avg_pool_forward(const Tensor& x, const PoolGeom& g, const char* node_name);

// Spreads each output gradient evenly over its window; linear in g, its adjoint is the average pooling itself.
Tensor avg_pool_backward(const Tensor& go, const PoolGeom& g, const Shape& in_shape) {
    Tensor gc = contiguous_nograd(go);
    Tensor gx = !go.device().is_cpu() ? cuda_pool2d(CT_CUDA_AVG_POOL_BACKWARD, g.g, gc, Tensor(), in_shape, nullptr)
                                      : zeros(in_shape, go.dtype(), go.device());
    const int64_t W = g.g.base.W, OW = g.g.base.OW;
    if (go.device().is_cpu()) dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* s = gc.data<T>() + pl * g.out_plane();
            T* d = gx.data<T>() + pl * g.in_plane();
            for (int64_t oh = 0; oh < g.g.base.OH; ++oh) {
                const pool::Taps th = pool::taps(g.g, 0, oh);
                for (int64_t ow = 0; ow < OW; ++ow) {
                    const pool::Taps tw = pool::taps(g.g, 1, ow);
                    const T v = s[oh * OW + ow] / (T)pool::divisor(g.g, oh, ow);
                    for (int64_t h = th.first; h < th.end; ++h)
                        for (int64_t w = tw.first; w < tw.end; ++w) d[h * W + w] += v;
                }
            }
        });
    });
    if (!requires_grad(go)) return gx;
    auto node = make_node("AvgPool2dBackwardBackward", {go}, [g](BackwardCtx& c) {
        return TensorList{
            avg_pool_forward(c.grads[0], g, g.g.adaptive ? "AdaptiveAvgPool2dBackward" : "AvgPool2dBackward")};
    });
    set_history(gx, node);
    return gx;
}

// x's shape must be the one g was made for.
Tensor avg_pool_forward(const Tensor& x, const PoolGeom& g, const char* node_name) {
    Tensor out = avg_pool_kernel(contiguous_nograd(x), g, out_shape(x, g));
    if (!requires_grad(x)) return out;
    Shape in_shape = x.sizes();
    auto node = make_node(node_name, {x}, [g, in_shape](BackwardCtx& c) {
        return TensorList{avg_pool_backward(c.grads[0], g, in_shape)};
    });
    set_history(out, node);
    return out;
}

}  // namespace

std::pair<Tensor, Tensor> max_pool2d_with_indices(const Tensor& x, const Pool2dParams& p) {
    if (is_half(x.dtype())) {  // Note [Half compute]
        auto r = max_pool2d_with_indices(half_to_float32(x), p);
        return {round_to_half(r.first, x.dtype()), r.second};
    }
    return max_pool_forward(x, pool_geom("max_pool2d", x, p), "MaxPool2dBackward");
}

Tensor max_pool2d(const Tensor& x, const Pool2dParams& p) { return max_pool2d_with_indices(x, p).first; }

Tensor avg_pool2d(const Tensor& x, const Pool2dParams& p) {
    if (is_half(x.dtype())) return round_to_half(avg_pool2d(half_to_float32(x), p), x.dtype());  // Note [Half compute]
    return avg_pool_forward(x, pool_geom("avg_pool2d", x, p), "AvgPool2dBackward");
}

Tensor adaptive_avg_pool2d(const Tensor& x, const int64_t output_size[2]) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(adaptive_avg_pool2d(as_float32(x), output_size), *h);
    return avg_pool_forward(x, adaptive_geom("adaptive_avg_pool2d", x, output_size), "AdaptiveAvgPool2dBackward");
}

std::pair<Tensor, Tensor> adaptive_max_pool2d(const Tensor& x, const int64_t output_size[2]) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(adaptive_max_pool2d(as_float32(x), output_size), *h);
    return max_pool_forward(x, adaptive_geom("adaptive_max_pool2d", x, output_size), "AdaptiveMaxPool2dBackward");
}

}  // namespace ct

// nn_pool.cpp - max_pool2d and avg_pool2d (NCHW or CHW; kernel, stride, padding; count_include_pad=True);
// CUDA tensors run the kernels of cuda/conv.cuh (ops/device_conv.cpp).
// Each backward is an op of its own (max_pool2d_scatter, avg_pool2d_backward) whose adjoint is the forward
// selection again, so pooling is twice differentiable. Planes (n, c) run in parallel.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")  // branch-free selects in the max-pooling window loop
#endif
#include <cmath>
#include <cstring>
#include <type_traits>
#include "autograd/grad_mode.h"
#include "ops/device_conv.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

struct PoolGeom {
    int64_t planes, H, W, OH, OW;
    Pool2dParams p;
    int64_t in_plane() const { return H * W; }
    int64_t out_plane() const { return OH * OW; }
    // Window of output (oh, ow), clipped to the input: rows [h0, h1), cols [w0, w1).
    void window(int64_t oh, int64_t ow, int64_t& h0, int64_t& h1, int64_t& w0, int64_t& w1) const {
        h0 = oh * p.stride[0] - p.padding[0];
        w0 = ow * p.stride[1] - p.padding[1];
        h1 = std::min(h0 + p.kernel[0], H);
        w1 = std::min(w0 + p.kernel[1], W);
        h0 = std::max<int64_t>(h0, 0);
        w0 = std::max<int64_t>(w0, 0);
    }
};

PoolGeom pool_geom(const char* op, const Tensor& x, const Pool2dParams& p) {
    if (x.dim() != 4 && x.dim() != 3)
        fail(CT_ERR_SHAPE, op, ": expected input with 4 dims [N, C, H, W] (or 3 dims [C, H, W]), got ",
             shape_str(x.sizes()));
    check_floating(op, x);
    for (int i = 0; i < 2; ++i) {
        if (p.kernel[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": kernel size must be positive, got ", p.kernel[i]);
        if (p.stride[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": stride must be positive, got ", p.stride[i]);
        if (p.padding[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": padding must be non-negative, got ", p.padding[i]);
        if (p.padding[i] > p.kernel[i] / 2)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": padding ", p.padding[i], " should be at most half of kernel size ",
                 p.kernel[i]);
    }
    const int64_t nd = x.dim();
    PoolGeom g{1, x.sizes()[nd - 2], x.sizes()[nd - 1], 0, 0, p};
    for (int64_t d = 0; d < nd - 2; ++d) g.planes *= x.sizes()[d];
    int64_t nh = g.H + 2 * p.padding[0] - p.kernel[0], nw = g.W + 2 * p.padding[1] - p.kernel[1];
    if (nh < 0 || nw < 0)
        fail(CT_ERR_SHAPE, op, ": output size would be <= 0 for input ", shape_str(x.sizes()), ", kernel ", p.kernel[0],
             "x", p.kernel[1], ", padding ", p.padding[0], "x", p.padding[1]);
    g.OH = nh / p.stride[0] + 1;
    g.OW = nw / p.stride[1] + 1;
    return g;
}

Shape out_shape(const Tensor& x, const PoolGeom& g) {
    Shape s = x.sizes();
    s[s.size() - 2] = g.OH;
    s[s.size() - 1] = g.OW;
    return s;
}

// The backend's description of g (CUDA tensors run the kernels of cuda/conv.cuh).
ct_cuda_pool2d cuda_pool(const PoolGeom& g) {
    const Pool2dParams& p = g.p;
    return ct_cuda_pool2d{g.planes, g.H, g.W, g.OH, g.OW, {p.kernel[0], p.kernel[1]}, {p.stride[0], p.stride[1]},
                          {p.padding[0], p.padding[1]}};
}

template <typename F> void for_each_plane(const PoolGeom& g, F fn) {
    parallel_for(g.planes, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, g.in_plane() + g.out_plane())),
                 [&](int64_t p0, int64_t p1) {
                     for (int64_t pl = p0; pl < p1; ++pl) fn(pl);
                 });
}

// ---- max pooling: forward with argmax (flat h * W + w within the plane), scatter and gather ----

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

// One output row of max pooling. Windows are scanned in row-major order (first maximum wins, the last NaN wins,
// like PyTorch), but the loop over output columns is innermost so that consecutive windows run independently.
template <typename T> void max_pool_row(const T* x, T* o, int64_t* ix, const PoolGeom& g, int64_t oh) {
    const Pool2dParams& p = g.p;
    const int64_t h_start = oh * p.stride[0] - p.padding[0];
    const int64_t h0 = std::max<int64_t>(h_start, 0), h1 = std::min(h_start + p.kernel[0], g.H);
    for (int64_t ow = 0; ow < g.OW; ++ow) {
        o[ow] = -INFINITY;
        ix[ow] = h0 * g.W + std::max<int64_t>(ow * p.stride[1] - p.padding[1], 0);
    }
    for (int64_t h = h0; h < h1; ++h)
        for (int64_t j = 0; j < p.kernel[1]; ++j) {
            // columns ow whose window column j lies inside the input: 0 <= ow * sw - pw + j < W
            const int64_t shift = p.padding[1] - j;
            const int64_t ow0 = shift > 0 ? (shift + p.stride[1] - 1) / p.stride[1] : 0;
            const int64_t ow1 = std::min(g.OW, (g.W - 1 + shift) / p.stride[1] + 1);
            const T* xr = x + h * g.W;
            for (int64_t ow = ow0; ow < ow1; ++ow) {
                const int64_t iw = ow * p.stride[1] - shift;
                const T v = xr[iw], best = o[ow];
                // like PyTorch: a NaN is always taken (propagates); blended with masks, not branches, because
                // which element wins is unpredictable
                const int64_t keep = (int64_t)((v > best) | (v != v)) - 1;  // 0 to take v, all ones to keep
                o[ow] = bit_select(keep, best, v);
                ix[ow] = ((h * g.W + iw) & ~keep) | (ix[ow] & keep);
            }
        }
}

std::pair<Tensor, Tensor> max_pool_kernel(const Tensor& xc, const PoolGeom& g, const Shape& oshape) {
    if (!xc.device().is_cpu()) {
        Tensor idx;
        Tensor out = cuda_pool2d(CT_CUDA_MAX_POOL, cuda_pool(g), xc, Tensor(), oshape, &idx);
        return {out, idx};
    }
    Tensor out = empty_tensor(oshape, xc.dtype(), xc.device());
    Tensor idx = empty_tensor(oshape, DType::Int64, xc.device());
    dispatch_float(xc.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* x = xc.data<T>() + pl * g.in_plane();
            T* o = out.data<T>() + pl * g.out_plane();
            int64_t* ix = idx.data<int64_t>() + pl * g.out_plane();
            for (int64_t oh = 0; oh < g.OH; ++oh) max_pool_row<T>(x, o + oh * g.OW, ix + oh * g.OW, g, oh);
        });
    });
    return {out, idx};
}

Tensor max_pool_gather(const Tensor& src, const Tensor& idx, const PoolGeom& g);

// grad_x[plane][idx] += g: the backward of max pooling (linear in g; its adjoint is max_pool_gather).
Tensor max_pool_scatter(const Tensor& go, const Tensor& idx, const PoolGeom& g, const Shape& in_shape) {
    Tensor gc = contiguous_nograd(go);
    Tensor gx = !go.device().is_cpu() ? cuda_pool2d(CT_CUDA_MAX_POOL_BACKWARD, cuda_pool(g), gc, idx, in_shape, nullptr)
                                      : zeros(in_shape, go.dtype(), go.device());
    if (go.device().is_cpu()) dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* s = gc.data<T>() + pl * g.out_plane();
            const int64_t* ix = idx.data<int64_t>() + pl * g.out_plane();
            T* d = gx.data<T>() + pl * g.in_plane();
            for (int64_t k = 0; k < g.out_plane(); ++k) d[ix[k]] += s[k];
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

// out[plane][k] = src[plane][idx[k]] (the adjoint of max_pool_scatter).
Tensor max_pool_gather(const Tensor& src, const Tensor& idx, const PoolGeom& g) {
    Tensor sc = contiguous_nograd(src);
    Tensor out = !src.device().is_cpu()
                     ? cuda_pool2d(CT_CUDA_MAX_POOL_GATHER, cuda_pool(g), sc, idx, idx.sizes(), nullptr)
                     : empty_tensor(idx.sizes(), src.dtype(), src.device());
    if (src.device().is_cpu()) dispatch_float(src.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* s = sc.data<T>() + pl * g.in_plane();
            const int64_t* ix = idx.data<int64_t>() + pl * g.out_plane();
            T* d = out.data<T>() + pl * g.out_plane();
            for (int64_t k = 0; k < g.out_plane(); ++k) d[k] = s[ix[k]];
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

// ---- average pooling (divisor = window size including padding) ----

template <typename T> T pool_divisor(const PoolGeom& g, int64_t oh, int64_t ow) {
    int64_t h0 = oh * g.p.stride[0] - g.p.padding[0], w0 = ow * g.p.stride[1] - g.p.padding[1];
    int64_t h1 = std::min(h0 + g.p.kernel[0], g.H + g.p.padding[0]);
    int64_t w1 = std::min(w0 + g.p.kernel[1], g.W + g.p.padding[1]);
    return (T)((h1 - h0) * (w1 - w0));
}

Tensor avg_pool_kernel(const Tensor& xc, const PoolGeom& g, const Shape& oshape) {
    if (!xc.device().is_cpu()) return cuda_pool2d(CT_CUDA_AVG_POOL, cuda_pool(g), xc, Tensor(), oshape, nullptr);
    Tensor out = empty_tensor(oshape, xc.dtype(), xc.device());
    dispatch_float(xc.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* x = xc.data<T>() + pl * g.in_plane();
            T* o = out.data<T>() + pl * g.out_plane();
            for (int64_t oh = 0; oh < g.OH; ++oh)
                for (int64_t ow = 0; ow < g.OW; ++ow) {
                    int64_t h0, h1, w0, w1;
                    g.window(oh, ow, h0, h1, w0, w1);
                    T s = 0;
                    for (int64_t h = h0; h < h1; ++h)
                        for (int64_t w = w0; w < w1; ++w) s += x[h * g.W + w];
                    o[oh * g.OW + ow] = s / pool_divisor<T>(g, oh, ow);
                }
        });
    });
    return out;
}

Tensor avg_pool_nd(const Tensor& x, const Pool2dParams& p);

// Spreads each output gradient evenly over its window; linear in g, its adjoint is avg_pool2d itself.
Tensor avg_pool_backward(const Tensor& go, const PoolGeom& g, const Shape& in_shape) {
    Tensor gc = contiguous_nograd(go);
    Tensor gx = !go.device().is_cpu()
                    ? cuda_pool2d(CT_CUDA_AVG_POOL_BACKWARD, cuda_pool(g), gc, Tensor(), in_shape, nullptr)
                    : zeros(in_shape, go.dtype(), go.device());
    if (go.device().is_cpu()) dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_plane(g, [&](int64_t pl) {
            const T* s = gc.data<T>() + pl * g.out_plane();
            T* d = gx.data<T>() + pl * g.in_plane();
            for (int64_t oh = 0; oh < g.OH; ++oh)
                for (int64_t ow = 0; ow < g.OW; ++ow) {
                    int64_t h0, h1, w0, w1;
                    g.window(oh, ow, h0, h1, w0, w1);
                    const T v = s[oh * g.OW + ow] / pool_divisor<T>(g, oh, ow);
                    for (int64_t h = h0; h < h1; ++h)
                        for (int64_t w = w0; w < w1; ++w) d[h * g.W + w] += v;
                }
        });
    });
    if (!requires_grad(go)) return gx;
    Pool2dParams p = g.p;
    auto node = make_node("AvgPool2dBackwardBackward", {go}, [p](BackwardCtx& c) {
        return TensorList{avg_pool_nd(c.grads[0], p)};
    });
    set_history(gx, node);
    return gx;
}

Tensor avg_pool_nd(const Tensor& x, const Pool2dParams& p) {
    PoolGeom g = pool_geom("avg_pool2d", x, p);
    Tensor out = avg_pool_kernel(contiguous_nograd(x), g, out_shape(x, g));
    if (!requires_grad(x)) return out;
    Shape in_shape = x.sizes();
    auto node = make_node("AvgPool2dBackward", {x}, [g, in_shape](BackwardCtx& c) {
        return TensorList{avg_pool_backward(c.grads[0], g, in_shape)};
    });
    set_history(out, node);
    return out;
}

}  // namespace

Tensor max_pool2d(const Tensor& x, const Pool2dParams& p) {
    PoolGeom g = pool_geom("max_pool2d", x, p);
    auto res = max_pool_kernel(contiguous_nograd(x), g, out_shape(x, g));
    Tensor out = res.first;
    if (!requires_grad(x)) return out;
    Shape in_shape = x.sizes();
    auto node = make_node("MaxPool2dBackward", {x}, [g, in_shape](BackwardCtx& c) {
        return TensorList{max_pool_scatter(c.grads[0], c.saved(0), g, in_shape)};
    });
    node->save(res.second);
    set_history(out, node);
    return out;
}

Tensor avg_pool2d(const Tensor& x, const Pool2dParams& p) { return avg_pool_nd(x, p); }

}  // namespace ct

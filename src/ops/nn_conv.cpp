// nn_conv.cpp - conv2d (NCHW; stride, padding, dilation, groups) by im2col + OpenBLAS gemm (CUDA tensors:
// im2col kernels + cuBLAS, ops/device_conv.cpp). The input and
// weight gradients are ops of their own (conv2d_input_grad, conv2d_weight_grad) whose backward passes are
// conv2d and each other, so the three form a closed, twice-differentiable family.
#include <cstring>
#include "autograd/grad_mode.h"
#include "cpu/nn_blas.h"
#include "ops/half_compute.h"
#include "ops/device_conv.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// Sizes of one convolution: input [N, C, H, W], weight [O, C/groups, KH, KW], output [N, O, OH, OW].
struct ConvGeom {
    int64_t N, C, H, W, O, KH, KW, OH, OW, G, Cg, Og;
    Conv2dParams p;
    int64_t col_rows() const { return Cg * KH * KW; }
    int64_t out_plane() const { return OH * OW; }
    bool is_pointwise() const {  // 1x1, stride 1, no padding: the input is its own im2col matrix
        return KH == 1 && KW == 1 && p.stride[0] == 1 && p.stride[1] == 1 && p.padding[0] == 0 && p.padding[1] == 0;
    }
};

void check_params(const Conv2dParams& p) {
    for (int i = 0; i < 2; ++i) {
        if (p.stride[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, "conv2d: stride must be positive, got ", p.stride[i]);
        if (p.padding[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, "conv2d: padding must be non-negative, got ", p.padding[i]);
        if (p.dilation[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, "conv2d: dilation must be positive, got ", p.dilation[i]);
    }
    if (p.groups <= 0) fail(CT_ERR_INVALID_ARGUMENT, "conv2d: groups must be positive, got ", p.groups);
}

ConvGeom conv_geom(const Shape& x, const Shape& w, const Conv2dParams& p) {
    if (w.size() != 4)
        fail(CT_ERR_SHAPE, "conv2d: expected weight with 4 dims [out_channels, in_channels/groups, kH, kW], got ",
             shape_str(w));
    ConvGeom g{x[0], x[1], x[2], x[3], w[0], w[2], w[3], 0, 0, p.groups, 0, 0, p};
    if (g.C % g.G != 0) fail(CT_ERR_SHAPE, "conv2d: input channels ", g.C, " are not divisible by groups ", g.G);
    if (g.O % g.G != 0) fail(CT_ERR_SHAPE, "conv2d: out_channels ", g.O, " are not divisible by groups ", g.G);
    g.Cg = g.C / g.G;
    g.Og = g.O / g.G;
    if (w[1] != g.Cg)
        fail(CT_ERR_SHAPE, "conv2d: input has ", g.C, " channels but weight ", shape_str(w), " expects ", w[1] * g.G,
             " (", w[1], " per group x ", g.G, " groups)");
    if (g.KH <= 0 || g.KW <= 0)
        fail(CT_ERR_SHAPE, "conv2d: kernel size ", g.KH, "x", g.KW, " must be positive (weight ", shape_str(w), ")");
    // padded size - kernel span, overflow-checked: padding and dilation may be near int64's limits
    auto room = [&](int64_t in, int64_t k, int64_t pad, int64_t dil) {
        int64_t span = checked_add(checked_mul(dil, k - 1, "conv2d", "dilation * (kernel - 1)"), 1, "conv2d", "kernel span");
        return checked_add(in, checked_mul(2, pad, "conv2d", "padding"), "conv2d", "padded size") - span;
    };
    int64_t nh = room(g.H, g.KH, p.padding[0], p.dilation[0]), nw = room(g.W, g.KW, p.padding[1], p.dilation[1]);
    g.OH = nh < 0 ? 0 : nh / p.stride[0] + 1;
    g.OW = nw < 0 ? 0 : nw / p.stride[1] + 1;
    if (nh < 0 || nw < 0)
        fail(CT_ERR_SHAPE, "conv2d: output size would be <= 0 for input ", shape_str(x), ", kernel ", g.KH, "x", g.KW,
             ", padding ", p.padding[0], "x", p.padding[1], ", dilation ", p.dilation[0], "x", p.dilation[1]);
    checked_numel({g.N, g.O, g.OH, g.OW}, "conv2d");  // the output, before any buffer is sized from it
    return g;
}

CudaConv cuda_conv(const ConvGeom& g) {
    const Conv2dParams& p = g.p;
    ct_cuda_conv2d c{g.C, g.H, g.W, g.KH, g.KW, g.OH, g.OW, {p.stride[0], p.stride[1]}, {p.padding[0], p.padding[1]},
                     {p.dilation[0], p.dilation[1]}, g.G};
    return CudaConv{c, g.N, g.O};
}

// col[(c*KH + i)*KW + j][oh*OW + ow] = x[c][oh*sh - ph + i*dh][ow*sw - pw + j*dw] (0 outside): one sample, one group.
template <typename T> void im2col(const T* x, T* col, const ConvGeom& g) {
    const Conv2dParams& p = g.p;
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, g.out_plane()));
    parallel_for(g.col_rows(), grain, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            const int64_t c = r / (g.KH * g.KW), i = r / g.KW % g.KH, j = r % g.KW;
            const T* xc = x + c * g.H * g.W;
            T* out = col + r * g.out_plane();
            for (int64_t oh = 0; oh < g.OH; ++oh) {
                const int64_t ih = oh * p.stride[0] - p.padding[0] + i * p.dilation[0];
                T* o = out + oh * g.OW;
                if (ih < 0 || ih >= g.H) {
                    std::fill(o, o + g.OW, T(0));
                    continue;
                }
                for (int64_t ow = 0; ow < g.OW; ++ow) {
                    const int64_t iw = ow * p.stride[1] - p.padding[1] + j * p.dilation[1];
                    o[ow] = (iw >= 0 && iw < g.W) ? xc[ih * g.W + iw] : T(0);
                }
            }
        }
    });
}

// The adjoint of im2col: x[c][ih][iw] += col[...] (x zero-initialised by the caller). Threads own channels.
template <typename T> void col2im(const T* col, T* x, const ConvGeom& g) {
    const Conv2dParams& p = g.p;
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, g.KH * g.KW * g.out_plane()));
    parallel_for(g.Cg, grain, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) {
            T* xc = x + c * g.H * g.W;
            for (int64_t i = 0; i < g.KH; ++i)
                for (int64_t j = 0; j < g.KW; ++j) {
                    const T* in = col + ((c * g.KH + i) * g.KW + j) * g.out_plane();
                    for (int64_t oh = 0; oh < g.OH; ++oh) {
                        const int64_t ih = oh * p.stride[0] - p.padding[0] + i * p.dilation[0];
                        if (ih < 0 || ih >= g.H) continue;
                        for (int64_t ow = 0; ow < g.OW; ++ow) {
                            const int64_t iw = ow * p.stride[1] - p.padding[1] + j * p.dilation[1];
                            if (iw >= 0 && iw < g.W) xc[ih * g.W + iw] += in[oh * g.OW + ow];
                        }
                    }
                }
        }
    });
}

// A raw 2-D matrix view [rows, cols] at element pointer offset `off` of contiguous t (for gemm_into).
Tensor mat(const Tensor& t, int64_t off, int64_t rows, int64_t cols) {
    return make_view(t, {rows, cols}, {cols, 1}, t.offset() + off);
}
Tensor mat_t(const Tensor& t, int64_t off, int64_t rows, int64_t cols) {  // transpose of mat(t, off, cols, rows)
    return make_view(t, {rows, cols}, {1, rows}, t.offset() + off);
}

// out[n, g] = W_g @ im2col(x[n, g]) + bias.
Tensor conv_forward_kernel(const Tensor& x, const Tensor& w, const Tensor& b, const ConvGeom& g) {
    if (g.N == 0 || g.O == 0 || g.OH == 0 || g.OW == 0)  // an empty output: no im2col buffer, no loop
        return empty_tensor({g.N, g.O, g.OH, g.OW}, x.dtype(), x.device(), "conv2d");
    if (!x.device().is_cpu()) return cuda_conv2d_forward(x, w, b, cuda_conv(g));
    Tensor out = empty_tensor({g.N, g.O, g.OH, g.OW}, x.dtype(), x.device());
    const int64_t K = g.col_rows(), P = g.out_plane();
    Tensor col = g.is_pointwise() ? Tensor() : empty_tensor({K, P}, x.dtype(), x.device());
    dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor bc = b.defined() ? contiguous_nograd(b) : Tensor();
        for (int64_t n = 0; n < g.N; ++n)
            for (int64_t gi = 0; gi < g.G; ++gi) {
                const int64_t xoff = (n * g.C + gi * g.Cg) * g.H * g.W, ooff = (n * g.O + gi * g.Og) * P;
                Tensor cm = col.defined() ? col : mat(x, xoff, K, P);
                if (col.defined()) im2col<T>(x.data<T>() + xoff, col.data<T>(), g);
                T* po = out.data<T>() + ooff;
                if (bc.defined())
                    for (int64_t o = 0; o < g.Og; ++o)
                        std::fill(po + o * P, po + (o + 1) * P, bc.data<T>()[gi * g.Og + o]);
                gemm_into<T>(mat(out, ooff, g.Og, P), mat(w, gi * g.Og * K, g.Og, K), cm, bc.defined() ? T(1) : T(0));
            }
    });
    return out;
}

// grad_x[n, g] = col2im(W_g^T @ g[n, g]).
Tensor conv_input_grad_kernel(const Tensor& go, const Tensor& w, const ConvGeom& g) {
    if (!go.device().is_cpu()) return cuda_conv2d_input_grad(go, w, cuda_conv(g));
    Tensor gx = zeros({g.N, g.C, g.H, g.W}, go.dtype(), go.device());
    const int64_t K = g.col_rows(), P = g.out_plane();
    Tensor col = g.is_pointwise() ? Tensor() : empty_tensor({K, P}, go.dtype(), go.device());
    dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t n = 0; n < g.N; ++n)
            for (int64_t gi = 0; gi < g.G; ++gi) {
                const int64_t xoff = (n * g.C + gi * g.Cg) * g.H * g.W, ooff = (n * g.O + gi * g.Og) * P;
                Tensor dst = col.defined() ? col : mat(gx, xoff, K, P);
                gemm_into<T>(dst, mat_t(w, gi * g.Og * K, K, g.Og), mat(go, ooff, g.Og, P), T(0));
                if (col.defined()) col2im<T>(col.data<T>(), gx.data<T>() + xoff, g);
            }
    });
    return gx;
}

// grad_w[g] = sum over n of g[n, g] @ im2col(x[n, g])^T.
Tensor conv_weight_grad_kernel(const Tensor& go, const Tensor& x, const ConvGeom& g) {
    if (!go.device().is_cpu()) return cuda_conv2d_weight_grad(go, x, cuda_conv(g));
    Tensor gw = zeros({g.O, g.Cg, g.KH, g.KW}, go.dtype(), go.device());
    const int64_t K = g.col_rows(), P = g.out_plane();
    Tensor col = g.is_pointwise() ? Tensor() : empty_tensor({K, P}, go.dtype(), go.device());
    dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t n = 0; n < g.N; ++n)
            for (int64_t gi = 0; gi < g.G; ++gi) {
                const int64_t xoff = (n * g.C + gi * g.Cg) * g.H * g.W, ooff = (n * g.O + gi * g.Og) * P;
                if (col.defined()) im2col<T>(x.data<T>() + xoff, col.data<T>(), g);
                Tensor colT = col.defined() ? mat_t(col, 0, P, K) : mat_t(x, xoff, P, K);
                gemm_into<T>(mat(gw, gi * g.Og * K, g.Og, K), mat(go, ooff, g.Og, P), colT, T(1));
            }
    });
    return gw;
}

Tensor conv2d_4d(const Tensor& x, const Tensor& w, const Tensor& b, const Conv2dParams& p);

// The bias gradient: go summed over [N, OH, OW] per channel. On CUDA as products with ones (cuBLAS), so no
// reduction kernel is needed; differentiable either way.
Tensor conv_bias_grad(const Tensor& go) {
    if (go.device().is_cpu()) return sum(go, {0, 2, 3}, false);
    const int64_t N = go.sizes()[0], O = go.sizes()[1], P = go.sizes()[2] * go.sizes()[3];
    Tensor per_sample = matmul(reshape(go, {N, O, P}), ones({P}, go.dtype(), go.device()));  // [N, O]
    return matmul(ones({N}, go.dtype(), go.device()), per_sample);
}

// The input gradient as a differentiable op of (g, w): its adjoints are conv2d and conv2d_weight_grad.
Tensor conv2d_input_grad(const Tensor& go, const Tensor& w, const Shape& x_shape, const Conv2dParams& p);

Tensor conv2d_weight_grad(const Tensor& go, const Tensor& x, const Shape& w_shape, const Conv2dParams& p) {
    ConvGeom g = conv_geom(x.sizes(), w_shape, p);
    Tensor out = conv_weight_grad_kernel(contiguous_nograd(go), contiguous_nograd(x), g);
    if (!any_requires_grad({go, x})) return out;
    Shape x_shape = x.sizes();
    auto node = make_node("Conv2dWeightGradBackward", {go, x}, [p, x_shape](BackwardCtx& c) -> TensorList {
        const Tensor& ggw = c.grads[0];
        Tensor go = c.saved(0), x = c.saved(1), d_go, d_x;
        if (c.needs(0)) d_go = conv2d_4d(x, ggw, Tensor(), p);
        if (c.needs(1)) d_x = conv2d_input_grad(go, ggw, x_shape, p);
        return {d_go, d_x};
    });
    node->save(go);
    node->save(x);
    set_history(out, node);
    return out;
}

Tensor conv2d_input_grad(const Tensor& go, const Tensor& w, const Shape& x_shape, const Conv2dParams& p) {
    ConvGeom g = conv_geom(x_shape, w.sizes(), p);
    Tensor out = conv_input_grad_kernel(contiguous_nograd(go), contiguous_nograd(w), g);
    if (!any_requires_grad({go, w})) return out;
    Shape w_shape = w.sizes();
    auto node = make_node("Conv2dInputGradBackward", {go, w}, [p, w_shape](BackwardCtx& c) -> TensorList {
        const Tensor& ggx = c.grads[0];
        Tensor go = c.saved(0), w = c.saved(1), d_go, d_w;
        if (c.needs(0)) d_go = conv2d_4d(ggx, w, Tensor(), p);
        if (c.needs(1)) d_w = conv2d_weight_grad(go, ggx, w_shape, p);
        return {d_go, d_w};
    });
    node->save(go);
    node->save(w);
    set_history(out, node);
    return out;
}

Tensor conv2d_4d(const Tensor& x, const Tensor& w, const Tensor& b, const Conv2dParams& p) {
    ConvGeom g = conv_geom(x.sizes(), w.sizes(), p);
    Tensor out = conv_forward_kernel(contiguous_nograd(x), contiguous_nograd(w), b, g);
    if (!any_requires_grad({x, w, b})) return out;
    Shape x_shape = x.sizes(), w_shape = w.sizes(), b_shape = b.defined() ? b.sizes() : Shape{};
    auto node = make_node("Conv2dBackward", {x, w, b}, [=](BackwardCtx& c) -> TensorList {
        const Tensor& go = c.grads[0];
        Tensor x = c.saved(0), w = c.saved(1), gx, gw, gb;
        if (c.needs(0)) gx = conv2d_input_grad(go, w, x_shape, p);
        if (c.needs(1)) gw = conv2d_weight_grad(go, x, w_shape, p);
        if (c.needs(2)) gb = conv_bias_grad(go);
        return {gx, gw, gb};
    });
    node->save(x);
    node->save(w);
    set_history(out, node);
    return out;
}

void check_conv_args(const Tensor& x, const Tensor& w, const Tensor& b) {
    check_same_device("conv2d", x, w);
    if (b.defined()) check_same_device("conv2d", x, b);
    if (x.dim() != 4 && x.dim() != 3)
        fail(CT_ERR_SHAPE, "conv2d: expected input with 4 dims [N, C, H, W] (or 3 dims [C, H, W]), got ",
             shape_str(x.sizes()));
    check_floating("conv2d", x);
    if (w.dtype() != x.dtype() || (b.defined() && b.dtype() != x.dtype()))
        fail(CT_ERR_DTYPE, "conv2d: input (", dtype_name(x.dtype()), "), weight (", dtype_name(w.dtype()),
             ") and bias must have the same dtype");
    if (b.defined() && (b.dim() != 1 || w.dim() < 1 || b.sizes()[0] != w.sizes()[0]))
        fail(CT_ERR_SHAPE, "conv2d: bias of shape ", shape_str(b.sizes()), " does not match weight ",
             shape_str(w.sizes()), " (expected [out_channels])");
}

}  // namespace

Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias, const Conv2dParams& p) {
    check_params(p);
    check_conv_args(x, weight, bias);
    if (is_half(x.dtype()))  // Note [Half compute]
        return round_to_half(conv2d(half_to_float32(x), half_to_float32(weight),
                                    bias.defined() ? half_to_float32(bias) : bias, p), x.dtype());
    if (x.dim() == 3) return squeeze(conv2d_4d(unsqueeze(x, 0), weight, bias, p), 0);
    return conv2d_4d(x, weight, bias, p);
}

}  // namespace ct

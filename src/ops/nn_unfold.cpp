// nn_unfold.cpp - unfold (im2col of sliding blocks: [N, C, H, W] -> [N, C * kh * kw, L]) and fold (its adjoint,
// col2im: overlapping blocks summed back into [N, C, H, W]) on the conv kernels of conv_geom.h (CPU) and the
// backend's im2col_nd / col2im_nd (CUDA, ops/device_conv.cpp). Each is the other's backward, so both are twice
// differentiable. Also pixel_shuffle / pixel_unshuffle as reshape + permute + reshape.
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "ops/conv_geom.h"
#include "ops/device_conv.h"
#include "ops/nn_common.h"
#include "ops/unfold.h"

namespace ct {
namespace {

// Geometry of sliding kh x kw blocks over [N, C, H, W] (a grouped-free convolution's im2col, Note [Conv rank]).
ConvGeom block_geom(const char* op, int64_t N, int64_t C, int64_t H, int64_t W, const UnfoldParams& p) {
    for (int i = 0; i < 2; ++i) {
        if (p.kernel[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": kernel size must be positive, got ", p.kernel[i]);
        if (p.stride[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": stride must be positive, got ", p.stride[i]);
        if (p.dilation[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": dilation must be positive, got ", p.dilation[i]);
        if (p.padding[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": padding must be non-negative, got ", p.padding[i]);
    }
    ConvGeom g{};
    g.op = op;
    g.nd = 2;
    g.N = N, g.C = C, g.O = 1, g.G = 1, g.Cg = C, g.Og = 1;
    g.in[0] = g.k[0] = g.out[0] = g.stride[0] = g.dilation[0] = 1;
    g.in[1] = H, g.in[2] = W;
    for (int i = 0; i < 2; ++i) {
        g.k[1 + i] = p.kernel[i], g.stride[1 + i] = p.stride[i], g.padding[1 + i] = p.padding[i];
        g.dilation[1 + i] = p.dilation[i];
        const int64_t span = checked_add(checked_mul(p.dilation[i], p.kernel[i] - 1, op, "dilation * (kernel - 1)"),
                                         1, op, "kernel span");
        const int64_t room =
            checked_add(g.in[1 + i], checked_mul(2, p.padding[i], op, "padding"), op, "padded size") - span;
        if (room < 0)
            fail(CT_ERR_SHAPE, op, ": no sliding block fits: spatial size ", H, "x", W, " with padding ", p.padding[0],
                 "x", p.padding[1], " is smaller than the dilated kernel ", p.kernel[0], "x", p.kernel[1],
                 " (dilation ", p.dilation[0], "x", p.dilation[1], ")");
        g.out[1 + i] = room / p.stride[i] + 1;
    }
    checked_numel({N, checked_mul(C, g.taps(), op, "channels * kernel"), g.out_plane()}, op);
    checked_numel({N, C, H, W}, op);
    return g;
}

Shape col_shape(const ConvGeom& g) { return {g.N, g.C * g.taps(), g.out_plane()}; }

CudaConv cuda_geom(const ConvGeom& g) {
    ct_cuda_conv_nd c{g.C, 1, {}, {}, {}, {}, {}, {}};
    for (int d = 0; d < kConvMaxRank; ++d) {
        c.in[d] = g.in[d], c.k[d] = g.k[d], c.out[d] = g.out[d];
        c.stride[d] = g.stride[d], c.padding[d] = g.padding[d], c.dilation[d] = g.dilation[d];
    }
    return CudaConv{c, g.N, 1, g.x_shape(), g.w_shape(), g.out_shape()};
}

Tensor fold_op(const Tensor& col, const ConvGeom& g, const UnfoldParams& p);

// [N, C, H, W] -> [N, C * taps, L]; its backward is fold.
Tensor unfold_op(const Tensor& x, const ConvGeom& g, const UnfoldParams& p) {
    Tensor xc = contiguous_nograd(x);
    Tensor out;
    if (!x.device().is_cpu()) {
        out = cuda_unfold(xc, cuda_geom(g), col_shape(g));
    } else {
        out = empty_tensor(col_shape(g), x.dtype(), x.device());
        const int64_t X = g.C * g.in_plane(), Cl = g.C * g.taps() * g.out_plane();
        if (out.numel() > 0) dispatch_float(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (int64_t n = 0; n < g.N; ++n) im2col_nd<T>(xc.data<T>() + n * X, out.data<T>() + n * Cl, g);
        });
    }
    if (!requires_grad(x)) return out;
    auto node = make_node("UnfoldBackward", {x}, [g, p](BackwardCtx& c) { return TensorList{fold_op(c.grads[0], g, p)}; });
    set_history(out, node);
    return out;
}

// [N, C * taps, L] -> [N, C, H, W], overlapping blocks summed; its backward is unfold.
Tensor fold_op(const Tensor& col, const ConvGeom& g, const UnfoldParams& p) {
    Tensor cc = contiguous_nograd(col);
    Tensor out;
    if (!col.device().is_cpu()) {
        out = cuda_fold(cc, cuda_geom(g));
    } else {
        out = zeros(g.x_shape(), col.dtype(), col.device());
        const int64_t X = g.C * g.in_plane(), Cl = g.C * g.taps() * g.out_plane();
        if (out.numel() > 0 && Cl > 0) dispatch_float(col.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (int64_t n = 0; n < g.N; ++n) col2im_nd<T>(cc.data<T>() + n * Cl, out.data<T>() + n * X, g);
        });
    }
    if (!requires_grad(col)) return out;
    auto node = make_node("FoldBackward", {col}, [g, p](BackwardCtx& c) { return TensorList{unfold_op(c.grads[0], g, p)}; });
    set_history(out, node);
    return out;
}

}  // namespace

Tensor unfold_blocks(const Tensor& x, const UnfoldParams& p) {
    if (auto h = half_dtype_of(x)) return round_results(unfold_blocks(as_float32(x), p), *h);  // Note [Half compute]
    const char* op = "unfold";
    if (x.dim() != 4 && x.dim() != 3)
        fail(CT_ERR_SHAPE, op, ": expected input with 4 dims [N, C, H, W] (or 3 dims [C, H, W]), got ",
             shape_str(x.sizes()));
    check_floating(op, x);
    const bool batched = x.dim() == 4;
    Tensor xb = batched ? x : unsqueeze(x, 0);
    const Shape& s = xb.sizes();
    ConvGeom g = block_geom(op, s[0], s[1], s[2], s[3], p);
    Tensor out = unfold_op(xb, g, p);
    return batched ? out : squeeze(out, 0);
}

Tensor fold_blocks(const Tensor& col, const int64_t output_size[2], const UnfoldParams& p) {
    // Note [Half compute]
    if (auto h = half_dtype_of(col)) return round_results(fold_blocks(as_float32(col), output_size, p), *h);
    const char* op = "fold";
    if (col.dim() != 3 && col.dim() != 2)
        fail(CT_ERR_SHAPE, op, ": expected input with 3 dims [N, C * kh * kw, L] (or 2 dims), got ",
             shape_str(col.sizes()));
    check_floating(op, col);
    for (int i = 0; i < 2; ++i)
        if (output_size[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": output size must be non-negative, got ", output_size[i]);
    const bool batched = col.dim() == 3;
    Tensor cb = batched ? col : unsqueeze(col, 0);
    const Shape& s = cb.sizes();
    if (p.kernel[0] <= 0 || p.kernel[1] <= 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": kernel size must be positive, got ", p.kernel[0], "x", p.kernel[1]);
    const int64_t taps = checked_mul(p.kernel[0], p.kernel[1], op, "kernel size");
    if (s[1] % taps != 0)
        fail(CT_ERR_SHAPE, op, ": expected size of input's dimension 1 to be divisible by the product of kernel_size (",
             taps, "), but got input ", shape_str(col.sizes()));
    ConvGeom g = block_geom(op, s[0], s[1] / taps, output_size[0], output_size[1], p);
    if (g.out_plane() != s[2])
        fail(CT_ERR_SHAPE, op, ": input ", shape_str(col.sizes()), " has ", s[2], " blocks but output size ",
             output_size[0], "x", output_size[1], " with kernel ", p.kernel[0], "x", p.kernel[1], ", stride ",
             p.stride[0], "x", p.stride[1], ", padding ", p.padding[0], "x", p.padding[1], " and dilation ",
             p.dilation[0], "x", p.dilation[1], " gives ", g.out_plane());
    Tensor out = fold_op(cb, g, p);
    return batched ? out : squeeze(out, 0);
}

// [*, C * r * r, H, W] -> [*, C, H * r, W * r]: out[c][h * r + i][w * r + j] = x[c * r * r + i * r + j][h][w].
Tensor pixel_shuffle(const Tensor& x, int64_t r) {
    const char* op = "pixel_shuffle";
    if (x.dim() < 3) fail(CT_ERR_SHAPE, op, ": expected input with at least 3 dims, got ", shape_str(x.sizes()));
    if (r <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": upscale_factor must be positive, got ", r);
    const int64_t nd = x.dim(), C = x.sizes()[nd - 3], H = x.sizes()[nd - 2], W = x.sizes()[nd - 1];
    const int64_t rr = checked_mul(r, r, op, "upscale_factor^2");
    if (C % rr != 0)
        fail(CT_ERR_SHAPE, op, ": channels ", C, " are not divisible by upscale_factor^2 = ", rr, " (input ",
             shape_str(x.sizes()), ")");
    Shape lead(x.sizes().begin(), x.sizes().end() - 3), s = lead, o = lead;
    s.insert(s.end(), {C / rr, r, r, H, W});
    o.insert(o.end(), {C / rr, checked_mul(H, r, op, "H * r"), checked_mul(W, r, op, "W * r")});
    IntList perm;
    const int64_t b = (int64_t)lead.size();
    for (int64_t i = 0; i < b; ++i) perm.push_back(i);
    perm.insert(perm.end(), {b, b + 3, b + 1, b + 4, b + 2});  // [C, H, r, W, r]
    return reshape(permute(reshape(x, s), perm), o);
}

// The inverse: [*, C, H * r, W * r] -> [*, C * r * r, H, W].
Tensor pixel_unshuffle(const Tensor& x, int64_t r) {
    const char* op = "pixel_unshuffle";
    if (x.dim() < 3) fail(CT_ERR_SHAPE, op, ": expected input with at least 3 dims, got ", shape_str(x.sizes()));
    if (r <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": downscale_factor must be positive, got ", r);
    const int64_t nd = x.dim(), C = x.sizes()[nd - 3], H = x.sizes()[nd - 2], W = x.sizes()[nd - 1];
    if (H % r != 0 || W % r != 0)
        fail(CT_ERR_SHAPE, op, ": height ", H, " and width ", W, " must be divisible by downscale_factor ", r);
    Shape lead(x.sizes().begin(), x.sizes().end() - 3), s = lead, o = lead;
    s.insert(s.end(), {C, H / r, r, W / r, r});
    o.insert(o.end(), {checked_mul(C, checked_mul(r, r, op, "downscale_factor^2"), op, "C * r^2"), H / r, W / r});
    IntList perm;
    const int64_t b = (int64_t)lead.size();
    for (int64_t i = 0; i < b; ++i) perm.push_back(i);
    perm.insert(perm.end(), {b, b + 2, b + 4, b + 1, b + 3});  // [C, r, r, H / r, W / r]
    return reshape(permute(reshape(x, s), perm), o);
}

}  // namespace ct

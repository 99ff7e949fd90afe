// nn_conv.cpp - N-d convolution and transposed convolution (spatial rank 1-3; stride, padding, dilation, groups,
// output_padding) by im2col + gemm (CPU: nn_conv_cpu.cpp; CUDA: im2col kernels + cuBLAS, ops/device_conv.cpp).
// Note [Conv family]: the input and weight gradients are ops of their own (conv_input_grad, conv_weight_grad)
// whose backward passes are conv and each other, so the three form a closed, twice-differentiable family. A
// transposed convolution is conv_input_grad (plus bias); its gradients are conv and conv_weight_grad.
#include "autograd/grad_mode.h"
#include "ops/conv_geom.h"
#include "ops/half_compute.h"
#include "ops/device_conv.h"
#include "ops/nn_common.h"

namespace ct {

const char* conv_op_name(int32_t nd, bool transposed) {
    static const char* direct[] = {"convolution", "conv1d", "conv2d", "conv3d"};
    static const char* transp[] = {"conv_transpose", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"};
    const int i = nd >= 1 && nd <= 3 ? nd : 0;
    return transposed ? transp[i] : direct[i];
}

ConvGeom conv_geom(const Shape& x, const Shape& w, const ConvNdParams& p, const int64_t* out_sizes) {
    const char* op = conv_op_name(p.nd, p.transposed);
    const size_t want = (size_t)p.nd + 2;
    if (w.size() != want)
        fail(CT_ERR_SHAPE, op, ": expected weight with ", want, " dims [", p.transposed ? "in" : "out",
             "_channels, ", p.transposed ? "out" : "in", "_channels/groups, kernel...], got ", shape_str(w));
    ConvGeom g{};
    g.op = op;
    g.nd = p.nd;
    g.N = x[0], g.C = x[1], g.O = w[0], g.G = p.groups;
    if (g.C % g.G != 0) fail(CT_ERR_SHAPE, op, ": input channels ", g.C, " are not divisible by groups ", g.G);
    if (g.O % g.G != 0) fail(CT_ERR_SHAPE, op, ": output channels ", g.O, " are not divisible by groups ", g.G);
    g.Cg = g.C / g.G;
    g.Og = g.O / g.G;
    if (w[1] != g.Cg)
        fail(CT_ERR_SHAPE, op, ": input has ", g.C, " channels but weight ", shape_str(w), " expects ", w[1] * g.G,
             " (", w[1], " per group x ", g.G, " groups)");
    const int lead = kConvMaxRank - p.nd;
    bool empty = false;
    for (int d = 0; d < kConvMaxRank; ++d) {
        const bool used = d >= lead;
        g.in[d] = used ? x[2 + d - lead] : 1;
        g.k[d] = used ? w[2 + d - lead] : 1;
        g.stride[d] = used ? p.stride[d - lead] : 1;
        g.padding[d] = used ? p.padding[d - lead] : 0;
        g.dilation[d] = used ? p.dilation[d - lead] : 1;
        if (g.k[d] <= 0) fail(CT_ERR_SHAPE, op, ": kernel sizes must be positive, got weight ", shape_str(w));
        // padded size - kernel span, overflow-checked: padding and dilation may be near int64's limits
        const int64_t span = checked_add(checked_mul(g.dilation[d], g.k[d] - 1, op, "dilation * (kernel - 1)"), 1,
                                         op, "kernel span");
        const int64_t room =
            checked_add(g.in[d], checked_mul(2, g.padding[d], op, "padding"), op, "padded size") - span;
        if (room < 0) empty = true;
        g.out[d] = room < 0 ? 0 : room / g.stride[d] + 1;
        if (out_sizes && used) {
            const int64_t want_out = out_sizes[d - lead];
            if (want_out < 0 || want_out > g.out[d])
                fail(CT_ERR_SHAPE, op, ": output size ", want_out, " in spatial dim ", d - lead,
                     " exceeds the convolution's ", g.out[d]);
            g.out[d] = want_out;
        }
    }
    if (empty && !out_sizes)
        fail(CT_ERR_SHAPE, op, ": output size would be <= 0 for input ", shape_str(x), ", weight ", shape_str(w),
             " (padding, dilation and kernel larger than the padded input)");
    checked_numel(g.out_shape(), op);  // the output, before any buffer is sized from it
    checked_numel(g.x_shape(), op);
    return g;
}

namespace {

// Checks the user's arrays and options for op.
void check_params(const ConvNdParams& p) {
    const char* op = conv_op_name(p.nd, p.transposed);
    if (p.nd < 1 || p.nd > kConvMaxRank)
        fail(CT_ERR_INVALID_ARGUMENT, "convolution: spatial rank must be 1, 2 or 3, got ", p.nd);
    for (int i = 0; i < p.nd; ++i) {
        if (p.stride[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": stride must be positive, got ", p.stride[i]);
        if (p.padding[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": padding must be non-negative, got ", p.padding[i]);
        if (p.dilation[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": dilation must be positive, got ", p.dilation[i]);
        const int64_t op_ = p.transposed ? p.output_padding[i] : 0;
        if (op_ < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": output_padding must be non-negative, got ", op_);
        if (op_ >= p.stride[i] && op_ >= p.dilation[i])
            fail(CT_ERR_INVALID_ARGUMENT, op, ": output_padding ", op_, " must be smaller than either stride ",
                 p.stride[i], " or dilation ", p.dilation[i]);
    }
    if (!p.transposed)
        for (int i = 0; i < p.nd; ++i)
            if (p.output_padding[i] != 0)
                fail(CT_ERR_INVALID_ARGUMENT, op, ": output_padding is only valid for a transposed convolution");
    if (p.groups <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": groups must be positive, got ", p.groups);
}

// The CUDA geometry: the same normalised dims.
CudaConv cuda_conv(const ConvGeom& g) {
    ct_cuda_conv_nd c{g.C, g.G, {}, {}, {}, {}, {}, {}};
    for (int d = 0; d < kConvMaxRank; ++d) {
        c.in[d] = g.in[d], c.k[d] = g.k[d], c.out[d] = g.out[d];
        c.stride[d] = g.stride[d], c.padding[d] = g.padding[d], c.dilation[d] = g.dilation[d];
    }
    return CudaConv{c, g.N, g.O, g.x_shape(), g.w_shape(), g.out_shape()};
}

Tensor forward_kernel(const Tensor& x, const Tensor& w, const Tensor& b, const ConvGeom& g, Tensor* keep_col) {
    if (g.N == 0 || g.O == 0 || g.out_plane() == 0)  // an empty output: no im2col buffer, no loop
        return empty_tensor(g.out_shape(), x.dtype(), x.device(), g.op);
    if (!x.device().is_cpu()) return cuda_conv_forward(x, w, b, cuda_conv(g));
    return conv_forward_cpu(x, w, b, g, keep_col);
}

Tensor input_grad_kernel(const Tensor& go, const Tensor& w, const ConvGeom& g) {
    if (!go.device().is_cpu()) return cuda_conv_input_grad(go, w, cuda_conv(g));
    return conv_input_grad_cpu(go, w, g);
}

Tensor weight_grad_kernel(const Tensor& go, const Tensor& x, const ConvGeom& g, const Tensor& kept_col) {
    if (!go.device().is_cpu()) return cuda_conv_weight_grad(go, x, cuda_conv(g));
    return conv_weight_grad_cpu(go, x, g, kept_col);
}

// The spatial sizes of go (its dims after [N, O]).
Shape spatial(const Shape& s) { return Shape(s.begin() + 2, s.end()); }

// The bias gradient: go summed over every dim but 1. On CUDA as products with ones (cuBLAS), so no reduction
// kernel is needed; differentiable either way.
Tensor conv_bias_grad(const Tensor& go) {
    const int64_t N = go.sizes()[0], O = go.sizes()[1], P = go.numel() / std::max<int64_t>(1, N * O);
    if (go.device().is_cpu() || N * O == 0) return sum(reshape(go, {N, O, P}), {0, 2}, false);
    Tensor per_sample = matmul(reshape(go, {N, O, P}), ones({P}, go.dtype(), go.device()));  // [N, O]
    return matmul(ones({N}, go.dtype(), go.device()), per_sample);
}

Tensor conv_fwd(const Tensor& x, const Tensor& w, const Tensor& b, const ConvNdParams& p, const Shape& out_sp);
Tensor conv_input_grad(const Tensor& go, const Tensor& w, const Shape& x_shape, const ConvNdParams& p);

// grad_w of conv(x, w) for output gradient go (Note [Conv family]); kept_col: the forward's im2col of x, or
// undefined (Note [Conv col reuse]).
Tensor conv_weight_grad(const Tensor& go, const Tensor& x, const Shape& w_shape, const ConvNdParams& p,
                        const Tensor& kept_col = Tensor()) {
    const Shape out_sp = spatial(go.sizes());
    ConvGeom g = conv_geom(x.sizes(), w_shape, p, out_sp.data());
    Tensor out = weight_grad_kernel(contiguous_nograd(go), contiguous_nograd(x), g, kept_col);
    if (!any_requires_grad({go, x})) return out;
    Shape x_shape = x.sizes();
    auto node = make_node("ConvWeightGradBackward", {go, x}, [p, x_shape, out_sp](BackwardCtx& c) -> TensorList {
        const Tensor& ggw = c.grads[0];
        Tensor go = c.saved(0), x = c.saved(1), d_go, d_x;
        if (c.needs(0)) d_go = conv_fwd(x, ggw, Tensor(), p, out_sp);
        if (c.needs(1)) d_x = conv_input_grad(go, ggw, x_shape, p);
        return {d_go, d_x};
    });
    node->save(go);
    node->save(x);
    set_history(out, node);
    return out;
}

// grad_x of conv(x, w) for output gradient go; also the transposed convolution's forward.
Tensor conv_input_grad(const Tensor& go, const Tensor& w, const Shape& x_shape, const ConvNdParams& p) {
    const Shape out_sp = spatial(go.sizes());
    ConvGeom g = conv_geom(x_shape, w.sizes(), p, out_sp.data());
    Tensor out = input_grad_kernel(contiguous_nograd(go), contiguous_nograd(w), g);
    if (!any_requires_grad({go, w})) return out;
    Shape w_shape = w.sizes();
    auto node = make_node("ConvInputGradBackward", {go, w}, [p, w_shape, out_sp](BackwardCtx& c) -> TensorList {
        const Tensor& ggx = c.grads[0];
        Tensor go = c.saved(0), w = c.saved(1), d_go, d_w;
        if (c.needs(0)) d_go = conv_fwd(ggx, w, Tensor(), p, out_sp);
        if (c.needs(1)) d_w = conv_weight_grad(go, ggx, w_shape, p);
        return {d_go, d_w};
    });
    node->save(go);
    node->save(w);
    set_history(out, node);
    return out;
}

// conv(x, w) + b with output spatial sizes out_sp (empty: the natural sizes).
Tensor conv_fwd(const Tensor& x, const Tensor& w, const Tensor& b, const ConvNdParams& p, const Shape& out_sp) {
    ConvGeom g = conv_geom(x.sizes(), w.sizes(), p, out_sp.empty() ? nullptr : out_sp.data());
    Tensor col;  // the forward's im2col for the weight gradient (Note [Conv col reuse])
    Tensor out = forward_kernel(contiguous_nograd(x), contiguous_nograd(w), b, g, requires_grad(w) ? &col : nullptr);
    if (!any_requires_grad({x, w, b})) return out;
    Shape x_shape = x.sizes(), w_shape = w.sizes();
    const bool has_col = col.defined();
    auto node = make_node("ConvolutionBackward", {x, w, b}, [=](BackwardCtx& c) -> TensorList {
        const Tensor& go = c.grads[0];
        Tensor x = c.saved(0), w = c.saved(1), gx, gw, gb;
        if (c.needs(0)) gx = conv_input_grad(go, w, x_shape, p);
        if (c.needs(1)) gw = conv_weight_grad(go, x, w_shape, p, has_col ? c.saved(2) : Tensor());
        if (c.needs(2)) gb = conv_bias_grad(go);
        return {gx, gw, gb};
    });
    node->save(x);
    node->save(w);
    if (has_col) node->save(col);
    set_history(out, node);
    return out;
}

// The transposed convolution of batched x [N, C, in...] with w [C, O/groups, k...]: conv_input_grad of a
// direct convolution whose input is the result, plus the bias over dim 1.
Tensor conv_transposed(const Tensor& x, const Tensor& w, const Tensor& b, const ConvNdParams& p) {
    const char* op = conv_op_name(p.nd, true);
    if (w.dim() != p.nd + 2)
        fail(CT_ERR_SHAPE, op, ": expected weight with ", p.nd + 2,
             " dims [in_channels, out_channels/groups, kernel...], got ", shape_str(w.sizes()));
    if (w.sizes()[0] != x.sizes()[1])
        fail(CT_ERR_SHAPE, op, ": input has ", x.sizes()[1], " channels but weight ", shape_str(w.sizes()),
             " expects ", w.sizes()[0]);
    if (w.sizes()[0] % p.groups != 0)
        fail(CT_ERR_SHAPE, op, ": input channels ", w.sizes()[0], " are not divisible by groups ", p.groups);
    Shape y{x.sizes()[0], checked_mul(w.sizes()[1], p.groups, op, "out_channels")};
    for (int d = 0; d < p.nd; ++d) {
        const int64_t in = x.sizes()[2 + d], k = w.sizes()[2 + d];
        if (k <= 0) fail(CT_ERR_SHAPE, op, ": kernel sizes must be positive, got weight ", shape_str(w.sizes()));
        // (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1, overflow-checked
        int64_t s = checked_mul(in - 1, p.stride[d], op, "(input - 1) * stride");
        s = checked_add(s, checked_mul(p.dilation[d], k - 1, op, "dilation * (kernel - 1)"), op, "output size");
        s = checked_add(s, p.output_padding[d] + 1, op, "output size") - checked_mul(2, p.padding[d], op, "padding");
        if (s <= 0)
            fail(CT_ERR_SHAPE, op, ": output size ", s, " in spatial dim ", d, " is not positive for input ",
                 shape_str(x.sizes()), ", weight ", shape_str(w.sizes()), " and padding ", p.padding[d]);
        y.push_back(s);
    }
    ConvNdParams direct = p;
    direct.transposed = false;
    Tensor out = conv_input_grad(x, w, y, direct);
    if (!b.defined()) return out;
    Shape bshape(y.size(), 1);
    bshape[1] = y[1];
    return add(out, reshape(b, bshape), 1.0);
}

void check_conv_args(const Tensor& x, const Tensor& w, const Tensor& b, const ConvNdParams& p) {
    const char* op = conv_op_name(p.nd, p.transposed);
    check_same_device(op, x, w);
    if (b.defined()) check_same_device(op, x, b);
    static const char* dims[4] = {"", "L", "H, W", "D, H, W"};  // spatial dims by rank
    if (x.dim() != p.nd + 2 && x.dim() != p.nd + 1)
        fail(CT_ERR_SHAPE, op, ": expected input with ", p.nd + 2, " dims [N, C, ", dims[p.nd], "] (or ", p.nd + 1,
             " dims [C, ", dims[p.nd], "]), got ", shape_str(x.sizes()));
    check_floating(op, x);
    if (w.dtype() != x.dtype() || (b.defined() && b.dtype() != x.dtype()))
        fail(CT_ERR_DTYPE, op, ": input (", dtype_name(x.dtype()), "), weight (", dtype_name(w.dtype()),
             ") and bias must have the same dtype");
    const int64_t out_channels = w.dim() < 2 ? -1 : p.transposed ? w.sizes()[1] * p.groups : w.sizes()[0];
    if (b.defined() && (b.dim() != 1 || b.sizes()[0] != out_channels))
        fail(CT_ERR_SHAPE, op, ": bias of shape ", shape_str(b.sizes()), " does not match weight ",
             shape_str(w.sizes()), " (expected [out_channels])");
}

Tensor convolution_batched(const Tensor& x, const Tensor& w, const Tensor& b, const ConvNdParams& p) {
    return p.transposed ? conv_transposed(x, w, b, p) : conv_fwd(x, w, b, p, Shape{});
}

}  // namespace

Tensor convolution(const Tensor& x, const Tensor& weight, const Tensor& bias, const ConvNdParams& p) {
    check_params(p);
    check_conv_args(x, weight, bias, p);
    if (is_half(x.dtype()))  // Note [Half compute]
        return round_to_half(convolution(half_to_float32(x), half_to_float32(weight),
                                         bias.defined() ? half_to_float32(bias) : bias, p), x.dtype());
    if (x.dim() == p.nd + 1) return squeeze(convolution_batched(unsqueeze(x, 0), weight, bias, p), 0);
    return convolution_batched(x, weight, bias, p);
}

Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias, const Conv2dParams& p2) {
    ConvNdParams p;
    p.nd = 2;
    for (int i = 0; i < 2; ++i) {
        p.stride[i] = p2.stride[i];
        p.padding[i] = p2.padding[i];
        p.dilation[i] = p2.dilation[i];
    }
    p.groups = p2.groups;
    return convolution(x, weight, bias, p);
}

}  // namespace ct

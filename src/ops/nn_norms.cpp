// nn_norms.cpp - layer_norm, group_norm and batch_norm (instance_norm is batch_norm over [1, N * C, *], in the
// bindings). All three are one op over the geometry of Note [Norm geometry]: on the CPU a fused kernel
// (cpu/norm_kernels.h) with one backward node whose fused kernel gives dx, dweight and dbias; under create_graph
// (grad mode on during backward) and on CUDA the same formulas are composed of differentiable core ops; float16 /
// bfloat16 on CUDA run natively (Note [Native half norms]).
#include <cmath>
#include "autograd/grad_mode.h"
#include "core/backend.h"
#include "cpu/norm_kernels.h"
#include "ops/device_ops.h"
#include "ops/half_compute.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// One normalisation call: the geometry, the affine parameters' shape and batch_norm's mode.
struct NormCall {
    const char* op;
    const char* node_name;
    NormGeom g;
    Shape affine_shape;  // weight's / bias's shape
    bool train = true;   // batch statistics (always for layer / group norm)
    double eps = 1e-5;
};

// x seen as [P, R, Q] with the statistics reduced over dims 0 and 2 (one per R).
Shape stats_shape(const NormGeom& g) {
    if (g.per_channel) return Shape{g.N, g.C, g.S};
    return Shape{1, g.N * g.groups, (g.C / g.groups) * g.S};
}
const IntList kStatDims{0, 2};

// The statistics as differentiable ops: mean and rstd of shape [1, R, 1]: the batch's, or in eval mode em / ers
// ([C], constants: the running mean and 1 / sqrt(running_var + eps)).
std::pair<Tensor, Tensor> composite_stats(const NormCall& k, const Tensor& x, const Tensor& em, const Tensor& ers) {
    const NormGeom& g = k.g;
    if (!k.train) return {reshape(em, Shape{1, g.C, 1}), reshape(ers, Shape{1, g.C, 1})};
    Tensor xs = reshape(x, stats_shape(g));
    return {mean(xs, kStatDims, true), rsqrt(add_scalar(var(xs, kStatDims, 0.0, true), k.eps))};
}

Tensor channel_view(const Tensor& t, const NormGeom& g) { return reshape(t, Shape{g.N, g.C, g.S}); }
Tensor affine_view(const Tensor& t, const NormGeom& g) { return reshape(t, Shape{1, g.C, 1}); }

// The forward as differentiable ops (CUDA tensors).
Tensor composite_forward(const NormCall& k, const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& em,
                         const Tensor& ers) {
    auto [m, rs] = composite_stats(k, x, em, ers);
    Tensor y = channel_view(mul(sub(reshape(x, stats_shape(k.g)), m), rs), k.g);
    if (w.defined()) y = mul(y, affine_view(w, k.g));
    if (b.defined()) y = add(y, affine_view(b, k.g));
    return reshape(y, x.sizes());
}

// dx, dweight, dbias as differentiable ops of dy, x and w (so they have derivatives themselves).
TensorList composite_backward(const NormCall& k, const Tensor& dy, const Tensor& x, const Tensor& w, const Tensor& em,
                              const Tensor& ers, bool need_x, bool need_w, bool need_b) {
    const NormGeom& g = k.g;
    auto [m, rs] = composite_stats(k, x, em, ers);
    Tensor xhat_s = mul(sub(reshape(x, stats_shape(g)), m), rs);
    Tensor dy3 = channel_view(dy, g);
    Tensor dx, dw, db;
    if (need_x) {
        Tensor gs = reshape(w.defined() ? mul(dy3, affine_view(w, g)) : dy3, stats_shape(g));
        if (k.train)
            gs = sub(sub(gs, mean(gs, kStatDims, true)), mul(xhat_s, mean(mul(gs, xhat_s), kStatDims, true)));
        dx = reshape(mul(gs, rs), x.sizes());
    }
    if (need_w) dw = reshape(sum(mul(dy3, channel_view(xhat_s, g)), kStatDims, false), k.affine_shape);
    if (need_b) db = reshape(sum(dy3, kStatDims, false), k.affine_shape);
    return {dx, dw, db};
}

// Fused CPU forward; records one backward node when x, w or b wants a gradient. bm / bv get the batch mean and
// (biased) variance per row when train; eval mode normalises by em / ers (eval_stats).
Tensor fused_forward(const NormCall& k, const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& em,
                     const Tensor& ers, Tensor& bm, Tensor& bv) {
    const NormGeom& g = k.g;
    const DType dt = x.dtype();
    Tensor xc = contiguous_nograd(x), wc = w.defined() ? contiguous_nograd(w) : w,
           bc = b.defined() ? contiguous_nograd(b) : b;
    Tensor y = empty_tensor(x.sizes(), dt, Device{});
    Tensor m = empty_tensor(Shape{g.rows()}, dt, Device{}), rs = empty_tensor(Shape{g.rows()}, dt, Device{});
    dispatch_float(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (k.train) {
            Tensor v = empty_tensor(Shape{g.rows()}, dt, Device{});
            norm_stats<T>(xc.data<T>(), g, k.eps, m.data<T>(), v.data<T>(), rs.data<T>());
            bm = m;
            bv = v;
        } else {
            copy_into(m, em);
            copy_into(rs, ers);
        }
        norm_apply<T>(xc.data<T>(), g, m.data<T>(), rs.data<T>(), wc.defined() ? wc.data<T>() : nullptr,
                      bc.defined() ? bc.data<T>() : nullptr, y.data<T>());
    });
    if (!any_requires_grad({x, w, b})) return y;
    auto call = std::make_shared<NormCall>(k);
    auto node = make_node(k.node_name, {x, w, b}, [call, has_w = w.defined()](BackwardCtx& c) -> TensorList {
        Tensor x = c.saved(0), w = has_w ? c.saved(1) : Tensor(), m = c.saved(2), rs = c.saved(3);
        const bool nx = c.needs(0), nw = c.node.next_edges.size() > 1 && c.needs(1),
                   nb = c.node.next_edges.size() > 2 && c.needs(2);
        if (GradMode::is_enabled())  // create_graph: differentiable formulas
            return composite_backward(*call, c.grads[0], x, w, m, rs, nx, nw, nb);
        Tensor dy = contiguous_nograd(c.grads[0]), xc = contiguous_nograd(x), wc = has_w ? contiguous_nograd(w) : w;
        const DType dt = x.dtype();
        Tensor dx = nx ? empty_tensor(x.sizes(), dt, Device{}) : Tensor();
        Tensor dw = nw ? empty_tensor(call->affine_shape, dt, Device{}) : Tensor();
        Tensor db = nb ? empty_tensor(call->affine_shape, dt, Device{}) : Tensor();
        dispatch_float(dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            norm_backward<T>(dy.data<T>(), xc.data<T>(), call->g, m.data<T>(), rs.data<T>(),
                             has_w ? wc.data<T>() : nullptr, call->train, nx ? dx.data<T>() : nullptr,
                             nw ? dw.data<T>() : nullptr, nb ? db.data<T>() : nullptr);
        });
        return {dx, dw, db};
    });
    node->save(x);  // x and w themselves, so the create_graph formulas connect to their history
    node->save(w.defined() ? w : m);
    node->save(m);
    node->save(rs);
    set_history(y, node);
    return y;
}

// Note [Native half norms]: a float16/bfloat16 x on CUDA takes no float32 copy in the forward. The statistics are
// the native half reductions (cuda_reduce SUM and VAR with a float32 out, Note [Native half on CUDA]) scaled and
// rsqrt'ed by the same float32 ops as the fallback's mean / var / rsqrt on its float32 copy, so mean and rstd equal
// the fallback's bit for bit; the backend's norm_apply (cuda/norm.cuh) then runs the fallback's elementwise float
// ops (sub, mul, mul, add, each rounded) on the half x and rounds y once: the fallback's y bit for bit. The backward
// node keeps the half x and w and the float32 mean / rstd ([rows]); when it runs it makes the float32 copies and
// runs composite_backward (differentiable, so create_graph works), rounding dx / dw / db to x's dtype: the same
// formulas as the fallback's, composed differently, so the gradients agree within float32 roundings of sums (not
// bit for bit). The running statistics get the float32 batch statistics, as in the fallback.
Tensor native_half_forward(const NormCall& k, const Tensor& x, const Tensor& w, const Tensor& b, Tensor& bm,
                           Tensor& bv, const Tensor& em, const Tensor& ers) {
    const NormGeom& g = k.g;
    const int32_t dev = x.device().index;
    Tensor xc = contiguous_nograd(x), m = em, rs = ers;
    if (k.train) {
        GradModeGuard no_grad(false);
        Tensor xs = reshape(detach(xc), stats_shape(g));
        const std::vector<bool> mask{true, false, true};
        Tensor s = empty_tensor(Shape{1, g.rows(), 1}, DType::Float32, x.device());
        Tensor v = empty_tensor(Shape{1, g.rows(), 1}, DType::Float32, x.device());
        cuda_reduce(k.op, CT_CUDA_REDUCE_SUM, xs, mask, s, Tensor());
        cuda_reduce(k.op, CT_CUDA_REDUCE_VAR, xs, mask, v, Tensor(), 0.0);
        m = mul_scalar(s, 1.0 / (double)g.row_size());  // mean's float32 scaling of the sum
        rs = contiguous(rsqrt(add_scalar(v, k.eps)));
        bm = reshape(m, Shape{g.rows()});
        bv = reshape(v, Shape{g.rows()});
    }
    Tensor wc = w.defined() ? contiguous_nograd(w) : w, bc = b.defined() ? contiguous_nograd(b) : b;
    Tensor y = empty_tensor(x.sizes(), x.dtype(), x.device());
    const ct_cuda_norm geom{g.N, g.C, g.S, g.groups, g.per_channel ? 1 : 0};
    cuda_check(k.op, cuda_device_backend(k.op, dev).norm_apply(
                         dev, (int32_t)x.dtype(), &geom, xc.device_data(), static_cast<const float*>(m.device_data()),
                         static_cast<const float*>(rs.device_data()), wc.defined() ? wc.device_data() : nullptr,
                         bc.defined() ? bc.device_data() : nullptr, y.device_data()));
    if (!any_requires_grad({x, w, b})) return y;
    auto call = std::make_shared<NormCall>(k);
    auto node = make_node(k.node_name, {x, w, b}, [call, has_w = w.defined()](BackwardCtx& c) -> TensorList {
        Tensor x = c.saved(0), w = has_w ? c.saved(1) : Tensor(), m = c.saved(2), rs = c.saved(3);
        const bool nx = c.needs(0), nw = c.node.next_edges.size() > 1 && c.needs(1),
                   nb = c.node.next_edges.size() > 2 && c.needs(2);
        TensorList r = composite_backward(*call, to_dtype(c.grads[0], DType::Float32), to_dtype(x, DType::Float32),
                                          has_w ? to_dtype(w, DType::Float32) : w, m, rs, nx, nw, nb);
        for (Tensor& t : r)
            if (t.defined()) t = to_dtype(t, x.dtype());
        return r;
    });
    node->save(x);
    node->save(w.defined() ? w : m);
    node->save(m);   // eval mode: the constants composite_stats normalises by (train: recomputed from x)
    node->save(rs);
    set_history(y, node);
    return y;
}

void check_affine(const NormCall& k, const Tensor& x, const Tensor& t, const char* what) {
    if (!t.defined()) return;
    check_same_device(k.op, x, t);
    if (t.dtype() != x.dtype())
        fail(CT_ERR_DTYPE, k.op, ": ", what, " must have the input's dtype ", dtype_name(x.dtype()), ", got ",
             dtype_name(t.dtype()));
    if (t.sizes() != k.affine_shape)
        fail(CT_ERR_SHAPE, k.op, ": expected ", what, " of shape ", shape_str(k.affine_shape), ", got ",
             shape_str(t.sizes()));
}

// Checks the arguments, then runs the fused (CPU) or composite (CUDA) op; float16 / bfloat16 compute in float32
// (Note [Half compute]). Updates the running statistics (when train and given) in place, without autograd.
Tensor norm_op(const NormCall& k, const Tensor& x, const Tensor& w, const Tensor& b, Tensor rm, Tensor rv,
               double momentum) {
    check_floating(k.op, x);
    check_affine(k, x, w, "weight");
    check_affine(k, x, b, "bias");
    if (x.numel() == 0) {  // never size statistics by a dim next to a zero one; weight / bias get zero gradients
        Tensor y = mul_scalar(x, 0.0);
        for (const Tensor* t : {&w, &b})
            if (t->defined()) y = add(y, mul_scalar(sum(*t, IntList{}, false), 0.0));
        return y;
    }
    if (is_half(x.dtype()) && !native_half(x)) {  // Note [Half compute]; CUDA: Note [Native half norms]
        Tensor r = norm_op(k, half_to_float32(x), w.defined() ? half_to_float32(w) : w,
                           b.defined() ? half_to_float32(b) : b, rm, rv, momentum);
        return round_to_half(r, x.dtype());
    }
    Tensor y, bm, bv, em, ers;
    const DType cd = compute_dtype(x.dtype());  // a native half x: float32 statistics
    if (!k.train) {  // constants: the running mean and 1 / sqrt(running_var + eps) in x's (compute) dtype
        GradModeGuard no_grad(false);
        em = contiguous(to_dtype(detach(rm), cd));
        ers = contiguous(rsqrt(add_scalar(to_dtype(detach(rv), cd), k.eps)));
    }
    if (native_half(x)) {
        y = native_half_forward(k, x, w, b, bm, bv, em, ers);
    } else if (x.device().is_cpu()) {
        y = fused_forward(k, x, w, b, em, ers, bm, bv);
    } else {
        y = composite_forward(k, x, w, b, em, ers);
        if (k.train && rm.defined()) {
            GradModeGuard no_grad(false);
            Tensor xs = reshape(detach(x), stats_shape(k.g));
            bm = reshape(mean(xs, kStatDims, false), Shape{k.g.C});
            bv = reshape(var(xs, kStatDims, 0.0, false), Shape{k.g.C});
        }
    }
    if (k.train && rm.defined()) {  // torch: running = (1 - momentum) * running + momentum * batch (unbiased var)
        GradModeGuard no_grad(false);
        const double n = (double)k.g.row_size();
        Tensor new_m = add(mul_scalar(to_dtype(rm, bm.dtype()), 1.0 - momentum), mul_scalar(bm, momentum));
        Tensor new_v = add(mul_scalar(to_dtype(rv, bv.dtype()), 1.0 - momentum), mul_scalar(bv, momentum * n / (n - 1)));
        copy_(rm, reshape(new_m, rm.sizes()));
        copy_(rv, reshape(new_v, rv.sizes()));
    }
    return y;
}

void check_stat(const char* op, const Tensor& x, const Tensor& t, const char* what, int64_t C) {
    if (!t.defined()) return;
    check_same_device(op, x, t);
    if (!is_floating(t.dtype())) fail(CT_ERR_DTYPE, op, ": ", what, " must be floating, got ", dtype_name(t.dtype()));
    if (t.dim() != 1 || t.sizes()[0] != C)
        fail(CT_ERR_SHAPE, op, ": expected ", what, " of shape [", C, "] (one per channel of the input of shape ",
             shape_str(x.sizes()), "), got ", shape_str(t.sizes()));
}

// The product of x's sizes from dim d on; 0 for an empty x (whose other sizes may multiply past int64).
int64_t prod_from(const Tensor& x, size_t d) {
    if (x.numel() == 0) return 0;
    const Shape& s = x.sizes();
    int64_t p = 1;
    for (size_t i = d; i < s.size(); ++i) p *= s[i];
    return p;
}

}  // namespace

Tensor layer_norm(const Tensor& x, const IntList& normalized_shape, const Tensor& weight, const Tensor& bias,
                  double eps) {
    NormCall k{"layer_norm", "NativeLayerNormBackward", {}, Shape(normalized_shape.begin(), normalized_shape.end())};
    const size_t n = normalized_shape.size(), d = x.sizes().size();
    bool ok = n <= d;
    for (size_t i = 0; ok && i < n; ++i) ok = x.sizes()[d - n + i] == normalized_shape[i];
    if (!ok)
        fail(CT_ERR_SHAPE, "layer_norm: Given normalized_shape=", shape_str(k.affine_shape),
             ", expected input with shape [*, ", shape_str(k.affine_shape).substr(1), ", but got input of size",
             shape_str(x.sizes()));
    k.g.C = prod_from(x, d - n);
    k.g.N = k.g.C ? x.numel() / k.g.C : 0;
    k.eps = eps;
    return norm_op(k, x, weight, bias, Tensor(), Tensor(), 0.0);
}

Tensor group_norm(const Tensor& x, int64_t num_groups, const Tensor& weight, const Tensor& bias, double eps) {
    if (x.dim() < 2)
        fail(CT_ERR_SHAPE, "group_norm: expected an input of at least 2 dims [N, C, *], got ", shape_str(x.sizes()));
    const int64_t C = x.sizes()[1];
    if (num_groups <= 0 || C % num_groups != 0)
        fail(CT_ERR_INVALID_ARGUMENT, "group_norm: Expected number of channels in input to be divisible by num_groups, "
             "but got input of shape ", shape_str(x.sizes()), " and num_groups=", num_groups);
    NormCall k{"group_norm", "NativeGroupNormBackward", {}, Shape{C}};
    k.g = NormGeom{x.sizes()[0], C, prod_from(x, 2), num_groups, false};
    k.eps = eps;
    return norm_op(k, x, weight, bias, Tensor(), Tensor(), 0.0);
}

Tensor batch_norm(const Tensor& x, const Tensor& running_mean, const Tensor& running_var, const Tensor& weight,
                  const Tensor& bias, bool training, double momentum, double eps) {
    const char* op = "batch_norm";
    if (x.dim() < 2)
        fail(CT_ERR_SHAPE, op, ": expected an input of at least 2 dims [N, C, *], got ", shape_str(x.sizes()));
    const int64_t C = x.sizes()[1];
    check_stat(op, x, running_mean, "running_mean", C);
    check_stat(op, x, running_var, "running_var", C);
    if (running_mean.defined() != running_var.defined())
        fail(CT_ERR_INVALID_ARGUMENT, op, ": running_mean and running_var must both be given or both be NULL");
    if (!training && !running_mean.defined())
        fail(CT_ERR_INVALID_ARGUMENT, op, ": running_mean and running_var must be defined in evaluation mode");
    NormCall k{op, "NativeBatchNormBackward", {}, Shape{C}};
    k.g = NormGeom{x.sizes()[0], C, prod_from(x, 2), 1, true};
    if (training && k.g.row_size() == 1)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": Expected more than 1 value per channel when training, got input size ",
             shape_str(x.sizes()));
    k.train = training;
    k.eps = eps;
    return norm_op(k, x, weight, bias, running_mean, running_var, momentum);
}

}  // namespace ct

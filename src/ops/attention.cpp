// attention.cpp - scaled_dot_product_attention: argument checks and batch broadcasting, then on the CPU the
// blocked kernel of cpu/flash_attention.h recorded as ONE autograd node (its backward recomputes each block's
// probabilities from the saved log-sum-exp and the dropout keep bits from the saved Philox stretch); on CUDA
// a composite of CUDA-capable ops, materialising the scores one query block at a time.
#include <cmath>
#include <limits>
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "core/generator.h"
#include "cpu/flash_attention.h"
#include "ops/attention.h"
#include "ops/nn_common.h"
#include "ops/unary_common.h"

namespace ct {

namespace {

constexpr const char* kOp = "scaled_dot_product_attention";

// The checked shapes: batch (broadcast of q's, k's, v's and the mask's leading dims), L, S, E, Ev.
struct AttentionDims {
    Shape batch;
    int64_t B = 1, L = 0, S = 0, E = 0, Ev = 0;
    Shape with(int64_t a, int64_t b) const {
        Shape s = batch;
        s.push_back(a), s.push_back(b);
        return s;
    }
};

Shape leading(const Tensor& t, int64_t keep) {
    return Shape(t.sizes().begin(), t.sizes().end() - std::min<int64_t>(keep, t.dim()));
}

AttentionDims check_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, double p) {
    for (const Tensor* t : {&q, &k, &v})
        if (!t->defined()) fail(CT_ERR_INVALID_ARGUMENT, kOp, ": query, key and value are required");
    check_floating(kOp, q);
    if (k.dtype() != q.dtype() || v.dtype() != q.dtype())
        fail(CT_ERR_DTYPE, kOp, ": expected query, key and value of one dtype, got ", dtype_name(q.dtype()), ", ",
             dtype_name(k.dtype()), " and ", dtype_name(v.dtype()));
    check_same_device(kOp, q, k);
    check_same_device(kOp, q, v);
    if (q.dim() < 2 || k.dim() < 2 || v.dim() < 2)
        fail(CT_ERR_SHAPE, kOp, ": expected query [..., L, E], key [..., S, E] and value [..., S, Ev], got ",
             shape_str(q.sizes()), ", ", shape_str(k.sizes()), " and ", shape_str(v.sizes()));
    AttentionDims d;
    d.L = q.size(-2), d.E = q.size(-1), d.S = k.size(-2), d.Ev = v.size(-1);
    if (k.size(-1) != d.E || v.size(-2) != d.S)
        fail(CT_ERR_SHAPE, kOp, ": query [..., L, E] ", shape_str(q.sizes()), ", key [..., S, E] ",
             shape_str(k.sizes()), " and value [..., S, Ev] ", shape_str(v.sizes()),
             " disagree (key's last dim must equal query's, value's S must equal key's)");
    d.batch = broadcast_shapes(kOp, broadcast_shapes(kOp, leading(q, 2), leading(k, 2)), leading(v, 2));
    if (!(p >= 0.0 && p <= 1.0)) fail(CT_ERR_INVALID_ARGUMENT, kOp, ": dropout_p must be in [0, 1], got ", p);
    if (mask.defined()) {
        check_same_device(kOp, q, mask);
        if (mask.dtype() != DType::Bool && !is_floating(mask.dtype()))
            fail(CT_ERR_DTYPE, kOp, ": attn_mask must be bool or floating, got ", dtype_name(mask.dtype()));
        if (mask.dim() >= 1 && (mask.size(-1) != d.S && mask.size(-1) != 1))
            fail(CT_ERR_SHAPE, kOp, ": attn_mask ", shape_str(mask.sizes()), " does not broadcast to [..., L, S] = ",
                 shape_str(d.with(d.L, d.S)));
        if (mask.dim() >= 2 && (mask.size(-2) != d.L && mask.size(-2) != 1))
            fail(CT_ERR_SHAPE, kOp, ": attn_mask ", shape_str(mask.sizes()), " does not broadcast to [..., L, S] = ",
                 shape_str(d.with(d.L, d.S)));
        d.batch = broadcast_shapes(kOp, d.batch, leading(mask, 2));
    }
    d.B = 1;
    for (int64_t s : d.batch) d.B = checked_mul(d.B, s, kOp, "batch size");
    return d;
}

// The additive form of a mask in dtype: a floating mask cast, a bool one as 0 where true and -inf where false.
Tensor additive_mask(const Tensor& mask, DType dtype) {
    if (mask.dtype() != DType::Bool) return to_dtype(mask, dtype);
    Tensor z = zeros(mask.sizes(), dtype, mask.device());
    return masked_fill(z, logical_not(mask), -std::numeric_limits<double>::infinity());
}

double default_scale(double scale, int64_t E) {
    return (std::isnan(scale) || scale <= 0) ? 1.0 / std::sqrt((double)E) : scale;
}

// Note [Attention on CUDA]: the device path is the math of torch's reference, softmax(q k^T * scale + mask) v
// with dropout after the softmax, computed for query blocks of at most kDeviceBlockElems scores each and
// joined; its gradient comes from the ops' own backward nodes.
constexpr int64_t kDeviceBlockElems = int64_t(1) << 22;

Tensor attention_composite(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& madd,
                           const AttentionDims& d, double p, bool causal, double scale, Generator* gen) {
    Tensor kt = transpose(k, -2, -1);
    const int64_t per = std::max<int64_t>(1, kDeviceBlockElems / d.B / d.S);  // B, S >= 1 here
    Tensor cm = causal ? causal_additive_mask(d.L, d.S, q.dtype(), q.device()) : Tensor();
    TensorList pieces;
    for (int64_t i0 = 0; i0 < d.L; i0 += per) {
        const int64_t rows = std::min(per, d.L - i0);
        Tensor s = mul_scalar(matmul(narrow(q, -2, i0, rows), kt), scale);
        if (madd.defined()) s = add(s, madd.dim() >= 2 && madd.size(-2) == d.L ? narrow(madd, -2, i0, rows) : madd);
        if (causal) s = add(s, narrow(cm, 0, i0, rows));
        Tensor a = softmax(s, -1);
        if (p > 0) a = dropout(a, p, true, gen);
        pieces.push_back(matmul(a, v));
    }
    return pieces.size() == 1 ? pieces[0] : cat(pieces, -2);
}

// The problem description of flash_attention.h for contiguous [B, ...] operands; mask_view is the additive
// mask broadcast to batch + [L, S] (undefined: none).
template <typename T>
AttentionProblem<T> make_problem(const AttentionDims& d, const Tensor& mask_view, double p, bool causal,
                                 double scale) {
    AttentionProblem<T> pr;
    pr.B = d.B, pr.L = d.L, pr.S = d.S, pr.E = d.E, pr.Ev = d.Ev;
    pr.scale = (T)scale, pr.causal = causal, pr.dropout_p = p;
    if (mask_view.defined()) {
        const int64_t nb = (int64_t)d.batch.size();
        pr.mask_row = mask_view.stride(-2), pr.mask_col = mask_view.stride(-1);
        pr.mask_batch_offset.assign((size_t)d.B, 0);
        for (int64_t b = 0; b < d.B; ++b) {  // offset of batch element b from its multi-index
            int64_t rest = b, off = 0;
            for (int64_t i = nb - 1; i >= 0; --i) {
                off += (rest % d.batch[(size_t)i]) * mask_view.strides()[(size_t)i];
                rest /= d.batch[(size_t)i];
            }
            pr.mask_batch_offset[(size_t)b] = off;
        }
    }
    return pr;
}

// Note [Attention backward]: one node for q, k, v (and a floating mask that wants a gradient): it saves the
// contiguous q, k, v, the output, the [B, L] log-sum-exp and the additive mask view, and runs
// flash_attention_backward; the mask's gradient is the scores' gradient summed to the mask's shape (only then
// is a [B, L, S] tensor made). A second derivative is refused (create_graph gets a node that fails).
struct AttentionSaved {
    AttentionDims d;
    double p, scale;
    bool causal, mask_grad, has_mask;
    PhiloxStream stream;
};

TensorList attention_backward(BackwardCtx& c, const AttentionSaved& s) {
    NoGradGuard no_grad_here;
    const AttentionDims& d = s.d;
    Tensor qc = contiguous_nograd(c.saved(0)), kc = contiguous_nograd(c.saved(1)), vc = contiguous_nograd(c.saved(2));
    Tensor lse = c.saved(3), out = c.saved(4), mview = s.has_mask ? c.saved(5) : Tensor();
    Tensor g = contiguous_nograd(to_dtype(c.grads[0], qc.dtype()));
    Tensor dq = empty_tensor(qc.sizes(), qc.dtype(), Device{}, kOp);
    Tensor dk = empty_tensor(kc.sizes(), kc.dtype(), Device{}, kOp);
    Tensor dv = empty_tensor(vc.sizes(), vc.dtype(), Device{}, kOp), ds;
    if (s.mask_grad && c.needs(3)) ds = empty_tensor(d.with(d.L, d.S), qc.dtype(), Device{}, kOp);
    dispatch_float(qc.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        AttentionProblem<T> pr = make_problem<T>(d, mview, s.p, s.causal, s.scale);
        pr.dropout_stream = s.stream;
        if (mview.defined()) pr.mask = mview.data<T>();
        flash_attention_backward(pr, qc.data<T>(), kc.data<T>(), vc.data<T>(), out.data<T>(), lse.data<T>(),
                                 g.data<T>(), dq.data<T>(), dk.data<T>(), dv.data<T>(),
                                 ds.defined() ? ds.data<T>() : nullptr);
    });
    TensorList grads{dq, dk, dv, Tensor()};
    if (ds.defined()) grads[3] = ds;
    return grads;
}

// The fused CPU path for qe, ke, ve already expanded to the batch (autograd views of the caller's tensors).
Tensor attention_fused(const Tensor& qe, const Tensor& ke, const Tensor& ve, const Tensor& mask, const Tensor& madd,
                       const AttentionDims& d, double p, bool causal, double scale, Generator* gen) {
    Tensor qc = contiguous_nograd(qe), kc = contiguous_nograd(ke), vc = contiguous_nograd(ve);
    Tensor mview = madd.defined() ? broadcast_view(madd, d.with(d.L, d.S)) : Tensor();
    PhiloxStream stream;
    if (p > 0) {  // one Philox word per score (Note [Attention dropout]); B * L * S is checked, it is no tensor's size
        const int64_t scores = checked_mul(checked_mul(d.B, d.L, kOp, "scores"), d.S, kOp, "scores");
        stream = generator_or_default(gen).reserve((uint64_t)(scores / 4 + 1));
    }
    Tensor out = empty_tensor(d.with(d.L, d.Ev), qe.dtype(), Device{}, kOp);
    Tensor lse = empty_tensor({d.B, d.L}, qe.dtype(), Device{}, kOp);
    dispatch_float(qe.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        AttentionProblem<T> pr = make_problem<T>(d, mview, p, causal, scale);
        pr.dropout_stream = stream;
        if (mview.defined()) pr.mask = mview.data<T>();
        flash_attention_forward(pr, qc.data<T>(), kc.data<T>(), vc.data<T>(), out.data<T>(), lse.data<T>());
    });
    const bool mask_grad = mask.defined() && is_floating(mask.dtype()) && requires_grad(mask);
    if (!any_requires_grad({qe, ke, ve}) && !mask_grad) return out;
    AttentionSaved saved{d, p, scale, causal, mask_grad, mview.defined(), stream};
    const DType mdt = mask_grad ? mask.dtype() : qe.dtype();
    const Shape msz = mask_grad ? mask.sizes() : Shape{};
    auto node = make_node("ScaledDotProductAttentionBackward", {qe, ke, ve, mask_grad ? mask : Tensor()},
                          [saved, mdt, msz](BackwardCtx& c) -> TensorList {
                              TensorList g = attention_backward(c, saved);
                              if (g[3].defined()) g[3] = reduce_to(g[3], msz, mdt);
                              if (!GradMode::is_enabled()) return g;
                              for (size_t i = 0; i < 4; ++i)
                                  if (g[i].defined())
                                      g[i] = unary::record1(g[i], "ScaledDotProductAttentionBackwardBackward",
                                                            c.saved(i < 3 ? i : 0), false, false,
                                                            [](BackwardCtx&) -> Tensor {
                                                                fail(CT_ERR_NOT_SUPPORTED, kOp,
                                                                     ": the second derivative is not implemented");
                                                            });
                              return g;
                          });
    node->save(qe), node->save(ke), node->save(ve), node->save(lse);  // the views: backward copies when strided
    set_history(out, node);
    node->save_output(out);
    if (mview.defined()) node->save(mview);
    return out;
}

// Note [Empty attention]: with no batch, query, key or value column the result is zeros (torch's math: a softmax
// over no keys is empty and its product with the empty value is 0) and every gradient is zero. No score is
// computed, so the cost is bounded by the result even when L * S is huge.
Tensor attention_degenerate(const Tensor& q, const Tensor& k, const Tensor& v, const AttentionDims& d) {
    Tensor out = zeros(d.with(d.L, d.Ev), q.dtype(), q.device());
    if (!any_requires_grad({q, k, v})) return out;
    struct Meta {
        Shape shape;
        DType dtype;
        Device device;
    };
    std::vector<Meta> meta;
    for (const Tensor* t : {&q, &k, &v}) meta.push_back({t->sizes(), t->dtype(), t->device()});
    auto node = make_node("ScaledDotProductAttentionBackward", {q, k, v}, [meta](BackwardCtx&) {
        TensorList g;
        for (const Meta& m : meta) g.push_back(zeros(m.shape, m.dtype, m.device));
        return g;
    });
    set_history(out, node);
    return out;
}

}  // namespace

Tensor causal_additive_mask(int64_t L, int64_t S, DType dtype, Device device) {
    Tensor c = zeros({L, S}, dtype, Device{});
    dispatch_float(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t i = 0; i < L; ++i)
            for (int64_t j = i + 1; j < S; ++j) c.data<T>()[i * S + j] = -std::numeric_limits<T>::infinity();
    });
    return device.is_cpu() ? c : copy_to_device(c, device);
}

Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                                    double dropout_p, bool is_causal, double scale, Generator* gen) {
    if (auto h = half_dtype_of(q, k, v))  // Note [Half compute]
        return round_results(scaled_dot_product_attention(as_float32(q), as_float32(k), as_float32(v), as_float32(mask),
                                                          dropout_p, is_causal, scale, gen),
                             *h);
    AttentionDims d = check_attention(q, k, v, mask, dropout_p);
    check_device_usable(kOp, q.device());
    scale = default_scale(scale, d.E);
    Tensor madd;
    if (mask.defined()) {
        NoGradGuard no_grad_here;  // a floating mask's gradient goes through the node (or the composite below)
        madd = additive_mask(mask, q.dtype());
    }
    if (d.B == 0 || d.L == 0 || d.S == 0 || d.Ev == 0) return attention_degenerate(q, k, v, d);
    if (!q.device().is_cpu()) {
        Tensor m = mask.defined() && is_floating(mask.dtype()) ? to_dtype(mask, q.dtype()) : madd;
        return attention_composite(q, k, v, m, d, dropout_p, is_causal, scale, gen);
    }
    Tensor qe = expand(q, d.with(d.L, d.E)), ke = expand(k, d.with(d.S, d.E)), ve = expand(v, d.with(d.S, d.Ev));
    return attention_fused(qe, ke, ve, mask, madd, d, dropout_p, is_causal, scale, gen);
}

}  // namespace ct

// nn_loss.cpp - losses: cross_entropy (fused log_softmax + nll), nll_loss, mse_loss, binary_cross_entropy and
// binary_cross_entropy_with_logits, with reductions none/mean/sum. Forward and first-order backward run direct
// kernels; under create_graph the backward is composed of ops so that higher derivatives work.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")  // lets the NaN-aware selects in cpu/nn_rows.h vectorise
#endif
#include <cmath>
#include <cstring>
#include <memory>
#include "autograd/grad_mode.h"
#include "core/loss_math.h"
#include "cpu/nn_rows.h"
#include "ops/half_compute.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// ---- class targets (cross_entropy, nll_loss) ------------------------------------------------------------

// Checked class targets of an [N, C] (or [C]) input: per row the class, or -1 when ignored.
struct ClassTargets {
    std::vector<int64_t> cls;
    int64_t rows = 0, classes = 0, count = 0;  // count = rows not ignored
    bool batched = true;                       // input is [N, C] (else [C] with a 0-d target)
    Tensor device_cls;                         // cls as int64 [rows] on the input's CUDA device
};

// A CPU tensor holding a copy of n = prod(shape) values of dtype at p.
Tensor from_host(const void* p, const Shape& shape, DType dtype) {
    Tensor t = empty_tensor(shape, dtype, Device{});
    if (t.numel()) std::memcpy(t.raw_data(), p, (size_t)t.numel() * t.itemsize());
    return t;
}

// t on device (t itself when it is already there).
Tensor on_device(const Tensor& t, Device device) { return t.device() == device ? t : copy_to_device(t, device); }

std::shared_ptr<const ClassTargets> class_targets(const char* op, const Tensor& input, const Tensor& target,
                                                  int64_t ignore_index) {
    check_same_device(op, input, target);
    check_floating(op, input);
    if (input.dim() != 1 && input.dim() != 2)
        fail(CT_ERR_SHAPE, op, ": expected input of shape [N, C] or [C], got ", shape_str(input.sizes()));
    if (target.dtype() != DType::Int64 && target.dtype() != DType::Int32)
        fail(CT_ERR_DTYPE, op, ": expected integer class targets (int64 or int32), got ", dtype_name(target.dtype()));
    auto ct = std::make_shared<ClassTargets>();
    ct->batched = input.dim() == 2;
    ct->rows = ct->batched ? input.sizes()[0] : 1;
    ct->classes = input.sizes().back();
    Shape want = ct->batched ? Shape{ct->rows} : Shape{};
    if (target.sizes() != want)
        fail(CT_ERR_SHAPE, op, ": expected target of shape ", shape_str(want), " for input of shape ",
             shape_str(input.sizes()), ", got ", shape_str(target.sizes()));
    // Class indices are checked on the host (a CUDA target is copied back once, like a device-side assert would sync).
    Tensor t = to_dtype(contiguous_nograd(target.device().is_cpu() ? target : copy_to_device(target, Device{})),
                        DType::Int64);
    const int64_t* pt = t.data<int64_t>();
    ct->cls.resize((size_t)ct->rows);
    for (int64_t i = 0; i < ct->rows; ++i) {
        int64_t v = pt[i];
        if (v == ignore_index) {
            ct->cls[(size_t)i] = -1;
            continue;
        }
        if (v < 0 || v >= ct->classes)
            fail(CT_ERR_INDEX, op, ": target ", v, " is out of bounds for ", ct->classes, " classes");
        ct->cls[(size_t)i] = v;
        ++ct->count;
    }
    if (!input.device().is_cpu())  // the kernels' copy of cls (-1 for ignored rows)
        ct->device_cls = copy_to_device(from_host(ct->cls.data(), {ct->rows}, DType::Int64), input.device());
    return ct;
}

// Per-row loss values (0 for ignored rows) reduced to the output tensor.
Tensor reduce_rows(const std::vector<double>& loss, const ClassTargets& ct, Reduction r, DType dtype, Device dev) {
    if (r == Reduction::None) {
        Tensor out = empty_tensor(ct.batched ? Shape{ct.rows} : Shape{}, dtype, dev);
        dispatch_float(dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (int64_t i = 0; i < ct.rows; ++i) out.data<T>()[i] = (T)loss[(size_t)i];
        });
        return out;
    }
    double total = 0;
    for (double v : loss) total += v;
    if (r == Reduction::Mean) total = ct.count == 0 ? NAN : total / (double)ct.count;
    return full({}, total, dtype, dev);
}

// Gradient weight of each row: the incoming gradient for that row's loss (0 for ignored rows).
std::vector<double> row_weights(const Tensor& g, const ClassTargets& ct, Reduction r) {
    std::vector<double> w((size_t)ct.rows, 0.0);
    Tensor gd = to_dtype(contiguous_nograd(g), DType::Float64);
    const double* pg = gd.data<double>();
    double scale = r == Reduction::Mean ? 1.0 / (double)ct.count : 1.0;
    for (int64_t i = 0; i < ct.rows; ++i)
        if (ct.cls[(size_t)i] >= 0) w[(size_t)i] = r == Reduction::None ? pg[i] : pg[0] * scale;
    return w;
}

// Differentiable (in g) column of row weights, shape [N, 1] (or [] for a [C] input), for create_graph.
Tensor row_weights_op(const Tensor& g, const ClassTargets& ct, Reduction r, DType dtype) {
    Tensor valid = empty_tensor(ct.batched ? Shape{ct.rows, 1} : Shape{}, dtype, Device{});
    double scale = r == Reduction::Mean ? 1.0 / (double)ct.count : 1.0;
    dispatch_float(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t i = 0; i < ct.rows; ++i) valid.data<T>()[i] = ct.cls[(size_t)i] >= 0 ? (T)scale : T(0);
    });
    Tensor gs = (r == Reduction::None && ct.batched) ? reshape(g, {ct.rows, 1}) : g;
    return mul(gs, on_device(valid, g.device()));
}

// One-hot rows of the targets (zero rows for ignored targets), input-shaped, for create_graph.
Tensor one_hot(const ClassTargets& ct, const Tensor& like) {
    Tensor oh = zeros(like.sizes(), like.dtype(), Device{});
    dispatch_float(like.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t i = 0; i < ct.rows; ++i)
            if (ct.cls[(size_t)i] >= 0) oh.data<T>()[i * ct.classes + ct.cls[(size_t)i]] = T(1);
    });
    return on_device(oh, like.device());
}

// Calls fn(row pointer, i) for every row of the contiguous [rows, classes] input, in parallel.
template <typename T, typename F> void for_each_row(const Tensor& xc, const ClassTargets& ct, F fn) {
    const T* px = xc.data<T>();
    parallel_for(ct.rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, ct.classes)), [&](int64_t i0, int64_t i1) {
        for (int64_t i = i0; i < i1; ++i) fn(px + i * ct.classes, i);
    });
}

// Per-row (or per-element) losses [n] on a CUDA device reduced like reduce_rows: the sum is a product with
// ones (cuBLAS), so no reduction kernel is needed; mean divides by count (NaN when it is 0).
Tensor reduce_on_device(const Tensor& loss, Reduction r, const Shape& none_shape, int64_t count) {
    if (r == Reduction::None) return reshape(loss, none_shape);
    Tensor total = matmul(loss, ones({loss.numel()}, loss.dtype(), loss.device()));
    if (r == Reduction::Sum) return total;
    return mul_scalar(total, count == 0 ? NAN : 1.0 / (double)count);
}

// cross_entropy / nll_loss of x [rows, classes] (or [classes]) on CUDA; op is a ct_cuda_class_loss_op.
Tensor class_loss_cuda(int32_t op, const char* name, const Tensor& x, std::shared_ptr<const ClassTargets> ct,
                       Reduction r) {
    const bool ce = op == CT_CUDA_CROSS_ENTROPY;
    const int32_t dev = x.device().index;
    Tensor xc = contiguous_nograd(x), loss = empty_tensor({ct->rows}, x.dtype(), x.device());
    Tensor lse = ce ? empty_tensor({ct->rows}, x.dtype(), x.device()) : Tensor();
    cuda_check(name, cuda_device_backend(name, dev).class_loss(
                         dev, (int32_t)x.dtype(), op, ct->rows, ct->classes, xc.device_data(),
                         static_cast<const int64_t*>(ct->device_cls.device_data()), loss.device_data(),
                         ce ? lse.device_data() : nullptr));
    Tensor out = reduce_on_device(loss, r, ct->batched ? Shape{ct->rows} : Shape{}, ct->count);
    if (!requires_grad(x)) return out;
    auto node = make_node(ce ? "CrossEntropyBackward" : "NllLossBackward", {x}, [ct, r, op, ce](BackwardCtx& c) {
        Tensor x = c.saved(0);
        if (GradMode::is_enabled()) {  // composed of ops, for higher derivatives
            Tensor w = row_weights_op(c.grads[0], *ct, r, x.dtype());
            return TensorList{ce ? mul(sub(softmax(x, -1), one_hot(*ct, x)), w) : mul(neg(one_hot(*ct, x)), w)};
        }
        const char* what = ce ? "cross_entropy_backward" : "nll_loss_backward";
        Tensor g = contiguous_nograd(c.grads[0]), xc = contiguous_nograd(x);
        Tensor lse = ce ? c.saved(1) : Tensor(), gx = empty_tensor(x.sizes(), x.dtype(), x.device());
        const bool per_row = g.numel() == ct->rows && r == Reduction::None;
        const double scale = r == Reduction::Mean ? 1.0 / (double)ct->count : 1.0;
        const int32_t dev = x.device().index;
        cuda_check(what, cuda_device_backend(what, dev).class_loss_backward(
                             dev, (int32_t)x.dtype(), op, ct->rows, ct->classes, ce ? xc.device_data() : nullptr,
                             ce ? lse.device_data() : nullptr, static_cast<const int64_t*>(ct->device_cls.device_data()),
                             g.device_data(), per_row, scale, gx.device_data()));
        return TensorList{gx};
    });
    node->save(x);
    if (ce) node->save(lse);
    set_history(out, node);
    return out;
}

}  // namespace

// ---- cross_entropy / nll_loss ---------------------------------------------------------------------------

Tensor cross_entropy(const Tensor& logits, const Tensor& target, Reduction r, int64_t ignore_index) {
    if (is_half(logits.dtype()))  // Note [Half compute]
        return round_to_half(cross_entropy(half_to_float32(logits), target, r, ignore_index), logits.dtype());
    auto ct = class_targets("cross_entropy", logits, target, ignore_index);
    if (!logits.device().is_cpu()) return class_loss_cuda(CT_CUDA_CROSS_ENTROPY, "cross_entropy", logits, ct, r);
    Tensor xc = contiguous_nograd(logits);
    auto lse = std::make_shared<std::vector<double>>((size_t)ct->rows, 0.0);
    std::vector<double> loss((size_t)ct->rows, 0.0);
    dispatch_float(logits.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_row<T>(xc, *ct, [&](const T* row, int64_t i) {
            const T mx = row_max(row, ct->classes);
            (*lse)[(size_t)i] = (double)mx + std::log(row_sum_exp<false, T>(row, ct->classes, mx, nullptr));
            int64_t t = ct->cls[(size_t)i];
            if (t >= 0) loss[(size_t)i] = (*lse)[(size_t)i] - (double)row[t];
        });
    });
    Tensor out = reduce_rows(loss, *ct, r, logits.dtype(), logits.device());
    if (!requires_grad(logits)) return out;
    auto node = make_node("CrossEntropyBackward", {logits}, [ct, lse, r](BackwardCtx& c) -> TensorList {
        Tensor x = c.saved(0);
        if (GradMode::is_enabled()) {
            Tensor p = softmax(x, -1);
            return {mul(sub(p, one_hot(*ct, x)), row_weights_op(c.grads[0], *ct, r, x.dtype()))};
        }
        std::vector<double> w = row_weights(c.grads[0], *ct, r);
        Tensor xc = contiguous_nograd(x), gx = empty_tensor(x.sizes(), x.dtype(), x.device());
        dispatch_float(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            for_each_row<T>(xc, *ct, [&](const T* row, int64_t i) {
                T* gr = gx.data<T>() + i * ct->classes;
                const T wi = (T)w[(size_t)i], l = (T)(*lse)[(size_t)i];
                exp_shifted(row, gr, ct->classes, l);
                for (int64_t j = 0; j < ct->classes; ++j) gr[j] *= wi;
                if (ct->cls[(size_t)i] >= 0) gr[ct->cls[(size_t)i]] -= (T)wi;
            });
        });
        return {gx};
    });
    node->save(logits);
    set_history(out, node);
    return out;
}

Tensor nll_loss(const Tensor& log_probs, const Tensor& target, Reduction r, int64_t ignore_index) {
    // Note [Half compute]
    if (auto h = half_dtype_of(log_probs))
        return round_results(nll_loss(as_float32(log_probs), target, r, ignore_index), *h);
    auto ct = class_targets("nll_loss", log_probs, target, ignore_index);
    if (!log_probs.device().is_cpu()) return class_loss_cuda(CT_CUDA_NLL_LOSS, "nll_loss", log_probs, ct, r);
    Tensor xc = contiguous_nograd(log_probs);
    std::vector<double> loss((size_t)ct->rows, 0.0);
    dispatch_float(log_probs.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t i = 0; i < ct->rows; ++i)
            if (ct->cls[(size_t)i] >= 0) loss[(size_t)i] = -(double)xc.data<T>()[i * ct->classes + ct->cls[(size_t)i]];
    });
    Tensor out = reduce_rows(loss, *ct, r, log_probs.dtype(), log_probs.device());
    if (!requires_grad(log_probs)) return out;
    Shape in_shape = log_probs.sizes();
    DType dt = log_probs.dtype();
    auto node = make_node("NllLossBackward", {log_probs}, [ct, r, in_shape, dt](BackwardCtx& c) -> TensorList {
        Tensor gx = zeros(in_shape, dt, c.grads[0].device());
        if (GradMode::is_enabled()) return {mul(neg(one_hot(*ct, gx)), row_weights_op(c.grads[0], *ct, r, dt))};
        std::vector<double> w = row_weights(c.grads[0], *ct, r);
        dispatch_float(dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (int64_t i = 0; i < ct->rows; ++i)
                if (ct->cls[(size_t)i] >= 0) gx.data<T>()[i * ct->classes + ct->cls[(size_t)i]] = (T)-w[(size_t)i];
        });
        return {gx};
    });
    set_history(out, node);
    return out;
}

// ---- elementwise losses (mse, binary cross entropy) -----------------------------------------------------

namespace {

// Each loss provides value(x, t), dx(x, t) and dt(x, t) (per-element, for the direct kernels) and
// grads(x, t, g) (composed of ops, for create_graph; g is the per-element incoming gradient).
struct MseLoss : math::MseLossMath {
    static constexpr const char* name = "mse_loss";
    static constexpr int32_t cuda_code = CT_CUDA_LOSS_MSE;
    static std::pair<Tensor, Tensor> grads(const Tensor& x, const Tensor& t, const Tensor& g) {
        Tensor gx = mul(mul_scalar(sub(x, t), 2.0), g);
        return {gx, neg(gx)};
    }
};

struct BceLoss : math::BceLossMath {
    static constexpr const char* name = "binary_cross_entropy";
    static constexpr int32_t cuda_code = CT_CUDA_LOSS_BCE;
    static std::pair<Tensor, Tensor> grads(const Tensor& x, const Tensor& t, const Tensor& g) {
        Tensor one_minus_x = sub(wrapped_scalar(1.0, false), x);
        Tensor gx = div(mul(g, sub(x, t)), clamp(mul(one_minus_x, x), 1e-12, std::nullopt));
        Tensor gt = mul(g, sub(clamp(log(one_minus_x), -100.0, std::nullopt), clamp(log(x), -100.0, std::nullopt)));
        return {gx, gt};
    }
};

struct BceWithLogitsLoss : math::BceWithLogitsLossMath {
    static constexpr const char* name = "binary_cross_entropy_with_logits";
    static constexpr int32_t cuda_code = CT_CUDA_LOSS_BCE_WITH_LOGITS;
    static std::pair<Tensor, Tensor> grads(const Tensor& x, const Tensor& t, const Tensor& g) {
        return {mul(g, sub(sigmoid(x), t)), mul(g, neg(x))};
    }
};

void check_probabilities(const Tensor& xc) {
    dispatch_float(xc.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = xc.data<T>();
        for (int64_t i = 0, n = xc.numel(); i < n; ++i)
            if (!(p[i] >= T(0) && p[i] <= T(1)))
                fail(CT_ERR_INVALID_ARGUMENT, "binary_cross_entropy: all elements of probs must be in [0, 1], got ",
                     (double)p[i], " at flat index ", i);
    });
}

// Sum over i of f(i) with per-chunk double partials (chunking independent of the thread count).
template <typename F> double parallel_sum(int64_t n, F f) {
    const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(256, n / 8192));
    std::vector<double> part((size_t)chunks, 0.0);
    parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) {
            double acc[kRowLanes] = {};  // independent partial sums, so the loop vectorises
            int64_t i = n * c / chunks;
            const int64_t e = n * (c + 1) / chunks;
            for (; i + kRowLanes <= e; i += kRowLanes)
                for (int l = 0; l < kRowLanes; ++l) acc[l] += (double)f(i + l);
            for (; i < e; ++i) acc[0] += (double)f(i);
            double s = 0;
            for (double a : acc) s += a;
            part[(size_t)c] = s;
        }
    });
    double total = 0;
    for (double v : part) total += v;
    return total;
}

template <typename Loss>
Tensor elementwise_loss_backward(const Tensor& x, const Tensor& t, const Tensor& g, Reduction r, bool want_x,
                                 bool want_t, Tensor& gt_out) {
    const int64_t n = x.numel();
    if (GradMode::is_enabled()) {
        Tensor gs = r == Reduction::Mean ? mul_scalar(g, 1.0 / (double)n) : g;
        auto gr = Loss::grads(x, t, gs);
        gt_out = gr.second;
        return gr.first;
    }
    Tensor gc = contiguous_nograd(g), gx, gt;
    if (want_x) gx = empty_tensor(x.sizes(), x.dtype(), x.device());
    if (want_t) gt = empty_tensor(x.sizes(), x.dtype(), x.device());
    if (!x.device().is_cpu()) {
        const std::string what = std::string(Loss::name) + "_backward";
        const int32_t dev = x.device().index;
        const double scale = r == Reduction::Mean ? 1.0 / (double)n : 1.0;
        cuda_check(what.c_str(), cuda_device_backend(what.c_str(), dev).pointwise_loss_backward(
                                     dev, (int32_t)x.dtype(), Loss::cuda_code, n, x.device_data(), t.device_data(),
                                     gc.device_data(), r == Reduction::None, scale,
                                     want_x ? gx.device_data() : nullptr, want_t ? gt.device_data() : nullptr));
        gt_out = gt;
        return gx;
    }
    dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T *px = x.data<T>(), *pt = t.data<T>(), *pg = gc.data<T>();
        const bool per_element = r == Reduction::None;
        const T scalar_g = per_element ? T(0) : (T)(pg[0] * (r == Reduction::Mean ? 1.0 / (double)n : 1.0));
        T* pgx = want_x ? gx.data<T>() : nullptr;
        T* pgt = want_t ? gt.data<T>() : nullptr;
        parallel_for(n, kElementwiseGrain, [&](int64_t i0, int64_t i1) {
            for (int64_t i = i0; i < i1; ++i) {
                T gi = per_element ? pg[i] : scalar_g;
                if (pgx) pgx[i] = gi * Loss::dx(px[i], pt[i]);
                if (pgt) pgt[i] = gi * Loss::dt(px[i], pt[i]);
            }
        });
    });
    gt_out = gt;
    return gx;
}

// The forward of an elementwise loss on CUDA: xc and tc contiguous, of one shape and floating dtype.
template <typename Loss> Tensor elementwise_loss_cuda(const Tensor& xc, const Tensor& tc, Reduction r) {
    const int32_t dev = xc.device().index;
    Tensor loss = empty_tensor(r == Reduction::None ? xc.sizes() : Shape{xc.numel()}, xc.dtype(), xc.device());
    cuda_check(Loss::name, cuda_device_backend(Loss::name, dev).pointwise_loss(
                               dev, (int32_t)xc.dtype(), Loss::cuda_code, xc.numel(), xc.device_data(),
                               tc.device_data(), loss.device_data()));
    return reduce_on_device(loss, r, xc.sizes(), xc.numel());
}

// Elementwise loss of input and target (broadcast together), reduced; records one node for both inputs.
template <typename Loss> Tensor elementwise_loss(const Tensor& input, const Tensor& target, Reduction r) {
    check_same_device(Loss::name, input, target);
    DType dt = promote_types(input.dtype(), target.dtype());
    if (!is_floating(dt) || !is_floating(input.dtype()))
        fail(CT_ERR_DTYPE, Loss::name, ": expected floating input and target, got ", dtype_name(input.dtype()), " and ",
             dtype_name(target.dtype()));
    Shape shape = broadcast_shapes(Loss::name, input.sizes(), target.sizes());
    Tensor xc = contiguous_nograd(broadcast_view(cast_nograd(input, dt), shape));
    Tensor tc = contiguous_nograd(broadcast_view(cast_nograd(target, dt), shape));
    if (std::is_same<Loss, BceLoss>::value) check_probabilities(on_device(xc, Device{}));
    Tensor out = !input.device().is_cpu() ? elementwise_loss_cuda<Loss>(xc, tc, r) : dispatch_float(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T *px = xc.data<T>(), *pt = tc.data<T>();
        const int64_t n = xc.numel();
        if (r == Reduction::None) {
            Tensor o = empty_tensor(shape, dt, input.device());
            T* po = o.data<T>();
            parallel_for(n, kElementwiseGrain, [&](int64_t i0, int64_t i1) {
                for (int64_t i = i0; i < i1; ++i) po[i] = Loss::value(px[i], pt[i]);
            });
            return o;
        }
        double total = parallel_sum(n, [&](int64_t i) { return Loss::value(px[i], pt[i]); });
        return full({}, r == Reduction::Mean ? total / (double)n : total, dt, input.device());
    });
    if (!any_requires_grad({input, target})) return out;
    Shape sx = input.sizes(), st = target.sizes();
    DType dx = input.dtype(), dtt = target.dtype();
    auto node = make_node(std::string(Loss::name) + "_backward", {input, target}, [=](BackwardCtx& c) -> TensorList {
        // saved 0, 1: the inputs (with history, for create_graph); 2, 3: their broadcast contiguous copies
        bool direct = !GradMode::is_enabled();
        Tensor x = c.saved(direct ? 2 : 0), t = c.saved(direct ? 3 : 1), gt;
        Tensor gx = elementwise_loss_backward<Loss>(x, t, c.grads[0], r, c.needs(0), c.needs(1), gt);
        return {c.needs(0) ? reduce_to(gx, sx, dx) : Tensor(), c.needs(1) ? reduce_to(gt, st, dtt) : Tensor()};
    });
    node->save(input);
    node->save(target);
    node->save(xc);
    node->save(tc);
    set_history(out, node);
    return out;
}

}  // namespace

Tensor mse_loss(const Tensor& input, const Tensor& target, Reduction r) {
    if (is_half(input.dtype()) || is_half(target.dtype()))  // Note [Half compute]
        return round_to_half(mse_loss(half_to_float32(input), half_to_float32(target), r),
                             promote_types(input.dtype(), target.dtype()));
    return elementwise_loss<MseLoss>(input, target, r);
}

Tensor binary_cross_entropy(const Tensor& probs, const Tensor& target, Reduction r) {
    if (probs.dtype() != target.dtype())  // torch 1.13 raises too (unlike the logits form, which promotes)
        fail(CT_ERR_DTYPE, "binary_cross_entropy: target (", dtype_name(target.dtype()), ") must have the dtype of probs (",
             dtype_name(probs.dtype()), ")");
    // Note [Half compute]
    if (auto h = half_dtype_of(probs, target))
        return round_results(binary_cross_entropy(as_float32(probs), as_float32(target), r), *h);
    if (probs.sizes() != target.sizes())
        fail(CT_ERR_SHAPE, "binary_cross_entropy: target shape ", shape_str(target.sizes()),
             " must match probs shape ", shape_str(probs.sizes()));
    return elementwise_loss<BceLoss>(probs, target, r);
}

Tensor binary_cross_entropy_with_logits(const Tensor& logits, const Tensor& target, Reduction r) {
    // Note [Half compute]
    if (auto h = half_dtype_of(logits, target))
        return round_results(binary_cross_entropy_with_logits(as_float32(logits), as_float32(target), r), *h);
    if (logits.sizes() != target.sizes())
        fail(CT_ERR_SHAPE, "binary_cross_entropy_with_logits: target shape ", shape_str(target.sizes()),
             " must match logits shape ", shape_str(logits.sizes()));
    return elementwise_loss<BceWithLogitsLoss>(logits, target, r);
}

}  // namespace ct

// reduce_stats.cpp - var and std (with correction), logsumexp (stable, one pass) and p-norms, with backward;
// var_mean / std_mean (issue 14) are the var / std and mean ops side by side (one implementation each).
// All require floating input (like PyTorch's var/std/norm; logsumexp here too) and accumulate in double.
#include <cmath>
#include "cpu/reduce_kernel.h"
#include "ops/half_compute.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

// Count, mean and sum of squared deviations; merged with Chan's formula, so any split is exact-ish.
struct Moments {
    double n = 0, mean = 0, m2 = 0;
};
inline void merge_moments(Moments& a, const Moments& b) {
    if (b.n == 0) return;
    if (a.n == 0) {
        a = b;
        return;
    }
    double n = a.n + b.n, d = b.mean - a.mean;
    a.mean += d * b.n / n;
    a.m2 += b.m2 + d * d * a.n * b.n / n;
    a.n = n;
}

template <typename T> struct VarReducer {
    using Acc = Moments;
    double correction;
    bool take_sqrt;
    Acc init() const { return {}; }
    void step(Acc& a, T v, int64_t) const {  // Welford
        a.n += 1;
        double d = (double)v - a.mean;
        a.mean += d / a.n;
        a.m2 += d * ((double)v - a.mean);
    }
    void merge(Acc& a, const Acc& b) const { merge_moments(a, b); }
    // Contiguous runs: two vectorised passes (mean, then squared deviations), merged as one block.
    void run(Acc& a, const T* p, int64_t n, int64_t) const {
        if (n == 0) return;
        Moments b;
        b.n = (double)n;
        b.mean = lane_sum(p, n) / (double)n;
        constexpr int kLanes = 8;
        double lane[kLanes] = {};
        int64_t i = 0;
        for (; i + kLanes <= n; i += kLanes) {
#pragma omp simd
            for (int l = 0; l < kLanes; ++l) {
                double d = (double)p[i + l] - b.mean;
                lane[l] += d * d;
            }
        }
        for (; i < n; ++i) lane[0] += ((double)p[i] - b.mean) * ((double)p[i] - b.mean);
        for (int l = 0; l < kLanes; ++l) b.m2 += lane[l];
        merge_moments(a, b);
    }
    double finish(const Acc& a) const {
        double v = a.m2 / std::max(0.0, a.n - correction);  // 0/0 = NaN for too few elements, like PyTorch
        return take_sqrt ? std::sqrt(v) : v;
    }
};

// log(sum(exp(v))) in one pass: the running max m rescales the running sum s when it grows.
struct Lse {
    double m = -INFINITY, s = 0;
    bool nan = false, pos_inf = false;
};
template <typename T> struct LseReducer {
    using Acc = Lse;
    Acc init() const { return {}; }
    void step(Acc& a, T tv, int64_t) const {
        double v = (double)tv;
        if (v != v) a.nan = true;
        else if (v == INFINITY) a.pos_inf = true;
        else if (v == -INFINITY) return;
        else if (v > a.m) a.s = a.s * std::exp(a.m - v) + 1.0, a.m = v;
        else a.s += std::exp(v - a.m);
    }
    void merge(Acc& a, const Acc& b) const {
        a.nan |= b.nan;
        a.pos_inf |= b.pos_inf;
        if (b.s == 0) return;
        if (a.s == 0) a.m = b.m, a.s = b.s;
        else if (b.m > a.m) a.s = a.s * std::exp(a.m - b.m) + b.s, a.m = b.m;
        else a.s += b.s * std::exp(b.m - a.m);
    }
    // Contiguous runs: a vectorised max pass, then one exp per element without branches.
    void run(Acc& a, const T* p, int64_t n, int64_t) const {
        if (n == 0) return;
        T m = p[0];
        for (int64_t i = 1; i < n; ++i) m = p[i] > m ? p[i] : m;
        double total = 0;
        for (int64_t i = 0; i < n; ++i) total += (double)p[i];  // NaN or +inf anywhere shows up here
        if (total != total || total == INFINITY || m != m) {
            for (int64_t i = 0; i < n; ++i) step(a, p[i], 0);
            return;
        }
        if (m == -INFINITY) return;  // only -inf: adds nothing
        double s = 0;
        for (int64_t i = 0; i < n; ++i) s += (double)std::exp(p[i] - m);  // float exp for float input
        merge(a, Lse{(double)m, s, false, false});
    }
    double finish(const Acc& a) const {
        if (a.nan) return NAN;
        if (a.pos_inf) return INFINITY;
        return a.s == 0 ? -INFINITY : a.m + std::log(a.s);
    }
};

enum class NormKind { Zero, One, Two, Inf, NegInf, General };

template <typename T, NormKind K> struct NormReducer {
    using Acc = double;
    double p;
    Acc init() const { return K == NormKind::Inf ? 0.0 : (K == NormKind::NegInf ? INFINITY : 0.0); }
    void step(Acc& a, T tv, int64_t) const {
        double v = std::fabs((double)tv);
        if (K == NormKind::Zero) a += v != 0;
        else if (K == NormKind::One) a += v;
        else if (K == NormKind::Two) a += v * v;
        else if (K == NormKind::General) a += std::pow(v, p);
        else if (a == a && (v != v || (K == NormKind::Inf ? v > a : v < a))) a = v;  // NaN sticks
    }
    void merge(Acc& a, const Acc& b) const {
        if (K == NormKind::Inf || K == NormKind::NegInf) step(a, (T)b, 0);
        else a += b;
    }
    void run(Acc& a, const T* q, int64_t n, int64_t) const {
        if (K != NormKind::Two) {
            for (int64_t i = 0; i < n; ++i) step(a, q[i], 0);
            return;
        }
        constexpr int kLanes = 8;
        double lane[kLanes] = {};
        int64_t i = 0;
        for (; i + kLanes <= n; i += kLanes) {
#pragma omp simd
            for (int l = 0; l < kLanes; ++l) lane[l] += (double)q[i + l] * (double)q[i + l];
        }
        for (; i < n; ++i) lane[0] += (double)q[i] * (double)q[i];
        for (int l = 0; l < kLanes; ++l) a += lane[l];
    }
    double finish(const Acc& a) const {
        if (K == NormKind::Two) return std::sqrt(a);
        if (K == NormKind::General) return std::pow(a, 1.0 / p);
        return a;
    }
};

struct ReduceSetup {
    std::vector<bool> mask;
    Shape out_shape, keep_shape;
    IntList dims;     // reduced dims as a list (empty = all, for 0-d)
    int64_t n = 1;    // elements per reduced slice
};

ReduceSetup setup(const char* op, const Tensor& x, const IntList& dims, bool keepdim) {
    check_floating(op, x);
    ReduceSetup s;
    s.mask = reduce_mask(op, dims, x.dim());
    s.out_shape = reduced_shape(x.sizes(), s.mask, keepdim);
    s.keep_shape = reduced_shape(x.sizes(), s.mask, true);
    for (int64_t d = 0; d < x.dim(); ++d)
        if (s.mask[d]) s.dims.push_back(d), s.n *= x.sizes()[d];
    return s;
}

// Runs reducer Red<T> (float result in x's dtype) built by make(TypeTag<T>); on CUDA the backend's reduction
// cuda_code with parameter p0.
// A half CUDA x gives the float32 result (Note [Native half on CUDA]; the caller rounds).
template <typename Make>
Tensor float_reduce(const char* op, int32_t cuda_code, double p0, const Tensor& x, const ReduceSetup& s, Make make) {
    Tensor out = empty_tensor(s.out_shape, native_half(x) ? DType::Float32 : x.dtype(), x.device());
    if (!x.device().is_cpu()) {
        cuda_reduce(op, cuda_code, x, s.mask, out, Tensor(), p0);
        return out;
    }
    dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        reduce_into<T, T>(out, x, s.mask, make(tag));
    });
    return out;
}

// Records a one-input reduction node that saves x and the output; back(g_keep, x, out_keep) gives dx. A half x
// (native on CUDA, with a float32 out) runs back on a float32 copy of x made in the backward and rounds dx
// (Note [Native half on CUDA]); the result is out rounded to x's dtype then.
template <typename Back>
Tensor record_reduction(Tensor out, const char* name, const Tensor& x, const Shape& keep_shape, Back back) {
    if (requires_grad(x)) {
        auto node = make_node(name, {x}, [keep_shape, back](BackwardCtx& c) {
            Tensor xs = c.saved(0);
            Tensor gx = back(reshape(c.grads[0], keep_shape), half_to_float32(xs), reshape(c.saved(1), keep_shape));
            return TensorList{is_half(xs.dtype()) ? round_to_half(gx, xs.dtype()) : gx};
        });
        node->save(x);
        set_history(out, node);
        node->save_output(out);  // after set_history, so it is saved without its grad_fn (Note [Saved outputs])
    }
    return is_half(x.dtype()) ? round_to_half(out, x.dtype()) : out;
}

// Note [Half compute] on the CPU; a half CUDA x runs the native kernel (Note [Native half on CUDA]).
bool half_fallback(const Tensor& x) { return is_half(x.dtype()) && !native_half(x); }

Tensor scalar_like(double v) { return wrapped_scalar(v, false); }
Tensor abs_of(const Tensor& x) { return where(lt(x, scalar_like(0)), neg(x), x); }
Tensor sign_of(const Tensor& x) {
    return sub(to_dtype(gt(x, scalar_like(0)), x.dtype()), to_dtype(lt(x, scalar_like(0)), x.dtype()));
}
// a / b with 0 where b == 0 (the zero-norm / zero-std gradient convention of PyTorch).
Tensor div_or_zero(const Tensor& a, const Tensor& b) {
    return where(eq(b, scalar_like(0)), scalar_like(0), div(a, b));
}

Tensor var_or_std(const char* op, const Tensor& x, const IntList& dims, double correction, bool keepdim, bool sq) {
    ReduceSetup s = setup(op, x, dims, keepdim);
    Tensor out = float_reduce(op, sq ? CT_CUDA_REDUCE_STD : CT_CUDA_REDUCE_VAR, correction, x, s, [&](auto tag) {
        return VarReducer<typename decltype(tag)::type>{correction, sq};
    });
    double scale = 1.0 / std::max(0.0, (double)s.n - correction);
    IntList rd = s.dims;
    // var: 2 (x - mean) / (N - correction); std: var's gradient of g / (2 std), 0 where std == 0
    return record_reduction(out, sq ? "StdBackward" : "VarBackward", x, s.keep_shape,
                            [rd, scale, sq](const Tensor& g, const Tensor& x, const Tensor& outk) {
                                Tensor centered = sub(x, mean(x, rd, true));
                                Tensor w = sq ? div_or_zero(g, outk) : mul_scalar(g, 2.0);
                                return mul(w, mul_scalar(centered, scale));
                            });
}

template <NormKind K> Tensor norm_kernel(const Tensor& x, const ReduceSetup& s, double p) {
    return float_reduce("norm", CT_CUDA_REDUCE_NORM, p, x, s,
                        [&](auto tag) { return NormReducer<typename decltype(tag)::type, K>{p}; });
}

// d norm / d x for each kind; g and outk have keepdim shape.
Tensor norm_grad(double p, const Tensor& g, const Tensor& x, const Tensor& outk, const IntList& dims) {
    if (p == 0) return zeros_like(x);
    if (p == 1) return mul(g, sign_of(x));
    if (p == 2) return mul(x, div_or_zero(g, outk));
    if (std::isinf(p)) {  // like max/min of |x|: split evenly among the elements that attain it
        Tensor at = logical_or(eq(abs_of(x), outk), logical_and(ne(x, x), ne(outk, outk)));
        Tensor count = to_dtype(sum(at, dims, true), x.dtype());
        return where(at, mul(sign_of(x), div(g, count)), scalar_like(0));
    }
    // sign(x) |x|^(p-1) g / norm^(p-1), 0 at x == 0 and where the norm is 0
    Tensor ax = abs_of(x);
    Tensor num = mul(sign_of(x), pow(ax, scalar_like(p - 1)));
    Tensor scale = div_or_zero(g, pow(outk, scalar_like(p - 1)));
    return where(eq(x, scalar_like(0)), scalar_like(0), mul(num, scale));
}

}  // namespace

Tensor var(const Tensor& x, const IntList& dims, double correction, bool keepdim) {
    if (half_fallback(x)) return round_to_half(var(half_to_float32(x), dims, correction, keepdim), x.dtype());  // Note [Half compute]
    return var_or_std("var", x, dims, correction, keepdim, false);
}

Tensor std_(const Tensor& x, const IntList& dims, double correction, bool keepdim) {
    if (half_fallback(x)) return round_to_half(std_(half_to_float32(x), dims, correction, keepdim), x.dtype());
    return var_or_std("std", x, dims, correction, keepdim, true);
}

Tensor logsumexp(const Tensor& x, const IntList& dims, bool keepdim) {
    if (half_fallback(x)) return round_to_half(logsumexp(half_to_float32(x), dims, keepdim), x.dtype());  // Note [Half compute]
    ReduceSetup s = setup("logsumexp", x, dims, keepdim);
    Tensor out = float_reduce("logsumexp", CT_CUDA_REDUCE_LOGSUMEXP, 0.0, x, s,
                              [](auto tag) { return LseReducer<typename decltype(tag)::type>{}; });
    // softmax-weighted gradient: g * exp(x - logsumexp)
    return record_reduction(out, "LogsumexpBackward", x, s.keep_shape,
                            [](const Tensor& g, const Tensor& x, const Tensor& outk) {
                                return mul(g, exp(sub(x, outk)));
                            });
}

Tensor norm(const Tensor& x, double p, const IntList& dims, bool keepdim) {
    if (half_fallback(x)) return round_to_half(norm(half_to_float32(x), p, dims, keepdim), x.dtype());  // Note [Half compute]
    ReduceSetup s = setup("norm", x, dims, keepdim);
    if (std::isnan(p) || (p < 0 && p != -INFINITY))
        fail(CT_ERR_INVALID_ARGUMENT, "norm: p must be >= 0, INFINITY or -INFINITY, got ", p);
    if (std::isinf(p) && s.n == 0)
        fail(CT_ERR_INDEX, "norm: cannot compute the ", p, "-norm of an empty slice (shape ", shape_str(x.sizes()),
             ") because max/min have no identity");
    Tensor out;
    if (p == 0) out = norm_kernel<NormKind::Zero>(x, s, p);
    else if (p == 1) out = norm_kernel<NormKind::One>(x, s, p);
    else if (p == 2) out = norm_kernel<NormKind::Two>(x, s, p);
    else if (p == INFINITY) out = norm_kernel<NormKind::Inf>(x, s, p);
    else if (p == -INFINITY) out = norm_kernel<NormKind::NegInf>(x, s, p);
    else out = norm_kernel<NormKind::General>(x, s, p);
    IntList rd = s.dims;
    return record_reduction(out, "NormBackward", x, s.keep_shape,
                            [p, rd](const Tensor& g, const Tensor& x, const Tensor& outk) {
                                return norm_grad(p, g, x, outk, rd);
                            });
}

// torch's var_mean / std_mean: the dtype check names the op (mean alone would accept integers).
std::pair<Tensor, Tensor> var_mean(const Tensor& x, const IntList& dims, double correction, bool keepdim) {
    check_floating("var_mean", x);
    return {var(x, dims, correction, keepdim), mean(x, dims, keepdim)};
}

std::pair<Tensor, Tensor> std_mean(const Tensor& x, const IntList& dims, double correction, bool keepdim) {
    check_floating("std_mean", x);
    return {std_(x, dims, correction, keepdim), mean(x, dims, keepdim)};
}

}  // namespace ct

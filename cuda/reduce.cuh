// reduce.cuh - reductions of one strided input over a set of dims (ct_cuda_reduce_layout), and cumsum.
// The per-element math is in the device reducers below, shared by the kernels of one plan (Note [CUDA reduction
// plan]): one thread per output for many short slices, else each slice split into parts whose partial accumulators
// merge passes fold. The same kernels run natively and under cuda/emulation.h. Reducers' merge() is
// order-independent (max/min break ties by the smaller index), so any split of a slice gives the same result.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>
#include "core/dtype.h"
#include "ctensor.h"
#include "cuda/half_types.cuh"
#include "cuda/launch.cuh"

namespace ct {
namespace cuda {

// ---- device reducers: Acc init(); step(acc, s, ridx); merge(acc, other); store(acc, output index) ----
// Reducers read storage type S (load(): float for float16/bfloat16, Note [CUDA half kernels]) and write O
// through put<O>: a half output is rounded once from the float result, exactly what the float32 kernel followed
// by a cast to half gives (the op-level fallback, Note [Half compute]), so native and fallback agree bit for bit.

template <typename T> __device__ inline bool nan_of(T v) {
    if constexpr (std::is_floating_point<T>::value) return v != v;
    else return false;
}
// v (an accumulator or compute value) written as O: half types through float, rounded once.
template <typename O, typename V> __device__ inline O put(V v) {
    if constexpr (IsKernelHalf<O>::value) return float_to_half<O>((float)v);
    else return (O)v;
}
// Accumulator of sum/prod: double for floats (half included), int64 for integers and bool (the CPU's rule).
template <typename S> using AccOf = std::conditional_t<std::is_floating_point<compute_t<S>>::value, double, int64_t>;
// The default output of sum/prod: floats keep their dtype, the rest gives int64.
template <typename S> using SumOut = std::conditional_t<std::is_floating_point<compute_t<S>>::value, S, int64_t>;

template <typename S, typename O> struct SumReducer {
    using Acc = AccOf<S>;
    O* out;
    __device__ Acc init() const { return Acc(0); }
    __device__ void step(Acc& a, S v, int64_t) const { a += (Acc)load(v); }
    __device__ void merge(Acc& a, const Acc& b) const { a += b; }
    __device__ void store(const Acc& a, int64_t oi) const { out[oi] = put<O>(a); }
};

template <typename S, typename O> struct ProdReducer {
    using Acc = AccOf<S>;
    O* out;
    __device__ static Acc times(Acc a, Acc b) {  // integers wrap around (unsigned: no signed overflow)
        if constexpr (std::is_integral<Acc>::value) return (Acc)((uint64_t)a * (uint64_t)b);
        else return a * b;
    }
    __device__ Acc init() const { return Acc(1); }
    __device__ void step(Acc& a, S v, int64_t) const { a = times(a, (Acc)load(v)); }
    __device__ void merge(Acc& a, const Acc& b) const { a = times(a, b); }
    __device__ void store(const Acc& a, int64_t oi) const { out[oi] = put<O>(a); }
};

// The first extreme and its index; NaN wins (the first NaN). i < 0: nothing seen yet.
template <typename T> struct ValIdx {
    T v;
    int64_t i;
};
template <typename S, bool IsMax> struct ArgReducer {
    using V = compute_t<S>;
    using Acc = ValIdx<V>;
    S* values;         // may be null
    int64_t* indices;  // may be null
    // true when b should replace a (independent of which was seen first).
    __device__ static bool better(const Acc& a, const Acc& b) {
        if (b.i < 0) return false;
        if (a.i < 0) return true;
        bool an = nan_of(a.v), bn = nan_of(b.v);
        if (an || bn) return an && bn ? b.i < a.i : bn;
        if (a.v == b.v) return b.i < a.i;
        return IsMax ? b.v > a.v : b.v < a.v;
    }
    __device__ Acc init() const { return Acc{V(0), -1}; }
    __device__ void step(Acc& a, S v, int64_t ridx) const {
        Acc b{load(v), ridx};
        if (better(a, b)) a = b;
    }
    __device__ void merge(Acc& a, const Acc& b) const {
        if (better(a, b)) a = b;
    }
    __device__ void store(const Acc& a, int64_t oi) const {
        if (values) values[oi] = put<S>(a.v);  // exact: a.v is a loaded element
        if (indices) indices[oi] = a.i;
    }
};

template <typename S, bool IsAll> struct TruthReducer {
    using Acc = int32_t;
    bool* out;
    __device__ Acc init() const { return IsAll ? 1 : 0; }
    __device__ void step(Acc& a, S v, int64_t) const { merge(a, (Acc)(load(v) != compute_t<S>(0))); }
    __device__ void merge(Acc& a, const Acc& b) const { a = IsAll ? (a & b) : (a | b); }
    __device__ void store(const Acc& a, int64_t oi) const { out[oi] = a != 0; }
};

// Count, mean and sum of squared deviations (Welford steps, Chan merges), as the CPU's VarReducer.
struct Moments {
    double n, mean, m2;
};
template <typename S, typename O> struct VarReducer {
    using Acc = Moments;
    O* out;
    double correction;
    bool take_sqrt;
    __device__ Acc init() const { return Acc{0, 0, 0}; }
    __device__ void step(Acc& a, S tv, int64_t) const {
        double v = (double)load(tv);
        a.n += 1;
        double d = v - a.mean;
        a.mean += d / a.n;
        a.m2 += d * (v - a.mean);
    }
    __device__ void merge(Acc& a, const Acc& b) const {
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
    __device__ void store(const Acc& a, int64_t oi) const {
        double dof = a.n - correction;
        double v = a.m2 / (dof > 0 ? dof : 0.0);  // 0/0 = NaN for too few elements, like the CPU
        out[oi] = put<O>((compute_t<S>)(take_sqrt ? std::sqrt(v) : v));
    }
};

// log(sum(exp(v))) with a running max, NaN and +inf flags (the CPU's LseReducer).
struct LseAcc {
    double m, s;
    int32_t nan, pos_inf;
};
template <typename S, typename O> struct LseReducer {
    using Acc = LseAcc;
    O* out;
    __device__ Acc init() const { return Acc{-INFINITY, 0, 0, 0}; }
    __device__ void step(Acc& a, S tv, int64_t) const {
        double v = (double)load(tv);
        if (v != v) a.nan = 1;
        else if (v == INFINITY) a.pos_inf = 1;
        else if (v == -INFINITY) return;
        else if (v > a.m) a.s = a.s * std::exp(a.m - v) + 1.0, a.m = v;
        else a.s += std::exp(v - a.m);
    }
    __device__ void merge(Acc& a, const Acc& b) const {
        a.nan |= b.nan;
        a.pos_inf |= b.pos_inf;
        if (b.s == 0) return;
        if (a.s == 0) a.m = b.m, a.s = b.s;
        else if (b.m > a.m) a.s = a.s * std::exp(a.m - b.m) + b.s, a.m = b.m;
        else a.s += b.s * std::exp(b.m - a.m);
    }
    __device__ void store(const Acc& a, int64_t oi) const {
        double r = a.nan ? NAN : (a.pos_inf ? INFINITY : (a.s == 0 ? -INFINITY : a.m + std::log(a.s)));
        out[oi] = put<O>((compute_t<S>)r);
    }
};

enum NormKind : int32_t { kNormZero, kNormOne, kNormTwo, kNormInf, kNormNegInf, kNormGeneral };
template <typename S, typename O> struct NormReducer {
    using Acc = double;
    O* out;
    double p;
    int32_t kind;
    __device__ Acc init() const { return kind == kNormNegInf ? INFINITY : 0.0; }
    __device__ void step(Acc& a, S tv, int64_t) const { fold(a, std::fabs((double)load(tv))); }
    __device__ void fold(Acc& a, double v) const {
        switch (kind) {
        case kNormZero: a += v != 0; break;
        case kNormOne: a += v; break;
        case kNormTwo: a += v * v; break;
        case kNormGeneral: a += std::pow(v, p); break;
        default:  // max/min of |x|; NaN sticks
            if (a == a && (v != v || (kind == kNormInf ? v > a : v < a))) a = v;
        }
    }
    __device__ void merge(Acc& a, const Acc& b) const {
        if (kind == kNormInf || kind == kNormNegInf) fold(a, b);
        else a += b;
    }
    __device__ void store(const Acc& a, int64_t oi) const {
        double r = kind == kNormTwo ? std::sqrt(a) : (kind == kNormGeneral ? std::pow(a, 1.0 / p) : a);
        out[oi] = put<O>((compute_t<S>)r);
    }
};

// ---- kernels ----

inline int64_t reduce_numel(const int64_t* sizes, int32_t ndim) {
    int64_t n = 1;
    for (int32_t d = 0; d < ndim; ++d) n *= sizes[d];
    return n;
}

// Offset (in elements) of row-major index i of the index space (sizes, strides); the outermost dim needs no division.
__device__ inline int64_t offset_in(const int64_t* sizes, const int64_t* strides, int32_t ndim, int64_t i) {
    if (ndim <= 0) return 0;
    int64_t off = 0;
    for (int32_t d = ndim - 1; d > 0; --d) {
        int64_t q = divide_index(i, sizes[d]);
        off += (i - q * sizes[d]) * strides[d];
        i = q;
    }
    return off + i * strides[0];
}

// One thread per output: the whole slice in ridx order, the innermost reduced dim as a strided run.
template <typename T, typename R>
__global__ void reduce_thread_kernel(ct_cuda_reduce_layout L, int64_t n_out, int64_t n_red, const T* x, R r) {
    const int32_t rd = L.reduced_ndim;
    const int64_t inner = rd > 0 ? L.reduced_sizes[rd - 1] : 1, ist = rd > 0 ? L.reduced_strides[rd - 1] : 0;
    for (int64_t oi = first_index(); oi < n_out; oi += index_step()) {
        const T* base = x + offset_in(L.kept_sizes, L.kept_strides, L.kept_ndim, oi);
        typename R::Acc acc = r.init();
        for (int64_t q = 0; q * inner < n_red; ++q) {
            const T* row = base + offset_in(L.reduced_sizes, L.reduced_strides, rd - 1, q);
            for (int64_t k = 0; k < inner; ++k) r.step(acc, row[k * ist], q * inner + k);
        }
        r.store(acc, oi);
    }
}

// Note [CUDA reduction plan]. A reduction first merges dims that are contiguous with the next one (the kept dims
// and the reduced dims separately; row-major order, hence output and ridx numbering, is unchanged). Then each
// output's slice is folded in P parts: a thread folds elements part, part + P, part + 2P, ... of one slice into a
// partial accumulator, and merge passes fold each output's P partials kMergeFanIn at a time until one is left,
// which is stored. Which thread takes which (output, part): rows (t = output * P + part) when the slice's innermost
// reduced dim is the unit-stride one, so a warp reads consecutive elements of one slice; columns
// (t = part * n_out + output) when the outputs are the unit-stride dim (reducing dim 0 of a matrix), so a warp reads
// consecutive outputs. P grows until about kPlanThreads threads run (one output, a full sum, needs them all: a block
// per output left one multiprocessor working) but a thread still folds kPlanMinPerThread elements; P = 1 is one
// thread per output and no scratch, and the choice for inputs under kPlanSmall elements (one launch). P depends on the shapes and strides only, never on the device, so a result is
// the same on every GPU and on the emulated backend (which runs this same plan). Reducers' merge is
// order-independent (ties broken by index), so any P gives the same value up to reassociation of double sums.
constexpr int64_t kPlanThreads = int64_t(1) << 18;      // in flight at once: enough to fill an H100/H200's memory system
constexpr int64_t kPlanMinPerThread = 16;               // a partial costs a write and a read: fold at least this many
constexpr int64_t kPlanRowParts = 32;                   // rows: a warp on one slice reads 128 consecutive bytes of float
constexpr int64_t kPlanScratchBytes = int64_t(32) << 20;  // partials of one pass at most
constexpr int64_t kMergeFanIn = 64;
constexpr int64_t kPlanSmall = int64_t(1) << 16;  // fewer input elements: one launch (a merge launch costs more)

// Drops size-1 dims and merges dim d into d - 1 where stride[d - 1] == size[d] * stride[d].
inline void merge_contiguous_dims(int64_t* sizes, int64_t* strides, int32_t& ndim) {
    int32_t w = 0;
    for (int32_t d = 0; d < ndim; ++d) {
        if (sizes[d] == 1) continue;
        if (w > 0 && strides[w - 1] == sizes[d] * strides[d]) {
            sizes[w - 1] *= sizes[d];
            strides[w - 1] = strides[d];
        } else {
            sizes[w] = sizes[d];
            strides[w] = strides[d];
            ++w;
        }
    }
    ndim = w;
}

struct ReducePlan {
    int64_t parts;  // P: 1 is one thread per output
    bool columns;   // thread t takes (t % n_out, t / n_out), else (t / P, t % P)
};
inline ReducePlan plan_reduce(const ct_cuda_reduce_layout& L, int64_t n_out, int64_t n_red, size_t acc_bytes) {
    const bool red_unit = L.reduced_ndim > 0 && L.reduced_strides[L.reduced_ndim - 1] == 1;
    const bool out_unit = L.kept_ndim > 0 && L.kept_strides[L.kept_ndim - 1] == 1;
    ReducePlan plan{std::min(std::max<int64_t>(kPlanThreads / n_out, 1), n_red / kPlanMinPerThread),
                    out_unit && !red_unit};
    if (n_out * n_red < kPlanSmall) return ReducePlan{1, plan.columns};  // n_out * n_red: x's elements, no overflow
    // rows of long slices: a warp per slice even when the outputs alone fill the device (coalesced reads)
    if (!plan.columns && red_unit && n_red >= kPlanRowParts * kPlanMinPerThread)
        plan.parts = std::max(plan.parts, kPlanRowParts);
    plan.parts = std::min<int64_t>(plan.parts, kPlanScratchBytes / (int64_t)acc_bytes / n_out);
    if (plan.parts < 2) plan.parts = 1;
    return plan;
}

// Pass 1 of a plan with P > 1: thread t folds its part of its output's slice into partial[output * P + part].
template <typename T, typename R>
__global__ void reduce_parts_kernel(ct_cuda_reduce_layout L, int64_t n_out, int64_t n_red, int64_t parts,
                                    bool columns, const T* x, R r, typename R::Acc* partial) {
    for (int64_t t = first_index(); t < n_out * parts; t += index_step()) {
        const int64_t oi = columns ? t % n_out : t / parts, part = columns ? t / n_out : t % parts;
        const T* base = x + offset_in(L.kept_sizes, L.kept_strides, L.kept_ndim, oi);
        typename R::Acc acc = r.init();
        for (int64_t i = part; i < n_red; i += parts)
            r.step(acc, base[offset_in(L.reduced_sizes, L.reduced_strides, L.reduced_ndim, i)], i);
        partial[oi * parts + part] = acc;
    }
}

// A merge pass: thread t = output * p_out + q folds partials q, q + p_out, ... (of p_in) of its output into next[t],
// or, on the last pass (next null, p_out 1), stores the output.
template <typename R>
__global__ void reduce_merge_kernel(int64_t n_out, int64_t p_in, int64_t p_out, const typename R::Acc* partial,
                                    typename R::Acc* next, R r) {
    for (int64_t t = first_index(); t < n_out * p_out; t += index_step()) {
        const int64_t oi = t / p_out, q = t - oi * p_out;
        typename R::Acc acc = partial[oi * p_in + q];
        for (int64_t j = q + p_out; j < p_in; j += p_out) r.merge(acc, partial[oi * p_in + j]);
        if (next) next[t] = acc;
        else r.store(acc, oi);
    }
}

// Scratch device memory for a launcher's passes: take(bytes) gives a block valid for the work it enqueues on its
// stream (nullptr: none free; the launcher then takes a path without scratch).
using TakeScratch = std::function<void*(size_t)>;

template <typename T, typename R>
void launch_reducer(LaunchConfig c, cudaStream_t s, const ct_cuda_reduce_layout& layout, int64_t n_out,
                    int64_t n_red, const void* x, R r, const TakeScratch& take) {
    using Acc = typename R::Acc;
    const T* px = static_cast<const T*>(x);
    ct_cuda_reduce_layout L = layout;
    merge_contiguous_dims(L.kept_sizes, L.kept_strides, L.kept_ndim);
    merge_contiguous_dims(L.reduced_sizes, L.reduced_strides, L.reduced_ndim);
    ReducePlan plan = plan_reduce(L, n_out, n_red, sizeof(Acc));
    Acc *a = nullptr, *b = nullptr;
    if (plan.parts > 1) {
        const int64_t second = (plan.parts + kMergeFanIn - 1) / kMergeFanIn;
        a = static_cast<Acc*>(take((size_t)(n_out * plan.parts) * sizeof(Acc)));
        b = second > 1 && a ? static_cast<Acc*>(take((size_t)(n_out * second) * sizeof(Acc))) : nullptr;
        if (!a || (second > 1 && !b)) plan.parts = 1;
    }
    if (plan.parts == 1) {
        auto* kernel = &reduce_thread_kernel<T, R>;
        CT_LAUNCH(kernel, blocks_for(n_out, c), c.threads, s, L, n_out, n_red, px, r);
        return;
    }
    auto* parts_kernel = &reduce_parts_kernel<T, R>;
    CT_LAUNCH(parts_kernel, blocks_for(n_out * plan.parts, c), c.threads, s, L, n_out, n_red, plan.parts,
              plan.columns, px, r, a);
    auto* merge_kernel = &reduce_merge_kernel<R>;
    for (int64_t p_in = plan.parts; p_in > 1;) {
        const int64_t p_out = (p_in + kMergeFanIn - 1) / kMergeFanIn;
        CT_LAUNCH(merge_kernel, blocks_for(n_out * p_out, c), c.threads, s, n_out, p_in, p_out, a,
                  p_out > 1 ? b : nullptr, r);
        std::swap(a, b);
        p_in = p_out;
    }
}

inline bool reduce_float_only(int32_t op) {
    return op == CT_CUDA_REDUCE_VAR || op == CT_CUDA_REDUCE_STD || op == CT_CUDA_REDUCE_LOGSUMEXP ||
           op == CT_CUDA_REDUCE_NORM;
}

inline int32_t norm_kind(double p) {
    if (p == 0) return kNormZero;
    if (p == 1) return kNormOne;
    if (p == 2) return kNormTwo;
    if (p == INFINITY) return kNormInf;
    if (p == -INFINITY) return kNormNegInf;
    return kNormGeneral;
}

// The dtype of out for reduction op of x's dtype (the rule of ct_cuda_reduce_op).
inline int32_t reduce_out_dtype(int32_t op, int32_t dtype) {
    if (op == CT_CUDA_REDUCE_ALL || op == CT_CUDA_REDUCE_ANY) return CT_BOOL;
    if ((op == CT_CUDA_REDUCE_SUM || op == CT_CUDA_REDUCE_PROD) && !is_floating((DType)dtype)) return CT_INT64;
    return dtype;
}

// Reduces x into out (and out_index for MAX/MIN). out_dtype is reduce_out_dtype(op, dtype), or CT_FLOAT32 for
// a float16/bfloat16 x and an op with a float result (SUM, PROD, VAR, STD, LOGSUMEXP, NORM): the float result
// before its rounding to half (backend.h, reduce_to).
inline int32_t launch_reduce_to(LaunchConfig c, cudaStream_t s, const ct_cuda_reduce_layout& L, int32_t op, void* out,
                                int32_t out_dtype, void* out_index, const void* x, int32_t dtype, double p0,
                                const TakeScratch& take) {
    if (op < 0 || op >= CT_CUDA_NUM_REDUCE_OPS || L.kept_ndim < 0 || L.kept_ndim > CT_CUDA_MAX_DIMS ||
        L.reduced_ndim < 0 || L.reduced_ndim > CT_CUDA_MAX_DIMS)
        return CT_ERR_INVALID_ARGUMENT;
    bool arg = op == CT_CUDA_REDUCE_MAX || op == CT_CUDA_REDUCE_MIN;
    if (arg ? (!out && !out_index) : !out) return CT_ERR_INVALID_ARGUMENT;
    if (!dtype_valid(dtype) || is_complex((DType)dtype) || (reduce_float_only(op) && !is_floating((DType)dtype)))
        return CT_ERR_DTYPE;
    const bool to_float = out_dtype == CT_FLOAT32 && is_half((DType)dtype) && !arg && op != CT_CUDA_REDUCE_ALL &&
                          op != CT_CUDA_REDUCE_ANY;
    if (!to_float && out_dtype != reduce_out_dtype(op, dtype)) return CT_ERR_DTYPE;
    int64_t n_out = reduce_numel(L.kept_sizes, L.kept_ndim), n_red = reduce_numel(L.reduced_sizes, L.reduced_ndim);
    if (n_out == 0) return CT_OK;
    if (arg && n_red == 0) return CT_ERR_INVALID_ARGUMENT;  // max/min of nothing: the core refuses it first
    dispatch_kernel((DType)dtype, [&](auto tag) {
        using S = typename decltype(tag)::type;
        auto run = [&](auto r) { launch_reducer<S>(c, s, L, n_out, n_red, x, r, take); };
        // the float-result ops with output O (S itself, or float for a half S when to_float)
        auto run_float = [&](auto otag) {
            using O = typename decltype(otag)::type;
            if constexpr (std::is_floating_point<compute_t<S>>::value) {
                O* o = static_cast<O*>(out);
                switch (op) {
                case CT_CUDA_REDUCE_SUM: run(SumReducer<S, O>{o}); break;
                case CT_CUDA_REDUCE_PROD: run(ProdReducer<S, O>{o}); break;
                case CT_CUDA_REDUCE_VAR:
                case CT_CUDA_REDUCE_STD: run(VarReducer<S, O>{o, p0, op == CT_CUDA_REDUCE_STD}); break;
                case CT_CUDA_REDUCE_LOGSUMEXP: run(LseReducer<S, O>{o}); break;
                default: run(NormReducer<S, O>{o, p0, norm_kind(p0)});
                }
            }
        };
        S* vals = static_cast<S*>(out);
        int64_t* idx = static_cast<int64_t*>(out_index);
        switch (op) {
        case CT_CUDA_REDUCE_MAX: run(ArgReducer<S, true>{vals, idx}); break;
        case CT_CUDA_REDUCE_MIN: run(ArgReducer<S, false>{vals, idx}); break;
        case CT_CUDA_REDUCE_ALL: run(TruthReducer<S, true>{static_cast<bool*>(out)}); break;
        case CT_CUDA_REDUCE_ANY: run(TruthReducer<S, false>{static_cast<bool*>(out)}); break;
        default:
            if constexpr (!std::is_floating_point<compute_t<S>>::value) {  // integer sum/prod: int64 out
                if (op == CT_CUDA_REDUCE_SUM) run(SumReducer<S, int64_t>{static_cast<int64_t*>(out)});
                else run(ProdReducer<S, int64_t>{static_cast<int64_t*>(out)});
            } else if (to_float) {
                run_float(TypeTag<float>{});
            } else {
                run_float(TypeTag<S>{});
            }
        }
    });
    return CT_OK;
}

// Reduces x into out (and out_index for MAX/MIN) with out of dtype reduce_out_dtype(op, dtype).
inline int32_t launch_reduce(LaunchConfig c, cudaStream_t s, const ct_cuda_reduce_layout& L, int32_t op, void* out,
                             void* out_index, const void* x, int32_t dtype, double p0, const TakeScratch& take) {
    return launch_reduce_to(c, s, L, op, out, dtype_valid(dtype) ? reduce_out_dtype(op, dtype) : dtype, out_index, x,
                            dtype, p0, take);
}

// ---- cumsum: one thread per (outer, inner) column, serial along n ----

// Storage S: a half element is loaded as float and each prefix sum rounded once (through float, as the float32
// scan followed by a cast: the fallback's result bit for bit).
template <typename S, typename Acc>
__global__ void cumsum_kernel(S* data, int64_t outer, int64_t n, int64_t inner, bool reverse) {
    for (int64_t col = first_index(); col < outer * inner; col += index_step()) {
        int64_t o = col / inner, j = col - o * inner;
        S* base = data + o * n * inner + j;
        Acc acc = Acc(0);
        for (int64_t k = 0; k < n; ++k) {
            S* p = base + (reverse ? n - 1 - k : k) * inner;
            acc += (Acc)load(*p);
            *p = put<S>((compute_t<S>)acc);
        }
    }
}

inline int32_t launch_cumsum(LaunchConfig c, cudaStream_t s, void* data, int32_t dtype, int64_t outer, int64_t n,
                             int64_t inner, int32_t reverse) {
    if (outer < 0 || n < 0 || inner < 0) return CT_ERR_INVALID_ARGUMENT;
    int64_t cols = outer * inner;
    if (cols == 0 || n == 0) return CT_OK;
    bool rev = reverse != 0;
    if (dtype == CT_FLOAT32) {
        auto* k = &cumsum_kernel<float, double>;
        CT_LAUNCH(k, blocks_for(cols, c), c.threads, s, static_cast<float*>(data), outer, n, inner, rev);
    } else if (dtype == CT_FLOAT64) {
        auto* k = &cumsum_kernel<double, double>;
        CT_LAUNCH(k, blocks_for(cols, c), c.threads, s, static_cast<double*>(data), outer, n, inner, rev);
    } else if (dtype == CT_INT64) {
        auto* k = &cumsum_kernel<int64_t, int64_t>;
        CT_LAUNCH(k, blocks_for(cols, c), c.threads, s, static_cast<int64_t*>(data), outer, n, inner, rev);
    } else if (dtype == CT_FLOAT16) {
        auto* k = &cumsum_kernel<half_t, double>;
        CT_LAUNCH(k, blocks_for(cols, c), c.threads, s, static_cast<half_t*>(data), outer, n, inner, rev);
    } else if (dtype == CT_BFLOAT16) {
        auto* k = &cumsum_kernel<bfloat16_t, double>;
        CT_LAUNCH(k, blocks_for(cols, c), c.threads, s, static_cast<bfloat16_t*>(data), outer, n, inner, rev);
    } else {
        return CT_ERR_DTYPE;
    }
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

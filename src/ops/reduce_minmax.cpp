// reduce_minmax.cpp - max/min (over all dims, or along a dim with int64 indices), argmax/argmin, all/any, and
// aminmax (both extremes in one pass, issue 14).
// NaN propagates like PyTorch: a slice holding a NaN gives NaN and the index of its first NaN.
#include <cmath>
#include <limits>
#include "cpu/reduce_kernel.h"
#include "ops/half_compute.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

template <typename T> inline bool is_nan(T v) {
    if constexpr (std::is_floating_point<T>::value) return v != v;
    else return false;
}

// true when v beats best (strictly; ties keep the earlier element).
template <bool IsMax, typename T> inline bool beats(T v, T best) { return IsMax ? v > best : v < best; }

// Value-only extreme; NaN is sticky. The start value loses to every element, so empty input never reaches here.
template <typename T, bool IsMax> struct Extreme {
    using Acc = T;
    T init() const {
        if constexpr (std::is_same<T, bool>::value) return !IsMax;
        else if constexpr (std::is_floating_point<T>::value) return IsMax ? -INFINITY : INFINITY;
        else return IsMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
    void step(T& acc, T v, int64_t) const {
        if (is_nan(acc)) return;
        if (beats<IsMax>(v, acc) || is_nan(v)) acc = v;
    }
    void merge(T& a, const T& b) const { step(a, b, 0); }
    T finish(const T& a) const { return a; }
    // Independent lanes (vectorisable). NaN never wins a comparison, so a lane-wise v * 0 sum flags NaN and
    // inf; a slice holding either takes the exact step loop instead.
    void run(T& acc, const T* p, int64_t n, int64_t) const {
        constexpr int kLanes = 16;
        if (is_nan(acc)) return;
        T lane[kLanes], chk[kLanes] = {};
        for (int l = 0; l < kLanes; ++l) lane[l] = acc;
        int64_t i = 0;
        for (; i + kLanes <= n; i += kLanes) {
#pragma omp simd
            for (int l = 0; l < kLanes; ++l) {
                T v = p[i + l];
                lane[l] = beats<IsMax>(v, lane[l]) ? v : lane[l];
                if constexpr (std::is_floating_point<T>::value) chk[l] += v * T(0);
            }
        }
        bool special = false;
        for (int l = 0; l < kLanes; ++l) special |= is_nan(chk[l]);
        if (special) i = 0;
        else
            for (int l = 0; l < kLanes; ++l) step(acc, lane[l], 0);
        for (; i < n; ++i) step(acc, p[i], 0);
    }
};

// Both extremes in one pass over the input: the Extreme reducers side by side, one lane loop feeding both.
template <typename T> struct MinMax {
    struct Acc {
        T lo, hi;
    };
    Extreme<T, false> mn;
    Extreme<T, true> mx;
    Acc init() const { return {mn.init(), mx.init()}; }
    void step(Acc& a, T v, int64_t) const {
        mn.step(a.lo, v, 0);
        mx.step(a.hi, v, 0);
    }
    void merge(Acc& a, const Acc& b) const {
        mn.merge(a.lo, b.lo);
        mx.merge(a.hi, b.hi);
    }
    // As Extreme::run: a slice holding NaN or inf (flagged by the v * 0 lanes) takes the exact step loop.
    void run(Acc& a, const T* p, int64_t n, int64_t) const {
        constexpr int kLanes = 16;
        if (is_nan(a.lo)) return;
        T lo[kLanes], hi[kLanes], chk[kLanes] = {};
        for (int l = 0; l < kLanes; ++l) lo[l] = a.lo, hi[l] = a.hi;
        int64_t i = 0;
        for (; i + kLanes <= n; i += kLanes) {
#pragma omp simd
            for (int l = 0; l < kLanes; ++l) {
                T v = p[i + l];
                lo[l] = beats<false>(v, lo[l]) ? v : lo[l];
                hi[l] = beats<true>(v, hi[l]) ? v : hi[l];
                if constexpr (std::is_floating_point<T>::value) chk[l] += v * T(0);
            }
        }
        bool special = false;
        for (int l = 0; l < kLanes; ++l) special |= is_nan(chk[l]);
        if (special) i = 0;
        else
            for (int l = 0; l < kLanes; ++l) merge(a, Acc{lo[l], hi[l]});
        for (; i < n; ++i) step(a, p[i], 0);
    }
};

// Extreme with the index (ridx) of its first occurrence; idx < 0 marks "nothing seen yet".
template <typename T> struct ValIdx {
    T v;
    int64_t i;
};
template <typename T, bool IsMax> struct ArgExtreme {
    using Acc = ValIdx<T>;
    Acc init() const { return {T(0), -1}; }
    static bool takes(const Acc& a, T v) { return a.i < 0 || (!is_nan(a.v) && (beats<IsMax>(v, a.v) || is_nan(v))); }
    void step(Acc& acc, T v, int64_t ridx) const {
        if (takes(acc, v)) acc = {v, ridx};
    }
    void merge(Acc& a, const Acc& b) const {
        if (b.i >= 0 && takes(a, b.v)) a = b;
    }
    // Contiguous runs: the vectorised extreme first, then the position of its first occurrence.
    void run(Acc& a, const T* p, int64_t n, int64_t ridx0) const {
        if (n == 0 || (a.i >= 0 && is_nan(a.v))) return;
        Extreme<T, IsMax> ex;
        T m = ex.init();
        ex.run(m, p, n, 0);
        int64_t j = 0;
        if (is_nan(m)) {
            while (!is_nan(p[j])) ++j;
        } else {
            while (p[j] != m) ++j;
        }
        step(a, p[j], ridx0 + j);
    }
};

// all (IsAll) or any: nonzero test per element (NaN counts as nonzero).
template <typename T, bool IsAll> struct Truth {
    using Acc = unsigned char;
    Acc init() const { return IsAll ? 1 : 0; }
    void step(Acc& acc, T v, int64_t) const {
        if (IsAll) acc &= (unsigned char)(v != T(0));
        else acc |= (unsigned char)(v != T(0));
    }
    void merge(Acc& a, const Acc& b) const { IsAll ? a &= b : a |= b; }
    bool finish(const Acc& a) const { return a != 0; }
    void run(Acc& acc, const T* p, int64_t n, int64_t) const {
        unsigned char s = init();
        for (int64_t i = 0; i < n; ++i) {
            if (IsAll) s &= (unsigned char)(p[i] != T(0));
            else s |= (unsigned char)(p[i] != T(0));
        }
        merge(acc, s);
    }
};

template <bool IsAll> Tensor truth_reduce(const char* op, const Tensor& x, const IntList& dims, bool keepdim) {
    std::vector<bool> mask = reduce_mask(op, dims, x.dim());
    Tensor out = empty_tensor(reduced_shape(x.sizes(), mask, keepdim), DType::Bool, x.device());
    if (!x.device().is_cpu()) {
        cuda_reduce(op, IsAll ? CT_CUDA_REDUCE_ALL : CT_CUDA_REDUCE_ANY, x, mask, out, Tensor());
    } else {
        dispatch_all(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            reduce_into<T, bool>(out, x, mask, Truth<T, IsAll>{});
        });
    }
    return x.dtype() == DType::UInt8 ? to_dtype(out, DType::UInt8) : out;  // uint8 in, uint8 out (PyTorch)
}

void check_nonempty(const char* op, const Tensor& x) {
    if (x.numel() == 0)
        fail(CT_ERR_INDEX, op, ": cannot reduce an empty tensor (shape ", shape_str(x.sizes()),
             ") because the operation has no identity; reduce along a non-empty dim instead");
}

// Checks dim and that it is not empty; returns the wrapped dim (0 for a 0-d tensor).
int64_t check_reduce_dim(const char* op, const Tensor& x, int64_t dim) {
    int64_t d = wrap_dim(dim, x.dim(), op);
    if (x.dim() > 0 && x.sizes()[d] == 0)
        fail(CT_ERR_INDEX, op, ": cannot reduce over dim ", dim, " of size 0 (shape ", shape_str(x.sizes()),
             ") because the operation has no identity");
    return d;
}

// mask of x's elements equal to value (NaN matches NaN): where the gradient of max/min goes.
Tensor hits(const Tensor& x, const Tensor& value) {
    Tensor both_nan = logical_and(ne(x, x), ne(value, value));
    return logical_or(eq(x, value), both_nan);
}

template <bool IsMax> Tensor extreme_all(const char* op, const Tensor& x) {
    check_nonempty(op, x);
    std::vector<bool> mask(x.dim(), true);
    Tensor out = empty_tensor({}, x.dtype(), x.device());
    if (!x.device().is_cpu()) {
        cuda_reduce(op, IsMax ? CT_CUDA_REDUCE_MAX : CT_CUDA_REDUCE_MIN, x, mask, out, Tensor());
    } else {
        dispatch_all(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            reduce_into<T, T>(out, x, mask, Extreme<T, IsMax>{});
        });
    }
    if (!requires_grad(x)) return out;
    // The gradient is split evenly among the elements equal to the result (as PyTorch's amax).
    // A half gradient is split in float32 and rounded once (the fallback's values, Note [Native half on CUDA]).
    auto node = make_node(IsMax ? "MaxBackward" : "MinBackward", {x}, [](BackwardCtx& c) {
        Tensor x = c.saved(0), out = c.saved(1), g = half_to_float32(c.grads[0]);
        Tensor m = hits(x, out);
        Tensor count = to_dtype(sum(m, {}, false), g.dtype());
        Tensor gx = where(m, div(g, count), wrapped_scalar(0.0, false));
        return TensorList{is_half(c.grads[0].dtype()) ? round_to_half(gx, c.grads[0].dtype()) : gx};
    });
    node->save(x);
    node->save(detach(out));
    set_history(out, node);
    return out;
}

// Values and int64 indices of the first extreme along dim (indices only when values_out is false).
template <bool IsMax> std::pair<Tensor, Tensor> extreme_dim(const char* op, const Tensor& x, int64_t dim,
                                                           bool keepdim, bool values_out) {
    int64_t d = check_reduce_dim(op, x, dim);
    std::vector<bool> mask(x.dim(), false);
    if (x.dim() > 0) mask[d] = true;
    Shape os = reduced_shape(x.sizes(), mask, keepdim);
    Tensor vals = values_out ? empty_tensor(os, x.dtype(), x.device()) : Tensor();
    Tensor idx = empty_tensor(os, DType::Int64, x.device());
    if (!x.device().is_cpu()) {
        cuda_reduce(op, IsMax ? CT_CUDA_REDUCE_MAX : CT_CUDA_REDUCE_MIN, x, mask, vals, idx);
        return {vals, idx};
    }
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* pv = values_out ? vals.data<T>() : nullptr;
        int64_t* pi = idx.data<int64_t>();
        reduce_apply<T>(x, mask, ArgExtreme<T, IsMax>{}, [&](int64_t oi, const ValIdx<T>& a) {
            if (pv) pv[oi] = a.v;
            pi[oi] = a.i;
        });
    });
    return {vals, idx};
}

// Gradient of max_dim/min_dim: g placed at the index positions along dim, zeros elsewhere.
Tensor index_scatter_grad(const Tensor& g, const Tensor& idx, const Shape& in_shape, int64_t d, bool keepdim) {
    if (in_shape.empty()) return g;
    std::vector<bool> mask(in_shape.size(), false);
    mask[d] = true;
    Shape ks = reduced_shape(in_shape, mask, true);
    Shape iota_shape(in_shape.size(), 1);
    iota_shape[d] = in_shape[d];
    Tensor iota = reshape(arange(0, (double)in_shape[d], 1, DType::Int64, g.device()), iota_shape);
    Tensor at = expand(eq(iota, reshape(idx, ks)), in_shape);
    return where(at, reshape(g, ks), wrapped_scalar(0.0, false));
}

template <bool IsMax> std::pair<Tensor, Tensor> extreme_dim_op(const Tensor& x, int64_t dim, bool keepdim) {
    const char* op = IsMax ? "max_dim" : "min_dim";
    auto r = extreme_dim<IsMax>(op, x, dim, keepdim, true);
    if (!requires_grad(x)) return r;
    Shape in_shape = x.sizes();
    int64_t d = wrap_dim(dim, x.dim(), op);
    auto node = make_node(IsMax ? "MaxDimBackward" : "MinDimBackward", {x}, [in_shape, d, keepdim](BackwardCtx& c) {
        return TensorList{index_scatter_grad(c.grads[0], c.saved(0), in_shape, d, keepdim)};
    });
    node->save(r.second);
    set_history(r.first, node);
    return r;
}

template <bool IsMax> Tensor arg_all(const char* op, const Tensor& x) {
    check_nonempty(op, x);
    std::vector<bool> mask(x.dim(), true);
    Tensor idx = empty_tensor({}, DType::Int64, x.device());
    if (!x.device().is_cpu()) {
        cuda_reduce(op, IsMax ? CT_CUDA_REDUCE_MAX : CT_CUDA_REDUCE_MIN, x, mask, Tensor(), idx);
        return idx;
    }
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        int64_t* pi = idx.data<int64_t>();
        reduce_apply<T>(x, mask, ArgExtreme<T, IsMax>{}, [&](int64_t, const ValIdx<T>& a) { *pi = a.i; });
    });
    return idx;
}

// aminmax over the dims of mask: one CPU pass (MinMax); CUDA runs its MIN and MAX reductions (two passes).
std::pair<Tensor, Tensor> minmax_reduce(const Tensor& x, const std::vector<bool>& mask, bool keepdim) {
    Shape os = reduced_shape(x.sizes(), mask, keepdim);
    Tensor lo = empty_tensor(os, x.dtype(), x.device()), hi = empty_tensor(os, x.dtype(), x.device());
    if (!x.device().is_cpu()) {
        cuda_reduce("aminmax", CT_CUDA_REDUCE_MIN, x, mask, lo, Tensor());
        cuda_reduce("aminmax", CT_CUDA_REDUCE_MAX, x, mask, hi, Tensor());
        return {lo, hi};
    }
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T *pl = lo.data<T>(), *ph = hi.data<T>();
        reduce_apply<T>(x, mask, MinMax<T>{}, [&](int64_t oi, const typename MinMax<T>::Acc& a) {
            pl[oi] = a.lo;
            ph[oi] = a.hi;
        });
    });
    return {lo, hi};
}

}  // namespace

// No gradient: torch 1.13 has no derivative for aminmax (its backward raises), so the results carry no history.
std::pair<Tensor, Tensor> aminmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
    if (is_half(x.dtype())) {  // Note [Half compute]: exact, a selection
        auto r = aminmax(half_to_float32(x), dim, keepdim);
        return {round_to_half(r.first, x.dtype()), round_to_half(r.second, x.dtype())};
    }
    if (is_complex(x.dtype()))
        fail(CT_ERR_DTYPE, "aminmax: not implemented for ", dtype_name(x.dtype()), " (complex numbers are not ordered)");
    std::vector<bool> mask(x.dim(), true);
    if (dim) {
        int64_t d = check_reduce_dim("aminmax", x, *dim);
        if (x.dim() > 0) mask.assign(x.dim(), false), mask[d] = true;
    } else {
        check_nonempty("aminmax", x);
    }
    auto r = minmax_reduce(x, mask, keepdim);
    if (dim && keepdim && x.dim() == 0) return {reshape(r.first, {1}), reshape(r.second, {1})};  // as torch 1.13
    return r;
}

// Note [Half compute]: a half value is nonzero exactly when its float32 copy is; a half CUDA x is read natively
// (Note [Native half on CUDA]).
Tensor all(const Tensor& x, const IntList& dims, bool keepdim) {
    if (is_complex(x.dtype())) return all(complex_truth(x), dims, keepdim);
    return truth_reduce<true>("all", float32_unless_native(x), dims, keepdim);
}
Tensor any(const Tensor& x, const IntList& dims, bool keepdim) {
    if (is_complex(x.dtype())) return any(complex_truth(x), dims, keepdim);
    return truth_reduce<false>("any", float32_unless_native(x), dims, keepdim);
}

// Note [Half compute]: the extremes of a half tensor are those of its float32 copy (exact: a selection); on CUDA
// the kernel selects from the half storage itself (Note [Native half on CUDA]).
namespace {
std::pair<Tensor, Tensor> half_pair(std::pair<Tensor, Tensor> r, DType d) { return {round_to_half(r.first, d), r.second}; }
bool half_fallback(const Tensor& x) { return is_half(x.dtype()) && !native_half(x); }
}  // namespace

Tensor max_all(const Tensor& x) {
    if (half_fallback(x)) return round_to_half(max_all(half_to_float32(x)), x.dtype());
    return extreme_all<true>("max", x);
}
Tensor min_all(const Tensor& x) {
    if (half_fallback(x)) return round_to_half(min_all(half_to_float32(x)), x.dtype());
    return extreme_all<false>("min", x);
}

std::pair<Tensor, Tensor> max_dim(const Tensor& x, int64_t dim, bool keepdim) {
    if (half_fallback(x)) return half_pair(max_dim(half_to_float32(x), dim, keepdim), x.dtype());
    return extreme_dim_op<true>(x, dim, keepdim);
}
std::pair<Tensor, Tensor> min_dim(const Tensor& x, int64_t dim, bool keepdim) {
    if (half_fallback(x)) return half_pair(min_dim(half_to_float32(x), dim, keepdim), x.dtype());
    return extreme_dim_op<false>(x, dim, keepdim);
}

Tensor argmax(const Tensor& x, int64_t dim, bool keepdim) {
    return extreme_dim<true>("argmax", float32_unless_native(x), dim, keepdim, false).second;
}
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim) {
    return extreme_dim<false>("argmin", float32_unless_native(x), dim, keepdim, false).second;
}
Tensor argmax_all(const Tensor& x) { return arg_all<true>("argmax", float32_unless_native(x)); }
Tensor argmin_all(const Tensor& x) { return arg_all<false>("argmin", float32_unless_native(x)); }

}  // namespace ct

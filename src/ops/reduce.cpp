// reduce.cpp - sum, mean and prod over dims (with keepdim), and sum_to (the backward of broadcasting).
#include <algorithm>
#include <cmath>
#include "autograd/grad_mode.h"
#include "core/scalar_math.h"
#include "cpu/reduce_kernel.h"
#include "ops/half_compute.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

template <typename T, typename A> struct Summer {
    using Acc = A;
    A init() const { return A(0); }
    void step(A& acc, T v, int64_t) const { acc = math::wrap_add(acc, (A)v); }  // Note [Integer wrap]
    void merge(A& a, const A& b) const { a = math::wrap_add(a, b); }
    A finish(const A& a) const { return a; }
    void run(A& acc, const T* p, int64_t n, int64_t) const {
        if constexpr (std::is_floating_point<T>::value) {
            acc += (A)lane_sum(p, n);
        } else {
            A s = 0;
            for (int64_t i = 0; i < n; ++i) s = math::wrap_add(s, (A)p[i]);
            acc = math::wrap_add(acc, s);
        }
    }
};

template <typename T, typename A> struct Multiplier {
    using Acc = A;
    A init() const { return A(1); }
    static A times(A a, A b) { return math::wrap_mul(a, b); }  // Note [Integer wrap]
    void step(A& acc, T v, int64_t) const { acc = times(acc, (A)v); }
    void merge(A& a, const A& b) const { a = times(a, b); }
    A finish(const A& a) const { return a; }
};

// Result dtype of sum/prod: integers and bool give int64, floats keep their dtype.
DType sum_dtype(DType d) { return is_floating(d) || is_complex(d) ? d : DType::Int64; }

// Runs Reducer<T, Acc> over x: float32 accumulates in double, float64 in double, integers in int64.
// CUDA tensors run the backend's reduction cuda_code (same dtype rule).
// float_out: a half CUDA x reduces to float32 (Note [Native half on CUDA]; the caller rounds), else to half.
template <template <typename, typename> class Reducer>
Tensor accumulate_kernel(const char* op, int32_t cuda_code, const Tensor& x, const std::vector<bool>& mask,
                         bool keepdim, bool float_out = false) {
    DType od = native_half(x) && float_out ? DType::Float32 : sum_dtype(x.dtype());
    Tensor out = empty_tensor(reduced_shape(x.sizes(), mask, keepdim), od, x.device());
    if (!x.device().is_cpu()) {
        cuda_reduce(op, cuda_code, x, mask, out, Tensor());
        return out;
    }
    if (is_complex(x.dtype())) {  // prod only (sum and mean reduce the pairs): complex64 accumulates in complex128
        dispatch_complex(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            reduce_into<T, T>(out, x, mask, Reducer<T, std::complex<double>>{});
        });
        return out;
    }
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point<T>::value) {
            reduce_into<T, T>(out, x, mask, Reducer<T, double>{});
        } else {
            reduce_into<T, int64_t>(out, x, mask, Reducer<T, int64_t>{});
        }
    });
    return out;
}

// The dims marked in mask, as a list for ops (never empty for ndim > 0; empty means "all" for 0-d).
IntList mask_dims(const std::vector<bool>& mask) {
    IntList dims;
    for (size_t d = 0; d < mask.size(); ++d)
        if (mask[d]) dims.push_back((int64_t)d);
    return dims;
}

// Inclusive product scan along the last dim, forwards or backwards, by log2(n) doubling steps of
// shifted multiplies (Hillis-Steele): only slice, mul and cat, so it is differentiable to any order.
Tensor product_scan_last(const Tensor& y, bool reverse) {
    int64_t n = y.size(-1);
    Tensor p = y;
    for (int64_t k = 1; k < n; k *= 2) {
        if (!reverse)
            p = cat({slice(p, -1, 0, k, 1), mul(slice(p, -1, k, n, 1), slice(p, -1, 0, n - k, 1))}, -1);
        else
            p = cat({mul(slice(p, -1, 0, n - k, 1), slice(p, -1, k, n, 1)), slice(p, -1, n - k, n, 1)}, -1);
    }
    return p;
}

// For each element of y (reduced dim last), the product of the other elements of its row: exclusive
// prefix product times exclusive suffix product. Exact with any number of zeros.
Tensor product_of_others_last(const Tensor& y) {
    Shape one = y.sizes();
    one.back() = 1;
    int64_t n = y.size(-1);
    Tensor ones_col = ones(one, y.dtype(), y.device());
    Tensor before = cat({ones_col, slice(product_scan_last(y, false), -1, 0, n - 1, 1)}, -1);
    Tensor after = cat({slice(product_scan_last(y, true), -1, 1, n, 1), ones_col}, -1);
    return mul(before, after);
}

// d prod / d x = the product of the other elements of x's slice. Without zeros that is out / x; with
// zeros it is computed by product scans over the reduced dims moved last (as PyTorch's
// prod_safe_zeros_backward), which also gives the right double backward when a slice has several zeros.
// gk and outk have keepdim shape. Written with ops, so it is differentiable.
Tensor prod_grad(const Tensor& x, const Tensor& gk, const Tensor& outk, const IntList& dims) {
    bool has_zero;
    {
        NoGradGuard ng;
        has_zero = item(any(eq(x, wrapped_scalar(0.0, false)), {}, false)) != 0.0;
    }
    if (!has_zero) return mul(gk, div(outk, x));
    if (x.dim() == 0) return gk;  // the product of no other elements
    IntList perm, inverse(x.dim());
    Shape kept;
    int64_t reduced = 1;
    for (int64_t d = 0; d < x.dim(); ++d)
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) perm.push_back(d), kept.push_back(x.size(d));
    for (int64_t d : dims) perm.push_back(d), reduced *= x.size(d);
    for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = (int64_t)i;
    Tensor moved = permute(x, perm);
    Shape moved_shape = moved.sizes();
    kept.push_back(reduced);
    Tensor others = reshape(product_of_others_last(reshape(moved, kept)), moved_shape);
    return mul(gk, permute(others, inverse));
}

}  // namespace

namespace {
// A sum or mean of a complex tensor: the same reduction of its (real, imag) pairs (Note [Complex gradients]).
template <typename Reduce> Tensor complex_reduce(const char* op, const Tensor& x, const IntList& dims, bool keepdim,
                                                 Reduce reduce) {
    IntList rdims = mask_dims(reduce_mask(op, dims, x.dim()));
    if (rdims.empty()) return mul_scalar(x, 1.0);  // a 0-d x: the reduction of one element is itself (a copy)
    return view_as_complex(contiguous(reduce(view_as_real(x), rdims, keepdim)));
}
}  // namespace

namespace {
// sum over dims; a half CUDA x gives its sum rounded once to half, or with float_out its float32 sum (Note
// [Native half on CUDA]), whose gradient is rounded to x's dtype (exact: expanded values of a half gradient).
Tensor sum_kernel_op(const Tensor& x, const IntList& dims, bool keepdim, bool float_out = false) {
    std::vector<bool> mask = reduce_mask("sum", dims, x.dim());
    Tensor out = accumulate_kernel<Summer>("sum", CT_CUDA_REDUCE_SUM, x, mask, keepdim, float_out);
    if (!requires_grad(x)) return out;
    Shape in_shape = x.sizes();
    DType xd = x.dtype();
    auto node = make_node("SumBackward", {x}, [in_shape, mask, keepdim, xd](BackwardCtx& c) {
        Tensor g = c.grads[0];
        if (!keepdim) g = reshape(g, reduced_shape(in_shape, mask, true));
        Tensor gx = expand(g, in_shape);
        return TensorList{is_half(xd) ? round_to_half(gx, xd) : gx};
    });
    set_history(out, node);
    return out;
}
}  // namespace

Tensor sum(const Tensor& x, const IntList& dims, bool keepdim) {
    if (is_complex(x.dtype())) return complex_reduce("sum", x, dims, keepdim, sum);
    if (is_half(x.dtype()) && !native_half(x))  // Note [Half compute]; CUDA: Note [Native half on CUDA]
        return round_to_half(sum_kernel_op(half_to_float32(x), dims, keepdim), x.dtype());
    return sum_kernel_op(x, dims, keepdim);
}

Tensor prod(const Tensor& x0, const IntList& dims, bool keepdim) {
    // Note [Half compute]; a half CUDA x reads its own storage (Note [Native half on CUDA])
    const Tensor x = float32_unless_native(x0);
    std::vector<bool> mask = reduce_mask("prod", dims, x.dim());
    Tensor out = accumulate_kernel<Multiplier>("prod", CT_CUDA_REDUCE_PROD, x, mask, keepdim, true);
    if (requires_grad(x)) {
        Shape ks = reduced_shape(x.sizes(), mask, true);
        IntList rdims = mask_dims(mask);
        auto node = make_node("ProdBackward", {x}, [ks, rdims](BackwardCtx& c) {
            Tensor gk = reshape(c.grads[0], ks), outk = reshape(c.saved(1), ks), xs = c.saved(0);
            if (is_complex(gk.dtype()))  // Note [Complex gradients]: g * conj(d prod / d x)
                return TensorList{conj(prod_grad(xs, conj(gk), outk, rdims))};
            if (is_half(xs.dtype()))  // float32 math on a copy made now, rounded (Note [Native half on CUDA])
                return TensorList{round_to_half(prod_grad(half_to_float32(xs), gk, outk, rdims), xs.dtype())};
            return TensorList{prod_grad(xs, gk, outk, rdims)};
        });
        node->save(x);
        set_history(out, node);
        node->save_output(out);  // after set_history, so it is saved without its grad_fn (Note [Saved outputs])
    }
    return is_half(x0.dtype()) ? round_to_half(out, x0.dtype()) : out;
}

Tensor mean(const Tensor& x, const IntList& dims, bool keepdim) {
    if (is_complex(x.dtype())) return complex_reduce("mean", x, dims, keepdim, mean);
    if (!is_floating(x.dtype()))
        fail(CT_ERR_DTYPE, "mean: expected a floating tensor (float32 or float64), got ", dtype_name(x.dtype()),
             "; convert with to_dtype first");
    std::vector<bool> mask = reduce_mask("mean", dims, x.dim());
    int64_t n = 1;
    for (int64_t d = 0; d < x.dim(); ++d)
        if (mask[d]) n *= x.sizes()[d];
    const double scale = n == 0 ? NAN : 1.0 / (double)n;
    if (is_half(x.dtype())) {  // the float32 sum scaled in float32, rounded once (Notes [Half compute], [Native
                               // half on CUDA])
        Tensor s = sum_kernel_op(float32_unless_native(x), dims, keepdim, true);
        return round_to_half(mul_scalar(s, scale), x.dtype());
    }
    return mul_scalar(sum(x, dims, keepdim), scale);
}

Tensor sum_to(const Tensor& g, const Shape& shape) {
    if (g.sizes() == shape) return g;
    int64_t lead = g.dim() - (int64_t)shape.size();
    if (lead < 0) fail(CT_ERR_SHAPE, "sum_to: cannot reduce shape ", shape_str(g.sizes()), " to ", shape_str(shape));
    IntList dims;
    for (int64_t d = 0; d < g.dim(); ++d) {
        if (d < lead) dims.push_back(d);
        else if (shape[d - lead] == 1 && g.sizes()[d] != 1) dims.push_back(d);
        else if (shape[d - lead] != g.sizes()[d])
            fail(CT_ERR_SHAPE, "sum_to: cannot reduce shape ", shape_str(g.sizes()), " to ", shape_str(shape));
    }
    if (dims.empty()) return reshape(g, shape);
    return reshape(sum(g, dims, true), shape);
}

}  // namespace ct

// cumprod.cpp - cumulative product along a dim (integers and bool give int64, floats accumulate in double).
// Its backward is written with ops (cumsum, flip, cumprod itself), so it is exact with zeros in the input
// and can be differentiated again. On CUDA the forward scan runs on a host copy (one read-back, one upload);
// the backward runs on the device.
#include "core/scalar_math.h"
#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "ops/half_compute.h"
#include "ops/device_ops.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

// In-place inclusive product scan of a contiguous [outer, n, inner] tensor along the middle dim.
template <typename T, typename Acc> void prod_scan_inplace(T* data, int64_t outer, int64_t n, int64_t inner) {
    int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n, 1));
    parallel_for(outer * inner, grain, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
            T* base = data + (t / inner) * n * inner + t % inner;
            Acc acc = Acc(1);
            for (int64_t s = 0; s < n; ++s) {
                acc = math::wrap_mul(acc, (Acc)base[s * inner]);  // Note [Integer wrap]
                base[s * inner] = (T)acc;
            }
        }
    });
}

// Sum over positions j >= i along d.
Tensor reverse_cumsum(const Tensor& t, int64_t d) { return flip(cumsum(flip(t, {d}), d), {d}); }

// sum_{j >= i} g[j] * prod_{k <= j, k != i} x[k]. Without zeros that is reverse_cumsum(g * out) / x. With a
// zero, row i of an [n, n] matrix is cumprod of x with x[i] replaced by one, masked to j >= i: O(n^2) memory, but
// exact, and made of recorded ops so that the gradient is differentiable again (dividing by x is not).
Tensor cumprod_backward(const Tensor& g, const Tensor& x, const Tensor& out, int64_t d) {
    Tensor is_zero = eq(x, wrapped_scalar(0.0, false));
    if (item(any(is_zero, {}, false)) == 0.0)
        return div(reverse_cumsum(mul(g, out), d), x);
    int64_t n = x.size(d);
    Tensor xt = transpose(x, d, -1);  // [..., n]
    Shape square = xt.sizes();
    square.insert(square.end() - 1, n);  // [..., n (i), n (k)]
    Tensor iota = arange(0, (double)n, 1, DType::Int64, x.device());
    Tensor diag = eq(reshape(iota, {n, 1}), reshape(iota, {1, n}));
    Tensor without_i = where(diag, wrapped_scalar(1.0, false), expand(unsqueeze(xt, -2), square));
    Tensor partial = triu(cumprod(without_i, -1), 0);  // [i, j]: prod_{k <= j, k != i} x[k] for j >= i
    Tensor grad_t = sum(mul(partial, unsqueeze(transpose(g, d, -1), -2)), {-1}, false);
    return transpose(grad_t, d, -1);
}

// The cumulative product of x (on the CPU) along d in dtype od, no autograd.
Tensor cumprod_values(const Tensor& x, int64_t d, DType od) {
    Tensor out = empty_tensor(x.sizes(), od, x.device());
    cpu_copy(out, x);  // contiguous copy in the result dtype; the scan then runs in place
    if (x.dim() > 0 && out.numel() > 0) {
        int64_t outer = 1, inner = 1, n = x.sizes()[d];
        for (int64_t i = 0; i < d; ++i) outer *= x.sizes()[i];
        for (int64_t i = d + 1; i < x.dim(); ++i) inner *= x.sizes()[i];
        if (od == DType::Float32) prod_scan_inplace<float, double>(out.data<float>(), outer, n, inner);
        else if (od == DType::Float64) prod_scan_inplace<double, double>(out.data<double>(), outer, n, inner);
        else if (od == DType::Complex64)  // accumulates in complex128, as float32 in double
            prod_scan_inplace<std::complex<float>, std::complex<double>>(out.data<std::complex<float>>(), outer, n, inner);
        else if (od == DType::Complex128)
            prod_scan_inplace<std::complex<double>, std::complex<double>>(out.data<std::complex<double>>(), outer, n,
                                                                          inner);
        else prod_scan_inplace<int64_t, uint64_t>(out.data<int64_t>(), outer, n, inner);  // wraps like C++/torch
    }
    return out;
}

}  // namespace

Tensor cumprod(const Tensor& x, int64_t dim) {
    if (is_half(x.dtype())) return round_to_half(cumprod(half_to_float32(x), dim), x.dtype());  // Note [Half compute]
    int64_t d = wrap_dim(dim, x.dim(), "cumprod");
    DType od = is_floating(x.dtype()) || is_complex(x.dtype()) ? x.dtype() : DType::Int64;
    Tensor out = x.device().is_cpu() ? cumprod_values(x, d, od)
                                     : copy_to_device(cumprod_values(copy_to_device(x, Device{}), d, od), x.device());
    if (!requires_grad(x)) return out;
    auto node = make_node("CumprodBackward", {x}, [d](BackwardCtx& c) {
        if (c.saved(0).dim() == 0) return TensorList{c.grads[0]};
        if (is_complex(c.saved(0).dtype()))  // Note [Complex gradients]: conj of the holomorphic formula at conj(g)
            return TensorList{conj(cumprod_backward(conj(c.grads[0]), c.saved(0), c.saved(1), d))};
        return TensorList{cumprod_backward(c.grads[0], c.saved(0), c.saved(1), d)};
    });
    node->save(x);
    set_history(out, node);
    node->save_output(out);
    return out;
}

}  // namespace ct

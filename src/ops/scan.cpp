// scan.cpp - cumulative sum along a dim (integers and bool give int64, floats accumulate in double);
// its backward is the reversed cumulative sum, itself a recorded op, so double backward works.
#include <memory>
#include "core/scalar_math.h"
#include "cpu/kernels.h"
#include "ops/half_compute.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

// In-place inclusive scan of a contiguous tensor viewed as [outer, n, inner] along the middle dim.
template <typename T, typename Acc> void scan_inplace(T* data, int64_t outer, int64_t n, int64_t inner, bool reverse) {
    constexpr int64_t kBlock = 256;
    const int64_t blocks = (inner + kBlock - 1) / kBlock;
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n * std::min(inner, kBlock), 1));
    parallel_for(outer * blocks, grain, [&](int64_t b, int64_t e) {
        Acc acc[kBlock];
        for (int64_t t = b; t < e; ++t) {
            int64_t o = t / blocks, j0 = (t % blocks) * kBlock, m = std::min(kBlock, inner - j0);
            T* base = data + o * n * inner + j0;
            for (int64_t j = 0; j < m; ++j) acc[j] = Acc(0);
            for (int64_t s = 0; s < n; ++s) {
                T* row = base + (reverse ? n - 1 - s : s) * inner;
                for (int64_t j = 0; j < m; ++j) {
                    acc[j] = math::wrap_add(acc[j], (Acc)row[j]);  // Note [Integer wrap]
                    row[j] = (T)acc[j];
                }
            }
        }
    });
}

Tensor cumsum_impl(const Tensor& x, int64_t d, bool reverse) {
    DType od = is_floating(x.dtype()) || is_complex(x.dtype()) ? x.dtype() : DType::Int64;  // complex: 0-d only
    Tensor out = empty_tensor(x.sizes(), od, x.device());
    copy_into(out, x);  // contiguous copy in the result dtype; the scan then runs in place
    if (x.dim() > 0) {
        int64_t outer = 1, inner = 1, n = x.sizes()[d];
        for (int64_t i = 0; i < d; ++i) outer *= x.sizes()[i];
        for (int64_t i = d + 1; i < x.dim(); ++i) inner *= x.sizes()[i];
        if (!x.device().is_cpu()) {
            cuda_cumsum(out, outer, n, inner, reverse);
        } else if (out.numel() > 0) {
            if (od == DType::Float32) scan_inplace<float, double>(out.data<float>(), outer, n, inner, reverse);
            else if (od == DType::Float64) scan_inplace<double, double>(out.data<double>(), outer, n, inner, reverse);
            else scan_inplace<int64_t, int64_t>(out.data<int64_t>(), outer, n, inner, reverse);
        }
    }
    if (!requires_grad(x)) return out;
    auto node = make_node(reverse ? "CumsumReverseBackward" : "CumsumBackward", {x}, [d, reverse](BackwardCtx& c) {
        return TensorList{cumsum_impl(c.grads[0], d, !reverse)};
    });
    set_history(out, node);
    return out;
}

}  // namespace

Tensor cumsum(const Tensor& x, int64_t dim) {
    if (is_half(x.dtype()) && !native_half(x))  // Note [Half compute]; CUDA scans half natively (Note [Native
        return round_to_half(cumsum(half_to_float32(x), dim), x.dtype());  // half on CUDA])
    const int64_t d = wrap_dim(dim, x.dim(), "cumsum");
    if (is_complex(x.dtype()) && x.dim() > 0)  // the same scan of the (real, imag) pairs: Note [Complex gradients]
        return view_as_complex(contiguous(cumsum(view_as_real(x), d)));
    return cumsum_impl(x, d, false);  // a 0-d complex x: a copy (no scan runs)
}

}  // namespace ct

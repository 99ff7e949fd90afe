// logcumsumexp.cpp - log(cumsum(exp(x))) along a dim: one stable log-add-exp per step (math::LogAddExp, the
// functor CUDA runs too), floats accumulating in double. Backward is torch 1.13's formula written with recorded
// ops (reversed logcumsumexp of log|g| - result, split by the sign of g), so double backward works.
#include <limits>
#include "core/scalar_math.h"
#include "cpu/parallel.h"
#include "ops/device_ops.h"
#include "ops/elementwise.h"
#include "ops/half_compute.h"

namespace ct {
namespace {

// In-place scan of contiguous data viewed as [outer, n, inner] along n; one task per (outer, inner) column block.
template <typename T> void lcse_inplace(T* data, int64_t outer, int64_t n, int64_t inner) {
    constexpr int64_t kBlock = 256;
    const int64_t blocks = (inner + kBlock - 1) / kBlock;
    const int64_t grain = std::max<int64_t>(1, 8192 / std::max<int64_t>(n * std::min(inner, kBlock), 1));
    parallel_for(outer * blocks, grain, [&](int64_t b, int64_t e) {
        double acc[kBlock];
        math::LogAddExp f;
        for (int64_t t = b; t < e; ++t) {
            int64_t o = t / blocks, j0 = (t % blocks) * kBlock, m = std::min(kBlock, inner - j0);
            T* base = data + o * n * inner + j0;
            for (int64_t j = 0; j < m; ++j) acc[j] = -INFINITY;
            for (int64_t s = 0; s < n; ++s) {
                T* row = base + s * inner;
                for (int64_t j = 0; j < m; ++j) row[j] = (T)(acc[j] = f(acc[j], (double)row[j]));
            }
        }
    });
}

Tensor reverse_logcumsumexp(const Tensor& x, int64_t d) { return flip(logcumsumexp(flip(x, {d}), d), {d}); }

// torch 1.13's logcumsumexp_backward: positive and negative parts of g in log space, each scanned in reverse.
Tensor logcumsumexp_backward(const Tensor& g, const Tensor& x, const Tensor& result, int64_t d) {
    if (g.dim() == 0 || g.numel() == 0) return g;
    double lowest = g.dtype() == DType::Float32 ? (double)std::numeric_limits<float>::lowest()
                                                : std::numeric_limits<double>::lowest();
    Tensor low = wrapped_scalar(lowest, false), zero = wrapped_scalar(0.0, false);
    Tensor log_abs = log(abs(g));
    Tensor pos = where(gt(g, zero), log_abs, low), neg = where(lt(g, zero), log_abs, low);
    Tensor out_pos = exp(add(reverse_logcumsumexp(sub(pos, result), d), x));
    Tensor out_neg = exp(add(reverse_logcumsumexp(sub(neg, result), d), x));
    return sub(out_pos, out_neg);
}

}  // namespace

Tensor logcumsumexp(const Tensor& x, int64_t dim) {
    if (is_half(x.dtype())) return round_to_half(logcumsumexp(half_to_float32(x), dim), x.dtype());  // Note [Half compute]
    check_floating("logcumsumexp", x);
    const int64_t d = wrap_dim(dim, x.dim(), "logcumsumexp");
    Tensor out = empty_tensor(x.sizes(), x.dtype(), x.device());
    copy_into(out, x);  // contiguous copy; the scan then runs in place (a 0-d x: the copy is the result)
    if (x.dim() > 0 && out.numel() > 0) {
        int64_t outer = 1, inner = 1, n = x.sizes()[d];
        for (int64_t i = 0; i < d; ++i) outer *= x.sizes()[i];
        for (int64_t i = d + 1; i < x.dim(); ++i) inner *= x.sizes()[i];
        if (!x.device().is_cpu()) {
            int32_t dev = out.device().index;
            const ct_cuda_backend& be = cuda_device_backend("logcumsumexp", dev);
            cuda_check("logcumsumexp", be.logcumsumexp(dev, out.device_data(), (int32_t)out.dtype(), outer, n, inner));
        } else if (out.dtype() == DType::Float32) {
            lcse_inplace(out.data<float>(), outer, n, inner);
        } else {
            lcse_inplace(out.data<double>(), outer, n, inner);
        }
    }
    if (!requires_grad(x)) return out;
    auto node = make_node("LogcumsumexpBackward", {x}, [d](BackwardCtx& c) {
        return TensorList{logcumsumexp_backward(c.grads[0], c.saved(0), c.saved(1), d)};
    });
    node->save(x);
    set_history(out, node);
    node->save_output(out);  // after set_history: Note [Saved outputs]
    return out;
}

}  // namespace ct

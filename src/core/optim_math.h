// optim_math.h - the per-element update of Adam / AdamW (torch.optim's formulas) as __host__ __device__ code,
// shared by the CPU loop (ops/optim.cpp) and the CUDA kernel (cuda/optim.cuh), so the math is tested on the CPU.
#pragma once
#include <cmath>
#include "core/scalar_math.h"

namespace ct {
namespace math {

// Hyper-parameters of one Adam step, precomputed on the host in double and converted to T.
template <typename T> struct AdamCoeffs {
    T shrink;      // 1 - lr * weight_decay (AdamW: w *= shrink first)
    T l2;          // weight_decay (Adam: added to the gradient as l2 * w)
    T w1;          // 1 - beta1 (the lerp weight of exp_avg)
    T b2, w2;      // beta2 and 1 - beta2
    T eps;
    T step_size;   // lr / (1 - beta1^step)
    T bias2_sqrt;  // sqrt(1 - beta2^step)
};

// One element: Decoupled (AdamW) shrinks w first; L2 adds l2 * w to the gradient.
template <bool Decoupled, bool L2, typename T>
CT_HD inline void adam_element(T& w, T g, T& m, T& v, const AdamCoeffs<T>& c) {
    if (Decoupled) w *= c.shrink;
    const T gk = L2 ? g + c.l2 * w : g;
    // torch's lerp: m + w1 * (g - m) for w1 < 0.5, else g - (g - m) * (1 - w1)
    m = c.w1 < T(0.5) ? m + c.w1 * (gk - m) : gk - (gk - m) * (T(1) - c.w1);
    v = v * c.b2 + c.w2 * gk * gk;
    const T denom = std::sqrt(v) / c.bias2_sqrt + c.eps;
    w = w - c.step_size * (m / denom);
}

}  // namespace math
}  // namespace ct

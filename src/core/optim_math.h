// optim_math.h - the per-element updates of SGD and Adam / AdamW (torch.optim's formulas) as __host__ __device__
// code, shared by the CPU loops (ops/optim.cpp) and the CUDA kernels (cuda/optim.cuh), so the math is tested on the
// CPU. T is the compute type: float32 for float16/bfloat16 parameters (Note [Half step] in ops/optim.cpp).
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

// Hyper-parameters of one SGD step, converted to T.
template <typename T> struct SgdCoeffs {
    T lr, wd, mom, keep;  // keep = 1 - dampening
};

// One element: Decay adds wd * w to the gradient; Momentum keeps buf (First: the first step copies d into it, no
// dampening); Nesterov steps along d + mom * buf.
template <bool Decay, bool Momentum, bool First, bool Nesterov, typename T>
CT_HD inline void sgd_element(T& w, T g, T& buf, const SgdCoeffs<T>& c) {
    T d = Decay ? g + c.wd * w : g;
    if (Momentum) {
        const T m = First ? d : buf * c.mom + d * c.keep;
        buf = m;
        d = Nesterov ? d + c.mom * m : m;
    }
    w = w - c.lr * d;
}

}  // namespace math
}  // namespace ct

// optim.cuh - the fused Adam / AdamW kernel: one grid-stride pass updating parameter, first and second moment
// per element with the CPU's math (core/optim_math.h). Runs natively under nvcc and through cuda/emulation.h.
#pragma once
#include "core/optim_math.h"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

template <typename T, bool Decoupled, bool L2>
__global__ void adam_kernel(int64_t n, T* w, const T* g, T* m, T* v, math::AdamCoeffs<T> c) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        T wi = w[i], mi = m[i], vi = v[i];
        math::adam_element<Decoupled, L2>(wi, g[i], mi, vi, c);
        w[i] = wi;
        m[i] = mi;
        v[i] = vi;
    }
}

template <typename T> math::AdamCoeffs<T> adam_coeffs(const ct_cuda_adam& a) {
    return math::AdamCoeffs<T>{(T)a.shrink, (T)a.l2, (T)a.w1, (T)a.b2, (T)a.w2, (T)a.eps, (T)a.step_size,
                               (T)a.bias2_sqrt};
}

// CT_ERR_DTYPE unless float32/float64; CT_ERR_INVALID_ARGUMENT for a bad request (nothing launched).
inline int32_t launch_adam(LaunchConfig c, cudaStream_t s, int32_t dtype, int64_t n, void* w, const void* g, void* m,
                           void* v, const ct_cuda_adam* a) {
    if (n < 0 || !a || (n > 0 && (!w || !g || !m || !v))) return CT_ERR_INVALID_ARGUMENT;
    auto run = [&](auto tag) {
        using T = decltype(tag);
        if (n == 0) return;
        auto* k = a->decoupled ? &adam_kernel<T, true, false>
                               : a->l2_decay ? &adam_kernel<T, false, true> : &adam_kernel<T, false, false>;
        CT_LAUNCH(k, blocks_for(n, c), c.threads, s, n, static_cast<T*>(w), static_cast<const T*>(g),
                  static_cast<T*>(m), static_cast<T*>(v), adam_coeffs<T>(*a));
    };
    if (dtype == CT_FLOAT32) run(float());
    else if (dtype == CT_FLOAT64) run(double());
    else return CT_ERR_DTYPE;
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

// optim.cuh - the fused optimizer kernels: one grid-stride pass per parameter updating it and its state per
// element with the CPU's math (core/optim_math.h): Adam / AdamW (parameter, first and second moment) and SGD
// (parameter, momentum buffer). Runs natively under nvcc and through cuda/emulation.h.
// Note [Native half step]: the storage type S may be float16/bfloat16 (cuda/half_types.cuh): every element of the
// parameter, gradient and state is loaded as float, updated in float and rounded once on store, which is what the
// CPU's half path does with its float32 copies (Note [Half step] in ops/optim.cpp), so the results are the same.
#pragma once
#include "core/optim_math.h"
#include "cuda/half_types.cuh"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

template <typename S, bool Decoupled, bool L2>
__global__ void adam_kernel(int64_t n, S* w, const S* g, S* m, S* v, math::AdamCoeffs<compute_t<S>> c) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        compute_t<S> wi = load(w[i]), mi = load(m[i]), vi = load(v[i]);
        math::adam_element<Decoupled, L2>(wi, load(g[i]), mi, vi, c);
        w[i] = store<S>(wi);
        m[i] = store<S>(mi);
        v[i] = store<S>(vi);
    }
}

template <typename T> math::AdamCoeffs<T> adam_coeffs(const ct_cuda_adam& a) {
    return math::AdamCoeffs<T>{(T)a.shrink, (T)a.l2, (T)a.w1, (T)a.b2, (T)a.w2, (T)a.eps, (T)a.step_size,
                               (T)a.bias2_sqrt};
}

// Calls run(TypeTag<S>) for the floating storage types the optimizer kernels take; CT_ERR_DTYPE otherwise.
template <typename F> int32_t dispatch_optim_dtype(int32_t dtype, F&& run) {
    switch (dtype) {
    case CT_FLOAT32: run(TypeTag<float>{}); return CT_OK;
    case CT_FLOAT64: run(TypeTag<double>{}); return CT_OK;
    case CT_FLOAT16: run(TypeTag<half_t>{}); return CT_OK;
    case CT_BFLOAT16: run(TypeTag<bfloat16_t>{}); return CT_OK;
    default: return CT_ERR_DTYPE;
    }
}

// CT_ERR_DTYPE unless float32/float64/float16/bfloat16; CT_ERR_INVALID_ARGUMENT for a bad request (nothing
// launched).
inline int32_t launch_adam(LaunchConfig c, cudaStream_t s, int32_t dtype, int64_t n, void* w, const void* g, void* m,
                           void* v, const ct_cuda_adam* a) {
    if (n < 0 || !a || (n > 0 && (!w || !g || !m || !v))) return CT_ERR_INVALID_ARGUMENT;
    return dispatch_optim_dtype(dtype, [&](auto tag) {
        using S = typename decltype(tag)::type;
        if (n == 0) return;
        auto* k = a->decoupled ? &adam_kernel<S, true, false>
                               : a->l2_decay ? &adam_kernel<S, false, true> : &adam_kernel<S, false, false>;
        CT_LAUNCH(k, blocks_for(n, c), c.threads, s, n, static_cast<S*>(w), static_cast<const S*>(g),
                  static_cast<S*>(m), static_cast<S*>(v), adam_coeffs<compute_t<S>>(*a));
    });
}

template <typename S, bool Decay, bool Momentum, bool First, bool Nesterov>
__global__ void sgd_kernel(int64_t n, S* w, const S* g, S* buf, math::SgdCoeffs<compute_t<S>> c) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        compute_t<S> wi = load(w[i]), bi = Momentum && !First ? load(buf[i]) : compute_t<S>(0);
        math::sgd_element<Decay, Momentum, First, Nesterov>(wi, load(g[i]), bi, c);
        w[i] = store<S>(wi);
        if (Momentum) buf[i] = store<S>(bi);
    }
}

// The sgd kernel variant for the flags (each a branch-free loop).
template <typename S, bool Decay> auto* sgd_variant(const ct_cuda_sgd& a) {
    if (!a.momentum) return &sgd_kernel<S, Decay, false, false, false>;
    if (a.first) return a.nesterov ? &sgd_kernel<S, Decay, true, true, true> : &sgd_kernel<S, Decay, true, true, false>;
    return a.nesterov ? &sgd_kernel<S, Decay, true, false, true> : &sgd_kernel<S, Decay, true, false, false>;
}

// As launch_adam; buf (read unless first, written) is needed only with momentum.
inline int32_t launch_sgd(LaunchConfig c, cudaStream_t s, int32_t dtype, int64_t n, void* w, const void* g,
                          void* buf, const ct_cuda_sgd* a) {
    if (n < 0 || !a || (n > 0 && (!w || !g || (a->momentum && !buf)))) return CT_ERR_INVALID_ARGUMENT;
    return dispatch_optim_dtype(dtype, [&](auto tag) {
        using S = typename decltype(tag)::type;
        using T = compute_t<S>;
        if (n == 0) return;
        auto* k = a->decay ? sgd_variant<S, true>(*a) : sgd_variant<S, false>(*a);
        CT_LAUNCH(k, blocks_for(n, c), c.threads, s, n, static_cast<S*>(w), static_cast<const S*>(g),
                  static_cast<S*>(buf), math::SgdCoeffs<T>{(T)a->lr, (T)a->wd, (T)a->mom, (T)a->keep});
    });
}

}  // namespace cuda
}  // namespace ct

// rnn.cuh - the gate kernels of one step of a fused recurrent layer (the rnn_step entry, ct_cuda_rnn_step_args in
// core/backend.h): one thread per (batch row, hidden unit) applying core/rnn_math.h, the math the CPU step kernels of
// ops/rnn_layer.cpp use. Runs natively under nvcc and through cuda/emulation.h (tests/emulated_cuda_backend.cpp).
#pragma once
#include "core/rnn_math.h"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

// Modes as in ct_cuda_rnn_step_args (torch's cudnn numbering, ops/rnn.h RnnMode).
enum RnnStepMode : int32_t { kRnnRelu = 0, kRnnTanh = 1, kRnnLstm = 2, kRnnGru = 3 };

template <typename T> __device__ inline T rnn_at(const void* p, int64_t i) {
    return p ? static_cast<const T*>(p)[i] : T(0);
}
template <typename T> __device__ inline T* rnn_mut(void* p) { return static_cast<T*>(p); }
template <typename T> __device__ inline const T* rnn_in(const void* p) { return static_cast<const T*>(p); }

// Unit j of row r: the activations of its gates (written back to gates), the new states and h_out.
template <typename T> __global__ void rnn_step_forward_kernel(ct_cuda_rnn_step_args a) {
    const int64_t H = a.H, n = a.rows * H;
    const int64_t G = a.mode == kRnnLstm ? 4 : a.mode == kRnnGru ? 3 : 1;
    for (int64_t i = first_index(); i < n; i += index_step()) {
        const int64_t r = i / H, j = i - r * H;
        T* g = rnn_mut<T>(a.gates) + r * G * H;
        const T* w = rnn_in<T>(a.hw) + r * G * H;
        auto pre = [&](int64_t k) { return g[k] + w[k] + rnn_at<T>(a.bias, k); };  // x side + h side + biases
        T h_new;
        if (a.mode == kRnnLstm) {
            const T gi = math::rnn_sigmoid(pre(j)), gf = math::rnn_sigmoid(pre(H + j));
            const T gg = std::tanh(pre(2 * H + j)), go = math::rnn_sigmoid(pre(3 * H + j));
            g[j] = gi, g[H + j] = gf, g[2 * H + j] = gg, g[3 * H + j] = go;
            T* c = rnn_mut<T>(a.c) + i;
            *c = math::LstmGates::cell(gi, gf, gg, *c);
            const T tc = std::tanh(*c);
            rnn_mut<T>(a.cell)[i] = tc;
            h_new = go * tc;
        } else if (a.mode == kRnnGru) {
            const T gr = math::rnn_sigmoid(pre(j)), gz = math::rnn_sigmoid(pre(H + j));
            const T hn = w[2 * H + j] + rnn_at<T>(a.bhn, j);
            const T gn = std::tanh(math::GruGates::n_pre(g[2 * H + j] + rnn_at<T>(a.bias, 2 * H + j), gr, hn));
            g[j] = gr, g[H + j] = gz, g[2 * H + j] = gn;
            rnn_mut<T>(a.hn)[i] = hn;
            h_new = math::GruGates::hidden(gz, gn, rnn_in<T>(a.h)[i]);
        } else {
            const T p = pre(j);
            h_new = a.mode == kRnnTanh ? std::tanh(p) : math::PlainGates::relu(p);
            g[j] = h_new;
        }
        rnn_mut<T>(a.h_out)[i] = h_new;
    }
}

// Unit j of row r: the gate pre-activation gradients from dh (and dc) and the saved activations.
template <typename T> __global__ void rnn_step_backward_kernel(ct_cuda_rnn_step_args a) {
    const int64_t H = a.H, n = a.rows * H;
    const int64_t G = a.mode == kRnnLstm ? 4 : a.mode == kRnnGru ? 3 : 1;
    for (int64_t i = first_index(); i < n; i += index_step()) {
        const int64_t r = i / H, j = i - r * H;
        const T* g = rnn_in<T>(a.gates) + r * G * H;
        T* gx = rnn_mut<T>(a.dg) + r * G * H;
        const T dh = rnn_in<T>(a.dh)[i];
        if (a.mode == kRnnLstm) {
            T* dc = rnn_mut<T>(a.dc) + i;
            math::LstmGates::backward(g[j], g[H + j], g[2 * H + j], g[3 * H + j], rnn_in<T>(a.cell)[i],
                                      rnn_in<T>(a.c_prev)[i], dh, *dc, gx[j], gx[H + j], gx[2 * H + j],
                                      gx[3 * H + j]);
        } else if (a.mode == kRnnGru) {
            T dr, dz, dn;
            const T direct = math::GruGates::backward(g[j], g[H + j], g[2 * H + j], rnn_in<T>(a.hn)[i],
                                                      rnn_in<T>(a.h_prev)[i], dh, dr, dz, dn);
            T* gh = rnn_mut<T>(a.dgh) + r * G * H;
            gx[j] = dr, gx[H + j] = dz, gx[2 * H + j] = dn;
            gh[j] = dr, gh[H + j] = dz, gh[2 * H + j] = dn * g[j];
            rnn_mut<T>(a.dh_out)[i] = direct;  // after the read of dh: dh_out may be dh
        } else {
            gx[j] = math::PlainGates::backward(a.mode == kRnnRelu, g[j], dh);
        }
    }
}

// The operands a's op and mode read or write are all given (the others may be NULL).
inline bool rnn_step_args_complete(const ct_cuda_rnn_step_args& a) {
    const bool lstm = a.mode == kRnnLstm, gru = a.mode == kRnnGru;
    if (!a.gates) return false;
    if (a.op == CT_CUDA_RNN_STEP_FORWARD)
        return a.hw && a.h_out && (!lstm || (a.c && a.cell)) && (!gru || (a.h && a.hn));
    return a.dh && a.dg && (!lstm || (a.cell && a.c_prev && a.dc)) && (!gru || (a.hn && a.h_prev && a.dgh && a.dh_out));
}

// CT_ERR_DTYPE unless float32/float64; CT_ERR_INVALID_ARGUMENT for a bad request (nothing launched).
inline int32_t launch_rnn_step(LaunchConfig c, cudaStream_t s, const ct_cuda_rnn_step_args* a) {
    if (!a || a->op < 0 || a->op >= CT_CUDA_NUM_RNN_OPS || a->mode < kRnnRelu || a->mode > kRnnGru || a->rows < 0 ||
        a->H <= 0 || a->rows > INT64_MAX / 4 / a->H)
        return CT_ERR_INVALID_ARGUMENT;
    if (a->dtype != CT_FLOAT32 && a->dtype != CT_FLOAT64) return CT_ERR_DTYPE;
    if (a->rows == 0) return CT_OK;
    if (!rnn_step_args_complete(*a)) return CT_ERR_INVALID_ARGUMENT;
    auto run = [&](auto tag) {
        using T = decltype(tag);
        auto* k = a->op == CT_CUDA_RNN_STEP_FORWARD ? &rnn_step_forward_kernel<T> : &rnn_step_backward_kernel<T>;
        CT_LAUNCH(k, blocks_for(a->rows * a->H, c), c.threads, s, *a);
    };
    if (a->dtype == CT_FLOAT32) run(float());
    else run(double());
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct

// rnn_ops.h - where a fused recurrent layer (rnn_layer.cpp) runs: the five primitives its one layer loop is written
// in (gemm, copy, add, the step's gate kernel, column sums) on the host (OpenBLAS and the CPU step kernels below)
// or on a CUDA device (the backend's gemm, memcpy, binary, fill and rnn_step entries; cuda/rnn.cuh). Both step
// kernels take core/backend.h's ct_cuda_rnn_step_args and apply core/rnn_math.h (Note [RNN on the device]).
#pragma once
#include <algorithm>
#include <vector>
#include "core/backend.h"
#include "core/rnn_math.h"
#include "cpu/gemm.h"
#include "cpu/parallel.h"
#include "cpu/vec_math.h"
#include "ops/device_ops.h"
#include "ops/rnn.h"

namespace ct {
namespace rnn_detail {

template <typename T> T* mut(void* p) { return static_cast<T*>(p); }
template <typename T> const T* in(const void* p) { return static_cast<const T*>(p); }
template <typename T> T at(const void* p, int64_t i) { return p ? in<T>(p)[i] : T(0); }

// g[k] += w[k] + bias[k] for k < n (bias may be NULL: zeros).
template <typename T> void add_pre(T* g, const T* w, const void* bias, int64_t n) {
    if (const T* b = in<T>(bias))
        for (int64_t k = 0; k < n; ++k) g[k] += w[k] + b[k];
    else
        for (int64_t k = 0; k < n; ++k) g[k] += w[k];
}

// The CPU forward gate kernel on rows [r0, r1) of a (ct_cuda_rnn_step_args' forward contract): the activations run
// vectorised over each row's gate blocks (cpu/vec_math.h), the rest is core/rnn_math.h as in cuda/rnn.cuh.
template <typename T> void host_step_forward(const ct_cuda_rnn_step_args& a, int64_t r0, int64_t r1) {
    const int64_t H = a.H, GH = rnn_gate_count((RnnMode)a.mode) * H;
    for (int64_t r = r0; r < r1; ++r) {
        T* g = mut<T>(a.gates) + r * GH;
        const T* w = in<T>(a.hw) + r * GH;
        T* hd = mut<T>(a.h_out) + r * H;
        if (a.mode == (int32_t)RnnMode::Lstm) {
            add_pre(g, w, a.bias, GH);
            vec::sigmoid(g, g, 2 * H);
            vec::tanh(g + 2 * H, g + 2 * H, H);
            vec::sigmoid(g + 3 * H, g + 3 * H, H);
            T* cr = mut<T>(a.c) + r * H;
            T* tc = mut<T>(a.cell) + r * H;
            for (int64_t j = 0; j < H; ++j) cr[j] = math::LstmGates::cell(g[j], g[H + j], g[2 * H + j], cr[j]);
            vec::tanh(cr, tc, H);
            for (int64_t j = 0; j < H; ++j) hd[j] = g[3 * H + j] * tc[j];
        } else if (a.mode == (int32_t)RnnMode::Gru) {
            const T* hr = in<T>(a.h) + r * H;
            T* hnr = mut<T>(a.hn) + r * H;
            add_pre(g, w, a.bias, 2 * H);
            vec::sigmoid(g, g, 2 * H);
            for (int64_t j = 0; j < H; ++j) {
                hnr[j] = w[2 * H + j] + at<T>(a.bhn, j);
                g[2 * H + j] = math::GruGates::n_pre(g[2 * H + j] + at<T>(a.bias, 2 * H + j), g[j], hnr[j]);
            }
            vec::tanh(g + 2 * H, g + 2 * H, H);
            for (int64_t j = 0; j < H; ++j) hd[j] = math::GruGates::hidden(g[H + j], g[2 * H + j], hr[j]);
        } else {
            add_pre(g, w, a.bias, H);
            if (a.mode == (int32_t)RnnMode::RnnTanh) vec::tanh(g, g, H);
            else for (int64_t k = 0; k < H; ++k) g[k] = math::PlainGates::relu(g[k]);
            std::copy(g, g + H, hd);
        }
    }
}

// The CPU backward gate kernel on rows [r0, r1) of a (the backward contract).
template <typename T> void host_step_backward(const ct_cuda_rnn_step_args& a, int64_t r0, int64_t r1) {
    const int64_t H = a.H, GH = rnn_gate_count((RnnMode)a.mode) * H;
    for (int64_t r = r0; r < r1; ++r) {
        const T* g = in<T>(a.gates) + r * GH;
        T* gx = mut<T>(a.dg) + r * GH;
        const T* dhr = in<T>(a.dh) + r * H;
        if (a.mode == (int32_t)RnnMode::Lstm) {
            const T* tc = in<T>(a.cell) + r * H;
            const T* cp = in<T>(a.c_prev) + r * H;
            T* dcr = mut<T>(a.dc) + r * H;
            for (int64_t j = 0; j < H; ++j)
                math::LstmGates::backward(g[j], g[H + j], g[2 * H + j], g[3 * H + j], tc[j], cp[j], dhr[j], dcr[j],
                                          gx[j], gx[H + j], gx[2 * H + j], gx[3 * H + j]);
        } else if (a.mode == (int32_t)RnnMode::Gru) {
            const T* hp = in<T>(a.h_prev) + r * H;
            const T* hn = in<T>(a.hn) + r * H;
            T* gh = mut<T>(a.dgh) + r * GH;
            T* dhw = mut<T>(a.dh_out) + r * H;
            for (int64_t j = 0; j < H; ++j) {
                dhw[j] = math::GruGates::backward(g[j], g[H + j], g[2 * H + j], hn[j], hp[j], dhr[j], gx[j],
                                                  gx[H + j], gx[2 * H + j]);
                gh[j] = gx[j], gh[H + j] = gx[H + j], gh[2 * H + j] = gx[2 * H + j] * g[j];
            }
        } else {
            for (int64_t j = 0; j < H; ++j)
                gx[j] = math::PlainGates::backward(a.mode == (int32_t)RnnMode::RnnRelu, g[j], dhr[j]);
        }
    }
}

// The primitives on the host. Buffers are host tensors; pointers are host memory.
template <typename T> struct HostOps {
    Device dev;
    void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
              int64_t ldb, T beta, T* c, int64_t ldc) const {
        ::ct::gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    void copy(T* dst, const T* src, int64_t n) const { std::copy(src, src + n, dst); }
    void add(T* dst, const T* src, int64_t n) const {
        for (int64_t i = 0; i < n; ++i) dst[i] += src[i];
    }
    // One step's gate kernel, parallel over its rows only when a step has enough work to pay for it.
    void step(const ct_cuda_rnn_step_args& a) const {
        const int64_t work = rnn_gate_count((RnnMode)a.mode) * a.H;
        const bool fwd = a.op == CT_CUDA_RNN_STEP_FORWARD;
        parallel_for(a.rows, std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(work, 1)),
                     [&](int64_t r0, int64_t r1) {
                         fwd ? host_step_forward<T>(a, r0, r1) : host_step_backward<T>(a, r0, r1);
                     });
    }
    // out[k] = column sums of m [n, k].
    void col_sums(const T* m, int64_t n, int64_t k, T* out) const {
        std::fill(out, out + k, T(0));
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < k; ++j) out[j] += m[i * k + j];
    }
};

// The primitives on CUDA device dev: every call is one backend call on the device's stream, and no data crosses to
// the host. Buffers are tensors on dev; pointers are its device memory.
template <typename T> struct DeviceOps {
    Device dev;
    const ct_cuda_backend* be = &cuda_device_backend("rnn", dev.index);
    static constexpr int32_t dtype = std::is_same<T, float>::value ? CT_FLOAT32 : CT_FLOAT64;
    static constexpr const char* op = "rnn";

    // C [m, n] (row stride ldc) = value.
    void fill(T* c, int64_t m, int64_t n, int64_t ldc, double value) const {
        ct_cuda_layout L{};
        L.nargs = 1, L.ndim = 2, L.sizes[0] = m, L.sizes[1] = n, L.strides[0][0] = ldc, L.strides[0][1] = 1;
        cuda_check(op, be->fill(dev.index, &L, c, dtype, value));
    }
    void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
              int64_t ldb, T beta, T* c, int64_t ldc) const {
        if (m == 0 || n == 0) return;
        if (k == 0) {  // an empty sum (input_size 0): C = beta * C, and the layer only asks for beta 0 or 1 here
            if (beta == T(0)) fill(c, m, n, ldc, 0.0);
            return;
        }
        cuda_check(op, be->gemm(dev.index, dtype, ta, tb, m, n, k, (double)alpha, a, lda, 0, b, ldb, 0, (double)beta,
                                c, ldc, 0, 1));
    }
    void copy(T* dst, const T* src, int64_t n) const {
        if (n > 0) cuda_check(op, be->memcpy(dst, dev.index, src, dev.index, (size_t)n * sizeof(T)));
    }
    void add(T* dst, const T* src, int64_t n) const {
        if (n == 0) return;
        ct_cuda_layout L{};
        L.nargs = 3, L.ndim = 1, L.sizes[0] = n, L.strides[0][0] = L.strides[1][0] = L.strides[2][0] = 1;
        cuda_check(op, be->binary(dev.index, CT_CUDA_ADD, &L, dst, dst, src, dtype, 1.0));
    }
    void step(const ct_cuda_rnn_step_args& a) const {
        ct_cuda_rnn_step_args args = a;
        args.dtype = dtype;
        cuda_check(op, be->rnn_step(dev.index, &args));
    }
    // out [k] = ones [1, n] @ m [n, k]: the column sums as one gemm.
    void col_sums(const T* m, int64_t n, int64_t k, T* out) const {
        if (k == 0) return;
        if (n == 0) return fill(out, 1, k, k, 0.0);
        Tensor ones = empty_tensor({n}, std::is_same<T, float>::value ? DType::Float32 : DType::Float64, dev, op);
        fill(static_cast<T*>(ones.device_data()), 1, n, n, 1.0);
        gemm(false, false, 1, k, n, T(1), static_cast<const T*>(ones.device_data()), n, m, k, T(0), out, k);
    }
};

}  // namespace rnn_detail
}  // namespace ct

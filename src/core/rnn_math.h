// rnn_math.h - per-unit math of the recurrent gates as __host__ __device__ functions, shared by the CPU step kernels
// (ops/rnn_layer.cpp, which apply the activations with cpu/vec_math.h over whole gate rows) and any device backend.
// Gate orders are torch's: LSTM i, f, g, o; GRU r, z, n. "Activations" are sigmoid(i, f, o, r, z) and tanh(g, n).
#pragma once
#include <cmath>
#include "core/scalar_math.h"

namespace ct {
namespace math {

template <typename T> CT_HD T rnn_sigmoid(T v) { return T(1) / (T(1) + std::exp(-v)); }

struct LstmGates {
    // The new cell state from the activations and the previous one; the new hidden state is o * tanh(c').
    template <typename T> CT_HD static T cell(T i, T f, T g, T c) { return f * c + i * g; }
    // From the activations, tc = tanh(c'), the previous cell state cp, dh (of the new h) and dc (of the new c,
    // replaced by the previous c's): the pre-activation gradients di, df, dg, do.
    template <typename T>
    CT_HD static void backward(T i, T f, T g, T o, T tc, T cp, T dh, T& dc, T& di, T& df, T& dg, T& d_o) {
        T dct = dc + dh * o * (T(1) - tc * tc);
        di = dct * g * i * (T(1) - i);
        df = dct * cp * f * (T(1) - f);
        dg = dct * i * (T(1) - g * g);
        d_o = dh * tc * o * (T(1) - o);
        dc = dct * f;
    }
};

struct GruGates {
    // n's pre-activation from xn = W_in x + b_in, the activation r and hn = W_hn h + b_hn.
    template <typename T> CT_HD static T n_pre(T xn, T r, T hn) { return xn + r * hn; }
    // The new hidden state from the activations z, n and the previous h.
    template <typename T> CT_HD static T hidden(T z, T n, T h) { return (T(1) - z) * n + z * h; }
    // From the activations, hn, the previous h and dh: the gradients of r's, z's and n's pre-activations (x side;
    // the h side of n is dn * r), and dh's direct part z * dh (returned).
    template <typename T> CT_HD static T backward(T r, T z, T n, T hn, T h, T dh, T& dr, T& dz, T& dn) {
        dn = dh * (T(1) - z) * (T(1) - n * n);
        dr = dn * hn * r * (T(1) - r);
        dz = dh * (h - n) * z * (T(1) - z);
        return dh * z;
    }
};

struct PlainGates {
    template <typename T> CT_HD static T relu(T pre) { return pre > T(0) ? pre : T(0); }
    // the pre-activation's gradient from the activation v (tanh or relu) and dh
    template <typename T> CT_HD static T backward(bool relu, T v, T dh) {
        return relu ? (v > T(0) ? dh : T(0)) : dh * (T(1) - v * v);
    }
};

}  // namespace math
}  // namespace ct

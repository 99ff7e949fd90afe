// rnn_math.h - per-unit math of the recurrent gates (forward from pre-activations, backward to pre-activation
// gradients) as __host__ __device__ functions, shared by the CPU step kernels (ops/rnn_layer.cpp) and any device
// backend. Gate orders are torch's: LSTM i, f, g, o; GRU r, z, n.
#pragma once
#include <cmath>
#include "core/scalar_math.h"

namespace ct {
namespace math {

template <typename T> CT_HD T rnn_sigmoid(T v) { return T(1) / (T(1) + std::exp(-v)); }

struct LstmGates {
    // Pre-activations i, f, g, o in, activations out; c the previous cell state; returns the new cell state and
    // writes the new hidden state o * tanh(c') to h.
    template <typename T> CT_HD static T forward(T& i, T& f, T& g, T& o, T c, T& h) {
        i = rnn_sigmoid(i), f = rnn_sigmoid(f), g = std::tanh(g), o = rnn_sigmoid(o);
        T cn = f * c + i * g;
        h = o * std::tanh(cn);
        return cn;
    }
    // From the activations, the new and previous cell states, dh (of the new h) and dc (of the new c, replaced by
    // the previous c's): the pre-activation gradients di, df, dg, do.
    template <typename T>
    CT_HD static void backward(T i, T f, T g, T o, T cn, T cp, T dh, T& dc, T& di, T& df, T& dg, T& d_o) {
        T tc = std::tanh(cn);
        T dct = dc + dh * o * (T(1) - tc * tc);
        di = dct * g * i * (T(1) - i);
        df = dct * cp * f * (T(1) - f);
        dg = dct * i * (T(1) - g * g);
        d_o = dh * tc * o * (T(1) - o);
        dc = dct * f;
    }
};

struct GruGates {
    // Pre-activations r, z (x and h parts summed, biases included) and xn (W_in x + b_in) in, activations r, z, n
    // out; hn = W_hn h + b_hn; returns the new hidden state (1 - z) n + z h.
    template <typename T> CT_HD static T forward(T& r, T& z, T xn, T hn, T h, T& n) {
        r = rnn_sigmoid(r), z = rnn_sigmoid(z), n = std::tanh(xn + r * hn);
        return (T(1) - z) * n + z * h;
    }
    // From the activations, hn, the previous h and dh: the gradients of r and z's pre-activations, of the n gate's
    // pre-activation (x side; the h side is dn * r), and dh's direct part z * dh (returned).
    template <typename T> CT_HD static T backward(T r, T z, T n, T hn, T h, T dh, T& dr, T& dz, T& dn) {
        dn = dh * (T(1) - z) * (T(1) - n * n);
        dr = dn * hn * r * (T(1) - r);
        dz = dh * (h - n) * z * (T(1) - z);
        return dh * z;
    }
};

struct PlainGates {
    // tanh or relu of the pre-activation
    template <typename T> CT_HD static T forward(bool relu, T pre) {
        return relu ? (pre > T(0) ? pre : T(0)) : std::tanh(pre);
    }
    // the pre-activation's gradient from the activation v and dh
    template <typename T> CT_HD static T backward(bool relu, T v, T dh) {
        return relu ? (v > T(0) ? dh : T(0)) : dh * (T(1) - v * v);
    }
};

}  // namespace math
}  // namespace ct

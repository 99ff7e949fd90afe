// loss_math.h - per-element math of the elementwise losses (value and partial derivatives) as __host__ __device__
// functors, shared by the CPU kernels (ops/nn_loss.cpp) and the CUDA backend (cuda/nn_rows.cuh).
#pragma once
#include "core/scalar_math.h"

namespace ct {
namespace math {

struct MseLossMath {
    template <typename T> CT_HD static T value(T x, T t) { return (x - t) * (x - t); }
    template <typename T> CT_HD static T dx(T x, T t) { return T(2) * (x - t); }
    template <typename T> CT_HD static T dt(T x, T t) { return T(2) * (t - x); }
};

struct BceLossMath {
    // log clamped at -100 like PyTorch, so that x = 0 or 1 gives a finite loss
    template <typename T> CT_HD static T clog(T v) {
        T l = std::log(v);
        return l < T(-100) ? T(-100) : l;  // std::max(l, -100): NaN stays NaN
    }
    template <typename T> CT_HD static T clog1m(T x) {
        T l = std::log1p(-x);
        return l < T(-100) ? T(-100) : l;  // std::max(l, -100): NaN stays NaN
    }
    template <typename T> CT_HD static T value(T x, T t) { return -(t * clog(x) + (T(1) - t) * clog1m(x)); }
    template <typename T> CT_HD static T dx(T x, T t) {
        T d = (T(1) - x) * x;
        return (x - t) / (d < T(1e-12) ? T(1e-12) : d);
    }
    template <typename T> CT_HD static T dt(T x, T) { return clog1m(x) - clog(x); }
};

struct BceWithLogitsLossMath {
    // (1 - t) * x + log(1 + exp(-x)), written so that no exp overflows
    template <typename T> CT_HD static T value(T x, T t) {
        return (x < T(0) ? T(0) : x) - x * t + std::log1p(std::exp(-std::fabs(x)));
    }
    template <typename T> CT_HD static T dx(T x, T t) {
        const T e = std::exp(-std::fabs(x));  // sigmoid(x) without overflow for either sign
        return (x >= T(0) ? T(1) / (T(1) + e) : e / (T(1) + e)) - t;
    }
    template <typename T> CT_HD static T dt(T x, T) { return -x; }
};

}  // namespace math
}  // namespace ct

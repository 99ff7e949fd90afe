// nn_rows.h - vectorisable row kernels for softmax-like ops: a branch-free float exp, NaN-propagating max,
// and max / sum-of-exp over contiguous rows with independent partial accumulators (so the compiler can use
// SIMD without -ffast-math). Files that include this start with `#pragma GCC optimize("no-trapping-math")`
// so that the selects below compile to vector blends instead of branches.
#pragma once
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <limits>

namespace ct {

// exp(x), float: Cephes' degree-6 polynomial on x - n ln2 (max rel. error ~1e-7 against exp in double);
// exp(x) = 0 below -87 (the subnormal range is flushed), inf above 88, NaN stays NaN.
inline float exp_vec(float x) {
    float xc = (x < -87.0f || x != x) ? -87.0f : x;  // keep the integer conversion below defined
    xc = xc > 88.0f ? 88.0f : xc;
    const float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  // round to nearest integer
    const float r = (xc - n * 0.693359375f) - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float e = p * r * r + r + 1.0f;
    const int32_t bits = ((int32_t)n + 127) << 23;
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    float y = e * scale;
    y = x < -87.0f ? 0.0f : y;
    y = x > 88.0f ? std::numeric_limits<float>::infinity() : y;
    return x != x ? x : y;
}
inline double exp_vec(double x) { return std::exp(x); }

// max that propagates NaN (like PyTorch's max reductions).
template <typename T> inline T max_nan(T a, T v) { return (v > a || v != v) ? v : a; }

constexpr int kRowLanes = 16;

// Max of a contiguous row (NaN if any element is NaN; -inf for an empty row).
template <typename T> T row_max(const T* x, int64_t n) {
    T m[kRowLanes];
    for (int l = 0; l < kRowLanes; ++l) m[l] = -std::numeric_limits<T>::infinity();
    int64_t i = 0;
    for (; i + kRowLanes <= n; i += kRowLanes)
        for (int l = 0; l < kRowLanes; ++l) m[l] = max_nan(m[l], x[i + l]);
    T r = -std::numeric_limits<T>::infinity();
    for (int l = 0; l < kRowLanes; ++l) r = max_nan(r, m[l]);
    for (; i < n; ++i) r = max_nan(r, x[i]);
    return r;
}

// y[i] = exp(x[i] - shift) for a contiguous row (x and y may be the same). The float version is compiled
// for several instruction sets (AVX-512 / AVX2 / baseline, chosen at load time) and is the hot loop of
// softmax, log_softmax and cross_entropy.
void exp_shifted(const float* x, float* y, int64_t n, float shift);
void exp_shifted(const double* x, double* y, int64_t n, double shift);

// Sum of a[i] * b[i] (Product) or of a[i] over a contiguous row, with partial accumulators.
template <bool Product, typename T> double row_dot(const T* a, const T* b, int64_t n) {
    T s[kRowLanes] = {};
    int64_t i = 0;
    for (; i + kRowLanes <= n; i += kRowLanes)
        for (int l = 0; l < kRowLanes; ++l) s[l] += Product ? a[i + l] * b[i + l] : a[i + l];
    double r = 0;
    for (int l = 0; l < kRowLanes; ++l) r += (double)s[l];
    for (; i < n; ++i) r += Product ? (double)a[i] * b[i] : (double)a[i];
    return r;
}

// Sum of exp(x[i] - shift) over a contiguous row; also stores each exp in y when Store.
template <bool Store, typename T> double row_sum_exp(const T* x, int64_t n, T shift, T* y) {
    constexpr int64_t kChunk = 512;
    T buf[kChunk];
    double r = 0;
    for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = std::min(kChunk, n - i);
        T* dst = Store ? y + i : buf;
        exp_shifted(x + i, dst, m, shift);
        r += row_dot<false>(dst, dst, m);
    }
    return r;
}

}  // namespace ct

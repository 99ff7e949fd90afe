// vec_math.cpp - branch-free exp, sigmoid and tanh written as plain loops that GCC vectorises; each loop is
// cloned per instruction set (CT_CLONES). exp: x = n ln2 + r, e^r by a Taylor polynomial, 2^n by exponent bits.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")  // lets the NaN-aware selects below compile to vector blends
#endif
#include "cpu/vec_math.h"
#include <cmath>
#include <cstring>

namespace ct {
namespace vec {
namespace {

// 2^k for an integral k with 1 <= k + 127 <= 254, without a float->int conversion: adding 2^23 + 127
// puts k + 127 in the low mantissa bits, and shifting them by 23 moves them into the exponent field.
inline float pow2i(float k) {
    float t = k + 8388735.0f;  // 2^23 + 127 (exact: the sum is an integer below 2^24)
    uint32_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits <<= 23;  // the 2^23 bit and above shift out; (k + 127) fits the 8 exponent bits
    float r;
    std::memcpy(&r, &bits, sizeof r);
    return r;
}
inline double pow2i(double k) {  // same with 2^52 + 1023, for 1 <= k + 1023 <= 2046
    double t = k + 4503599627371519.0;
    uint64_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits <<= 52;
    double r;
    std::memcpy(&r, &bits, sizeof r);
    return r;
}

// Rounds to the nearest integer (ties to even) for |v| < 2^22 by adding and removing 1.5 * 2^23.
inline float round_int(float v) { return (v + 12582912.0f) - 12582912.0f; }
inline double round_int(double v) { return (v + 6755399441055744.0) - 6755399441055744.0; }

// p * 2^n for an integral n that may leave the normal range: two exact power-of-two factors, so that the
// only rounding is the last multiply (which also produces inf on overflow and subnormals/0 on underflow).
template <typename T> inline T scale2(T p, T n) {
    T n1 = round_int(n * T(0.5));
    return (p * pow2i(n1)) * pow2i(n - n1);
}

// e^x - 1 = 2^n (pm1 + 1) - 1: reduce() returns n and pm1 = e^r - 1 with r = x - n ln2 (|r| <= 0.347).
template <typename T> struct Reduced {
    T n, pm1;
};

// float: x is clamped to [-110, 100] (NaN -> -110) so that n stays small; clamped values still overflow to
// inf / underflow to 0 in scale2, so the clamp never changes a result.
inline Reduced<float> reduce(float x) {
    float xc = x > -110.0f ? x : -110.0f;
    xc = xc < 100.0f ? xc : 100.0f;
    const float n = round_int(xc * 1.44269504088896341f);
    // ln2 split in a 9-bit head (n * head is exact for |n| < 2^15) and a tail
    const float r = (xc - n * 0.693359375f) - n * -2.12194440054690583e-4f;
    // Taylor series of e^r - 1 to degree 7: truncation error 0.347^8 / 8! ~ 5e-9, below float's 6e-8 ulp
    float p = 1.98412698412698413e-4f;
    p = p * r + 1.38888888888888889e-3f;
    p = p * r + 8.33333333333333333e-3f;
    p = p * r + 4.16666666666666667e-2f;
    p = p * r + 1.66666666666666667e-1f;
    p = p * r + 0.5f;
    return {n, p * r * r + r};  // the small terms are summed before 1 is added, keeping their precision
}

// double: same scheme, x clamped to [-760, 720], Taylor degree 13 (error 0.347^14 / 14! ~ 4e-18).
inline Reduced<double> reduce(double x) {
    double xc = x > -760.0 ? x : -760.0;
    xc = xc < 720.0 ? xc : 720.0;
    const double n = round_int(xc * 1.4426950408889634074);
    // ln2 head has 32 significant bits, so n * head is exact for |n| < 2^21
    const double r = (xc - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
    double p = 1.6059043836821614599e-10;  // 1/13!
    p = p * r + 2.0876756987868098979e-09;  // 1/12!
    p = p * r + 2.5052108385441718775e-08;
    p = p * r + 2.7557319223985890653e-07;
    p = p * r + 2.7557319223985890653e-06;
    p = p * r + 2.4801587301587301587e-05;
    p = p * r + 1.9841269841269841270e-04;
    p = p * r + 1.3888888888888888889e-03;
    p = p * r + 8.3333333333333333333e-03;
    p = p * r + 4.1666666666666666667e-02;
    p = p * r + 1.6666666666666666667e-01;
    p = p * r + 0.5;
    return {n, p * r * r + r};
}

template <typename T> inline T exp_any(T x) {
    const Reduced<T> q = reduce(x);
    const T y = scale2(q.pm1 + T(1), q.n);
    return x != x ? x + x : y;
}

// e^x - 1 for x <= 0 (NaN is handled by the caller): 2^n pm1 + (2^n - 1), both terms exact-ish, so small
// |x| (n = 0) gives pm1 itself with full relative accuracy.
template <typename T> inline T expm1_nonpositive(T x) {
    const Reduced<T> q = reduce(x);
    return scale2(q.pm1, q.n) + (scale2(T(1), q.n) - T(1));
}

// sigmoid(x) = 1 / (1 + e^-x) for x >= 0 and e^x / (1 + e^x) below, both through e = e^-|x| (never overflows).
template <typename T> inline T sigmoid_any(T x) {
    const T ax = x < T(0) ? -x : x;  // NaN stays NaN and propagates through e
    const T e = exp_any(-ax);
    const T s = T(1) / (T(1) + e);
    return x < T(0) ? e * s : s;
}

// tanh(|x|) = -m / (2 + m) with m = e^(-2|x|) - 1 in (-1, 0]: no overflow, and small |x| keeps its
// relative accuracy through m; the sign is copied back (tanh(-0) = -0), NaN propagates.
template <typename T> inline T tanh_any(T x) {
    const T ax = std::fabs(x);
    const T m = expm1_nonpositive(T(-2) * ax);
    const T t = std::copysign(-m / (T(2) + m), x);
    return x != x ? x + x : t;
}

}  // namespace

CT_CLONES void exp(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = exp_any(x[i]);
}
CT_CLONES void exp(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = exp_any(x[i]);
}
CT_CLONES void tanh(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = tanh_any(x[i]);
}
CT_CLONES void tanh(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = tanh_any(x[i]);
}
CT_CLONES void sigmoid(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = sigmoid_any(x[i]);
}
CT_CLONES void sigmoid(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = sigmoid_any(x[i]);
}

}  // namespace vec
}  // namespace ct

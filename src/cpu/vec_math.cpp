// vec_math.cpp - branch-free exp, expm1, log, log1p, sigmoid, tanh, silu and softplus written as plain loops
// that GCC vectorises; each loop is cloned per instruction set (CT_CLONES). exp: x = n ln2 + r, e^r by a
// Taylor polynomial, 2^n by exponent bits. log: x = 2^e m, log m = 2 atanh((m - 1) / (m + 1)) by a series.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")  // lets the NaN-aware selects below compile to vector blends
#endif
#include "cpu/vec_math.h"
#include <cmath>
#include <cstring>
#include <limits>

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

// e^x - 1: for |n| <= 1 (|x| < 1.04) 2^n pm1 + (2^n - 1), where n = 0 (|x| < 0.347) gives pm1 itself and
// keeps small results exact; beyond, e^x - 1 loses nothing to the subtraction (and 2^n alone could overflow
// before e^x does).
template <typename T> inline T expm1_any(T x) {
    const Reduced<T> q = reduce(x);
    const T p2 = q.n > T(0) ? T(2) : (q.n < T(0) ? T(0.5) : T(1));
    const T near = p2 * q.pm1 + (p2 - T(1));
    const T far = exp_any(x) - T(1);
    const T y = (q.n >= T(-1) && q.n <= T(1)) ? near : far;
    return x != x ? x + x : y;
}

// Bit-level view of a float type: its unsigned integer, exponent bias, mantissa width and series degree.
template <typename T> struct FloatBits;
template <> struct FloatBits<float> {
    using U = uint32_t;
    static constexpr int mant = 23;
    static constexpr U bias = 127, exp_mask = 0xff;
    static constexpr float two_mant = 8388608.0f;  // 2^23: scales subnormals into the normal range
};
template <> struct FloatBits<double> {
    using U = uint64_t;
    static constexpr int mant = 52;
    static constexpr U bias = 1023, exp_mask = 0x7ff;
    static constexpr double two_mant = 4503599627370496.0;  // 2^52
};

// The unbiased exponent field e (as a T, without an int->float conversion) and the mantissa m in [1, 2).
template <typename T> inline void split_exponent(T x, T& e, T& m) {
    using B = FloatBits<T>;
    typename B::U bits, ebits;
    std::memcpy(&bits, &x, sizeof bits);
    const typename B::U efield = (bits >> B::mant) & B::exp_mask;
    // e as a float: the field placed in the low mantissa bits of 2^mant, minus 2^mant, minus the bias
    ebits = (typename B::U(B::bias + B::mant) << B::mant) | efield;
    std::memcpy(&e, &ebits, sizeof e);
    e = e - B::two_mant - T(B::bias);
    bits = (bits & ((typename B::U(1) << B::mant) - 1)) | (typename B::U(B::bias) << B::mant);
    std::memcpy(&m, &bits, sizeof m);
}

// 2 atanh(s) / s - 2 = 2 (s^2/3 + s^4/5 + ...) for |s| <= 0.1716 (s^2 <= 0.0295): float to s^8 (error
// 0.0295^5 / 11 ~ 2e-9), double to s^20 (0.0295^11 / 23 ~ 7e-19).
inline float atanh_tail(float z) {
    float p = 2.0f / 9;
    p = p * z + 2.0f / 7;
    p = p * z + 2.0f / 5;
    p = p * z + 2.0f / 3;
    return p * z;
}
inline double atanh_tail(double z) {
    double p = 2.0 / 21;
    p = p * z + 2.0 / 19;
    p = p * z + 2.0 / 17;
    p = p * z + 2.0 / 15;
    p = p * z + 2.0 / 13;
    p = p * z + 2.0 / 11;
    p = p * z + 2.0 / 9;
    p = p * z + 2.0 / 7;
    p = p * z + 2.0 / 5;
    p = p * z + 2.0 / 3;
    return p * z;
}

// log(x): x = 2^e m with m in [sqrt(1/2), sqrt 2), log m = 2s + s * tail(s^2), s = (m - 1) / (m + 1); the
// terms are added smallest first with ln 2 split in a head (exact times e) and a tail. Specials: x < 0 or
// NaN -> NaN, 0 -> -inf, inf -> inf; subnormals are scaled into the normal range first.
template <typename T> inline T log_any(T x) {
    using B = FloatBits<T>;
    const bool tiny = x < std::numeric_limits<T>::min();
    const T xs = tiny ? x * B::two_mant : x;
    T e, m;
    split_exponent(xs, e, m);
    e = tiny ? e - T(B::mant) : e;
    const bool high = m > T(1.41421356237309504880);
    m = high ? m * T(0.5) : m;
    e = high ? e + T(1) : e;
    const T f = m - T(1), s = f / (m + T(1)), z = s * s;
    const T ln2_hi = sizeof(T) == 4 ? T(0.693359375) : T(6.93147180369123816490e-01);
    const T ln2_lo = sizeof(T) == 4 ? T(-2.12194440e-4) : T(1.90821492927058770002e-10);
    // 2s = f - s f exactly in real arithmetic; writing log m = f - s (f - tail) keeps f's full precision
    const T r = e * ln2_hi + (f - (s * (f - atanh_tail(z)) - e * ln2_lo));
    const T inf = std::numeric_limits<T>::infinity();
    T y = x == T(0) ? -inf : r;
    y = x == inf ? inf : y;
    return x < T(0) || x != x ? std::numeric_limits<T>::quiet_NaN() : y;
}

// log(1 + x) = log(u) * x / (u - 1) with u = 1 + x rounded (Goldberg), exact for u == 1 (tiny x).
template <typename T> inline T log1p_any(T x) {
    const T u = T(1) + x, d = u - T(1);
    const T l = log_any(u);
    const T y = d == T(0) ? x : l * (x / d);
    const T inf = std::numeric_limits<T>::infinity();
    return x == inf ? inf : (x != x ? x + x : y);  // log_any covers x < -1 (NaN) and x == -1 (-inf)
}

// softplus(x) = log(1 + e^x), x itself above 20 (PyTorch's threshold for beta = 1).
template <typename T> inline T softplus_any(T x) {
    const T y = log1p_any(exp_any(x > T(20) ? T(0) : x));
    return x > T(20) ? x : y;
}

}  // namespace

CT_CLONES void expm1(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = expm1_any(x[i]);
}
CT_CLONES void expm1(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = expm1_any(x[i]);
}
CT_CLONES void log(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = log_any(x[i]);
}
CT_CLONES void log(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = log_any(x[i]);
}
CT_CLONES void log1p(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = log1p_any(x[i]);
}
CT_CLONES void log1p(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = log1p_any(x[i]);
}
CT_CLONES void silu(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] * sigmoid_any(x[i]);
}
CT_CLONES void silu(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] * sigmoid_any(x[i]);
}
CT_CLONES void softplus(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = softplus_any(x[i]);
}
CT_CLONES void softplus(const double* x, double* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = softplus_any(x[i]);
}

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

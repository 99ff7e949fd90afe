// special_math.h - scalar special functions the C library lacks (erfinv, digamma, polygamma, the modified
// Bessel functions i0 and i1) as __host__ __device__ double functions, written from their series and
// asymptotic expansions. The functors of scalar_math.h call them (float computes in double, then rounds).
// Conventions follow torch 1.13: digamma(+-0) = -+inf, digamma of a negative integer is NaN, polygamma(n >= 1)
// at a non-positive integer is +inf, erfinv(+-1) = +-inf and NaN outside [-1, 1].
#pragma once
#include <cmath>

#if defined(__CUDACC__)
#define CT_SPECIAL_HD __host__ __device__
#else
#define CT_SPECIAL_HD
#endif

namespace ct {
namespace special {

constexpr double kPi = 3.14159265358979323846;

// Inverse error function: an initial guess (Winitzki's closed form, ~2e-3 relative) refined by Newton steps
// on erf (|y| < 0.5) or on erfc against the exact 1 - |y| (|y| >= 0.5, where erf saturates).
CT_SPECIAL_HD inline double erfinv(double y) {
    if (y != y || y < -1.0 || y > 1.0) return NAN;
    if (y == 1.0) return INFINITY;
    if (y == -1.0) return -INFINITY;
    if (y == 0.0) return y;  // keeps the sign of zero
    const double a = 0.147, s = y < 0 ? -1.0 : 1.0, ay = std::fabs(y);
    double l = std::log1p(-ay * ay);
    double t = 2.0 / (kPi * a) + 0.5 * l;
    double x = std::sqrt(std::sqrt(t * t - l / a) - t);
    const double k = 2.0 / std::sqrt(kPi);
    for (int i = 0; i < 4; ++i) {
        double f = ay < 0.5 ? std::erf(x) - ay : (1.0 - ay) - std::erfc(x);  // both increase with x
        double d = k * std::exp(-x * x);
        if (d == 0.0) break;
        double step = f / d;
        x -= step / (1.0 + x * step);  // Halley: f'' / f' = -2x
    }
    return s * x;
}

// psi(x) = d/dx log gamma(x): reflection for x < 0, recurrence up to x >= 10, then the asymptotic series.
CT_SPECIAL_HD inline double digamma(double x) {
    if (x != x) return x;
    if (x == 0.0) return std::signbit(x) ? INFINITY : -INFINITY;
    if (x == INFINITY) return x;
    double r = 0.0;
    if (x < 0.0) {
        if (x == std::floor(x)) return NAN;
        // psi(x) = psi(1 - x) - pi / tan(pi x); tan through the fractional part keeps precision
        double frac = x - std::floor(x);
        r = -kPi / std::tan(kPi * frac);
        x = 1.0 - x;
    }
    while (x < 10.0) {
        r -= 1.0 / x;
        x += 1.0;
    }
    double z = 1.0 / (x * x);
    // Bernoulli terms B_2k / (2k x^2k), k = 1..6
    double tail = z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760))))));
    return r + std::log(x) - 0.5 / x - tail;
}

// Hurwitz zeta(s, q) = sum_k (q + k)^-s for an integer s >= 2: the first terms summed up to q + N >= 12, the
// rest by Euler-Maclaurin (B_2j terms). q a non-positive integer: +inf.
CT_SPECIAL_HD inline double hurwitz_zeta_int(int s, double q) {
    if (q != q) return q;
    if (q <= 0.0 && q == std::floor(q)) return INFINITY;
    if (q == INFINITY) return 0.0;
    if (q < -1e6) return NAN;  // the direct sum would need -q terms (polygamma reflects n = 1 before this)
    double sum = 0.0;
    while (q < 12.0) {
        sum += std::pow(q, -(double)s);
        q += 1.0;
    }
    // tail: q^(1-s) / (s-1) + q^-s / 2 + sum_j B_2j / (2j)! s (s+1) ... (s+2j-2) q^(-s-2j+1)
    static constexpr double kB2jOverFact[] = {1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160,
                                              -691.0 / 1307674368000.0, 1.0 / 74724249600.0};
    double qs = std::pow(q, -(double)s);
    sum += q * qs / (s - 1) + 0.5 * qs;
    double rising = s, qpow = qs / q;  // s (s+1)...(s+2j-2), q^(-s-2j+1)
    for (int j = 0; j < 7; ++j) {
        sum += kB2jOverFact[j] * rising * qpow;
        rising *= (double)(s + 2 * j + 1) * (double)(s + 2 * j + 2);
        qpow /= q * q;
    }
    return sum;
}

// polygamma(n, x) = d^n/dx^n psi(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1; digamma for n = 0. Trigamma of a
// negative non-integer x reflects: psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x) (sin^2 through the fractional part);
// n >= 2 below -1e6 gives NaN (no reflection written for it; the direct sum would take -x terms).
CT_SPECIAL_HD inline double polygamma(int n, double x) {
    if (n == 0) return digamma(x);
    double reflected = 0.0, sign = 1.0;
    if (n == 1 && x < 0.0 && x != std::floor(x)) {
        double s = std::sin(kPi * (x - std::floor(x)));
        reflected = kPi * kPi / (s * s);
        sign = -1.0;
        x = 1.0 - x;
    }
    double fact = 1.0;
    for (int i = 2; i <= n; ++i) fact *= i;
    return reflected + sign * ((n % 2) ? fact : -fact) * hurwitz_zeta_int(n + 1, x);
}

// The modified Bessel function I_nu(x) of the first kind for nu = 0 or 1: the power series
// sum_k (x/2)^(2k+nu) / (k! (k+nu)!) for |x| <= 30, else the asymptotic expansion
// e^|x| / sqrt(2 pi |x|) sum_k (-1)^k prod_j (4 nu^2 - (2j-1)^2) / (k! (8|x|)^k). I_0 is even, I_1 odd.
CT_SPECIAL_HD inline double bessel_i(int nu, double x) {
    if (x != x) return x;
    double ax = std::fabs(x), r;
    if (ax <= 30.0) {
        double h = 0.5 * ax, h2 = h * h;
        double term = nu ? h : 1.0;
        r = term;
        for (int k = 1; k < 200; ++k) {
            term *= h2 / ((double)k * (double)(k + nu));
            r += term;
            if (term <= r * 1e-17) break;
        }
    } else if (ax == INFINITY) {
        r = INFINITY;
    } else {
        double mu = 4.0 * nu * nu, term = 1.0, s = 1.0;
        for (int k = 1; k < 30; ++k) {
            double odd = 2.0 * k - 1.0;
            term *= -(mu - odd * odd) / (k * 8.0 * ax);
            s += term;
            if (std::fabs(term) <= 1e-17 * std::fabs(s)) break;
        }
        // e^ax split in two factors so that the prefactor does not overflow before the product does
        double e = std::exp(0.5 * ax);
        r = e * (s / std::sqrt(2.0 * kPi * ax)) * e;
    }
    return (nu == 1 && x < 0) ? -r : r;
}

}  // namespace special
}  // namespace ct

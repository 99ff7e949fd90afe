// scalar_math.h - the scalar math of elementwise ops as __host__ __device__ functors, shared by the CPU
// kernels and the CUDA backend so that the math itself is tested on the CPU.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include "core/complex_traits.h"
#include "core/half.h"
#include "core/special_math.h"

#if defined(__CUDACC__)
#define CT_HD __host__ __device__
#else
#define CT_HD
#endif

namespace ct {
namespace math {

// Note [Integer wrap]: integer tensors wrap around in two's complement on overflow, as in NumPy and PyTorch, never
// undefined behaviour: +, -, * of integers run in an unsigned type of at least int's width (where wrapping is
// defined, and small types are not promoted to signed int) and convert back. Floats and bool are unchanged.
template <typename T> struct Wrapping {
    static constexpr bool value = std::is_integral<T>::value && !std::is_same<T, bool>::value;
};
template <typename T> using WrapUnsigned = decltype(std::make_unsigned_t<T>() + 0u);
template <typename T> CT_HD T wrap_add(T a, T b) {
    if constexpr (Wrapping<T>::value) return (T)(WrapUnsigned<T>)((WrapUnsigned<T>)a + (WrapUnsigned<T>)b);
    else return (T)(a + b);
}
template <typename T> CT_HD T wrap_sub(T a, T b) {
    if constexpr (Wrapping<T>::value) return (T)(WrapUnsigned<T>)((WrapUnsigned<T>)a - (WrapUnsigned<T>)b);
    else return (T)(a - b);
}
template <typename T> CT_HD T wrap_mul(T a, T b) {
    if constexpr (Wrapping<T>::value) return (T)(WrapUnsigned<T>)((WrapUnsigned<T>)a * (WrapUnsigned<T>)b);
    else return (T)(a * b);
}

template <typename T> struct Add {
    T alpha;
    CT_HD T operator()(T a, T b) const { return wrap_add(a, wrap_mul(alpha, b)); }
};
template <typename T> struct Sub {
    T alpha;
    CT_HD T operator()(T a, T b) const { return wrap_sub(a, wrap_mul(alpha, b)); }
};
struct Mul { template <typename T> CT_HD T operator()(T a, T b) const { return wrap_mul(a, b); } };
struct Div { template <typename T> CT_HD T operator()(T a, T b) const { return a / b; } };

struct Pow {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            return std::pow(a, b);
        } else if constexpr (std::is_same<T, bool>::value) {
            return b ? a : true;  // x ** False == 1, x ** True == x
        } else {
            // integer power by squaring; negative exponents give 0 except for bases 1 and -1
            if constexpr (std::is_signed<T>::value) {
                if (b < 0) return a == 1 ? T(1) : (a == T(-1) ? ((b % 2) ? T(-1) : T(1)) : T(0));
            }
            T r = 1, base = a;
            auto e = b;
            while (e) {
                if (e & 1) r = wrap_mul(r, base);
                base = wrap_mul(base, base);
                e >>= 1;
            }
            return r;
        }
    }
};

struct Maximum {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (a != a) return a;
            if (b != b) return b;
        }
        return a > b ? a : b;
    }
};
struct Minimum {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (a != a) return a;
            if (b != b) return b;
        }
        return a < b ? a : b;
    }
};
struct Atan2 { template <typename T> CT_HD T operator()(T a, T b) const { return std::atan2(a, b); } };

// Python-style modulo: the result has the sign of the divisor. Integer b must be nonzero (checked by the op).
struct Remainder {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            T r = std::fmod(a, b);
            if (r != 0 && ((r < 0) != (b < 0))) r += b;
            return r;
        } else if constexpr (std::is_same<T, bool>::value) {
            return false;
        } else if constexpr (std::is_unsigned<T>::value) {
            return a % b;
        } else {
            if (b == T(-1)) return T(0);  // INT_MIN % -1 traps on x86; every x % -1 is 0
            T r = a % b;
            if (r != 0 && ((r < 0) != (b < 0))) r += b;
            return r;
        }
    }
};

// Python's // : floor(a / b). Integers exactly, INT_MIN // -1 wraps to INT_MIN (Note [Integer wrap]); integer b
// must be nonzero (checked by the op). Floats as PyTorch's div_floor: (a - fmod(a, b)) / b rounded to the nearest
// integer below, the sign of a zero quotient kept, IEEE results for b = 0.
struct FloorDivide {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (b == T(0)) return a / b;
            T mod = std::fmod(a, b);
            T div = (a - mod) / b;
            if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
            if (div == T(0)) return std::copysign(T(0), a / b);
            T floordiv = std::floor(div);
            return div - floordiv > T(0.5) ? floordiv + T(1) : floordiv;
        } else if constexpr (std::is_same<T, bool>::value) {
            return a;  // b is true
        } else if constexpr (std::is_unsigned<T>::value) {
            return (T)(a / b);
        } else {
            if (b == T(-1)) return wrap_sub(T(0), a);
            T q = (T)(a / b);
            return (a % b != 0 && ((a < 0) != (b < 0))) ? (T)(q - 1) : q;
        }
    }
};

struct Eq { template <typename T> CT_HD bool operator()(T a, T b) const { return a == b; } };
struct Ne { template <typename T> CT_HD bool operator()(T a, T b) const { return a != b; } };
struct Lt { template <typename T> CT_HD bool operator()(T a, T b) const { return a < b; } };
struct Le { template <typename T> CT_HD bool operator()(T a, T b) const { return a <= b; } };
struct Gt { template <typename T> CT_HD bool operator()(T a, T b) const { return a > b; } };
struct Ge { template <typename T> CT_HD bool operator()(T a, T b) const { return a >= b; } };
struct LogicalAnd { template <typename T> CT_HD bool operator()(T a, T b) const { return static_cast<bool>(a) && static_cast<bool>(b); } };
struct LogicalOr { template <typename T> CT_HD bool operator()(T a, T b) const { return static_cast<bool>(a) || static_cast<bool>(b); } };
struct LogicalXor { template <typename T> CT_HD bool operator()(T a, T b) const { return static_cast<bool>(a) != static_cast<bool>(b); } };


// ---- unary functors ----------------------------------------------------------------------------
// Integer-keeping ops (Neg, Abs, Sign) take any arithmetic T; the float ops are called with float/double.

struct Neg {
    template <typename T> CT_HD T operator()(T v) const {
        if constexpr (Wrapping<T>::value) return wrap_sub(T(0), v);  // -INT_MIN wraps (Note [Integer wrap])
        else return (T)-v;                                           // -0.0 for 0.0
    }
};
struct Abs {
    template <typename T> CT_HD T operator()(T v) const {
        if constexpr (std::is_floating_point<T>::value) return std::fabs(v);
        else if constexpr (std::is_unsigned<T>::value || std::is_same<T, bool>::value) return v;
        else return v < 0 ? wrap_sub(T(0), v) : v;  // abs(INT_MIN) wraps to INT_MIN (Note [Integer wrap])
    }
};
// -1, 0 or 1; NaN stays NaN (NumPy's rule; PyTorch returns 0 for NaN).
struct Sign {
    template <typename T> CT_HD T operator()(T v) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (v != v) return v;
        }
        if constexpr (std::is_same<T, bool>::value) return v;
        else if constexpr (std::is_unsigned<T>::value) return (T)(v != 0);
        else return (T)((T(0) < v) - (v < T(0)));
    }
};
struct Exp { template <typename T> CT_HD T operator()(T v) const { return std::exp(v); } };
struct Log { template <typename T> CT_HD T operator()(T v) const { return std::log(v); } };
struct Log1p { template <typename T> CT_HD T operator()(T v) const { return std::log1p(v); } };
struct Expm1 { template <typename T> CT_HD T operator()(T v) const { return std::expm1(v); } };
struct Sqrt { template <typename T> CT_HD T operator()(T v) const { return std::sqrt(v); } };
struct Rsqrt { template <typename T> CT_HD T operator()(T v) const { return T(1) / std::sqrt(v); } };
struct Sin { template <typename T> CT_HD T operator()(T v) const { return std::sin(v); } };
struct Cos { template <typename T> CT_HD T operator()(T v) const { return std::cos(v); } };
struct Tan { template <typename T> CT_HD T operator()(T v) const { return std::tan(v); } };
struct Tanh { template <typename T> CT_HD T operator()(T v) const { return std::tanh(v); } };
struct Reciprocal { template <typename T> CT_HD T operator()(T v) const { return T(1) / v; } };
struct Floor { template <typename T> CT_HD T operator()(T v) const { return std::floor(v); } };
struct Ceil { template <typename T> CT_HD T operator()(T v) const { return std::ceil(v); } };
// Half to even under the default rounding mode (like PyTorch and NumPy).
struct Round { template <typename T> CT_HD T operator()(T v) const { return std::nearbyint(v); } };
struct LogicalNot { template <typename T> CT_HD bool operator()(T v) const { return !static_cast<bool>(v); } };

// max(v, 0); NaN stays NaN.
struct Relu {
    template <typename T> CT_HD T operator()(T v) const {
        if constexpr (std::is_unsigned<T>::value || std::is_same<T, bool>::value) return v;
        else return v < T(0) ? T(0) : v;
    }
};
// 1 / (1 + e^-v) without overflow for large |v|.
struct Sigmoid {
    template <typename T> CT_HD T operator()(T v) const {
        if (v >= T(0)) return T(1) / (T(1) + std::exp(-v));
        T e = std::exp(v);
        return e / (T(1) + e);
    }
};
// v * sigmoid(v).
struct Silu { template <typename T> CT_HD T operator()(T v) const { return v * Sigmoid{}(v); } };
// log(1 + e^v); returns v above the threshold 20 (PyTorch's default softplus, beta = 1).
struct Softplus {
    template <typename T> CT_HD T operator()(T v) const { return v > T(20) ? v : std::log1p(std::exp(v)); }
};
// v * Phi(v) with the exact normal CDF Phi(v) = (1 + erf(v / sqrt 2)) / 2.
struct Gelu {
    template <typename T> CT_HD T operator()(T v) const {
        return v * T(0.5) * (T(1) + std::erf(v * T(0.70710678118654752440)));
    }
};
// d gelu / dv = Phi(v) + v * phi(v), phi the normal density.
struct GeluGrad {
    template <typename T> CT_HD T operator()(T v) const {
        T cdf = T(0.5) * (T(1) + std::erf(v * T(0.70710678118654752440)));
        T pdf = T(0.39894228040143267794) * std::exp(T(-0.5) * v * v);
        return cdf + v * pdf;
    }
};

// ---- unary math (issue 14): inverse and hyperbolic trigonometry, special functions ----
// Float T computes the special functions in double and rounds once (special_math.h).
struct Asin { template <typename T> CT_HD T operator()(T v) const { return std::asin(v); } };
struct Acos { template <typename T> CT_HD T operator()(T v) const { return std::acos(v); } };
struct Atan { template <typename T> CT_HD T operator()(T v) const { return std::atan(v); } };
struct Sinh { template <typename T> CT_HD T operator()(T v) const { return std::sinh(v); } };
struct Cosh { template <typename T> CT_HD T operator()(T v) const { return std::cosh(v); } };
struct Asinh { template <typename T> CT_HD T operator()(T v) const { return std::asinh(v); } };
struct Acosh { template <typename T> CT_HD T operator()(T v) const { return std::acosh(v); } };
struct Atanh { template <typename T> CT_HD T operator()(T v) const { return std::atanh(v); } };
struct Erf { template <typename T> CT_HD T operator()(T v) const { return std::erf(v); } };
struct Erfc { template <typename T> CT_HD T operator()(T v) const { return std::erfc(v); } };
struct Erfinv { template <typename T> CT_HD T operator()(T v) const { return (T)special::erfinv((double)v); } };
struct Lgamma { template <typename T> CT_HD T operator()(T v) const { return std::lgamma(v); } };
struct Digamma { template <typename T> CT_HD T operator()(T v) const { return (T)special::digamma((double)v); } };
// polygamma(n, v), n >= 0 (digamma's derivatives; internal: digamma's backward).
struct Polygamma {
    int n;
    template <typename T> CT_HD T operator()(T v) const { return (T)special::polygamma(n, (double)v); }
};
// The modified Bessel functions of the first kind, orders 0 and 1 (i1: i0's backward).
struct I0 { template <typename T> CT_HD T operator()(T v) const { return (T)special::bessel_i(0, (double)v); } };
struct I1 { template <typename T> CT_HD T operator()(T v) const { return (T)special::bessel_i(1, (double)v); } };
// sin(pi v) / (pi v), 1 at 0 (also for std::complex T).
struct Sinc {
    template <typename T> CT_HD T operator()(T v) const {
        if (v == T(0)) return T(1);
        T p = v * T(special::kPi);
        return std::sin(p) / p;
    }
};
// log(v / (1 - v)) after clamping v to [eps, 1 - eps]; eps < 0 means no clamp (torch's eps=None).
template <typename T> struct Logit {
    T eps;
    CT_HD T operator()(T v) const {
        if (eps >= T(0)) v = v < eps ? eps : (v > T(1) - eps ? T(1) - eps : v);  // NaN stays NaN
        return std::log(v / (T(1) - v));
    }
};
// The sign bit (true for -0.0 and negative NaN); integers: v < 0.
struct Signbit {
    template <typename T> CT_HD bool operator()(T v) const {
        if constexpr (std::is_floating_point<T>::value) return std::signbit(v);
        else if constexpr (std::is_unsigned<T>::value || std::is_same<T, bool>::value) return false;
        else return v < T(0);
    }
};

// v ** e for a floating v, with exact fast paths for the common exponents.
template <typename T> struct PowScalar {
    T e;
    CT_HD T operator()(T v) const {
        if (e == T(2)) return v * v;
        if (e == T(1)) return v;
        if (e == T(0)) return T(1);
        if (e == T(0.5)) return std::sqrt(v);
        if (e == T(-1)) return T(1) / v;
        if (e == T(3)) return v * v * v;
        return std::pow(v, e);
    }
};

// Note [Float to integer]: a floating value converted to an integer dtype truncates toward zero, saturates at
// the dtype's range and gives 0 for NaN (as CUDA's conversions do), never the undefined behaviour of a C++ cast
// of an out-of-range value; to bool it is (v != 0). Other conversions are plain casts. Every dtype conversion
// (copies, fills, scalars, clamp bounds) goes through convert, on the CPU and on the device.
// Half and BFloat16 convert through float (a double rounds to float first, as torch's c10::Half(double)).
// Complex (Note [Complex dtypes]): to real takes the real part, to bool is (v != 0), from real has imag 0.
template <typename R, typename T> CT_HD R convert(T v) {
    if constexpr (IsComplexType<T>::value && IsComplexType<R>::value) {
        using P = typename R::value_type;
        return R(static_cast<P>(v.real()), static_cast<P>(v.imag()));
    } else if constexpr (IsComplexType<T>::value) {
        if constexpr (std::is_same<R, bool>::value) return v.real() != 0 || v.imag() != 0;
        else return convert<R>(v.real());
    } else if constexpr (IsComplexType<R>::value) {
        return R(convert<typename R::value_type>(v), typename R::value_type(0));
    } else if constexpr (IsHalfType<T>::value) {
        return convert<R>(static_cast<float>(v));
    } else if constexpr (IsHalfType<R>::value) {
        if constexpr (std::is_same<T, bool>::value) return R(v ? 1.0f : 0.0f);
        else return R(static_cast<float>(v));
    } else if constexpr (std::is_floating_point<T>::value && std::is_integral<R>::value && !std::is_same<R, bool>::value) {
        using U = std::make_unsigned_t<R>;
        constexpr R hi = std::is_signed<R>::value ? R(U(U(~U(0)) >> 1)) : R(U(~U(0)));
        constexpr R lo = std::is_signed<R>::value ? R(-hi - 1) : R(0);
        if (v != v) return R(0);
        if (v <= static_cast<T>(lo)) return lo;
        if (v >= static_cast<T>(hi)) return hi;  // hi rounds up to a power of two in T: v >= it does not fit
        return static_cast<R>(v);
    } else {
        return static_cast<R>(v);
    }
}

// Clamps to [lo, hi] (hi wins when lo > hi, as PyTorch). Floats: NaN input or NaN bound gives NaN.
// Integers: bounds are saturated to T's range by the caller, so the comparison is exact.
template <typename T> struct Clamp {
    T lo, hi;
    CT_HD T operator()(T v) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (v != v || lo != lo || hi != hi) return v + lo + hi;  // NaN
        }
        if (v < lo) v = lo;
        if (v > hi) v = hi;
        return v;
    }
};


// ---- binary math (issue 14) -------------------------------------------------------------------------------
// The float-only ones (LogAddExp .. NextAfter) run with float/double (half dtypes compute in float); their ops
// refuse other dtypes, which only compile (returning a). Fmax, Fmin and Heaviside take any arithmetic T. Formulas
// as torch 1.13's CPU kernels.

// log(e^a + e^b) = max + log1p(e^-|a - b|); equal infinities give themselves (-inf, -inf -> -inf), NaN stays NaN.
struct LogAddExp {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (a == b && (a - a) != (a - a)) return a;  // a == b == +-inf
            T m = a < b ? b : a;
            return m + std::log1p(std::exp(-std::fabs(a - b)));
        } else {
            return a;
        }
    }
};
// log2(2^a + 2^b), as LogAddExp in base 2.
struct LogAddExp2 {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (a == b && (a - a) != (a - a)) return a;
            T m = a < b ? b : a;
            return m + std::log1p(std::exp2(-std::fabs(a - b))) * T(1.44269504088896340736);
        } else {
            return a;
        }
    }
};
struct Hypot {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) return std::hypot(a, b);
        else return a;
    }
};
// a * log(b), 0 where a == 0 (also for b == 0 or inf), NaN where b is NaN.
struct Xlogy {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            if (b != b) return b;
            if (a == T(0)) return T(0);
            return a * std::log(b);
        } else {
            return a;
        }
    }
};
struct CopySign {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) return std::copysign(a, b);
        else return a;
    }
};
// The larger / smaller of a and b, ignoring a NaN (NaN only when both are NaN), unlike Maximum / Minimum.
struct Fmax {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) return std::fmax(a, b);
        else return a < b ? b : a;
    }
};
struct Fmin {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) return std::fmin(a, b);
        else return b < a ? b : a;
    }
};
// 0 where a < 0, b where a == 0, 1 where a > 0 (NaN a gives 0, as torch).
struct Heaviside {
    template <typename T> CT_HD T operator()(T a, T b) const { return a == T(0) ? b : (T)(T(0) < a); }
};
// The next representable value after a in the direction of b.
struct NextAfter {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) return std::nextafter(a, b);
        else return a;
    }
};

// Integer ops (issue 14): the ops refuse other dtypes, so a non-integer T only compiles, it never runs (it returns a).
struct BitwiseAnd {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_integral<T>::value) return (T)(a & b);
        else return a;
    }
};
struct BitwiseOr {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_integral<T>::value) return (T)(a | b);
        else return a;
    }
};
struct BitwiseXor {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_integral<T>::value) return (T)(a ^ b);
        else return a;
    }
};
// Note [Shift counts]: a << b and a >> b are defined for every count (C++ leaves counts outside [0, width)
// undefined and torch 1.13's results for them depend on the CPU's vector width): a count below 0 or at least the
// bit width of T shifts every bit out, giving 0 for <<, and for >> the sign fill (-1 for negative a, else 0), as
// torch 2's kernels. Left shifts wrap (Note [Integer wrap]).
struct LeftShift {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (Wrapping<T>::value) {
            if constexpr (std::is_signed<T>::value) {
                if (b < 0) return T(0);
            }
            if (b >= T(sizeof(T) * 8 - 1) + T(1)) return T(0);
            return (T)((WrapUnsigned<T>)(std::make_unsigned_t<T>)a << b);
        } else {
            return a;
        }
    }
};
struct RightShift {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (Wrapping<T>::value) {
            constexpr int width = (int)sizeof(T) * 8;
            bool out = b >= T(width - 1) + T(1);
            if constexpr (std::is_signed<T>::value) {
                if (out || b < 0) return (T)(a >> (width - 1));
            } else if (out) {
                return T(0);
            }
            return (T)(a >> b);
        } else {
            return a;
        }
    }
};
// |v| as the unsigned type of T (|INT_MIN| = 2^(w-1) is exact there).
template <typename T> CT_HD std::make_unsigned_t<T> unsigned_abs(T v) {
    using U = std::make_unsigned_t<T>;
    if constexpr (std::is_signed<T>::value) return v < 0 ? (U)(U(0) - (U)v) : (U)v;
    else return v;
}
// The greatest common divisor, Euclid's algorithm on the magnitudes; gcd(0, 0) = 0. The result is >= 0 except
// gcd(INT_MIN, 0) and gcd(INT_MIN, INT_MIN), whose 2^(w-1) wraps to INT_MIN (as torch).
struct Gcd {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (Wrapping<T>::value) {
            auto x = unsigned_abs(a), y = unsigned_abs(b);
            while (x != 0) {
                auto c = x;
                x = (decltype(x))(y % x);
                y = c;
            }
            return (T)y;
        } else {
            return a;
        }
    }
};
// The least common multiple |a / gcd(a, b) * b|, 0 when gcd is 0. As torch: types narrower than int compute in int
// and take the magnitude before narrowing; int32/int64 wrap on overflow (Note [Integer wrap]), then the magnitude.
struct Lcm {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (Wrapping<T>::value) {
            T g = Gcd{}(a, b);
            if (g == T(0)) return T(0);
            if constexpr (sizeof(T) < sizeof(int)) {
                int r = (int)a / (int)g * (int)b;
                return (T)(r < 0 ? -r : r);
            } else {
                T r = wrap_mul((T)(a / g), b);
                return r < T(0) ? wrap_sub(T(0), r) : r;
            }
        } else {
            return a;
        }
    }
};

}  // namespace math
}  // namespace ct

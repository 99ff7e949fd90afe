// scalar_math.h - the scalar math of elementwise ops as __host__ __device__ functors, shared by the CPU
// kernels and the CUDA backend so that the math itself is tested on the CPU.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define CT_HD __host__ __device__
#else
#define CT_HD
#endif

namespace ct {
namespace math {

template <typename T> struct Add {
    T alpha;
    CT_HD T operator()(T a, T b) const { return (T)(a + alpha * b); }
};
template <typename T> struct Sub {
    T alpha;
    CT_HD T operator()(T a, T b) const { return (T)(a - alpha * b); }
};
struct Mul { template <typename T> CT_HD T operator()(T a, T b) const { return (T)(a * b); } };
struct Div { template <typename T> CT_HD T operator()(T a, T b) const { return a / b; } };

struct Pow {
    template <typename T> CT_HD T operator()(T a, T b) const {
        if constexpr (std::is_floating_point<T>::value) {
            return std::pow(a, b);
        } else {
            // integer power by squaring; negative exponents give 0 except for bases 1 and -1
            if (b < 0) return a == 1 ? T(1) : (a == T(-1) ? ((b % 2) ? T(-1) : T(1)) : T(0));
            T r = 1, base = a;
            auto e = b;
            while (e) {
                if (e & 1) r = (T)(r * base);
                base = (T)(base * base);
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
        } else {
            T r = a % b;
            if (r != 0 && ((r < 0) != (b < 0))) r += b;
            return r;
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

}  // namespace math
}  // namespace ct

// vec_math.h - vectorised transcendental kernels over contiguous arrays (exp, expm1, log, log1p, sigmoid, tanh,
// silu, softplus) for the unary ops' contiguous fast path, and CT_CLONES, the per-instruction-set cloning attribute shared by the CPU kernels.
#pragma once
#include <cstdint>

// Compiles a function for AVX-512, AVX2 and the baseline; the loader picks the widest the CPU supports.
// CT_NO_TARGET_CLONES (the ThreadSanitizer build) keeps the baseline only: ifunc resolvers run before TSan.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__) && \
    !defined(CT_NO_TARGET_CLONES)
#define CT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CT_CLONES
#endif

namespace ct {
namespace math {
struct Exp;
struct Sigmoid;
struct Tanh;
struct Expm1;
struct Log;
struct Log1p;
struct Silu;
struct Softplus;
}  // namespace math

namespace vec {

// y[i] = exp(x[i]); matches std::exp on specials (inf above the overflow threshold, 0 below the
// underflow one, subnormal results in between, NaN stays NaN). float: within 2 ulp of std::exp;
// double: within 1e-15 relative. x and y may be the same array.
void exp(const float* x, float* y, int64_t n);
void exp(const double* x, double* y, int64_t n);
// y[i] = 1 / (1 + exp(-x[i])), computed as e / (1 + e) with e = exp(-|x|) on the negative side so
// that tiny results keep their relative accuracy.
void sigmoid(const float* x, float* y, int64_t n);
void sigmoid(const double* x, double* y, int64_t n);
// y[i] = tanh(x[i]) = -m / (2 + m), m = e^(-2|x|) - 1, with x's sign (float within 3 ulp, double 2e-15).
void tanh(const float* x, float* y, int64_t n);
void tanh(const double* x, double* y, int64_t n);

// y[i] = exp(x[i]) - 1, accurate near 0 (float within 2 ulp, double 2e-15 relative).
void expm1(const float* x, float* y, int64_t n);
void expm1(const double* x, double* y, int64_t n);
// y[i] = log(x[i]) (NaN below 0, -inf at 0, subnormals handled; float within 2 ulp, double 2e-16 + ulp).
void log(const float* x, float* y, int64_t n);
void log(const double* x, double* y, int64_t n);
// y[i] = log(1 + x[i]), accurate for tiny x.
void log1p(const float* x, float* y, int64_t n);
void log1p(const double* x, double* y, int64_t n);
// y[i] = x[i] * sigmoid(x[i]).
void silu(const float* x, float* y, int64_t n);
void silu(const double* x, double* y, int64_t n);
// y[i] = log(1 + exp(x[i])), x[i] itself above 20 (PyTorch's softplus with beta = 1, threshold 20).
void softplus(const float* x, float* y, int64_t n);
void softplus(const double* x, double* y, int64_t n);

// ArrayKernel<F, T>::run(x, y, n) is the array version of the scalar functor F for element type T,
// when there is one (available == true).
template <typename F, typename T> struct ArrayKernel { static constexpr bool available = false; };
template <typename T> struct ArrayKernel<math::Exp, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::exp(x, y, n); }
};
template <typename T> struct ArrayKernel<math::Sigmoid, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::sigmoid(x, y, n); }
};
template <typename T> struct ArrayKernel<math::Tanh, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::tanh(x, y, n); }
};

template <typename T> struct ArrayKernel<math::Expm1, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::expm1(x, y, n); }
};
template <typename T> struct ArrayKernel<math::Log, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::log(x, y, n); }
};
template <typename T> struct ArrayKernel<math::Log1p, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::log1p(x, y, n); }
};
template <typename T> struct ArrayKernel<math::Silu, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::silu(x, y, n); }
};
template <typename T> struct ArrayKernel<math::Softplus, T> {
    static constexpr bool available = true;
    static void run(const T* x, T* y, int64_t n) { vec::softplus(x, y, n); }
};
}  // namespace vec
}  // namespace ct

// random.cpp - random tensors (rand, randn, randint, bernoulli, randperm) drawn from Philox streams.
// Each group of 2 or 4 elements reads one counter only (Note [Counter-based randomness] in
// core/generator.h), so the numbers depend on the seed and the op sequence, never on the thread count.
// CUDA tensors are drawn on the host and copied, so a seed gives the same numbers on every device.
#include <algorithm>
#include <cmath>
#include <limits>
#include "core/generator.h"
#include "cpu/parallel.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {

Generator& default_generator() {
    static Generator* g = new Generator();  // never destroyed: may be used during static destruction
    return *g;
}

namespace {

constexpr int64_t kRandomGrain = 8192;

// Fills t (fresh, contiguous) in groups of K elements: group g (elements K*g ...) comes from counter g
// alone, and draw(words, first, count, out) turns its four words into count <= K values.
template <typename T, int K, typename Draw> void fill_random(const Tensor& t, Generator* gen, Draw draw) {
    const int64_t n = t.numel(), groups = (n + K - 1) / K;
    PhiloxStream s = generator_or_default(gen).reserve((uint64_t)groups);
    T* p = t.data<T>();
    parallel_for(groups, kRandomGrain, [&](int64_t g0, int64_t g1) {
        for (int64_t g = g0; g < g1; ++g) {
            int64_t first = g * K;
            draw(s.block((uint64_t)g), first, std::min<int64_t>(K, n - first), p + first);
        }
    });
}

// A fresh host tensor for op's results, drawn there whatever the target device; errors name op (shape, device).
Tensor new_result(const char* op, const Shape& shape, DType dtype, Device device) {
    checked_numel(shape, op);
    check_device_usable(op, device);
    return empty_tensor(shape, dtype, Device{});
}

// The drawn host tensor t on the requested device.
Tensor placed(const Tensor& t, Device device) { return device.is_cpu() ? t : copy_to_device(t, device); }

void check_floating_dtype(const char* op, DType dtype) {
    if (!is_floating(dtype))
        fail(CT_ERR_DTYPE, op, ": expected a floating dtype (float32 or float64), got ", dtype_name(dtype));
}

// Up to two standard normals from one Philox block by the Box-Muller transform (both branches). The
// radius uses a 53-bit uniform in double (tails reach ~8.6 sigma); the angle is computed in T, so float32
// pays for float trigonometry only.
template <typename T> void normals_from(const PhiloxWords& w, int64_t count, T* out) {
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    T radius = (T)std::sqrt(-2.0 * std::log(1.0 - uniform53(w[0], w[1])));  // 1 - u in (0, 1]: log finite
    T theta = (T)(kTwoPi * uniform53(w[2], w[3]));
    out[0] = radius * std::cos(theta);
    if (count > 1) out[1] = radius * std::sin(theta);
}

// A uniform 64-bit value in [0, range) from two words.
inline uint64_t below(uint32_t hi, uint32_t lo, uint64_t range) { return mul_hi64(((uint64_t)hi << 32) | lo, range); }

// Checks that [low, high - 1] is representable in dtype (exactly, for floating dtypes).
void check_randint_range(int64_t low, int64_t high, DType dtype) {
    if (high <= low) fail(CT_ERR_INVALID_ARGUMENT, "randint: high (", high, ") must be greater than low (", low, ")");
    int64_t lo_ok = std::numeric_limits<int64_t>::min(), hi_ok = std::numeric_limits<int64_t>::max();
    switch (dtype) {
    case DType::Bool: lo_ok = 0, hi_ok = 1; break;
    case DType::UInt8: lo_ok = 0, hi_ok = 255; break;
    case DType::Int32: lo_ok = std::numeric_limits<int32_t>::min(), hi_ok = std::numeric_limits<int32_t>::max(); break;
    case DType::Float32: lo_ok = -(int64_t(1) << 24), hi_ok = int64_t(1) << 24; break;
    case DType::Float64: lo_ok = -(int64_t(1) << 53), hi_ok = int64_t(1) << 53; break;
    case DType::Float16: lo_ok = -(int64_t(1) << 11), hi_ok = int64_t(1) << 11; break;  // torch: +-2^digits
    case DType::BFloat16: lo_ok = -(int64_t(1) << 8), hi_ok = int64_t(1) << 8; break;
    default: break;
    }
    if (low < lo_ok || high - 1 > hi_ok)
        fail(CT_ERR_INVALID_ARGUMENT, "randint: range [", low, ", ", high, ") does not fit dtype ", dtype_name(dtype),
             " (representable: [", lo_ok, ", ", hi_ok, "])");
}

}  // namespace

// Note [Half compute]: float16/bfloat16 draws are the float32 draws of the same shape on the same device, rounded
// (on CUDA too: Note [Half on CUDA]).
static Tensor rounded_draw(const char* op, const Tensor& f32, DType dtype, Device device) {
    check_dtype_on_device(op, dtype, device);  // Note [Half on CUDA]
    return to_dtype(f32, dtype);
}

// Note [Complex dtypes]: complex draws are float draws of shape [..., 2] read as (real, imag) pairs.
static Shape with_pairs(const Shape& shape) {
    Shape s = shape;
    s.push_back(2);
    return s;
}

Tensor rand(const Shape& shape, DType dtype, Device device, Generator* gen) {
    if (is_complex(dtype)) return complex_draw(rand(with_pairs(shape), real_dtype(dtype), device, gen));
    check_floating_dtype("rand", dtype);
    if (is_half(dtype)) return rounded_draw("rand", rand(shape, DType::Float32, device, gen), dtype, device);
    Tensor t = new_result("rand", shape, dtype, device);
    if (dtype == DType::Float32) {
        fill_random<float, 4>(t, gen, [](const PhiloxWords& w, int64_t, int64_t count, float* out) {
            for (int64_t k = 0; k < count; ++k) out[k] = uniform24(w[k]);
        });
    } else {
        fill_random<double, 2>(t, gen, [](const PhiloxWords& w, int64_t, int64_t count, double* out) {
            for (int64_t k = 0; k < count; ++k) out[k] = uniform53(w[2 * k], w[2 * k + 1]);
        });
    }
    return placed(t, device);
}

Tensor randn(const Shape& shape, DType dtype, Device device, Generator* gen) {
    if (is_complex(dtype))  // each part has variance 1/2, so E|z|^2 = 1 (as torch)
        return complex_draw(mul_scalar(randn(with_pairs(shape), real_dtype(dtype), device, gen), std::sqrt(0.5)));
    check_floating_dtype("randn", dtype);
    if (is_half(dtype)) return rounded_draw("randn", randn(shape, DType::Float32, device, gen), dtype, device);
    Tensor t = new_result("randn", shape, dtype, device);
    dispatch_float(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        fill_random<T, 2>(t, gen, [](const PhiloxWords& w, int64_t, int64_t count, T* out) {
            normals_from<T>(w, count, out);
        });
    });
    return placed(t, device);
}

Tensor randint(int64_t low, int64_t high, const Shape& shape, DType dtype, Device device, Generator* gen) {
    check_randint_range(low, high, dtype);
    // Note [Half compute]: the float32 draw, exact in the half dtype (the range check above)
    if (is_half(dtype))
        return rounded_draw("randint", randint(low, high, shape, DType::Float32, device, gen), dtype, device);
    Tensor t = new_result("randint", shape, dtype, device);
    const uint64_t range = (uint64_t)high - (uint64_t)low;  // fits: high > low
    dispatch_all(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        fill_random<T, 2>(t, gen, [low, range](const PhiloxWords& w, int64_t, int64_t count, T* out) {
            // unsigned wrap-around gives low + r exactly for any int64 low
            for (int64_t k = 0; k < count; ++k)
                out[k] = (T)(int64_t)((uint64_t)low + below(w[2 * k], w[2 * k + 1], range));
        });
    });
    return placed(t, device);
}

Tensor bernoulli(const Tensor& p, Generator* gen) {
    check_floating_dtype("bernoulli", p.dtype());
    if (is_half(p.dtype())) return to_dtype(bernoulli(to_dtype(detach(p), DType::Float32), gen), p.dtype());
    Tensor pc = contiguous(detach(p.device().is_cpu() ? p : copy_to_device(p, Device{})));
    Tensor t = new_result("bernoulli", p.sizes(), p.dtype(), p.device());
    dispatch_float(p.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* pp = pc.data<T>();
        for (int64_t i = 0, n = pc.numel(); i < n; ++i)
            if (!(pp[i] >= T(0) && pp[i] <= T(1)))
                fail(CT_ERR_INVALID_ARGUMENT, "bernoulli: probability ", (double)pp[i], " at flat index ", i,
                     " is outside [0, 1]");
        fill_random<T, 2>(t, gen, [pp](const PhiloxWords& w, int64_t first, int64_t count, T* out) {
            for (int64_t k = 0; k < count; ++k)
                out[k] = uniform53(w[2 * k], w[2 * k + 1]) < (double)pp[first + k] ? T(1) : T(0);
        });
    });
    return placed(t, p.device());
}

Tensor randperm(int64_t n, Device device, Generator* gen) {
    if (n < 0) fail(CT_ERR_INVALID_ARGUMENT, "randperm: n must be non-negative, got ", n);
    Tensor t = new_result("randperm", {n}, DType::Int64, device);
    int64_t* p = t.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = i;
    PhiloxStream s = generator_or_default(gen).reserve((uint64_t)n);
    // Fisher-Yates from the back: step i swaps p[i] with p[j], j uniform in [0, i], drawn from counter i.
    for (int64_t i = n - 1; i > 0; --i) {
        PhiloxWords w = s.block((uint64_t)i);
        int64_t j = (int64_t)below(w[0], w[1], (uint64_t)i + 1);
        std::swap(p[i], p[j]);
    }
    return placed(t, device);
}

}  // namespace ct

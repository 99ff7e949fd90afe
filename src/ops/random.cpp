// random.cpp - random tensors (rand, randn, randint, bernoulli, randperm) drawn from Philox streams.
// Element i of every op reads counter base + i only (Note [Counter-based randomness] in core/generator.h),
// so the numbers depend on the seed and the op sequence, never on the thread count.
#include <cmath>
#include <limits>
#include "core/generator.h"
#include "cpu/parallel.h"
#include "ops/ops.h"

namespace ct {

Generator& default_generator() {
    static Generator* g = new Generator();  // never destroyed: may be used during static destruction
    return *g;
}

namespace {

constexpr int64_t kRandomGrain = 8192;

// Fills t (fresh, contiguous) with draw(stream, i) for every element i, in parallel.
template <typename T, typename Draw> void fill_random(const Tensor& t, Generator* gen, Draw draw) {
    int64_t n = t.numel();
    PhiloxStream s = generator_or_default(gen).reserve((uint64_t)n);
    T* p = t.data<T>();
    parallel_for(n, kRandomGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) p[i] = draw(s, (uint64_t)i);
    });
}

// A fresh tensor for op's results; errors name op (shape, device).
Tensor new_result(const char* op, const Shape& shape, DType dtype, Device device) {
    checked_numel(shape, op);
    if (!device.is_cpu())
        fail(CT_ERR_NOT_COMPILED, op, ": device ", device_str(device), " is not available: the CUDA backend is not built");
    return empty_tensor(shape, dtype, device);
}

void check_floating_dtype(const char* op, DType dtype) {
    if (!is_floating(dtype))
        fail(CT_ERR_DTYPE, op, ": expected a floating dtype (float32 or float64), got ", dtype_name(dtype));
}

// Standard normal from one Philox block by the Box-Muller transform (cosine branch).
double normal_from(const PhiloxWords& w) {
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    double u1 = 1.0 - uniform53(w[0], w[1]);  // (0, 1]: log stays finite
    double u2 = uniform53(w[2], w[3]);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

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
    default: break;
    }
    if (low < lo_ok || high - 1 > hi_ok)
        fail(CT_ERR_INVALID_ARGUMENT, "randint: range [", low, ", ", high, ") does not fit dtype ", dtype_name(dtype),
             " (representable: [", lo_ok, ", ", hi_ok, "])");
}

}  // namespace

Tensor rand(const Shape& shape, DType dtype, Device device, Generator* gen) {
    check_floating_dtype("rand", dtype);
    Tensor t = new_result("rand", shape, dtype, device);
    if (dtype == DType::Float32) {
        fill_random<float>(t, gen, [](const PhiloxStream& s, uint64_t i) { return uniform24(s.block(i)[0]); });
    } else {
        fill_random<double>(t, gen, [](const PhiloxStream& s, uint64_t i) {
            PhiloxWords w = s.block(i);
            return uniform53(w[0], w[1]);
        });
    }
    return t;
}

Tensor randn(const Shape& shape, DType dtype, Device device, Generator* gen) {
    check_floating_dtype("randn", dtype);
    Tensor t = new_result("randn", shape, dtype, device);
    dispatch_float(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        fill_random<T>(t, gen, [](const PhiloxStream& s, uint64_t i) { return (T)normal_from(s.block(i)); });
    });
    return t;
}

Tensor randint(int64_t low, int64_t high, const Shape& shape, DType dtype, Device device, Generator* gen) {
    check_randint_range(low, high, dtype);
    Tensor t = new_result("randint", shape, dtype, device);
    const uint64_t range = (uint64_t)high - (uint64_t)low;  // fits: high > low
    dispatch_all(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        fill_random<T>(t, gen, [low, range](const PhiloxStream& s, uint64_t i) {
            PhiloxWords w = s.block(i);
            uint64_t r = mul_hi64(((uint64_t)w[0] << 32) | w[1], range);
            return (T)(int64_t)((uint64_t)low + r);  // two's complement wrap gives low + r exactly
        });
    });
    return t;
}

Tensor bernoulli(const Tensor& p, Generator* gen) {
    check_floating_dtype("bernoulli", p.dtype());
    Tensor pc = contiguous(detach(p));
    Tensor t = new_result("bernoulli", p.sizes(), p.dtype(), p.device());
    dispatch_float(p.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* pp = pc.data<T>();
        for (int64_t i = 0, n = pc.numel(); i < n; ++i)
            if (!(pp[i] >= T(0) && pp[i] <= T(1)))
                fail(CT_ERR_INVALID_ARGUMENT, "bernoulli: probability ", (double)pp[i], " at flat index ", i,
                     " is outside [0, 1]");
        fill_random<T>(t, gen, [pp](const PhiloxStream& s, uint64_t i) {
            PhiloxWords w = s.block(i);
            return uniform53(w[0], w[1]) < (double)pp[i] ? T(1) : T(0);
        });
    });
    return t;
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
        int64_t j = (int64_t)mul_hi64(((uint64_t)w[0] << 32) | w[1], (uint64_t)i + 1);
        std::swap(p[i], p[j]);
    }
    return t;
}

}  // namespace ct

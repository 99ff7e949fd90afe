// half_loops.h - elementwise loops over float16/bfloat16 storage that run a float32 functor: every innermost
// run is processed in blocks that are converted to float32 (vectorised, cpu/half_convert.h), computed, and
// converted back (Note [Half compute] in ops/half_compute.h); contiguous runs of one half type take the fused loops
// (Note [Fused half loops]).
#pragma once
#include <algorithm>
#include <type_traits>
#include "cpu/half_convert.h"
#include "cpu/half_simd.h"
#include "cpu/loops.h"

namespace ct {

constexpr int64_t kHalfBlock = 512;

// dst[0..n) = src[i * stride] as float (S a storage type: Half, BFloat16 or a plain arithmetic type).
template <typename S> void load_block(const S* src, int64_t stride, float* dst, int64_t n) {
    if constexpr (IsHalfType<S>::value) {
        if (stride == 1) return convert_to_float(src, dst, n);
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i * stride]);
    } else {
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i * stride]);
    }
}

// dst[i * stride] = src[i] converted to R (R a storage type; C the computed type, float or bool).
template <typename R, typename C> void store_block(const C* src, R* dst, int64_t stride, int64_t n) {
    if constexpr (IsHalfType<R>::value && std::is_same<C, float>::value) {
        if (stride == 1) return convert_from_float(src, dst, n);
        for (int64_t i = 0; i < n; ++i) dst[i * stride] = R(src[i]);
    } else {
        for (int64_t i = 0; i < n; ++i) dst[i * stride] = static_cast<R>(src[i]);
    }
}

// Note [Fused half loops]: a contiguous run whose inputs and result are all one half type (a second operand may be a
// broadcast value) converts sixteen values at a time into two AVX registers, runs the float32 functor on them and
// rounds them back, all in registers: the blocked loops below pass every value through three float32 buffers and
// compute with the library's baseline ISA (SSE2), which made a float16 add reach half of float32's GB/s on an AVX2
// CPU. The functor is inlined and vectorised under CT_HALF_SIMD_TARGET (AVX2 + F16C, no FMA: the float32 results
// are those of the blocked loops, bit for bit, which tests/test_half_fused.cpp checks against strided runs).
#if CT_HAVE_HALF_SIMD
template <typename S, typename F> CT_HALF_SIMD_TARGET void map1_fused_simd(S* o, const S* a, int64_t n, F f) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        alignas(32) float x[16], r[16];
        _mm256_store_ps(x, load8_as_float(a + i));
        _mm256_store_ps(x + 8, load8_as_float(a + i + 8));
        for (int j = 0; j < 16; ++j) r[j] = f(x[j]);
        store16_from_float(_mm256_load_ps(r), _mm256_load_ps(r + 8), o + i);
    }
    for (; i < n; ++i) o[i] = S(f(static_cast<float>(a[i])));
}

// b_stride 0: b[0] is every value of the second operand (of type S or float); 1: b is a run of S like a.
template <typename S, typename SB, typename F>
CT_HALF_SIMD_TARGET void map2_fused_simd(S* o, const S* a, const SB* b, int64_t b_stride, int64_t n, F f) {
    const bool b_broadcast = b_stride == 0;
    const float b0 = b_broadcast ? static_cast<float>(b[0]) : 0.0f;
    const __m256 b0s = _mm256_set1_ps(b0);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        alignas(32) float x[16], y[16], r[16];
        _mm256_store_ps(x, load8_as_float(a + i));
        _mm256_store_ps(x + 8, load8_as_float(a + i + 8));
        if constexpr (std::is_same<SB, S>::value) {  // SB float: always broadcast (the caller's condition)
            _mm256_store_ps(y, b_broadcast ? b0s : load8_as_float(b + i));
            _mm256_store_ps(y + 8, b_broadcast ? b0s : load8_as_float(b + i + 8));
        } else {
            _mm256_store_ps(y, b0s);
            _mm256_store_ps(y + 8, b0s);
        }
        for (int j = 0; j < 16; ++j) r[j] = f(x[j], y[j]);
        store16_from_float(_mm256_load_ps(r), _mm256_load_ps(r + 8), o + i);
    }
    for (; i < n; ++i) o[i] = S(f(static_cast<float>(a[i]), b_broadcast ? b0 : static_cast<float>(b[i * b_stride])));
}
#endif

// Whether a run with these types and strides takes the fused loop (Note [Fused half loops]).
template <typename R, typename S, typename C> constexpr bool fusable_half() {
    return IsHalfType<S>::value && std::is_same<R, S>::value && std::is_same<C, float>::value && CT_HAVE_HALF_SIMD;
}

// out[i] = f(in[i]) with in of storage type S read as float; f returns C (float or bool), stored as R.
template <typename R, typename S, typename F> void map1_via_float(const Tensor& out, const Tensor& in, F f) {
    using C = decltype(f(0.0f));
    R* o = out.data<R>();
    const S* a = in.data<S>();
    for_each_run<2>(out.sizes(), {&out.strides(), &in.strides()},
                    [&](const std::array<int64_t, 2>& off, const std::array<int64_t, 2>& st, int64_t n) {
#if CT_HAVE_HALF_SIMD
                        if constexpr (fusable_half<R, S, C>())
                            if (st[0] == 1 && st[1] == 1 && half_simd_avx2_usable())
                                return map1_fused_simd(o + off[0], a + off[1], n, f);
#endif
                        float x[kHalfBlock];
                        C r[kHalfBlock];
                        for (int64_t b = 0; b < n; b += kHalfBlock) {
                            const int64_t m = std::min(kHalfBlock, n - b);
                            load_block(a + off[1] + b * st[1], st[1], x, m);
                            for (int64_t i = 0; i < m; ++i) r[i] = f(x[i]);
                            store_block(r, o + off[0] + b * st[0], st[0], m);
                        }
                    });
}

// out[i] = f(a[i], b[i]) with a, b of storage types SA, SB read as float (broadcast views allowed).
template <typename R, typename SA, typename SB, typename F>
void map2_via_float(const Tensor& out, const Tensor& a, const Tensor& b, F f) {
    using C = decltype(f(0.0f, 0.0f));
    R* o = out.data<R>();
    const SA* pa = a.data<SA>();
    const SB* pb = b.data<SB>();
    for_each_run<3>(out.sizes(), {&out.strides(), &a.strides(), &b.strides()},
                    [&](const std::array<int64_t, 3>& off, const std::array<int64_t, 3>& st, int64_t n) {
#if CT_HAVE_HALF_SIMD
                        if constexpr (fusable_half<R, SA, C>() && (std::is_same<SB, SA>::value ||
                                                                    std::is_same<SB, float>::value))
                            if (st[0] == 1 && st[1] == 1 && (st[2] == 0 || (st[2] == 1 && std::is_same<SB, SA>::value)) &&
                                half_simd_avx2_usable())
                                return map2_fused_simd(o + off[0], pa + off[1], pb + off[2], st[2], n, f);
#endif
                        float x[kHalfBlock], y[kHalfBlock];
                        C r[kHalfBlock];
                        for (int64_t k = 0; k < n; k += kHalfBlock) {
                            const int64_t m = std::min(kHalfBlock, n - k);
                            load_block(pa + off[1] + k * st[1], st[1], x, m);
                            if (st[2] == 0) std::fill(y, y + m, static_cast<float>(pb[off[2]]));
                            else load_block(pb + off[2] + k * st[2], st[2], y, m);
                            for (int64_t i = 0; i < m; ++i) r[i] = f(x[i], y[i]);
                            store_block(r, o + off[0] + k * st[0], st[0], m);
                        }
                    });
}

}  // namespace ct

// half_loops.h - elementwise loops over float16/bfloat16 storage that run a float32 functor: every innermost
// run is processed in blocks that are converted to float32 (vectorised, cpu/half_convert.h), computed, and
// converted back (Note [Half compute] in ops/half_compute.h).
#pragma once
#include <algorithm>
#include <type_traits>
#include "cpu/half_convert.h"
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

// out[i] = f(in[i]) with in of storage type S read as float; f returns C (float or bool), stored as R.
template <typename R, typename S, typename F> void map1_via_float(const Tensor& out, const Tensor& in, F f) {
    using C = decltype(f(0.0f));
    R* o = out.data<R>();
    const S* a = in.data<S>();
    for_each_run<2>(out.sizes(), {&out.strides(), &in.strides()},
                    [&](const std::array<int64_t, 2>& off, const std::array<int64_t, 2>& st, int64_t n) {
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

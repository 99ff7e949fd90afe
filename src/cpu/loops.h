// loops.h - strided iteration for elementwise kernels: coalesces dims, then calls a kernel on each
// innermost run (contiguous runs get unit strides, which the compiler vectorises), in parallel.
#pragma once
#include <array>
#include <vector>
#include "core/tensor.h"
#include "cpu/parallel.h"

namespace ct {

constexpr int64_t kElementwiseGrain = 32768;

// Operand strides (in elements) for N operands sharing one shape. Dims of size 1 are dropped and
// adjacent dims merged when every operand allows it.
template <size_t N> struct LoopLayout {
    Shape sizes;
    std::array<Shape, N> strides;
};

template <size_t N> LoopLayout<N> coalesce_layout(const Shape& sizes, const std::array<const Shape*, N>& strides) {
    LoopLayout<N> L;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] == 1) continue;
        bool merge = !L.sizes.empty();
        for (size_t k = 0; k < N && merge; ++k)
            merge = L.strides[k].back() == (*strides[k])[d] * sizes[d];
        if (merge) {
            L.sizes.back() *= sizes[d];
            for (size_t k = 0; k < N; ++k) L.strides[k].back() = (*strides[k])[d];
        } else {
            L.sizes.push_back(sizes[d]);
            for (size_t k = 0; k < N; ++k) L.strides[k].push_back((*strides[k])[d]);
        }
    }
    return L;
}

// Calls run(offsets, inner_strides, n) for every innermost run; offsets are element offsets per operand.
template <size_t N, typename Run>
void for_each_run(const Shape& sizes, const std::array<const Shape*, N>& strides, Run&& run) {
    int64_t numel = 1;
    for (int64_t s : sizes) numel *= s;
    if (numel == 0) return;
    LoopLayout<N> L = coalesce_layout<N>(sizes, strides);
    std::array<int64_t, N> zero{};
    if (L.sizes.empty()) {
        std::array<int64_t, N> one;
        one.fill(1);
        run(zero, one, int64_t(1));
        return;
    }
    const int64_t nd = (int64_t)L.sizes.size();
    const int64_t inner = L.sizes[nd - 1];
    std::array<int64_t, N> inner_st;
    for (size_t k = 0; k < N; ++k) inner_st[k] = L.strides[k][nd - 1];
    const int64_t rows = numel / inner;
    if (rows == 1) {
        // One run (e.g. fully contiguous operands): split the run itself so large inputs use every thread.
        parallel_for(inner, kElementwiseGrain, [&](int64_t b, int64_t e) {
            std::array<int64_t, N> off;
            for (size_t k = 0; k < N; ++k) off[k] = b * inner_st[k];
            run(off, inner_st, e - b);
        });
        return;
    }
    int64_t grain = std::max<int64_t>(1, kElementwiseGrain / inner);
    parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
        std::vector<int64_t> idx(nd > 1 ? nd - 1 : 1, 0);
        std::array<int64_t, N> off{};
        int64_t r = r0;
        for (int64_t d = nd - 2; d >= 0; --d) {
            idx[d] = r % L.sizes[d];
            r /= L.sizes[d];
            for (size_t k = 0; k < N; ++k) off[k] += idx[d] * L.strides[k][d];
        }
        for (int64_t row = r0; row < r1; ++row) {
            run(off, inner_st, inner);
            for (int64_t d = nd - 2; d >= 0; --d) {
                if (++idx[d] < L.sizes[d]) {
                    for (size_t k = 0; k < N; ++k) off[k] += L.strides[k][d];
                    break;
                }
                idx[d] = 0;
                for (size_t k = 0; k < N; ++k) off[k] -= (L.sizes[d] - 1) * L.strides[k][d];
            }
        }
    });
}

// out[i] = f(in[i]) over out's shape; out and in have the same shape (in may be strided or broadcast).
template <typename R, typename T, typename F> void map1(const Tensor& out, const Tensor& in, F f) {
    R* o = out.data<R>();
    const T* a = in.data<T>();
    for_each_run<2>(out.sizes(), {&out.strides(), &in.strides()},
                    [&](const std::array<int64_t, 2>& off, const std::array<int64_t, 2>& st, int64_t n) {
                        R* po = o + off[0];
                        const T* pa = a + off[1];
                        if (st[0] == 1 && st[1] == 1) {
                            for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i]);
                        } else {
                            for (int64_t i = 0; i < n; ++i) po[i * st[0]] = f(pa[i * st[1]]);
                        }
                    });
}

// out[i] = f(a[i], b[i]); a and b already expanded to out's shape.
template <typename R, typename T, typename U, typename F>
void map2(const Tensor& out, const Tensor& a, const Tensor& b, F f) {
    R* o = out.data<R>();
    const T* pa0 = a.data<T>();
    const U* pb0 = b.data<U>();
    for_each_run<3>(out.sizes(), {&out.strides(), &a.strides(), &b.strides()},
                    [&](const std::array<int64_t, 3>& off, const std::array<int64_t, 3>& st, int64_t n) {
                        R* po = o + off[0];
                        const T* pa = pa0 + off[1];
                        const U* pb = pb0 + off[2];
                        if (st[0] == 1 && st[1] == 1 && st[2] == 1) {
                            for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
                        } else if (st[0] == 1 && st[1] == 1 && st[2] == 0) {
                            const U bv = *pb;
                            for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], bv);
                        } else {
                            for (int64_t i = 0; i < n; ++i) po[i * st[0]] = f(pa[i * st[1]], pb[i * st[2]]);
                        }
                    });
}

// out[i] = f(a[i], b[i], c[i]); all expanded to out's shape.
template <typename R, typename T, typename U, typename V, typename F>
void map3(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c, F f) {
    R* o = out.data<R>();
    const T* pa0 = a.data<T>();
    const U* pb0 = b.data<U>();
    const V* pc0 = c.data<V>();
    for_each_run<4>(out.sizes(), {&out.strides(), &a.strides(), &b.strides(), &c.strides()},
                    [&](const std::array<int64_t, 4>& off, const std::array<int64_t, 4>& st, int64_t n) {
                        for (int64_t i = 0; i < n; ++i)
                            o[off[0] + i * st[0]] =
                                f(pa0[off[1] + i * st[1]], pb0[off[2] + i * st[2]], pc0[off[3] + i * st[3]]);
                    });
}

}  // namespace ct

// reduce_kernel.h - generic reduction over a set of dims of a strided tensor, with fast paths for a unit-stride
// reduced run (reducer's vectorised run()) and for reducing leading dims of a row-major tensor (lane-wise).
//
// The reducer R provides: using Acc; Acc init() const; void step(Acc&, T value, int64_t ridx) const;
// void merge(Acc& into, const Acc& from) const; and for reduce_into: Out finish(const Acc&) const.
// Optionally: void run(Acc&, const T* p, int64_t n, int64_t ridx0) const, equal to n steps over p[0..n).
// ridx is the linear index of the element inside the reduced sub-space (row-major over reduced dims);
// every path feeds each output's elements in increasing ridx order, and merge() always gets the later part
// as `from`, so "first occurrence" reducers stay correct.
#pragma once
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>
#include "core/tensor.h"
#include "cpu/parallel.h"

namespace ct {

// Output shape of reducing sizes over mask (mask[d] = reduce dim d).
inline Shape reduced_shape(const Shape& sizes, const std::vector<bool>& mask, bool keepdim) {
    Shape out;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (!mask[d]) out.push_back(sizes[d]);
        else if (keepdim) out.push_back(1);
    }
    return out;
}

namespace detail {

template <typename R, typename T, typename = void> struct HasRun : std::false_type {};
template <typename R, typename T>
struct HasRun<R, T, std::void_t<decltype(std::declval<const R&>().run(std::declval<typename R::Acc&>(),
                                                                        (const T*)nullptr, int64_t(0), int64_t(0)))>>
    : std::true_type {};

// Kept and reduced dims after dropping size-1 dims and merging neighbours of the same kind whose strides
// allow it (merging keeps the row-major order, so output index and ridx are unchanged).
struct ReduceLayout {
    Shape ksz, kst, rsz, rst;
    int64_t n_out = 1, n_red = 1;
};

inline ReduceLayout reduce_layout(const Tensor& in, const std::vector<bool>& mask) {
    ReduceLayout L;
    int last_kind = -1;  // 0 kept, 1 reduced, -1 none yet
    for (int64_t d = 0; d < in.dim(); ++d) {
        int64_t sz = in.sizes()[d], st = in.strides()[d];
        bool red = mask[d];
        (red ? L.n_red : L.n_out) *= sz;
        if (sz == 1) continue;
        Shape& S = red ? L.rsz : L.ksz;
        Shape& St = red ? L.rst : L.kst;
        int64_t span = 0;  // st * sz; past int64 it cannot equal a stride, so the dims do not merge
        if (last_kind == (int)red && mul_fits(st, sz, &span) && St.back() == span) {
            S.back() *= sz;
            St.back() = st;
        } else {
            S.push_back(sz);
            St.push_back(st);
        }
        last_kind = (int)red;
    }
    return L;
}

// Calls fn(offset, stride, n, first_linear_index) for the innermost runs covering the row-major linear
// indices [begin, end) of the index space (sz, st). An empty sz is one element at offset 0.
template <typename Fn> void for_each_run_range(const Shape& sz, const Shape& st, int64_t begin, int64_t end, Fn&& fn) {
    const int64_t nd = (int64_t)sz.size();
    if (begin >= end) return;
    if (nd == 0) {
        fn(int64_t(0), int64_t(1), int64_t(1), int64_t(0));
        return;
    }
    std::vector<int64_t> idx(nd, 0);
    int64_t off = 0, rem = begin;
    for (int64_t d = nd - 1; d >= 0; --d) {
        idx[d] = rem % sz[d];
        rem /= sz[d];
        off += idx[d] * st[d];
    }
    const int64_t inner = sz[nd - 1], ist = st[nd - 1];
    int64_t i = begin;
    while (i < end) {
        int64_t run = std::min(inner - idx[nd - 1], end - i);
        fn(off, ist, run, i);
        i += run;
        off += run * ist;
        idx[nd - 1] += run;
        for (int64_t d = nd - 1; d > 0 && idx[d] == sz[d]; --d) {
            off -= sz[d] * st[d];
            idx[d] = 0;
            ++idx[d - 1];
            off += st[d - 1];
        }
    }
}

inline int64_t linear_to_offset(int64_t i, const Shape& sz, const Shape& st) {
    int64_t off = 0;
    for (int64_t d = (int64_t)sz.size() - 1; d >= 0; --d) {
        off += (i % sz[d]) * st[d];
        i /= sz[d];
    }
    return off;
}

// Folds elements [r0, r1) of the reduced space starting at p into acc (uses run() on unit-stride runs).
template <typename T, typename R>
void reduce_range(const R& r, const ReduceLayout& L, const T* p, int64_t r0, int64_t r1, typename R::Acc& acc) {
    for_each_run_range(L.rsz, L.rst, r0, r1, [&](int64_t off, int64_t st, int64_t n, int64_t i0) {
        const T* q = p + off;
        if constexpr (HasRun<R, T>::value) {
            if (st == 1) {
                r.run(acc, q, n, i0);
                return;
            }
        }
        for (int64_t k = 0; k < n; ++k) r.step(acc, q[k * st], i0 + k);
    });
}

// Lane-wise path: the innermost kept dim has unit stride, so each reduced element position contributes a
// unit-stride row of K outputs; acc[j] accumulates lane j (vectorisable, no per-output strided walks).
template <typename T, typename R, typename Store>
void reduce_lanes(const T* base, const ReduceLayout& L, const R& r, Store& store) {
    using Acc = typename R::Acc;
    const int64_t K = L.ksz.back(), n_outer = L.n_out / K;
    Shape osz(L.ksz.begin(), L.ksz.end() - 1), ost(L.kst.begin(), L.kst.end() - 1);
    // Lane blocks as wide as possible (whole rows are read sequentially; strided walks over many pages
    // thrash the TLB), small enough for the accumulators to stay in L2.
    const int64_t kBlock = std::max<int64_t>(64, std::min<int64_t>(K, 65536 / (int64_t)sizeof(Acc)));
    const int64_t blocks = (K + kBlock - 1) / kBlock, tasks = n_outer * blocks;
    // Folds reduced positions [r0, r1) into acc[0..kn) for the lane block starting at kept element p.
    auto fold = [&](const T* p, int64_t kn, int64_t r0, int64_t r1, Acc* acc) {
        for_each_run_range(L.rsz, L.rst, r0, r1, [&](int64_t off, int64_t st, int64_t n, int64_t i0) {
            for (int64_t k = 0; k < n; ++k) {
                const T* row = p + off + k * st;
                for (int64_t j = 0; j < kn; ++j) r.step(acc[j], row[j], i0 + k);
            }
        });
    };
    int threads = get_num_threads();
    if (tasks >= threads || L.n_red * L.n_out < 65536 || threads == 1) {
        int64_t grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(L.n_red * std::min(K, kBlock), 1));
        parallel_for(tasks, grain, [&](int64_t b, int64_t e) {
            std::unique_ptr<Acc[]> acc(new Acc[kBlock]);
            for (int64_t t = b; t < e; ++t) {
                int64_t o = t / blocks, j0 = (t % blocks) * kBlock, kn = std::min(kBlock, K - j0);
                std::fill(acc.get(), acc.get() + kn, r.init());
                fold(base + linear_to_offset(o, osz, ost) + j0, kn, 0, L.n_red, acc.get());
                for (int64_t j = 0; j < kn; ++j) store(o * K + j0 + j, acc[j]);
            }
        });
        return;
    }
    // Few outputs, long reduction: each thread folds a slice of the reduced range; slices merge in order.
    std::vector<std::unique_ptr<Acc[]>> parts(threads);
    for (auto& p : parts) {
        p.reset(new Acc[L.n_out]);
        std::fill(p.get(), p.get() + L.n_out, r.init());
    }
    parallel_for(threads, 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
            int64_t r0 = L.n_red * t / threads, r1 = L.n_red * (t + 1) / threads;
            for (int64_t o = 0; o < n_outer; ++o)
                fold(base + linear_to_offset(o, osz, ost), K, r0, r1, parts[t].get() + o * K);
        }
    });
    for (int64_t oi = 0; oi < L.n_out; ++oi) {
        Acc acc = parts[0][oi];
        for (int t = 1; t < threads; ++t) r.merge(acc, parts[t][oi]);
        store(oi, acc);
    }
}

}  // namespace detail

// Reduces in over mask with r and calls store(output_linear_index, acc) once per output (row-major over
// the kept dims). Outputs of an empty reduction get r.init().
template <typename T, typename R, typename Store>
void reduce_apply(const Tensor& in, const std::vector<bool>& mask, const R& r, Store&& store) {
    detail::ReduceLayout L = detail::reduce_layout(in, mask);
    if (L.n_out == 0) return;
    if (L.n_red == 0) {  // an empty input: nothing to read (its data pointer may be null, offsets from it undefined)
        for (int64_t oi = 0; oi < L.n_out; ++oi) store(oi, r.init());
        return;
    }
    const T* base = in.data<T>();
    if (!L.ksz.empty() && L.kst.back() == 1 && L.n_red > 1 && L.ksz.back() >= 4) {
        detail::reduce_lanes<T>(base, L, r, store);
        return;
    }
    int threads = get_num_threads();
    if (L.n_out >= threads * 4 || L.n_red < 65536 || threads == 1) {
        int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(L.n_red, 1));
        parallel_for(L.n_out, grain, [&](int64_t b, int64_t e) {
            for (int64_t oi = b; oi < e; ++oi) {
                typename R::Acc acc = r.init();
                detail::reduce_range(r, L, base + detail::linear_to_offset(oi, L.ksz, L.kst), 0, L.n_red, acc);
                store(oi, acc);
            }
        });
        return;
    }
    for (int64_t oi = 0; oi < L.n_out; ++oi) {
        std::unique_ptr<typename R::Acc[]> parts(new typename R::Acc[threads]);
        std::fill(parts.get(), parts.get() + threads, r.init());
        const T* p = base + detail::linear_to_offset(oi, L.ksz, L.kst);
        parallel_for(threads, 1, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t)
                detail::reduce_range(r, L, p, L.n_red * t / threads, L.n_red * (t + 1) / threads, parts[t]);
        });
        typename R::Acc acc = parts[0];
        for (int t = 1; t < threads; ++t) r.merge(acc, parts[t]);
        store(oi, acc);
    }
}

// out (contiguous, numel = kept numel) [i] = r.finish(reduction of output i).
template <typename T, typename Out, typename R>
void reduce_into(const Tensor& out, const Tensor& in, const std::vector<bool>& mask, const R& r) {
    Out* o = out.data<Out>();
    reduce_apply<T>(in, mask, r, [&](int64_t oi, const typename R::Acc& acc) { o[oi] = (Out)r.finish(acc); });
}

// Sums n values in independent lanes (vectorisable without reassociation), in chunks folded into a
// double: accurate like a short pairwise sum, and fast on float32 and float64.
template <typename T> inline double lane_sum(const T* p, int64_t n) {
    constexpr int kLanes = 16;
    constexpr int64_t kChunk = 1024;
    double total = 0;
    for (int64_t c = 0; c < n; c += kChunk) {
        int64_t m = std::min(kChunk, n - c);
        T lane[kLanes] = {};
        const T* q = p + c;
        int64_t i = 0;
        for (; i + kLanes <= m; i += kLanes) {
#pragma omp simd
            for (int l = 0; l < kLanes; ++l) lane[l] += q[i + l];
        }
        for (; i < m; ++i) lane[0] += q[i];
        T s = 0;
        for (int l = 0; l < kLanes; ++l) s += lane[l];
        total += (double)s;
    }
    return total;
}

}  // namespace ct

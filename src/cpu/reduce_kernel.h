// reduce_kernel.h - generic reduction over a set of dims of a strided tensor. Parallel over outputs when
// there are many, otherwise over the reduced elements with per-thread partials merged at the end.
//
// The reducer R provides: using Acc; Acc init() const; void step(Acc&, T value, int64_t ridx) const;
// void merge(Acc& into, const Acc& from) const; Out finish(const Acc&) const.
// ridx is the linear index of the element inside the reduced sub-space (row-major over reduced dims).
#pragma once
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

template <typename T, typename Out, typename R>
void reduce_into(const Tensor& out /* contiguous, numel = kept numel */, const Tensor& in,
                 const std::vector<bool>& mask, const R& r) {
    Shape ksz, kst, rsz, rst;
    for (int64_t d = 0; d < in.dim(); ++d) {
        if (mask[d]) rsz.push_back(in.sizes()[d]), rst.push_back(in.strides()[d]);
        else ksz.push_back(in.sizes()[d]), kst.push_back(in.strides()[d]);
    }
    int64_t n_out = 1, n_red = 1;
    for (int64_t s : ksz) n_out *= s;
    for (int64_t s : rsz) n_red *= s;
    const T* base = in.data<T>();
    Out* o = out.data<Out>();
    const int64_t nr = (int64_t)rsz.size();

    // Accumulates reduced elements [r0, r1) starting at element pointer p into acc.
    auto run_reduced = [&](const T* p, int64_t r0, int64_t r1, typename R::Acc& acc) {
        if (nr == 0) {
            r.step(acc, p[0], 0);
            return;
        }
        std::vector<int64_t> idx(nr, 0);
        int64_t off = 0, rem = r0;
        for (int64_t d = nr - 1; d >= 0; --d) {
            idx[d] = rem % rsz[d];
            rem /= rsz[d];
            off += idx[d] * rst[d];
        }
        const int64_t inner = rsz[nr - 1], ist = rst[nr - 1];
        int64_t i = r0;
        while (i < r1) {
            int64_t run = std::min(inner - idx[nr - 1], r1 - i);
            const T* q = p + off;
            for (int64_t k = 0; k < run; ++k) r.step(acc, q[k * ist], i + k);
            i += run;
            off += run * ist;
            idx[nr - 1] += run;
            for (int64_t d = nr - 1; d > 0 && idx[d] == rsz[d]; --d) {
                off -= rsz[d] * rst[d];
                idx[d] = 0;
                ++idx[d - 1];
                off += rst[d - 1];
            }
        }
    };
    auto kept_offset = [&](int64_t oi) {
        int64_t off = 0;
        for (int64_t d = (int64_t)ksz.size() - 1; d >= 0; --d) {
            off += (oi % ksz[d]) * kst[d];
            oi /= ksz[d];
        }
        return off;
    };

    int threads = get_num_threads();
    if (n_out >= threads * 4 || n_red < 65536 || threads == 1) {
        int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n_red, 1));
        parallel_for(n_out, grain, [&](int64_t b, int64_t e) {
            for (int64_t oi = b; oi < e; ++oi) {
                typename R::Acc acc = r.init();
                if (n_red > 0) run_reduced(base + kept_offset(oi), 0, n_red, acc);
                o[oi] = r.finish(acc);
            }
        });
        return;
    }
    for (int64_t oi = 0; oi < n_out; ++oi) {
        std::vector<typename R::Acc> parts(threads, r.init());
        const T* p = base + kept_offset(oi);
        parallel_for(threads, 1, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t)
                run_reduced(p, n_red * t / threads, n_red * (t + 1) / threads, parts[t]);
        });
        typename R::Acc acc = parts[0];
        for (int t = 1; t < threads; ++t) r.merge(acc, parts[t]);
        o[oi] = r.finish(acc);
    }
}

}  // namespace ct

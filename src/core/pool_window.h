// pool_window.h - the window math of 2-D pooling (PyTorch's rules: dilation, ceil_mode sizes, divisors,
// adaptive windows) as __host__ __device__ functions over ct_cuda_pool2d_ex, shared by the CPU kernels
// (ops/nn_pool.cpp) and the CUDA kernels (cuda/conv.cuh) so that both pool the same windows.
#pragma once
#include <cstdint>
#include "core/backend.h"
#include "core/scalar_math.h"  // CT_HD

namespace ct {
namespace pool {

// The input positions of one output along one axis: first, first + step, ... while < end, all inside [0, in).
// Empty (end <= first) when every tap falls in the padding.
struct Taps {
    int64_t first, end, step;
    CT_HD int64_t count() const { return end > first ? (end - first - 1) / step + 1 : 0; }
};

CT_HD inline int64_t in_size(const ct_cuda_pool2d_ex& g, int axis) { return axis ? g.base.W : g.base.H; }
CT_HD inline int64_t out_size(const ct_cuda_pool2d_ex& g, int axis) { return axis ? g.base.OW : g.base.OH; }

CT_HD inline Taps taps(const ct_cuda_pool2d_ex& g, int axis, int64_t o) {
    const int64_t in = in_size(g, axis), out = out_size(g, axis);
    if (g.adaptive) return Taps{o * in / out, ((o + 1) * in + out - 1) / out, 1};
    const int64_t k = g.base.kernel[axis], d = g.dilation[axis];
    int64_t start = o * g.base.stride[axis] - g.base.padding[axis];
    int64_t end = start + (k - 1) * d + 1;
    if (start < 0) start += (-start + d - 1) / d * d;  // the first tap at or after 0
    if (end > in) end = in;
    // one tap when the dilation passes the end: a step of end - start keeps first + step from overflowing
    return Taps{start, end, end > start && d > end - start ? end - start : d};
}

// The divisor of average pooling for output (oh, ow) (avg pooling has dilation 1); a double, as the padded window
// of a huge kernel may hold more than 2^63 positions.
CT_HD inline double divisor(const ct_cuda_pool2d_ex& g, int64_t oh, int64_t ow) {
    if (g.divisor_override > 0) return (double)g.divisor_override;
    if (g.adaptive || !g.count_include_pad) return (double)(taps(g, 0, oh).count() * taps(g, 1, ow).count());
    // window clipped to the padded input [-p, in + p), as PyTorch (ceil_mode windows may pass its end)
    int64_t span[2];
    for (int a = 0; a < 2; ++a) {
        const int64_t o = a ? ow : oh, p = g.base.padding[a], s = o * g.base.stride[a] - p;
        const int64_t e = s + g.base.kernel[a] < in_size(g, a) + p ? s + g.base.kernel[a] : in_size(g, a) + p;
        span[a] = e - s;
    }
    return (double)span[0] * (double)span[1];
}

// Outputs along one axis whose windows may hold input position h: [*first, *last] (empty when last < first).
// Exact for adaptive and undilated windows; with dilation a superset (max pooling checks the argmax anyway).
CT_HD inline void holding(const ct_cuda_pool2d_ex& g, int axis, int64_t h, int64_t* first, int64_t* last) {
    const int64_t in = in_size(g, axis), out = out_size(g, axis);
    int64_t lo, hi;
    if (g.adaptive) {  // floor(o * in / out) <= h < ceil((o + 1) * in / out)
        lo = h * out / in;
        hi = ((h + 1) * out + in - 1) / in - 1;
    } else {
        const int64_t s = g.base.stride[axis], p = g.base.padding[axis];
        const int64_t span = (g.base.kernel[axis] - 1) * g.dilation[axis] + 1, from = h + p - span + 1;
        lo = from <= 0 ? 0 : (from - 1) / s + 1;  // ceil(from / s) without from + s - 1 (s may be near 2^63)
        hi = (h + p) / s;
    }
    *first = lo;
    *last = hi < out - 1 ? hi : out - 1;
}

}  // namespace pool
}  // namespace ct

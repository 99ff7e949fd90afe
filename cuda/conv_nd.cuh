// conv_nd.cuh - kernels of the N-d convolution (ct_cuda_conv_nd, 3 normalised spatial dims): im2col (any col
// layout) and col2im as a gather (one thread per input element sums the taps that read it: no atomics,
// deterministic). One thread per element, no shared memory, so cuda/emulation.h runs them as they are.
#pragma once
#include "cuda/conv.cuh"

namespace ct {
namespace cuda {

template <typename T>
__global__ void im2col_nd_kernel(ct_cuda_conv_nd g, int64_t count, const T* x, T* col, int64_t s0, int64_t s1,
                                 int64_t s2) {
    const int64_t P = g.out[0] * g.out[1] * g.out[2], taps = g.k[0] * g.k[1] * g.k[2], rows = g.C * taps;
    const int64_t X = g.in[0] * g.in[1] * g.in[2], Cg = g.C / g.groups, total = count * rows * P;
    for (int64_t t = first_index(); t < total; t += index_step()) {
        const int64_t p = t % P, row = t / P % rows, n = t / (P * rows);
        const int64_t c = row / taps, tap = row % taps;
        const int64_t q[3] = {p / (g.out[1] * g.out[2]), p / g.out[2] % g.out[1], p % g.out[2]};
        const int64_t kk[3] = {tap / (g.k[1] * g.k[2]), tap / g.k[2] % g.k[1], tap % g.k[2]};
        int64_t pos = 0;
        bool inside = true;
        for (int d = 0; d < 3; ++d) {
            const int64_t i = q[d] * g.stride[d] - g.padding[d] + kk[d] * g.dilation[d];
            inside = inside && i >= 0 && i < g.in[d];
            pos = pos * g.in[d] + i;
        }
        const int64_t grp = c / Cg, r = row - grp * Cg * taps;
        col[n * s0 + grp * s1 + r * s2 + p] = inside ? x[(n * g.C + c) * X + pos] : T(0);
    }
}

// x[n, c, i] = sum over taps t and output positions q with q * s - p + t * d = i in every dim.
template <typename T> __global__ void col2im_nd_kernel(ct_cuda_conv_nd g, int64_t count, const T* col, T* x) {
    const int64_t P = g.out[0] * g.out[1] * g.out[2], taps = g.k[0] * g.k[1] * g.k[2];
    const int64_t X = g.in[0] * g.in[1] * g.in[2], total = count * g.C * X;
    for (int64_t t = first_index(); t < total; t += index_step()) {
        const int64_t e = t % X, nc = t / X;  // nc = n * C + c
        const int64_t i[3] = {e / (g.in[1] * g.in[2]), e / g.in[2] % g.in[1], e % g.in[2]};
        const T* rows = col + nc * taps * P;
        T acc = T(0);
        for (int64_t tap = 0; tap < taps; ++tap) {
            const int64_t kk[3] = {tap / (g.k[1] * g.k[2]), tap / g.k[2] % g.k[1], tap % g.k[2]};
            int64_t q = 0;
            bool hit = true;
            for (int d = 0; d < 3 && hit; ++d) {
                const int64_t s = i[d] + g.padding[d] - kk[d] * g.dilation[d];
                hit = s >= 0 && s % g.stride[d] == 0 && s / g.stride[d] < g.out[d];
                q = q * g.out[d] + s / g.stride[d];
            }
            if (hit) acc += rows[tap * P + q];
        }
        x[t] = acc;
    }
}

inline bool conv_nd_geom_ok(const ct_cuda_conv_nd* g) {
    if (!g || g->C < 0 || g->groups <= 0 || g->C % g->groups != 0) return false;
    for (int d = 0; d < 3; ++d)
        if (g->in[d] < 0 || g->k[d] <= 0 || g->out[d] < 0 || g->stride[d] <= 0 || g->padding[d] < 0 ||
            g->dilation[d] <= 0)
            return false;
    return true;
}

inline int32_t launch_im2col_nd(LaunchConfig c, cudaStream_t s, int32_t dtype, const ct_cuda_conv_nd* g,
                                int64_t count, const void* x, void* col, const int64_t* st) {
    if (!conv_nd_geom_ok(g) || count < 0 || !st) return CT_ERR_INVALID_ARGUMENT;
    const int64_t total = count * g->C * g->k[0] * g->k[1] * g->k[2] * g->out[0] * g->out[1] * g->out[2];
    bool ok = dispatch_conv_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (total == 0) return;
        auto* k = &im2col_nd_kernel<T>;
        CT_LAUNCH(k, blocks_for(total, c), c.threads, s, *g, count, static_cast<const T*>(x), static_cast<T*>(col),
                  st[0], st[1], st[2]);
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

inline int32_t launch_col2im_nd(LaunchConfig c, cudaStream_t s, int32_t dtype, const ct_cuda_conv_nd* g,
                                int64_t count, const void* col, void* x) {
    if (!conv_nd_geom_ok(g) || count < 0) return CT_ERR_INVALID_ARGUMENT;
    const int64_t total = count * g->C * g->in[0] * g->in[1] * g->in[2];
    bool ok = dispatch_conv_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (total == 0) return;
        auto* k = &col2im_nd_kernel<T>;
        CT_LAUNCH(k, blocks_for(total, c), c.threads, s, *g, count, static_cast<const T*>(col), static_cast<T*>(x));
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

}  // namespace cuda
}  // namespace ct

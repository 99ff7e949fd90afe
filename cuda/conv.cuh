// conv.cuh - kernels of conv2d and pooling: im2col (any col layout, for the forward and the weight gradient),
// col2im as a gather (one thread per input element sums the taps that read it: no atomics, deterministic),
// max/avg/adaptive pooling forward, their backward as gathers over the windows holding an element, the argmax gather.
// One thread per output element; no shared memory, so cuda/emulation.h runs them as they are.
#pragma once
#include "core/dtype.h"
#include "core/pool_window.h"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

template <typename T>
__global__ void im2col_kernel(ct_cuda_conv2d g, int64_t count, const T* x, T* col, int64_t s0, int64_t s1,
                              int64_t s2) {
    const int64_t P = g.OH * g.OW, taps = g.KH * g.KW, rows = g.C * taps, Cg = g.C / g.groups;
    const int64_t total = count * rows * P;
    for (int64_t t = first_index(); t < total; t += index_step()) {
        const int64_t p = t % P, row = t / P % rows, n = t / (P * rows);
        const int64_t c = row / taps, i = row / g.KW % g.KH, j = row % g.KW;
        const int64_t oh = p / g.OW, ow = p % g.OW;
        const int64_t ih = oh * g.stride[0] - g.padding[0] + i * g.dilation[0];
        const int64_t iw = ow * g.stride[1] - g.padding[1] + j * g.dilation[1];
        const bool inside = ih >= 0 && ih < g.H && iw >= 0 && iw < g.W;
        const int64_t grp = c / Cg, r = row - grp * Cg * taps;
        col[n * s0 + grp * s1 + r * s2 + p] = inside ? x[((n * g.C + c) * g.H + ih) * g.W + iw] : T(0);
    }
}

// x[n, c, h, w] = sum over taps (i, j) and output positions (oh, ow) with oh * sh - ph + i * dh = h (same for w).
template <typename T> __global__ void col2im_kernel(ct_cuda_conv2d g, int64_t count, const T* col, T* x) {
    const int64_t P = g.OH * g.OW, total = count * g.C * g.H * g.W;
    for (int64_t t = first_index(); t < total; t += index_step()) {
        const int64_t w = t % g.W, h = t / g.W % g.H, nc = t / (g.W * g.H);  // nc = n * C + c
        const T* rows = col + nc * g.KH * g.KW * P;
        T acc = T(0);
        for (int64_t i = 0; i < g.KH; ++i) {
            const int64_t th = h + g.padding[0] - i * g.dilation[0];
            if (th < 0 || th % g.stride[0] != 0 || th / g.stride[0] >= g.OH) continue;
            for (int64_t j = 0; j < g.KW; ++j) {
                const int64_t tw = w + g.padding[1] - j * g.dilation[1];
                if (tw < 0 || tw % g.stride[1] != 0 || tw / g.stride[1] >= g.OW) continue;
                acc += rows[(i * g.KW + j) * P + th / g.stride[0] * g.OW + tw / g.stride[1]];
            }
        }
        x[t] = acc;
    }
}

// ---- pooling (window math in core/pool_window.h, shared with the CPU) ----

template <typename T, bool Max>
__global__ void pool_kernel(ct_cuda_pool2d_ex g, const T* x, T* out, int64_t* out_idx) {
    const int64_t OH = g.base.OH, OW = g.base.OW, H = g.base.H, W = g.base.W, total = g.base.planes * OH * OW;
    for (int64_t t = first_index(); t < total; t += index_step()) {
        const int64_t ow = t % OW, oh = t / OW % OH, pl = t / (OW * OH);
        const pool::Taps th = pool::taps(g, 0, oh), tw = pool::taps(g, 1, ow);
        const T* xp = x + pl * H * W;
        if (Max) {  // row-major scan: the first maximum wins, a NaN is always taken (like the CPU and PyTorch)
            T best = -INFINITY;
            int64_t at = th.count() && tw.count() ? th.first * W + tw.first : -1;
            for (int64_t h = th.first; h < th.end; h += th.step)
                for (int64_t w = tw.first; w < tw.end; w += tw.step) {
                    const T v = xp[h * W + w];
                    if (v > best || v != v) {
                        best = v;
                        at = h * W + w;
                    }
                }
            out[t] = best;
            out_idx[t] = at;
        } else {
            T s = T(0);
            for (int64_t h = th.first; h < th.end; h += th.step)
                for (int64_t w = tw.first; w < tw.end; w += tw.step) s += xp[h * W + w];
            out[t] = s / (T)pool::divisor(g, oh, ow);
        }
    }
}

// gx[pl, h, w] = sum of g over the outputs whose window holds (h, w) and (max) whose argmax is (h, w).
template <typename T, bool Max>
__global__ void pool_backward_kernel(ct_cuda_pool2d_ex g, const T* go, const int64_t* idx, T* gx) {
    const int64_t OH = g.base.OH, OW = g.base.OW, H = g.base.H, W = g.base.W, total = g.base.planes * H * W;
    for (int64_t t = first_index(); t < total; t += index_step()) {
        const int64_t w = t % W, h = t / W % H, pl = t / (W * H);
        int64_t oh0, oh1, ow0, ow1;
        pool::holding(g, 0, h, &oh0, &oh1);
        pool::holding(g, 1, w, &ow0, &ow1);
        const int64_t base = pl * OH * OW, here = h * W + w;
        T acc = T(0);
        for (int64_t oh = oh0; oh <= oh1; ++oh)
            for (int64_t ow = ow0; ow <= ow1; ++ow) {
                const int64_t o = base + oh * OW + ow;
                if (Max) {
                    if (idx[o] == here) acc += go[o];
                } else {
                    acc += go[o] / (T)pool::divisor(g, oh, ow);
                }
            }
        gx[t] = acc;
    }
}

// out[pl, o] = src[pl, idx] (0 where idx is -1: a window of padding only).
template <typename T>
__global__ void pool_gather_kernel(ct_cuda_pool2d_ex g, const T* src, const int64_t* idx, T* out) {
    const int64_t P = g.base.OH * g.base.OW, total = g.base.planes * P;
    for (int64_t t = first_index(); t < total; t += index_step())
        out[t] = idx[t] < 0 ? T(0) : src[t / P * g.base.H * g.base.W + idx[t]];
}

// ---- launchers: a ct_status; CT_ERR_DTYPE / CT_ERR_INVALID_ARGUMENT for a bad request (nothing launched) ----

// Runs body(T tag) for float32/float64; false for other dtypes.
template <typename Body> bool dispatch_conv_dtype(int32_t dtype, Body body) {
    if (dtype == CT_FLOAT32) body(float());
    else if (dtype == CT_FLOAT64) body(double());
    else return false;
    return true;
}

inline bool conv_geom_ok(const ct_cuda_conv2d* g) {
    if (!g || g->C < 0 || g->H < 0 || g->W < 0 || g->KH <= 0 || g->KW <= 0 || g->OH < 0 || g->OW < 0) return false;
    if (g->groups <= 0 || g->C % g->groups != 0) return false;
    for (int d = 0; d < 2; ++d)
        if (g->stride[d] <= 0 || g->padding[d] < 0 || g->dilation[d] <= 0) return false;
    return true;
}

inline int32_t launch_im2col(LaunchConfig c, cudaStream_t s, int32_t dtype, const ct_cuda_conv2d* g, int64_t count,
                             const void* x, void* col, const int64_t* st) {
    if (!conv_geom_ok(g) || count < 0 || !st) return CT_ERR_INVALID_ARGUMENT;
    const int64_t total = count * g->C * g->KH * g->KW * g->OH * g->OW;
    bool ok = dispatch_conv_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (total == 0) return;
        auto* k = &im2col_kernel<T>;
        CT_LAUNCH(k, blocks_for(total, c), c.threads, s, *g, count, static_cast<const T*>(x), static_cast<T*>(col),
                  st[0], st[1], st[2]);
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

inline int32_t launch_col2im(LaunchConfig c, cudaStream_t s, int32_t dtype, const ct_cuda_conv2d* g, int64_t count,
                             const void* col, void* x) {
    if (!conv_geom_ok(g) || count < 0) return CT_ERR_INVALID_ARGUMENT;
    const int64_t total = count * g->C * g->H * g->W;
    bool ok = dispatch_conv_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (total == 0) return;
        auto* k = &col2im_kernel<T>;
        CT_LAUNCH(k, blocks_for(total, c), c.threads, s, *g, count, static_cast<const T*>(col), static_cast<T*>(x));
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

inline bool pool_geom_ok(const ct_cuda_pool2d_ex* ge) {
    if (!ge) return false;
    const ct_cuda_pool2d* g = &ge->base;
    if (g->planes < 0 || g->H < 0 || g->W < 0 || g->OH < 0 || g->OW < 0) return false;
    if (ge->adaptive) return (g->H > 0 && g->W > 0) || g->planes * g->OH * g->OW == 0;
    for (int d = 0; d < 2; ++d)
        if (g->kernel[d] <= 0 || g->stride[d] <= 0 || g->padding[d] < 0 || ge->dilation[d] <= 0) return false;
    return ge->divisor_override >= 0;
}

inline int32_t launch_pool2d_ex(LaunchConfig c, cudaStream_t s, int32_t dtype, int32_t op, const ct_cuda_pool2d_ex* ge,
                                const void* in, const int64_t* idx, void* out, int64_t* out_idx) {
    if (!pool_geom_ok(ge) || op < 0 || op >= CT_CUDA_NUM_POOL_OPS) return CT_ERR_INVALID_ARGUMENT;
    if ((op == CT_CUDA_MAX_POOL && !out_idx) ||
        ((op == CT_CUDA_MAX_POOL_BACKWARD || op == CT_CUDA_MAX_POOL_GATHER) && !idx))
        return CT_ERR_INVALID_ARGUMENT;
    const ct_cuda_pool2d* g = &ge->base;
    const bool to_input = op == CT_CUDA_MAX_POOL_BACKWARD || op == CT_CUDA_AVG_POOL_BACKWARD;
    const int64_t total = g->planes * (to_input ? g->H * g->W : g->OH * g->OW);
    bool ok = dispatch_conv_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (total == 0) return;
        const T* src = static_cast<const T*>(in);
        T* dst = static_cast<T*>(out);
        const unsigned blocks = blocks_for(total, c);
        if (op == CT_CUDA_MAX_POOL || op == CT_CUDA_AVG_POOL) {
            auto* k = op == CT_CUDA_MAX_POOL ? &pool_kernel<T, true> : &pool_kernel<T, false>;
            CT_LAUNCH(k, blocks, c.threads, s, *ge, src, dst, out_idx);
        } else if (to_input) {
            auto* k = op == CT_CUDA_MAX_POOL_BACKWARD ? &pool_backward_kernel<T, true> : &pool_backward_kernel<T, false>;
            CT_LAUNCH(k, blocks, c.threads, s, *ge, src, idx, dst);
        } else {
            auto* k = &pool_gather_kernel<T>;
            CT_LAUNCH(k, blocks, c.threads, s, *ge, src, idx, dst);
        }
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

// The first pool2d entry: PyTorch's defaults (no dilation, count_include_pad, no divisor override).
inline int32_t launch_pool2d(LaunchConfig c, cudaStream_t s, int32_t dtype, int32_t op, const ct_cuda_pool2d* g,
                             const void* in, const int64_t* idx, void* out, int64_t* out_idx) {
    if (!g) return CT_ERR_INVALID_ARGUMENT;
    const ct_cuda_pool2d_ex ge{*g, {1, 1}, 0, 1, 0};
    return launch_pool2d_ex(c, s, dtype, op, &ge, in, idx, out, out_idx);
}

}  // namespace cuda
}  // namespace ct

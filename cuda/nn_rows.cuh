// nn_rows.cuh - row kernels of the nn family: softmax / log_softmax and their backward along the middle dim of
// [outer, n, inner], the class losses (cross entropy, nll) per row, and the elementwise losses. Under nvcc a warp
// handles a row (lanes stride the row, shuffles combine them); under cuda/emulation.h a "warp" is one thread,
// so the same kernels run on the CPU in CI. The per-element math is shared (core/loss_math.h).
#pragma once
#include "core/dtype.h"
#include "core/loss_math.h"
#include "cuda/half_types.cuh"
#include "cuda/launch.cuh"
#include "ctensor.h"

namespace ct {
namespace cuda {

#if defined(__CUDACC__) && !defined(CT_CUDA_EMULATION)
constexpr int kRowLanes = 32;  // one warp per row
template <typename A> __device__ inline A lanes_sum(A v) {
    for (int o = kRowLanes / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
template <typename A> __device__ inline A lanes_max(A v) {
    for (int o = kRowLanes / 2; o > 0; o /= 2) v = math::Maximum{}(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
#else
constexpr int kRowLanes = 1;
template <typename A> inline A lanes_sum(A v) { return v; }
template <typename A> inline A lanes_max(A v) { return v; }
#endif

// The grid-stride loop over rows: every lane of a warp sees the same rows, so the shuffles stay converged
// (blockDim is a multiple of kRowLanes).
__device__ inline int64_t first_row() { return first_index() / kRowLanes; }
__device__ inline int64_t row_step() { return index_step() / kRowLanes; }
__device__ inline int lane() { return (int)(first_index() % kRowLanes); }

// Row r of [outer, n, inner]: its first element and the step between its elements.
struct RowAt {
    int64_t base, step;
};
__device__ inline RowAt row_at(int64_t r, int64_t n, int64_t inner) {
    return RowAt{(r / inner) * n * inner + r % inner, inner};
}

// Storage type S (float16/bfloat16 included: loaded as float, computed in float, rounded once on store, Note
// [CUDA half kernels]); T = compute_t<S>. For a half S the output equals the float32 kernel's on the float32
// values, rounded: the op-level fallback's result, bit for bit.
template <typename S, bool Log>
__global__ void softmax_kernel(int64_t rows, int64_t n, int64_t inner, const S* x, S* y) {
    using T = compute_t<S>;
    for (int64_t r = first_row(); r < rows; r += row_step()) {
        const RowAt R = row_at(r, n, inner);
        T mx = -INFINITY;
        for (int64_t j = lane(); j < n; j += kRowLanes) mx = math::Maximum{}(mx, load(x[R.base + j * R.step]));
        mx = lanes_max(mx);
        double s = 0;  // the CPU also sums the exponentials in double
        for (int64_t j = lane(); j < n; j += kRowLanes) s += (double)std::exp(load(x[R.base + j * R.step]) - mx);
        s = lanes_sum(s);
        const T ls = (T)std::log(s), inv = (T)(1.0 / s);  // (x - max) - log(s), as on the CPU
        for (int64_t j = lane(); j < n; j += kRowLanes) {
            const int64_t i = R.base + j * R.step;
            const T xi = load(x[i]);
            y[i] = store<S>(Log ? (xi - mx) - ls : std::exp(xi - mx) * inv);
        }
    }
}

// softmax: gx = y * (g - sum(g * y)); log_softmax: gx = g - exp(y) * sum(g). Storage S as softmax_kernel (a half
// y is the rounded forward output, as torch saves it).
template <typename S, bool Log>
__global__ void softmax_backward_kernel(int64_t rows, int64_t n, int64_t inner, const S* g, const S* y, S* gx) {
    using T = compute_t<S>;
    for (int64_t r = first_row(); r < rows; r += row_step()) {
        const RowAt R = row_at(r, n, inner);
        double acc = 0;
        for (int64_t j = lane(); j < n; j += kRowLanes) {
            const int64_t i = R.base + j * R.step;
            acc += Log ? (double)load(g[i]) : (double)load(g[i]) * (double)load(y[i]);
        }
        const T s = (T)lanes_sum(acc);
        for (int64_t j = lane(); j < n; j += kRowLanes) {
            const int64_t i = R.base + j * R.step;
            const T gi = load(g[i]), yi = load(y[i]);
            gx[i] = store<S>(Log ? gi - std::exp(yi) * s : yi * (gi - s));
        }
    }
}

// Per row of x [rows, classes]: cross entropy (lse - x[cls]) or nll (-x[cls]); 0 for ignored rows (cls < 0).
template <typename T, bool CrossEntropy>
__global__ void class_loss_kernel(int64_t rows, int64_t classes, const T* x, const int64_t* cls, T* loss, T* lse) {
    for (int64_t r = first_row(); r < rows; r += row_step()) {
        const T* row = x + r * classes;
        const int64_t c = cls[r];
        T l = T(0);
        if (CrossEntropy) {
            T mx = -INFINITY;
            for (int64_t j = lane(); j < classes; j += kRowLanes) mx = math::Maximum{}(mx, row[j]);
            mx = lanes_max(mx);
            double s = 0;
            for (int64_t j = lane(); j < classes; j += kRowLanes) s += (double)std::exp(row[j] - mx);
            s = lanes_sum(s);
            const T row_lse = (T)((double)mx + std::log(s));
            if (c >= 0) l = row_lse - row[c];
            if (lane() == 0) lse[r] = row_lse;
        } else if (c >= 0) {
            l = -row[c];
        }
        if (lane() == 0) loss[r] = l;
    }
}

template <typename T, bool CrossEntropy>
__global__ void class_loss_backward_kernel(int64_t rows, int64_t classes, const T* x, const T* lse,
                                           const int64_t* cls, const T* g, int32_t g_per_row, T scale, T* gx) {
    for (int64_t r = first_row(); r < rows; r += row_step()) {
        const int64_t c = cls[r];
        const T w = c < 0 ? T(0) : scale * (g_per_row ? g[r] : g[0]);
        for (int64_t j = lane(); j < classes; j += kRowLanes) {
            const int64_t i = r * classes + j;
            T v = CrossEntropy ? w * std::exp(x[i] - lse[r]) : T(0);
            if (j == c) v -= w;
            gx[i] = v;
        }
    }
}

template <typename T, typename Loss> __global__ void pointwise_loss_kernel(int64_t n, const T* x, const T* t, T* out) {
    for (int64_t i = first_index(); i < n; i += index_step()) out[i] = Loss::value(x[i], t[i]);
}

template <typename T, typename Loss>
__global__ void pointwise_loss_backward_kernel(int64_t n, const T* x, const T* t, const T* g, int32_t per_elem,
                                               T scale, T* gx, T* gt) {
    for (int64_t i = first_index(); i < n; i += index_step()) {
        const T gi = scale * (per_elem ? g[i] : g[0]);
        if (gx) gx[i] = gi * Loss::dx(x[i], t[i]);
        if (gt) gt[i] = gi * Loss::dt(x[i], t[i]);
    }
}

// ---- launchers: a ct_status; CT_ERR_DTYPE / CT_ERR_INVALID_ARGUMENT for a bad request (nothing launched) ----

inline unsigned row_blocks(int64_t rows, LaunchConfig c) { return blocks_for(rows * kRowLanes, c); }

// Runs body(T tag) for float32/float64; false for other dtypes.
template <typename Body> bool dispatch_floating(int32_t dtype, Body body) {
    if (dtype == CT_FLOAT32) body(float());
    else if (dtype == CT_FLOAT64) body(double());
    else return false;
    return true;
}

// dispatch_floating plus the half storage types (the entries that take them natively).
template <typename Body> bool dispatch_floating_half(int32_t dtype, Body body) {
    if (dtype == CT_FLOAT16) body(half_t());
    else if (dtype == CT_BFLOAT16) body(bfloat16_t());
    else return dispatch_floating(dtype, body);
    return true;
}

inline int32_t launch_softmax(LaunchConfig c, cudaStream_t s, int32_t dtype, bool log_, int64_t outer, int64_t n,
                              int64_t inner, const void* x, void* y) {
    if (outer < 0 || n < 0 || inner < 0) return CT_ERR_INVALID_ARGUMENT;
    const int64_t rows = outer * inner;
    bool ok = dispatch_floating_half(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (rows == 0 || n == 0) return;
        auto* k = log_ ? &softmax_kernel<T, true> : &softmax_kernel<T, false>;
        CT_LAUNCH(k, row_blocks(rows, c), c.threads, s, rows, n, inner, static_cast<const T*>(x), static_cast<T*>(y));
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

inline int32_t launch_softmax_backward(LaunchConfig c, cudaStream_t s, int32_t dtype, bool log_, int64_t outer,
                                       int64_t n, int64_t inner, const void* g, const void* y, void* gx) {
    if (outer < 0 || n < 0 || inner < 0) return CT_ERR_INVALID_ARGUMENT;
    const int64_t rows = outer * inner;
    bool ok = dispatch_floating_half(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (rows == 0 || n == 0) return;
        auto* k = log_ ? &softmax_backward_kernel<T, true> : &softmax_backward_kernel<T, false>;
        CT_LAUNCH(k, row_blocks(rows, c), c.threads, s, rows, n, inner, static_cast<const T*>(g),
                  static_cast<const T*>(y), static_cast<T*>(gx));
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

inline int32_t launch_class_loss(LaunchConfig c, cudaStream_t s, int32_t dtype, int32_t op, int64_t rows,
                                 int64_t classes, const void* x, const int64_t* cls, void* loss, void* lse) {
    if (rows < 0 || classes <= 0 || op < 0 || op >= CT_CUDA_NUM_CLASS_LOSS_OPS) return CT_ERR_INVALID_ARGUMENT;
    if (op == CT_CUDA_CROSS_ENTROPY && !lse) return CT_ERR_INVALID_ARGUMENT;
    bool ok = dispatch_floating(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (rows == 0) return;
        auto* k = op == CT_CUDA_CROSS_ENTROPY ? &class_loss_kernel<T, true> : &class_loss_kernel<T, false>;
        CT_LAUNCH(k, row_blocks(rows, c), c.threads, s, rows, classes, static_cast<const T*>(x), cls,
                  static_cast<T*>(loss), static_cast<T*>(lse));
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

inline int32_t launch_class_loss_backward(LaunchConfig c, cudaStream_t s, int32_t dtype, int32_t op, int64_t rows,
                                          int64_t classes, const void* x, const void* lse, const int64_t* cls,
                                          const void* g, int32_t g_per_row, double scale, void* gx) {
    if (rows < 0 || classes <= 0 || op < 0 || op >= CT_CUDA_NUM_CLASS_LOSS_OPS) return CT_ERR_INVALID_ARGUMENT;
    if (op == CT_CUDA_CROSS_ENTROPY && (!x || !lse)) return CT_ERR_INVALID_ARGUMENT;
    bool ok = dispatch_floating(dtype, [&](auto tag) {
        using T = decltype(tag);
        if (rows == 0) return;
        auto* k = op == CT_CUDA_CROSS_ENTROPY ? &class_loss_backward_kernel<T, true>
                                              : &class_loss_backward_kernel<T, false>;
        CT_LAUNCH(k, row_blocks(rows, c), c.threads, s, rows, classes, static_cast<const T*>(x),
                  static_cast<const T*>(lse), cls, static_cast<const T*>(g), g_per_row, (T)scale, static_cast<T*>(gx));
    });
    return ok ? CT_OK : CT_ERR_DTYPE;
}

// Runs body(Loss tag) for a ct_cuda_loss_op; false for an unknown op.
template <typename Body> bool dispatch_loss(int32_t op, Body body) {
    switch (op) {
    case CT_CUDA_LOSS_MSE: body(math::MseLossMath()); return true;
    case CT_CUDA_LOSS_BCE: body(math::BceLossMath()); return true;
    case CT_CUDA_LOSS_BCE_WITH_LOGITS: body(math::BceWithLogitsLossMath()); return true;
    default: return false;
    }
}

inline int32_t launch_pointwise_loss(LaunchConfig c, cudaStream_t s, int32_t dtype, int32_t op, int64_t n,
                                     const void* x, const void* t, void* out) {
    if (n < 0) return CT_ERR_INVALID_ARGUMENT;
    bool op_ok = true;
    bool ok = dispatch_floating(dtype, [&](auto tag) {
        using T = decltype(tag);
        op_ok = dispatch_loss(op, [&](auto loss) {
            if (n == 0) return;
            auto* k = &pointwise_loss_kernel<T, decltype(loss)>;
            CT_LAUNCH(k, blocks_for(n, c), c.threads, s, n, static_cast<const T*>(x), static_cast<const T*>(t),
                      static_cast<T*>(out));
        });
    });
    return !ok ? CT_ERR_DTYPE : op_ok ? CT_OK : CT_ERR_INVALID_ARGUMENT;
}

inline int32_t launch_pointwise_loss_backward(LaunchConfig c, cudaStream_t s, int32_t dtype, int32_t op, int64_t n,
                                              const void* x, const void* t, const void* g, int32_t per_elem,
                                              double scale, void* gx, void* gt) {
    if (n < 0) return CT_ERR_INVALID_ARGUMENT;
    bool op_ok = true;
    bool ok = dispatch_floating(dtype, [&](auto tag) {
        using T = decltype(tag);
        op_ok = dispatch_loss(op, [&](auto loss) {
            if (n == 0) return;
            auto* k = &pointwise_loss_backward_kernel<T, decltype(loss)>;
            CT_LAUNCH(k, blocks_for(n, c), c.threads, s, n, static_cast<const T*>(x), static_cast<const T*>(t),
                      static_cast<const T*>(g), per_elem, (T)scale, static_cast<T*>(gx), static_cast<T*>(gt));
        });
    });
    return !ok ? CT_ERR_DTYPE : op_ok ? CT_OK : CT_ERR_INVALID_ARGUMENT;
}

}  // namespace cuda
}  // namespace ct

// nn_interpolate.cpp - interpolate / Upsample (nearest, nearest-exact, linear/bilinear/trilinear, bicubic, area) on
// [N, C, d1..dk] tensors, k = 1..3. Every mode but area is separable: per spatial axis a table of taps (input index,
// weight) per output index, computed once with torch 1.13's source-index formulas, then one kernel over the tap
// product, an output line at a time (Note [Resample plan]). Area is adaptive average pooling. CPU kernels; CUDA
// through differentiable host copies.
#include <algorithm>
#include <cmath>
#include <memory>
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "core/checked_math.h"
#include "cpu/parallel.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

const char* kOp = "interpolate";

// Note [Resample plan]: a resample is linear in its input. Spatial axis a maps output index o to taps
// idx[o * taps + t] with weights w[o * taps + t]; out[o0, o1, o2] = sum_t0 w0 * (sum_t1 w1 * (sum_t2 w2 * x[i0, i1,
// i2])) (torch's nesting order, outermost axis first). With k < 3 spatial dims the leading axes are padding: in =
// out = 1, one tap of weight 1 (exact, so they change nothing), and the last spatial dim stays the innermost loop.
// The backward scatters the same weights (the adjoint), and is itself linear in the gradient, so its own backward
// is the forward: both are differentiable to any order. (torch 1.13's nearest and bicubic backwards copy the
// gradient of a same-size axis even when a scale_factor made the forward sample it elsewhere; ours is always the
// forward's adjoint.) The tables hold out * taps entries per axis, so they are bounded by the result, and are
// built only after the result has been allocated.
struct Axis {
    int64_t in = 1, out = 1, taps = 1;
    std::vector<int64_t> idx{0};
    std::vector<double> w{1.0};  // values computed in the dtype's arithmetic (float for float32), stored exactly
};

struct Plan {
    int64_t planes = 0;  // N * C
    Axis ax[3];
    Shape in_shape, out_shape;
};

// torch's area_pixel_compute_scale (T = the dtype's arithmetic).
template <typename T> T source_scale(int64_t in, int64_t out, bool align, std::optional<double> scale) {
    if (align) return out > 1 ? (T)(in - 1) / (T)(out - 1) : T(0);
    return scale && *scale > 0 ? (T)(1.0 / *scale) : (T)in / (T)out;
}

// torch's area_pixel_compute_source_index: half-pixel centres unless align_corners; clamped at 0 except for cubic.
template <typename T> T source_index(T scale, int64_t o, bool align, bool cubic) {
    if (align) return scale * (T)o;
    T src = (T)((double)scale * ((double)o + 0.5) - 0.5);
    return (!cubic && src < 0) ? T(0) : src;
}

// torch's cubic convolution weights (A = -0.75) for the four taps around a fractional offset t.
template <typename T> void cubic_weights(T t, T w[4]) {
    const T A = T(-0.75);
    auto conv1 = [A](T x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };
    auto conv2 = [A](T x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };
    w[0] = conv2(t + 1);
    w[1] = conv1(t);
    w[2] = conv1(1 - t);
    w[3] = conv2(2 - t);
}

template <typename T> Axis make_axis(int32_t mode, int64_t in, int64_t out, bool align, std::optional<double> scale) {
    Axis a;
    a.in = in;
    a.out = out;
    a.taps = mode == CT_INTERP_LINEAR ? 2 : mode == CT_INTERP_BICUBIC ? 4 : 1;
    a.idx.assign((size_t)(out * a.taps), 0);
    a.w.assign((size_t)(out * a.taps), 0.0);
    for (int64_t o = 0; o < out; ++o) {
        int64_t* id = &a.idx[(size_t)(o * a.taps)];
        double* w = &a.w[(size_t)(o * a.taps)];
        if (mode == CT_INTERP_NEAREST || mode == CT_INTERP_NEAREST_EXACT) {
            // torch computes nearest indices in float whatever the dtype: floor(o * s) or floor((o + 0.5) * s)
            const float s = source_scale<float>(in, out, false, scale);
            const float f = mode == CT_INTERP_NEAREST ? (float)o * s : (float)(((double)o + 0.5) * (double)s);
            id[0] = std::min((int64_t)std::floor(f), in - 1);
            w[0] = 1.0;
        } else if (mode == CT_INTERP_LINEAR) {
            if (in == out) {  // torch copies an axis whose size does not change (whatever the scale)
                id[0] = id[1] = o;
                w[0] = 1.0;
                continue;
            }
            const T src = source_index<T>(source_scale<T>(in, out, align, scale), o, align, false);
            // src >= 0; the cap keeps a float32 index past 2^24 that rounded up inside the input
            const int64_t i0 = std::min((int64_t)src, in - 1);
            id[0] = i0;
            id[1] = i0 + (i0 < in - 1 ? 1 : 0);
            const T l1 = src - (T)i0;
            w[0] = (double)(T(1) - l1);
            w[1] = (double)l1;
        } else {  // bicubic: four taps around floor(src), clamped to the edge
            const T src = source_index<T>(source_scale<T>(in, out, align, scale), o, align, true);
            const int64_t i0 = (int64_t)std::floor(src);
            T cw[4];
            cubic_weights<T>(src - (T)i0, cw);
            for (int t = 0; t < 4; ++t) {
                id[t] = std::max<int64_t>(0, std::min(i0 - 1 + t, in - 1));
                w[t] = (double)cw[t];
            }
        }
    }
    return a;
}

// acc[o] += scale * sum_t w[o * K + t] * row[idx[o * K + t]] over the innermost axis's n outputs (K taps each).
template <typename T, int K>
void gather_line(const T* row, const int64_t* idx, const T* w, int64_t n, T scale, T* acc) {
    for (int64_t o = 0; o < n; ++o) {
        T s = 0;
        for (int t = 0; t < K; ++t) s += w[o * K + t] * row[idx[o * K + t]];
        acc[o] += scale * s;
    }
}

// row[idx[o * K + t]] += (c * w[o * K + t]) * g[o]: the adjoint of gather_line (torch's weight-product order).
template <typename T, int K> void scatter_line(T* row, const int64_t* idx, const T* w, int64_t n, T c, const T* g) {
    for (int64_t o = 0; o < n; ++o)
        for (int t = 0; t < K; ++t) row[idx[o * K + t]] += (c * w[o * K + t]) * g[o];
}

// The innermost axis's line functions for its tap count (1 nearest, 2 linear, 4 cubic).
template <typename T> struct Lines {
    void (*gather)(const T*, const int64_t*, const T*, int64_t, T, T*);
    void (*scatter)(T*, const int64_t*, const T*, int64_t, T, const T*);
    explicit Lines(int64_t taps)
        : gather(taps == 1 ? gather_line<T, 1> : taps == 2 ? gather_line<T, 2> : gather_line<T, 4>),
          scatter(taps == 1 ? scatter_line<T, 1> : taps == 2 ? scatter_line<T, 2> : scatter_line<T, 4>) {}
};

// y = resample of x (both contiguous host tensors of the plan's shapes), an output line at a time: for each
// (o0, o1) the innermost sums of every (t0, t1) tap pair are weighted into acc1, and acc1 into the line (Note
// [Resample plan]'s order, so the rounding is torch's). Planes run in parallel.
template <typename T> void forward_kernel(const Plan& p, const T* x, T* y) {
    const Axis &a0 = p.ax[0], &a1 = p.ax[1], &a2 = p.ax[2];
    const int64_t in_plane = a0.in * a1.in * a2.in, out_plane = a0.out * a1.out * a2.out;
    const std::vector<T> w0(a0.w.begin(), a0.w.end()), w1(a1.w.begin(), a1.w.end()), w2(a2.w.begin(), a2.w.end());
    const Lines<T> lines(a2.taps);
    parallel_for(p.planes, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, out_plane)), [&](int64_t p0, int64_t p1) {
        std::vector<T> acc1((size_t)a2.out);
        for (int64_t pl = p0; pl < p1; ++pl) {
            const T* xp = x + pl * in_plane;
            T* yp = y + pl * out_plane;
            for (int64_t o0 = 0; o0 < a0.out; ++o0)
                for (int64_t o1 = 0; o1 < a1.out; ++o1) {
                    T* line = yp + (o0 * a1.out + o1) * a2.out;
                    std::fill(line, line + a2.out, T(0));
                    for (int64_t t0 = 0; t0 < a0.taps; ++t0) {
                        const T* r0 = xp + a0.idx[(size_t)(o0 * a0.taps + t0)] * a1.in * a2.in;
                        std::fill(acc1.begin(), acc1.end(), T(0));
                        for (int64_t t1 = 0; t1 < a1.taps; ++t1)
                            lines.gather(r0 + a1.idx[(size_t)(o1 * a1.taps + t1)] * a2.in, a2.idx.data(), w2.data(),
                                         a2.out, w1[(size_t)(o1 * a1.taps + t1)], acc1.data());
                        const T s0 = w0[(size_t)(o0 * a0.taps + t0)];
                        for (int64_t o2 = 0; o2 < a2.out; ++o2) line[o2] += s0 * acc1[(size_t)o2];
                    }
                }
        }
    });
}

// gx (zeroed, the input's shape) += the adjoint of the resample applied to g, an output line at a time; planes
// are disjoint, so no races.
template <typename T> void backward_kernel(const Plan& p, const T* g, T* gx) {
    const Axis &a0 = p.ax[0], &a1 = p.ax[1], &a2 = p.ax[2];
    const int64_t in_plane = a0.in * a1.in * a2.in, out_plane = a0.out * a1.out * a2.out;
    const std::vector<T> w0(a0.w.begin(), a0.w.end()), w1(a1.w.begin(), a1.w.end()), w2(a2.w.begin(), a2.w.end());
    const Lines<T> lines(a2.taps);
    parallel_for(p.planes, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, out_plane)), [&](int64_t p0, int64_t p1) {
        for (int64_t pl = p0; pl < p1; ++pl) {
            const T* gp = g + pl * out_plane;
            T* xp = gx + pl * in_plane;
            for (int64_t o0 = 0; o0 < a0.out; ++o0)
                for (int64_t o1 = 0; o1 < a1.out; ++o1) {
                    const T* line = gp + (o0 * a1.out + o1) * a2.out;
                    for (int64_t t0 = 0; t0 < a0.taps; ++t0) {
                        T* r0 = xp + a0.idx[(size_t)(o0 * a0.taps + t0)] * a1.in * a2.in;
                        const T c0 = w0[(size_t)(o0 * a0.taps + t0)];
                        for (int64_t t1 = 0; t1 < a1.taps; ++t1)
                            lines.scatter(r0 + a1.idx[(size_t)(o1 * a1.taps + t1)] * a2.in, a2.idx.data(), w2.data(),
                                          a2.out, c0 * w1[(size_t)(o1 * a1.taps + t1)], line);
                    }
                }
        }
    });
}

using PlanPtr = std::shared_ptr<const Plan>;
Tensor resample_backward(const Tensor& g, const PlanPtr& plan);

// The plan's forward on a host tensor into y (allocated by the caller, or here when undefined), recorded as one
// node whose backward is resample_backward.
Tensor resample(const Tensor& x, const PlanPtr& plan, Tensor y = Tensor()) {
    Tensor xc = contiguous_nograd(x);
    if (!y.defined()) y = empty_tensor(plan->out_shape, x.dtype(), Device{}, kOp);
    if (y.numel() > 0)
        dispatch_float(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            forward_kernel<T>(*plan, xc.data<T>(), y.data<T>());
        });
    if (requires_grad(x)) {
        auto node = make_node("UpsampleBackward", {x}, [plan](BackwardCtx& c) {
            return TensorList{resample_backward(c.grads[0], plan)};
        });
        set_history(y, node);
    }
    return y;
}

// The adjoint of resample (g has the output's shape); its backward is resample again (Note [Resample plan]).
Tensor resample_backward(const Tensor& g, const PlanPtr& plan) {
    Tensor gc = contiguous_nograd(g);
    Tensor gx = zeros(plan->in_shape, g.dtype(), Device{});
    if (gc.numel() > 0)
        dispatch_float(g.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            backward_kernel<T>(*plan, gc.data<T>(), gx.data<T>());
        });
    if (requires_grad(g)) {
        auto node = make_node("UpsampleBackwardBackward", {g}, [plan](BackwardCtx& c) {
            return TensorList{resample(c.grads[0], plan)};
        });
        set_history(gx, node);
    }
    return gx;
}

const char* mode_name(int32_t mode) {
    switch (mode) {
    case CT_INTERP_NEAREST: return "nearest";
    case CT_INTERP_NEAREST_EXACT: return "nearest-exact";
    case CT_INTERP_LINEAR: return "linear";
    case CT_INTERP_BICUBIC: return "bicubic";
    case CT_INTERP_AREA: return "area";
    default: return "unknown";
    }
}

// Output size of an axis of size in scaled by s: torch's floor(in * s), checked to be a positive int64.
int64_t scaled_size(int64_t in, double s, int d) {
    const double v = std::floor((double)in * s);
    if (!(v >= 1))
        fail(CT_ERR_SHAPE, kOp, ": output size along spatial dim ", d, " must be positive, got floor(", in, " * ",
             s, ") = ", v);
    if (!(v < 9.2e18)) fail(CT_ERR_SHAPE, kOp, ": output size floor(", in, " * ", s, ") along spatial dim ", d,
                            " does not fit int64");
    return (int64_t)v;
}

}  // namespace

Tensor interpolate(const Tensor& x, const int64_t* size, const double* scale_factors, int32_t k, int32_t mode,
                   int32_t align_corners, bool recompute_scale_factor) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x))
        return round_results(
            interpolate(as_float32(x), size, scale_factors, k, mode, align_corners, recompute_scale_factor), *h);
    if (mode < CT_INTERP_NEAREST || mode > CT_INTERP_AREA)
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": mode must be one of CT_INTERP_NEAREST.._AREA (0..4), got ", mode);
    if (k < 1 || k > 3) fail(CT_ERR_INVALID_ARGUMENT, kOp, ": the number of spatial dims must be 1, 2 or 3, got ", k);
    if (mode == CT_INTERP_BICUBIC && k != 2)
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": bicubic needs 2 spatial dims (a 4-D input), got ", k);
    if (x.dim() != k + 2)
        fail(CT_ERR_SHAPE, kOp, ": ", mode_name(mode), " with ", k, " spatial dims needs a ", k + 2,
             "-D input [N, C, ...], got ", shape_str(x.sizes()));
    if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
        fail(CT_ERR_DTYPE, kOp, ": input must be float32 or float64, got ", dtype_name(x.dtype()));
    if ((size == nullptr) == (scale_factors == nullptr))
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": exactly one of size and scale_factor must be given, got ",
             size ? "both" : "neither");
    const bool interpolating = mode == CT_INTERP_LINEAR || mode == CT_INTERP_BICUBIC;
    if (!interpolating && align_corners >= 0)
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": align_corners can only be set with linear or bicubic, got mode ",
             mode_name(mode), " and align_corners ", align_corners);
    if (recompute_scale_factor && size)
        fail(CT_ERR_INVALID_ARGUMENT, kOp, ": recompute_scale_factor is not meaningful with an explicit size");
    const bool align = align_corners > 0;
    for (int64_t d = 1; d < x.dim(); ++d)
        if (x.sizes()[(size_t)d] <= 0)
            fail(CT_ERR_SHAPE, kOp, ": input must have non-empty channel and spatial dims, got ", shape_str(x.sizes()));
    Shape out_shape{x.sizes()[0], x.sizes()[1]};
    std::optional<double> scales[3];
    for (int d = 0; d < k; ++d) {
        const int64_t in = x.sizes()[(size_t)d + 2];
        if (size) {
            if (size[d] <= 0)
                fail(CT_ERR_SHAPE, kOp, ": output size must be positive, got ", size[d], " for spatial dim ", d);
            out_shape.push_back(size[d]);
        } else {
            out_shape.push_back(scaled_size(in, scale_factors[d], d));
            if (!recompute_scale_factor && mode != CT_INTERP_AREA) scales[d] = scale_factors[d];
        }
    }
    checked_numel(out_shape, kOp);
    if (mode == CT_INTERP_AREA) return adaptive_avg_pool_nd(x, k, out_shape.data() + 2);
    // the result first: a size too large to allocate fails before any table is built
    Tensor y = empty_tensor(out_shape, x.dtype(), Device{}, kOp);
    auto plan = std::make_shared<Plan>();
    plan->in_shape = x.sizes();
    plan->out_shape = out_shape;
    plan->planes = x.sizes()[0] * x.sizes()[1];
    if (plan->planes > 0)  // an empty result costs nothing: no tables for it
        for (int d = 0; d < k; ++d)
            plan->ax[3 - k + d] = dispatch_float(x.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                return make_axis<T>(mode, x.sizes()[(size_t)d + 2], out_shape[(size_t)d + 2], align, scales[d]);
            });
    if (x.device().is_cpu()) return resample(x, plan, y);
    // CUDA: the CPU kernels on differentiable host copies
    return to_device(resample(to_device(x, Device{}), plan, y), x.device());
}

}  // namespace ct

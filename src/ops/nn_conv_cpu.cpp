// nn_conv_cpu.cpp - CPU kernels of the N-d convolution family (conv_geom.h): im2col / col2im over the normalised
// 3 spatial dims (Note [Conv rank]) and the per-sample, per-group OpenBLAS gemms around them, spread over the
// threads by sample (Note [Conv batch parallelism]).
#include <algorithm>
#include "cpu/nn_blas.h"
#include "cpu/parallel.h"
#include "ops/conv_geom.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// The output columns [*lo, *hi) whose tap iw = ow * s + c lies inside [0, W) (lo <= hi <= O).
inline void inside_columns(int64_t c, int64_t s, int64_t W, int64_t O, int64_t* lo, int64_t* hi) {
    const int64_t first = c < 0 ? (-c - 1) / s + 1 : 0;  // ceil(-c / s) without overflow
    const int64_t end = W - 1 - c < 0 ? 0 : (W - 1 - c) / s + 1;
    *lo = std::min(first, O);
    *hi = std::max(*lo, std::min(end, O));
}

}  // namespace

// Row r = c * taps + (kd * K1 + kh) * K2 + kw; column p = (od * O1 + oh) * O2 + ow; value
// x[c][od * s0 - p0 + kd * d0][oh * s1 - p1 + kh * d1][ow * s2 - p2 + kw * d2], 0 outside. Threads own rows.
template <typename T> void im2col_nd(const T* x, T* col, const ConvGeom& g) {
    const int64_t taps = g.taps(), P = g.out_plane(), O1 = g.out[1], O2 = g.out[2];
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, P));
    parallel_for(g.col_rows(), grain, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            const int64_t c = r / taps, t = r % taps;
            const int64_t kd = t / (g.k[1] * g.k[2]), kh = t / g.k[2] % g.k[1], kw = t % g.k[2];
            const T* xc = x + c * g.in_plane();
            T* o = col + r * P;
            const int64_t s2 = g.stride[2], c2 = kw * g.dilation[2] - g.padding[2];  // iw = ow * s2 + c2
            int64_t lo, hi;
            inside_columns(c2, s2, g.in[2], O2, &lo, &hi);
            for (int64_t od = 0; od < g.out[0]; ++od) {
                const int64_t id = od * g.stride[0] - g.padding[0] + kd * g.dilation[0];
                if (id < 0 || id >= g.in[0]) {
                    std::fill(o, o + O1 * O2, T(0));
                    o += O1 * O2;
                    continue;
                }
                for (int64_t oh = 0; oh < O1; ++oh, o += O2) {
                    const int64_t ih = oh * g.stride[1] - g.padding[1] + kh * g.dilation[1];
                    if (ih < 0 || ih >= g.in[1]) {
                        std::fill(o, o + O2, T(0));
                        continue;
                    }
                    const T* row = xc + (id * g.in[1] + ih) * g.in[2];
                    std::fill(o, o + lo, T(0));  // taps in the left padding, the inside run, the right padding
                    if (s2 == 1) std::copy(row + lo + c2, row + hi + c2, o + lo);
                    else for (int64_t ow = lo; ow < hi; ++ow) o[ow] = row[ow * s2 + c2];
                    std::fill(o + hi, o + O2, T(0));
                }
            }
        }
    });
}

// The adjoint of im2col_nd: x[c][...] += col[...] for every tap that reads it. Threads own channels.
template <typename T> void col2im_nd(const T* col, T* x, const ConvGeom& g) {
    const int64_t taps = g.taps(), P = g.out_plane(), O1 = g.out[1], O2 = g.out[2];
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, taps * P));
    parallel_for(g.Cg, grain, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) {
            T* xc = x + c * g.in_plane();
            for (int64_t t = 0; t < taps; ++t) {
                const int64_t kd = t / (g.k[1] * g.k[2]), kh = t / g.k[2] % g.k[1], kw = t % g.k[2];
                const T* in = col + (c * taps + t) * P;
                const int64_t s2 = g.stride[2], c2 = kw * g.dilation[2] - g.padding[2];  // iw = ow * s2 + c2
                int64_t lo, hi;
                inside_columns(c2, s2, g.in[2], O2, &lo, &hi);
                for (int64_t od = 0; od < g.out[0]; ++od) {
                    const int64_t id = od * g.stride[0] - g.padding[0] + kd * g.dilation[0];
                    if (id < 0 || id >= g.in[0]) continue;
                    for (int64_t oh = 0; oh < O1; ++oh) {
                        const int64_t ih = oh * g.stride[1] - g.padding[1] + kh * g.dilation[1];
                        if (ih < 0 || ih >= g.in[1]) continue;
                        T* row = xc + (id * g.in[1] + ih) * g.in[2];
                        const T* src = in + (od * O1 + oh) * O2;
                        for (int64_t ow = lo; ow < hi; ++ow) row[ow * s2 + c2] += src[ow];
                    }
                }
            }
        }
    });
}

template void im2col_nd<float>(const float*, float*, const ConvGeom&);
template void im2col_nd<double>(const double*, double*, const ConvGeom&);
template void col2im_nd<float>(const float*, float*, const ConvGeom&);
template void col2im_nd<double>(const double*, double*, const ConvGeom&);

namespace {

// A raw 2-D matrix view [rows, cols] at element offset `off` of contiguous t (for gemm_into).
Tensor mat(const Tensor& t, int64_t off, int64_t rows, int64_t cols) {
    return make_view(t, {rows, cols}, {cols, 1}, t.offset() + off);
}
Tensor mat_t(const Tensor& t, int64_t off, int64_t rows, int64_t cols) {  // transpose of mat(t, off, cols, rows)
    return make_view(t, {rows, cols}, {1, rows}, t.offset() + off);
}

// Note [Conv batch parallelism]: the kernels below loop over items i = n * G + gi (one sample and group each).
// With more than one thread and at least as many items as threads, the threads own contiguous ranges of items,
// each thread with its own im2col scratch (and, for the weight gradient, its own partial sum), so one conv pass
// is one parallel region and the im2col and gemm calls inside run single-threaded on their thread. Otherwise
// (one thread, or a batch smaller than the pool) the items run in order and each im2col / gemm splits itself.
struct ItemChunks {
    int64_t chunks;  // 1: items in order on the caller
    int64_t items;
    explicit ItemChunks(const ConvGeom& g) : items(g.N * g.G) {
        const int64_t threads = get_num_threads();
        chunks = threads > 1 && items >= threads && !in_parallel_region() ? threads : 1;
    }
    // body(chunk, item) for every item, chunk in [0, chunks) owning a contiguous range of items.
    template <typename Body> void run(Body body) const {
        auto range = [&](int64_t c) {
            for (int64_t i = items * c / chunks, e = items * (c + 1) / chunks; i < e; ++i) body(c, i);
        };
        if (chunks == 1) range(0);
        else parallel_chunks((int)chunks, range);
    }
};

// im2col scratch: one [col_rows, out_plane] matrix per chunk (none for a pointwise convolution).
Tensor col_scratch(const ConvGeom& g, const ItemChunks& ic, const Tensor& like) {
    if (g.is_pointwise()) return Tensor();
    return empty_tensor({ic.chunks, g.col_rows(), g.out_plane()}, like.dtype(), like.device());
}

}  // namespace

bool conv_keeps_col(const ConvGeom& g, DType dt) {
    if (g.is_pointwise()) return false;
    const double bytes = (double)g.N * (double)g.G * (double)g.col_rows() * (double)g.out_plane() * dtype_size(dt);
    return bytes <= (double)kConvKeepColBytes;
}

// out[n, g] = W_g @ im2col(x[n, g]) + bias. With keep_col (Note [Conv col reuse]) each item's im2col goes to
// its own slice of one batch buffer, handed back for the weight gradient.
Tensor conv_forward_cpu(const Tensor& x, const Tensor& w, const Tensor& b, const ConvGeom& g, Tensor* keep_col) {
    Tensor out = empty_tensor(g.out_shape(), x.dtype(), x.device());
    const int64_t K = g.col_rows(), P = g.out_plane(), X = g.in_plane();
    const ItemChunks ic(g);
    const bool batch_col = keep_col && conv_keeps_col(g, x.dtype());
    Tensor col = batch_col ? empty_tensor({g.N * g.G, K, P}, x.dtype(), x.device()) : col_scratch(g, ic, x);
    dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor bc = b.defined() ? contiguous_nograd(b) : Tensor();
        ic.run([&](int64_t c, int64_t i) {
            const int64_t n = i / g.G, gi = i % g.G;
            const int64_t xoff = (n * g.C + gi * g.Cg) * X, ooff = (n * g.O + gi * g.Og) * P;
            const int64_t coff = (batch_col ? i : c) * K * P;
            Tensor cm = col.defined() ? mat(col, coff, K, P) : mat(x, xoff, K, P);
            if (col.defined()) im2col_nd<T>(x.data<T>() + xoff, col.data<T>() + coff, g);
            T* po = out.data<T>() + ooff;
            if (bc.defined())
                for (int64_t o = 0; o < g.Og; ++o)
                    std::fill(po + o * P, po + (o + 1) * P, bc.data<T>()[gi * g.Og + o]);
            gemm_into<T>(mat(out, ooff, g.Og, P), mat(w, gi * g.Og * K, g.Og, K), cm, bc.defined() ? T(1) : T(0));
        });
    });
    if (batch_col) *keep_col = col;
    return out;
}

// grad_x[n, g] = col2im(W_g^T @ go[n, g]).
Tensor conv_input_grad_cpu(const Tensor& go, const Tensor& w, const ConvGeom& g) {
    Tensor gx = zeros(g.x_shape(), go.dtype(), go.device());
    const int64_t K = g.col_rows(), P = g.out_plane(), X = g.in_plane();
    const ItemChunks ic(g);
    Tensor col = col_scratch(g, ic, go);
    dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        ic.run([&](int64_t c, int64_t i) {
            const int64_t n = i / g.G, gi = i % g.G;
            const int64_t xoff = (n * g.C + gi * g.Cg) * X, ooff = (n * g.O + gi * g.Og) * P;
            Tensor dst = col.defined() ? mat(col, c * K * P, K, P) : mat(gx, xoff, K, P);
            gemm_into<T>(dst, mat_t(w, gi * g.Og * K, K, g.Og), mat(go, ooff, g.Og, P), T(0));
            if (col.defined()) col2im_nd<T>(col.data<T>() + c * K * P, gx.data<T>() + xoff, g);
        });
    });
    return gx;
}

// grad_w[g] = sum over n of go[n, g] @ im2col(x[n, g])^T; the im2col is read from kept_col when defined (the
// forward's, Note [Conv col reuse]). Chunk 0 sums into grad_w, chunk c > 0 into its own partial, added to
// grad_w at the end (Note [Conv batch parallelism]).
Tensor conv_weight_grad_cpu(const Tensor& go, const Tensor& x, const ConvGeom& g, const Tensor& kept_col) {
    Tensor gw = zeros(g.w_shape(), go.dtype(), go.device());
    const int64_t K = g.col_rows(), P = g.out_plane(), X = g.in_plane(), WN = g.O * K;
    const ItemChunks ic(g);
    Tensor col = kept_col.defined() ? Tensor() : col_scratch(g, ic, go);
    Tensor partial = ic.chunks > 1 ? zeros({ic.chunks - 1, WN}, go.dtype(), go.device()) : Tensor();
    dispatch_float(go.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        ic.run([&](int64_t c, int64_t i) {
            const int64_t n = i / g.G, gi = i % g.G;
            const int64_t xoff = (n * g.C + gi * g.Cg) * X, ooff = (n * g.O + gi * g.Og) * P;
            if (col.defined()) im2col_nd<T>(x.data<T>() + xoff, col.data<T>() + c * K * P, g);
            Tensor colT = kept_col.defined() ? mat_t(kept_col, i * K * P, P, K)
                          : col.defined()    ? mat_t(col, c * K * P, P, K)
                                             : mat_t(x, xoff, P, K);
            const Tensor& acc = c == 0 ? gw : partial;
            const int64_t aoff = c == 0 ? 0 : (c - 1) * WN;
            gemm_into<T>(mat(acc, aoff + gi * g.Og * K, g.Og, K), mat(go, ooff, g.Og, P), colT, T(1));
        });
        if (partial.defined()) {
            T* dst = gw.data<T>();
            const T* src = partial.data<T>();
            for (int64_t c = 0; c + 1 < ic.chunks; ++c)
                for (int64_t j = 0; j < WN; ++j) dst[j] += src[c * WN + j];
        }
    });
    return gw;
}

}  // namespace ct

// norm_kernels.cpp - the fused normalisation kernels of norm_kernels.h: per-row statistics, the affine
// normalisation, and its backward (dx, dweight, dbias) over the geometry of Note [Norm geometry].
#include "cpu/norm_kernels.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
#include "cpu/parallel.h"
#include "cpu/vec_math.h"

namespace ct {
namespace {

#define CT_INLINE inline __attribute__((always_inline))

constexpr int kLanes = 8;  // independent double accumulators, so the loops vectorise without -ffast-math

// Calls f(offset, channel, length, wstride) for each contiguous piece of row r: wstride 1 means the piece's
// element e has channel channel + e (layer / group norm with S == 1), 0 means every element has channel.
template <typename F> void for_each_piece(const NormGeom& g, int64_t r, F&& f) {
    if (g.per_channel) {
        for (int64_t n = 0; n < g.N; ++n) f((n * g.C + r) * g.S, r, g.S, 0);
        return;
    }
    const int64_t cpg = g.C / g.groups, base = r * cpg * g.S, c0 = (r % g.groups) * cpg;
    if (g.S == 1) {
        f(base, c0, cpg, 1);
        return;
    }
    for (int64_t cc = 0; cc < cpg; ++cc) f(base + cc * g.S, c0 + cc, g.S, 0);
}

// Sum of x[i] - shift over n elements.
template <typename T> CT_INLINE double lane_sum_body(const T* x, int64_t n, double shift) {
    double s[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int l = 0; l < kLanes; ++l) s[l] += (double)x[i + l] - shift;
    double r = 0;
    for (int l = 0; l < kLanes; ++l) r += s[l];
    for (; i < n; ++i) r += (double)x[i] - shift;
    return r;
}

// Sum of (x[i] - m)^2 over n elements.
template <typename T> CT_INLINE double lane_sqdev_body(const T* x, int64_t n, double m) {
    double s[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int l = 0; l < kLanes; ++l) {
            const double d = (double)x[i + l] - m;
            s[l] += d * d;
        }
    double r = 0;
    for (int l = 0; l < kLanes; ++l) r += s[l];
    for (; i < n; ++i) r += ((double)x[i] - m) * ((double)x[i] - m);
    return r;
}

// Four values as doubles in one vector (GCC vector extensions: ymm in the AVX clones). Written out because GCC's
// SLP vectoriser splits the eight-lane form of lane_dot2 (two float sources converted per lane) into scalar
// conversions: 9.3 instructions per element in its AVX2 clone.
// GCC warns (-Wpsabi, at the end of the file) that the default clone passes Double4 differently from the AVX
// ones; the helpers are always inlined, so no call passes one.
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float Float4 __attribute__((vector_size(16)));
typedef double Double4 __attribute__((vector_size(32)));
CT_INLINE Double4 load_double4(const float* p) {
    Float4 f;
    std::memcpy(&f, p, sizeof f);
    return __builtin_convertvector(f, Double4);
}
CT_INLINE Double4 load_double4(const double* p) {
    Double4 d;
    std::memcpy(&d, p, sizeof d);
    return d;
}

// Sums over n elements of dy[i] * w[i] (a) and dy[i] * w[i] * (x[i] - m) (b): w has stride 1. Lane l of the two
// vectors of each sum holds elements i with i % 8 == l (kLanes), added into a and b in lane order.
template <typename T>
CT_INLINE void lane_dot2_body(const T* dy, const T* x, const T* w, int64_t n, double m, double& a, double& b) {
    static_assert(kLanes == 8, "two Double4 accumulators per sum");
    Double4 sa0 = {}, sa1 = {}, sb0 = {}, sb1 = {};
    const Double4 mv = {m, m, m, m};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        const Double4 g0 = load_double4(dy + i) * load_double4(w + i);
        const Double4 g1 = load_double4(dy + i + 4) * load_double4(w + i + 4);
        sa0 += g0;
        sa1 += g1;
        sb0 += g0 * (load_double4(x + i) - mv);
        sb1 += g1 * (load_double4(x + i + 4) - mv);
    }
    for (int l = 0; l < 4; ++l) {
        a += sa0[l];
        b += sb0[l];
    }
    for (int l = 0; l < 4; ++l) {
        a += sa1[l];
        b += sb1[l];
    }
    for (; i < n; ++i) {
        const double gw = (double)dy[i] * (double)w[i];
        a += gw;
        b += gw * ((double)x[i] - m);
    }
}

// Sum of dy[i] * (x[i] - m) over n elements.
template <typename T> CT_INLINE double lane_dot_body(const T* dy, const T* x, int64_t n, double m) {
    double s[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int l = 0; l < kLanes; ++l) s[l] += (double)dy[i + l] * ((double)x[i + l] - m);
    double r = 0;
    for (int l = 0; l < kLanes; ++l) r += s[l];
    for (; i < n; ++i) r += (double)dy[i] * ((double)x[i] - m);
    return r;
}

// The loops above and the per-piece loops of the kernels, compiled per instruction set (CT_CLONES) for float and
// double; the kernels call only these.
#define CT_NORM_LOOPS(T)                                                                                          \
    CT_CLONES double lane_sum(const T* x, int64_t n, double shift) { return lane_sum_body(x, n, shift); }         \
    CT_CLONES double lane_sqdev(const T* x, int64_t n, double m) { return lane_sqdev_body(x, n, m); }             \
    CT_CLONES double lane_dot(const T* dy, const T* x, int64_t n, double m) { return lane_dot_body(dy, x, n, m); } \
    CT_CLONES void lane_dot2(const T* dy, const T* x, const T* w, int64_t n, double m, double& a, double& b) {    \
        lane_dot2_body(dy, x, w, n, m, a, b);                                                                     \
    }                                                                                                             \
    /* y = (x - m) * rs * w + b with per-element w, b */                                                         \
    CT_CLONES void apply_ws(const T* x, const T* w, const T* b, int64_t n, T m, T rs, T* y) {                    \
        for (int64_t e = 0; e < n; ++e) y[e] = (x[e] - m) * rs * w[e] + b[e];                                    \
    }                                                                                                             \
    /* y = (x - m) * sc + b: x == m gives b exactly (no cancellation of x * sc against m * sc) */              \
    CT_CLONES void apply_scalar(const T* x, int64_t n, T m, T sc, T b, T* y) {                                    \
        for (int64_t e = 0; e < n; ++e) y[e] = (x[e] - m) * sc + b;                                               \
    }                                                                                                             \
    /* per-element dweight / dbias sums: aw += dy * (x - m) * rs, ab += dy */                                    \
    CT_CLONES void affine_acc(const T* dy, const T* x, int64_t n, double m, double rs, double* aw, double* ab) {  \
        for (int64_t e = 0; e < n; ++e) {                                                                         \
            aw[e] += (double)dy[e] * ((double)x[e] - m) * rs;                                                     \
            ab[e] += (double)dy[e];                                                                               \
        }                                                                                                         \
    }                                                                                                             \
    /* dx = rt * (dy * w - k1 - (x - m) * k2), w per element (ws) or one value */                               \
    CT_CLONES void dx_ws(const T* dy, const T* x, const T* w, int64_t n, T m, T rt, T k1, T k2, T* dx) {          \
        for (int64_t e = 0; e < n; ++e) dx[e] = rt * (dy[e] * w[e] - k1 - (x[e] - m) * k2);                      \
    }                                                                                                             \
    CT_CLONES void dx_scalar(const T* dy, const T* x, T wc, int64_t n, T m, T rt, T k1, T k2, T* dx) {            \
        for (int64_t e = 0; e < n; ++e) dx[e] = rt * (dy[e] * wc - k1 - (x[e] - m) * k2);                        \
    }
CT_NORM_LOOPS(float)
CT_NORM_LOOPS(double)
#undef CT_NORM_LOOPS

// Note [Channels-last batch norm]: batch_norm of [N, C] (S == 1) has rows of N one-element pieces, C apart; the
// kernels below run it over whole rows of x instead, with a per-channel accumulator vector (statistics and sums
// over n in n order, so the result is the one the per-piece loop gives and does not depend on the thread count).
#define CT_COLUMN_LOOPS(T)                                                                                        \
    /* s[e] += x[e] - shift[e] */                                                                                \
    CT_CLONES void col_sum(const T* x, const double* shift, int64_t n, double* s) {                               \
        for (int64_t e = 0; e < n; ++e) s[e] += (double)x[e] - shift[e];                                          \
    }                                                                                                             \
    /* q[e] += (x[e] - m[e])^2 */                                                                                \
    CT_CLONES void col_sqdev(const T* x, const double* m, int64_t n, double* q) {                                 \
        for (int64_t e = 0; e < n; ++e) {                                                                         \
            const double d = (double)x[e] - m[e];                                                                 \
            q[e] += d * d;                                                                                        \
        }                                                                                                         \
    }                                                                                                             \
    /* sdy[e] += dy[e], sdx[e] += dy[e] * (x[e] - m[e]) */                                                       \
    CT_CLONES void col_dot(const T* dy, const T* x, const double* m, int64_t n, double* sdy, double* sdx) {       \
        for (int64_t e = 0; e < n; ++e) {                                                                         \
            sdy[e] += (double)dy[e];                                                                              \
            sdx[e] += (double)dy[e] * ((double)x[e] - m[e]);                                                      \
        }                                                                                                         \
    }                                                                                                             \
    /* y = (x - m) * sc + b, all per element */                                                                  \
    CT_CLONES void row_apply(const T* x, const T* m, const T* sc, const T* b, int64_t n, T* y) {                 \
        for (int64_t e = 0; e < n; ++e) y[e] = (x[e] - m[e]) * sc[e] + b[e];                                     \
    }                                                                                                             \
    /* dx = rt * (dy * w - k1 - (x - m) * k2), all per element */                                               \
    CT_CLONES void row_dx(const T* dy, const T* x, const T* w, const T* m, const T* rt, const T* k1, const T* k2, \
                          int64_t n, T* dx) {                                                                     \
        for (int64_t e = 0; e < n; ++e) dx[e] = rt[e] * (dy[e] * w[e] - k1[e] - (x[e] - m[e]) * k2[e]);          \
    }
CT_COLUMN_LOOPS(float)
CT_COLUMN_LOOPS(double)
#undef CT_COLUMN_LOOPS

bool channels_last(const NormGeom& g) { return g.per_channel && g.S == 1; }

// Channel blocks [c0, c1) of about 32K elements each (whole columns of x), for the per-channel sums.
template <typename F> void for_channel_blocks(const NormGeom& g, F&& f) {
    const int64_t width = std::max<int64_t>(16, 32768 / std::max<int64_t>(1, g.N));
    parallel_for((g.C + width - 1) / width, 1, [&](int64_t k0, int64_t k1) {
        for (int64_t k = k0; k < k1; ++k) f(k * width, std::min(g.C, (k + 1) * width));
    });
}

// Rows of x per parallel chunk for the elementwise passes.
int64_t nc_row_grain(const NormGeom& g) { return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, g.C)); }

template <typename T> void stats_nc(const T* x, const NormGeom& g, double eps, T* mean, T* var, T* rstd) {
    const int64_t N = g.N, C = g.C;
    for_channel_blocks(g, [&](int64_t c0, int64_t c1) {
        const int64_t w = c1 - c0;
        std::vector<double> zero((size_t)w, 0.0), s((size_t)w, 0.0), q((size_t)w, 0.0);
        for (int64_t n = 0; n < N; ++n) col_sum(x + n * C + c0, zero.data(), w, s.data());
        for (int64_t e = 0; e < w; ++e) s[(size_t)e] = N > 0 ? s[(size_t)e] / (double)N : 0.0;  // the means
        for (int64_t n = 0; n < N; ++n) col_sqdev(x + n * C + c0, s.data(), w, q.data());
        for (int64_t e = 0; e < w; ++e) {
            const double v = N > 0 ? q[(size_t)e] / (double)N : 0.0;
            mean[c0 + e] = (T)s[(size_t)e];
            var[c0 + e] = (T)v;
            rstd[c0 + e] = (T)(1.0 / std::sqrt(v + eps));
        }
    });
}

template <typename T>
void apply_nc(const T* x, const NormGeom& g, const T* mean, const T* rstd, const std::vector<T>& w,
              const std::vector<T>& b, T* y) {
    const int64_t C = g.C;
    std::vector<T> sc((size_t)C);
    for (int64_t c = 0; c < C; ++c) sc[(size_t)c] = rstd[c] * w[(size_t)c];
    parallel_for(g.N, nc_row_grain(g), [&](int64_t n0, int64_t n1) {
        for (int64_t n = n0; n < n1; ++n) row_apply(x + n * C, mean, sc.data(), b.data(), C, y + n * C);
    });
}

template <typename T>
void backward_nc(const T* dy, const T* x, const NormGeom& g, const T* mean, const T* rstd, const std::vector<T>& w,
                 bool train, T* dx, T* dw, T* db) {
    const int64_t N = g.N, C = g.C;
    std::vector<double> m((size_t)C), sdy((size_t)C, 0.0), sdx((size_t)C, 0.0);
    for (int64_t c = 0; c < C; ++c) m[(size_t)c] = (double)mean[c];
    for_channel_blocks(g, [&](int64_t c0, int64_t c1) {
        for (int64_t n = 0; n < N; ++n)
            col_dot(dy + n * C + c0, x + n * C + c0, m.data() + c0, c1 - c0, sdy.data() + c0, sdx.data() + c0);
    });
    for (int64_t c = 0; c < C; ++c) {
        if (dw) dw[c] = (T)(sdx[(size_t)c] * (double)rstd[c]);
        if (db) db[c] = (T)sdy[(size_t)c];
    }
    if (!dx) return;
    // dx = rstd * (dy * w - mean(dy * w) - xhat * mean(dy * w * xhat)), as norm_backward
    std::vector<T> k1((size_t)C), k2((size_t)C);
    for (int64_t c = 0; c < C; ++c) {
        const double wc = (double)w[(size_t)c], rs = (double)rstd[c];
        k1[(size_t)c] = train && N > 0 ? (T)(wc * sdy[(size_t)c] / (double)N) : T(0);
        k2[(size_t)c] = train && N > 0 ? (T)(wc * sdx[(size_t)c] * rs * rs / (double)N) : T(0);
    }
    parallel_for(N, nc_row_grain(g), [&](int64_t n0, int64_t n1) {
        for (int64_t n = n0; n < n1; ++n)
            row_dx(dy + n * C, x + n * C, w.data(), mean, rstd, k1.data(), k2.data(), C, dx + n * C);
    });
}

// Rows per parallel chunk so that a chunk holds about 32K elements.
int64_t row_grain(const NormGeom& g) { return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, g.row_size())); }

// w (or ones) and b (or zeros) as C values, so the loops have no NULL branches.
template <typename T> std::vector<T> or_fill(const T* p, int64_t C, T v) {
    return p ? std::vector<T>(p, p + C) : std::vector<T>((size_t)C, v);
}

}  // namespace

template <typename T> void norm_stats(const T* x, const NormGeom& g, double eps, T* mean, T* var, T* rstd) {
    if (channels_last(g)) return stats_nc(x, g, eps, mean, var, rstd);
    const double M = (double)g.row_size();
    parallel_for(g.rows(), row_grain(g), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            double s = 0;
            for_each_piece(g, r, [&](int64_t off, int64_t, int64_t len, int) { s += lane_sum(x + off, len, 0.0); });
            const double m = M > 0 ? s / M : 0.0;
            double q = 0;
            for_each_piece(g, r, [&](int64_t off, int64_t, int64_t len, int) { q += lane_sqdev(x + off, len, m); });
            const double v = M > 0 ? q / M : 0.0;
            mean[r] = (T)m;
            var[r] = (T)v;
            rstd[r] = (T)(1.0 / std::sqrt(v + eps));
        }
    });
}

template <typename T>
void norm_apply(const T* x, const NormGeom& g, const T* mean, const T* rstd, const T* w_in, const T* b_in, T* y) {
    const std::vector<T> w = or_fill(w_in, g.C, T(1)), b = or_fill(b_in, g.C, T(0));
    if (channels_last(g)) return apply_nc(x, g, mean, rstd, w, b, y);
    parallel_for(g.rows(), row_grain(g), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            const T m = mean[r], rs = rstd[r];
            for_each_piece(g, r, [&](int64_t off, int64_t c, int64_t len, int ws) {
                const T* px = x + off;
                T* py = y + off;
                if (ws) {
                    apply_ws(px, w.data() + c, b.data() + c, len, m, rs, py);
                } else {
                    apply_scalar(px, len, m, rs * w[(size_t)c], b[(size_t)c], py);
                }
            });
        }
    });
}

template <typename T>
void norm_backward(const T* dy, const T* x, const NormGeom& g, const T* mean, const T* rstd, const T* w_in, bool train,
                   T* dx, T* dw, T* db) {
    const int64_t R = g.rows(), C = g.C;
    const double M = (double)g.row_size();
    const std::vector<T> w = or_fill(w_in, C, T(1));
    if (channels_last(g)) return backward_nc(dy, x, g, mean, rstd, w, train, dx, dw, db);
    const bool affine = dw || db;
    // blocks of rows, each with its own per-channel sums (dw, db), added up in block order afterwards
    const int64_t blocks = R * g.row_size() < 65536 ? 1 : std::min<int64_t>(R, get_num_threads());
    std::vector<double> acc_w(affine ? (size_t)(blocks * C) : 0), acc_b(affine ? (size_t)(blocks * C) : 0);
    parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t blk = b0; blk < b1; ++blk) {
            double* aw = affine ? acc_w.data() + blk * C : nullptr;
            double* ab = affine ? acc_b.data() + blk * C : nullptr;
            for (int64_t r = R * blk / blocks; r < R * (blk + 1) / blocks; ++r) {
                const double m = (double)mean[r], rs = (double)rstd[r];
                double A = 0, B = 0;  // sum of dy * w and of dy * w * (x - m) over the row
                for_each_piece(g, r, [&](int64_t off, int64_t c, int64_t len, int ws) {
                    const T *pg = dy + off, *px = x + off;
                    if (ws) {
                        lane_dot2(pg, px, w.data() + c, len, m, A, B);
                        if (affine) affine_acc(pg, px, len, m, rs, aw + c, ab + c);
                        return;
                    }
                    const double sdy = lane_sum(pg, len, 0.0), sdx = lane_dot(pg, px, len, m);
                    A += (double)w[(size_t)c] * sdy;
                    B += (double)w[(size_t)c] * sdx;
                    if (affine) {
                        aw[c] += sdx * rs;
                        ab[c] += sdy;
                    }
                });
                if (!dx) continue;
                // dx = rstd * (dy * w - mean(dy * w) - xhat * mean(dy * w * xhat)), xhat = (x - m) * rstd
                const T k1 = train && M > 0 ? (T)(A / M) : T(0);
                const T k2 = train && M > 0 ? (T)(B * rs * rs / M) : T(0);
                const T mt = (T)m, rt = (T)rs;
                for_each_piece(g, r, [&](int64_t off, int64_t c, int64_t len, int ws) {
                    const T *pg = dy + off, *px = x + off;
                    T* pd = dx + off;
                    if (ws) dx_ws(pg, px, w.data() + c, len, mt, rt, k1, k2, pd);
                    else dx_scalar(pg, px, w[(size_t)c], len, mt, rt, k1, k2, pd);
                });
            }
        }
    });
    for (int64_t c = 0; c < C && affine; ++c) {
        double sw = 0, sb = 0;
        for (int64_t blk = 0; blk < blocks; ++blk) {
            sw += acc_w[(size_t)(blk * C + c)];
            sb += acc_b[(size_t)(blk * C + c)];
        }
        if (dw) dw[c] = (T)sw;
        if (db) db[c] = (T)sb;
    }
}

#define CT_NORM_INSTANTIATE(T)                                                                              \
    template void norm_stats<T>(const T*, const NormGeom&, double, T*, T*, T*);                             \
    template void norm_apply<T>(const T*, const NormGeom&, const T*, const T*, const T*, const T*, T*);     \
    template void norm_backward<T>(const T*, const T*, const NormGeom&, const T*, const T*, const T*, bool, \
                                   T*, T*, T*);
CT_NORM_INSTANTIATE(float)
CT_NORM_INSTANTIATE(double)
#undef CT_NORM_INSTANTIATE

}  // namespace ct

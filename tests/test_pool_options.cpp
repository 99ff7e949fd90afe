// test_pool_options.cpp - ct_max_pool2d_ex / ct_avg_pool2d_ex (dilation, ceil_mode, count_include_pad,
// divisor_override, return_indices) and ct_adaptive_{avg,max}_pool2d through the C API: values and argmax
// against direct loops written independently of the library's window math, gradients, errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

using Fn = std::function<H(const std::vector<H>&)>;

size_t numel(const Shape& s) {
    size_t n = 1;
    for (int64_t d : s) n *= (size_t)d;
    return n;
}

struct PoolCfg {
    int64_t k[2], s[2], p[2], d[2];
    bool ceil_mode = false, include_pad = true;
    int64_t divisor = 0;
};

// PyTorch's documented output size, computed in floating point.
int64_t ref_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const double q = (double)(in + 2 * p - d * (k - 1) - 1) / (double)s;
    int64_t out = (int64_t)(ceil_mode ? std::ceil(q) : std::floor(q)) + 1;
    if (ceil_mode && (out - 1) * s >= in + p) --out;
    return out;
}

struct RefPool {
    std::vector<double> max, avg;
    std::vector<double> argmax;  // as doubles for allclose
    int64_t OH, OW;
};

// Direct loops over every kernel tap (i, j) of every output.
RefPool ref_pool(const std::vector<double>& x, int64_t planes, int64_t H_, int64_t W, const PoolCfg& c) {
    RefPool r;
    r.OH = ref_out_size(H_, c.k[0], c.s[0], c.p[0], c.d[0], c.ceil_mode);
    r.OW = ref_out_size(W, c.k[1], c.s[1], c.p[1], c.d[1], c.ceil_mode);
    for (int64_t pl = 0; pl < planes; ++pl)
        for (int64_t oh = 0; oh < r.OH; ++oh)
            for (int64_t ow = 0; ow < r.OW; ++ow) {
                double best = -INFINITY, sum = 0, at = -1;
                int64_t inside = 0, padded = 0;
                for (int64_t i = 0; i < c.k[0]; ++i)
                    for (int64_t j = 0; j < c.k[1]; ++j) {
                        const int64_t h = oh * c.s[0] - c.p[0] + i * c.d[0], w = ow * c.s[1] - c.p[1] + j * c.d[1];
                        if (h < H_ + c.p[0] && w < W + c.p[1]) ++padded;  // taps inside the padded input
                        if (h < 0 || h >= H_ || w < 0 || w >= W) continue;
                        const double v = x[(pl * H_ + h) * W + w];
                        if (at < 0 || v > best || std::isnan(v)) {
                            best = v;
                            at = (double)(h * W + w);
                        }
                        sum += v;
                        ++inside;
                    }
                r.max.push_back(best);
                r.argmax.push_back(at);
                const double div = c.divisor ? c.divisor : c.include_pad ? padded : inside;
                r.avg.push_back(sum / div);
            }
    return r;
}

H max_ex(const H& x, const PoolCfg& c, H* idx = nullptr) {
    H out;
    ok(ct_max_pool2d_ex(x.get(), c.k, c.s, c.p, c.d, c.ceil_mode, out.out(), idx ? idx->out() : nullptr));
    return out;
}

H avg_ex(const H& x, const PoolCfg& c) {
    H out;
    ok(ct_avg_pool2d_ex(x.get(), c.k, c.s, c.p, c.ceil_mode, c.include_pad, c.divisor, out.out()));
    return out;
}

struct Case {
    Shape x;
    PoolCfg c;
};

std::vector<Case> option_cases() {
    std::vector<Case> cases;
    const Shape shapes[] = {{2, 3, 7, 5}, {1, 2, 6, 6}, {3, 5, 4}, {1, 1, 1, 9}, {2, 1, 11, 8}};
    for (const Shape& s : shapes)
        for (int64_t k : {1, 2, 3})
            for (int64_t st : {1, 2, 3})
                for (int64_t p = 0; p <= k / 2; ++p)
                    for (int64_t d : {1, 2})
                        for (bool ceil_mode : {false, true}) {
                            PoolCfg c{{k, k == 3 ? 2 : k}, {st, st == 3 ? 1 : st}, {p, 0}, {d, 3 - d}};
                            c.ceil_mode = ceil_mode;
                            c.include_pad = (k + st + p) % 2 == 0;
                            c.divisor = k == 2 && st == 1 ? 3 : 0;
                            const int64_t nd = (int64_t)s.size();
                            if (ref_out_size(s[nd - 2], c.k[0], c.s[0], c.p[0], c.d[0], ceil_mode) < 1 ||
                                ref_out_size(s[nd - 1], c.k[1], c.s[1], c.p[1], c.d[1], ceil_mode) < 1)
                                continue;
                            cases.push_back({s, c});
                        }
    return cases;
}

}  // namespace

TEST(PoolOptions, MaxAndAvgMatchDirectLoops) {
    int seed = 0, checked = 0;
    for (const Case& cs : option_cases()) {
        const Shape& s = cs.x;
        const int64_t nd = (int64_t)s.size(), H_ = s[nd - 2], W = s[nd - 1];
        const int64_t planes = (int64_t)numel(s) / (H_ * W);
        std::vector<double> xv = rand_values(numel(s), ++seed);
        RefPool r = ref_pool(xv, planes, H_, W, cs.c);
        PoolCfg avg_cfg = cs.c;
        avg_cfg.d[0] = avg_cfg.d[1] = 1;
        RefPool ra = ref_pool(xv, planes, H_, W, avg_cfg);
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
            SCOPED_TRACE("case " + std::to_string(seed) + (dt == CT_FLOAT32 ? " float32" : " float64"));
            H x = make(xv, s, dt), idx;
            H mx = max_ex(x, cs.c, &idx);
            Shape want = s;
            want[nd - 2] = r.OH;
            want[nd - 1] = r.OW;
            ASSERT_EQ(shape(mx), want);
            EXPECT_TRUE(allclose(mx, r.max, 1e-6));
            EXPECT_EQ(dtype(idx), CT_INT64);
            EXPECT_TRUE(allclose(idx, r.argmax, 0));
            if (ra.OH >= 1 && ra.OW >= 1) {  // average pooling has no dilation
                H av = avg_ex(x, avg_cfg);
                EXPECT_TRUE(allclose(av, ra.avg, 1e-6));
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 300);
}

// Values PyTorch gives (torch 1.13), worked out by hand as well: the ceil_mode window at the edge.
TEST(PoolOptions, CeilModeKnownValues) {
    std::vector<double> v(25);
    for (int i = 0; i < 25; ++i) v[i] = i;
    H x = make(v, {1, 1, 5, 5});
    PoolCfg c{{2, 2}, {2, 2}, {0, 0}, {1, 1}};
    c.ceil_mode = true;  // last window holds column 4 only; count_include_pad clips it at the input's end
    EXPECT_TRUE(allclose(avg_ex(x, c), {3, 5, 6.5, 13, 15, 16.5, 20.5, 22.5, 24}));
    PoolCfg e{{3, 3}, {2, 2}, {1, 1}, {1, 1}};
    e.ceil_mode = true;
    e.include_pad = false;
    EXPECT_TRUE(allclose(avg_ex(x, e), {3, 4.5, 6, 10.5, 12, 13.5, 18, 19.5, 21}));
    H idx;
    H m = max_ex(x, c, &idx);
    EXPECT_TRUE(allclose(m, {6, 8, 9, 16, 18, 19, 21, 23, 24}));
    EXPECT_TRUE(allclose(idx, {6, 8, 9, 16, 18, 19, 21, 23, 24}, 0));
    // 6x6, k 3, s 2: floor gives 2x2, ceil 3x3; 5 with k 2, s 2, p 1: the extra window would start in the padding
    PoolCfg f{{3, 3}, {2, 2}, {0, 0}, {1, 1}};
    f.ceil_mode = true;
    EXPECT_EQ(shape(max_ex(randt({1, 1, 6, 6}, 3, false), f)), (Shape{1, 1, 3, 3}));
    PoolCfg g{{2, 2}, {2, 2}, {1, 1}, {1, 1}};
    g.ceil_mode = true;
    EXPECT_EQ(shape(max_ex(randt({1, 1, 5, 5}, 3, false), g)), (Shape{1, 1, 3, 3}));
}

// The defaults of the _ex functions are the old entry points; a window wider than the input (W = 1, k 3, pad 1)
// reads only inside the input.
TEST(PoolOptions, DefaultsMatchOldEntryPointsAndNarrowInputs) {
    H x = randt({2, 3, 1, 1}, 4, false), a, b;
    PoolCfg c{{3, 3}, {1, 1}, {1, 1}, {1, 1}};
    CT_ASSERT_OK(ct_max_pool2d(x.get(), c.k, c.s, c.p, a.out()));
    EXPECT_TRUE(allclose(a, values(x), 0));
    EXPECT_TRUE(allclose(max_ex(x, c), values(a), 0));
    CT_ASSERT_OK(ct_avg_pool2d(x.get(), c.k, c.s, c.p, b.out()));
    EXPECT_TRUE(allclose(avg_ex(x, c), values(b), 0));
    std::vector<double> want = values(x);
    for (double& w : want) w /= 9;
    EXPECT_TRUE(allclose(b, want, 1e-12));
}

// NaN propagates (the last NaN is the argmax), the first of equal maxima wins, and a window whose taps are all
// padding gives -inf with index -1 and no gradient (torch reports an out-of-range index there).
TEST(PoolOptions, MaxSpecialValues) {
    H x = make({1, NAN, 3, NAN, 2, 2, 2, 2}, {2, 1, 2, 2}), idx;
    PoolCfg c{{2, 2}, {1, 1}, {0, 0}, {1, 1}};
    H m = max_ex(x, c, &idx);
    EXPECT_TRUE(std::isnan(values(m)[0]));
    EXPECT_TRUE(allclose(idx, {3, 0}, 0));
    EXPECT_EQ(values(m)[1], 2);
    H y = make({0, 1, 2, 3}, {1, 1, 2, 2}, CT_FLOAT64, true), i2, l, g;
    PoolCfg e{{2, 2}, {1, 1}, {1, 1}, {3, 3}};  // taps -1 and 2 along each axis: none inside
    H me = max_ex(y, e, &i2);
    EXPECT_TRUE(allclose(me, {-INFINITY}, 0));
    EXPECT_TRUE(allclose(i2, {-1}, 0));
    CT_ASSERT_OK(ct_sum(me.get(), nullptr, 0, 0, l.out()));
    CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(y.get(), g.out()));
    EXPECT_TRUE(allclose(g, {0, 0, 0, 0}, 0));
}

// The 2x2, stride 2 window (nn_pool.cpp's max_pool_row_2x2 path when every window is full; ceil_mode on odd
// sizes adds partial windows and takes the general path): values and argmax against the direct loops on inputs
// with ties, NaNs and -inf, so the scan order and the NaN rule are the general path's; the input gradient is the
// output gradient at each argmax and 0 elsewhere (odd trailing rows/columns too).
TEST(PoolOptions, Max2x2Stride2MatchesDirectLoops) {
    const Shape shapes[] = {{2, 3, 8, 6}, {2, 3, 7, 5}, {3, 5, 4}, {1, 1, 2, 2}, {1, 2, 3, 9}, {1, 2, 4, 259}};  // OW 129: three blocks of 64
    int seed = 100;
    for (const Shape& s : shapes)
        for (bool ceil_mode : {false, true}) {
            const int64_t nd = (int64_t)s.size(), H_ = s[nd - 2], W = s[nd - 1];
            const int64_t planes = (int64_t)numel(s) / (H_ * W);
            std::vector<double> xv = rand_values(numel(s), ++seed);
            for (size_t i = 0; i < xv.size(); ++i) {  // small integers (many ties) and a few specials
                xv[i] = std::floor(xv[i] * 2);
                if (i % 11 == 3) xv[i] = NAN;
                if (i % 13 == 5) xv[i] = -INFINITY;
            }
            PoolCfg c{{2, 2}, {2, 2}, {0, 0}, {1, 1}};
            c.ceil_mode = ceil_mode;
            RefPool r = ref_pool(xv, planes, H_, W, c);
            for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
                SCOPED_TRACE("seed " + std::to_string(seed) + (ceil_mode ? " ceil" : " floor") + (dt == CT_FLOAT32 ? " f32" : " f64"));
                H x = make(xv, s, dt, true), idx, mx = max_ex(x, c, &idx);
                std::vector<double> got = values(mx), at = values(idx);
                ASSERT_EQ(got.size(), r.max.size());
                for (size_t i = 0; i < got.size(); ++i) {
                    EXPECT_EQ(at[i], r.argmax[i]) << "output " << i;
                    if (std::isnan(r.max[i])) EXPECT_TRUE(std::isnan(got[i])) << "output " << i;
                    else EXPECT_EQ(got[i], r.max[i]) << "output " << i;
                }
                std::vector<double> gov = rand_values(got.size(), seed + 50), want(xv.size(), 0.0);
                const size_t per_out = (size_t)(r.OH * r.OW);
                for (size_t i = 0; i < gov.size(); ++i)  // plane of output i, then its argmax inside the plane
                    want[(i / per_out) * (size_t)(H_ * W) + (size_t)r.argmax[i]] += gov[i];
                H go = make(gov, shape(mx), dt), gx;
                ct_tensor mh = mx.get(), goh = go.get(), xh = x.get();
                CT_ASSERT_OK(ct_autograd_grad(&mh, 1, &goh, &xh, 1, 0, 0, 0, gx.out()));
                EXPECT_TRUE(allclose(gx, want, 0));
            }
        }
}

TEST(PoolOptions, GradcheckAndDoubleBackward) {
    PoolCfg mc{{3, 2}, {2, 1}, {1, 1}, {2, 1}};
    mc.ceil_mode = true;
    PoolCfg ac{{3, 2}, {2, 2}, {1, 1}, {1, 1}};
    ac.ceil_mode = true;
    ac.include_pad = false;
    PoolCfg dc = ac;
    dc.divisor = 5;
    for (int which = 0; which < 3; ++which) {
        SCOPED_TRACE(which);
        Fn f = [&](const std::vector<H>& in) {
            H y = which == 0 ? max_ex(in[0], mc) : avg_ex(in[0], which == 1 ? ac : dc), yy;
            ok(ct_mul(y.get(), y.get(), yy.out()));  // squared: pooling alone is (piecewise) linear
            return yy;
        };
        EXPECT_TRUE(gradcheck(f, {randt({2, 2, 6, 5}, 7 + which)}));
        EXPECT_TRUE(gradgradcheck(f, {randt({1, 2, 5, 4}, 8 + which)}));
    }
}

TEST(PoolOptions, Errors) {
    H x = randt({1, 1, 5, 5}, 1, false), y, idx;
    const int64_t k[2] = {3, 3}, s[2] = {1, 1}, z[2] = {0, 0}, one[2] = {1, 1}, d0[2] = {1, 0}, p2[2] = {0, 2};
    CT_EXPECT_ERR(ct_max_pool2d_ex(x.get(), k, s, z, d0, 0, y.out(), idx.out()), CT_ERR_INVALID_ARGUMENT,
                  "max_pool2d: dilation must be positive, got 0");
    CT_EXPECT_ERR(ct_max_pool2d_ex(x.get(), z, s, z, one, 0, y.out(), nullptr), CT_ERR_INVALID_ARGUMENT,
                  "max_pool2d: kernel size must be positive, got 0");
    CT_EXPECT_ERR(ct_avg_pool2d_ex(x.get(), k, z, z, 0, 1, 0, y.out()), CT_ERR_INVALID_ARGUMENT,
                  "avg_pool2d: stride must be positive, got 0");
    CT_EXPECT_ERR(ct_avg_pool2d_ex(x.get(), k, s, p2, 1, 1, 0, y.out()), CT_ERR_INVALID_ARGUMENT,
                  "avg_pool2d: padding 2 should be at most half of kernel size 3");
    CT_EXPECT_ERR(ct_avg_pool2d_ex(x.get(), k, s, z, 0, 1, -2, y.out()), CT_ERR_INVALID_ARGUMENT,
                  "divisor_override must be positive (0 = none), got -2");
    const int64_t d3[2] = {3, 3};  // effective kernel 7 > 5
    CT_EXPECT_ERR(ct_max_pool2d_ex(x.get(), k, s, z, d3, 1, y.out(), nullptr), CT_ERR_SHAPE,
                  "max_pool2d: output size -1x-1 is too small (< 1) for input [1, 1, 5, 5], kernel 3x3, stride 1x1, "
                  "padding 0x0, dilation 3x3, ceil_mode");
    CT_EXPECT_ERR(ct_max_pool2d_ex(x.get(), k, s, z, nullptr, 0, y.out(), nullptr), CT_ERR_INVALID_ARGUMENT,
                  "dilation is NULL");
    CT_EXPECT_ERR(ct_max_pool2d_ex(x.get(), k, s, z, one, 0, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT,
                  "output pointer out is NULL");
    H xi = make({1, 2, 3, 4}, {1, 1, 2, 2}, CT_INT64);
    CT_EXPECT_ERR(ct_avg_pool2d_ex(xi.get(), one, one, z, 0, 1, 0, y.out()), CT_ERR_DTYPE, "floating");
}

// ---- adaptive pooling ----

namespace {

// Windows [floor(i * n / o), ceil((i + 1) * n / o)) by direct loops.
RefPool ref_adaptive(const std::vector<double>& x, int64_t planes, int64_t H_, int64_t W, int64_t OH, int64_t OW) {
    RefPool r;
    r.OH = OH;
    r.OW = OW;
    for (int64_t pl = 0; pl < planes; ++pl)
        for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                const int64_t h0 = (int64_t)std::floor((double)oh * H_ / OH);
                const int64_t h1 = (int64_t)std::ceil((double)(oh + 1) * H_ / OH);
                const int64_t w0 = (int64_t)std::floor((double)ow * W / OW);
                const int64_t w1 = (int64_t)std::ceil((double)(ow + 1) * W / OW);
                double best = -INFINITY, sum = 0, at = -1;
                for (int64_t h = h0; h < h1; ++h)
                    for (int64_t w = w0; w < w1; ++w) {
                        const double v = x[(pl * H_ + h) * W + w];
                        if (at < 0 || v > best || std::isnan(v)) {
                            best = v;
                            at = (double)(h * W + w);
                        }
                        sum += v;
                    }
                r.max.push_back(best);
                r.argmax.push_back(at);
                r.avg.push_back(sum / (double)((h1 - h0) * (w1 - w0)));
            }
    return r;
}

}  // namespace

TEST(AdaptivePool, MatchesDirectLoops) {
    const Shape shapes[] = {{2, 3, 7, 5}, {3, 10, 9}, {1, 1, 1, 1}, {1, 2, 4, 13}};
    const int64_t outs[][2] = {{1, 1}, {2, 3}, {3, 3}, {4, 5}, {7, 5}, {9, 11}, {5, 2}};
    int seed = 0;
    for (const Shape& s : shapes)
        for (const auto& o : outs) {
            const int64_t nd = (int64_t)s.size(), H_ = s[nd - 2], W = s[nd - 1];
            std::vector<double> xv = rand_values(numel(s), ++seed);
            RefPool r = ref_adaptive(xv, (int64_t)numel(s) / (H_ * W), H_, W, o[0], o[1]);
            for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
                SCOPED_TRACE("case " + std::to_string(seed));
                H x = make(xv, s, dt), av, mx, idx;
                CT_ASSERT_OK(ct_adaptive_avg_pool2d(x.get(), o, av.out()));
                CT_ASSERT_OK(ct_adaptive_max_pool2d(x.get(), o, mx.out(), idx.out()));
                Shape want = s;
                want[nd - 2] = o[0];
                want[nd - 1] = o[1];
                EXPECT_EQ(shape(av), want);
                EXPECT_TRUE(allclose(av, r.avg, 1e-6));
                EXPECT_TRUE(allclose(mx, r.max, 1e-6));
                EXPECT_TRUE(allclose(idx, r.argmax, 0));
            }
        }
    // global average pooling is the mean over H, W
    H x = randt({2, 3, 4, 5}, 11, false), g, m;
    const int64_t one[2] = {1, 1}, dims[2] = {-2, -1};
    CT_ASSERT_OK(ct_adaptive_avg_pool2d(x.get(), one, g.out()));
    CT_ASSERT_OK(ct_mean(x.get(), dims, 2, 1, m.out()));
    EXPECT_TRUE(allclose(g, values(m), 1e-12));
}

TEST(AdaptivePool, GradcheckAndDoubleBackward) {
    const int64_t o[2] = {3, 4};
    for (int is_max = 0; is_max < 2; ++is_max) {
        Fn f = [&](const std::vector<H>& in) {
            H y, yy;
            if (is_max) ok(ct_adaptive_max_pool2d(in[0].get(), o, y.out(), nullptr));
            else ok(ct_adaptive_avg_pool2d(in[0].get(), o, y.out()));
            ok(ct_mul(y.get(), y.get(), yy.out()));
            return yy;
        };
        EXPECT_TRUE(gradcheck(f, {randt({2, 2, 5, 7}, 12)})) << is_max;
        EXPECT_TRUE(gradgradcheck(f, {randt({1, 2, 5, 3}, 13)})) << is_max;
    }
}

TEST(AdaptivePool, EmptyBatchAndErrors) {
    H e = randt({0, 2, 4, 4}, 1, false), y, idx;
    const int64_t o[2] = {2, 2}, neg[2] = {2, -1};
    CT_ASSERT_OK(ct_adaptive_max_pool2d(e.get(), o, y.out(), idx.out()));
    EXPECT_EQ(shape(y), (Shape{0, 2, 2, 2}));
    H x = randt({1, 0, 4}, 2, false);
    CT_EXPECT_ERR(ct_adaptive_avg_pool2d(x.get(), o, y.out()), CT_ERR_SHAPE,
                  "adaptive_avg_pool2d: expected input with non-zero sizes for non-batch dims, got [1, 0, 4]");
    H x2 = randt({2, 4, 4}, 3, false);
    CT_EXPECT_ERR(ct_adaptive_max_pool2d(x2.get(), neg, y.out(), nullptr), CT_ERR_INVALID_ARGUMENT,
                  "adaptive_max_pool2d: output size must be non-negative, got 2x-1");
    CT_EXPECT_ERR(ct_adaptive_max_pool2d(x2.get(), nullptr, y.out(), nullptr), CT_ERR_INVALID_ARGUMENT,
                  "output_size is NULL");
    H x3 = randt({4, 4}, 4, false);
    CT_EXPECT_ERR(ct_adaptive_avg_pool2d(x3.get(), o, y.out()), CT_ERR_SHAPE, "expected input with 4 dims");
}

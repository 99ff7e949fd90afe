// test_conv.cpp - conv2d, max_pool2d and avg_pool2d through the C API: values against direct loops on odd
// sizes with stride / padding / dilation / groups, gradchecks, double backward and shape errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

using Fn = std::function<H(const std::vector<H>&)>;

struct ConvCase {
    Shape x, w;
    int64_t stride[2], padding[2], dilation[2], groups;
    bool bias;
};

// Direct convolution: out[n][o][oh][ow] = b[o] + sum over c, i, j of x[n][g*Cg + c][ih][iw] * w[o][c][i][j].
std::vector<double> ref_conv(const std::vector<double>& x, const std::vector<double>& w, const std::vector<double>& b,
                             const ConvCase& k, Shape& out_shape) {
    int64_t N = k.x[0], C = k.x[1], H_ = k.x[2], W = k.x[3], O = k.w[0], KH = k.w[2], KW = k.w[3];
    int64_t Cg = C / k.groups, Og = O / k.groups;
    int64_t OH = (H_ + 2 * k.padding[0] - k.dilation[0] * (KH - 1) - 1) / k.stride[0] + 1;
    int64_t OW = (W + 2 * k.padding[1] - k.dilation[1] * (KW - 1) - 1) / k.stride[1] + 1;
    out_shape = {N, O, OH, OW};
    std::vector<double> out;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < O; ++o)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double s = k.bias ? b[o] : 0.0;
                    int64_t g = o / Og;
                    for (int64_t c = 0; c < Cg; ++c)
                        for (int64_t i = 0; i < KH; ++i)
                            for (int64_t j = 0; j < KW; ++j) {
                                int64_t ih = oh * k.stride[0] - k.padding[0] + i * k.dilation[0];
                                int64_t iw = ow * k.stride[1] - k.padding[1] + j * k.dilation[1];
                                if (ih < 0 || ih >= H_ || iw < 0 || iw >= W) continue;
                                s += x[((n * C + g * Cg + c) * H_ + ih) * W + iw] * w[((o * Cg + c) * KH + i) * KW + j];
                            }
                    out.push_back(s);
                }
    return out;
}

std::vector<ConvCase> conv_cases() {
    return {
        {{2, 3, 7, 6}, {4, 3, 3, 2}, {1, 1}, {0, 0}, {1, 1}, 1, true},
        {{1, 4, 9, 8}, {6, 2, 3, 3}, {2, 3}, {1, 2}, {2, 1}, 2, true},
        {{2, 6, 5, 5}, {6, 1, 3, 3}, {1, 2}, {1, 1}, {1, 2}, 6, false},  // depthwise
        {{2, 4, 5, 3}, {3, 4, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, true},   // pointwise fast path
        {{1, 2, 4, 4}, {2, 1, 1, 1}, {2, 2}, {0, 0}, {1, 1}, 2, false},  // 1x1 with stride (im2col path)
    };
}

H conv_of(const std::vector<H>& in, const ConvCase& k) {
    H y;
    ok(ct_conv2d(in[0].get(), in[1].get(), in.size() > 2 ? in[2].get() : nullptr, k.stride, k.padding, k.dilation,
                 k.groups, y.out()));
    return y;
}

size_t numel(const Shape& s) {
    size_t n = 1;
    for (auto v : s) n *= (size_t)v;
    return n;
}

}  // namespace

TEST(Conv2d, MatchesDirectLoops) {
    for_each_device([&] {
        int seed = 0;
        for (const ConvCase& k : conv_cases()) {
            std::vector<double> xv = rand_values(numel(k.x), ++seed), wv = rand_values(numel(k.w), ++seed),
                                bv = rand_values((size_t)k.w[0], ++seed);
            Shape os;
            std::vector<double> expect = ref_conv(xv, wv, bv, k, os);
            for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
                std::vector<H> in{make(xv, k.x, dt), make(wv, k.w, dt)};
                if (k.bias) in.push_back(make(bv, {k.w[0]}, dt));
                H y = conv_of(in, k);
                EXPECT_EQ(shape(y), os);
                EXPECT_EQ(dtype(y), dt);
                EXPECT_TRUE(allclose(y, expect, dt == CT_FLOAT64 ? 1e-12 : 1e-5, 1e-4)) << "case " << seed / 3;
            }
        }
    });
}

TEST(Conv2d, UnbatchedAndNonContiguousInput) {
    for_each_device([&] {
        ConvCase k{{1, 2, 5, 4}, {3, 2, 2, 2}, {1, 1}, {1, 0}, {1, 1}, 1, true};
        std::vector<double> xv = rand_values(40, 1), wv = rand_values(24, 2), bv = rand_values(3, 3);
        Shape os;
        std::vector<double> expect = ref_conv(xv, wv, bv, k, os);
        H x3 = make(xv, {2, 5, 4}), w = make(wv, k.w), b = make(bv, {3});
        H y = conv_of({x3, w, b}, k);
        EXPECT_EQ(shape(y), (Shape{3, os[2], os[3]}));
        EXPECT_TRUE(allclose(y, expect, 1e-12));
        // the same input stored transposed in H and W
        std::vector<double> tv(40);
        for (int c = 0; c < 2; ++c)
            for (int h = 0; h < 5; ++h)
                for (int x = 0; x < 4; ++x) tv[(c * 4 + x) * 5 + h] = xv[(c * 5 + h) * 4 + x];
        H xt0 = make(tv, {1, 2, 4, 5}), xt;
        CT_ASSERT_OK(ct_transpose(xt0.get(), 2, 3, xt.out()));
        EXPECT_TRUE(allclose(conv_of({xt, w, b}, k), expect, 1e-12));
    });
}

TEST(Conv2d, GradcheckAndDoubleBackward) {
    for_each_device([&] {
        int seed = 100;
        for (const ConvCase& k : conv_cases()) {
            Shape xs = k.x;
            xs[0] = 1;  // keep the numeric differences cheap
            std::vector<H> in{randt(xs, ++seed), randt(k.w, ++seed)};
            if (k.bias) in.push_back(randt({k.w[0]}, ++seed));
            Fn f = [k](const std::vector<H>& v) { return conv_of(v, k); };
            EXPECT_TRUE(gradcheck(f, in)) << "case seed " << seed;
            EXPECT_TRUE(gradgradcheck(f, in)) << "case seed " << seed;
        }
    });
}

TEST(Conv2d, Errors) {
    for_each_device([&] {
        int64_t one[2] = {1, 1}, zero[2] = {0, 0}, big[2] = {10, 10};
        H x = randt({1, 3, 5, 5}, 1, false), w = randt({4, 3, 3, 3}, 2, false), y;
        H x2 = randt({3, 5}, 3, false);
        CT_EXPECT_ERR(ct_conv2d(x2.get(), w.get(), nullptr, one, zero, one, 1, y.out()), CT_ERR_SHAPE,
                      "conv2d: expected input with 4 dims [N, C, H, W]");
        CT_EXPECT_ERR(ct_conv2d(x2.get(), w.get(), nullptr, one, zero, one, 1, y.out()), CT_ERR_SHAPE, "got [3, 5]");
        H w5 = randt({4, 5, 3, 3}, 4, false);
        CT_EXPECT_ERR(ct_conv2d(x.get(), w5.get(), nullptr, one, zero, one, 1, y.out()), CT_ERR_SHAPE,
                      "input has 3 channels but weight [4, 5, 3, 3] expects 5");
        CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), nullptr, one, zero, big, 1, y.out()), CT_ERR_SHAPE, "output size");
        CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), nullptr, zero, zero, one, 1, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "stride must be positive");
        CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), nullptr, one, zero, one, 2, y.out()), CT_ERR_SHAPE,
                      "not divisible by groups 2");
        CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), nullptr, nullptr, zero, one, 1, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "stride is NULL");
        H b = randt({3}, 5, false);
        CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), b.get(), one, zero, one, 1, y.out()), CT_ERR_SHAPE, "bias of shape [3]");
        H w32 = make(rand_values(108, 6), {4, 3, 3, 3}, CT_FLOAT32);
        CT_EXPECT_ERR(ct_conv2d(x.get(), w32.get(), nullptr, one, zero, one, 1, y.out()), CT_ERR_DTYPE, "same dtype");
    });
}

// ---- pooling ----

namespace {

// Direct pooling over [planes, H, W]; max (NaN-propagating) or average with the window size as divisor.
std::vector<double> ref_pool(const std::vector<double>& x, int64_t planes, int64_t H_, int64_t W, const int64_t* k,
                             const int64_t* s, const int64_t* p, bool is_max) {
    int64_t OH = (H_ + 2 * p[0] - k[0]) / s[0] + 1, OW = (W + 2 * p[1] - k[1]) / s[1] + 1;
    std::vector<double> out;
    for (int64_t pl = 0; pl < planes; ++pl)
        for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                double best = -INFINITY, sum = 0;
                for (int64_t i = 0; i < k[0]; ++i)
                    for (int64_t j = 0; j < k[1]; ++j) {
                        int64_t h = oh * s[0] - p[0] + i, w = ow * s[1] - p[1] + j;
                        if (h < 0 || h >= H_ || w < 0 || w >= W) continue;
                        double v = x[(pl * H_ + h) * W + w];
                        best = std::max(best, v);
                        sum += v;
                    }
                out.push_back(is_max ? best : sum / (double)(k[0] * k[1]));
            }
    return out;
}

}  // namespace

TEST(Pool2d, MatchesDirectLoops) {
    struct Case { Shape x; int64_t k[2], s[2], p[2]; };
    std::vector<Case> cases{{{2, 3, 7, 5}, {3, 2}, {2, 1}, {1, 1}}, {{1, 2, 6, 6}, {2, 2}, {2, 2}, {0, 0}},
                            {{3, 5, 4}, {3, 3}, {1, 2}, {1, 0}}};
    int seed = 0;
    for (const Case& c : cases) {
        std::vector<double> xv = rand_values(numel(c.x), ++seed);
        int64_t planes = (int64_t)numel(c.x) / (c.x[c.x.size() - 1] * c.x[c.x.size() - 2]);
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
            H x = make(xv, c.x, dt), mx, av;
            CT_ASSERT_OK(ct_max_pool2d(x.get(), c.k, c.s, c.p, mx.out()));
            CT_ASSERT_OK(ct_avg_pool2d(x.get(), c.k, c.s, c.p, av.out()));
            int64_t H_ = c.x[c.x.size() - 2], W = c.x.back();
            EXPECT_TRUE(allclose(mx, ref_pool(xv, planes, H_, W, c.k, c.s, c.p, true), 1e-6));
            EXPECT_TRUE(allclose(av, ref_pool(xv, planes, H_, W, c.k, c.s, c.p, false), 1e-6));
            EXPECT_EQ(shape(mx).size(), c.x.size());
        }
    }
    // NaN propagates through max pooling
    int64_t k[2] = {2, 2}, s[2] = {2, 2}, p[2] = {0, 0};
    H xn = make({1, NAN, 3, 4}, {1, 1, 2, 2}), y;
    CT_ASSERT_OK(ct_max_pool2d(xn.get(), k, s, p, y.out()));
    EXPECT_TRUE(std::isnan(scalar(y)));
}

TEST(Pool2d, MaxPoolGradientGoesToArgmax) {
    int64_t k[2] = {2, 2}, s[2] = {1, 1}, p[2] = {0, 0};
    H x = make({1, 5, 2, 3, 0, 4, 9, 1, 2}, {1, 1, 3, 3}, CT_FLOAT64, true), y, l, g;
    CT_ASSERT_OK(ct_max_pool2d(x.get(), k, s, p, y.out()));
    EXPECT_TRUE(allclose(y, {5, 5, 9, 4}));
    CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
    CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
    EXPECT_TRUE(allclose(g, {0, 2, 0, 0, 0, 1, 1, 0, 0}));  // overlapping windows accumulate
}

TEST(Pool2d, GradcheckAndDoubleBackward) {
    int64_t k[2] = {3, 2}, s[2] = {2, 1}, p[2] = {1, 1};
    for (int is_max = 0; is_max < 2; ++is_max) {
        Fn f = [&](const std::vector<H>& in) {
            H y, yy;
            ok((is_max ? ct_max_pool2d : ct_avg_pool2d)(in[0].get(), k, s, p, y.out()));
            ok(ct_mul(y.get(), y.get(), yy.out()));  // squared: pooling alone is (piecewise) linear
            return yy;
        };
        EXPECT_TRUE(gradcheck(f, {randt({2, 2, 5, 4}, 7)})) << is_max;
        EXPECT_TRUE(gradgradcheck(f, {randt({1, 2, 5, 4}, 8)})) << is_max;
    }
}

TEST(Pool2d, Errors) {
    int64_t k[2] = {3, 3}, s[2] = {1, 1}, p[2] = {2, 0}, z[2] = {0, 0}, huge[2] = {9, 9};
    H x = randt({1, 1, 5, 5}, 1, false), y;
    CT_EXPECT_ERR(ct_max_pool2d(x.get(), k, s, p, y.out()), CT_ERR_INVALID_ARGUMENT,
                  "padding 2 should be at most half of kernel size 3");
    CT_EXPECT_ERR(ct_avg_pool2d(x.get(), huge, s, z, y.out()), CT_ERR_SHAPE, "avg_pool2d: output size");
    CT_EXPECT_ERR(ct_max_pool2d(x.get(), k, z, z, y.out()), CT_ERR_INVALID_ARGUMENT, "stride must be positive");
    CT_EXPECT_ERR(ct_max_pool2d(x.get(), nullptr, s, z, y.out()), CT_ERR_INVALID_ARGUMENT, "kernel is NULL");
    H x2 = randt({5, 5}, 2, false);
    CT_EXPECT_ERR(ct_avg_pool2d(x2.get(), k, s, z, y.out()), CT_ERR_SHAPE, "expected input with 4 dims");
    H xi = make({1, 2, 3, 4}, {1, 1, 2, 2}, CT_INT64);
    int64_t k1[2] = {1, 1};
    CT_EXPECT_ERR(ct_max_pool2d(xi.get(), k1, s, z, y.out()), CT_ERR_DTYPE, "floating");
}

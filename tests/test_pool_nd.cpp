// test_pool_nd.cpp - ct_max_pool_nd / ct_avg_pool_nd / ct_adaptive_*_pool_nd (1-d and 3-d) through the C API:
// values and argmax against direct loops over the 3 normalised dims, gradchecks incl. double backward, errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

struct PoolCase {
    int32_t nd;
    Shape x;
    std::vector<int64_t> k, s, p, d;
    bool ceil_mode, count_include_pad;
    int64_t divisor;
};

// torch's output size along one axis.
int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const int64_t a = in + 2 * p - d * (k - 1) - 1;
    int64_t o = (ceil_mode ? (a + s - 1) / s : a / s) + 1;
    if (ceil_mode && (o - 1) * s >= in + p) --o;
    return o;
}

// Direct pooling of planes of the last nd dims: max (first max in row-major order, NaN wins) with its flat index,
// or the average with torch's divisor (window clipped to the padded input, or valid taps, or the override).
void ref_pool(const std::vector<double>& x, const PoolCase& c, bool is_max, std::vector<double>& out,
              std::vector<double>& idx, Shape& os) {
    const size_t r = c.x.size() - (size_t)c.nd;
    int64_t planes = 1, in[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0},
            d[3] = {1, 1, 1};
    for (size_t i = 0; i < r; ++i) planes *= c.x[i];
    os = Shape(c.x.begin(), c.x.begin() + (long)r);
    for (int i = 0; i < c.nd; ++i) {
        const int a = 3 - c.nd + i;
        in[a] = c.x[r + (size_t)i], k[a] = c.k[(size_t)i], s[a] = c.s[(size_t)i], p[a] = c.p[(size_t)i];
        d[a] = is_max ? c.d[(size_t)i] : 1;
        o[a] = out_size(in[a], k[a], s[a], p[a], d[a], c.ceil_mode);
        os.push_back(o[a]);
    }
    for (int64_t pl = 0; pl < planes; ++pl)
        for (int64_t a = 0; a < o[0]; ++a)
            for (int64_t b = 0; b < o[1]; ++b)
                for (int64_t e = 0; e < o[2]; ++e) {
                    const int64_t q[3] = {a, b, e};
                    double best = -INFINITY, sum = 0;
                    int64_t at = -1, valid = 1, padded = 1;
                    for (int ax = 0; ax < 3; ++ax) {  // avg divisors per axis
                        const int64_t st = q[ax] * s[ax] - p[ax], en = std::min(st + k[ax], in[ax] + p[ax]);
                        padded *= en - st;
                        valid *= std::min(st + k[ax], in[ax]) - std::max<int64_t>(st, 0);
                    }
                    for (int64_t i = 0; i < k[0]; ++i)
                        for (int64_t j = 0; j < k[1]; ++j)
                            for (int64_t l = 0; l < k[2]; ++l) {
                                const int64_t t[3] = {q[0] * s[0] - p[0] + i * d[0], q[1] * s[1] - p[1] + j * d[1],
                                                      q[2] * s[2] - p[2] + l * d[2]};
                                bool inside = true;
                                for (int ax = 0; ax < 3; ++ax) inside = inside && t[ax] >= 0 && t[ax] < in[ax];
                                if (!inside) continue;
                                const int64_t f = (t[0] * in[1] + t[1]) * in[2] + t[2];
                                const double v = x[(size_t)(pl * in[0] * in[1] * in[2] + f)];
                                sum += v;
                                if (at < 0 || v > best || std::isnan(v)) best = v, at = f;
                            }
                    if (is_max) {
                        out.push_back(best);
                        idx.push_back((double)at);
                    } else {
                        const int64_t div = c.divisor > 0 ? c.divisor : c.count_include_pad ? padded : valid;
                        out.push_back(sum / (double)div);
                    }
                }
}

H max_of(const H& x, const PoolCase& c, H* idx = nullptr) {
    H y;
    ok(ct_max_pool_nd(x.get(), c.nd, c.k.data(), c.s.data(), c.p.data(), c.d.data(), c.ceil_mode, y.out(),
                      idx ? idx->out() : nullptr));
    return y;
}

H avg_of(const H& x, const PoolCase& c) {
    H y;
    ok(ct_avg_pool_nd(x.get(), c.nd, c.k.data(), c.s.data(), c.p.data(), c.ceil_mode, c.count_include_pad, c.divisor,
                      y.out()));
    return y;
}

std::vector<PoolCase> cases() {
    return {
        {1, {2, 3, 11}, {3}, {2}, {1}, {1}, false, true, 0},
        {1, {2, 3, 10}, {3}, {2}, {1}, {2}, true, false, 0},
        {1, {3, 9}, {4}, {3}, {2}, {1}, true, true, 0},  // unbatched
        {3, {2, 2, 5, 6, 7}, {2, 3, 2}, {1, 2, 2}, {1, 1, 0}, {1, 1, 1}, false, true, 0},
        {3, {1, 2, 7, 5, 6}, {3, 3, 3}, {2, 2, 2}, {1, 0, 1}, {2, 1, 1}, true, false, 0},
        {3, {2, 4, 4, 4}, {2, 2, 2}, {2, 1, 2}, {1, 1, 0}, {1, 1, 1}, false, true, 3},  // unbatched, divisor
    };
}

// y * y: pooling alone is (piecewise) linear, so its double backward is only exercised through a product.
H sq(const H& y) {
    H yy;
    ok(ct_mul(y.get(), y.get(), yy.out()));
    return yy;
}

size_t numel(const Shape& s) {
    size_t n = 1;
    for (auto v : s) n *= (size_t)v;
    return n;
}

}  // namespace

TEST(PoolNd, MaxAndAvgMatchDirectLoops) {
    for_each_device([&] {
        int seed = 0;
        for (const PoolCase& c : cases()) {
            std::vector<double> xv = rand_values(numel(c.x), ++seed);
            std::vector<double> mx, ix, av, unused;
            Shape os, os_avg;  // they differ where max pooling is dilated
            ref_pool(xv, c, true, mx, ix, os);
            ref_pool(xv, c, false, av, unused, os_avg);
            for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
                H x = make(xv, c.x, dt), idx;
                H m = max_of(x, c, &idx), a = avg_of(x, c);
                EXPECT_EQ(shape(m), os) << "case " << seed;
                EXPECT_EQ(shape(a), os_avg) << "case " << seed;
                EXPECT_TRUE(allclose(m, mx, 1e-6)) << "case " << seed;
                EXPECT_TRUE(allclose(idx, ix, 0)) << "case " << seed;
                EXPECT_EQ(dtype(idx), CT_INT64) << "case " << seed;
                EXPECT_TRUE(allclose(a, av, 1e-6)) << "case " << seed;
            }
        }
    });
}

TEST(PoolNd, GradcheckAndDoubleBackward) {
    for_each_device([&] {
        int seed = 50;
        for (const PoolCase& c : cases()) {
            Shape xs = c.x;
            if (xs.size() == (size_t)c.nd + 2) xs[0] = 1;
            std::vector<H> in{randt(xs, ++seed)};
            std::function<H(const std::vector<H>&)> fm = [c](const std::vector<H>& v) { return sq(max_of(v[0], c)); };
            std::function<H(const std::vector<H>&)> fa = [c](const std::vector<H>& v) { return sq(avg_of(v[0], c)); };
            EXPECT_TRUE(gradcheck(fm, in)) << "case seed " << seed;
            EXPECT_TRUE(gradgradcheck(fm, in)) << "case seed " << seed;
            EXPECT_TRUE(gradcheck(fa, in)) << "case seed " << seed;
            EXPECT_TRUE(gradgradcheck(fa, in)) << "case seed " << seed;
        }
        const int64_t o1[1] = {3}, o3[3] = {2, 3, 2};
        std::vector<H> x1{randt({1, 2, 7}, 90)}, x3{randt({1, 2, 4, 5, 3}, 91)};
        for (int nd : {1, 3}) {
            const int64_t* o = nd == 1 ? o1 : o3;
            std::function<H(const std::vector<H>&)> aa = [nd, o](const std::vector<H>& v) {
                H y;
                ok(ct_adaptive_avg_pool_nd(v[0].get(), nd, o, y.out()));
                return sq(y);
            };
            std::function<H(const std::vector<H>&)> am = [nd, o](const std::vector<H>& v) {
                H y;
                ok(ct_adaptive_max_pool_nd(v[0].get(), nd, o, y.out(), nullptr));
                return sq(y);
            };
            const std::vector<H>& in = nd == 1 ? x1 : x3;
            EXPECT_TRUE(gradcheck(aa, in)) << nd;
            EXPECT_TRUE(gradgradcheck(aa, in)) << nd;
            EXPECT_TRUE(gradcheck(am, in)) << nd;
            EXPECT_TRUE(gradgradcheck(am, in)) << nd;
        }
    });
}

TEST(PoolNd, AdaptiveMatchesWindows) {
    for_each_device([&] {
        // adaptive 3-d over [1, 1, 2, 3, 4] to (1, 2, 2): windows d [0, 2), h [0, 2) / [1, 3), w [0, 2) / [2, 4)
        std::vector<double> xv(24);
        for (size_t i = 0; i < 24; ++i) xv[i] = (double)i;
        H x = make(xv, {1, 1, 2, 3, 4}), a, m, idx;
        const int64_t o[3] = {1, 2, 2};
        CT_ASSERT_OK(ct_adaptive_avg_pool_nd(x.get(), 3, o, a.out()));
        CT_ASSERT_OK(ct_adaptive_max_pool_nd(x.get(), 3, o, m.out(), idx.out()));
        EXPECT_EQ(shape(a), (Shape{1, 1, 1, 2, 2}));
        EXPECT_TRUE(allclose(a, {8.5, 10.5, 12.5, 14.5}, 1e-12));
        EXPECT_TRUE(allclose(m, {17, 19, 21, 23}, 0));
        EXPECT_TRUE(allclose(idx, {17, 19, 21, 23}, 0));
    });
}

TEST(PoolNd, Errors) {
    for_each_device([&] {
        const int64_t k2[3] = {2, 2, 2}, s1[3] = {1, 1, 1}, p0[3] = {0, 0, 0}, p2[3] = {2, 2, 2}, d1[3] = {1, 1, 1};
        const int64_t s0[3] = {0, 0, 0}, neg[3] = {2, -1, 2};
        H x = randt({1, 2, 4, 4, 4}, 1, false), x2 = randt({4, 4}, 2, false), y, i;
        CT_EXPECT_ERR(ct_max_pool_nd(x2.get(), 3, k2, s1, p0, d1, 0, y.out(), nullptr), CT_ERR_SHAPE,
                      "max_pool3d: expected input with 5 dims");
        CT_EXPECT_ERR(ct_max_pool_nd(x.get(), 4, k2, s1, p0, d1, 0, y.out(), nullptr), CT_ERR_INVALID_ARGUMENT,
                      "spatial rank must be 1, 2 or 3, got 4");
        CT_EXPECT_ERR(ct_max_pool_nd(x.get(), 3, k2, s1, p2, d1, 0, y.out(), i.out()), CT_ERR_INVALID_ARGUMENT,
                      "max_pool3d: padding 2 should be at most half of kernel size 2");
        CT_EXPECT_ERR(ct_avg_pool_nd(x.get(), 3, k2, s0, p0, 0, 1, 0, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "avg_pool3d: stride must be positive, got 0");
        CT_EXPECT_ERR(ct_avg_pool_nd(x.get(), 3, k2, s1, p0, 0, 1, -2, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "divisor_override must be positive");
        CT_EXPECT_ERR(ct_avg_pool_nd(x.get(), 3, k2, nullptr, p0, 0, 1, 0, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "avg_pool_nd: stride is NULL");
        H x1 = randt({1, 2, 1}, 3, false);
        const int64_t k4[1] = {4}, one[1] = {1};
        CT_EXPECT_ERR(ct_avg_pool_nd(x1.get(), 1, k4, one, one, 0, 1, 0, y.out()), CT_ERR_SHAPE,
                      "avg_pool1d: output size 0 in spatial dim 0 is too small");
        CT_EXPECT_ERR(ct_adaptive_avg_pool_nd(x.get(), 3, neg, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "adaptive_avg_pool3d: output size must be non-negative, got -1");
        H xe = randt({1, 2, 0, 3, 3}, 4, false);
        CT_EXPECT_ERR(ct_adaptive_max_pool_nd(xe.get(), 3, k2, y.out(), i.out()), CT_ERR_SHAPE,
                      "adaptive_max_pool3d: expected input with non-zero sizes for non-batch dims");
        H xi = make({1, 2, 3, 4}, {1, 1, 4}, CT_INT64);
        CT_EXPECT_ERR(ct_max_pool_nd(xi.get(), 1, k4, one, p0, d1, 0, y.out(), nullptr), CT_ERR_DTYPE, "max_pool1d");
    });
}

// test_toolbox_stats.cpp - the rest of issue 14's toolbox through the C API: repeat_interleave, meshgrid,
// median / nanmedian, quantile / nanquantile and cdist (values from torch 1.13 or closed forms, ties and NaN,
// empty and 0-d inputs, errors naming the op, gradients in float64 against central differences), on the CPU and
// the (emulated) CUDA backend.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {
const double NaN = std::nan("");

H repeat(const H& x, const H& reps, int64_t r, int64_t dim, bool has_dim) {
    H out;
    ok(ct_repeat_interleave(x.get(), reps.get(), r, dim, has_dim, 0, 0, out.out()));
    return out;
}
std::pair<H, H> median_dim(const H& x, int64_t dim, bool keepdim, bool nan) {
    H v, i;
    ok((nan ? ct_nanmedian_dim : ct_median_dim)(x.get(), dim, keepdim, v.out(), i.out()));
    return {std::move(v), std::move(i)};
}
H quantile(const H& x, const H& q, double qs, int64_t dim, bool has_dim, bool keepdim, int32_t mode, bool nan = false) {
    H out;
    ok((nan ? ct_nanquantile : ct_quantile)(x.get(), q.get(), qs, dim, has_dim, keepdim, mode, out.out()));
    return out;
}
H cdist(const H& a, const H& b, double p, int32_t mode = 0) {
    H out;
    ok(ct_cdist(a.get(), b.get(), p, mode, out.out()));
    return out;
}
H exp_of(const H& t) {
    H out;
    ok(ct_exp(t.get(), out.out()));
    return out;
}
// values equal, NaN where expected is NaN
::testing::AssertionResult same(const H& t, const std::vector<double>& e, double tol = 1e-9) {
    std::vector<double> v = values(t);
    if (v.size() != e.size()) return ::testing::AssertionFailure() << "size " << v.size() << " != " << e.size();
    for (size_t i = 0; i < v.size(); ++i)
        if (std::isnan(e[i]) ? !std::isnan(v[i]) : !(std::fabs(v[i] - e[i]) <= tol * (1 + std::fabs(e[i]))))
            return ::testing::AssertionFailure() << "at " << i << ": " << v[i] << " != " << e[i];
    return ::testing::AssertionSuccess();
}
}  // namespace

TEST(ToolboxStats, RepeatInterleaveValues) {
    for_each_device([&] {
        H x = make({1, 2, 3, 4}, {2, 2}), none;
        EXPECT_TRUE(same(repeat(x, none, 2, 0, false), {1, 1, 2, 2, 3, 3, 4, 4}));
        EXPECT_EQ(shape(repeat(x, none, 2, 1, true)), (Shape{2, 4}));
        EXPECT_TRUE(same(repeat(x, none, 2, 1, true), {1, 1, 2, 2, 3, 3, 4, 4}));
        EXPECT_TRUE(same(repeat(x, make({1, 2}, {2}, CT_INT64), 0, 0, true), {1, 2, 3, 4, 3, 4}));
        EXPECT_TRUE(same(repeat(x, make({3}, {1}, CT_INT32), 0, -1, true), {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}));
        EXPECT_EQ(shape(repeat(x, make({0, 0}, {2}, CT_INT64), 0, 0, true)), (Shape{0, 2}));
        EXPECT_EQ(shape(repeat(x, none, 0, 1, true)), (Shape{2, 0}));
        EXPECT_TRUE(same(repeat(make({5}, {}), none, 3, 0, false), {5, 5, 5}));  // 0-d flattens
        EXPECT_EQ(shape(repeat(make({}, {0, 3}), none, 4, 1, true)), (Shape{0, 12}));
        H out;
        CT_EXPECT_ERR(ct_repeat_interleave(x.get(), nullptr, 2, 0, 1, 5, 1, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "repeat_interleave: output_size 5 does not match the sum of repeats (4)");
        CT_EXPECT_ERR(ct_repeat_interleave(x.get(), nullptr, -1, 0, 0, 0, 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "repeats can not be negative, got -1");
        CT_EXPECT_ERR(ct_repeat_interleave(x.get(), make({1, -2}, {2}, CT_INT64).get(), 0, 0, 1, 0, 0, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "got -2");
        CT_EXPECT_ERR(ct_repeat_interleave(x.get(), make({1, 2, 3}, {3}, CT_INT64).get(), 0, 0, 1, 0, 0, out.out()),
                      CT_ERR_SHAPE, "repeats (3 values)");
        CT_EXPECT_ERR(ct_repeat_interleave(x.get(), make({1, 2}, {2}).get(), 0, 0, 1, 0, 0, out.out()), CT_ERR_DTYPE,
                      "repeats must be an integer tensor");
        CT_EXPECT_ERR(ct_repeat_interleave(make({5}, {}).get(), nullptr, 2, 0, 1, 0, 0, out.out()), CT_ERR_INDEX,
                      "the input is 0-d");
        CT_EXPECT_ERR(ct_repeat_interleave(make({1, 2}, {2}).get(), nullptr, INT64_MAX, 0, 1, 0, 0, out.out()),
                      CT_ERR_SHAPE, "overflows int64");
        EXPECT_FALSE(out);
    });
}

TEST(ToolboxStats, MeshgridViewsAndErrors) {
    for_each_device([&] {
        H a = make({1, 2}, {2}), b = make({3, 4, 5}, {3}), c = make({7}, {});
        ct_tensor hs[3] = {a.get(), b.get(), c.get()};
        H outs[3];
        ct_tensor raw[3] = {nullptr, nullptr, nullptr};
        CT_ASSERT_OK(ct_meshgrid(hs, 3, CT_MESHGRID_IJ, raw, 3));
        for (int i = 0; i < 3; ++i) *outs[i].out() = raw[i];
        EXPECT_EQ(shape(outs[0]), (Shape{2, 3, 1}));
        EXPECT_TRUE(same(outs[0], {1, 1, 1, 2, 2, 2}));
        EXPECT_TRUE(same(outs[1], {3, 4, 5, 3, 4, 5}));
        EXPECT_TRUE(same(outs[2], {7, 7, 7, 7, 7, 7}));
        CT_ASSERT_OK(ct_meshgrid(hs, 2, CT_MESHGRID_XY, raw, 3));
        H x0, x1;
        *x0.out() = raw[0], *x1.out() = raw[1];
        EXPECT_EQ(shape(x0), (Shape{3, 2}));
        EXPECT_TRUE(same(x0, {1, 2, 1, 2, 1, 2}));
        EXPECT_TRUE(same(x1, {3, 3, 4, 4, 5, 5}));
        H e = make({}, {0});
        ct_tensor he[2] = {e.get(), a.get()};
        CT_ASSERT_OK(ct_meshgrid(he, 2, CT_MESHGRID_IJ, raw, 3));
        H e0, e1;
        *e0.out() = raw[0], *e1.out() = raw[1];
        EXPECT_EQ(shape(e1), (Shape{0, 2}));
        ct_tensor keep[2] = {nullptr, nullptr};
        H m2 = make({1, 2}, {1, 2}), i = make({1}, {1}, CT_INT64);
        ct_tensor bad2[2] = {a.get(), m2.get()}, badt[2] = {a.get(), i.get()};
        CT_EXPECT_ERR(ct_meshgrid(bad2, 2, CT_MESHGRID_IJ, keep, 2), CT_ERR_SHAPE, "meshgrid: expects 0-d or 1-D tensors");
        CT_EXPECT_ERR(ct_meshgrid(badt, 2, CT_MESHGRID_IJ, keep, 2), CT_ERR_DTYPE, "one dtype");
        CT_EXPECT_ERR(ct_meshgrid(hs, 0, CT_MESHGRID_IJ, keep, 2), CT_ERR_INVALID_ARGUMENT, "non-empty");
        CT_EXPECT_ERR(ct_meshgrid(hs, 2, 7, keep, 2), CT_ERR_INVALID_ARGUMENT, "indexing");
        CT_EXPECT_ERR(ct_meshgrid(hs, 3, CT_MESHGRID_IJ, keep, 2), CT_ERR_INVALID_ARGUMENT, "outs holds 2 slots for 3");
        EXPECT_EQ(keep[0], nullptr);
    });
}

TEST(ToolboxStats, MedianValuesTiesAndNaN) {
    for_each_device([&] {
        auto r = median_dim(make({1, 1, 1, 2}, {4}), 0, false, false);  // torch 1.13: value 1 at index 1
        EXPECT_TRUE(same(r.first, {1}));
        EXPECT_TRUE(same(r.second, {1}));
        r = median_dim(make({3, 1, 1, 1, 2}, {5}), 0, false, false);
        EXPECT_TRUE(same(r.second, {3}));
        r = median_dim(make({1, NaN, 2, NaN}, {4}), 0, false, false);  // the first NaN
        EXPECT_TRUE(same(r.first, {NaN}));
        EXPECT_TRUE(same(r.second, {1}));
        r = median_dim(make({1, NaN, 2, NaN, NaN, NaN}, {3, 2}), 1, true, true);
        EXPECT_EQ(shape(r.first), (Shape{3, 1}));
        EXPECT_TRUE(same(r.first, {1, 2, NaN}));
        EXPECT_TRUE(same(r.second, {0, 0, 0}));
        r = median_dim(make({5, 3, 9, 1, 7, 2}, {2, 3}, CT_INT32), 0, false, false);
        EXPECT_TRUE(same(r.first, {1, 3, 2}));
        EXPECT_TRUE(same(r.second, {1, 0, 1}));
        r = median_dim(make({4}, {}), 0, false, false);
        EXPECT_EQ(shape(r.first), (Shape{}));
        r = median_dim(make({}, {0, 2}), 1, false, false);  // an empty result, not an empty reduction
        EXPECT_EQ(shape(r.first), (Shape{0}));
        H out, idx;
        CT_ASSERT_OK(ct_median(make({2, 8, 4, 6}, {2, 2}).get(), out.out()));
        EXPECT_TRUE(same(out, {4}));
        CT_ASSERT_OK(ct_nanmedian(make({NaN, 8, 4, NaN}, {2, 2}).get(), out.out()));
        EXPECT_TRUE(same(out, {4}));
        CT_ASSERT_OK(ct_median(make({}, {0}).get(), out.out()));
        EXPECT_TRUE(same(out, {NaN}));
        CT_EXPECT_ERR(ct_median_dim(make({}, {2, 0}).get(), 1, 0, out.out(), idx.out()), CT_ERR_INDEX,
                      "median: expected reduction dim 1 to have non-zero size");
        CT_EXPECT_ERR(ct_median_dim(make({1}, {1}, CT_BOOL).get(), 0, 0, out.out(), nullptr), CT_ERR_DTYPE,
                      "median: not implemented for bool");
        // only the values asked for
        H v;
        CT_ASSERT_OK(ct_nanmedian_dim(make({1, 2, 3}, {3}).get(), 0, 0, v.out(), nullptr));
        EXPECT_TRUE(same(v, {2}));
    });
}

TEST(ToolboxStats, QuantileMatchesTorch) {
    for_each_device([&] {
        H x = make({3, 1, 4, 1, 5, 9, 2, 6}, {2, 4}), q = make({0.25, 0.5, 0.9}, {3}), none;
        const std::vector<std::vector<double>> want = {{1.0, 4.25, 2.0, 5.5, 3.7, 8.1},
                                                       {1, 2, 1, 5, 3, 6},
                                                       {1, 5, 3, 6, 4, 9},
                                                       {1, 3.5, 2, 5.5, 3.5, 7.5},
                                                       {1, 5, 3, 6, 4, 9}};
        for (int32_t m = 0; m < 5; ++m) {
            H r = quantile(x, q, 0, 1, true, false, m);
            EXPECT_EQ(shape(r), (Shape{3, 2}));
            EXPECT_TRUE(same(r, want[(size_t)m])) << "mode " << m;
        }
        EXPECT_TRUE(same(quantile(x, none, 0.4, 0, false, false, CT_QUANTILE_LINEAR), {2.8}));
        EXPECT_TRUE(same(quantile(x, none, 0.4, 0, true, true, CT_QUANTILE_LINEAR), {3.8, 4.2, 2.8, 3.0}));
        EXPECT_EQ(shape(quantile(x, make({0.1, 0.7}, {2}), 0, 0, true, true, 0)), (Shape{2, 1, 4}));
        EXPECT_EQ(shape(quantile(x, make({0.1, 0.7}, {2}), 0, 0, false, true, 0)), (Shape{2, 1, 1}));
        H y = make({1, NaN, 3, 2, NaN, NaN, NaN, NaN}, {2, 4});
        EXPECT_TRUE(same(quantile(y, none, 0.5, 1, true, false, 0), {NaN, NaN}));
        EXPECT_TRUE(same(quantile(y, none, 0.5, 1, true, false, 0, true), {2, NaN}));
        EXPECT_TRUE(same(quantile(y, make({0, 1}, {2}), 0, 1, true, false, 0, true), {1, NaN, 3, NaN}));
        EXPECT_TRUE(same(quantile(make({0, 1, 2, 3}, {4}), make({0.125, 0.375, 0.625}, {3}), 0, 0, false, false,
                                  CT_QUANTILE_NEAREST),
                         {0, 1, 2}));  // half to even
        EXPECT_TRUE(same(quantile(make({7}, {}), none, 0.3, 0, true, false, 0), {7}));
        H out;
        CT_EXPECT_ERR(ct_quantile(x.get(), nullptr, 1.5, 0, 0, 0, 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "quantile: q must be in the range [0, 1], got 1.5");
        CT_EXPECT_ERR(ct_quantile(x.get(), make({0.5, -0.1}, {2}).get(), 0, 0, 0, 0, 0, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "q values must be in the range [0, 1]");
        CT_EXPECT_ERR(ct_quantile(x.get(), make({0.5}, {1}, CT_FLOAT32).get(), 0, 0, 0, 0, 0, out.out()), CT_ERR_DTYPE,
                      "must have the input's dtype");
        CT_EXPECT_ERR(ct_quantile(make({1, 2}, {2}, CT_INT64).get(), nullptr, 0.5, 0, 0, 0, 0, out.out()), CT_ERR_DTYPE,
                      "float32 or float64");
        CT_EXPECT_ERR(ct_quantile(make({}, {0}).get(), nullptr, 0.5, 0, 0, 0, 0, out.out()), CT_ERR_SHAPE, "non-empty");
        CT_EXPECT_ERR(ct_nanquantile(x.get(), nullptr, 0.5, 0, 0, 0, 9, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "nanquantile: unknown interpolation mode 9");
        CT_EXPECT_ERR(ct_quantile(x.get(), nullptr, 0.5, 2, 1, 0, 0, out.out()), CT_ERR_INDEX, "dim 2");
        EXPECT_FALSE(out);
    });
}

TEST(ToolboxStats, CdistMatchesTorch) {
    for_each_device([&] {
        H a = make({0, 0, 1, 2, 3, -1}, {3, 2}), b = make({1, 1, 0, 0}, {2, 2});
        const double inf = INFINITY;
        const std::vector<std::pair<double, std::vector<double>>> want = {
            {0, {2, 0, 1, 2, 2, 2}},
            {1, {2, 0, 1, 3, 4, 4}},
            {2, {1.4142135623730951, 0, 1, 2.23606797749979, 2.8284271247461903, 3.1622776601683795}},
            {3, {1.2599210498948732, 0, 1, 2.080083823051904, 2.5198420997897464, 3.0365889718756622}},
            {0.5, {4, 0, 1, 5.82842712474619, 8, 7.464101615137754}},
            {inf, {1, 0, 1, 2, 2, 3}}};
        for (const auto& w : want) EXPECT_TRUE(same(cdist(a, b, w.first), w.second)) << "p " << w.first;
        EXPECT_TRUE(same(cdist(a, b, 2, 1), want[2].second, 1e-7));  // the matmul form
        // batch dims broadcast; empty inputs give empty or zero distances
        EXPECT_EQ(shape(cdist(randt({2, 1, 3, 4}, 1, false), randt({5, 2, 4}, 2, false), 1)), (Shape{2, 5, 3, 2}));
        EXPECT_EQ(shape(cdist(make({}, {0, 2}), b, 2)), (Shape{0, 2}));
        EXPECT_TRUE(same(cdist(make({}, {2, 0}), make({}, {3, 0}), inf), {0, 0, 0, 0, 0, 0}));
        H out;
        CT_EXPECT_ERR(ct_cdist(a.get(), make({1, 2, 3}, {1, 3}).get(), 2, 0, out.out()), CT_ERR_SHAPE,
                      "the same number of columns");
        CT_EXPECT_ERR(ct_cdist(a.get(), b.get(), -1, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "p must be non-negative");
        CT_EXPECT_ERR(ct_cdist(a.get(), b.get(), 2, 3, out.out()), CT_ERR_INVALID_ARGUMENT, "compute_mode");
        CT_EXPECT_ERR(ct_cdist(make({1, 2}, {2}).get(), b.get(), 2, 0, out.out()), CT_ERR_SHAPE, "at least 2-D");
        CT_EXPECT_ERR(ct_cdist(a.get(), make({1, 2}, {1, 2}, CT_FLOAT32).get(), 2, 0, out.out()), CT_ERR_DTYPE,
                      "float64 and float32");
        EXPECT_FALSE(out);
    });
}

TEST(ToolboxStats, Gradients) {
    for_each_device([&] {
        H none;
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return repeat(in[0], none, 3, 1, true); },
                              {randt({2, 3}, 1)}));
        H reps = make({2, 0, 3}, {3}, CT_INT64);
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return repeat(in[0], reps, 0, 0, true); },
                              {randt({3, 2}, 2)}));
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) { return exp_of(repeat(in[0], reps, 0, 0, true)); },
                                  {randt({3, 2}, 2)}));
        EXPECT_TRUE(gradcheck(
            [&](const std::vector<H>& in) {
                ct_tensor hs[2] = {in[0].get(), in[1].get()}, raw[2] = {nullptr, nullptr};
                ok(ct_meshgrid(hs, 2, CT_MESHGRID_XY, raw, 2));
                H g0, g1, out;
                *g0.out() = raw[0], *g1.out() = raw[1];
                ok(ct_mul(g0.get(), exp_of(g1).get(), out.out()));
                return out;
            },
            {randt({2}, 3), randt({3}, 4)}));
        // distinct values, so the median is away from ties
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return median_dim(in[0], 1, false, false).first; },
                              {randt({3, 5}, 5)}));
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return median_dim(in[0], 0, true, true).first; },
                              {randt({4, 2}, 6)}));
        H q = make({0.2, 0.5, 0.95}, {3});
        for (int32_t m = 0; m < 5; ++m)
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return quantile(in[0], q, 0, 1, true, false, m); },
                                  {randt({2, 6}, 7)}))
                << "mode " << m;
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return quantile(in[0], none, 0.3, 0, false, true, 0, true); },
                              {randt({7}, 8)}));
        for (double p : {1.0, 2.0, 3.0, 1.5, (double)INFINITY})
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return cdist(in[0], in[1], p); },
                                  {randt({2, 3, 2}, 9), randt({1, 4, 2}, 10)}))
                << "p " << p;
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return cdist(in[0], in[1], 2, 1); },
                              {randt({3, 2}, 11), randt({4, 2}, 12)}));
        // p = 2 at a zero distance: a zero gradient, not NaN (torch's _cdist_backward)
        H a = make({1, 2}, {1, 2}, CT_FLOAT64, true), b = make({1, 2, 0, 0}, {2, 2}, CT_FLOAT64, true), s, g;
        ok(ct_sum(cdist(a, b, 2).get(), nullptr, 0, 0, s.out()));
        ok(ct_backward(s.get(), nullptr, 0, 0));
        ok(ct_tensor_grad(a.get(), g.out()));
        EXPECT_TRUE(same(g, {1 / std::sqrt(5.0), 2 / std::sqrt(5.0)}));
    });
}

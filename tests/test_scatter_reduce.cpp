// test_scatter_reduce.cpp - ct_scatter_reduce / ct_scatter_reduce_: every reduction with and without include_self
// against a host reference loop, integer mean (floor division), NaN in amax/amin, src larger than index, the
// in-place form, torch 1.13's gradients (central differences, second derivatives; ties share amax's gradient;
// zeros in prod), errors naming the op, on the CPU and on the emulated CUDA backend.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

H scatter_reduce(const H& x, int64_t dim, const H& index, const H& src, int32_t reduce, bool include_self) {
    H o;
    ok(ct_scatter_reduce(x.get(), dim, index.get(), src.get(), reduce, include_self, o.out()));
    return o;
}

// The reference: x [R, C] row-major, index/src [R, K] along dim 1.
std::vector<double> reference(const std::vector<double>& x, int64_t R, int64_t C, const std::vector<int64_t>& idx,
                              const std::vector<double>& src, int64_t K, int32_t reduce, bool include_self) {
    std::vector<double> out = x;
    std::vector<int64_t> count(x.size(), include_self ? 1 : 0);
    std::vector<bool> touched(x.size(), false);
    for (int64_t r = 0; r < R; ++r)
        for (int64_t k = 0; k < K; ++k) {
            size_t at = (size_t)(r * C + idx[(size_t)(r * K + k)]);
            double v = src[(size_t)(r * K + k)];
            if (!include_self && !touched[at]) {
                out[at] = reduce == CT_SCATTER_PROD ? 1.0 : reduce == CT_SCATTER_AMAX || reduce == CT_SCATTER_AMIN ? v : 0.0;
            }
            touched[at] = true;
            ++count[at];
            if (reduce == CT_SCATTER_SUM || reduce == CT_SCATTER_MEAN) out[at] += v;
            if (reduce == CT_SCATTER_PROD) out[at] *= v;
            if (reduce == CT_SCATTER_AMAX) out[at] = std::max(out[at], v);
            if (reduce == CT_SCATTER_AMIN) out[at] = std::min(out[at], v);
        }
    if (reduce == CT_SCATTER_MEAN)
        for (size_t i = 0; i < out.size(); ++i) out[i] /= (double)std::max<int64_t>(count[i], 1);
    return out;
}

const int32_t kReduces[] = {CT_SCATTER_SUM, CT_SCATTER_PROD, CT_SCATTER_MEAN, CT_SCATTER_AMAX, CT_SCATTER_AMIN};

}  // namespace

TEST(ScatterReduce, EveryReductionMatchesTheReference) {
    for_each_device([] {
        std::vector<double> xv = rand_values(12, 1), sv = rand_values(9, 2);
        std::vector<int64_t> iv = {0, 2, 0, 3, 3, 3, 1, 0, 1};  // duplicates in every row; column 1 of row 0 untouched
        H x = make(xv, {3, 4}), src = make(sv, {3, 3});
        H index = make({0, 2, 0, 3, 3, 3, 1, 0, 1}, {3, 3}, CT_INT64);
        for (int32_t r : kReduces)
            for (bool self : {true, false}) {
                H out = scatter_reduce(x, 1, index, src, r, self);
                EXPECT_TRUE(allclose(out, reference(xv, 3, 4, iv, sv, 3, r, self), 1e-12)) << r << " " << self;
            }
    });
}

TEST(ScatterReduce, IntegersNanSrcLargerThanIndexAndInPlace) {
    // integer mean is floor division: (5 + 2 + 4) // 3 = 3, (-5 + -2) // 2 = -4
    H xi = make({5, -5, 7}, {3}, CT_INT64), si = make({2, 4, -2}, {3}, CT_INT64), ii = make({0, 0, 1}, {3}, CT_INT64);
    EXPECT_TRUE(allclose(scatter_reduce(xi, 0, ii, si, CT_SCATTER_MEAN, true), {3, -4, 7}));
    EXPECT_TRUE(allclose(scatter_reduce(xi, 0, ii, si, CT_SCATTER_PROD, false), {8, -2, 7}));
    // a NaN wins in amax and amin, from x or from src
    H xf = make({NAN, 1, 2}, {3}), sf = make({0, NAN, 5}, {3}), i3 = make({0, 1, 2}, {3}, CT_INT64);
    std::vector<double> got = values(scatter_reduce(xf, 0, i3, sf, CT_SCATTER_AMAX, true));
    EXPECT_TRUE(std::isnan(got[0]) && std::isnan(got[1]));
    EXPECT_EQ(got[2], 5.0);
    // src [2, 5] with index [2, 2]: only src[:, :2] is read
    H big = make(rand_values(10, 3), {2, 5}), x = make({0, 0, 0, 0, 0, 0}, {2, 3}), i2 = make({2, 2, 0, 1}, {2, 2}, CT_INT64);
    std::vector<double> b = values(big);
    EXPECT_TRUE(allclose(scatter_reduce(x, 1, i2, big, CT_SCATTER_SUM, true), {0, 0, b[0] + b[1], b[5], b[6], 0}, 1e-12));
    // in place: dst changes and its version moves
    H dst = make({1, 1, 1}, {3});
    int64_t v0 = 0, v1 = 0;
    ok(ct_tensor_version(dst.get(), &v0));
    CT_ASSERT_OK(ct_scatter_reduce_(dst.get(), 0, ii.get(), make({2, 3, 4}, {3}).get(), CT_SCATTER_PROD, 1));
    ok(ct_tensor_version(dst.get(), &v1));
    EXPECT_GT(v1, v0);
    EXPECT_TRUE(allclose(dst, {6, 4, 1}));
    // an empty index changes nothing
    H e = make({}, {0}, CT_INT64);
    EXPECT_TRUE(allclose(scatter_reduce(xf, 0, e, make({}, {0}), CT_SCATTER_SUM, false), values(xf)));
}

TEST(ScatterReduce, GradientsAsTorch) {
    for_each_device([] {
        H index = make({0, 2, 0, 3, 3, 1}, {2, 3}, CT_INT64);
        for (int32_t r : kReduces)
            for (bool self : {true, false}) {
                auto f = [&, r, self](const std::vector<H>& in) { return scatter_reduce(in[0], 1, index, in[1], r, self); };
                // distinct values: amax/amin have no ties, prod no zeros
                EXPECT_TRUE(gradcheck(f, {randt({2, 4}, 10, true, 0.5, 2.0), randt({2, 3}, 11, true, 2.5, 4.0)}))
                    << r << " " << self;
                if (r == CT_SCATTER_PROD)  // the others are linear (sum, mean) or piecewise linear (amax, amin)
                    EXPECT_TRUE(gradgradcheck(f, {randt({2, 4}, 12, true, 0.5, 2.0), randt({2, 3}, 13, true, 0.5, 2.0)}))
                        << r << " " << self;
            }
    });
    // ties share amax's gradient: x[0] = 3 ties with src 3 and 3 -> each gets 1/3; position 1 is src's 1 alone
    H x = make({3, 0}, {2}, CT_FLOAT64, true), s = make({3, 3, 1}, {3}, CT_FLOAT64, true), i = make({0, 0, 1}, {3}, CT_INT64);
    H out = scatter_reduce(x, 0, i, s, CT_SCATTER_AMAX, true), sum;
    ok(ct_sum(out.get(), nullptr, 0, 0, sum.out()));
    ok(ct_backward(sum.get(), nullptr, 0, 0));
    H gx, gs;
    ok(ct_tensor_grad(x.get(), gx.out()));
    ok(ct_tensor_grad(s.get(), gs.out()));
    EXPECT_TRUE(allclose(gx, {1.0 / 3, 0}, 1e-12));
    EXPECT_TRUE(allclose(gs, {1.0 / 3, 1.0 / 3, 1}, 1e-12));
    // prod with one zero scattered to a position: that src gets the product of the others
    H x2 = make({2}, {1}, CT_FLOAT64, true), s2 = make({0, 5}, {2}, CT_FLOAT64, true), i2 = make({0, 0}, {2}, CT_INT64);
    H p = scatter_reduce(x2, 0, i2, s2, CT_SCATTER_PROD, true), psum;
    ok(ct_sum(p.get(), nullptr, 0, 0, psum.out()));
    ok(ct_backward(psum.get(), nullptr, 0, 0));
    H g2;
    ok(ct_tensor_grad(s2.get(), g2.out()));
    EXPECT_TRUE(allclose(g2, {10, 0}, 1e-12));
}

TEST(ScatterReduce, Errors) {
    H x = make({1, 2, 3}, {3}), i = make({0, 1}, {2}, CT_INT64), s = make({1, 1}, {2}), o;
    CT_EXPECT_ERR(ct_scatter_reduce(x.get(), 0, i.get(), s.get(), 5, 1, o.out()), CT_ERR_INVALID_ARGUMENT,
                  "reduce 5 should be one of");
    CT_EXPECT_ERR(ct_scatter_reduce(x.get(), 0, make({0, 3}, {2}, CT_INT64).get(), s.get(), 0, 1, o.out()),
                  CT_ERR_INDEX, "index 3 is out of bounds");
    CT_EXPECT_ERR(ct_scatter_reduce(x.get(), 0, i.get(), make({1, 1}, {2}, CT_FLOAT32).get(), 0, 1, o.out()),
                  CT_ERR_DTYPE, "src dtype");
    CT_EXPECT_ERR(ct_scatter_reduce(x.get(), 1, i.get(), s.get(), 0, 1, o.out()), CT_ERR_INDEX, "");
    CT_EXPECT_ERR(ct_scatter_reduce(x.get(), 0, i.get(), make({1}, {1}).get(), 0, 1, o.out()), CT_ERR_SHAPE, "exceeds");
    H b = make({1, 0}, {2}, CT_BOOL);
    CT_EXPECT_ERR(ct_scatter_reduce(b.get(), 0, i.get(), b.get(), CT_SCATTER_SUM, 1, o.out()), CT_ERR_DTYPE,
                  "not defined for bool");
    CT_EXPECT_ERR(ct_scatter_reduce(x.get(), 0, i.get(), s.get(), 0, 1, nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

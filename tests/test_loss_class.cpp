// test_loss_class.cpp - the full forms of cross_entropy and nll_loss: [N, C, d...] inputs, class weights,
// ignore_index, label smoothing and class-probability targets, against a direct loop reference written from
// PyTorch's definitions; gradchecks; errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

// Logits laid out [N, C, D] (D = product of the spatial dims), row-major.
struct Problem {
    int64_t n, c, d;
    std::vector<double> x;        // N * C * D
    std::vector<int64_t> target;  // N * D
    std::vector<double> weight;   // C or empty
};

double logsoftmax_at(const Problem& p, int64_t i, int64_t cls, int64_t k) {
    double mx = -INFINITY, s = 0;
    for (int64_t c = 0; c < p.c; ++c) mx = std::max(mx, p.x[(i * p.c + c) * p.d + k]);
    for (int64_t c = 0; c < p.c; ++c) s += std::exp(p.x[(i * p.c + c) * p.d + k] - mx);
    return p.x[(i * p.c + cls) * p.d + k] - mx - std::log(s);
}

// PyTorch's cross_entropy with class targets: per-element losses (reduction none) or the reduced value.
std::vector<double> reference(const Problem& p, int reduction, int64_t ignore, double eps) {
    std::vector<double> per;
    double nll_sum = 0, smooth_sum = 0, wsum = 0;
    for (int64_t i = 0; i < p.n; ++i)
        for (int64_t k = 0; k < p.d; ++k) {
            int64_t t = p.target[i * p.d + k];
            if (t == ignore) {
                per.push_back(0);
                continue;
            }
            double wt = p.weight.empty() ? 1.0 : p.weight[t];
            double nll = -wt * logsoftmax_at(p, i, t, k), smooth = 0;
            for (int64_t c = 0; c < p.c; ++c) smooth -= (p.weight.empty() ? 1.0 : p.weight[c]) * logsoftmax_at(p, i, c, k);
            per.push_back((1 - eps) * nll + eps / p.c * smooth);
            nll_sum += nll, smooth_sum += smooth, wsum += wt;
        }
    double total = (1 - eps) * nll_sum + eps / p.c * smooth_sum;
    if (reduction == CT_REDUCTION_NONE) return per;
    return {reduction == CT_REDUCTION_SUM ? total : total / wsum};
}

H int_tensor(const std::vector<int64_t>& v, const Shape& shape) {
    std::vector<double> d(v.begin(), v.end());
    return make(d, shape, CT_INT64);
}

Problem random_problem(int64_t n, int64_t c, int64_t d, uint64_t seed, bool weighted) {
    Problem p{n, c, d, values(randt({n, c, d}, seed, false, -2, 2)), {}, {}};
    for (int64_t i = 0; i < n * d; ++i) p.target.push_back((i * 7 + (int64_t)seed) % c);
    if (weighted) p.weight = {0.5, 2.0, 1.25, 0.75}, p.weight.resize((size_t)c, 1.0);
    return p;
}

}  // namespace

TEST(LossClass, SpatialWeightedSmoothedMatchesReference) {
    for_each_device([&] {
        // logits [2, 4, 2, 3] (D = 6), targets [2, 2, 3] with some ignored
        Problem p = random_problem(2, 4, 6, 5, true);
        p.target[3] = -100, p.target[8] = -100;
        H x = make(p.x, {2, 4, 2, 3}), t = int_tensor(p.target, {2, 2, 3}), w = make(p.weight, {4});
        for (int red : {CT_REDUCTION_NONE, CT_REDUCTION_MEAN, CT_REDUCTION_SUM})
            for (bool weighted : {false, true})
                for (double eps : {0.0, 0.2}) {
                    SCOPED_TRACE("reduction " + std::to_string(red) + " weighted " + std::to_string(weighted) + " eps " +
                                 std::to_string(eps));
                    Problem q = p;
                    if (!weighted) q.weight.clear();
                    H out;
                    CT_ASSERT_OK(ct_cross_entropy_ex(x.get(), t.get(), weighted ? w.get() : nullptr, red, -100, eps, out.out()));
                    EXPECT_TRUE(allclose(out, reference(q, red, -100, eps)));
                    if (red == CT_REDUCTION_NONE) EXPECT_EQ(shape(out), (Shape{2, 2, 3}));
                    if (!weighted && eps == 0.0) {  // the plain entry point takes spatial inputs too
                        H plain;
                        CT_ASSERT_OK(ct_cross_entropy(x.get(), t.get(), red, -100, plain.out()));
                        EXPECT_TRUE(allclose(plain, values(out)));
                    }
                }
    });
}

TEST(LossClass, NllLossWeightedAndSpatial) {
    for_each_device([&] {
        Problem p = random_problem(3, 3, 2, 9, true);
        p.target[1] = 1, p.target[4] = -1;
        H x = make(p.x, {3, 3, 2}), lp, t = int_tensor(p.target, {3, 2}), w = make(p.weight, {3});
        CT_ASSERT_OK(ct_log_softmax(x.get(), 1, lp.out()));
        for (int red : {CT_REDUCTION_NONE, CT_REDUCTION_MEAN, CT_REDUCTION_SUM}) {
            H out, ce;
            CT_ASSERT_OK(ct_nll_loss_ex(lp.get(), t.get(), w.get(), red, -1, out.out()));
            EXPECT_TRUE(allclose(out, reference(p, red, -1, 0.0)));
            CT_ASSERT_OK(ct_cross_entropy_ex(x.get(), t.get(), w.get(), red, -1, 0.0, ce.out()));
            EXPECT_TRUE(allclose(out, values(ce)));
        }
        H plain;  // no weight: mean over the non-ignored elements
        CT_ASSERT_OK(ct_nll_loss(lp.get(), t.get(), CT_REDUCTION_MEAN, -1, plain.out()));
        p.weight.clear();
        EXPECT_TRUE(allclose(plain, reference(p, CT_REDUCTION_MEAN, -1, 0.0)));
    });
}

TEST(LossClass, ProbabilityTargets) {
    for_each_device([&] {
        // [N=2, C=3] probabilities: loss_i = -sum_c w_c q_ic log_softmax(x)_ic with q = (1 - e) p + e / C
        std::vector<double> xv = {0.2, -1.0, 0.5, 1.5, 0.3, -0.7}, pv = {0.1, 0.6, 0.3, 1.0, 0.0, 0.0}, wv = {1, 2, 0.5};
        H x = make(xv, {2, 3}), pt = make(pv, {2, 3}), w = make(wv, {3});
        for (double eps : {0.0, 0.1}) {
            std::vector<double> per;
            for (int i = 0; i < 2; ++i) {
                double mx = std::max({xv[i * 3], xv[i * 3 + 1], xv[i * 3 + 2]}), s = 0, l = 0;
                for (int c = 0; c < 3; ++c) s += std::exp(xv[i * 3 + c] - mx);
                for (int c = 0; c < 3; ++c) l -= wv[c] * ((1 - eps) * pv[i * 3 + c] + eps / 3) * (xv[i * 3 + c] - mx - std::log(s));
                per.push_back(l);
            }
            H none, mean;
            CT_ASSERT_OK(ct_cross_entropy_ex(x.get(), pt.get(), w.get(), CT_REDUCTION_NONE, -100, eps, none.out()));
            EXPECT_TRUE(allclose(none, per));
            CT_ASSERT_OK(ct_cross_entropy_ex(x.get(), pt.get(), w.get(), CT_REDUCTION_MEAN, -100, eps, mean.out()));
            EXPECT_TRUE(allclose(mean, {(per[0] + per[1]) / 2}));  // mean over the batch, not the weights
        }
        // spatial probabilities through the plain entry point: [1, 2, 2] equals two [2]-class rows
        H xs = make({0.0, 1.0, 2.0, -1.0}, {1, 2, 2}), ps = make({1, 0, 0, 1}, {1, 2, 2}), o;
        CT_ASSERT_OK(ct_cross_entropy(xs.get(), ps.get(), CT_REDUCTION_NONE, -100, o.out()));
        EXPECT_EQ(shape(o), (Shape{1, 2}));
        EXPECT_TRUE(allclose(o, {-(0.0 - std::log(1 + std::exp(2.0))), -(-1.0 - std::log(std::exp(1.0) + std::exp(-1.0)))}));
    });
}

TEST(LossClass, Gradchecks) {
    for_each_device([&] {
        H x = randt({2, 3, 2, 2}, 31), w = randt({3}, 32, true, 0.5, 2.0), probs = randt({2, 3, 2, 2}, 33, true, 0.0, 1.0);
        H t = int_tensor({0, 2, 1, -100, 2, 2, 0, 1}, {2, 2, 2});
        for (int red : {CT_REDUCTION_NONE, CT_REDUCTION_MEAN, CT_REDUCTION_SUM})
            for (double eps : {0.0, 0.3}) {
                SCOPED_TRACE("reduction " + std::to_string(red) + " eps " + std::to_string(eps));
                EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                    H o;
                    ok(ct_cross_entropy_ex(v[0].get(), t.get(), v[1].get(), red, -100, eps, o.out()));
                    return o;
                }, {x, w}));
                EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {  // probabilities: d/dx and d/dtarget
                    H o;
                    ok(ct_cross_entropy_ex(v[0].get(), v[1].get(), nullptr, red, -100, eps, o.out()));
                    return o;
                }, {x, probs}));
            }
        auto spatial = [&](const std::vector<H>& v) {
            H o;
            ok(ct_cross_entropy(v[0].get(), t.get(), CT_REDUCTION_MEAN, -100, o.out()));
            return o;
        };
        EXPECT_TRUE(gradcheck(spatial, {x}));
        EXPECT_TRUE(gradgradcheck(spatial, {x}));
    });
}

TEST(LossClass, Errors) {
    for_each_device([&] {
        H x = randt({2, 3, 4}, 41, false), t = int_tensor({0, 1, 2, 0, 1, 2, 0, 1}, {2, 4}), out;
        H bad_w = make({1, 1}, {2}), tshape = int_tensor({0, 1}, {2}), big = int_tensor({0, 1, 3, 0, 1, 2, 0, 1}, {2, 4});
        CT_EXPECT_ERR(ct_cross_entropy_ex(x.get(), t.get(), bad_w.get(), 1, -100, 0.0, out.out()), CT_ERR_SHAPE,
                      "expected a weight of shape [3]");
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), tshape.get(), 1, -100, out.out()), CT_ERR_SHAPE,
                      "expected target of shape [2, 4] for input of shape [2, 3, 4], got [2]");
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), big.get(), 1, -100, out.out()), CT_ERR_INDEX, "target 3 is out of bounds for 3 classes");
        H w = make({1, 2, 3}, {3});  // the composed (weighted, smoothed) paths check target values themselves
        CT_EXPECT_ERR(ct_cross_entropy_ex(x.get(), big.get(), w.get(), 1, -100, 0.0, out.out()), CT_ERR_INDEX,
                      "cross_entropy: target 3 is out of bounds for 3 classes");
        CT_EXPECT_ERR(ct_cross_entropy_ex(x.get(), big.get(), nullptr, 1, -100, 0.1, out.out()), CT_ERR_INDEX,
                      "cross_entropy: target 3 is out of bounds for 3 classes");
        CT_EXPECT_ERR(ct_nll_loss_ex(x.get(), big.get(), w.get(), 1, -100, out.out()), CT_ERR_INDEX,
                      "nll_loss: target 3 is out of bounds for 3 classes");
        CT_EXPECT_ERR(ct_nll_loss_ex(x.get(), big.get(), nullptr, 1, -100, out.out()), CT_ERR_INDEX,
                      "nll_loss: target 3 is out of bounds for 3 classes");
        CT_EXPECT_ERR(ct_cross_entropy_ex(x.get(), t.get(), nullptr, 1, -100, 1.5, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "label_smoothing must be in [0, 1], got 1.5");
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), make({0.5, 0.5}, {2}).get(), 1, -100, out.out()), CT_ERR_SHAPE,
                      "class probability targets must have the input's shape [2, 3, 4]");
        CT_EXPECT_ERR(ct_nll_loss_ex(x.get(), make({1, 0}, {2}, CT_BOOL).get(), nullptr, 1, -100, out.out()), CT_ERR_DTYPE,
                      "expected integer class targets");
        CT_EXPECT_ERR(ct_cross_entropy(make({1.0}, {}).get(), t.get(), 1, -100, out.out()), CT_ERR_SHAPE, "0-d");
        CT_EXPECT_ERR(ct_nll_loss_ex(nullptr, t.get(), nullptr, 1, -100, out.out()), CT_ERR_INVALID_HANDLE, "nll_loss");
    });
}

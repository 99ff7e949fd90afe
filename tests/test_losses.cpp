// test_losses.cpp - the losses of ops/nn_loss_pointwise.cpp and ops/nn_loss_margin.cpp through the C API: values
// against loops written from torch 1.13's definitions for every reduction (with broadcasting), float64
// gradchecks (and double backward), the kinks where torch's gradient is defined by a branch, and errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

using Fn = std::function<H(const std::vector<H>&)>;
const int kReductions[] = {CT_REDUCTION_NONE, CT_REDUCTION_MEAN, CT_REDUCTION_SUM};

// The expected output of per-element losses under a reduction.
std::vector<double> reduce(const std::vector<double>& per, int r) {
    if (r == CT_REDUCTION_NONE) return per;
    double s = 0;
    for (double v : per) s += v;
    return {r == CT_REDUCTION_SUM ? s : s / (double)per.size()};
}

H int_tensor(const std::vector<double>& v, const Shape& s) { return make(v, s, CT_INT64); }

// A pointwise loss of (input, target) at reduction r.
using Pair = std::function<ct_status(ct_tensor, ct_tensor, int, ct_tensor*)>;

// Checks a pointwise loss against ref(x, t) per element on x [2, 3] and t [3] (broadcast), every reduction, and
// gradchecks it in input and target.
void check_pointwise(const char* name, const Pair& f, const std::function<double(double, double)>& ref, double lo,
                     double hi, double tlo, double thi, bool target_grad = true, bool second_order = true) {
    SCOPED_TRACE(name);
    H x = randt({2, 3}, 11, true, lo, hi), t = randt({3}, 12, true, tlo, thi);
    std::vector<double> xv = values(x), tv = values(t), per;
    for (size_t i = 0; i < xv.size(); ++i) per.push_back(ref(xv[i], tv[i % 3]));
    for (int r : kReductions) {
        SCOPED_TRACE("reduction " + std::to_string(r));
        H out;
        CT_ASSERT_OK(f(x.get(), t.get(), r, out.out()));
        EXPECT_EQ(shape(out), r == CT_REDUCTION_NONE ? (Shape{2, 3}) : Shape{});
        EXPECT_TRUE(allclose(out, reduce(per, r), 1e-12, 1e-10));
        Fn fn = [&](const std::vector<H>& v) {
            H o;
            ok(f(v[0].get(), target_grad ? v[1].get() : t.get(), r, o.out()));
            return o;
        };
        EXPECT_TRUE(gradcheck(fn, target_grad ? std::vector<H>{x, t} : std::vector<H>{x}));
    }
    if (!second_order) return;  // piecewise linear: the gradient is constant (it records no graph)
    Fn mean = [&](const std::vector<H>& v) {
        H o;
        ok(f(v[0].get(), v[1].get(), CT_REDUCTION_MEAN, o.out()));
        return o;
    };
    EXPECT_TRUE(gradgradcheck(mean, {x, t}));
}

double log_sigmoid(double x) { return std::min(x, 0.0) - std::log1p(std::exp(-std::fabs(x))); }

}  // namespace

TEST(PointwiseLosses, ValuesAndGradients) {
    for_each_device([&] {
        check_pointwise("l1", [](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_l1_loss(x, t, r, o); },
                        [](double x, double t) { return std::fabs(x - t); }, -2, 2, -2, 2);
        for (double beta : {0.0, 0.5, 1.5}) {
            check_pointwise("smooth_l1",
                            [beta](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_smooth_l1_loss(x, t, r, beta, o); },
                            [beta](double x, double t) {
                                double d = std::fabs(x - t);
                                return d < beta ? 0.5 * d * d / beta : d - 0.5 * beta;
                            }, -2, 2, -2, 2, true, beta != 0.0);
        }
        for (double delta : {0.5, 2.0}) {
            check_pointwise("huber", [delta](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_huber_loss(x, t, r, delta, o); },
                            [delta](double x, double t) {
                                double d = std::fabs(x - t);
                                return d < delta ? 0.5 * d * d : delta * (d - 0.5 * delta);
                            }, -2, 2, -2, 2);
        }
        check_pointwise("kl_div", [](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_kl_div(x, t, r, 0, o); },
                        [](double x, double t) { return t * (std::log(t) - x); }, -3, 0, 0.1, 1);
        check_pointwise("kl_div log_target",
                        [](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_kl_div(x, t, r, 1, o); },
                        [](double x, double t) { return std::exp(t) * (t - x); }, -3, 0, -3, 0);
        check_pointwise("soft_margin", [](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_soft_margin_loss(x, t, r, o); },
                        [](double x, double t) { return std::log1p(std::exp(-x * t)); }, -2, 2, -1, 1);
        for (int full : {0, 1}) {
            check_pointwise("poisson_nll log_input",
                            [full](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_poisson_nll_loss(x, t, r, 1, full, 1e-8, o); },
                            [full](double x, double t) {
                                double s = t > 1 ? t * std::log(t) - t + 0.5 * std::log(2 * M_PI * t) : 0;
                                return std::exp(x) - t * x + (full ? s : 0);
                            }, -2, 2, 0, 3);
            check_pointwise("poisson_nll",
                            [full](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_poisson_nll_loss(x, t, r, 0, full, 1e-8, o); },
                            [full](double x, double t) {
                                double s = t > 1 ? t * std::log(t) - t + 0.5 * std::log(2 * M_PI * t) : 0;
                                return x - t * std::log(x + 1e-8) + (full ? s : 0);
                            }, 0.5, 3, 0, 3);
        }
        for (double margin : {1.0, 0.3}) {
            check_pointwise("hinge_embedding",
                            [margin](ct_tensor x, ct_tensor t, int r, ct_tensor* o) { return ct_hinge_embedding_loss(x, t, r, margin, o); },
                            [margin](double x, double t) {
                                return (t != 1 ? std::max(margin - x, 0.0) : 0.0) + (t != -1 ? x : 0.0);
                            }, -2, 2, -1, 1, false, false);
        }
    });
}

TEST(PointwiseLosses, HingeTargetsOfOneAndMinusOne) {
    for_each_device([&] {
        H x = make({0.5, -0.2, 2.0, 0.9}, {4}, CT_FLOAT64, true), y = make({1, -1, -1, 1}, {4}), out;
        CT_ASSERT_OK(ct_hinge_embedding_loss(x.get(), y.get(), CT_REDUCTION_NONE, 1.0, out.out()));
        EXPECT_TRUE(allclose(out, {0.5, 1.2, 0.0, 0.9}, 1e-12));
    });
}

TEST(PointwiseLosses, KinksTakeTorchsBranch) {
    for_each_device([&] {
        // smooth_l1 / huber at |d| == bound and d == 0: gradient sign(d) and 0
        H x = make({1.0, -1.0, 0.0, 3.0}, {4}, CT_FLOAT64, true), t = make({0.0, 0.0, 0.0, 3.0}, {4}), out, g;
        CT_ASSERT_OK(ct_smooth_l1_loss(x.get(), t.get(), CT_REDUCTION_SUM, 1.0, out.out()));
        CT_ASSERT_OK(ct_backward(out.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1, -1, 0, 0}, 1e-12));
        // beta 0: |d|, with torch 1.13's gradient -1 at d == 0 for the input and for the target
        H x0 = make({0.0, 2.0, -1.0}, {3}, CT_FLOAT64, true), t0 = make({0.0, 0.0, 0.0}, {3}, CT_FLOAT64, true), o0, g0, gt0;
        CT_ASSERT_OK(ct_smooth_l1_loss(x0.get(), t0.get(), CT_REDUCTION_SUM, 0.0, o0.out()));
        EXPECT_TRUE(allclose(o0, {3.0}, 1e-12));
        CT_ASSERT_OK(ct_backward(o0.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x0.get(), g0.out()));
        CT_ASSERT_OK(ct_tensor_grad(t0.get(), gt0.out()));
        EXPECT_TRUE(allclose(g0, {-1, 1, -1}, 1e-12));
        EXPECT_TRUE(allclose(gt0, {-1, -1, 1}, 1e-12));
        // kl_div with a zero target: its term is 0, its gradients 0 (input) and -input (target; torch's is NaN)
        H lp = make({-1.0, -2.0}, {2}, CT_FLOAT64, true), p = make({0.0, 0.5}, {2}, CT_FLOAT64, true), kl, gp;
        CT_ASSERT_OK(ct_kl_div(lp.get(), p.get(), CT_REDUCTION_SUM, 0, kl.out()));
        EXPECT_TRUE(allclose(kl, {0.5 * (std::log(0.5) + 2.0)}, 1e-12));
        CT_ASSERT_OK(ct_backward(kl.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(p.get(), gp.out()));
        EXPECT_TRUE(allclose(gp, {1.0, std::log(0.5) + 1 + 2.0}, 1e-12));
        H glp;
        CT_ASSERT_OK(ct_tensor_grad(lp.get(), glp.out()));
        EXPECT_TRUE(allclose(glp, {0.0, -0.5}, 1e-12));
    });
}

TEST(PointwiseLosses, KlDivBatchmean) {
    for_each_device([&] {
        H x = randt({4, 3}, 21, false, -3, 0), t = randt({4, 3}, 22, false, 0.1, 1), sum, bm;
        CT_ASSERT_OK(ct_kl_div(x.get(), t.get(), CT_REDUCTION_SUM, 0, sum.out()));
        CT_ASSERT_OK(ct_kl_div(x.get(), t.get(), CT_REDUCTION_BATCHMEAN, 0, bm.out()));
        EXPECT_TRUE(allclose(bm, {scalar(sum) / 4}, 1e-12));
        H out;
        CT_EXPECT_ERR(ct_l1_loss(x.get(), t.get(), CT_REDUCTION_BATCHMEAN, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "l1_loss: unknown reduction 3");
    });
}

TEST(GaussianNllLoss, VarShapesClampAndGradients) {
    for_each_device([&] {
        H x = randt({3, 2}, 31), t = randt({3, 2}, 32);
        std::vector<double> xv = values(x), tv = values(t);
        for (Shape vs : {Shape{3, 2}, Shape{3}, Shape{3, 1}}) {
            SCOPED_TRACE("var shape " + std::to_string(vs.size()));
            H var = randt(vs, 33, true, 0.2, 2.0);
            std::vector<double> vv = values(var), per;
            for (size_t i = 0; i < 6; ++i) {
                double v = vs.size() == 2 && vs[1] == 2 ? vv[i] : vv[i / 2], d = xv[i] - tv[i];
                per.push_back(0.5 * (std::log(v) + d * d / v) + 0.5 * std::log(2 * M_PI));
            }
            for (int r : kReductions) {
                H out;
                CT_ASSERT_OK(ct_gaussian_nll_loss(x.get(), t.get(), var.get(), r, 1, 1e-6, out.out()));
                EXPECT_TRUE(allclose(out, reduce(per, r), 1e-12, 1e-10));
                EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                    H o;
                    ok(ct_gaussian_nll_loss(v[0].get(), v[1].get(), v[2].get(), r, 0, 1e-6, o.out()));
                    return o;
                }, {x, t, var}));
            }
        }
        // var below eps is clamped in value; its gradient is taken at the clamped value, as if unclamped
        H small = make({1e-9}, {1}, CT_FLOAT64, true), one = make({1.0}, {1}), zero = make({0.0}, {1}), out, g;
        CT_ASSERT_OK(ct_gaussian_nll_loss(one.get(), zero.get(), small.get(), CT_REDUCTION_SUM, 0, 1e-3, out.out()));
        EXPECT_TRUE(allclose(out, {0.5 * (std::log(1e-3) + 1 / 1e-3)}, 1e-12, 1e-12));
        CT_ASSERT_OK(ct_backward(out.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(small.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0.5 * (1 / 1e-3 - 1 / 1e-6)}, 1e-9, 1e-12));
        H neg = make({0.5, -0.1}, {2}), x2 = make({0.0, 0.0}, {2});
        CT_EXPECT_ERR(ct_gaussian_nll_loss(x2.get(), x2.get(), neg.get(), CT_REDUCTION_MEAN, 0, 1e-6, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "var has negative entries");
        H bad = make({1, 1, 1}, {3});
        CT_EXPECT_ERR(ct_gaussian_nll_loss(x2.get(), x2.get(), bad.get(), CT_REDUCTION_MEAN, 0, 1e-6, out.out()),
                      CT_ERR_SHAPE, "var of shape [3] is of incorrect size for input of shape [2]");
    });
}

TEST(MarginRankingLoss, ValuesAndGradients) {
    for_each_device([&] {
        H a = randt({4}, 41), b = randt({4}, 42), y = make({1, -1, -1, 1}, {4});
        std::vector<double> av = values(a), bv = values(b), yv = values(y), per;
        for (int i = 0; i < 4; ++i) per.push_back(std::max(-yv[i] * (av[i] - bv[i]) + 0.2, 0.0));
        for (int r : kReductions) {
            H out;
            CT_ASSERT_OK(ct_margin_ranking_loss(a.get(), b.get(), y.get(), r, 0.2, out.out()));
            EXPECT_TRUE(allclose(out, reduce(per, r), 1e-12));
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                H o;
                ok(ct_margin_ranking_loss(v[0].get(), v[1].get(), y.get(), r, 0.2, o.out()));
                return o;
            }, {a, b}));
        }
        H out, b2 = randt({4, 1}, 43);
        CT_EXPECT_ERR(ct_margin_ranking_loss(a.get(), b2.get(), y.get(), 1, 0.0, out.out()), CT_ERR_SHAPE,
                      "margin_ranking_loss: all input tensors should have the same number of dims");
    });
}

TEST(MultilabelSoftMarginLoss, ValuesWeightAndGradients) {
    for_each_device([&] {
        H x = randt({3, 4}, 51), y = make({1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0}, {3, 4}), w = randt({4}, 52, true, 0.5, 2);
        std::vector<double> xv = values(x), yv = values(y), wv = values(w);
        for (bool weighted : {false, true}) {
            std::vector<double> per;
            for (int i = 0; i < 3; ++i) {
                double s = 0;
                for (int j = 0; j < 4; ++j) {
                    double v = xv[i * 4 + j], t = yv[i * 4 + j];
                    s += -(t * log_sigmoid(v) + (1 - t) * log_sigmoid(-v)) * (weighted ? wv[j] : 1.0);
                }
                per.push_back(s / 4);
            }
            for (int r : kReductions) {
                H out;
                CT_ASSERT_OK(ct_multilabel_soft_margin_loss(x.get(), y.get(), weighted ? w.get() : nullptr, r, out.out()));
                EXPECT_TRUE(allclose(out, reduce(per, r), 1e-12));
                EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                    H o;
                    ok(ct_multilabel_soft_margin_loss(v[0].get(), y.get(), weighted ? v[1].get() : nullptr, r, o.out()));
                    return o;
                }, {x, w}));
            }
        }
        H out, s = make({1.0}, {});
        CT_EXPECT_ERR(ct_multilabel_soft_margin_loss(s.get(), s.get(), nullptr, 1, out.out()), CT_ERR_SHAPE, "0-d");
    });
}

TEST(MultiMarginLoss, ValuesWeightPAndGradients) {
    for_each_device([&] {
        H x = randt({3, 4}, 61), y = int_tensor({2, 0, 3}, {3}), w = randt({4}, 62, false, 0.5, 2);
        std::vector<double> xv = values(x), wv = values(w);
        const int yv[] = {2, 0, 3};
        for (int64_t p : {1, 2})
            for (bool weighted : {false, true}) {
                SCOPED_TRACE("p " + std::to_string(p) + " weighted " + std::to_string(weighted));
                std::vector<double> per;
                for (int i = 0; i < 3; ++i) {
                    double s = 0;
                    for (int j = 0; j < 4; ++j) {
                        if (j == yv[i]) continue;
                        double z = 0.7 - xv[i * 4 + yv[i]] + xv[i * 4 + j];
                        if (z > 0) s += (p == 1 ? z : z * z) * (weighted ? wv[yv[i]] : 1.0);
                    }
                    per.push_back(s / 4);
                }
                for (int r : kReductions) {
                    H out;
                    CT_ASSERT_OK(ct_multi_margin_loss(x.get(), y.get(), r, p, 0.7, weighted ? w.get() : nullptr, out.out()));
                    EXPECT_TRUE(allclose(out, reduce(per, r), 1e-12));
                    EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                        H o;
                        ok(ct_multi_margin_loss(v[0].get(), y.get(), r, p, 0.7, weighted ? w.get() : nullptr, o.out()));
                        return o;
                    }, {x}));
                }
            }
        // a [C] input with a 0-d target gives a 0-d loss under none, with a [1] target a [1] loss
        H row = make({0.1, 0.5, -0.3}, {3}), t0 = make({1}, {}, CT_INT64), t1 = make({1}, {1}, CT_INT64), o0, o1;
        CT_ASSERT_OK(ct_multi_margin_loss(row.get(), t0.get(), CT_REDUCTION_NONE, 1, 1.0, nullptr, o0.out()));
        CT_ASSERT_OK(ct_multi_margin_loss(row.get(), t1.get(), CT_REDUCTION_NONE, 1, 1.0, nullptr, o1.out()));
        EXPECT_EQ(shape(o0), Shape{});
        EXPECT_EQ(shape(o1), Shape{1});
        EXPECT_TRUE(allclose(o0, {((1 - 0.5 + 0.1) + (1 - 0.5 - 0.3)) / 3}, 1e-12));
        H out;
        CT_EXPECT_ERR(ct_multi_margin_loss(x.get(), y.get(), 1, 3, 1.0, nullptr, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "only p == 1 and p == 2");
        CT_EXPECT_ERR(ct_multi_margin_loss(x.get(), int_tensor({0, 4, 1}, {3}).get(), 1, 1, 1.0, nullptr, out.out()),
                      CT_ERR_INDEX, "target 4 is out of range for 4 classes");
        CT_EXPECT_ERR(ct_multi_margin_loss(x.get(), int_tensor({0, 1}, {2}).get(), 1, 1, 1.0, nullptr, out.out()),
                      CT_ERR_SHAPE, "expected a target of 3 class(es)");
        CT_EXPECT_ERR(ct_multi_margin_loss(x.get(), make({0, 1, 2}, {3}).get(), 1, 1, 1.0, nullptr, out.out()),
                      CT_ERR_DTYPE, "expected integer class targets");
        CT_EXPECT_ERR(ct_multi_margin_loss(x.get(), y.get(), 1, 1, 1.0, make({1, 1, 1}, {3}).get(), out.out()),
                      CT_ERR_SHAPE, "expected a weight of shape [4]");
        CT_EXPECT_ERR(ct_multi_margin_loss(randt({2, 3, 4}, 63, false).get(), y.get(), 1, 1, 1.0, nullptr, out.out()),
                      CT_ERR_SHAPE, "non-empty vector or matrix");
    });
}

TEST(CosineEmbeddingLoss, ValuesAndGradients) {
    for_each_device([&] {
        H a = randt({3, 4}, 71), b = randt({3, 4}, 72), y = make({1, -1, -1}, {3});
        std::vector<double> av = values(a), bv = values(b), yv = values(y), per;
        for (int i = 0; i < 3; ++i) {
            double p = 0, m1 = 1e-12, m2 = 1e-12;
            for (int j = 0; j < 4; ++j) p += av[i * 4 + j] * bv[i * 4 + j], m1 += av[i * 4 + j] * av[i * 4 + j], m2 += bv[i * 4 + j] * bv[i * 4 + j];
            double c = p / std::sqrt(m1 * m2);
            per.push_back(yv[i] == 1 ? 1 - c : std::max(c + 0.1, 0.0));
        }
        for (int r : kReductions) {
            H out;
            CT_ASSERT_OK(ct_cosine_embedding_loss(a.get(), b.get(), y.get(), r, -0.1, out.out()));
            EXPECT_TRUE(allclose(out, reduce(per, r), 1e-12));
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                H o;
                ok(ct_cosine_embedding_loss(v[0].get(), v[1].get(), y.get(), r, -0.1, o.out()));
                return o;
            }, {a, b}));
        }
        H out;
        CT_EXPECT_ERR(ct_cosine_embedding_loss(a.get(), b.get(), make({1, 1, 1}, {3, 1}).get(), 1, 0.0, out.out()),
                      CT_ERR_SHAPE, "expected a 0-d or 1-d target");
        CT_EXPECT_ERR(ct_cosine_embedding_loss(make({1, 2}, {2}).get(), make({1, 2}, {2}).get(), y.get(), 1, 0.0, out.out()),
                      CT_ERR_SHAPE, "a 1-d target expects 2-d inputs");
    });
}

TEST(TripletMarginLoss, ValuesSwapNormsAndGradients) {
    for_each_device([&] {
        H a = randt({3, 4}, 81), p = randt({3, 4}, 82), n = randt({3, 4}, 83);
        std::vector<double> av = values(a), pv = values(p), nv = values(n);
        auto dist = [](const std::vector<double>& x, const std::vector<double>& y, int i, double q) {
            double s = 0;
            for (int j = 0; j < 4; ++j) s += std::pow(std::fabs(x[i * 4 + j] - y[i * 4 + j] + 1e-6), q);
            return std::pow(s, 1 / q);
        };
        for (double q : {2.0, 1.0, 3.0})
            for (int swap : {0, 1}) {
                SCOPED_TRACE("p " + std::to_string(q) + " swap " + std::to_string(swap));
                std::vector<double> per;
                for (int i = 0; i < 3; ++i) {
                    double dn = dist(av, nv, i, q);
                    if (swap) dn = std::min(dn, dist(pv, nv, i, q));
                    per.push_back(std::max(0.5 + dist(av, pv, i, q) - dn, 0.0));
                }
                for (int r : kReductions) {
                    H out;
                    CT_ASSERT_OK(ct_triplet_margin_loss(a.get(), p.get(), n.get(), r, 0.5, q, 1e-6, swap, out.out()));
                    EXPECT_TRUE(allclose(out, reduce(per, r), 1e-12));
                    EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                        H o;
                        ok(ct_triplet_margin_loss(v[0].get(), v[1].get(), v[2].get(), r, 0.5, q, 1e-6, swap, o.out()));
                        return o;
                    }, {a, p, n}));
                }
            }
        H out;
        CT_EXPECT_ERR(ct_triplet_margin_loss(a.get(), randt({4}, 84).get(), n.get(), 1, 1.0, 2.0, 1e-6, 0, out.out()),
                      CT_ERR_SHAPE, "all inputs should have the same number of dims");
    });
}

TEST(Losses, ErrorsNameTheOp) {
    H x = randt({2, 3}, 91, false), t = randt({2, 3}, 92, false), bad = randt({4}, 93, false), out;
    H ints = make({1, 2}, {2}, CT_INT64);
    CT_EXPECT_ERR(ct_l1_loss(x.get(), bad.get(), 1, out.out()), CT_ERR_SHAPE, "l1_loss: shapes [2, 3] and [4]");
    CT_EXPECT_ERR(ct_l1_loss(ints.get(), ints.get(), 1, out.out()), CT_ERR_DTYPE, "l1_loss: expected a floating tensor");
    CT_EXPECT_ERR(ct_smooth_l1_loss(x.get(), t.get(), 1, -1.0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "smooth_l1_loss: beta must be at least 0, got -1");
    CT_EXPECT_ERR(ct_huber_loss(x.get(), t.get(), 1, 0.0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "huber_loss: delta must be positive, got 0");
    CT_EXPECT_ERR(ct_soft_margin_loss(randt({3}, 94, false).get(), x.get(), 1, out.out()), CT_ERR_SHAPE,
                  "must broadcast to the input's shape [3]");
    CT_EXPECT_ERR(ct_kl_div(x.get(), t.get(), 7, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "kl_div: unknown reduction 7");
    CT_EXPECT_ERR(ct_poisson_nll_loss(nullptr, t.get(), 1, 1, 0, 1e-8, out.out()), CT_ERR_INVALID_HANDLE,
                  "poisson_nll_loss");
    CT_EXPECT_ERR(ct_hinge_embedding_loss(x.get(), t.get(), 1, 1.0, nullptr), CT_ERR_INVALID_ARGUMENT,
                  "hinge_embedding_loss");
    CT_EXPECT_ERR(ct_triplet_margin_loss(x.get(), t.get(), t.get(), 1, 1.0, -1.0, 1e-6, 0, out.out()),
                  CT_ERR_INVALID_ARGUMENT, "triplet_margin_loss: p must be at least 0");
}

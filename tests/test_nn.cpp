// test_nn.cpp - nn functions through the C API: linear, softmax, log_softmax, cross_entropy, nll_loss,
// mse_loss, binary_cross_entropy(_with_logits), dropout and embedding: values against simple loops,
// gradchecks (float64) for every reduction, double backward, and error paths.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

using Fn = std::function<H(const std::vector<H>&)>;

H linear_of(const H& x, const H& w, const H& b) {
    H y;
    ok(ct_linear(x.get(), w.get(), b.get(), y.out()));
    return y;
}

// Reference softmax (or log_softmax) of a row-major tensor of shape s along dim d.
std::vector<double> ref_softmax(const std::vector<double>& v, const Shape& s, int d, bool log) {
    int64_t outer = 1, n = s[d], inner = 1;
    for (int i = 0; i < d; ++i) outer *= s[i];
    for (size_t i = d + 1; i < s.size(); ++i) inner *= s[i];
    std::vector<double> r(v.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t in = 0; in < inner; ++in) {
            auto at = [&](int64_t j) { return (o * n + j) * inner + in; };
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j < n; ++j) mx = std::max(mx, v[at(j)]);
            for (int64_t j = 0; j < n; ++j) sum += std::exp(v[at(j)] - mx);
            for (int64_t j = 0; j < n; ++j)
                r[at(j)] = log ? v[at(j)] - mx - std::log(sum) : std::exp(v[at(j)] - mx) / sum;
        }
    return r;
}

}  // namespace

// ---- linear ----

TEST(Linear, ValuesMatchLoopForAnyRank) {
    for_each_device([&] {
        std::vector<double> xv = rand_values(12, 1), wv = rand_values(12, 2), bv = rand_values(4, 3);
        H w = make(wv, {4, 3}), b = make(bv, {4});
        for (Shape xs : {Shape{4, 3}, Shape{2, 2, 3}, Shape{3}}) {
            int64_t rows = xs.size() == 1 ? 1 : 4;
            H x = make(std::vector<double>(xv.begin(), xv.begin() + rows * 3), xs);
            std::vector<double> expect;
            for (int64_t r = 0; r < rows; ++r)
                for (int o = 0; o < 4; ++o) {
                    double s = bv[o];
                    for (int k = 0; k < 3; ++k) s += xv[r * 3 + k] * wv[o * 3 + k];
                    expect.push_back(s);
                }
            H y = linear_of(x, w, b);
            Shape ys = xs;
            ys.back() = 4;
            EXPECT_EQ(shape(y), ys);
            EXPECT_TRUE(allclose(y, expect, 1e-12));
        }
        // no bias, float32, transposed (non-contiguous) weight
        H wt0 = make(wv, {3, 4}, CT_FLOAT32), wt, x = make(xv, {4, 3}, CT_FLOAT32), y;
        CT_ASSERT_OK(ct_transpose(wt0.get(), 0, 1, wt.out()));
        CT_ASSERT_OK(ct_linear(x.get(), wt.get(), nullptr, y.out()));
        EXPECT_EQ(dtype(y), CT_FLOAT32);
        std::vector<double> expect;
        for (int r = 0; r < 4; ++r)
            for (int o = 0; o < 4; ++o) {
                double s = 0;
                for (int k = 0; k < 3; ++k) s += xv[r * 3 + k] * wv[k * 4 + o];
                expect.push_back(s);
            }
        EXPECT_TRUE(allclose(y, expect, 1e-5));
    });
}

TEST(Linear, Gradcheck) {
    for_each_device([&] {
        Fn f = [](const std::vector<H>& in) { return linear_of(in[0], in[1], in[2]); };
        EXPECT_TRUE(gradcheck(f, {randt({2, 3, 4}, 1), randt({5, 4}, 2), randt({5}, 3)}));
        EXPECT_TRUE(gradcheck(f, {randt({4}, 4), randt({2, 4}, 5), randt({1}, 6)}));
        EXPECT_TRUE(gradgradcheck(f, {randt({3, 4}, 7), randt({2, 4}, 8), randt({2}, 9)}));
        Fn nobias = [](const std::vector<H>& in) { return linear_of(in[0], in[1], H()); };
        EXPECT_TRUE(gradcheck(nobias, {randt({0, 4}, 10), randt({3, 4}, 11)}));
    });
}

TEST(Linear, Errors) {
    for_each_device([&] {
        H x = randt({2, 3}, 1, false), w = randt({4, 5}, 2, false), y;
        CT_EXPECT_ERR(ct_linear(x.get(), w.get(), nullptr, y.out()), CT_ERR_SHAPE, "linear: input shape [2, 3]");
        H w1 = randt({3}, 3, false);
        CT_EXPECT_ERR(ct_linear(x.get(), w1.get(), nullptr, y.out()), CT_ERR_SHAPE, "weight must be 2-D");
        H w32 = make(rand_values(12, 4), {4, 3}, CT_FLOAT32);
        CT_EXPECT_ERR(ct_linear(x.get(), w32.get(), nullptr, y.out()), CT_ERR_DTYPE, "same dtype");
        H w2 = randt({4, 3}, 5, false), b = randt({3}, 6, false);
        CT_EXPECT_ERR(ct_linear(x.get(), w2.get(), b.get(), y.out()), CT_ERR_SHAPE, "bias of shape [3]");
        H s = make({1.0}, {});
        CT_EXPECT_ERR(ct_linear(s.get(), w2.get(), nullptr, y.out()), CT_ERR_SHAPE, "0-d");
        CT_EXPECT_ERR(ct_linear(x.get(), w2.get(), nullptr, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
    });
}

// ---- softmax / log_softmax ----

TEST(Softmax, ValuesAlongEveryDim) {
    for_each_device([&] {
        Shape s{3, 4, 20};
        std::vector<double> v = rand_values(240, 5, -3, 3);
        v[7] = 1000;  // stability: exp(1000) must not overflow
        H x = make(v, s), x32 = make(v, s, CT_FLOAT32);
        for (int d = 0; d < 3; ++d)
            for (int log = 0; log < 2; ++log) {
                H y, y32;
                auto f = log ? ct_log_softmax : ct_softmax;
                CT_ASSERT_OK(f(x.get(), d - 3 * (d == 2), y.out()));  // dim 2 passed as -1
                EXPECT_TRUE(allclose(y, ref_softmax(v, s, d, log), 1e-12)) << "dim " << d << " log " << log;
                CT_ASSERT_OK(f(x32.get(), d, y32.out()));
                EXPECT_EQ(dtype(y32), CT_FLOAT32);
                EXPECT_TRUE(allclose(y32, ref_softmax(values(x32), s, d, log), 1e-5, 1e-4));
            }
        H z = make({2.5}, {}), y;
        CT_ASSERT_OK(ct_softmax(z.get(), 0, y.out()));
        EXPECT_TRUE(allclose(y, {1.0}));
        CT_ASSERT_OK(ct_log_softmax(z.get(), -1, y.out()));
        EXPECT_TRUE(allclose(y, {0.0}));
    });
}

TEST(Softmax, LogSoftmaxExactForLargeLogits) {
    // log_softmax([1000, 1000, -1000]) in float32: (x - max) - log(2) is log(1/2) to the last bit, while
    // x - (max + log(2)) rounds max + log(2) to float32's spacing at 1000 (6e-5). Rows (dim 1) and columns (dim 0).
    for_each_device([&] {
        H x = make({1000, 1000, -1000, 1000, 1000, -1000}, {2, 3}, CT_FLOAT32), xt, y, yt;
        CT_ASSERT_OK(ct_log_softmax(x.get(), 1, y.out()));
        CT_ASSERT_OK(ct_transpose(x.get(), 0, 1, xt.out()));
        CT_ASSERT_OK(ct_log_softmax(xt.get(), 0, yt.out()));
        const float half = (float)-std::log(2.0), low = -2000.0f - (float)std::log(2.0);
        std::vector<double> v = values(y), vt = values(yt);  // y is [2, 3], yt is [3, 2]
        EXPECT_EQ(std::vector<float>(v.begin(), v.end()), std::vector<float>({half, half, low, half, half, low}));
        EXPECT_EQ(std::vector<float>(vt.begin(), vt.end()), std::vector<float>({half, half, half, half, low, low}));
    });
}

TEST(Softmax, NonContiguousInput) {
    for_each_device([&] {
        std::vector<double> v = rand_values(12, 3);
        H x = make(v, {3, 4}), xt, y;
        CT_ASSERT_OK(ct_transpose(x.get(), 0, 1, xt.out()));  // [4, 3]
        CT_ASSERT_OK(ct_softmax(xt.get(), 1, y.out()));
        std::vector<double> tv(12);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 3; ++j) tv[i * 3 + j] = v[j * 4 + i];
        EXPECT_TRUE(allclose(y, ref_softmax(tv, {4, 3}, 1, false), 1e-12));
    });
}

TEST(Softmax, GradcheckAndDoubleBackward) {
    for_each_device([&] {
        for (int d : {0, 1, -1})
            for (int log = 0; log < 2; ++log) {
                Fn f = [d, log](const std::vector<H>& in) {
                    H y;
                    ok((log ? ct_log_softmax : ct_softmax)(in[0].get(), d, y.out()));
                    return y;
                };
                EXPECT_TRUE(gradcheck(f, {randt({2, 3, 4}, 10 + d)})) << d << log;
                EXPECT_TRUE(gradgradcheck(f, {randt({2, 3}, 20 + d)})) << d << log;
            }
    });
}

TEST(Softmax, Errors) {
    for_each_device([&] {
        H x = randt({2, 3}, 1, false), y;
        CT_EXPECT_ERR(ct_softmax(x.get(), 2, y.out()), CT_ERR_INDEX, "softmax: dim 2 is out of range");
        H i = make({1, 2}, {2}, CT_INT64);
        CT_EXPECT_ERR(ct_log_softmax(i.get(), 0, y.out()), CT_ERR_DTYPE, "log_softmax: expected a floating tensor");
    });
}

// ---- cross_entropy / nll_loss ----

namespace {

// Reference per-row losses of logits [N, C] and targets (ignored rows give NaN markers removed by caller).
std::vector<double> ref_ce_rows(const std::vector<double>& x, int64_t n, int64_t c, const std::vector<int64_t>& t) {
    std::vector<double> ls = ref_softmax(x, {n, c}, 1, true), r;
    for (int64_t i = 0; i < n; ++i) r.push_back(t[i] == -100 ? 0.0 : -ls[i * c + t[i]]);
    return r;
}

H targets(const std::vector<int64_t>& t, const Shape& s, ct_dtype dt = CT_INT64) {
    std::vector<double> d(t.begin(), t.end());
    return make(d, s, dt);
}

}  // namespace

TEST(CrossEntropy, ValuesForEveryReductionAndIgnoreIndex) {
    for_each_device([&] {
        std::vector<double> xv = rand_values(20, 3, -2, 2);
        std::vector<int64_t> tv{1, -100, 4, 0};
        H x = make(xv, {4, 5}), t = targets(tv, {4}), t32 = targets(tv, {4}, CT_INT32);
        std::vector<double> rows = ref_ce_rows(xv, 4, 5, tv);
        double sum = rows[0] + rows[2] + rows[3];
        H none, mean, total, mean32;
        CT_ASSERT_OK(ct_cross_entropy(x.get(), t.get(), CT_REDUCTION_NONE, -100, none.out()));
        EXPECT_TRUE(allclose(none, rows, 1e-12));
        CT_ASSERT_OK(ct_cross_entropy(x.get(), t.get(), CT_REDUCTION_MEAN, -100, mean.out()));
        EXPECT_TRUE(allclose(mean, {sum / 3}, 1e-12));  // divides by the 3 non-ignored targets
        CT_ASSERT_OK(ct_cross_entropy(x.get(), t.get(), CT_REDUCTION_SUM, -100, total.out()));
        EXPECT_TRUE(allclose(total, {sum}, 1e-12));
        CT_ASSERT_OK(ct_cross_entropy(x.get(), t32.get(), CT_REDUCTION_MEAN, -100, mean32.out()));
        EXPECT_TRUE(allclose(mean32, {sum / 3}, 1e-12));
        // agrees with nll_loss(log_softmax)
        H ls, nll;
        CT_ASSERT_OK(ct_log_softmax(x.get(), 1, ls.out()));
        CT_ASSERT_OK(ct_nll_loss(ls.get(), t.get(), CT_REDUCTION_MEAN, -100, nll.out()));
        EXPECT_TRUE(allclose(nll, {sum / 3}, 1e-12));
        // [C] logits with a 0-d target; float32 keeps its dtype
        H x1 = make({0.5, -1, 2}, {3}, CT_FLOAT32), t0 = targets({2}, {}), l;
        CT_ASSERT_OK(ct_cross_entropy(x1.get(), t0.get(), CT_REDUCTION_NONE, -100, l.out()));
        EXPECT_EQ(shape(l), Shape{});
        EXPECT_EQ(dtype(l), CT_FLOAT32);
        EXPECT_TRUE(allclose(l, {std::log(std::exp(0.5) + std::exp(-1.0) + std::exp(2.0)) - 2.0}, 1e-6));
        // all targets ignored: mean is 0/0 = NaN like PyTorch, sum is 0
        H ti = targets({-100, -100, -100, -100}, {4}), m2, s2;
        CT_ASSERT_OK(ct_cross_entropy(x.get(), ti.get(), CT_REDUCTION_MEAN, -100, m2.out()));
        EXPECT_TRUE(std::isnan(scalar(m2)));
        CT_ASSERT_OK(ct_cross_entropy(x.get(), ti.get(), CT_REDUCTION_SUM, -100, s2.out()));
        EXPECT_EQ(scalar(s2), 0.0);
    });
}

TEST(CrossEntropy, GradcheckEveryReduction) {
    for_each_device([&] {
        H t = targets({2, 0, -100, 3}, {4}), t1 = targets({1}, {});
        for (int32_t r : {CT_REDUCTION_NONE, CT_REDUCTION_MEAN, CT_REDUCTION_SUM})
            for (int nll = 0; nll < 2; ++nll) {
                auto fn = nll ? ct_nll_loss : ct_cross_entropy;
                Fn f = [&](const std::vector<H>& in) {
                    H y;
                    ok(fn(in[0].get(), t.get(), r, -100, y.out()));
                    return y;
                };
                EXPECT_TRUE(gradcheck(f, {randt({4, 5}, 30 + r)})) << r << nll;
                // squared, so that the incoming gradient depends on the input (nll alone is linear)
                Fn sq = [&](const std::vector<H>& in) {
                    H y = f(in), yy;
                    ok(ct_mul(y.get(), y.get(), yy.out()));
                    return yy;
                };
                EXPECT_TRUE(gradgradcheck(sq, {randt({4, 5}, 40 + r)})) << r << nll;
                Fn f1 = [&](const std::vector<H>& in) {
                    H y;
                    ok(fn(in[0].get(), t1.get(), r, -100, y.out()));
                    return y;
                };
                EXPECT_TRUE(gradcheck(f1, {randt({3}, 50 + r)})) << r << nll;
            }
    });
}

TEST(CrossEntropy, Errors) {
    for_each_device([&] {
        H x = randt({2, 10}, 1, false), y;
        H bad = targets({12, 1}, {2});
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), bad.get(), CT_REDUCTION_MEAN, -100, y.out()), CT_ERR_INDEX,
                      "cross_entropy: target 12 is out of bounds for 10 classes");
        H neg = targets({-1, 1}, {2});
        CT_EXPECT_ERR(ct_nll_loss(x.get(), neg.get(), CT_REDUCTION_MEAN, -100, y.out()), CT_ERR_INDEX,
                      "nll_loss: target -1 is out of bounds");
        H t = targets({1, 1}, {2});
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), t.get(), 3, -100, y.out()), CT_ERR_INVALID_ARGUMENT, "unknown reduction 3");
        H t3 = targets({1, 1, 1}, {3});
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), t3.get(), 1, -100, y.out()), CT_ERR_SHAPE, "expected target of shape [2]");
        H tf = make({1, 1}, {2});
        // a floating target is read as class probabilities, which must have the input's shape
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), tf.get(), 1, -100, y.out()), CT_ERR_SHAPE,
                      "class probability targets must have the input's shape [2, 10], got [2]");
        CT_EXPECT_ERR(ct_cross_entropy(x.get(), make({1, 0}, {2}, CT_BOOL).get(), 1, -100, y.out()), CT_ERR_DTYPE,
                      "integer class targets");
        H x3 = randt({2, 3, 4}, 2, false);
        CT_EXPECT_ERR(ct_cross_entropy(x3.get(), t.get(), 1, -100, y.out()), CT_ERR_SHAPE,
                      "expected target of shape [2, 4] for input of shape [2, 3, 4]");
        H xi = make({1, 2}, {1, 2}, CT_INT64), t1 = targets({0}, {1});
        CT_EXPECT_ERR(ct_cross_entropy(xi.get(), t1.get(), 1, -100, y.out()), CT_ERR_DTYPE, "floating");
    });
}

// ---- mse_loss / binary cross entropy ----

TEST(MseLoss, ValuesBroadcastAndGradcheck) {
    for_each_device([&] {
        H x = make({1, 2, 3, 4, 5, 6}, {2, 3}), t = make({0, 2, 5}, {3}), none, mean, sum;
        CT_ASSERT_OK(ct_mse_loss(x.get(), t.get(), CT_REDUCTION_NONE, none.out()));
        EXPECT_TRUE(allclose(none, {1, 0, 4, 16, 9, 1}));
        CT_ASSERT_OK(ct_mse_loss(x.get(), t.get(), CT_REDUCTION_MEAN, mean.out()));
        EXPECT_TRUE(allclose(mean, {31.0 / 6}));
        CT_ASSERT_OK(ct_mse_loss(x.get(), t.get(), CT_REDUCTION_SUM, sum.out()));
        EXPECT_TRUE(allclose(sum, {31.0}));
        for (int32_t r : {0, 1, 2}) {
            Fn f = [r](const std::vector<H>& in) {
                H y;
                ok(ct_mse_loss(in[0].get(), in[1].get(), r, y.out()));
                return y;
            };
            EXPECT_TRUE(gradcheck(f, {randt({2, 3}, 1), randt({3}, 2)})) << r;
            EXPECT_TRUE(gradgradcheck(f, {randt({2, 3}, 3), randt({2, 3}, 4)})) << r;
        }
        H bad = make({1, 2}, {2}), y;
        CT_EXPECT_ERR(ct_mse_loss(x.get(), bad.get(), 1, y.out()), CT_ERR_SHAPE, "mse_loss: shapes [2, 3] and [2]");
    });
}

TEST(BinaryCrossEntropy, ValuesClampAndGradcheck) {
    for_each_device([&] {
        H p = make({0.25, 0.5, 1.0, 0.0}, {4}), t = make({1, 0, 0, 0}, {4}), none, mean;
        CT_ASSERT_OK(ct_binary_cross_entropy(p.get(), t.get(), CT_REDUCTION_NONE, none.out()));
        EXPECT_TRUE(allclose(none, {-std::log(0.25), -std::log(0.5), 100.0, 0.0}, 1e-12));  // log(0) clamped at -100
        CT_ASSERT_OK(ct_binary_cross_entropy(p.get(), t.get(), CT_REDUCTION_MEAN, mean.out()));
        EXPECT_TRUE(allclose(mean, {(-std::log(0.25) - std::log(0.5) + 100.0) / 4}, 1e-12));
        for (int32_t r : {0, 1, 2}) {
            Fn f = [r](const std::vector<H>& in) {
                H y;
                ok(ct_binary_cross_entropy(in[0].get(), in[1].get(), r, y.out()));
                return y;
            };
            EXPECT_TRUE(gradcheck(f, {randt({2, 3}, 5, true, 0.1, 0.9), randt({2, 3}, 6, true, 0, 1)})) << r;
            EXPECT_TRUE(gradgradcheck(f, {randt({3}, 7, true, 0.2, 0.8), randt({3}, 8, true, 0, 1)})) << r;
        }
        H out_of_range = make({0.5, 1.5}, {2}), t2 = make({0, 1}, {2}), y;
        CT_EXPECT_ERR(ct_binary_cross_entropy(out_of_range.get(), t2.get(), 1, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "must be in [0, 1], got 1.5");
        CT_EXPECT_ERR(ct_binary_cross_entropy(p.get(), t2.get(), 1, y.out()), CT_ERR_SHAPE, "must match probs shape [4]");
    });
}

TEST(BinaryCrossEntropyWithLogits, StableValuesAndGradcheck) {
    for_each_device([&] {
        std::vector<double> xv{-2, 0.5, 100, -100, 100, 0}, tv{1, 0, 1, 1, 0, 0.25};
        H x = make(xv, {2, 3}), t = make(tv, {2, 3}), none, sum;
        CT_ASSERT_OK(ct_binary_cross_entropy_with_logits(x.get(), t.get(), CT_REDUCTION_NONE, none.out()));
        std::vector<double> expect;
        for (size_t i = 0; i < xv.size(); ++i) {
            double sig = 1 / (1 + std::exp(-xv[i]));  // fine for |x| <= 2; the large cases are known in closed form
            expect.push_back(std::fabs(xv[i]) > 50 ? (tv[i] == 1 ? std::max(-xv[i], 0.0) : std::max(xv[i], 0.0))
                                                   : -(tv[i] * std::log(sig) + (1 - tv[i]) * std::log(1 - sig)));
        }
        EXPECT_TRUE(allclose(none, expect, 1e-12));
        CT_ASSERT_OK(ct_binary_cross_entropy_with_logits(x.get(), t.get(), CT_REDUCTION_SUM, sum.out()));
        double total = 0;
        for (double e : expect) total += e;
        EXPECT_TRUE(allclose(sum, {total}, 1e-12));
        H x32 = make(xv, {2, 3}, CT_FLOAT32), t32 = make(tv, {2, 3}, CT_FLOAT32), n32;
        CT_ASSERT_OK(ct_binary_cross_entropy_with_logits(x32.get(), t32.get(), CT_REDUCTION_NONE, n32.out()));
        EXPECT_TRUE(allclose(n32, expect, 1e-5, 1e-5));  // no overflow in float32 either
        for (int32_t r : {0, 1, 2}) {
            Fn f = [r](const std::vector<H>& in) {
                H y;
                ok(ct_binary_cross_entropy_with_logits(in[0].get(), in[1].get(), r, y.out()));
                return y;
            };
            EXPECT_TRUE(gradcheck(f, {randt({2, 3}, 12, true, -3, 3), randt({2, 3}, 13, true, 0, 1)})) << r;
            EXPECT_TRUE(gradgradcheck(f, {randt({4}, 14, true, -3, 3), randt({4}, 15, true, 0, 1)})) << r;
        }
        H bad = make({1}, {1}), y;
        CT_EXPECT_ERR(ct_binary_cross_entropy_with_logits(x.get(), bad.get(), 1, y.out()), CT_ERR_SHAPE,
                      "must match logits shape [2, 3]");
        CT_EXPECT_ERR(ct_binary_cross_entropy_with_logits(x.get(), t.get(), -1, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "unknown reduction -1");
    });
}

// ---- embedding ----

TEST(Embedding, ValuesAndRepeatedIndexGrad) {
    for_each_device([&] {
        std::vector<double> wv = rand_values(15, 9);
        H w = make(wv, {5, 3}, CT_FLOAT64, true);
        H idx = targets({4, 0, 4, 2}, {2, 2}), y;
        CT_ASSERT_OK(ct_embedding(w.get(), idx.get(), y.out()));
        EXPECT_EQ(shape(y), (Shape{2, 2, 3}));
        std::vector<double> expect;
        for (int i : {4, 0, 4, 2})
            for (int c = 0; c < 3; ++c) expect.push_back(wv[i * 3 + c]);
        EXPECT_TRUE(allclose(y, expect));
        H s, g;
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, s.out()));
        CT_ASSERT_OK(ct_backward(s.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(w.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 2, 2, 2}));  // row 4 used twice
        H i32 = targets({1, 3}, {2}, CT_INT32);
        Fn f = [&](const std::vector<H>& in) {
            H o;
            ok(ct_embedding(in[0].get(), idx.get(), o.out()));
            return o;
        };
        EXPECT_TRUE(gradcheck(f, {randt({5, 3}, 10)}));
        Fn sq = [&](const std::vector<H>& in) {  // embedding is linear: square it so the second derivative is not 0
            H y = f(in), yy;
            ok(ct_mul(y.get(), y.get(), yy.out()));
            return yy;
        };
        EXPECT_TRUE(gradgradcheck(sq, {randt({5, 3}, 11)}));
        H y32;
        CT_ASSERT_OK(ct_embedding(w.get(), i32.get(), y32.out()));
        EXPECT_EQ(shape(y32), (Shape{2, 3}));
    });
}

TEST(Embedding, Errors) {
    for_each_device([&] {
        H w = randt({5, 3}, 1, false), y;
        H bad = targets({1, 5}, {2});
        CT_EXPECT_ERR(ct_embedding(w.get(), bad.get(), y.out()), CT_ERR_INDEX, "embedding: index 5 is out of range for 5");
        H negi = targets({-1}, {1});
        CT_EXPECT_ERR(ct_embedding(w.get(), negi.get(), y.out()), CT_ERR_INDEX, "index -1");
        H fl = make({1}, {1});
        CT_EXPECT_ERR(ct_embedding(w.get(), fl.get(), y.out()), CT_ERR_DTYPE, "int64 or int32");
        H w1 = randt({5}, 2, false), ok_idx = targets({1}, {1});
        CT_EXPECT_ERR(ct_embedding(w1.get(), ok_idx.get(), y.out()), CT_ERR_SHAPE, "weight must be 2-D");
    });
}

// ---- dropout ----

namespace {
struct Gen {
    ct_generator g = nullptr;
    explicit Gen(uint64_t seed) { ok(ct_generator_new(seed, &g)); }
    ~Gen() { ct_generator_release(g); }
};
}  // namespace

TEST(Dropout, MaskScalingAndReproducibility) {
    for_each_device([&] {
        const int64_t n = 20000;
        H x = make(std::vector<double>((size_t)n, 2.0), {100, 200}, CT_FLOAT32), y1, y2, y3;
        Gen g1(5), g2(5);
        CT_ASSERT_OK(ct_dropout(x.get(), 0.3, 1, g1.g, y1.out()));
        CT_ASSERT_OK(ct_dropout(x.get(), 0.3, 1, g2.g, y2.out()));
        std::vector<double> v1 = values(y1), v2 = values(y2);
        EXPECT_EQ(v1, v2);  // same seed, same mask
        int64_t kept = 0;
        for (double v : v1) {
            EXPECT_TRUE(v == 0.0 || std::fabs(v - 2.0 / 0.7) < 1e-5) << v;
            kept += v != 0.0;
        }
        EXPECT_NEAR((double)kept / n, 0.7, 0.02);
        CT_ASSERT_OK(ct_dropout(x.get(), 0.3, 1, g1.g, y3.out()));
        EXPECT_NE(values(y3), v1);  // the generator advanced
        // eval mode and p = 0 are the identity; p = 1 drops everything; NULL generator = default
        H e, z, o;
        CT_ASSERT_OK(ct_dropout(x.get(), 0.9, 0, nullptr, e.out()));
        EXPECT_EQ(values(e), values(x));
        CT_ASSERT_OK(ct_dropout(x.get(), 1.0, 1, nullptr, z.out()));
        EXPECT_TRUE(allclose(z, std::vector<double>((size_t)n, 0.0)));
        CT_ASSERT_OK(ct_dropout(x.get(), 0.0, 1, nullptr, o.out()));
        EXPECT_EQ(values(o), values(x));
    });
}

TEST(Dropout, BackwardUsesTheSameMask) {
    for_each_device([&] {
        H x = randt({50, 40}, 3), y, s, g;
        Gen gen(11);
        CT_ASSERT_OK(ct_dropout(x.get(), 0.5, 1, gen.g, y.out()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, s.out()));
        CT_ASSERT_OK(ct_backward(s.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        std::vector<double> yv = values(y), xv = values(x), gv = values(g);
        for (size_t i = 0; i < yv.size(); ++i) EXPECT_NEAR(gv[i], yv[i] == 0.0 ? 0.0 : 2.0, 1e-12) << i;
        for (size_t i = 0; i < yv.size(); ++i) EXPECT_NEAR(yv[i], xv[i] * gv[i], 1e-12) << i;
        // gradcheck with a fixed mask: reseed before every evaluation
        Fn f = [&](const std::vector<H>& in) {
            ok(ct_generator_seed(gen.g, 42));
            H o;
            ok(ct_dropout(in[0].get(), 0.4, 1, gen.g, o.out()));
            return o;
        };
        EXPECT_TRUE(gradcheck(f, {randt({3, 4}, 4)}));
    });
}

TEST(Dropout, Errors) {
    for_each_device([&] {
        H x = randt({2}, 1, false), y;
        CT_EXPECT_ERR(ct_dropout(x.get(), 1.5, 1, nullptr, y.out()), CT_ERR_INVALID_ARGUMENT,
                      "dropout: probability p must be in [0, 1], got 1.5");
        CT_EXPECT_ERR(ct_dropout(x.get(), -0.1, 1, nullptr, y.out()), CT_ERR_INVALID_ARGUMENT, "got -0.1");
        H i = make({1, 2}, {2}, CT_INT64);
        CT_EXPECT_ERR(ct_dropout(i.get(), 0.5, 1, nullptr, y.out()), CT_ERR_DTYPE, "floating");
        ct_generator bogus = (ct_generator)(uintptr_t)0x1234;
        CT_EXPECT_ERR(ct_dropout(x.get(), 0.5, 1, bogus, y.out()), CT_ERR_INVALID_HANDLE, "gen");
    });
}

// ---- float32 kernels and empty tensors ----

namespace {
// Gradient of sum(f(x) * w) w.r.t. x for x given as float64 values, computed in dtype dt.
std::vector<double> grad_in(ct_dtype dt, const std::vector<double>& xv, const Shape& s,
                            const std::function<H(const H&)>& f) {
    H x = make(xv, s, dt, true), y = f(x), w, yw, l, g;
    int64_t n = 0;
    ok(ct_tensor_numel(y.get(), &n));
    w = make(rand_values((size_t)n, 5), shape(y), dt);
    ok(ct_mul(y.get(), w.get(), yw.out()));
    ok(ct_sum(yw.get(), nullptr, 0, 0, l.out()));
    ok(ct_backward(l.get(), nullptr, 0, 0));
    ok(ct_tensor_grad(x.get(), g.out()));
    return values(g);
}
}  // namespace

TEST(NnFloat32, BackwardKernelsAgreeWithFloat64) {
    for_each_device([&] {
        Shape s{5, 37, 70};  // 70 columns: one full column block of 64 plus a partial one
        std::vector<double> xv = rand_values(5 * 37 * 70, 8, -4, 4);
        for (int d : {0, 1, 2})
            for (int log = 0; log < 2; ++log) {
                auto f = [d, log](const H& x) {
                    H y;
                    ok((log ? ct_log_softmax : ct_softmax)(x.get(), d, y.out()));
                    return y;
                };
                std::vector<double> g64 = grad_in(CT_FLOAT64, xv, s, f), g32 = grad_in(CT_FLOAT32, xv, s, f);
                for (size_t i = 0; i < g64.size(); ++i)
                    ASSERT_NEAR(g32[i], g64[i], 2e-5 + 1e-4 * std::fabs(g64[i])) << d << log << i;
            }
        H t = targets({3, 0, 69, -100, 12}, {5});
        auto ce = [&t](const H& x) {
            H y;
            ok(ct_cross_entropy(x.get(), t.get(), CT_REDUCTION_NONE, -100, y.out()));
            return y;
        };
        std::vector<double> xc(xv.begin(), xv.begin() + 350);
        std::vector<double> g64 = grad_in(CT_FLOAT64, xc, {5, 70}, ce), g32 = grad_in(CT_FLOAT32, xc, {5, 70}, ce);
        for (size_t i = 0; i < g64.size(); ++i) ASSERT_NEAR(g32[i], g64[i], 1e-6) << i;
    });
}

TEST(NnEmpty, ZeroSizedInputs) {
    for_each_device([&] {
        H x = make({}, {0, 3}), y;
        CT_ASSERT_OK(ct_softmax(x.get(), 1, y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 3}));
        CT_ASSERT_OK(ct_log_softmax(x.get(), 0, y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 3}));
        H t = targets({}, {0}), l;
        CT_ASSERT_OK(ct_cross_entropy(x.get(), t.get(), CT_REDUCTION_SUM, -100, l.out()));
        EXPECT_EQ(scalar(l), 0.0);
        CT_ASSERT_OK(ct_cross_entropy(x.get(), t.get(), CT_REDUCTION_MEAN, -100, l.out()));
        EXPECT_TRUE(std::isnan(scalar(l)));
        CT_ASSERT_OK(ct_cross_entropy(x.get(), t.get(), CT_REDUCTION_NONE, -100, l.out()));
        EXPECT_EQ(shape(l), Shape{0});
        H w = randt({4, 3}, 1, false), b = randt({4}, 2, false), z = make({}, {2, 0}), w0 = make({}, {4, 0});
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), b.get(), y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 4}));
        CT_ASSERT_OK(ct_linear(z.get(), w0.get(), b.get(), y.out()));  // in_features 0: just the bias
        std::vector<double> bv = values(b);
        EXPECT_TRUE(allclose(y, {bv[0], bv[1], bv[2], bv[3], bv[0], bv[1], bv[2], bv[3]}));
        H e = make({}, {0}), m;
        CT_ASSERT_OK(ct_mse_loss(e.get(), e.get(), CT_REDUCTION_MEAN, m.out()));
        EXPECT_TRUE(std::isnan(scalar(m)));
    });
}

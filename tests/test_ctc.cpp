// test_ctc.cpp - ct_ctc_loss against a brute-force reference (every alignment of a short input enumerated,
// collapsed and compared with the target), its reductions, target layouts and zero_infinity, float64
// gradchecks through log_softmax (where torch's gradient convention is the true one), and errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

// -log of the summed probability of every path over T steps of C classes that collapses (merge repeats, drop
// blanks) to target, from log-probabilities lp [T, C] of one sample.
double brute_force_nll(const std::vector<double>& lp, int64_t T, int64_t C, const std::vector<int64_t>& target,
                       int64_t blank) {
    double total = 0;
    std::vector<int64_t> path((size_t)T, 0);
    for (;;) {
        std::vector<int64_t> collapsed;
        int64_t prev = -1;
        double logp = 0;
        for (int64_t t = 0; t < T; ++t) {
            logp += lp[(size_t)(t * C + path[(size_t)t])];
            if (path[(size_t)t] != prev && path[(size_t)t] != blank) collapsed.push_back(path[(size_t)t]);
            prev = path[(size_t)t];
        }
        if (collapsed == target) total += std::exp(logp);
        int64_t k = 0;  // next path (odometer)
        while (k < T && ++path[(size_t)k] == C) path[(size_t)k++] = 0;
        if (k == T) break;
    }
    return -std::log(total);
}

// log_softmax rows of v [rows, C].
std::vector<double> log_softmax_rows(std::vector<double> v, int64_t C) {
    for (size_t r = 0; r < v.size() / (size_t)C; ++r) {
        double m = -INFINITY, s = 0;
        for (int64_t c = 0; c < C; ++c) m = std::max(m, v[r * C + c]);
        for (int64_t c = 0; c < C; ++c) s += std::exp(v[r * C + c] - m);
        for (int64_t c = 0; c < C; ++c) v[r * C + c] -= m + std::log(s);
    }
    return v;
}

H int_tensor(const std::vector<double>& v, const Shape& s) { return make(v, s, CT_INT64); }

H ctc(const H& lp, const H& targets, const std::vector<int64_t>& in, const std::vector<int64_t>& tg, int red,
      int64_t blank = 0, int zero_inf = 0) {
    H o;
    ok(ct_ctc_loss(lp.get(), targets.get(), in.data(), tg.data(), (int64_t)in.size(), red, blank, zero_inf, o.out()));
    return o;
}

}  // namespace

TEST(CtcLoss, MatchesBruteForceForEveryLayoutAndReduction) {
    for_each_device([&] {
        const int64_t T = 5, N = 3, C = 4;
        std::vector<double> lp = log_softmax_rows(rand_values((size_t)(T * N * C), 7, -2, 2), C);  // [T, N, C]
        const std::vector<std::vector<int64_t>> targets = {{1, 2}, {3, 3}, {2}};
        const std::vector<int64_t> in = {5, 4, 3}, tg = {2, 2, 1};
        std::vector<double> per;
        for (int64_t n = 0; n < N; ++n) {
            std::vector<double> one;  // sample n's [T_n, C]
            for (int64_t t = 0; t < in[(size_t)n]; ++t)
                for (int64_t c = 0; c < C; ++c) one.push_back(lp[(size_t)((t * N + n) * C + c)]);
            per.push_back(brute_force_nll(one, in[(size_t)n], C, targets[(size_t)n], 0));
        }
        H x = make(lp, {T, N, C});
        H padded = int_tensor({1, 2, 3, 3, 2, 0}, {3, 2}), concatenated = int_tensor({1, 2, 3, 3, 2}, {5});
        for (const H* t : {&padded, &concatenated}) {
            EXPECT_TRUE(allclose(ctc(x, *t, in, tg, CT_REDUCTION_NONE), per, 1e-10));
            EXPECT_TRUE(allclose(ctc(x, *t, in, tg, CT_REDUCTION_SUM), {per[0] + per[1] + per[2]}, 1e-10));
            EXPECT_TRUE(allclose(ctc(x, *t, in, tg, CT_REDUCTION_MEAN), {(per[0] / 2 + per[1] / 2 + per[2]) / 3}, 1e-10));
        }
        // one sample [T, C] gives a 0-d loss; another blank index
        std::vector<double> first;
        for (int64_t t = 0; t < T; ++t)
            for (int64_t c = 0; c < C; ++c) first.push_back(lp[(size_t)((t * N) * C + c)]);
        H single = make(first, {T, C});
        H o = ctc(single, int_tensor({0, 2}, {2}), {5}, {2}, CT_REDUCTION_NONE, 3);
        EXPECT_EQ(shape(o), Shape{});
        EXPECT_TRUE(allclose(o, {brute_force_nll(first, T, C, {0, 2}, 3)}, 1e-10));
    });
}

TEST(CtcLoss, EmptyTargetsEmptyInputsAndImpossibleAlignments) {
    for_each_device([&] {
        const int64_t T = 3, C = 3;
        std::vector<double> lp = log_softmax_rows(rand_values((size_t)(T * 2 * C), 8, -2, 2), C);
        H x = make(lp, {T, 2, C}), t = int_tensor({1, 2, 1, 1}, {2, 2});
        // an empty target is all blanks; an empty input with an empty target has probability 1
        std::vector<double> v = values(ctc(x, t, {3, 0}, {0, 0}, CT_REDUCTION_NONE));
        EXPECT_NEAR(v[0], -(lp[0] + lp[6] + lp[12]), 1e-12);
        EXPECT_EQ(v[1], 0.0);
        // [1, 1] needs a blank between the repeats: 3 steps suffice, 2 do not (infinite loss, or 0 with zero_infinity)
        v = values(ctc(x, t, {3, 2}, {2, 2}, CT_REDUCTION_NONE));
        EXPECT_TRUE(std::isfinite(v[0]));
        EXPECT_TRUE(std::isinf(v[1]));
        H xg = make(lp, {T, 2, C}, CT_FLOAT64, true);
        H z = ctc(xg, t, {3, 2}, {2, 2}, CT_REDUCTION_SUM, 0, 1), g;
        EXPECT_TRUE(allclose(z, {v[0]}, 1e-12));
        CT_ASSERT_OK(ct_backward(z.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(xg.get(), g.out()));
        std::vector<double> gv = values(g);
        for (int64_t k = 0; k < T; ++k)
            for (int64_t c = 0; c < C; ++c) EXPECT_EQ(gv[(size_t)((k * 2 + 1) * C + c)], 0.0) << "t " << k << " c " << c;
    });
}

TEST(CtcLoss, GradcheckThroughLogSoftmax) {
    for_each_device([&] {
        H logits = randt({4, 2, 3}, 9, true, -2, 2), t = int_tensor({1, 2, 2, 0}, {2, 2});
        for (int red : {CT_REDUCTION_NONE, CT_REDUCTION_MEAN, CT_REDUCTION_SUM}) {
            // torch's gradient is d/d(logits) of the loss of log_softmax(logits) (it assumes normalised rows)
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& v) {
                H lp;
                ok(ct_log_softmax(v[0].get(), 2, lp.out()));
                return ctc(lp, t, {4, 3}, {2, 1}, red);
            }, {logits}));
        }
        // the second derivative is refused, as torch refuses it
        H lp, loss, g;
        CT_ASSERT_OK(ct_log_softmax(logits.get(), 2, lp.out()));
        loss = ctc(lp, t, {4, 3}, {2, 1}, CT_REDUCTION_SUM);
        ct_tensor inputs[] = {logits.get()}, outs[] = {loss.get()};
        ct_tensor grads[1] = {nullptr};
        CT_ASSERT_OK(ct_autograd_grad(outs, 1, nullptr, inputs, 1, 1, 1, 0, grads));
        H gl(grads[0]), s, second;
        CT_ASSERT_OK(ct_sum(gl.get(), nullptr, 0, 0, s.out()));
        CT_EXPECT_ERR(ct_backward(s.get(), nullptr, 0, 0), CT_ERR_NOT_SUPPORTED, "ctc_loss: the second derivative");
    });
}

TEST(CtcLoss, Errors) {
    H x = randt({5, 2, 4}, 10, false), t = int_tensor({1, 2, 3, 3}, {2, 2}), out;
    const int64_t in[] = {5, 4}, tg[] = {2, 2}, bad_in[] = {6, 4}, neg[] = {-1, 2}, long_tg[] = {3, 2};
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), t.get(), bad_in, tg, 2, 1, 0, 0, out.out()), CT_ERR_SHAPE,
                  "input lengths must be in [0, 5]");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), t.get(), in, tg, 1, 1, 0, 0, out.out()), CT_ERR_SHAPE, "expected 2 input and target lengths");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), t.get(), in, neg, 2, 1, 0, 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "target lengths must be at least 0");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), t.get(), in, long_tg, 2, 1, 0, 0, out.out()), CT_ERR_SHAPE, "expected targets of shape [2, >= 3]");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), int_tensor({1, 2, 3}, {3}).get(), in, tg, 2, 1, 0, 0, out.out()), CT_ERR_SHAPE,
                  "concatenated targets hold 3 labels, the target lengths sum to 4");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), int_tensor({1, 4, 3, 3}, {2, 2}).get(), in, tg, 2, 1, 0, 0, out.out()), CT_ERR_INDEX,
                  "target label 4 is out of range for 4 classes");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), t.get(), in, tg, 2, 1, 4, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "blank 4 is not a class of 4");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), make({1, 2, 3, 3}, {2, 2}).get(), in, tg, 2, 1, 0, 0, out.out()), CT_ERR_DTYPE,
                  "expected integer targets");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), t.get(), nullptr, tg, 2, 1, 0, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "non-NULL");
    CT_EXPECT_ERR(ct_ctc_loss(randt({5, 2, 4, 1}, 11, false).get(), t.get(), in, tg, 2, 1, 0, 0, out.out()), CT_ERR_SHAPE,
                  "expected log_probs [T, N, C] or [T, C]");
    CT_EXPECT_ERR(ct_ctc_loss(x.get(), t.get(), in, tg, 2, 3, 0, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "unknown reduction 3");
}

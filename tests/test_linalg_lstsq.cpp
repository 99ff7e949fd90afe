// test_linalg_lstsq.cpp - ct_linalg_lstsq_ex (torch.linalg.lstsq with LAPACK's gelsy, gels, gelsd and gelss):
// closed-form solutions, residuals, ranks and singular values of full-rank and rank-deficient matrices, torch 1.13's
// shape rules (vector B, broadcast batch dims, empty sizes), its errors, and the gradient of pinv(A) @ B (central
// differences and second derivatives for full-rank A; equal to pinv's composite gradient for rank-deficient A).
#include "ct_test.h"
#include "lstsq_test_util.h"

using namespace ctt;

namespace {

H pinv(const H& a) {
    H r;
    ok(ct_linalg_pinv(a.get(), -1, -1, r.out()));
    return r;
}

bool has_sv(int32_t d) { return d == CT_LSTSQ_GELSD || d == CT_LSTSQ_GELSS; }

}  // namespace

TEST(LinalgLstsq, FullRankTallMatrixEveryDriver) {
    H a = make({1, 0, 0, 1, 1, 1}, {3, 2}), b = make({1, 2, 4}, {3, 1});
    for (int32_t d : kLstsqDrivers) {
        SCOPED_TRACE(d);
        Lstsq r = lstsq(a, b, d);
        EXPECT_TRUE(allclose(r.solution, {4.0 / 3, 7.0 / 3}, 1e-12));  // the normal equations A^T A x = A^T b
        if (d == CT_LSTSQ_GELSY) {
            EXPECT_EQ(shape(r.residuals), (Shape{0}));
        } else {
            EXPECT_EQ(shape(r.residuals), (Shape{1}));
            EXPECT_TRUE(allclose(r.residuals, {1.0 / 3}, 1e-12));  // ||A x - b||^2 = 3 * (1/3)^2
        }
        EXPECT_EQ(dtype(r.rank), CT_INT64);
        if (d == CT_LSTSQ_GELS) EXPECT_EQ(shape(r.rank), (Shape{0}));
        else EXPECT_EQ(scalar(r.rank), 2.0);
        if (has_sv(d)) EXPECT_TRUE(allclose(r.sv, {std::sqrt(3.0), 1.0}, 1e-12));  // eig(A^T A) = {3, 1}
        else EXPECT_EQ(shape(r.sv), (Shape{0}));
    }
}

TEST(LinalgLstsq, RankDeficientGivesTheMinimumNormSolution) {
    // A = u v^T (u = [1, 2, 3], v = [1, 2]): pinv(A) = v u^T / (|u|^2 |v|^2), so x = 17/70 [1, 2].
    H a = make({1, 2, 2, 4, 3, 6}, {3, 2}), b = make({1, 2, 4}, {3, 1});
    for (int32_t d : {CT_LSTSQ_GELSY, CT_LSTSQ_GELSD, CT_LSTSQ_GELSS}) {
        SCOPED_TRACE(d);
        Lstsq r = lstsq(a, b, d);
        EXPECT_TRUE(allclose(r.solution, {17.0 / 70, 34.0 / 70}, 1e-12));
        EXPECT_EQ(scalar(r.rank), 1.0);
        EXPECT_EQ(shape(r.residuals), (Shape{0}));  // not full rank: no residuals, as torch
        if (has_sv(d)) EXPECT_TRUE(allclose(r.sv, {std::sqrt(70.0), 0.0}, 1e-12));
    }
    // A large rcond cuts a singular value: rank 1 of a full-rank matrix.
    H c = make({1, 0, 0, 1e-3}, {2, 2}), cb = make({1, 1}, {2, 1});
    Lstsq r = lstsq(c, cb, CT_LSTSQ_GELSD, 1e-2);
    EXPECT_EQ(scalar(r.rank), 1.0);
    EXPECT_TRUE(allclose(r.solution, {1, 0}, 1e-12));
    // gels assumes full rank: an exactly zero column is an error naming the LAPACK code.
    H z = make({1, 0, 0, 0, 2, 0}, {3, 2});
    H out;
    CT_EXPECT_ERR(ct_linalg_lstsq_ex(z.get(), b.get(), -1, CT_LSTSQ_GELS, out.out(), nullptr, nullptr, nullptr),
                  CT_ERR_INVALID_ARGUMENT, "does not have full rank (error code: 2)");
}

TEST(LinalgLstsq, WideMatrixFloat32AndTheOldEntryPoint) {
    H a = randt({2, 4}, 7, false), b = randt({2, 3}, 8, false);
    H want = mm(pinv(a), b);  // full row rank: the minimum-norm exact solution
    for (int32_t d : kLstsqDrivers) {
        Lstsq r = lstsq(a, b, d);
        EXPECT_TRUE(allclose(r.solution, values(want), 1e-10)) << d;
        EXPECT_EQ(shape(r.residuals), (Shape{0}));  // m < n
    }
    H old;
    CT_ASSERT_OK(ct_linalg_lstsq(a.get(), b.get(), old.out()));
    EXPECT_TRUE(allclose(old, values(want), 1e-10));
    H a32, b32;
    ok(ct_to_dtype(a.get(), CT_FLOAT32, a32.out()));
    ok(ct_to_dtype(b.get(), CT_FLOAT32, b32.out()));
    Lstsq r = lstsq(a32, b32, CT_LSTSQ_GELSD);
    EXPECT_EQ(dtype(r.solution), CT_FLOAT32);
    EXPECT_EQ(dtype(r.sv), CT_FLOAT32);
    EXPECT_TRUE(allclose(r.solution, values(want), 1e-4));
}

TEST(LinalgLstsq, ShapesVectorBroadcastAndEmpty) {
    H a = randt({4, 3}, 11, false), v = randt({4}, 12, false);
    Lstsq r = lstsq(a, v, CT_LSTSQ_GELSD);  // B with one dim less is a vector: solution [3], residuals [1]
    EXPECT_EQ(shape(r.solution), (Shape{3}));
    EXPECT_EQ(shape(r.residuals), (Shape{1}));
    H ab = randt({1, 4, 3}, 13, false), bb = randt({2, 4, 2}, 14, false);
    r = lstsq(ab, bb, CT_LSTSQ_GELS);
    EXPECT_EQ(shape(r.solution), (Shape{2, 3, 2}));
    EXPECT_EQ(shape(r.residuals), (Shape{2, 2}));
    r = lstsq(ab, bb, CT_LSTSQ_GELSD);  // rank and singular values keep A's own batch shape, as torch
    EXPECT_EQ(shape(r.rank), (Shape{1}));
    EXPECT_EQ(shape(r.sv), (Shape{1, 3}));
    H a2 = randt({2, 5, 3}, 15, false), v2 = randt({2, 5}, 16, false);
    r = lstsq(a2, v2, CT_LSTSQ_GELSS);
    EXPECT_EQ(shape(r.solution), (Shape{2, 3}));
    EXPECT_EQ(shape(r.residuals), (Shape{2, 1}));
    EXPECT_EQ(shape(r.rank), (Shape{2}));
    EXPECT_EQ(shape(r.sv), (Shape{2, 3}));
    // n = 0: an empty solution; rank 0 equals n, so the residuals are |B|^2 per column.
    H b3 = make({1, 2, 3, 4, 5, 6}, {3, 2});
    r = lstsq(randt({3, 0}, 17, false), b3, CT_LSTSQ_GELSD);
    EXPECT_EQ(shape(r.solution), (Shape{0, 2}));
    EXPECT_TRUE(allclose(r.residuals, {1 + 9 + 25, 4 + 16 + 36}, 1e-12));
    EXPECT_EQ(scalar(r.rank), 0.0);
    // m = 0: zeros. k = 0: an empty solution with the rank of A (torch 1.13's gelsd fails there).
    r = lstsq(randt({0, 3}, 18, false), randt({0, 2}, 19, false), CT_LSTSQ_GELSY);
    EXPECT_TRUE(allclose(r.solution, std::vector<double>(6, 0.0)));
    r = lstsq(randt({3, 2}, 20, false), randt({3, 0}, 21, false), CT_LSTSQ_GELSD);
    EXPECT_EQ(shape(r.solution), (Shape{2, 0}));
    EXPECT_EQ(scalar(r.rank), 2.0);
    r = lstsq(randt({0, 3, 2}, 22, false), randt({0, 3, 1}, 23, false), CT_LSTSQ_GELSS);  // empty batch
    EXPECT_EQ(shape(r.solution), (Shape{0, 2, 1}));
    EXPECT_EQ(shape(r.rank), (Shape{0}));
}

TEST(LinalgLstsq, Errors) {
    H a = randt({4, 3}, 30, false), b = randt({4, 2}, 31, false), out;
    auto call = [&](const H& x, const H& y, int32_t driver) {
        return ct_linalg_lstsq_ex(x.get(), y.get(), -1, driver, out.out(), nullptr, nullptr, nullptr);
    };
    CT_EXPECT_ERR(call(a, b, 7), CT_ERR_INVALID_ARGUMENT, "driver 7 should be one of");
    CT_EXPECT_ERR(call(randt({4}, 32, false), b, 0), CT_ERR_SHAPE, "at least 2 dimensions");
    CT_EXPECT_ERR(call(a, randt({3, 2}, 33, false), 0), CT_ERR_SHAPE, "input.size(-2) should match other.size(-2)");
    CT_EXPECT_ERR(call(randt({2, 4, 3}, 34, false), b, 0), CT_ERR_SHAPE, "input.size(-2) should match other.size(-1)");
    CT_EXPECT_ERR(call(a, randt({1, 1, 4, 2}, 35, false), 0), CT_ERR_SHAPE, "input.dim() must be greater or equal");
    CT_EXPECT_ERR(call(randt({2, 4, 3}, 36, false), randt({3, 4, 2}, 37, false), 0), CT_ERR_SHAPE, "");
    H b32, i32;
    ok(ct_to_dtype(b.get(), CT_FLOAT32, b32.out()));
    CT_EXPECT_ERR(call(a, b32, 0), CT_ERR_DTYPE, "same dtype");
    ok(ct_to_dtype(a.get(), CT_INT32, i32.out()));
    CT_EXPECT_ERR(call(i32, i32, 0), CT_ERR_DTYPE, "only floating or complex dtypes are supported, got int32");
    CT_EXPECT_ERR(ct_linalg_lstsq_ex(a.get(), b.get(), -1, 0, nullptr, nullptr, nullptr, nullptr),
                  CT_ERR_INVALID_ARGUMENT, "solution");
    CT_EXPECT_ERR(ct_linalg_lstsq_ex(a.get(), nullptr, -1, 0, out.out(), nullptr, nullptr, nullptr),
                  CT_ERR_INVALID_HANDLE, "B is a NULL tensor handle");
}

TEST(LinalgLstsq, Gradients) {
    for (int32_t d : kLstsqDrivers) {
        auto f = [d](const std::vector<H>& x) { return lstsq(x[0], x[1], d).solution; };
        EXPECT_TRUE(gradcheck(f, {randt({4, 3}, 40), randt({4, 2}, 41)})) << d;
        EXPECT_TRUE(gradcheck(f, {randt({2, 4}, 42), randt({2, 1}, 43)})) << d;
        EXPECT_TRUE(gradcheck(f, {randt({1, 4, 3}, 44), randt({2, 4, 2}, 45)})) << d;  // A broadcast over the batch
        EXPECT_TRUE(gradcheck(f, {randt({2, 4, 3}, 50), randt({2, 4}, 51)})) << d;     // a batch of vectors
    }
    auto f = [](const std::vector<H>& x) { return lstsq(x[0], x[1], CT_LSTSQ_GELSY).solution; };
    EXPECT_TRUE(gradgradcheck(f, {randt({4, 3}, 46), randt({4, 2}, 47)}));
    EXPECT_TRUE(gradgradcheck(f, {randt({2, 3}, 48), randt({2, 2}, 49)}));
}

TEST(LinalgLstsq, RankDeficientGradientIsThatOfPinvTimesB) {
    auto grads = [](bool through_pinv) {
        H a = make({1, 2, 2, 4, 3, 6}, {3, 2}, CT_FLOAT64, true), b = make({1, 2, 4}, {3, 1}, CT_FLOAT64, true);
        H x = through_pinv ? mm(pinv(a), b) : lstsq(a, b, CT_LSTSQ_GELSY).solution, s;
        ok(ct_sum(x.get(), nullptr, 0, 0, s.out()));
        ok(ct_backward(s.get(), nullptr, 0, 0));
        H ga, gb;
        ok(ct_tensor_grad(a.get(), ga.out()));
        ok(ct_tensor_grad(b.get(), gb.out()));
        std::vector<double> v = values(ga), w = values(gb);
        v.insert(v.end(), w.begin(), w.end());
        return v;
    };
    std::vector<double> got = grads(false), want = grads(true);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;
    // torch 1.13: x.sum().backward() for this A and b gives B.grad = [3, 6, 9] / 70.
    EXPECT_NEAR(got[6], 3.0 / 70, 1e-12);
}

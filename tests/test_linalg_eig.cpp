// test_linalg_eig.cpp - ct_linalg_eig / ct_linalg_eigvals (LAPACK geev) through the C API: closed-form eigenpairs
// (real and complex-conjugate), dtypes and shapes, central-difference gradients and second derivatives of
// phase-invariant functions of the outputs (Note [Eig gradient]), complex linalg.solve, and the errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

H unary(ct_status (*fn)(ct_tensor, ct_tensor*), const H& x) {
    H r;
    ok(fn(x.get(), r.out()));
    return r;
}
H eigvals(const H& a) { return unary(ct_linalg_eigvals, a); }
std::pair<H, H> eig(const H& a) {
    H l, v;
    ok(ct_linalg_eig(a.get(), l.out(), v.out()));
    return {std::move(l), std::move(v)};
}

}  // namespace

TEST(LinalgEig, ClosedFormsRealAndComplexPairs) {
    // diag(2, 3): real eigenvalues, unit eigenvectors e1, e2
    auto [l, v] = eig(make({2, 0, 0, 3}, {2, 2}));
    EXPECT_EQ(dtype(l), CT_COMPLEX128);
    EXPECT_EQ(shape(v), (Shape{2, 2}));
    EXPECT_TRUE(allclose(unary(ct_view_as_real, l), {2, 0, 3, 0}, 1e-12));
    EXPECT_TRUE(allclose(unary(ct_abs, v), {1, 0, 0, 1}, 1e-12));
    // a rotation by 90 degrees scaled by 2: eigenvalues +-2i, eigenvectors (1, -+i) / sqrt(2) (sgeev's phase, as torch)
    auto [lr, vr] = eig(make({0, -2, 2, 0}, {2, 2}, CT_FLOAT32));
    EXPECT_EQ(dtype(lr), CT_COMPLEX64);
    EXPECT_TRUE(allclose(unary(ct_view_as_real, lr), {0, 2, 0, -2}, 1e-6));
    const double h = 1.0 / std::sqrt(2.0);
    EXPECT_TRUE(allclose(unary(ct_view_as_real, vr), {h, 0, h, 0, 0, -h, 0, h}, 1e-6));  // sgeev; dgeev: (+-i, 1)
    EXPECT_TRUE(allclose(unary(ct_view_as_real, eigvals(make({0, -2, 2, 0}, {2, 2}))), {0, 2, 0, -2}, 1e-12));
}

TEST(LinalgEig, BatchedAndEmptyShapes) {
    auto [l, v] = eig(randt({3, 2, 4, 4}, 7, false));
    EXPECT_EQ(shape(l), (Shape{3, 2, 4}));
    EXPECT_EQ(shape(v), (Shape{3, 2, 4, 4}));
    auto [le, ve] = eig(make({}, {2, 0, 0}));
    EXPECT_EQ(shape(le), (Shape{2, 0}));
    EXPECT_EQ(shape(ve), (Shape{2, 0, 0}));
    EXPECT_EQ(shape(eigvals(make({}, {0, 3, 3}))), (Shape{0, 3}));
}

TEST(LinalgEig, GradientsOfPhaseInvariantFunctions) {
    // a random 3x3 with a complex pair and a real eigenvalue, and a symmetric one (all real)
    H a = make({0.1, -2.0, 0.5, 2.0, 0.2, 0.3, 0.2, 0.4, 1.0}, {3, 3}, CT_FLOAT64, true);
    H b = randt({2, 3, 3}, 11);
    for (const H& x : {std::cref(a), std::cref(b)}) {
        auto re_l = [](const std::vector<H>& in) { return unary(ct_real, eig(in[0]).first); };
        auto im_l = [](const std::vector<H>& in) { return unary(ct_imag, eigvals(in[0])); };
        auto abs_v = [](const std::vector<H>& in) { return unary(ct_abs, eig(in[0]).second); };
        EXPECT_TRUE(gradcheck(re_l, {x}));
        EXPECT_TRUE(gradcheck(im_l, {x}));
        EXPECT_TRUE(gradcheck(abs_v, {x}));
        EXPECT_TRUE(gradgradcheck(re_l, {x}));
        EXPECT_TRUE(gradgradcheck(abs_v, {x}));
    }
}

TEST(LinalgEig, PhaseDependentLossHasNoGradient) {
    H a = make({0.1, -2.0, 0.5, 2.0, 0.2, 0.3, 0.2, 0.4, 1.0}, {3, 3}, CT_FLOAT64, true);
    H loss;
    ok(ct_sum(unary(ct_real, eig(a).second).get(), nullptr, 0, 0, loss.out()));
    CT_EXPECT_ERR(ct_backward(loss.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "specified up to multiplication by e^{i phi}");
}

TEST(LinalgEig, ComplexSolveAndItsGradient) {
    // A = [[2, i], [0, 1 + i]], B = [1, 1]: X = A^-1 B
    H re = make({2, 0, 0, 1}, {2, 2}), im = make({0, 1, 0, 1}, {2, 2});
    H a;
    ok(ct_complex(re.get(), im.get(), a.out()));
    H b;
    ok(ct_complex(make({1, 1}, {2}).get(), make({0, 0}, {2}).get(), b.out()));
    H x;
    ok(ct_linalg_solve(a.get(), b.get(), x.out()));
    // x1 = 1 / (1 + i) = (1 - i) / 2, x0 = (1 - i x1) / 2 = (1 - (1 + i) / 2) / 2 = (1 - i) / 4
    EXPECT_TRUE(allclose(unary(ct_view_as_real, x), {0.25, -0.25, 0.5, -0.5}, 1e-12));
    H bg;  // a fixed complex right-hand side
    ok(ct_complex(make({1, -1}, {2}).get(), make({0.5, 2}, {2}).get(), bg.out()));
    auto f = [&bg](const std::vector<H>& in) {  // |solve(A(re, im), B)| as a function of A's real and imaginary parts
        H a, x;
        ok(ct_complex(in[0].get(), in[1].get(), a.out()));
        ok(ct_linalg_solve(a.get(), bg.get(), x.out()));
        return unary(ct_abs, x);
    };
    H rg = make({2, 0.3, -0.2, 1}, {2, 2}, CT_FLOAT64, true), ig = make({0.1, 1, 0, 1}, {2, 2}, CT_FLOAT64, true);
    EXPECT_TRUE(gradcheck(f, {rg, ig}));
    EXPECT_TRUE(gradgradcheck(f, {rg, ig}));
}

TEST(LinalgEig, Errors) {
    H l, v;
    CT_EXPECT_ERR(ct_linalg_eig(make({1, 2, 3, 4, 5, 6}, {2, 3}).get(), l.out(), v.out()), CT_ERR_SHAPE,
                  "linalg.eig: A must be batches of square matrices, but they are 2 by 3 matrices");
    CT_EXPECT_ERR(ct_linalg_eigvals(make({1, 2}, {2}).get(), l.out()), CT_ERR_SHAPE,
                  "linalg.eigvals: The input tensor A must have at least 2 dimensions");
    CT_EXPECT_ERR(ct_linalg_eig(make({1, 0, 0, 1}, {2, 2}, CT_INT64).get(), l.out(), v.out()), CT_ERR_DTYPE,
                  "linalg.eig: Expected a floating point or complex tensor as input, got int64");
    CT_EXPECT_ERR(ct_linalg_eig(make({1, NAN, 0, 1}, {2, 2}).get(), l.out(), v.out()), CT_ERR_INVALID_ARGUMENT,
                  "linalg.eig: input tensor should not contain infs or NaNs.");
    CT_EXPECT_ERR(ct_linalg_eigvals(make({1, INFINITY, 0, 1}, {2, 2}).get(), l.out()), CT_ERR_INVALID_ARGUMENT,
                  "linalg.eigvals: input tensor should not contain infs or NaNs.");
    CT_EXPECT_ERR(ct_linalg_eig(nullptr, l.out(), v.out()), CT_ERR_INVALID_HANDLE, "linalg.eig");
    CT_EXPECT_ERR(ct_linalg_eig(make({1}, {1, 1}).get(), nullptr, v.out()), CT_ERR_INVALID_ARGUMENT, "linalg.eig");
    CT_EXPECT_ERR(ct_linalg_eig(make({1}, {1, 1}).get(), l.out(), nullptr), CT_ERR_INVALID_ARGUMENT, "linalg.eig");
}

// test_linalg_lstsq_complex.cpp - ct_linalg_lstsq_ex on complex64/complex128 (the c/z LAPACK drivers): closed forms
// of a complex multiple of a real problem, the normal equations A^H (A X - B) = 0 and pinv(A) B for random tall,
// wide, batched and rank-deficient A with every driver, the real dtypes of residuals and singular values, torch
// 1.13's mixed-dtype errors, and central-difference gradients with respect to the real and imaginary parts.
#include <cmath>
#include "ct_test.h"
#include "lstsq_test_util.h"

using namespace ctt;

namespace {

H cplx(const H& re, const H& im) {
    H a;
    ok(ct_complex(re.get(), im.get(), a.out()));
    return a;
}
// A complex128 tensor of the given shape, real and imaginary parts from two seeds.
H randc(const Shape& s, uint64_t seed) { return cplx(randt(s, seed, false), randt(s, seed + 1000, false)); }
H to(const H& x, ct_dtype d) {
    H r;
    ok(ct_to_dtype(x.get(), d, r.out()));
    return r;
}
H as_real(const H& x) {  // [..., 2]: interleaved real and imaginary parts, for value comparisons
    H r;
    ok(ct_view_as_real(x.get(), r.out()));
    return r;
}
H abs_of(const H& x) {
    H r;
    ok(ct_abs(x.get(), r.out()));
    return r;
}
H sub(const H& a, const H& b) {
    H r;
    ok(ct_sub(a.get(), b.get(), 1.0, r.out()));
    return r;
}
H mh(const H& a) {
    H t, r;
    ok(ct_transpose(a.get(), -2, -1, t.out()));
    ok(ct_conj(t.get(), r.out()));
    return r;
}
H pinv(const H& a) {
    H r;
    ok(ct_linalg_pinv(a.get(), -1, -1, r.out()));
    return r;
}
H scale(const H& x, double re, double im) {  // (re + i im) x
    H c = cplx(make({re}, {}), make({im}, {})), r;
    ok(ct_mul(x.get(), c.get(), r.out()));
    return r;
}

bool has_sv(int32_t d) { return d == CT_LSTSQ_GELSD || d == CT_LSTSQ_GELSS; }

}  // namespace

TEST(LinalgLstsqComplex, ComplexMultipleOfARealProblemEveryDriverAndDtype) {
    // A = (1 + i) A0, B = (1 + 2i) b0 with A0 = [[1, 0], [0, 1], [1, 1]], b0 = [1, 2, 4]: the real problem's
    // x0 = [4/3, 7/3] times (1 + 2i) / (1 + i) = (3 + i) / 2; the residual vector is (1 + 2i) times the real one,
    // so residuals = 5 * 1/3; singular values |1 + i| {sqrt 3, 1}.
    H a0 = make({1, 0, 0, 1, 1, 1}, {3, 2}), b0 = make({1, 2, 4}, {3, 1});
    for (ct_dtype dt : {CT_COMPLEX128, CT_COMPLEX64}) {
        const ct_dtype real = dt == CT_COMPLEX128 ? CT_FLOAT64 : CT_FLOAT32;
        const double tol = dt == CT_COMPLEX128 ? 1e-12 : 1e-5;
        H a = to(scale(a0, 1, 1), dt), b = to(scale(b0, 1, 2), dt);
        for (int32_t d : kLstsqDrivers) {
            SCOPED_TRACE(std::to_string(d) + (dt == CT_COMPLEX64 ? " complex64" : " complex128"));
            Lstsq r = lstsq(a, b, d);
            EXPECT_EQ(dtype(r.solution), dt);
            EXPECT_EQ(shape(r.solution), (Shape{2, 1}));
            EXPECT_TRUE(allclose(as_real(r.solution), {4.0 / 3 * 1.5, 4.0 / 3 * 0.5, 7.0 / 3 * 1.5, 7.0 / 3 * 0.5}, tol));
            EXPECT_EQ(dtype(r.residuals), real);
            if (d == CT_LSTSQ_GELSY) EXPECT_EQ(shape(r.residuals), (Shape{0}));
            else EXPECT_TRUE(allclose(r.residuals, {5.0 / 3}, tol));
            EXPECT_EQ(dtype(r.rank), CT_INT64);
            if (d == CT_LSTSQ_GELS) EXPECT_EQ(shape(r.rank), (Shape{0}));
            else EXPECT_EQ(scalar(r.rank), 2.0);
            EXPECT_EQ(dtype(r.sv), real);
            if (has_sv(d)) EXPECT_TRUE(allclose(r.sv, {std::sqrt(6.0), std::sqrt(2.0)}, tol));
            else EXPECT_EQ(shape(r.sv), (Shape{0}));
        }
    }
}

TEST(LinalgLstsqComplex, NormalEquationsAndPinvTallWideBatched) {
    struct Case {
        Shape a, b;
    };
    for (const Case& c : {Case{{6, 3}, {6, 2}}, Case{{3, 5}, {3, 2}}, Case{{2, 5, 3}, {2, 5, 1}},
                          Case{{1, 4, 3}, {3, 4, 2}}, Case{{2, 4, 4}, {2, 4, 3}}}) {
        H a = randc(c.a, 7), b = randc(c.b, 8);
        H want = mm(pinv(a), b);  // full rank: X = pinv(A) B, the minimum-norm least-squares solution
        for (int32_t d : kLstsqDrivers) {
            SCOPED_TRACE(d);
            Lstsq r = lstsq(a, b, d);
            EXPECT_TRUE(allclose(as_real(r.solution), values(as_real(want)), 1e-10));
            H normal = mm(mh(a), sub(mm(a, r.solution), b));  // A^H (A X - B) = 0
            EXPECT_TRUE(allclose(abs_of(normal), std::vector<double>(values(abs_of(normal)).size(), 0.0), 1e-10));
            const int64_t m = c.a[c.a.size() - 2], n = c.a.back();
            if (m > n && d != CT_LSTSQ_GELSY) {  // residuals = |A X - B|^2 summed over rows
                H res = abs_of(sub(mm(a, r.solution), b)), sq, want_res;
                ok(ct_mul(res.get(), res.get(), sq.out()));
                int64_t dim = -2;
                ok(ct_sum(sq.get(), &dim, 1, 0, want_res.out()));
                EXPECT_EQ(dtype(r.residuals), CT_FLOAT64);
                EXPECT_TRUE(allclose(r.residuals, values(want_res), 1e-10));
            }
        }
        Lstsq r64 = lstsq(to(a, CT_COMPLEX64), to(b, CT_COMPLEX64), CT_LSTSQ_GELSD);
        EXPECT_EQ(dtype(r64.solution), CT_COMPLEX64);
        EXPECT_EQ(dtype(r64.sv), CT_FLOAT32);
        EXPECT_TRUE(allclose(as_real(r64.solution), values(as_real(want)), 1e-4));
    }
}

TEST(LinalgLstsqComplex, RankDeficientAndVectorB) {
    // A = u v^T with complex u, v: rank 1; every rank-revealing driver gives pinv(A) b and no residuals.
    H u = randc({4, 1}, 20), v = randc({1, 3}, 21), a = mm(u, v), b = randc({4}, 22);
    H want;
    {
        H bm;
        ok(ct_unsqueeze(b.get(), -1, bm.out()));
        ok(ct_squeeze(mm(pinv(a), bm).get(), -1, want.out()));
    }
    for (int32_t d : {CT_LSTSQ_GELSY, CT_LSTSQ_GELSD, CT_LSTSQ_GELSS}) {
        SCOPED_TRACE(d);
        Lstsq r = lstsq(a, b, d);
        EXPECT_EQ(shape(r.solution), (Shape{3}));
        EXPECT_TRUE(allclose(as_real(r.solution), values(as_real(want)), 1e-10));
        EXPECT_EQ(scalar(r.rank), 1.0);
        EXPECT_EQ(shape(r.residuals), (Shape{0}));
        EXPECT_EQ(dtype(r.residuals), CT_FLOAT64);
        if (has_sv(d)) EXPECT_NEAR(values(r.sv)[2], 0.0, 1e-12);
    }
    // empty sizes keep the dtypes: n = 0 gives residuals |B|^2 (float64), m = 0 zeros
    Lstsq r = lstsq(randc({3, 0}, 23), randc({3, 2}, 24), CT_LSTSQ_GELSD);
    EXPECT_EQ(shape(r.solution), (Shape{0, 2}));
    EXPECT_EQ(dtype(r.residuals), CT_FLOAT64);
    EXPECT_EQ(shape(r.residuals), (Shape{2}));
    r = lstsq(randc({0, 3}, 25), randc({0, 1}, 26), CT_LSTSQ_GELSS);
    EXPECT_TRUE(allclose(as_real(r.solution), std::vector<double>(6, 0.0)));
    EXPECT_EQ(dtype(r.sv), CT_FLOAT64);
}

TEST(LinalgLstsqComplex, MixedDtypesAreTorchsError) {
    H a = randc({4, 3}, 30), b = randc({4, 2}, 31), out;
    auto call = [&](const H& x, const H& y) {
        return ct_linalg_lstsq_ex(x.get(), y.get(), -1, CT_LSTSQ_GELSY, out.out(), nullptr, nullptr, nullptr);
    };
    const char* want = "linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype ";
    CT_EXPECT_ERR(call(a, randt({4, 2}, 32, false)), CT_ERR_DTYPE,
                  (std::string(want) + "complex128 and other's dtype float64").c_str());
    CT_EXPECT_ERR(call(randt({4, 3}, 33, false), b), CT_ERR_DTYPE,
                  (std::string(want) + "float64 and other's dtype complex128").c_str());
    CT_EXPECT_ERR(call(to(a, CT_COMPLEX64), b), CT_ERR_DTYPE,
                  (std::string(want) + "complex64 and other's dtype complex128").c_str());
    CT_EXPECT_ERR(call(a, to(b, CT_FLOAT16)), CT_ERR_DTYPE, "other's dtype float16");
}

TEST(LinalgLstsqComplex, GradientsThroughRealAndImaginaryParts) {
    // Real losses of X = lstsq(A, B) (|X|, phase-free) as functions of Re A, Im A, Re B, Im B: central differences
    // check the complex backward's conjugations (torch's pinv_backward with ^H).
    for (int32_t d : kLstsqDrivers) {
        auto f = [d](const std::vector<H>& x) {
            return abs_of(lstsq(cplx(x[0], x[1]), cplx(x[2], x[3]), d).solution);
        };
        EXPECT_TRUE(gradcheck(f, {randt({4, 3}, 40), randt({4, 3}, 41), randt({4, 2}, 42), randt({4, 2}, 43)})) << d;
        EXPECT_TRUE(gradcheck(f, {randt({2, 4}, 44), randt({2, 4}, 45), randt({2, 1}, 46), randt({2, 1}, 47)})) << d;
        EXPECT_TRUE(gradcheck(f, {randt({1, 4, 3}, 48), randt({1, 4, 3}, 49), randt({2, 4, 2}, 50),
                                  randt({2, 4, 2}, 51)}))
            << d;
    }
    auto g = [](const std::vector<H>& x) {
        return abs_of(lstsq(cplx(x[0], x[1]), cplx(x[2], x[3]), CT_LSTSQ_GELSY).solution);
    };
    EXPECT_TRUE(gradgradcheck(g, {randt({3, 2}, 52), randt({3, 2}, 53), randt({3, 1}, 54), randt({3, 1}, 55)}));
}

TEST(LinalgLstsqComplex, ComplexLeafGradientIsTheWirtingerOne) {
    // torch's convention: for a real loss L, A.grad = dL/dRe(A) + i dL/dIm(A). The complex leaf's gradient must
    // equal that assembled from the real and imaginary leaves (whose gradients central differences check above).
    H re = randt({4, 3}, 60), im = randt({4, 3}, 61), b = randc({4, 2}, 62);
    auto loss_grad = [&](const H& a, const std::vector<H>& leaves) {
        H x = lstsq(a, b, CT_LSTSQ_GELSD).solution, sq, s;
        H ab = abs_of(x);
        ok(ct_mul(ab.get(), ab.get(), sq.out()));  // (|X|^2).sum()
        ok(ct_sum(sq.get(), nullptr, 0, 0, s.out()));
        ok(ct_backward(s.get(), nullptr, 0, 0));
        std::vector<H> gs(leaves.size());
        for (size_t i = 0; i < leaves.size(); ++i) ok(ct_tensor_grad(leaves[i].get(), gs[i].out()));
        return gs;
    };
    std::vector<H> parts = loss_grad(cplx(re, im), {re, im});
    H leaf;
    ok(ct_detach(cplx(re, im).get(), leaf.out()));
    ok(ct_tensor_set_requires_grad(leaf.get(), 1));
    std::vector<H> whole = loss_grad(leaf, {leaf});
    EXPECT_TRUE(allclose(as_real(whole[0]), values(as_real(cplx(parts[0], parts[1]))), 1e-12));
}

// test_linalg_complex.cpp - the LAPACK-backed linalg ops on complex64/complex128 through the C API (Note [Complex
// linalg]): closed-form values, the real dtypes of the real-valued outputs, and central-difference gradients of
// phase-free real functions of the outputs, taken with respect to A's real and imaginary parts.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

H cplx(const H& re, const H& im) {
    H a;
    ok(ct_complex(re.get(), im.get(), a.out()));
    return a;
}
H unary(ct_status (*fn)(ct_tensor, ct_tensor*), const H& x) {
    H r;
    ok(fn(x.get(), r.out()));
    return r;
}
H as_real(const H& x) { return unary(ct_view_as_real, x); }
H abs_of(const H& x) { return unary(ct_abs, x); }
H mm(const H& a, const H& b) {
    H r;
    ok(ct_matmul(a.get(), b.get(), r.out()));
    return r;
}
H mh(const H& a) {  // conjugate transpose of the last two dims
    H t;
    ok(ct_transpose(a.get(), -2, -1, t.out()));
    return unary(ct_conj, t);
}
H plus_identity(const H& a, int64_t n) {  // a + I (a complex, [n, n])
    std::vector<double> e((size_t)(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i) e[(size_t)(i * n + i)] = 1.0;
    H r;
    ok(ct_add(a.get(), cplx(make(e, {n, n}), make(std::vector<double>((size_t)(n * n), 0.0), {n, n})).get(), 1.0,
              r.out()));
    return r;
}

// A = [[2, i], [0, 1 + i]]
H upper_example() { return cplx(make({2, 0, 0, 1}, {2, 2}), make({0, 1, 0, 1}, {2, 2})); }

}  // namespace

TEST(LinalgComplex, ClosedForms) {
    H a = upper_example();
    // det = 2 (1 + i); slogdet: sign (1 + i) / sqrt(2) (complex), logabsdet log(2 sqrt(2)) (float64)
    EXPECT_TRUE(allclose(as_real(unary(ct_linalg_det, a)), {2, 2}, 1e-12));
    H sign, logabs;
    ok(ct_linalg_slogdet(a.get(), sign.out(), logabs.out()));
    EXPECT_EQ(dtype(sign), CT_COMPLEX128);
    EXPECT_EQ(dtype(logabs), CT_FLOAT64);
    const double r = 1.0 / std::sqrt(2.0);
    EXPECT_TRUE(allclose(as_real(sign), {r, r}, 1e-12));
    EXPECT_TRUE(allclose(logabs, {std::log(2.0 * std::sqrt(2.0))}, 1e-12));
    // A^-1 = [[1/2, -i / (2 (1 + i))], [0, 1 / (1 + i)]] = [[0.5, -0.25 - 0.25i], [0, 0.5 - 0.5i]]
    EXPECT_TRUE(allclose(as_real(unary(ct_linalg_inv, a)), {0.5, 0, -0.25, -0.25, 0, 0, 0.5, -0.5}, 1e-12));
    // Hermitian [[2, i], [-i, 2]]: eigenvalues 1 and 3 (float32 for complex64), cholesky L = [[sqrt2, 0], [-i/sqrt2, sqrt(3/2)]]
    H h = cplx(make({2, 0, 0, 2}, {2, 2}, CT_FLOAT32), make({0, 1, -1, 0}, {2, 2}, CT_FLOAT32));
    H w;
    ok(ct_linalg_eigvalsh(h.get(), 0, w.out()));
    EXPECT_EQ(dtype(w), CT_FLOAT32);
    EXPECT_TRUE(allclose(w, {1, 3}, 1e-5));
    H l;
    ok(ct_linalg_cholesky(h.get(), 0, l.out()));
    EXPECT_TRUE(allclose(as_real(l), {std::sqrt(2.0), 0, 0, 0, 0, -r, std::sqrt(1.5), 0}, 1e-5));
    // diag(3i, -2): singular values 3 and 2 (real)
    H s = unary(ct_linalg_svdvals, cplx(make({0, 0, 0, -2}, {2, 2}), make({3, 0, 0, 0}, {2, 2})));
    EXPECT_EQ(dtype(s), CT_FLOAT64);
    EXPECT_TRUE(allclose(s, {3, 2}, 1e-12));
    // eig of the triangular A: its diagonal 2 and 1 + i, in geev's order
    H ev = unary(ct_linalg_eigvals, a);
    EXPECT_EQ(dtype(ev), CT_COMPLEX128);
    EXPECT_TRUE(allclose(as_real(ev), {2, 0, 1, 1}, 1e-12));
}

TEST(LinalgComplex, FactorisationsReconstruct) {
    H a = cplx(randt({2, 3, 3}, 11, false), randt({2, 3, 3}, 12, false));
    H q, rr;
    ok(ct_linalg_qr(a.get(), CT_QR_REDUCED, q.out(), rr.out()));
    EXPECT_TRUE(allclose(as_real(mm(q, rr)), values(as_real(a)), 1e-12));
    H u, s, vh;
    ok(ct_linalg_svd(a.get(), 0, u.out(), s.out(), vh.out()));
    H us;
    H s_c = cplx(s, make(std::vector<double>(6, 0.0), {2, 3}));
    H s_row;
    ok(ct_unsqueeze(s_c.get(), -2, s_row.out()));
    ok(ct_mul(u.get(), s_row.get(), us.out()));
    EXPECT_TRUE(allclose(as_real(mm(us, vh)), values(as_real(a)), 1e-12));
    H h = plus_identity(mm(a, mh(a)), 3), w, v;  // Hermitian positive-definite
    ok(ct_linalg_eigh(h.get(), 0, w.out(), v.out()));
    H wc = cplx(w, make(std::vector<double>(6, 0.0), {2, 3})), w_row, vw;
    ok(ct_unsqueeze(wc.get(), -2, w_row.out()));
    ok(ct_mul(v.get(), w_row.get(), vw.out()));
    EXPECT_TRUE(allclose(as_real(mm(vw, mh(v))), values(as_real(h)), 1e-10));
    H l;
    ok(ct_linalg_cholesky(h.get(), 0, l.out()));
    EXPECT_TRUE(allclose(as_real(mm(l, mh(l))), values(as_real(h)), 1e-10));
}

TEST(LinalgComplex, GradientsThroughRealAndImaginaryParts) {
    H re = make({2, 0.3, -0.2, 1.5}, {2, 2}, CT_FLOAT64, true), im = make({0.1, 1, 0.4, 1}, {2, 2}, CT_FLOAT64, true);
    auto through = [](ct_status (*fn)(ct_tensor, ct_tensor*)) {
        return [fn](const std::vector<H>& in) { return abs_of(unary(fn, cplx(in[0], in[1]))); };
    };
    EXPECT_TRUE(gradcheck(through(ct_linalg_inv), {re, im}));
    EXPECT_TRUE(gradcheck(through(ct_linalg_det), {re, im}));
    EXPECT_TRUE(gradcheck(through(ct_linalg_svdvals), {re, im}));
    EXPECT_TRUE(gradcheck(through(ct_linalg_eigvals), {re, im}));
    EXPECT_TRUE(gradgradcheck(through(ct_linalg_inv), {re, im}));
    EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {  // slogdet: |sign| is 1, so the loss is logabsdet
        H sign, logabs;
        ok(ct_linalg_slogdet(cplx(in[0], in[1]).get(), sign.out(), logabs.out()));
        return logabs;
    }, {re, im}));
    auto hermitian = [](const std::vector<H>& in) { H a = cplx(in[0], in[1]); return plus_identity(mm(a, mh(a)), 2); };
    EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
        H l;
        ok(ct_linalg_cholesky(hermitian(in).get(), 0, l.out()));
        return abs_of(l);
    }, {re, im}));
    EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {  // eigenvalues and |V| (phase-free)
        H w, v, out;
        ok(ct_linalg_eigh(hermitian(in).get(), 1, w.out(), v.out()));
        ok(ct_mul(abs_of(v).get(), w.get(), out.out()));
        return out;
    }, {re, im}));
    EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {  // |Q| and |R| (a column phase of Q cancels in R's row)
        H q, r, out;
        ok(ct_linalg_qr(cplx(in[0], in[1]).get(), CT_QR_REDUCED, q.out(), r.out()));
        ok(ct_add(abs_of(q).get(), abs_of(r).get(), 1.0, out.out()));
        return out;
    }, {re, im}));
    EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {  // |U| S |Vh|: phase-free
        H u, s, vh, us;
        ok(ct_linalg_svd(cplx(in[0], in[1]).get(), 0, u.out(), s.out(), vh.out()));
        ok(ct_mul(abs_of(u).get(), s.get(), us.out()));
        return mm(us, abs_of(vh));
    }, {re, im}));
    H b = cplx(make({1, -1, 0.5, 2}, {2, 2}), make({0.5, 2, -1, 0}, {2, 2}));
    EXPECT_TRUE(gradcheck([&b](const std::vector<H>& in) {
        H x;
        ok(ct_linalg_solve_triangular(cplx(in[0], in[1]).get(), b.get(), 1, 1, 0, x.out()));
        return abs_of(x);
    }, {re, im}));
}

TEST(LinalgComplex, Errors) {
    H r, r2;
    H sing = cplx(make({1, 2, 1, 2}, {2, 2}), make({1, 2, 1, 2}, {2, 2}));
    CT_EXPECT_ERR(ct_linalg_inv(sing.get(), r.out()), CT_ERR_INVALID_ARGUMENT,
                  "linalg.inv: The diagonal element 2 is zero");
    H not_pd = cplx(make({1, 2, 2, 1}, {2, 2}), make({0, 0, 0, 0}, {2, 2}));
    CT_EXPECT_ERR(ct_linalg_cholesky(not_pd.get(), 0, r.out()), CT_ERR_INVALID_ARGUMENT, "not positive-definite");
    CT_EXPECT_ERR(ct_linalg_solve_triangular(upper_example().get(), make({1, 1}, {2, 1}).get(), 1, 1, 0, r.out()),
                  CT_ERR_DTYPE, "linalg.solve_triangular: Expected A and B to have the same dtype");
    CT_EXPECT_ERR(ct_linalg_eigh(cplx(make({1, 2, 3, 4, 5, 6}, {2, 3}), make({1, 2, 3, 4, 5, 6}, {2, 3})).get(), 0,
                                 r.out(), r2.out()),
                  CT_ERR_SHAPE, "linalg.eigh: A must be batches of square matrices");
}

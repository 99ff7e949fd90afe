// test_linalg_lapack.cpp - torch.linalg's LAPACK-backed ops through the C API: values against closed forms and
// reconstructions (A A^-1 = I, L L^T = A, Q R = A, A V = V diag(L), U diag(S) Vh = A), batched and empty inputs,
// float32, float64 central-difference gradients (and second derivatives), and the errors torch raises.
#include "ct_test.h"

using namespace ctt;

namespace {

H mm(const H& a, const H& b) {
    H r;
    ok(ct_matmul(a.get(), b.get(), r.out()));
    return r;
}
H mt(const H& a) {
    H r;
    ok(ct_transpose(a.get(), -2, -1, r.out()));
    return r;
}
H add(const H& a, const H& b, double alpha = 1.0) {
    H r;
    ok(ct_add(a.get(), b.get(), alpha, r.out()));
    return r;
}
H eye(int64_t n) {
    H r;
    ok(ct_eye(n, n, CT_FLOAT64, ct_cpu(), r.out()));
    return r;
}
// X X^T + n I: symmetric positive-definite, differentiable in X.
H spd(const H& x) { return add(mm(x, mt(x)), eye(shape(x).back())); }
// X + X^T: symmetric, differentiable in X.
H sym(const H& x) { return add(x, mt(x)); }

// A small well-conditioned [..., n, n] matrix: random plus 3 on the diagonal.
H well_conditioned(const Shape& s, uint64_t seed, bool grad = true) {
    H r = randt(s, seed, false), a = add(r, eye(s.back()), 3.0);
    H c;
    ok(ct_detach(a.get(), c.out()));
    if (grad) ok(ct_tensor_set_requires_grad(c.get(), 1));
    return c;
}

// The identity matrix in every batch element of t's shape.
H identity_like(const H& t) {
    H z;
    ok(ct_zeros_like(t.get(), z.out()));
    return add(z, eye(shape(t).back()));
}

void expect_near(const H& got, const H& want, double tol = 1e-10) {
    ASSERT_EQ(shape(got), shape(want));
    std::vector<double> g = values(got), w = values(want);
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], w[i], tol) << "element " << i;
}

}  // namespace

TEST(LinalgLapack, InvDetSlogdetValues) {
    H a = make({4, 7, 2, 6}, {2, 2}), inv, det, sign, logabs;
    CT_ASSERT_OK(ct_linalg_inv(a.get(), inv.out()));
    EXPECT_TRUE(allclose(inv, {0.6, -0.7, -0.2, 0.4}, 1e-12));
    CT_ASSERT_OK(ct_linalg_det(a.get(), det.out()));
    EXPECT_NEAR(scalar(det), 10.0, 1e-12);
    H neg = make({0, 1, 0, 1, 0, 0, 0, 0, 2}, {3, 3});  // a row swap times 2: det -2
    CT_ASSERT_OK(ct_linalg_slogdet(neg.get(), sign.out(), logabs.out()));
    EXPECT_EQ(scalar(sign), -1.0);
    EXPECT_NEAR(scalar(logabs), std::log(2.0), 1e-12);
    CT_ASSERT_OK(ct_linalg_det(neg.get(), det.out()));
    EXPECT_NEAR(scalar(det), -2.0, 1e-12);
    // singular: det 0, sign 0, logabsdet -inf (no error)
    H sing = make({1, 2, 2, 4}, {2, 2});
    CT_ASSERT_OK(ct_linalg_det(sing.get(), det.out()));
    EXPECT_EQ(scalar(det), 0.0);
    CT_ASSERT_OK(ct_linalg_slogdet(sing.get(), sign.out(), logabs.out()));
    EXPECT_EQ(scalar(sign), 0.0);
    EXPECT_EQ(scalar(logabs), -INFINITY);
    // batched float32, and a transposed (non-contiguous) input
    H b = well_conditioned({3, 2, 4, 4}, 7, false), bi, prod, f32, f32i;
    CT_ASSERT_OK(ct_linalg_inv(b.get(), bi.out()));
    expect_near(mm(b, bi), identity_like(b));
    H bt = mt(b), bti;  // a transposed (non-contiguous) input
    CT_ASSERT_OK(ct_linalg_inv(bt.get(), bti.out()));
    expect_near(mm(bt, bti), identity_like(b));
    CT_ASSERT_OK(ct_to_dtype(b.get(), CT_FLOAT32, f32.out()));
    CT_ASSERT_OK(ct_linalg_inv(f32.get(), f32i.out()));
    EXPECT_EQ(dtype(f32i), CT_FLOAT32);
    std::vector<double> v32 = values(f32i), v64 = values(bi);
    for (size_t i = 0; i < v32.size(); ++i) EXPECT_NEAR(v32[i], v64[i], 1e-5);
}

TEST(LinalgLapack, EmptyAndZeroBatch) {
    H e0 = make({}, {0, 3, 3}), e1 = make({}, {2, 0, 0}), r, s, l;
    CT_ASSERT_OK(ct_linalg_inv(e0.get(), r.out()));
    EXPECT_EQ(shape(r), (Shape{0, 3, 3}));
    CT_ASSERT_OK(ct_linalg_det(e1.get(), r.out()));
    EXPECT_TRUE(allclose(r, {1, 1}));  // det of a 0 x 0 matrix is 1
    CT_ASSERT_OK(ct_linalg_slogdet(e1.get(), s.out(), l.out()));
    EXPECT_TRUE(allclose(s, {1, 1}));
    EXPECT_TRUE(allclose(l, {0, 0}));
    CT_ASSERT_OK(ct_linalg_cholesky(e0.get(), 0, r.out()));
    EXPECT_EQ(shape(r), (Shape{0, 3, 3}));
    H q, rr, u, sv, vh;
    H wide = make({}, {0, 4});
    CT_ASSERT_OK(ct_linalg_qr(wide.get(), CT_QR_COMPLETE, q.out(), rr.out()));
    EXPECT_EQ(shape(q), (Shape{0, 0}));
    EXPECT_EQ(shape(rr), (Shape{0, 4}));
    H tall = make({}, {3, 0});
    CT_ASSERT_OK(ct_linalg_qr(tall.get(), CT_QR_COMPLETE, q.out(), rr.out()));
    expect_near(q, eye(3));
    CT_ASSERT_OK(ct_linalg_svd(tall.get(), 1, u.out(), sv.out(), vh.out()));
    expect_near(u, eye(3));
    EXPECT_EQ(shape(sv), Shape{0});
    EXPECT_EQ(shape(vh), (Shape{0, 0}));
    CT_ASSERT_OK(ct_linalg_svd(tall.get(), 0, u.out(), sv.out(), vh.out()));
    EXPECT_EQ(shape(u), (Shape{3, 0}));
    CT_ASSERT_OK(ct_linalg_eigh(e0.get(), 0, s.out(), l.out()));
    EXPECT_EQ(shape(s), (Shape{0, 3}));
    EXPECT_EQ(shape(l), (Shape{0, 3, 3}));
}

TEST(LinalgLapack, SolveShapesAndValues) {
    H a = well_conditioned({2, 3, 3}, 11, false), b = randt({2, 3, 2}, 12, false), x;
    CT_ASSERT_OK(ct_linalg_solve(a.get(), b.get(), x.out()));
    EXPECT_EQ(shape(x), (Shape{2, 3, 2}));
    expect_near(mm(a, x), b);
    H v = randt({3}, 13, false);  // a vector right-hand side, broadcast over A's batch
    CT_ASSERT_OK(ct_linalg_solve(a.get(), v.get(), x.out()));
    EXPECT_EQ(shape(x), (Shape{2, 3}));
    H bv = randt({2, 3}, 14, false);  // B of A's shape without the last dim: a batch of vectors
    CT_ASSERT_OK(ct_linalg_solve(a.get(), bv.get(), x.out()));
    EXPECT_EQ(shape(x), (Shape{2, 3}));
    H single = well_conditioned({3, 3}, 15, false), bb = randt({4, 3, 1}, 16, false);  // A broadcast over B
    CT_ASSERT_OK(ct_linalg_solve(single.get(), bb.get(), x.out()));
    EXPECT_EQ(shape(x), (Shape{4, 3, 1}));
    expect_near(mm(single, x), bb);
}

TEST(LinalgLapack, CholeskyQrEighSvdReconstruct) {
    H x = randt({2, 4, 4}, 21, false), a = spd(x), l, u;
    CT_ASSERT_OK(ct_linalg_cholesky(a.get(), 0, l.out()));
    expect_near(mm(l, mt(l)), a);
    std::vector<double> lv = values(l);
    EXPECT_EQ(lv[1], 0.0);  // strictly upper part is zero
    CT_ASSERT_OK(ct_linalg_cholesky(a.get(), 1, u.out()));
    expect_near(mm(mt(u), u), a);
    for (auto [m, n] : {std::pair<int64_t, int64_t>{5, 3}, {3, 5}, {4, 4}}) {
        H g = randt({2, m, n}, 30 + m, false), q, r;
        for (ct_qr_mode mode : {CT_QR_REDUCED, CT_QR_COMPLETE}) {
            CT_ASSERT_OK(ct_linalg_qr(g.get(), mode, q.out(), r.out()));
            int64_t k = mode == CT_QR_COMPLETE ? m : std::min(m, n);
            EXPECT_EQ(shape(q), (Shape{2, m, k}));
            EXPECT_EQ(shape(r), (Shape{2, k, n}));
            expect_near(mm(q, r), g);
            expect_near(mm(mt(q), q), identity_like(mm(mt(q), q)));
        }
        CT_ASSERT_OK(ct_linalg_qr(g.get(), CT_QR_R, q.out(), r.out()));
        EXPECT_EQ(shape(q), Shape{0});
        EXPECT_EQ(shape(r), (Shape{2, std::min(m, n), n}));
        H uu, s, vh, sv;
        CT_ASSERT_OK(ct_linalg_svd(g.get(), 0, uu.out(), s.out(), vh.out()));
        H us;
        ok(ct_mul(uu.get(), [&] { H t; ok(ct_unsqueeze(s.get(), -2, t.out())); return t; }().get(), us.out()));
        expect_near(mm(us, vh), g);
        CT_ASSERT_OK(ct_linalg_svdvals(g.get(), sv.out()));
        expect_near(sv, s);
        std::vector<double> sd = values(s);
        EXPECT_GE(sd[0], sd[1]);  // descending
        CT_ASSERT_OK(ct_linalg_svd(g.get(), 1, uu.out(), s.out(), vh.out()));
        EXPECT_EQ(shape(uu), (Shape{2, m, m}));
        EXPECT_EQ(shape(vh), (Shape{2, n, n}));
    }
    H sy = sym(randt({3, 3}, 40, false)), w, v, w2;
    CT_ASSERT_OK(ct_linalg_eigh(sy.get(), 0, w.out(), v.out()));
    H vw;
    ok(ct_mul(v.get(), [&] { H t; ok(ct_unsqueeze(w.get(), -2, t.out())); return t; }().get(), vw.out()));
    expect_near(mm(sy, v), vw);
    std::vector<double> wd = values(w);
    EXPECT_LE(wd[0], wd[1]);  // ascending
    CT_ASSERT_OK(ct_linalg_eigvalsh(sy.get(), 1, w2.out()));
    expect_near(w2, w);
    // UPLO: only the named triangle is read
    H lower_only = make({2, 99, 1, 3}, {2, 2}), upper_only = make({2, 1, 99, 3}, {2, 2}), wl, wu;
    CT_ASSERT_OK(ct_linalg_eigvalsh(lower_only.get(), 0, wl.out()));
    CT_ASSERT_OK(ct_linalg_eigvalsh(upper_only.get(), 1, wu.out()));
    expect_near(wl, wu);
}

TEST(LinalgLapack, SolveTriangular) {
    H a = make({2, 0, 0, 1, 3, 0, 4, 5, 6}, {3, 3}), b = randt({3, 2}, 50, false), x;
    CT_ASSERT_OK(ct_linalg_solve_triangular(a.get(), b.get(), 0, 1, 0, x.out()));
    expect_near(mm(a, x), b);
    H br = randt({2, 3}, 51, false);
    CT_ASSERT_OK(ct_linalg_solve_triangular(mt(a).get(), br.get(), 1, 0, 0, x.out()));
    expect_near(mm(x, mt(a)), br);
    H unit = make({1, 0, 0, 1, 1, 0, 4, 5, 1}, {3, 3});
    CT_ASSERT_OK(ct_linalg_solve_triangular(a.get(), b.get(), 0, 1, 1, x.out()));  // a's diagonal read as 1
    expect_near(mm(unit, x), b);
}

TEST(LinalgLapack, Gradients) {
    auto f1 = [](ct_status (*fn)(ct_tensor, ct_tensor*)) {
        return [fn](const std::vector<H>& v) { H r; ok(fn(v[0].get(), r.out())); return r; };
    };
    EXPECT_TRUE(gradcheck(f1(ct_linalg_inv), {well_conditioned({2, 3, 3}, 60)}));
    EXPECT_TRUE(gradcheck(f1(ct_linalg_det), {well_conditioned({2, 3, 3}, 61)}));
    EXPECT_TRUE(gradgradcheck(f1(ct_linalg_inv), {well_conditioned({3, 3}, 62)}));
    EXPECT_TRUE(gradgradcheck(f1(ct_linalg_det), {well_conditioned({3, 3}, 63)}));
    // det at singular matrices (rank 2 and rank 1 of 3, in one batch with an invertible one): the cofactors
    H sing = make({1, 2, 3, 2, 4, 6, 0, 1, 5, 1, 2, 3, 2, 4, 6, 3, 6, 9, 2, 0, 1, 0, 3, 1, 1, 1, 4}, {3, 3, 3}, CT_FLOAT64,
                  true);
    EXPECT_TRUE(gradcheck(f1(ct_linalg_det), {sing}));
    auto logabs = [](const std::vector<H>& v) { H s, l; ok(ct_linalg_slogdet(v[0].get(), s.out(), l.out())); return l; };
    EXPECT_TRUE(gradcheck(logabs, {well_conditioned({2, 3, 3}, 64)}));
    auto solve = [](const std::vector<H>& v) { H r; ok(ct_linalg_solve(v[0].get(), v[1].get(), r.out())); return r; };
    EXPECT_TRUE(gradcheck(solve, {well_conditioned({2, 3, 3}, 65), randt({2, 3, 2}, 66)}));
    EXPECT_TRUE(gradcheck(solve, {well_conditioned({3, 3}, 67), randt({3}, 68)}));
    EXPECT_TRUE(gradcheck(solve, {well_conditioned({3, 3}, 69), randt({2, 3, 2}, 70)}));  // A broadcast
    EXPECT_TRUE(gradgradcheck(solve, {well_conditioned({3, 3}, 71), randt({3, 2}, 72)}));
    for (int upper : {0, 1}) {
        auto chol = [upper](const std::vector<H>& v) { H r; ok(ct_linalg_cholesky(spd(v[0]).get(), upper, r.out())); return r; };
        EXPECT_TRUE(gradcheck(chol, {randt({2, 3, 3}, 73)})) << "upper " << upper;
        for (int left : {0, 1})
            for (int unit : {0, 1}) {
                auto tri = [=](const std::vector<H>& v) {
                    H r;
                    ok(ct_linalg_solve_triangular(v[0].get(), v[1].get(), upper, left, unit, r.out()));
                    return r;
                };
                H b = left ? randt({2, 3, 2}, 75) : randt({2, 2, 3}, 75);
                EXPECT_TRUE(gradcheck(tri, {well_conditioned({3, 3}, 74), b})) << upper << left << unit;
            }
    }
    for (auto [m, n] : {std::pair<int64_t, int64_t>{4, 3}, {3, 3}, {3, 5}}) {
        for (int out : {0, 1}) {
            auto qr = [out](const std::vector<H>& v) {
                H q, r;
                ok(ct_linalg_qr(v[0].get(), CT_QR_REDUCED, q.out(), r.out()));
                return out == 0 ? q : r;
            };
            EXPECT_TRUE(gradcheck(qr, {randt({2, m, n}, 80 + m)})) << m << "x" << n << " output " << out;
        }
        auto svdvals = [](const std::vector<H>& v) { H s; ok(ct_linalg_svdvals(v[0].get(), s.out())); return s; };
        EXPECT_TRUE(gradcheck(svdvals, {randt({2, m, n}, 90 + m)}));
        // U_k U_k^T + Vh_k^T Vh_k does not depend on the singular vectors' signs (k = min(m, n) leading vectors)
        for (int full : {0, 1}) {
            auto svd_proj = [full](const std::vector<H>& v) {
                H u, s, vh, uk, vk;
                ok(ct_linalg_svd(v[0].get(), full, u.out(), s.out(), vh.out()));
                ok(ct_narrow(u.get(), -1, 0, shape(s).back(), uk.out()));
                ok(ct_narrow(vh.get(), -2, 0, shape(s).back(), vk.out()));
                H pu = mm(uk, mt(uk)), pv = mm(mt(vk), vk), su, sv;
                ok(ct_sum(pu.get(), nullptr, 0, 0, su.out()));
                ok(ct_mul(pv.get(), su.get(), sv.out()));  // mixes both projectors into one output
                return add(sv, mm(mt(v[0]), mm(mm(uk, mt(uk)), v[0])));  // [n, n], as sv
            };
            EXPECT_TRUE(gradcheck(svd_proj, {randt({m, n}, 95 + m)})) << "svd " << m << "x" << n << " full " << full;
        }
    }
    auto eigh_vals = [](const std::vector<H>& v) { H w; ok(ct_linalg_eigvalsh(sym(v[0]).get(), 0, w.out())); return w; };
    EXPECT_TRUE(gradcheck(eigh_vals, {randt({2, 4, 4}, 100)}));
    auto eigh_proj = [](const std::vector<H>& v) {  // V diag(w^2) V^T: independent of the eigenvectors' signs
        H w, vec, w2, vw;
        ok(ct_linalg_eigh(sym(v[0]).get(), 1, w.out(), vec.out()));
        ok(ct_mul(w.get(), w.get(), w2.out()));
        H w2u;
        ok(ct_unsqueeze(w2.get(), -2, w2u.out()));
        ok(ct_mul(vec.get(), w2u.get(), vw.out()));
        return mm(vw, mt(vec));
    };
    EXPECT_TRUE(gradcheck(eigh_proj, {randt({4, 4}, 101)}));
}

TEST(LinalgLapack, Errors) {
    H r, r2, r3;
    H sing = make({1, 2, 2, 4, 1, 0, 0, 1}, {2, 2, 2});  // batch element 0 is singular
    CT_EXPECT_ERR(ct_linalg_inv(sing.get(), r.out()), CT_ERR_INVALID_ARGUMENT,
                  "linalg.inv: (Batch element 0): The diagonal element 2 is zero");
    H sing2 = make({1, 0, 0, 1, 1, 2, 2, 4}, {2, 2, 2});
    CT_EXPECT_ERR(ct_linalg_solve(sing2.get(), make({1, 1}, {2}).get(), r.out()), CT_ERR_INVALID_ARGUMENT,
                  "linalg.solve: (Batch element 1): The diagonal element 2 is zero");
    CT_EXPECT_ERR(ct_linalg_inv(make({1, 2, 2, 4}, {2, 2}).get(), r.out()), CT_ERR_INVALID_ARGUMENT,
                  "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input "
                  "matrix is singular.");
    CT_EXPECT_ERR(ct_linalg_cholesky(make({1, 2, 2, 1}, {2, 2}).get(), 0, r.out()), CT_ERR_INVALID_ARGUMENT,
                  "linalg.cholesky: The factorization could not be completed because the input is not "
                  "positive-definite (the leading minor of order 2 is not positive-definite).");
    H rect = make({1, 2, 3, 4, 5, 6}, {2, 3});
    for (auto fn : {ct_linalg_inv, ct_linalg_det, ct_linalg_svdvals}) {
        ct_status st = fn(rect.get(), r.out());
        if (fn == ct_linalg_svdvals) CT_EXPECT_OK(st);
        else EXPECT_EQ(st, CT_ERR_SHAPE) << ct_last_error();
    }
    CT_EXPECT_ERR(ct_linalg_inv(rect.get(), r.out()), CT_ERR_SHAPE,
                  "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices");
    CT_EXPECT_ERR(ct_linalg_det(make({1, 2}, {2}).get(), r.out()), CT_ERR_SHAPE, "at least 2 dimensions");
    CT_EXPECT_ERR(ct_linalg_inv(make({1, 0, 0, 1}, {2, 2}, CT_INT64).get(), r.out()), CT_ERR_DTYPE,
                  "linalg.inv: Expected a floating point or complex tensor");
    CT_EXPECT_ERR(ct_linalg_eigh(make({1, 0, 0, 1}, {2, 2}, CT_INT32).get(), 0, r.out(), r2.out()), CT_ERR_DTYPE, "linalg.eigh");
    CT_EXPECT_ERR(ct_linalg_solve(make({1, 0, 0, 1}, {2, 2}).get(), make({1, 2, 3}, {3}).get(), r.out()), CT_ERR_SHAPE,
                  "linalg.solve: Incompatible shapes");
    CT_EXPECT_ERR(ct_linalg_solve(make({1, 0, 0, 1}, {2, 2}).get(), make({1, 2}, {2}, CT_FLOAT32).get(), r.out()),
                  CT_ERR_DTYPE, "same dtype");
    CT_EXPECT_ERR(ct_linalg_qr(rect.get(), 3, r.out(), r2.out()), CT_ERR_INVALID_ARGUMENT, "mode must be");
    CT_EXPECT_ERR(ct_linalg_svd(rect.get(), 0, r.out(), r2.out(), nullptr), CT_ERR_INVALID_ARGUMENT, "Vh");
    CT_EXPECT_ERR(ct_linalg_inv(nullptr, r.out()), CT_ERR_INVALID_HANDLE, "linalg.inv");
    // QR's gradient needs Q (mode r) and is undefined for complete tall QR, as torch
    H g = randt({4, 2}, 110), q, rr, sum;
    CT_ASSERT_OK(ct_linalg_qr(g.get(), CT_QR_R, q.out(), rr.out()));
    CT_ASSERT_OK(ct_sum(rr.get(), nullptr, 0, 0, sum.out()));
    CT_EXPECT_ERR(ct_backward(sum.get(), nullptr, 0, 0), CT_ERR_NOT_SUPPORTED, "mode='r'");
    CT_ASSERT_OK(ct_linalg_qr(g.get(), CT_QR_COMPLETE, q.out(), rr.out()));
    CT_ASSERT_OK(ct_sum(q.get(), nullptr, 0, 0, sum.out()));
    CT_EXPECT_ERR(ct_backward(sum.get(), nullptr, 0, 0), CT_ERR_NOT_SUPPORTED, "not differentiable when mode='complete'");
}

TEST(LinalgLapack, CudaTensorsRunOnCusolver) {
    ct_device cuda{CT_DEVICE_CUDA, 0};
    H a = make({1, 0, 0, 1}, {2, 2}), d, r;
    if (ct_to_device(a.get(), cuda, d.out()) != CT_OK) GTEST_SKIP() << "no CUDA device: " << ct_last_error();
    CT_ASSERT_OK(ct_linalg_inv(d.get(), r.out()));  // test_cuda_solver.cpp compares every op with the CPU
    ct_device got{};
    CT_ASSERT_OK(ct_tensor_device(r.get(), &got));
    EXPECT_EQ(got.type, CT_DEVICE_CUDA);
    CT_ASSERT_OK(ct_linalg_lstsq(d.get(), d.get(), r.out()));  // gels, the CUDA default
    H r2, r3, r4;  // the LAPACK-only drivers are refused on CUDA, as torch
    CT_EXPECT_ERR(ct_linalg_lstsq_ex(d.get(), d.get(), -1, CT_LSTSQ_GELSY, r.out(), r2.out(), r3.out(), r4.out()),
                  CT_ERR_NOT_SUPPORTED, "only the gels driver");
}

TEST(LinalgLapack, Composites) {
    H a = make({2, 1, 1, 3}, {2, 2}), r, r2;
    CT_ASSERT_OK(ct_linalg_matrix_power(a.get(), 3, r.out()));
    EXPECT_TRUE(allclose(r, {15, 20, 20, 35}, 1e-12));
    CT_ASSERT_OK(ct_linalg_matrix_power(a.get(), -1, r.out()));
    CT_ASSERT_OK(ct_linalg_inv(a.get(), r2.out()));
    expect_near(r, r2);
    CT_ASSERT_OK(ct_linalg_matrix_power(make({1, 2, 3, 4}, {2, 2}, CT_INT64).get(), 2, r.out()));
    EXPECT_EQ(dtype(r), CT_INT64);
    EXPECT_TRUE(allclose(r, {7, 10, 15, 22}));
    CT_EXPECT_ERR(ct_linalg_matrix_power(make({1, 2, 3, 4}, {2, 2}, CT_INT64).get(), -1, r.out()), CT_ERR_DTYPE,
                  "negative powers");
    CT_ASSERT_OK(ct_linalg_cross(make({1, 0, 0}, {3}).get(), make({0, 1, 0}, {3}).get(), -1, r.out()));
    EXPECT_TRUE(allclose(r, {0, 0, 1}));
    CT_EXPECT_ERR(ct_linalg_cross(make({1, 0}, {2}).get(), make({0, 1}, {2}).get(), -1, r.out()), CT_ERR_SHAPE, "size 3");
    H v = make({3, -4, 0, 1}, {2, 2});
    int64_t dim1[] = {1};
    CT_ASSERT_OK(ct_linalg_vector_norm(v.get(), 2, dim1, 1, 0, r.out()));
    EXPECT_TRUE(allclose(r, {5, 1}, 1e-12));
    CT_ASSERT_OK(ct_linalg_vector_norm(v.get(), -1, nullptr, 0, 0, r.out()));  // (sum 1/|x|)^-1 with a zero: 0
    EXPECT_TRUE(allclose(r, {0}));
    CT_ASSERT_OK(ct_linalg_matrix_norm(a.get(), "1", -2, -1, 0, r.out()));
    EXPECT_TRUE(allclose(r, {4}, 1e-12));
    CT_ASSERT_OK(ct_linalg_matrix_norm(a.get(), "nuc", -2, -1, 1, r.out()));
    EXPECT_EQ(shape(r), (Shape{1, 1}));
    EXPECT_TRUE(allclose(r, {5}, 1e-12));  // the trace of a positive-definite matrix
    CT_EXPECT_ERR(ct_linalg_matrix_norm(a.get(), "3", -2, -1, 0, r.out()), CT_ERR_INVALID_ARGUMENT, "ord must be");
    CT_EXPECT_ERR(ct_linalg_matrix_norm(a.get(), nullptr, -2, -1, 0, r.out()), CT_ERR_INVALID_ARGUMENT, "ord is NULL");
    H low = make({1, 2, 2, 4}, {2, 2});
    CT_ASSERT_OK(ct_linalg_matrix_rank(low.get(), -1, -1, r.out()));
    EXPECT_EQ(dtype(r), CT_INT64);
    EXPECT_EQ(scalar(r), 1.0);
    CT_ASSERT_OK(ct_linalg_pinv(low.get(), -1, -1, r.out()));
    EXPECT_TRUE(allclose(r, {0.04, 0.08, 0.08, 0.16}, 1e-12));  // A^T / ||A||_F^2 for rank one
    H tall = make({1, 0, 0, 1, 1, 1}, {3, 2}), b = make({1, 2, 4}, {3, 1});
    CT_ASSERT_OK(ct_linalg_lstsq(tall.get(), b.get(), r.out()));
    EXPECT_TRUE(allclose(r, {4.0 / 3, 7.0 / 3}, 1e-12));  // the normal equations A^T A x = A^T b
    auto f2 = [](ct_status (*fn)(ct_tensor, double, double, ct_tensor*)) {
        return [fn](const std::vector<H>& x) { H o; ok(fn(x[0].get(), -1, -1, o.out())); return o; };
    };
    EXPECT_TRUE(gradcheck(f2(ct_linalg_pinv), {randt({4, 3}, 120)}));
    auto lstsq = [](const std::vector<H>& x) { H o; ok(ct_linalg_lstsq(x[0].get(), x[1].get(), o.out())); return o; };
    EXPECT_TRUE(gradcheck(lstsq, {randt({4, 3}, 121), randt({4, 2}, 122)}));
    EXPECT_TRUE(gradcheck(lstsq, {randt({2, 4}, 123), randt({2, 1}, 124)}));
    for (const char* ord : {"fro", "nuc", "2", "-2", "1", "inf"}) {
        auto mn = [ord](const std::vector<H>& x) { H o; ok(ct_linalg_matrix_norm(x[0].get(), ord, 0, 2, 0, o.out())); return o; };
        EXPECT_TRUE(gradcheck(mn, {randt({3, 2, 4}, 125)})) << ord;
    }
    auto mp = [](const std::vector<H>& x) { H o; ok(ct_linalg_matrix_power(x[0].get(), -2, o.out())); return o; };
    EXPECT_TRUE(gradcheck(mp, {well_conditioned({3, 3}, 126)}));
}

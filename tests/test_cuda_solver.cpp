// test_cuda_solver.cpp - torch.linalg on CUDA tensors (cuSOLVER through the backend's linalg entry; the emulated
// backend runs LAPACK) against the CPU: values and gradients of every op, batched, empty and odd shapes, float32
// and float64, the errors (singular, not positive-definite, mixed devices) with the CPU's messages.
#include "cuda_compare.h"

using namespace ctt;

namespace {

H op1(ct_status (*f)(ct_tensor, ct_tensor*), const H& a) {
    H o;
    ok(f(a.get(), o.out()));
    return o;
}
H mt(const H& a) {
    H o;
    ok(ct_transpose(a.get(), -2, -1, o.out()));
    return o;
}
H mm(const H& a, const H& b) {
    H o;
    ok(ct_matmul(a.get(), b.get(), o.out()));
    return o;
}
H plus(const H& a, const H& b) {
    H o;
    ok(ct_add(a.get(), b.get(), 1.0, o.out()));
    return o;
}
H abs_of(const H& a) { return op1(ct_abs, a); }
H narrow(const H& a, int64_t dim, int64_t len) {
    H o;
    ok(ct_narrow(a.get(), dim, 0, len, o.out()));
    return o;
}
H cat_flat(const std::vector<H>& parts) {  // one tensor of every part's values, so one compare covers them
    std::vector<H> flat;
    std::vector<ct_tensor> raw;
    for (const H& p : parts) {
        H f;
        ok(ct_reshape(p.get(), std::vector<int64_t>{-1}.data(), 1, f.out()));
        flat.push_back(f);
        raw.push_back(f.get());
    }
    H o;
    ok(ct_cat(raw.data(), (int32_t)raw.size(), 0, o.out()));
    return o;
}

// A [..., n, n] matrix of sample values plus n * 4 on the diagonal (well conditioned).
H conditioned(const Shape& s, ct_dtype dt, uint64_t seed) {
    H a = sample(s, dt, seed), e, r;
    ok(ct_eye(s.back(), s.back(), dt, ct_cpu(), e.out()));
    ok(ct_add(a.get(), e.get(), 4.0 * (double)s.back(), r.out()));
    return r;
}

double tol_of(ct_dtype dt) { return dt == CT_FLOAT32 ? 2e-3 : 1e-7; }

const Shape kSquare[] = {{3, 3}, {2, 4, 4}, {2, 1, 5, 5}, {1, 1}, {0, 3, 3}, {2, 0, 0}};

}  // namespace

TEST(CudaGpu, LinalgInvDetSolveMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (const Shape& s : kSquare) {
            SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + ::testing::PrintToString(s));
            const double tol = tol_of(dt);
            H a = conditioned(s, dt, 11);
            compare_on_cuda("inv", [](const std::vector<H>& x) { return op1(ct_linalg_inv, x[0]); }, {a}, {true}, {},
                            tol);
            compare_on_cuda("det", [](const std::vector<H>& x) { return op1(ct_linalg_det, x[0]); },
                            {sample(s, dt, 12)}, {true}, {}, tol);
            compare_on_cuda("slogdet", [](const std::vector<H>& x) {
                H sign, logabs;
                ok(ct_linalg_slogdet(x[0].get(), sign.out(), logabs.out()));
                return cat_flat({sign, logabs});
            }, {a}, {true}, {}, tol);
            Shape bs = s;
            bs.back() = 2;  // B [..., n, 2]
            compare_on_cuda("solve", [](const std::vector<H>& x) {
                H o;
                ok(ct_linalg_solve(x[0].get(), x[1].get(), o.out()));
                return o;
            }, {a, sample(bs, dt, 13)}, {true, true}, {}, tol);
            compare_on_cuda("matrix_power -2", [](const std::vector<H>& x) {
                H o;
                ok(ct_linalg_matrix_power(x[0].get(), -2, o.out()));
                return o;
            }, {a}, {true}, {}, tol);
        }
}

TEST(CudaGpu, LinalgSolveBroadcastAndTransposedInputs) {
    REQUIRE_CUDA();
    Fn solve = [](const std::vector<H>& x) {
        H o;
        ok(ct_linalg_solve(x[0].get(), x[1].get(), o.out()));
        return o;
    };
    // A [4, 4] against B [3, 4, 2] (batch broadcast), a transposed A, and a vector B
    compare_on_cuda("broadcast", solve, {conditioned({4, 4}, CT_FLOAT64, 20), sample({3, 4, 2}, CT_FLOAT64, 21)},
                    {true, true}, {}, 1e-8);
    compare_on_cuda("A^T", solve, {conditioned({4, 4}, CT_FLOAT64, 22), sample({4, 3}, CT_FLOAT64, 23)}, {true, true},
                    {transposed, same}, 1e-8);
    compare_on_cuda("vector b", solve, {conditioned({4, 4}, CT_FLOAT64, 24), sample({4}, CT_FLOAT64, 25)},
                    {true, true}, {}, 1e-8);
}

TEST(CudaGpu, LinalgCholeskyAndTriangularMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (const Shape& s : kSquare) {
            SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + ::testing::PrintToString(s));
            const double tol = tol_of(dt);
            for (int32_t upper : {0, 1})
                compare_on_cuda("cholesky", [upper](const std::vector<H>& x) {  // of X X^T + 4n I
                    H o;
                    ok(ct_linalg_cholesky(plus(mm(x[0], mt(x[0])), x[1]).get(), upper, o.out()));
                    return o;
                }, {sample(s, dt, 30, -1, 1), conditioned(s, dt, 31)}, {true, false}, {}, tol);
            Shape rhs = s;
            rhs.back() = 3;  // B [..., n, 3] for left, B [..., 3, n] for right
            Shape lhs = s;
            if (!lhs.empty()) lhs[lhs.size() - 2] = 3;
            for (int32_t upper : {0, 1})
                for (int32_t left : {0, 1})
                    for (int32_t unit : {0, 1}) {
                        SCOPED_TRACE("upper " + std::to_string(upper) + " left " + std::to_string(left) + " unit " +
                                     std::to_string(unit));
                        compare_on_cuda("solve_triangular", [=](const std::vector<H>& x) {
                            H o;
                            ok(ct_linalg_solve_triangular(x[0].get(), x[1].get(), upper, left, unit, o.out()));
                            return o;
                        }, {conditioned(s, dt, 32), sample(left ? rhs : lhs, dt, 33)}, {true, true}, {}, tol);
                    }
        }
}

TEST(CudaGpu, LinalgQrMatchesCpu) {
    REQUIRE_CUDA();
    const Shape shapes[] = {{4, 3}, {3, 4}, {2, 5, 5}, {2, 3, 6, 2}, {0, 3, 2}, {3, 0}, {0, 4}};
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (const Shape& s : shapes)
            for (ct_qr_mode mode : {CT_QR_REDUCED, CT_QR_COMPLETE, CT_QR_R}) {
                SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + ::testing::PrintToString(s) + " mode " +
                             std::to_string((int)mode));
                const bool grad = mode == CT_QR_REDUCED;  // torch: no gradient for r-only or complete tall QR
                compare_on_cuda("qr", [mode](const std::vector<H>& x) {
                    H q, r;
                    ok(ct_linalg_qr(x[0].get(), mode, q.out(), r.out()));
                    return mode == CT_QR_R ? r : cat_flat({q, r});
                }, {sample(s, dt, 40)}, {grad}, {}, tol_of(dt));
            }
}

TEST(CudaGpu, LinalgEighMatchesCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (const Shape& s : kSquare)
            for (int32_t upper : {0, 1}) {
                SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + ::testing::PrintToString(s) + " upper " +
                             std::to_string(upper));
                // eigenvectors are unique up to sign (distinct eigenvalues): compare |V|, whose gradient is
                // sign-independent too; only A's triangle `upper` is read, so A itself is the (non-symmetric) input
                compare_on_cuda("eigh", [upper](const std::vector<H>& x) {
                    H l, v;
                    ok(ct_linalg_eigh(x[0].get(), upper, l.out(), v.out()));
                    return cat_flat({l, abs_of(v)});
                }, {sample(s, dt, 50)}, {true}, {}, tol_of(dt) * 10);
                compare_on_cuda("eigvalsh", [upper](const std::vector<H>& x) {
                    H l;
                    ok(ct_linalg_eigvalsh(x[0].get(), upper, l.out()));
                    return l;
                }, {sample(s, dt, 51)}, {true}, {}, tol_of(dt));
            }
}

TEST(CudaGpu, LinalgSvdMatchesCpu) {
    REQUIRE_CUDA();
    const Shape shapes[] = {{4, 3}, {3, 5}, {2, 4, 4}, {2, 1, 6, 2}, {2, 2, 6}, {0, 3, 2}, {2, 0, 3}, {3, 0}};
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (const Shape& s : shapes)
            for (int32_t full : {0, 1}) {
                SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + ::testing::PrintToString(s) + " full " +
                             std::to_string(full));
                const int64_t k = std::min(s[s.size() - 2], s.back());
                // singular vectors are unique up to sign, and only the first k of a full U / Vh at all
                compare_on_cuda("svd", [full, k](const std::vector<H>& x) {
                    H u, sv, vh;
                    ok(ct_linalg_svd(x[0].get(), full, u.out(), sv.out(), vh.out()));
                    return cat_flat({abs_of(narrow(u, -1, k)), sv, abs_of(narrow(vh, -2, k))});
                }, {sample(s, dt, 60)}, {true}, {}, tol_of(dt) * 10);
                compare_on_cuda("svdvals", [](const std::vector<H>& x) { return op1(ct_linalg_svdvals, x[0]); },
                                {sample(s, dt, 61)}, {true}, {}, tol_of(dt));
            }
}

TEST(CudaGpu, LinalgCompositesMatchCpu) {
    REQUIRE_CUDA();
    const double tol = 1e-7;
    H a = sample({2, 4, 3}, CT_FLOAT64, 70);
    compare_on_cuda("pinv", [](const std::vector<H>& x) {
        H o;
        ok(ct_linalg_pinv(x[0].get(), -1, -1, o.out()));
        return o;
    }, {a}, {true}, {}, tol);
    compare_on_cuda("matrix_rank", [](const std::vector<H>& x) {
        H o;
        ok(ct_linalg_matrix_rank(x[0].get(), -1, -1, o.out()));
        return o;
    }, {make({1, 2, 2, 4, 1, 0, 0, 1}, {2, 2, 2})});
    for (const char* ord : {"fro", "nuc", "2", "-2", "1", "inf"})
        compare_on_cuda(ord, [ord](const std::vector<H>& x) {
            H o;
            ok(ct_linalg_matrix_norm(x[0].get(), ord, -2, -1, 0, o.out()));
            return o;
        }, {a}, {true}, {}, tol);
    compare_on_cuda("vector_norm", [](const std::vector<H>& x) {
        H o;
        ok(ct_linalg_vector_norm(x[0].get(), 3.0, nullptr, 0, 0, o.out()));
        return o;
    }, {a}, {true}, {}, tol);
    compare_on_cuda("cross", [](const std::vector<H>& x) {
        H o;
        ok(ct_linalg_cross(x[0].get(), x[1].get(), -1, o.out()));
        return o;
    }, {sample({4, 3}, CT_FLOAT64, 71), sample({4, 3}, CT_FLOAT64, 72)}, {true, true}, {}, tol);
}

TEST(CudaGpu, LinalgErrorsMatchCpu) {
    REQUIRE_CUDA();
    // the message of a failure on cuda:0 is the CPU's (same op, same batch element, same LAPACK info)
    auto same_error = [](const char* what, const std::function<ct_status(const H&)>& f, const H& x) {
        SCOPED_TRACE(what);
        ct_status want = f(x);
        std::string want_msg = ct_last_error();
        ct_status got = f(on(x, ct_cuda(0)));
        EXPECT_EQ(got, want);
        EXPECT_EQ(std::string(ct_last_error()), want_msg);
        EXPECT_NE(want, CT_OK);
    };
    // batch element 1 is singular (a zero second pivot) / not positive-definite (minor of order 2)
    H singular = make({2, 0, 0, 2, 1, 2, 2, 4}, {2, 2, 2}), b = make({1, 1, 1, 1}, {2, 2, 1});
    same_error("inv", [](const H& a) { H o; return ct_linalg_inv(a.get(), o.out()); }, singular);
    same_error("solve", [&](const H& a) {
        H o, bb = on(b, device_of(a));
        return ct_linalg_solve(a.get(), bb.get(), o.out());
    }, singular);
    same_error("cholesky", [](const H& a) { H o; return ct_linalg_cholesky(a.get(), 0, o.out()); }, singular);
    same_error("matrix_power", [](const H& a) { H o; return ct_linalg_matrix_power(a.get(), -1, o.out()); }, singular);
    same_error("integer input", [](const H& a) { H o; return ct_linalg_inv(a.get(), o.out()); },
               make({1, 0, 0, 1}, {2, 2}, CT_INT64));
    same_error("not square", [](const H& a) { H o; return ct_linalg_det(a.get(), o.out()); }, sample({2, 3}, CT_FLOAT64, 1));
    // a singular matrix has det 0 and slogdet (0, -inf) on both devices
    compare_on_cuda("det of singular", [](const std::vector<H>& x) { return op1(ct_linalg_det, x[0]); }, {singular});
    // operands on different devices
    H a = conditioned({2, 2}, CT_FLOAT64, 80), o;
    H ad = on(a, ct_cuda(0));
    CT_EXPECT_ERR(ct_linalg_solve(ad.get(), b.get(), o.out()), CT_ERR_DEVICE, "cuda:0");
    CT_EXPECT_ERR(ct_linalg_solve(ad.get(), b.get(), o.out()), CT_ERR_DEVICE, "cpu");
    CT_EXPECT_ERR(ct_linalg_solve_triangular(ad.get(), b.get(), 0, 1, 0, o.out()), CT_ERR_DEVICE,
                  "linalg.solve_triangular");
}

TEST(CudaGpu, LinalgLargerBatchedMatrices) {
    REQUIRE_CUDA();
    // sizes past cuBLAS's small-matrix batched LU (n > 32) and a batch of many tiny ones
    for (const Shape& s : {Shape{3, 40, 40}, Shape{200, 2, 2}}) {
        SCOPED_TRACE(::testing::PrintToString(s));
        H a = conditioned(s, CT_FLOAT64, 90);
        compare_on_cuda("inv", [](const std::vector<H>& x) { return op1(ct_linalg_inv, x[0]); }, {a}, {}, {}, 1e-9);
        compare_on_cuda("det", [](const std::vector<H>& x) { return op1(ct_linalg_det, x[0]); }, {a}, {}, {}, 1e-6);
        compare_on_cuda("eigvalsh", [](const std::vector<H>& x) {
            H l;
            ok(ct_linalg_eigvalsh(x[0].get(), 0, l.out()));
            return l;
        }, {a}, {}, {}, 1e-9);
        compare_on_cuda("svdvals", [](const std::vector<H>& x) { return op1(ct_linalg_svdvals, x[0]); }, {a}, {}, {},
                        1e-9);
    }
}

TEST(CudaGpu, LinalgLstsqGelsMatchesCpu) {
    REQUIRE_CUDA();
    struct Case {
        Shape a, b;
    } cases[] = {{{5, 3}, {5, 2}}, {{3, 5}, {3, 2}}, {{4, 4}, {4, 1}}, {{2, 6, 3}, {2, 6, 2}}, {{2, 3, 6}, {1, 3, 2}},
                 {{5, 3}, {5}}, {{0, 4, 3}, {0, 4, 2}}, {{4, 0}, {4, 2}}, {{0, 3}, {0, 2}}, {{4, 3}, {4, 0}}};
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (const Case& c : cases) {
            SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + ::testing::PrintToString(c.a) + " " +
                         ::testing::PrintToString(c.b));
            compare_on_cuda("lstsq gels", [](const std::vector<H>& x) {
                H sol, res, rank, sv;
                ok(ct_linalg_lstsq_ex(x[0].get(), x[1].get(), -1, CT_LSTSQ_GELS, sol.out(), res.out(), rank.out(),
                                      sv.out()));
                return cat_flat({sol, res});
            }, {sample(c.a, dt, 100), sample(c.b, dt, 101)}, {true, true}, {}, tol_of(dt) * 10);
        }
    // ct_linalg_lstsq: gelsy on the CPU, gels on CUDA: the same solution for a full-rank A
    compare_on_cuda("lstsq", [](const std::vector<H>& x) {
        H o;
        ok(ct_linalg_lstsq(x[0].get(), x[1].get(), o.out()));
        return o;
    }, {sample({6, 3}, CT_FLOAT64, 102), sample({6, 2}, CT_FLOAT64, 103)}, {true, true}, {}, 1e-8);
    // a rank-deficient A: gels's error, naming the batch element and the zero diagonal element of R
    H a = on(make({1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0}, {2, 3, 2}), ct_cuda(0)), b = on(sample({2, 3, 1}, CT_FLOAT64, 4), ct_cuda(0));
    H sol, res, rank, sv;
    CT_EXPECT_ERR(ct_linalg_lstsq_ex(a.get(), b.get(), -1, CT_LSTSQ_GELS, sol.out(), res.out(), rank.out(), sv.out()),
                  CT_ERR_INVALID_ARGUMENT, "(Batch element 1): The least squares solution could not be computed because "
                  "the input matrix does not have full rank (error code: 2)");
    CT_EXPECT_ERR(ct_linalg_lstsq_ex(a.get(), b.get(), -1, CT_LSTSQ_GELSD, sol.out(), res.out(), rank.out(), sv.out()),
                  CT_ERR_NOT_SUPPORTED, "only the gels driver");
}

// test_reduce.cpp - dims/keepdim reductions (sum, mean, prod, var, std, logsumexp, norm, all, any) against an
// independent naive loop over every dim combination (negative dims too), 0-d, empty and non-contiguous inputs,
// the kernel's fast paths at sizes that reach them, dtype rules, errors and gradchecks.
#include <algorithm>
#include <limits>
#include "ct_test.h"
#include "reduce_ref.h"

using namespace ctt;
using namespace ctt_ref;

namespace {

using DimsOp = std::function<ct_status(ct_tensor, const int64_t*, int32_t, int32_t, ct_tensor*)>;

struct Case {
    const char* name;
    DimsOp op;
    SliceFn ref;
};

std::vector<Case> float_cases() {
    return {
        {"sum", ct_sum, ref_sum},
        {"mean", ct_mean, ref_mean},
        {"prod", ct_prod, ref_prod},
        {"var1", [](ct_tensor x, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) { return ct_var(x, d, n, 1, k, o); },
         [](const Vec& v) { return ref_var(v, 1); }},
        {"var0", [](ct_tensor x, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) { return ct_var(x, d, n, 0, k, o); },
         [](const Vec& v) { return ref_var(v, 0); }},
        {"std1", [](ct_tensor x, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) { return ct_std(x, d, n, 1, k, o); },
         [](const Vec& v) { return std::sqrt(ref_var(v, 1)); }},
        {"logsumexp", ct_logsumexp, ref_logsumexp},
        {"norm2", [](ct_tensor x, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) { return ct_norm(x, 2, d, n, k, o); },
         [](const Vec& v) { return ref_norm(v, 2); }},
        {"norm1", [](ct_tensor x, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) { return ct_norm(x, 1, d, n, k, o); },
         [](const Vec& v) { return ref_norm(v, 1); }},
        {"norm3.5", [](ct_tensor x, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) { return ct_norm(x, 3.5, d, n, k, o); },
         [](const Vec& v) { return ref_norm(v, 3.5); }},
        {"norm0", [](ct_tensor x, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) { return ct_norm(x, 0, d, n, k, o); },
         [](const Vec& v) { return ref_norm(v, 0); }},
        {"all", ct_all, [](const Vec& v) { return (double)std::all_of(v.begin(), v.end(), [](double x) { return x != 0; }); }},
        {"any", ct_any, [](const Vec& v) { return (double)std::any_of(v.begin(), v.end(), [](double x) { return x != 0; }); }},
    };
}

// Runs every case over every dim list of x (keepdim on and off) and compares with the naive loop.
void check_all_dims(const H& x, const std::string& label, double rtol = 1e-9) {
    Shape s = shape(x);
    Vec xv = values(x);
    for (const Case& c : float_cases()) {
        for (const auto& dims : dim_lists((int64_t)s.size())) {
            for (int keep = 0; keep < 2; ++keep) {
                SCOPED_TRACE(label + " " + c.name + " dims " + dims_str(dims) + " keepdim " + std::to_string(keep));
                H out;
                CT_ASSERT_OK(c.op(x.get(), dims.data(), (int32_t)dims.size(), keep, out.out()));
                EXPECT_EQ(shape(out), naive_shape(s, dims, keep != 0));
                EXPECT_TRUE(allclose(out, naive_reduce(xv, s, dims, c.ref), 1e-12, rtol));
            }
        }
    }
}

}  // namespace

TEST(Reduce, AllDimCombinationsContiguous) {
    for_each_device([&] {
        for (const Shape& s : {Shape{}, Shape{5}, Shape{3, 4}, Shape{2, 3, 4}, Shape{2, 1, 3, 2}}) {
            H x = randt(s, 3, false, -2, 2);
            check_all_dims(x, "shape " + dims_str(s));
        }
    });
}

TEST(Reduce, AllDimCombinationsNonContiguous) {
    for_each_device([&] {
        H base = randt({4, 3, 2}, 5, false, -2, 2), perm, tr, sl;
        int64_t p[3] = {2, 0, 1};
        CT_ASSERT_OK(ct_permute(base.get(), p, 3, perm.out()));  // [2, 4, 3], no unit-stride inner dim
        check_all_dims(perm, "permuted");
        H m = randt({5, 6}, 6, false, -2, 2);
        CT_ASSERT_OK(ct_transpose(m.get(), 0, 1, tr.out()));
        check_all_dims(tr, "transposed");
        H w = randt({3, 8}, 7, false, -2, 2);
        CT_ASSERT_OK(ct_slice(w.get(), 1, 1, 8, 2, sl.out()));  // stride-2 columns
        check_all_dims(sl, "sliced");
    });
}

TEST(Reduce, EmptyTensors) {
    for_each_device([&] {
        H x = randt({2, 0, 3}, 1, false);
        check_all_dims(x, "empty");
        H s, p, m, l, v;
        CT_ASSERT_OK(ct_sum(x.get(), nullptr, 0, 0, s.out()));
        EXPECT_EQ(scalar(s), 0.0);
        CT_ASSERT_OK(ct_prod(x.get(), nullptr, 0, 0, p.out()));
        EXPECT_EQ(scalar(p), 1.0);
        CT_ASSERT_OK(ct_mean(x.get(), nullptr, 0, 0, m.out()));
        EXPECT_TRUE(std::isnan(scalar(m)));
        CT_ASSERT_OK(ct_logsumexp(x.get(), nullptr, 0, 0, l.out()));
        EXPECT_EQ(scalar(l), -INFINITY);
        int64_t d0 = 0;
        CT_ASSERT_OK(ct_sum(x.get(), &d0, 1, 0, v.out()));  // reduces a size-2 dim of an empty tensor: still empty
        EXPECT_EQ(shape(v), (Shape{0, 3}));
    });
}

// Sizes that reach the kernel's unit-stride run, lane-wise and split-reduction paths (float32 and float64).
TEST(Reduce, LargeSizesAllPaths) {
    const std::vector<std::pair<Shape, std::vector<int64_t>>> cfgs = {
        {{300, 257}, {0}}, {{300, 257}, {1}}, {{300, 257}, {}}, {{70001}, {}}, {{3, 70001}, {1}},
        {{70001, 5}, {0}}, {{9, 7000, 4}, {0, 1}}, {{7000, 33}, {-2}},
    };
    for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
        for (const auto& [s, dims] : cfgs) {
            int64_t n = numel_of(s);
            Vec vals = rand_values((size_t)n, 17, -1, 1);
            H x = make(vals, s, dt);
            Vec xv = values(x);  // rounded to float32 where dt is float32
            double tol = dt == CT_FLOAT32 ? 2e-5 : 1e-10;
            for (const Case& c : float_cases()) {
                if (std::string(c.name) == "prod" || std::string(c.name) == "norm0") continue;  // under/overflow
                SCOPED_TRACE(std::string(c.name) + " shape " + dims_str(s) + " dims " + dims_str(dims));
                H out;
                CT_ASSERT_OK(c.op(x.get(), dims.data(), (int32_t)dims.size(), 0, out.out()));
                Vec want = naive_reduce(xv, s, dims, c.ref);
                EXPECT_TRUE(allclose(out, want, tol, tol));
            }
        }
    }
}

TEST(Reduce, DtypeRules) {
    for_each_device([&] {
        H xi = make({1, 2, 3, 4}, {2, 2}, CT_INT32), xb = make({1, 0, 1, 1}, {4}, CT_BOOL), out;
        CT_ASSERT_OK(ct_sum(xi.get(), nullptr, 0, 0, out.out()));
        EXPECT_EQ(dtype(out), CT_INT64);
        EXPECT_EQ(scalar(out), 10);
        CT_ASSERT_OK(ct_prod(xi.get(), nullptr, 0, 0, out.out()));
        EXPECT_EQ(dtype(out), CT_INT64);
        EXPECT_EQ(scalar(out), 24);
        CT_ASSERT_OK(ct_sum(xb.get(), nullptr, 0, 0, out.out()));
        EXPECT_EQ(dtype(out), CT_INT64);
        EXPECT_EQ(scalar(out), 3);
        H f32 = make({1, 2}, {2}, CT_FLOAT32);
        CT_ASSERT_OK(ct_sum(f32.get(), nullptr, 0, 0, out.out()));
        EXPECT_EQ(dtype(out), CT_FLOAT32);
        CT_ASSERT_OK(ct_var(f32.get(), nullptr, 0, 1, 0, out.out()));
        EXPECT_EQ(dtype(out), CT_FLOAT32);
        CT_ASSERT_OK(ct_all(xi.get(), nullptr, 0, 0, out.out()));
        EXPECT_EQ(dtype(out), CT_BOOL);
        CT_EXPECT_ERR(ct_mean(xi.get(), nullptr, 0, 0, out.out()), CT_ERR_DTYPE, "mean: expected a floating tensor");
        CT_EXPECT_ERR(ct_var(xi.get(), nullptr, 0, 1, 0, out.out()), CT_ERR_DTYPE, "var");
        CT_EXPECT_ERR(ct_std(xi.get(), nullptr, 0, 1, 0, out.out()), CT_ERR_DTYPE, "std");
        CT_EXPECT_ERR(ct_logsumexp(xi.get(), nullptr, 0, 0, out.out()), CT_ERR_DTYPE, "logsumexp");
        CT_EXPECT_ERR(ct_norm(xi.get(), 2, nullptr, 0, 0, out.out()), CT_ERR_DTYPE, "norm: expected a floating tensor");
        // integer products wrap like int64
        H big = make({4294967296.0, 4294967296.0}, {2}, CT_INT64);
        CT_ASSERT_OK(ct_prod(big.get(), nullptr, 0, 0, out.out()));
        EXPECT_EQ(scalar(out), 0);
    });
}

TEST(Reduce, AllAnyOnEveryDtype) {
    for_each_device([&] {
        for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL}) {
            H x = make({1, 0, 1, 1, 1, 1, 0, 0, 0}, {3, 3}, dt), a, b;
            int64_t d = 1;
            CT_ASSERT_OK(ct_all(x.get(), &d, 1, 0, a.out()));
            EXPECT_TRUE(allclose(a, {0, 1, 0}));
            CT_ASSERT_OK(ct_any(x.get(), &d, 1, 1, b.out()));
            EXPECT_EQ(shape(b), (Shape{3, 1}));
            EXPECT_TRUE(allclose(b, {1, 1, 0}));
            ct_dtype expected = dt == CT_UINT8 ? CT_UINT8 : CT_BOOL;  // uint8 keeps its dtype, as in PyTorch
            EXPECT_EQ(dtype(a), expected);
            EXPECT_EQ(dtype(b), expected);
        }
        H nan = make({NAN, 1}, {2}), a;
        CT_ASSERT_OK(ct_all(nan.get(), nullptr, 0, 0, a.out()));
        EXPECT_EQ(scalar(a), 1.0);  // NaN is nonzero
    });
}

TEST(Reduce, SpecialValues) {
    for_each_device([&] {
        H x = make({-INFINITY, -INFINITY, 1000, 1000, INFINITY, 0, NAN, 1}, {4, 2}), l, n, v;
        int64_t d = 1;
        CT_ASSERT_OK(ct_logsumexp(x.get(), &d, 1, 0, l.out()));
        EXPECT_TRUE(allclose(l, {-INFINITY, 1000 + std::log(2.0), INFINITY, NAN}));
        CT_ASSERT_OK(ct_norm(x.get(), INFINITY, &d, 1, 0, n.out()));
        EXPECT_TRUE(allclose(n, {INFINITY, 1000, INFINITY, NAN}));
        CT_ASSERT_OK(ct_norm(x.get(), -INFINITY, &d, 1, 0, n.out()));
        EXPECT_TRUE(allclose(n, {INFINITY, 1000, 0, NAN}));
        H one = make({3}, {1});
        CT_ASSERT_OK(ct_var(one.get(), nullptr, 0, 1, 0, v.out()));
        EXPECT_TRUE(std::isnan(scalar(v)));  // a single element has no unbiased variance
        // var is computed stably: a large offset does not swamp a small spread
        H off = make({1e9 + 1, 1e9 + 2, 1e9 + 3}, {3});
        CT_ASSERT_OK(ct_var(off.get(), nullptr, 0, 1, 0, v.out()));
        EXPECT_NEAR(scalar(v), 1.0, 1e-6);
    });
}

TEST(Reduce, Errors) {
    H x = randt({2, 3}, 1, false), out;
    int64_t bad = 2, rep[2] = {1, -1};
    CT_EXPECT_ERR(ct_sum(x.get(), &bad, 1, 0, out.out()), CT_ERR_INDEX, "sum: dim 2 is out of range");
    CT_EXPECT_ERR(ct_prod(x.get(), rep, 2, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "appears more than once");
    CT_EXPECT_ERR(ct_norm(x.get(), -1, nullptr, 0, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "norm: p must be");
    CT_EXPECT_ERR(ct_norm(x.get(), NAN, nullptr, 0, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "norm: p must be");
    H e = randt({0, 3}, 1, false);
    int64_t d0 = 0;
    CT_EXPECT_ERR(ct_norm(e.get(), INFINITY, &d0, 1, 0, out.out()), CT_ERR_INDEX, "norm");
    CT_EXPECT_ERR(ct_var(nullptr, nullptr, 0, 1, 0, out.out()), CT_ERR_INVALID_HANDLE, "var");
    CT_EXPECT_ERR(ct_logsumexp(x.get(), nullptr, 0, 0, nullptr), CT_ERR_INVALID_ARGUMENT, "logsumexp");
    CT_EXPECT_ERR(ct_any(x.get(), nullptr, -1, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "any");
}

TEST(Reduce, ProdWithZerosGradient) {
    for_each_device([&] {
        // one zero in a row: its gradient is the product of the others; the rest get 0; two zeros: all 0
        H x = make({2, 0, 3, 0, 5, 0, 4, 5, 6}, {3, 3}, CT_FLOAT64, true), p, g;
        int64_t d = 1;
        CT_ASSERT_OK(ct_prod(x.get(), &d, 1, 0, p.out()));
        H go = make({1, 1, 1}, {3});
        CT_ASSERT_OK(ct_backward(p.get(), go.get(), 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0, 6, 0, 0, 0, 0, 30, 24, 20}));
    });
}

TEST(Reduce, Gradchecks) {
    for_each_device([&] {
        H x = randt({3, 4, 2}, 21, true, 0.5, 1.5);  // positive and away from 0: smooth for prod/norm
        H xs = randt({3, 4, 2}, 22, true, -1.5, 1.5);
        std::vector<std::vector<int64_t>> dim_sets = {{}, {0}, {-1}, {0, 2}, {1, -1}};
        for (const Case& c : float_cases()) {
            std::string nm = c.name;
            if (nm == "all" || nm == "any" || nm == "norm0") continue;
            const H& in = (nm == "prod" || nm.rfind("norm", 0) == 0) ? x : xs;
            for (const auto& dims : dim_sets) {
                for (int keep = 0; keep < 2; ++keep) {
                    SCOPED_TRACE(nm + " dims " + dims_str(dims) + " keepdim " + std::to_string(keep));
                    auto f = [&](const std::vector<H>& v) {
                        H o;
                        ok(c.op(v[0].get(), dims.data(), (int32_t)dims.size(), keep, o.out()));
                        return o;
                    };
                    EXPECT_TRUE(gradcheck(f, {in}));
                }
            }
        }
    });
}

TEST(Reduce, GradchecksSpecialCases) {
    for_each_device([&] {
        auto with = [](auto op) { return [op](const std::vector<H>& v) { H o; ok(op(v[0].get(), o.out())); return o; }; };
        // prod with one zero and two zeros in a slice; 0-d input
        H z1 = make({0.0, 0.7, 1.3, -0.9, 1.1, 0.8}, {2, 3}, CT_FLOAT64, true);
        H z2 = make({0.0, 0.7, 0.0, -0.9, 1.1, 0.8}, {2, 3}, CT_FLOAT64, true);
        int64_t d1 = 1;
        for (const H& z : {z1, z2})
            EXPECT_TRUE(gradcheck(with([&](ct_tensor t, ct_tensor* o) { return ct_prod(t, &d1, 1, 0, o); }), {z}));
        // double backward with one, two and three zeros in a slice, over one dim and over several
        H z3 = make({0.0, 0.7, 0.0, -0.9, 0.0, 0.8, 1.2, 0.0, 0.0, 1.5, -1.1, 0.6}, {2, 3, 2}, CT_FLOAT64, true);
        std::vector<std::vector<int64_t>> zero_dims = {{1}, {0, 2}, {}, {-1}};
        for (const H& z : {z1, z2, z3})
            for (const auto& dims : zero_dims) {
                if (z.get() != z3.get() && dims.size() == 2) continue;
                SCOPED_TRACE("prod dims " + dims_str(dims));
                auto f = with([&](ct_tensor t, ct_tensor* o) { return ct_prod(t, dims.data(), (int32_t)dims.size(), 1, o); });
                EXPECT_TRUE(gradcheck(f, {z}));
                EXPECT_TRUE(gradgradcheck(f, {z}));
            }
        H s0 = make({1.7}, {}, CT_FLOAT64, true);
        for (auto op : {ct_sum, ct_mean, ct_prod, ct_logsumexp})
            EXPECT_TRUE(gradcheck(with([&](ct_tensor t, ct_tensor* o) { return op(t, nullptr, 0, 0, o); }), {s0}));
        // std at a constant slice: gradient 0 (PyTorch convention); norm of a zero vector: gradient 0
        H cst = make({2, 2, 2, 1, 3, 5}, {2, 3}, CT_FLOAT64, true), st, g;
        CT_ASSERT_OK(ct_std(cst.get(), &d1, 1, 1, 0, st.out()));
        H go = make({1, 1}, {2});
        CT_ASSERT_OK(ct_backward(st.get(), go.get(), 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(cst.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0, 0, 0, -0.5, 0, 0.5}));
        for (double p : {1.0, 2.0, 3.0, (double)INFINITY}) {
            H zero = make({0, 0, 0}, {3}, CT_FLOAT64, true), n, gz;
            CT_ASSERT_OK(ct_norm(zero.get(), p, nullptr, 0, 0, n.out()));
            CT_ASSERT_OK(ct_backward(n.get(), nullptr, 0, 0));
            CT_ASSERT_OK(ct_tensor_grad(zero.get(), gz.out()));
            EXPECT_TRUE(allclose(gz, {0, 0, 0})) << "p = " << p;
        }
        H xn = randt({4, 3}, 30, true, 0.5, 1.5);
        EXPECT_TRUE(gradcheck(with([&](ct_tensor t, ct_tensor* o) { return ct_norm(t, INFINITY, &d1, 1, 1, o); }), {xn}));
        EXPECT_TRUE(gradcheck(with([&](ct_tensor t, ct_tensor* o) { return ct_norm(t, -INFINITY, nullptr, 0, 0, o); }), {xn}));
        EXPECT_TRUE(gradcheck(with([&](ct_tensor t, ct_tensor* o) { return ct_norm(t, 0.5, &d1, 1, 0, o); }), {xn}));
    });
}

TEST(Reduce, GradgradChecks) {
    H x = randt({3, 4}, 40, true, 0.5, 1.5);
    std::vector<std::vector<int64_t>> dim_sets = {{}, {0}, {-1}};
    for (const auto& dims : dim_sets) {
        for (int keep = 0; keep < 2; ++keep) {
            for (auto op : {ct_sum, ct_mean, ct_prod, ct_logsumexp}) {
                auto f = [&](const std::vector<H>& v) {
                    H sq, o;
                    ok(ct_mul(v[0].get(), v[0].get(), sq.out()));  // nonlinear inside, so second derivatives matter
                    ok(op(sq.get(), dims.data(), (int32_t)dims.size(), keep, o.out()));
                    return o;
                };
                EXPECT_TRUE(gradgradcheck(f, {x})) << dims_str(dims) << " keep " << keep;
            }
            auto fv = [&](const std::vector<H>& v) {
                H o;
                ok(ct_var(v[0].get(), dims.data(), (int32_t)dims.size(), 1, keep, o.out()));
                return o;
            };
            auto fn = [&](const std::vector<H>& v) {
                H o;
                ok(ct_norm(v[0].get(), 2, dims.data(), (int32_t)dims.size(), keep, o.out()));
                return o;
            };
            EXPECT_TRUE(gradgradcheck(fv, {x}));
            EXPECT_TRUE(gradgradcheck(fn, {x}));
        }
    }
}

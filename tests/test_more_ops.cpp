// test_more_ops.cpp - issue 14's last reductions and products through the C API: logcumsumexp, aminmax,
// var_mean / std_mean, kron, tensordot, inner. Values against closed forms (naive loops here), -inf / NaN / empty /
// 0-d inputs, errors naming the op, gradients (and second derivatives) in float64 against central differences, on
// the CPU and the (emulated) CUDA backend.
#include <cmath>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {
const double NaN = std::nan(""), Inf = INFINITY;

H lcse(const H& x, int64_t dim) {
    H out;
    ok(ct_logcumsumexp(x.get(), dim, out.out()));
    return out;
}
std::pair<H, H> aminmax(const H& x, int64_t dim, bool has_dim, bool keepdim) {
    H lo, hi;
    ok(ct_aminmax(x.get(), dim, has_dim, keepdim, lo.out(), hi.out()));
    return {std::move(lo), std::move(hi)};
}
std::pair<H, H> stat_mean(bool is_std, const H& x, std::vector<int64_t> dims, double corr, bool keepdim) {
    H s, m;
    ok((is_std ? ct_std_mean : ct_var_mean)(x.get(), dims.data(), (int32_t)dims.size(), corr, keepdim, s.out(),
                                            m.out()));
    return {std::move(s), std::move(m)};
}
H binary(ct_status (*fn)(ct_tensor, ct_tensor, ct_tensor*), const H& a, const H& b) {
    H out;
    ok(fn(a.get(), b.get(), out.out()));
    return out;
}
H tdot(const H& a, const H& b, std::vector<int64_t> da, std::vector<int64_t> db) {
    H out;
    ok(ct_tensordot(a.get(), b.get(), da.data(), (int32_t)da.size(), db.data(), (int32_t)db.size(), out.out()));
    return out;
}
H add(const H& a, const H& b) {
    H out;
    ok(ct_add(a.get(), b.get(), 1.0, out.out()));
    return out;
}
::testing::AssertionResult same(const H& t, const std::vector<double>& e, double tol = 1e-12) {
    std::vector<double> v = values(t);
    if (v.size() != e.size()) return ::testing::AssertionFailure() << "size " << v.size() << " != " << e.size();
    for (size_t i = 0; i < v.size(); ++i) {
        bool good = std::isnan(e[i]) ? std::isnan(v[i])
                    : std::isinf(e[i]) ? v[i] == e[i]
                                       : std::fabs(v[i] - e[i]) <= tol * (1 + std::fabs(e[i]));
        if (!good) return ::testing::AssertionFailure() << "at " << i << ": " << v[i] << " != " << e[i];
    }
    return ::testing::AssertionSuccess();
}
// log(sum_{k<=i} exp(x_k)) by the naive formula with a per-prefix max (x finite).
std::vector<double> naive_lcse(const std::vector<double>& x) {
    std::vector<double> r;
    for (size_t i = 0; i < x.size(); ++i) {
        double m = -Inf, s = 0;
        for (size_t k = 0; k <= i; ++k) m = std::max(m, x[k]);
        for (size_t k = 0; k <= i; ++k) s += std::exp(x[k] - m);
        r.push_back(m + std::log(s));
    }
    return r;
}
}  // namespace

TEST(MoreOps, LogcumsumexpValues) {
    for_each_device([&] {
        std::vector<double> v = {0.5, -1, 2, 700, -700, 3};
        EXPECT_TRUE(same(lcse(make(v, {6}), 0), naive_lcse(v)));
        // rows of [2, 3] along dim 1 and columns along dim 0 (and -2)
        H m = make({1, 2, 3, -4, 5, -6}, {2, 3});
        std::vector<double> r0 = naive_lcse({1, 2, 3}), r1 = naive_lcse({-4, 5, -6});
        EXPECT_TRUE(same(lcse(m, 1), {r0[0], r0[1], r0[2], r1[0], r1[1], r1[2]}));
        std::vector<double> c0 = naive_lcse({1, -4}), c1 = naive_lcse({2, 5}), c2 = naive_lcse({3, -6});
        EXPECT_TRUE(same(lcse(m, -2), {c0[0], c1[0], c2[0], c0[1], c1[1], c2[1]}));
        // the stable path: a tiny value before a huge one stays finite (a global-max rescale would give -inf)
        EXPECT_TRUE(same(lcse(make({-1000, 0}, {2}), 0), {-1000, std::log1p(std::exp(-1000.0))}));
        EXPECT_TRUE(same(lcse(make({-Inf, -Inf, 1, NaN, 2}, {5}), 0), {-Inf, -Inf, 1, NaN, NaN}));
        EXPECT_TRUE(same(lcse(make({Inf, -Inf, 1}, {3}), 0), {Inf, Inf, Inf}));
        EXPECT_TRUE(same(lcse(make({2.5}, {}), 0), {2.5}));  // 0-d: the value itself
        EXPECT_EQ(shape(lcse(make({}, {0, 3}), 0)), (Shape{0, 3}));
        EXPECT_EQ(shape(lcse(make({}, {2, 0}), 0)), (Shape{2, 0}));
        H f = lcse(make({1, 2, 3}, {3}, CT_FLOAT32), 0);
        EXPECT_EQ(dtype(f), CT_FLOAT32);
        EXPECT_TRUE(same(f, naive_lcse({1, 2, 3}), 1e-6));
        for (ct_dtype hd : {CT_FLOAT16, CT_BFLOAT16}) {
            H h = lcse(make({1, 2, 3}, {3}, hd), 0);
            EXPECT_EQ(dtype(h), hd);
            EXPECT_TRUE(same(h, naive_lcse({1, 2, 3}), 1e-2));
        }
    });
}

TEST(MoreOps, LogcumsumexpErrors) {
    H out;
    CT_EXPECT_ERR(ct_logcumsumexp(make({1, 2}, {2}, CT_INT64).get(), 0, out.out()), CT_ERR_DTYPE, "logcumsumexp");
    CT_EXPECT_ERR(ct_logcumsumexp(make({1, 2}, {2}, CT_BOOL).get(), 0, out.out()), CT_ERR_DTYPE, "logcumsumexp");
    CT_EXPECT_ERR(ct_logcumsumexp(make({1, 2}, {2}).get(), 1, out.out()), CT_ERR_INDEX, "logcumsumexp");
    CT_EXPECT_ERR(ct_logcumsumexp(make({1}, {}).get(), 1, out.out()), CT_ERR_INDEX, "logcumsumexp");
    CT_EXPECT_ERR(ct_logcumsumexp(nullptr, 0, out.out()), CT_ERR_INVALID_HANDLE, "logcumsumexp");
    CT_EXPECT_ERR(ct_logcumsumexp(make({1}, {1}).get(), 0, nullptr), CT_ERR_INVALID_ARGUMENT, "logcumsumexp");
    H z;
    ok(ct_complex(make({1, 2}, {2}).get(), make({0, 1}, {2}).get(), z.out()));
    CT_EXPECT_ERR(ct_logcumsumexp(z.get(), 0, out.out()), CT_ERR_DTYPE, "logcumsumexp");
}

TEST(MoreOps, LogcumsumexpGradients) {
    for_each_device([&] {
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return lcse(in[0], 1); }, {randt({3, 4}, 11)}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return lcse(in[0], 0); }, {randt({5}, 12, true, -3, 3)}));
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) { return lcse(in[0], -1); }, {randt({2, 3}, 13)}));
        // d/dx_k sum_i g_i lcse_i = sum_{i>=k} g_i exp(x_k - lcse_i): the closed form for g = (1, -2, 3)
        H x = make({0.3, -0.2, 1.1}, {3}, CT_FLOAT64, true), g = make({1, -2, 3}, {3});
        H y = lcse(x, 0);
        ok(ct_backward(y.get(), g.get(), 0, 0));
        H gx;
        ok(ct_tensor_grad(x.get(), gx.out()));
        std::vector<double> xv = {0.3, -0.2, 1.1}, l = naive_lcse(xv), gv = {1, -2, 3}, e(3, 0.0);
        for (int k = 0; k < 3; ++k)
            for (int i = k; i < 3; ++i) e[k] += gv[i] * std::exp(xv[k] - l[i]);
        EXPECT_TRUE(same(gx, e, 1e-12));
    });
}

TEST(MoreOps, AminmaxValues) {
    for_each_device([&] {
        H x = make({3, -1, 7, 2, 9, -5}, {2, 3});
        auto all = aminmax(x, 0, false, false);
        EXPECT_TRUE(same(all.first, {-5}));
        EXPECT_TRUE(same(all.second, {9}));
        EXPECT_EQ(shape(all.first), Shape{});
        auto all_k = aminmax(x, 0, false, true);
        EXPECT_EQ(shape(all_k.second), (Shape{1, 1}));
        auto d1 = aminmax(x, 1, true, false);
        EXPECT_TRUE(same(d1.first, {-1, -5}));
        EXPECT_TRUE(same(d1.second, {7, 9}));
        auto d0 = aminmax(x, -2, true, true);
        EXPECT_EQ(shape(d0.first), (Shape{1, 3}));
        EXPECT_TRUE(same(d0.first, {2, -1, -5}));
        EXPECT_TRUE(same(d0.second, {3, 9, 7}));
        auto n = aminmax(make({1, NaN, 3, -Inf, Inf}, {5}), 0, false, false);
        EXPECT_TRUE(std::isnan(scalar(n.first)) && std::isnan(scalar(n.second)));
        auto inf = aminmax(make({1, -Inf, Inf}, {3}), 0, false, false);
        EXPECT_EQ(scalar(inf.first), -Inf);
        EXPECT_EQ(scalar(inf.second), Inf);
        // a long row: the vectorised lane loop and its tail
        std::vector<double> v = rand_values(1000, 7, -5, 5);
        double lo = v[0], hi = v[0];
        for (double e : v) lo = std::min(lo, e), hi = std::max(hi, e);
        auto big = aminmax(make(v, {1000}, CT_FLOAT32), 0, true, false);
        EXPECT_NEAR(scalar(big.first), lo, 1e-6);
        EXPECT_NEAR(scalar(big.second), hi, 1e-6);
        auto ints = aminmax(make({4, -9, 2}, {3}, CT_INT64), 0, false, false);
        EXPECT_EQ(dtype(ints.first), CT_INT64);
        EXPECT_TRUE(same(ints.first, {-9}) && same(ints.second, {4}));
        auto b = aminmax(make({1, 0, 1}, {3}, CT_BOOL), 0, false, false);
        EXPECT_EQ(dtype(b.first), CT_BOOL);
        EXPECT_TRUE(same(b.first, {0}) && same(b.second, {1}));
        auto h = aminmax(make({1.5, -2.5}, {2}, CT_BFLOAT16), 0, false, false);
        EXPECT_EQ(dtype(h.first), CT_BFLOAT16);
        EXPECT_TRUE(same(h.first, {-2.5}) && same(h.second, {1.5}));
        auto s = aminmax(make({4}, {}), 0, true, true);  // torch 1.13: a 0-d x with dim and keepdim gives [1]
        EXPECT_EQ(shape(s.first), (Shape{1}));
        EXPECT_EQ(shape(aminmax(make({4}, {}), 0, true, false).first), Shape{});
        EXPECT_EQ(shape(aminmax(make({}, {0, 3}), 1, true, false).first), (Shape{0}));
    });
}

TEST(MoreOps, AminmaxErrorsAndNoGradient) {
    H lo, hi;
    CT_EXPECT_ERR(ct_aminmax(make({}, {0}).get(), 0, 0, 0, lo.out(), hi.out()), CT_ERR_INDEX, "aminmax");
    CT_EXPECT_ERR(ct_aminmax(make({}, {0, 3}).get(), 0, 1, 0, lo.out(), hi.out()), CT_ERR_INDEX, "aminmax");
    CT_EXPECT_ERR(ct_aminmax(make({1}, {1}).get(), 2, 1, 0, lo.out(), hi.out()), CT_ERR_INDEX, "aminmax");
    CT_EXPECT_ERR(ct_aminmax(make({1}, {1}).get(), 0, 0, 0, nullptr, hi.out()), CT_ERR_INVALID_ARGUMENT, "aminmax");
    CT_EXPECT_ERR(ct_aminmax(nullptr, 0, 0, 0, lo.out(), hi.out()), CT_ERR_INVALID_HANDLE, "aminmax");
    EXPECT_EQ(lo.get(), nullptr);  // out-params untouched on failure
    H z;
    ok(ct_complex(make({1}, {1}).get(), make({0}, {1}).get(), z.out()));
    CT_EXPECT_ERR(ct_aminmax(z.get(), 0, 0, 0, lo.out(), hi.out()), CT_ERR_DTYPE, "aminmax");
    auto r = aminmax(randt({3}, 1), 0, false, false);  // x requires grad; the results have no history
    int32_t rg = 1;
    ok(ct_tensor_requires_grad(r.first.get(), &rg));
    EXPECT_EQ(rg, 0);
}

TEST(MoreOps, VarMeanStdMean) {
    for_each_device([&] {
        H x = make({1, 2, 4, 8, 16, 32}, {2, 3});
        for (bool is_std : {false, true}) {
            for (double corr : {0.0, 1.0, 2.0}) {
                for (std::vector<int64_t> dims : {std::vector<int64_t>{}, {1}, {-2}, {0, 1}}) {
                    for (bool keep : {false, true}) {
                        auto r = stat_mean(is_std, x, dims, corr, keep);
                        H e, m;
                        ok((is_std ? ct_std : ct_var)(x.get(), dims.data(), (int32_t)dims.size(), corr, keep,
                                                      e.out()));
                        ok(ct_mean(x.get(), dims.data(), (int32_t)dims.size(), keep, m.out()));
                        EXPECT_EQ(shape(r.first), shape(e));
                        EXPECT_TRUE(same(r.first, values(e)));
                        EXPECT_TRUE(same(r.second, values(m)));
                    }
                }
            }
        }
        auto vm = stat_mean(false, x, {1}, 1, false);  // closed form: rows (1, 2, 4) and (8, 16, 32)
        EXPECT_TRUE(same(vm.first, {7.0 / 3, 448.0 / 3}));
        EXPECT_TRUE(same(vm.second, {7.0 / 3, 56.0 / 3}));
        auto one = stat_mean(true, make({3}, {}), {}, 1, false);  // one element, correction 1: NaN as torch
        EXPECT_TRUE(std::isnan(scalar(one.first)));
        EXPECT_EQ(scalar(one.second), 3);
        auto e = stat_mean(false, make({}, {0, 3}), {0}, 1, false);
        EXPECT_EQ(shape(e.first), (Shape{3}));
        EXPECT_TRUE(std::isnan(values(e.second)[0]));
        EXPECT_TRUE(gradcheck(
            [](const std::vector<H>& in) {
                auto r = stat_mean(false, in[0], {1}, 1, false);
                return add(r.first, r.second);
            },
            {randt({3, 4}, 21)}));
        EXPECT_TRUE(gradgradcheck(
            [](const std::vector<H>& in) {
                auto r = stat_mean(true, in[0], {0}, 0, true);
                return add(r.first, r.second);
            },
            {randt({3, 2}, 22)}));
    });
    H v, m;
    CT_EXPECT_ERR(ct_var_mean(make({1, 2}, {2}, CT_INT64).get(), nullptr, 0, 1, 0, v.out(), m.out()), CT_ERR_DTYPE,
                  "var_mean");
    CT_EXPECT_ERR(ct_std_mean(make({1, 2}, {2}).get(), nullptr, 0, 1, 0, v.out(), nullptr), CT_ERR_INVALID_ARGUMENT,
                  "std_mean");
    int64_t bad = 3;
    CT_EXPECT_ERR(ct_std_mean(make({1, 2}, {2}).get(), &bad, 1, 1, 0, v.out(), m.out()), CT_ERR_INDEX, "std");
    EXPECT_EQ(v.get(), nullptr);
}

TEST(MoreOps, Kron) {
    for_each_device([&] {
        H a = make({1, 2, 3, 4}, {2, 2}), b = make({0, 5, 6, 7}, {2, 2});
        H k = binary(ct_kron, a, b);
        EXPECT_EQ(shape(k), (Shape{4, 4}));
        std::vector<double> av = {1, 2, 3, 4}, bv = {0, 5, 6, 7}, e(16);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                for (int p = 0; p < 2; ++p)
                    for (int q = 0; q < 2; ++q) e[(i * 2 + p) * 4 + j * 2 + q] = av[i * 2 + j] * bv[p * 2 + q];
        EXPECT_TRUE(same(k, e));
        EXPECT_EQ(shape(binary(ct_kron, make({1, 2, 3, 4, 5, 6}, {2, 3}), make({1, 2}, {2}))), (Shape{2, 6}));
        EXPECT_TRUE(same(binary(ct_kron, make({2}, {}), make({1, 2}, {2})), {2, 4}));
        EXPECT_EQ(shape(binary(ct_kron, make({2}, {}), make({3}, {}))), Shape{});
        EXPECT_EQ(shape(binary(ct_kron, make({}, {2, 0}), make(std::vector<double>(12, 1.0), {3, 4}))), (Shape{6, 0}));
        EXPECT_EQ(dtype(binary(ct_kron, make({1}, {1}, CT_INT64), make({1}, {1}, CT_FLOAT32))), CT_FLOAT32);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return binary(ct_kron, in[0], in[1]); },
                              {randt({2, 3}, 31), randt({2}, 32)}));
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) { return binary(ct_kron, in[0], in[1]); },
                                  {randt({2}, 33), randt({2, 2}, 34)}));
    });
    // a zero size next to sizes whose product overflows int64
    H a, b, out;
    int64_t sa[2] = {0, int64_t(1) << 40}, sb[2] = {1, int64_t(1) << 40};
    ok(ct_empty(sa, 2, CT_FLOAT32, ct_cpu(), a.out()));
    ok(ct_empty(sb, 1, CT_FLOAT32, ct_cpu(), b.out()));
    CT_EXPECT_OK(ct_kron(a.get(), b.get(), out.out()));
    H b2;
    int64_t sb2[2] = {0, int64_t(1) << 40};
    ok(ct_empty(sb2, 2, CT_FLOAT32, ct_cpu(), b2.out()));
    CT_EXPECT_ERR(ct_kron(a.get(), b2.get(), out.out()), CT_ERR_SHAPE, "kron");
}

TEST(MoreOps, TensordotAndInner) {
    for_each_device([&] {
        std::vector<double> av = rand_values(24, 41), bv = rand_values(60, 42);
        H a = make(av, {2, 3, 4}), b = make(bv, {4, 3, 5});
        // ([1, 2], [1, 0]): out[i, l] = sum_{j,k} a[i, j, k] b[k, j, l]
        H r = tdot(a, b, {1, 2}, {1, 0});
        EXPECT_EQ(shape(r), (Shape{2, 5}));
        std::vector<double> e(10, 0.0);
        for (int i = 0; i < 2; ++i)
            for (int l = 0; l < 5; ++l)
                for (int j = 0; j < 3; ++j)
                    for (int k = 0; k < 4; ++k) e[i * 5 + l] += av[(i * 3 + j) * 4 + k] * bv[(k * 3 + j) * 5 + l];
        EXPECT_TRUE(same(r, e, 1e-12));
        EXPECT_TRUE(same(tdot(a, b, {-1, -2}, {0, 1}), e, 1e-12));
        EXPECT_EQ(shape(tdot(a, b, {}, {})), (Shape{2, 3, 4, 4, 3, 5}));  // dims = 0: the outer product
        EXPECT_EQ(shape(tdot(a, b, {-1}, {0})), (Shape{2, 3, 3, 5}));
        // a size-1 contracted dim: b's dim 0 is summed out first (torch), (1, 2) x ([1, 3, 5] + [2, 4, 6])
        H a1 = make({1, 2}, {2, 1}), b1 = make({1, 2, 3, 4, 5, 6}, {3, 2});
        EXPECT_TRUE(same(tdot(a1, b1, {1}, {0}), {9, 12, 18, 24}));
        EXPECT_EQ(shape(tdot(make({}, {2, 0}), make({}, {0, 3}), {1}, {0})), (Shape{2, 3}));
        EXPECT_TRUE(same(tdot(make({}, {2, 0}), make({}, {0, 3}), {1}, {0}), std::vector<double>(6, 0.0)));
        EXPECT_TRUE(same(tdot(make({2}, {}), make({3}, {}), {}, {}), {6}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return tdot(in[0], in[1], {0, 2}, {2, 1}); },
                              {randt({3, 2, 4}, 43), randt({2, 4, 3}, 44)}));
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) { return tdot(in[0], in[1], {1}, {0}); },
                                  {randt({2, 3}, 45), randt({3, 2}, 46)}));
        // inner: the last dims; a 0-d operand multiplies
        H x = make({1, 2, 3, 4, 5, 6}, {2, 3}), y = make({1, 0, -1, 2, 2, 2}, {2, 3});
        H in = binary(ct_inner, x, y);
        EXPECT_EQ(shape(in), (Shape{2, 2}));
        EXPECT_TRUE(same(in, {-2, 12, -2, 30}));
        EXPECT_TRUE(same(binary(ct_inner, make({2}, {}), make({1, 2}, {2})), {2, 4}));
        EXPECT_TRUE(same(binary(ct_inner, make({}, {0}), make({}, {0})), {0}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return binary(ct_inner, in[0], in[1]); },
                              {randt({2, 3}, 47), randt({4, 3}, 48)}));
    });
    H a = make({1, 2, 3, 4, 5, 6}, {2, 3}), b = make({1, 2, 3, 4, 5, 6}, {3, 2}), out;
    int64_t d1 = 1, d0 = 0, d5 = 5, two[2] = {1, 1};
    CT_EXPECT_ERR(ct_tensordot(a.get(), b.get(), &d1, 1, two, 2, out.out()), CT_ERR_SHAPE, "same length");
    CT_EXPECT_ERR(ct_tensordot(a.get(), b.get(), &d0, 1, &d0, 1, out.out()), CT_ERR_SHAPE,
                  "contracted dimensions need to match");
    CT_EXPECT_ERR(ct_tensordot(a.get(), b.get(), two, 2, two, 2, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "appears multiple times");
    CT_EXPECT_ERR(ct_tensordot(a.get(), b.get(), &d5, 1, &d0, 1, out.out()), CT_ERR_INDEX, "tensordot");
    CT_EXPECT_ERR(ct_tensordot(make({1}, {}).get(), b.get(), &d0, 1, &d0, 1, out.out()), CT_ERR_INDEX,
                  "0-d tensor");
    CT_EXPECT_ERR(ct_tensordot(a.get(), make({1, 2, 3}, {3}, CT_FLOAT32).get(), &d1, 1, &d0, 1, out.out()),
                  CT_ERR_DTYPE, "tensordot");
    CT_EXPECT_ERR(ct_tensordot(a.get(), b.get(), nullptr, 1, &d0, 1, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "tensordot");
    CT_EXPECT_ERR(ct_inner(a.get(), a.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "inner");
    CT_EXPECT_ERR(ct_inner(a.get(), b.get(), out.out()), CT_ERR_SHAPE, "inner");
    CT_EXPECT_ERR(ct_kron(a.get(), nullptr, out.out()), CT_ERR_INVALID_HANDLE, "kron");
    EXPECT_EQ(out.get(), nullptr);
}

// Inputs with a zero size whose result sizes multiply past int64 ([2^40, 0] x [0, 2^40] over the zero dims):
// CT_ERR_SHAPE, not a wrapped size; an empty result of fine sizes is a real result.
TEST(MoreOps, TensordotHugeResult) {
    H a, b, out;
    int64_t sa[2] = {int64_t(1) << 40, 0}, sb[2] = {0, int64_t(1) << 40}, da = 1, db = 0;
    ok(ct_empty(sa, 2, CT_FLOAT32, ct_cpu(), a.out()));
    ok(ct_empty(sb, 2, CT_FLOAT32, ct_cpu(), b.out()));
    CT_EXPECT_ERR(ct_tensordot(a.get(), b.get(), &da, 1, &db, 1, out.out()), CT_ERR_SHAPE, "tensordot");
    CT_EXPECT_ERR(ct_inner(a.get(), a.get(), out.out()), CT_ERR_SHAPE, "tensordot");
    int64_t se[2] = {0, 0};
    H e;
    ok(ct_empty(se, 2, CT_FLOAT32, ct_cpu(), e.out()));
    CT_EXPECT_OK(ct_tensordot(a.get(), e.get(), &da, 1, &db, 1, out.out()));  // an empty [2^40, 0] result
}

// test_unary.cpp - elementwise unary ops through the C API: values against independent scalar loops,
// dtype rules, special values (NaN, inf, thresholds), errors, and gradchecks / gradgradchecks.
#include <cstring>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {

using UnaryFn = ct_status (*)(ct_tensor, ct_tensor*);

H call(UnaryFn fn, const H& x) {
    H out;
    ok(fn(x.get(), out.out()));
    return out;
}

struct Case {
    const char* name;
    UnaryFn fn;
    double (*ref)(double);
    double lo, hi;  // a range inside the domain (and away from kinks) for values and gradchecks
};

double ref_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double ref_gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

const Case kFloatCases[] = {
    {"exp", ct_exp, [](double x) { return std::exp(x); }, -2, 2},
    {"log", ct_log, [](double x) { return std::log(x); }, 0.2, 3},
    {"log1p", ct_log1p, [](double x) { return std::log(1.0 + x); }, -0.5, 2},
    {"expm1", ct_expm1, [](double x) { return std::exp(x) - 1.0; }, -2, 2},
    {"sqrt", ct_sqrt, [](double x) { return std::sqrt(x); }, 0.2, 3},
    {"rsqrt", ct_rsqrt, [](double x) { return 1.0 / std::sqrt(x); }, 0.2, 3},
    {"sin", ct_sin, [](double x) { return std::sin(x); }, -3, 3},
    {"cos", ct_cos, [](double x) { return std::cos(x); }, -3, 3},
    {"tan", ct_tan, [](double x) { return std::sin(x) / std::cos(x); }, -1.2, 1.2},
    {"tanh", ct_tanh, [](double x) { return (std::exp(2 * x) - 1) / (std::exp(2 * x) + 1); }, -2, 2},
    {"sigmoid", ct_sigmoid, ref_sigmoid, -4, 4},
    {"gelu", ct_gelu, ref_gelu, -3, 3},
    {"silu", ct_silu, [](double x) { return x * ref_sigmoid(x); }, -4, 4},
    {"softplus", ct_softplus, [](double x) { return std::log(1.0 + std::exp(x)); }, -4, 4},
    {"reciprocal", ct_reciprocal, [](double x) { return 1.0 / x; }, 0.3, 3},
    {"abs", ct_abs, [](double x) { return x < 0 ? -x : x; }, -2, 2},
    {"neg", ct_neg, [](double x) { return -x; }, -2, 2},
    {"relu", ct_relu, [](double x) { return x > 0 ? x : 0.0; }, -2, 2},
    {"sign", ct_sign, [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }, -2, 2},
    {"floor", ct_floor, [](double x) { return (double)(int64_t)(x >= 0 || x == (int64_t)x ? x : x - 1); }, -3, 3},
    {"ceil", ct_ceil, [](double x) { return -(double)(int64_t)(-x >= 0 || -x == (int64_t)-x ? -x : -x - 1); }, -3, 3},
};

std::vector<double> apply_ref(const Case& c, const std::vector<double>& v) {
    std::vector<double> r;
    for (double x : v) r.push_back(c.ref(x));
    return r;
}

}  // namespace

TEST(Unary, ValuesMatchScalarReferenceFloat64AndFloat32) {
    for_each_device([&] {
        for (const Case& c : kFloatCases) {
            SCOPED_TRACE(c.name);
            std::vector<double> v = rand_values(12, 5, c.lo, c.hi);
            H x64 = make(v, {3, 4}), y64 = call(c.fn, x64);
            EXPECT_EQ(dtype(y64), CT_FLOAT64);
            EXPECT_EQ(shape(y64), (Shape{3, 4}));
            EXPECT_TRUE(allclose(y64, apply_ref(c, v), 1e-12, 1e-12));
            H x32 = make(v, {3, 4}, CT_FLOAT32), y32 = call(c.fn, x32);
            EXPECT_EQ(dtype(y32), CT_FLOAT32);
            std::vector<double> v32 = values(x32);  // the float32-rounded inputs
            EXPECT_TRUE(allclose(y32, apply_ref(c, v32), 1e-6, 1e-5));
        }
    });
}

TEST(Unary, StridedAndBroadcastInputs) {
    for_each_device([&] {
        for (const Case& c : kFloatCases) {
            SCOPED_TRACE(c.name);
            std::vector<double> v = rand_values(6, 9, c.lo, c.hi);
            H x = make(v, {2, 3}), xt, y;
            CT_ASSERT_OK(ct_transpose(x.get(), 0, 1, xt.out()));  // [3, 2], non-contiguous
            CT_ASSERT_OK(c.fn(xt.get(), y.out()));
            std::vector<double> expected;
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 2; ++i) expected.push_back(c.ref(v[(size_t)(i * 3 + j)]));
            EXPECT_TRUE(allclose(y, expected, 1e-12, 1e-12));
            // an expanded (stride 0) input
            H row = make({v[0], v[1], v[2]}, {1, 3}), ex, ye;
            int64_t target[2] = {4, 3};
            CT_ASSERT_OK(ct_expand(row.get(), target, 2, ex.out()));
            CT_ASSERT_OK(c.fn(ex.get(), ye.out()));
            std::vector<double> e2;
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 3; ++j) e2.push_back(c.ref(v[(size_t)j]));
            EXPECT_TRUE(allclose(ye, e2, 1e-12, 1e-12));
        }
    });
}

TEST(Unary, LargeContiguousInputUsesParallelPath) {
    const size_t n = 200003;  // odd size above the parallel grain
    std::vector<double> v = rand_values(n, 3, -3, 3);
    H x = make(v, {(int64_t)n}, CT_FLOAT32);
    H y = call(ct_tanh, x);
    std::vector<double> xv = values(x), yv = values(y);
    for (size_t i = 0; i < n; i += 997) EXPECT_NEAR(yv[i], std::tanh(xv[i]), 1e-6) << i;
    EXPECT_NEAR(yv[n - 1], std::tanh(xv[n - 1]), 1e-6);
}

TEST(Unary, IntegerInputsPromoteForFloatFunctions) {
    for_each_device([&] {
        H i = make({1, 4, 9}, {3}, CT_INT64);
        for (UnaryFn fn : {ct_exp, ct_log, ct_sqrt, ct_sin, ct_sigmoid, ct_reciprocal, ct_gelu, ct_tanh}) {
            H y = call(fn, i);
            EXPECT_EQ(dtype(y), CT_FLOAT32);
        }
        EXPECT_TRUE(allclose(call(ct_sqrt, i), {1, 2, 3}));
        H b = make({0, 1}, {2}, CT_BOOL);
        EXPECT_EQ(dtype(call(ct_exp, b)), CT_FLOAT32);
        EXPECT_TRUE(allclose(call(ct_exp, b), {1, std::exp(1.0)}, 1e-6, 1e-6));
    });
}

TEST(Unary, IntegerKeepingOps) {
    for_each_device([&] {
        H i = make({-3, 0, 5}, {3}, CT_INT32);
        struct { UnaryFn fn; std::vector<double> expected; } cases[] = {
            {ct_abs, {3, 0, 5}}, {ct_neg, {3, 0, -5}}, {ct_sign, {-1, 0, 1}}, {ct_floor, {-3, 0, 5}},
            {ct_ceil, {-3, 0, 5}}, {ct_round, {-3, 0, 5}}, {ct_relu, {0, 0, 5}},
        };
        for (auto& c : cases) {
            H y = call(c.fn, i);
            EXPECT_EQ(dtype(y), CT_INT32);
            EXPECT_TRUE(allclose(y, c.expected));
        }
        H u = make({0, 7, 255}, {3}, CT_UINT8);
        EXPECT_TRUE(allclose(call(ct_sign, u), {0, 1, 1}));
        EXPECT_TRUE(allclose(call(ct_abs, u), {0, 7, 255}));
        EXPECT_EQ(dtype(call(ct_sign, u)), CT_UINT8);
        // int64 values beyond 2^53 stay exact
        int64_t big[2] = {-(int64_t(1) << 62) - 1, (int64_t(1) << 62) + 1};
        int64_t n2 = 2;
        H b;
        CT_ASSERT_OK(ct_tensor_from_data(big, sizeof big, &n2, 1, CT_INT64, test_device(), b.out()));
        H a = call(ct_abs, b);
        int64_t got[2];
        CT_ASSERT_OK(ct_tensor_copy_to_host(a.get(), got, sizeof got));
        EXPECT_EQ(got[0], (int64_t(1) << 62) + 1);
        EXPECT_EQ(got[1], (int64_t(1) << 62) + 1);
    });
}

TEST(Unary, RoundHalfToEven) {
    for_each_device([&] {
        H x = make({0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, -2.6, 3.5000001}, {9});
        EXPECT_TRUE(allclose(call(ct_round, x), {0, 2, 2, -0.0, -2, -2, 2, -3, 4}));
        H f = make({2.5, -2.5}, {2}, CT_FLOAT32);
        EXPECT_TRUE(allclose(call(ct_round, f), {2, -2}));
        EXPECT_TRUE(allclose(call(ct_floor, x), {0, 1, 2, -1, -2, -3, 2, -3, 3}));
        EXPECT_TRUE(allclose(call(ct_ceil, x), {1, 2, 3, -0.0, -1, -2, 3, -2, 4}));
    });
}

TEST(Unary, SpecialValues) {
    for_each_device([&] {
        const double nan = std::numeric_limits<double>::quiet_NaN(), inf = INFINITY;
        H x = make({nan, -0.0, 0.0, inf, -inf}, {5});
        EXPECT_TRUE(allclose(call(ct_sign, x), {nan, 0, 0, 1, -1}));  // NaN stays NaN (NumPy's rule)
        EXPECT_TRUE(allclose(call(ct_relu, x), {nan, 0, 0, inf, 0}));
        EXPECT_TRUE(allclose(call(ct_sigmoid, x), {nan, 0.5, 0.5, 1, 0}));
        EXPECT_TRUE(allclose(call(ct_tanh, x), {nan, 0, 0, 1, -1}));
        EXPECT_TRUE(allclose(call(ct_abs, x), {nan, 0, 0, inf, inf}));
        EXPECT_TRUE(allclose(call(ct_exp, x), {nan, 1, 1, inf, 0}));
        H neg = make({-1.0, 0.0}, {2});
        EXPECT_TRUE(allclose(call(ct_log, neg), {nan, -inf}));
        EXPECT_TRUE(allclose(call(ct_sqrt, neg), {nan, 0}));
        EXPECT_TRUE(allclose(call(ct_rsqrt, neg), {nan, inf}));
        EXPECT_TRUE(allclose(call(ct_reciprocal, neg), {-1, inf}));
        H nb = call(ct_logical_not, make({0, 2, nan, -0.0}, {4}));
        EXPECT_EQ(dtype(nb), CT_BOOL);
        EXPECT_TRUE(allclose(nb, {1, 0, 0, 1}));  // NaN is truthy, -0 is falsy
        EXPECT_TRUE(allclose(call(ct_logical_not, make({0, 3}, {2}, CT_INT64)), {1, 0}));
    });
}

TEST(Unary, StableActivationsAtExtremes) {
    for_each_device([&] {
        H x = make({-1000, -100, -30, 20, 20.5, 30, 1000}, {7}, CT_FLOAT32);
        std::vector<double> sp = values(call(ct_softplus, x));
        EXPECT_EQ(sp[0], 0.0);
        EXPECT_NEAR(sp[1], std::exp(-100.0), 1e-45);
        EXPECT_NEAR(sp[2], std::exp(-30.0), 1e-18);
        EXPECT_NEAR(sp[3], std::log1p(std::exp(20.0)), 1e-5);
        EXPECT_EQ(sp[4], 20.5);  // above the threshold 20 softplus returns x
        EXPECT_EQ(sp[6], 1000.0);
        std::vector<double> sg = values(call(ct_sigmoid, x));
        EXPECT_EQ(sg[0], 0.0);
        EXPECT_EQ(sg[6], 1.0);
        std::vector<double> si = values(call(ct_silu, x));
        EXPECT_FALSE(std::isnan(si[0]));
        EXPECT_EQ(si[6], 1000.0);
        H g = make({1.0, -1.0, 0.0}, {3});
        EXPECT_TRUE(allclose(call(ct_gelu, g), {0.8413447460685429, -0.15865525393145707, 0}, 1e-15));
    });
}

TEST(Unary, PowScalar) {
    for_each_device([&] {
        H x = make({-2, 0, 0.5, 3}, {4});
        auto powed = [&](const H& t, double e) {
            H y;
            ok(ct_pow_scalar(t.get(), e, y.out()));
            return y;
        };
        EXPECT_TRUE(allclose(powed(x, 2), {4, 0, 0.25, 9}));
        EXPECT_TRUE(allclose(powed(x, 3), {-8, 0, 0.125, 27}));
        EXPECT_TRUE(allclose(powed(x, 0), {1, 1, 1, 1}));
        EXPECT_TRUE(allclose(powed(x, 1), {-2, 0, 0.5, 3}));
        EXPECT_TRUE(allclose(powed(x, -1), {-0.5, INFINITY, 2, 1.0 / 3}));
        EXPECT_TRUE(allclose(powed(x, 0.5), {NAN, 0, std::sqrt(0.5), std::sqrt(3.0)}));
        EXPECT_TRUE(allclose(powed(x, 1.7), {NAN, 0, std::pow(0.5, 1.7), std::pow(3.0, 1.7)}));
        EXPECT_TRUE(allclose(powed(x, -2.5), {NAN, INFINITY, std::pow(0.5, -2.5), std::pow(3.0, -2.5)}));
        H i = make({2, 3}, {2}, CT_INT64);
        H pi = powed(i, 2.0);
        EXPECT_EQ(dtype(pi), CT_FLOAT32);  // int ** float -> float32 like PyTorch
        EXPECT_TRUE(allclose(pi, {4, 9}));
        EXPECT_EQ(dtype(powed(make({1}, {1}, CT_FLOAT32), 2.0)), CT_FLOAT32);
        H y;
        CT_EXPECT_ERR(ct_pow_scalar(nullptr, 2.0, y.out()), CT_ERR_INVALID_HANDLE, "pow_scalar");
    });
}

TEST(Unary, PowScalarGradients) {
    for_each_device([&] {
        for (double e : {2.0, 3.0, 0.5, -1.0, 1.7, -2.5, 1.0}) {
            SCOPED_TRACE(e);
            H x = randt({2, 3}, 21, true, 0.5, 2.0);
            EXPECT_TRUE(gradcheck([e](const std::vector<H>& in) {
                H y;
                ok(ct_pow_scalar(in[0].get(), e, y.out()));
                return y;
            }, {x}));
        }
        // exponent 0: zero gradient, also at x = 0 (no 0 * 0^-1 = NaN)
        H x = make({0.0, 2.0}, {2}, CT_FLOAT64, true);
        H y, l, g;
        CT_ASSERT_OK(ct_pow_scalar(x.get(), 0.0, y.out()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0, 0}));
    });
}

TEST(Unary, Clamp) {
    for_each_device([&] {
        H x = make({-2, -0.5, 0.5, 2, NAN}, {5});
        auto clamped = [](const H& t, double lo, int has_lo, double hi, int has_hi) {
            H y;
            ok(ct_clamp(t.get(), lo, has_lo, hi, has_hi, y.out()));
            return y;
        };
        EXPECT_TRUE(allclose(clamped(x, -1, 1, 1, 1), {-1, -0.5, 0.5, 1, NAN}));
        EXPECT_TRUE(allclose(clamped(x, 0, 1, 0, 0), {0, 0, 0.5, 2, NAN}));
        EXPECT_TRUE(allclose(clamped(x, 0, 0, 0, 1), {-2, -0.5, 0, 0, NAN}));
        EXPECT_TRUE(allclose(clamped(x, 1, 1, -1, 1), {-1, -1, -1, -1, NAN}));  // min > max: max wins
        EXPECT_TRUE(allclose(clamped(x, NAN, 1, 1, 1), {NAN, NAN, NAN, NAN, NAN}));
        H i = make({-5, 0, 5}, {3}, CT_INT64);
        H ci = clamped(i, -1, 1, 3, 1);
        EXPECT_EQ(dtype(ci), CT_INT64);
        EXPECT_TRUE(allclose(ci, {-1, 0, 3}));
        H cf = clamped(i, -0.5, 1, 0, 0);  // a fractional bound promotes like a Python float
        EXPECT_EQ(dtype(cf), CT_FLOAT32);
        EXPECT_TRUE(allclose(cf, {-0.5, 0, 5}));
        H u = make({0, 100, 250}, {3}, CT_UINT8);
        EXPECT_TRUE(allclose(clamped(u, -10, 1, 300, 1), {0, 100, 250}));  // bounds outside the range saturate
        EXPECT_TRUE(allclose(clamped(u, 50, 1, 200, 1), {50, 100, 200}));
        int64_t big = (int64_t(1) << 62) + 1, n1 = 1;
        H b, cb;
        CT_ASSERT_OK(ct_tensor_from_data(&big, sizeof big, &n1, 1, CT_INT64, test_device(), b.out()));
        CT_ASSERT_OK(ct_clamp(b.get(), 0, 1, 0, 0, cb.out()));
        int64_t got = 0;
        CT_ASSERT_OK(ct_tensor_item_int64(cb.get(), &got));
        EXPECT_EQ(got, big);
        H y;
        CT_EXPECT_ERR(ct_clamp(x.get(), 0, 0, 0, 0, y.out()), CT_ERR_INVALID_ARGUMENT, "at least one");
        CT_EXPECT_ERR(ct_clamp(make({1}, {1}, CT_BOOL).get(), 0, 1, 1, 1, y.out()), CT_ERR_DTYPE, "bool");
    });
}

TEST(Unary, ClampGradient) {
    for_each_device([&] {
        H x = make({-2, -0.7, 0.3, 0.9, 2}, {5}, CT_FLOAT64, true);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H y;
            ok(ct_clamp(in[0].get(), -1, 1, 1, 1, y.out()));
            return y;
        }, {x}));
        H y, l, g;
        CT_ASSERT_OK(ct_clamp(x.get(), -1, 1, 1, 1, y.out()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0, 1, 1, 1, 0}));
    });
}

TEST(Unary, GradcheckEveryDifferentiableOp) {
    for_each_device([&] {
        for (const Case& c : kFloatCases) {
            SCOPED_TRACE(c.name);
            H x = randt({2, 3}, 17, true, c.lo, c.hi);
            UnaryFn fn = c.fn;
            EXPECT_TRUE(gradcheck([fn](const std::vector<H>& in) { return call(fn, in[0]); }, {x}));
        }
        H x = randt({4}, 18, true, -2, 2);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return call(ct_round, in[0]); }, {x}));
        // softplus above its threshold: gradient 1
        H big = randt({3}, 19, true, 21, 25);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return call(ct_softplus, in[0]); }, {big}));
    });
}

// relu's backward is torch 1.13's threshold_backward (values from torch): 0 where relu(x) <= 0 even for an inf
// or NaN incoming gradient, the gradient itself where x is NaN. Both forms agree: the one-pass CPU kernel (a
// plain backward) and the differentiable masked_fill (an incoming gradient that requires grad, create_graph).
TEST(Unary, ReluBackwardIsThresholdBackward) {
    const double inf = INFINITY, nan = NAN;
    for_each_device([&] {
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32})
            for (int graph = 0; graph < 2; ++graph) {
                SCOPED_TRACE(std::string(dt == CT_FLOAT32 ? "f32" : "f64") + (graph ? " create_graph" : ""));
                H x = make({-1, 0, 2, nan, -0.5, 3}, {6}, dt, true);
                H go = make({inf, nan, 5, 7, -2, inf}, {6}, dt, graph == 1);
                H y = call(ct_relu, x), gx;
                ct_tensor yh = y.get(), goh = go.get(), xh = x.get();
                CT_ASSERT_OK(ct_autograd_grad(&yh, 1, &goh, &xh, 1, 0, graph, 0, gx.out()));
                std::vector<double> got = values(gx);
                const double want[6] = {0, 0, 5, 7, 0, inf};
                for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], want[i]) << i;
                EXPECT_FALSE(std::signbit(got[4]));  // +0 where torch selects 0, not -2 * 0
            }
    });
}

TEST(Unary, GradgradcheckSelectedOps) {
    struct { const char* name; UnaryFn fn; double lo, hi; } cases[] = {
        {"exp", ct_exp, -1, 1},         {"tanh", ct_tanh, -2, 2},   {"sigmoid", ct_sigmoid, -3, 3},
        {"gelu", ct_gelu, -3, 3},       {"silu", ct_silu, -3, 3},   {"softplus", ct_softplus, -3, 3},
        {"log", ct_log, 0.5, 2},        {"sqrt", ct_sqrt, 0.5, 2},  {"rsqrt", ct_rsqrt, 0.5, 2},
        {"sin", ct_sin, -2, 2},         {"tan", ct_tan, -1, 1},     {"reciprocal", ct_reciprocal, 0.5, 2},
    };
    for (auto& c : cases) {
        SCOPED_TRACE(c.name);
        H x = randt({5}, 23, true, c.lo, c.hi);
        UnaryFn fn = c.fn;
        EXPECT_TRUE(gradgradcheck([fn](const std::vector<H>& in) { return call(fn, in[0]); }, {x}));
    }
    for (double e : {2.0, 3.0, 0.5, -1.5}) {
        SCOPED_TRACE(e);
        H x = randt({4}, 29, true, 0.5, 2.0);
        EXPECT_TRUE(gradgradcheck([e](const std::vector<H>& in) {
            H y;
            ok(ct_pow_scalar(in[0].get(), e, y.out()));
            return y;
        }, {x}));
    }
}

TEST(Unary, Float32GradientsKeepDtype) {
    for_each_device([&] {
        H x = make({0.5, 1.0}, {2}, CT_FLOAT32, true);
        H y = call(ct_gelu, x), l, g;
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_EQ(dtype(g), CT_FLOAT32);
        auto dgelu = [](double v) { return 0.5 * (1 + std::erf(v / std::sqrt(2.0))) + v * std::exp(-v * v / 2) / std::sqrt(2 * M_PI); };
        EXPECT_TRUE(allclose(g, {dgelu(0.5), dgelu(1.0)}, 1e-6, 1e-5));
    });
}

TEST(Unary, GradFnNamesAndNoGradForIntegers) {
    H x = make({0.5}, {1}, CT_FLOAT64, true);
    struct { UnaryFn fn; const char* name; } cases[] = {
        {ct_tanh, "TanhBackward"}, {ct_sigmoid, "SigmoidBackward"}, {ct_gelu, "GeluBackward"},
        {ct_abs, "AbsBackward"},   {ct_sqrt, "SqrtBackward"},       {ct_floor, "FloorBackward"},
    };
    for (auto& c : cases) {
        H y = call(c.fn, x);
        char buf[64];
        CT_ASSERT_OK(ct_tensor_grad_fn_name(y.get(), buf, sizeof buf, nullptr));
        EXPECT_STREQ(buf, c.name);
    }
    int32_t rg = 1;
    H ln = call(ct_logical_not, x);
    CT_ASSERT_OK(ct_tensor_requires_grad(ln.get(), &rg));
    EXPECT_EQ(rg, 0);
}

TEST(Unary, ZeroDimAndEmpty) {
    for_each_device([&] {
        H s;
        CT_ASSERT_OK(ct_scalar_tensor(0.25, CT_FLOAT64, test_device(), s.out()));
        H y = call(ct_sqrt, s);
        EXPECT_EQ(shape(y), Shape{});
        EXPECT_EQ(scalar(y), 0.5);
        int64_t dims[2] = {0, 3};
        H e;
        CT_ASSERT_OK(ct_zeros(dims, 2, CT_FLOAT32, test_device(), e.out()));
        for (UnaryFn fn : {ct_exp, ct_neg, ct_gelu, ct_logical_not, ct_round}) {
            H r = call(fn, e);
            EXPECT_EQ(shape(r), (Shape{0, 3}));
        }
    });
}

TEST(Unary, Errors) {
    H y;
    CT_EXPECT_ERR(ct_exp(nullptr, y.out()), CT_ERR_INVALID_HANDLE, "exp");
    H x = make({1}, {1});
    CT_EXPECT_ERR(ct_sigmoid(x.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "sigmoid");
    H b = make({1, 0}, {2}, CT_BOOL);
    CT_EXPECT_ERR(ct_neg(b.get(), y.out()), CT_ERR_DTYPE, "logical_not");
    CT_EXPECT_ERR(ct_relu(b.get(), y.out()), CT_ERR_DTYPE, "relu");
    ct_tensor released = nullptr;
    CT_ASSERT_OK(ct_clone(x.get(), &released));
    ct_tensor_release(released);
    CT_EXPECT_ERR(ct_tanh(released, y.out()), CT_ERR_INVALID_HANDLE, "tanh");
    EXPECT_FALSE(y);
}

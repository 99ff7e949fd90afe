// test_unary_math.cpp - the unary math ops of issue 14 through the C API: values against closed forms and
// independent references (integrals, identities), domain edges, dtype rules, errors, and gradchecks /
// gradgradchecks in float64 on every device (the emulated CUDA backend included).
#include <cmath>
#include <complex>
#include "ct_test.h"

using namespace ctt;

namespace {

using UnaryFn = ct_status (*)(ct_tensor, ct_tensor*);

H call(UnaryFn fn, const H& x) {
    H out;
    ok(fn(x.get(), out.out()));
    return out;
}

H logit(const H& x, double eps) {
    H out;
    ok(ct_logit(x.get(), eps, out.out()));
    return out;
}

// I0(x) = (1/pi) int_0^pi exp(x cos t) dt by composite Simpson (independent of the series in the kernel).
double ref_i0(double x) {
    const int n = 2000;
    double h = M_PI / n, s = std::exp(x) + std::exp(-x);
    for (int k = 1; k < n; ++k) s += (k % 2 ? 4 : 2) * std::exp(x * std::cos(k * h));
    return s * h / 3 / M_PI;
}
// digamma as the derivative of std::lgamma (central difference, step 1e-5 for a 1e-9 reference).
double ref_digamma(double x) { return (std::lgamma(x + 1e-5) - std::lgamma(x - 1e-5)) / 2e-5; }
double ref_sinc(double x) { return x == 0 ? 1.0 : std::sin(M_PI * x) / (M_PI * x); }

struct Case {
    const char* name;
    UnaryFn fn;
    double (*ref)(double);
    double lo, hi;  // inside the domain, away from poles
    double tol;     // of the reference
};

const Case kCases[] = {
    {"asin", ct_asin, [](double x) { return std::atan2(x, std::sqrt(1 - x * x)); }, -0.9, 0.9, 1e-12},
    {"acos", ct_acos, [](double x) { return std::atan2(std::sqrt(1 - x * x), x); }, -0.9, 0.9, 1e-12},
    {"atan", ct_atan, [](double x) { return std::asin(x / std::sqrt(1 + x * x)); }, -3, 3, 1e-12},
    {"sinh", ct_sinh, [](double x) { return (std::exp(x) - std::exp(-x)) / 2; }, -2, 2, 1e-12},
    {"cosh", ct_cosh, [](double x) { return (std::exp(x) + std::exp(-x)) / 2; }, -2, 2, 1e-12},
    {"asinh", ct_asinh, [](double x) { return std::log(x + std::sqrt(x * x + 1)); }, -3, 3, 1e-12},
    {"acosh", ct_acosh, [](double x) { return std::log(x + std::sqrt(x * x - 1)); }, 1.2, 4, 1e-12},
    {"atanh", ct_atanh, [](double x) { return 0.5 * std::log((1 + x) / (1 - x)); }, -0.9, 0.9, 1e-12},
    {"erf", ct_erf, [](double x) { return std::erf(x); }, -2, 2, 1e-14},
    {"erfc", ct_erfc, [](double x) { return 1.0 - std::erf(x); }, -2, 2, 1e-14},
    {"lgamma", ct_lgamma, [](double x) { return std::log(std::fabs(std::tgamma(x))); }, 0.2, 5, 1e-12},
    {"digamma", ct_digamma, ref_digamma, 0.3, 6, 1e-8},
    {"sinc", ct_sinc, ref_sinc, -2.5, 2.5, 1e-12},
    {"deg2rad", ct_deg2rad, [](double x) { return x * M_PI / 180; }, -400, 400, 1e-12},
    {"rad2deg", ct_rad2deg, [](double x) { return x * 180 / M_PI; }, -7, 7, 1e-12},
    {"i0", ct_i0, ref_i0, -5, 5, 1e-12},
};

}  // namespace

TEST(UnaryMath, ValuesFloat64AndFloat32) {
    for_each_device([&] {
        for (const Case& c : kCases) {
            SCOPED_TRACE(c.name);
            std::vector<double> v = rand_values(12, 7, c.lo, c.hi), r;
            for (double x : v) r.push_back(c.ref(x));
            H x64 = make(v, {3, 4}), y64 = call(c.fn, x64);
            EXPECT_EQ(dtype(y64), CT_FLOAT64);
            EXPECT_TRUE(allclose(y64, r, c.tol, c.tol));
            H y32 = call(c.fn, make(v, {3, 4}, CT_FLOAT32));
            EXPECT_EQ(dtype(y32), CT_FLOAT32);
            EXPECT_TRUE(allclose(y32, r, 1e-4, 1e-5));
            H yi = call(c.fn, make({1, 2}, {2}, CT_INT32));  // integers promote to float32
            EXPECT_EQ(dtype(yi), CT_FLOAT32);
            EXPECT_TRUE(allclose(yi, {c.ref(1), c.ref(2)}, 1e-5, 1e-5));
        }
    });
}

TEST(UnaryMath, Gradients) {
    for_each_device([&] {
        for (const Case& c : kCases) {
            SCOPED_TRACE(c.name);
            H x = randt({2, 3}, 11, true, c.lo, c.hi);
            auto f = [&c](const std::vector<H>& in) { return call(c.fn, in[0]); };
            EXPECT_TRUE(gradcheck(f, {x}));
            // deg2rad / rad2deg: a constant first derivative, nothing to differentiate twice
            if (c.fn != ct_deg2rad && c.fn != ct_rad2deg) EXPECT_TRUE(gradgradcheck(f, {x}));
        }
        for (double eps : {-1.0, 0.2}) {
            SCOPED_TRACE(eps);
            H x = randt({2, 3}, 12, true, 0.05, 0.95);
            auto f = [eps](const std::vector<H>& in) { return logit(in[0], eps); };
            EXPECT_TRUE(gradcheck(f, {x}));
            EXPECT_TRUE(gradgradcheck(f, {x}));
        }
        H y = randt({5}, 13, true, -0.9, 0.9);
        auto f = [](const std::vector<H>& in) { return call(ct_erfinv, in[0]); };
        EXPECT_TRUE(gradcheck(f, {y}));
        EXPECT_TRUE(gradgradcheck(f, {y}));
    });
}

TEST(UnaryMath, ErfinvInvertsErf) {
    for_each_device([&] {
        std::vector<double> v = {-0.999999, -0.9, -0.5, -1e-8, 0.1, 0.49, 0.5, 0.75, 0.999, 1 - 1e-12};
        std::vector<double> y = values(call(ct_erfinv, make(v, {(int64_t)v.size()})));
        for (size_t i = 0; i < v.size(); ++i) {
            // erfc near 1 checks the tail to relative precision
            if (v[i] > 0.5) EXPECT_NEAR(std::erfc(y[i]), 1 - v[i], 1e-14 + 1e-13 * (1 - v[i])) << v[i];
            else EXPECT_NEAR(std::erf(y[i]), v[i], 1e-15) << v[i];
        }
        std::vector<double> e = values(call(ct_erfinv, make({1, -1, 1.5, -2, 0, NAN}, {6})));
        EXPECT_EQ(e[0], INFINITY);
        EXPECT_EQ(e[1], -INFINITY);
        EXPECT_TRUE(std::isnan(e[2]) && std::isnan(e[3]) && std::isnan(e[5]));
        EXPECT_EQ(e[4], 0.0);
    });
}

TEST(UnaryMath, DomainEdges) {
    for_each_device([&] {
        std::vector<double> a = values(call(ct_acosh, make({0.5, 1.0}, {2})));
        EXPECT_TRUE(std::isnan(a[0]));
        EXPECT_EQ(a[1], 0.0);
        std::vector<double> t = values(call(ct_atanh, make({1, -1, 2}, {3})));
        EXPECT_EQ(t[0], INFINITY);
        EXPECT_EQ(t[1], -INFINITY);
        EXPECT_TRUE(std::isnan(t[2]));
        EXPECT_TRUE(std::isnan(values(call(ct_asin, make({1.5}, {1})))[0]));
        // lgamma: +inf at non-positive integers; digamma: NaN at negative integers, -inf at +0, +inf at -0
        std::vector<double> lg = values(call(ct_lgamma, make({0, -1, -2, -2.5}, {4})));
        EXPECT_EQ(lg[0], INFINITY);
        EXPECT_EQ(lg[1], INFINITY);
        EXPECT_EQ(lg[2], INFINITY);
        EXPECT_NEAR(lg[3], std::log(std::fabs(std::tgamma(-2.5))), 1e-12);
        std::vector<double> dg = values(call(ct_digamma, make({-1, -2, 0.0, -0.0, -1.5, 1, 0.5, 1e6}, {8})));
        EXPECT_TRUE(std::isnan(dg[0]) && std::isnan(dg[1]));
        EXPECT_EQ(dg[2], -INFINITY);
        EXPECT_EQ(dg[3], INFINITY);
        EXPECT_NEAR(dg[4], 0.7031566406452432, 1e-13);  // psi(-1.5) = psi(2.5) - pi cot(-1.5 pi)
        EXPECT_NEAR(dg[5], -0.5772156649015329, 1e-14);
        EXPECT_NEAR(dg[6], -0.5772156649015329 - 2 * std::log(2.0), 1e-14);
        EXPECT_NEAR(dg[7], std::log(1e6) - 0.5e-6, 1e-12);
        // digamma's derivative far below zero: trigamma by reflection (no sum over 1e15 terms), finite and fast
        H far = make({-1e15 + 0.5, -2.5}, {2}, CT_FLOAT64, true), dfar, lfar, gfar;
        CT_ASSERT_OK(ct_digamma(far.get(), dfar.out()));
        CT_ASSERT_OK(ct_sum(dfar.get(), nullptr, 0, 0, lfar.out()));
        CT_ASSERT_OK(ct_backward(lfar.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(far.get(), gfar.out()));
        std::vector<double> gv = values(gfar);
        EXPECT_NEAR(gv[0], M_PI * M_PI, 1e-6);  // pi^2 / sin^2(pi / 2) - psi1(1e15 + 0.5) ~ pi^2 - 1e-15
        EXPECT_NEAR(gv[1], 9.5392466449891237, 1e-12);  // psi1(-2.5)
        // logit: without eps NaN outside [0, 1] and +-inf at the ends; eps clamps
        std::vector<double> l = values(logit(make({-0.5, 0, 0.5, 1, 1.5}, {5}), -1.0));
        EXPECT_TRUE(std::isnan(l[0]) && std::isnan(l[4]));
        EXPECT_EQ(l[1], -INFINITY);
        EXPECT_EQ(l[2], 0.0);
        EXPECT_EQ(l[3], INFINITY);
        double l9 = std::log(0.9 / 0.1);
        EXPECT_TRUE(allclose(logit(make({-0.5, 0, 0.5, 1, 1.5}, {5}), 0.1), {-l9, -l9, 0, l9, l9}, 1e-12));
        // large i0 from the asymptotic branch, against the integral
        EXPECT_TRUE(allclose(call(ct_i0, make({-40, 31, 100}, {3})), {ref_i0(-40), ref_i0(31), ref_i0(100)}, 0, 1e-12));
        EXPECT_EQ(values(call(ct_i0, make({800}, {1})))[0], INFINITY);
        EXPECT_EQ(values(call(ct_sinc, make({0}, {1})))[0], 1.0);
    });
}

TEST(UnaryMath, LogitGradientEdges) {
    // torch's logit_backward: 0 outside [eps, 1 - eps] with eps, NaN outside [0, 1] without
    for (double eps : {-1.0, 0.1}) {
        H x = make({-0.5, 0.05, 0.5, 1.5}, {4}, CT_FLOAT64, true), y, l, g;
        CT_ASSERT_OK(ct_logit(x.get(), eps, y.out()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        std::vector<double> gv = values(g);
        if (eps < 0) {
            EXPECT_TRUE(std::isnan(gv[0]) && std::isnan(gv[3]));
            EXPECT_NEAR(gv[1], 1 / (0.05 * 0.95), 1e-12);
        } else {
            EXPECT_EQ(gv[0], 0.0);
            EXPECT_EQ(gv[1], 0.0);
            EXPECT_EQ(gv[3], 0.0);
        }
        EXPECT_NEAR(gv[2], 4.0, 1e-12);
    }
    H y;
    CT_EXPECT_ERR(ct_logit(make({0.5}, {1}).get(), 0.7, y.out()), CT_ERR_INVALID_ARGUMENT, "logit");
    CT_EXPECT_ERR(ct_logit(make({0.5}, {1}).get(), NAN, y.out()), CT_ERR_INVALID_ARGUMENT, "logit");
}

TEST(UnaryMath, BoolResultsAndSigns) {
    for_each_device([&] {
        H x = make({-2, -0.0, 0.0, 3, INFINITY, -INFINITY, NAN}, {7});
        H sb = call(ct_signbit, x), pi = call(ct_isposinf, x), ni = call(ct_isneginf, x);
        EXPECT_EQ(dtype(sb), CT_BOOL);
        EXPECT_EQ(dtype(pi), CT_BOOL);
        EXPECT_TRUE(allclose(sb, {1, 1, 0, 0, 0, 1, 0}));
        EXPECT_TRUE(allclose(pi, {0, 0, 0, 0, 1, 0, 0}));
        EXPECT_TRUE(allclose(ni, {0, 0, 0, 0, 0, 1, 0}));
        EXPECT_TRUE(allclose(call(ct_signbit, make({-3, 0, 4}, {3}, CT_INT64)), {1, 0, 0}));
        EXPECT_TRUE(allclose(call(ct_signbit, make({-3, 0, 4}, {3}, CT_FLOAT16)), {1, 0, 0}));
        EXPECT_TRUE(allclose(call(ct_isposinf, make({3}, {1}, CT_INT32)), {0}));
        H s = call(ct_sgn, make({-3, 0, 4}, {3}, CT_INT64));
        EXPECT_EQ(dtype(s), CT_INT64);
        EXPECT_TRUE(allclose(s, {-1, 0, 1}));
    });
}

TEST(UnaryMath, ComplexWhereTorchComputesIt) {
    H z, zi;
    double re[3] = {0.5, -1.5, 0.0}, im[3] = {0.3, 2.0, 0.0};
    H r = make({re[0], re[1], re[2]}, {3}), i = make({im[0], im[1], im[2]}, {3});
    CT_ASSERT_OK(ct_complex(r.get(), i.get(), z.out()));
    struct CCase {
        UnaryFn fn;
        std::complex<double> (*ref)(std::complex<double>);
    };
    const CCase cases[] = {
        {ct_asin, [](std::complex<double> v) { return std::asin(v); }},
        {ct_acos, [](std::complex<double> v) { return std::acos(v); }},
        {ct_atan, [](std::complex<double> v) { return std::atan(v); }},
        {ct_sinh, [](std::complex<double> v) { return std::sinh(v); }},
        {ct_cosh, [](std::complex<double> v) { return std::cosh(v); }},
        {ct_asinh, [](std::complex<double> v) { return std::asinh(v); }},
        {ct_acosh, [](std::complex<double> v) { return std::acosh(v); }},
        {ct_atanh, [](std::complex<double> v) { return std::atanh(v); }},
        {ct_sgn, [](std::complex<double> v) { return v == 0.0 ? v : v / std::abs(v); }},
        {ct_sinc, [](std::complex<double> v) { return v == 0.0 ? 1.0 : std::sin(M_PI * v) / (M_PI * v); }},
    };
    for (const CCase& c : cases) {
        H y = call(c.fn, z), yr, yi;
        EXPECT_EQ(dtype(y), CT_COMPLEX128);
        CT_ASSERT_OK(ct_real(y.get(), yr.out()));
        CT_ASSERT_OK(ct_imag(y.get(), yi.out()));
        std::vector<double> vr = values(yr), vi = values(yi);
        for (int k = 0; k < 3; ++k) {
            std::complex<double> e = c.ref({re[k], im[k]});
            EXPECT_NEAR(vr[k], e.real(), 1e-12);
            EXPECT_NEAR(vi[k], e.imag(), 1e-12);
        }
    }
    H y;
    for (UnaryFn fn : {ct_erf, ct_lgamma, ct_digamma, ct_i0, ct_deg2rad, ct_signbit, ct_isposinf})
        CT_EXPECT_ERR(fn(z.get(), y.out()), CT_ERR_NOT_SUPPORTED, "complex128");
}

TEST(UnaryMath, PositiveIsTheSameTensor) {
    H x = make({1, -2}, {2}, CT_FLOAT64, true), p;
    CT_ASSERT_OK(ct_positive(x.get(), p.out()));
    H bad;
    CT_EXPECT_ERR(ct_positive(make({1}, {1}, CT_BOOL).get(), bad.out()), CT_ERR_DTYPE, "positive");
    void *dx = nullptr, *dp = nullptr;
    CT_ASSERT_OK(ct_tensor_data_ptr(x.get(), &dx));
    CT_ASSERT_OK(ct_tensor_data_ptr(p.get(), &dp));
    EXPECT_EQ(dx, dp);  // an alias, as torch's positive returns self
    H l, g;
    CT_ASSERT_OK(ct_sum(p.get(), nullptr, 0, 0, l.out()));
    CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
    EXPECT_TRUE(allclose(g, {1, 1}));
}

TEST(UnaryMath, EmptyZeroDimHalfAndErrors) {
    for_each_device([&] {
        for (UnaryFn fn : {ct_asin, ct_erfinv, ct_digamma, ct_i0, ct_sinc, ct_signbit, ct_deg2rad, ct_sgn}) {
            H e = call(fn, make({}, {0, 3}));
            EXPECT_EQ(shape(e), (Shape{0, 3}));
            H s = call(fn, make({0.25}, {}));
            EXPECT_EQ(shape(s), (Shape{}));
            H h = call(fn, make({0.25, -0.5}, {2}, CT_BFLOAT16));
            H f = call(fn, make({0.25, -0.5}, {2}, CT_FLOAT32));
            std::vector<double> hv = values(h), fv = values(f);
            for (int k = 0; k < 2; ++k) EXPECT_NEAR(hv[k], fv[k], 1e-2 * (1 + std::fabs(fv[k])));
        }
        H y;
        CT_EXPECT_ERR(ct_erf(nullptr, y.out()), CT_ERR_INVALID_HANDLE, "erf");
        CT_EXPECT_ERR(ct_i0(make({1}, {1}).get(), nullptr), CT_ERR_INVALID_ARGUMENT, "i0");
    });
}

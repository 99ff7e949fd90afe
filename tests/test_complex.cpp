// test_complex.cpp - complex64 / complex128 through the C API: casts with every dtype, promotion rules, printing,
// item, creation, random, DLPack, safetensors' refusal, elementwise / reduction / matmul values against
// std::complex, gradients against central differences on the real and imaginary parts (torch's convention
// dL/dRe + i dL/dIm), and the clean refusal of ops without a complex kernel.
#include <complex>
#include <cstring>
#include <dlpack/dlpack.h>
#include "ct_test.h"

using namespace ctt;
using cd = std::complex<double>;

namespace {

// A complex tensor of dtype dt (CT_COMPLEX64/128) from interleaved values.
H cmake(const std::vector<cd>& v, const Shape& shape, ct_dtype dt = CT_COMPLEX128, bool requires_grad = false) {
    std::vector<double> re, im;
    for (cd z : v) re.push_back(z.real()), im.push_back(z.imag());
    H r = make(re, shape), i = make(im, shape), out;
    ok(ct_complex(r.get(), i.get(), out.out()));
    if (dt == CT_COMPLEX64) {
        H o;
        ok(ct_to_dtype(out.get(), dt, o.out()));
        out = o;
    }
    if (requires_grad) ok(ct_tensor_set_requires_grad(out.get(), 1));
    return out;
}

// The elements of a complex tensor, read through view_as_real (contiguous pairs).
std::vector<cd> cvalues(const H& t) {
    H v;
    ok(ct_view_as_real(t.get(), v.out()));
    std::vector<double> p = values(v);
    std::vector<cd> out;
    for (size_t i = 0; i + 1 < p.size(); i += 2) out.emplace_back(p[i], p[i + 1]);
    return out;
}

std::string repr(const H& t) {
    char buf[4096];
    int64_t len = 0;
    ok(ct_tensor_to_string(t.get(), buf, sizeof buf, &len));
    return std::string(buf, (size_t)std::min<int64_t>(len, sizeof buf - 1));
}

void expect_near(const std::vector<cd>& got, const std::vector<cd>& want, double tol) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_LE(std::abs(got[i] - want[i]), tol * (1 + std::abs(want[i]))) << i << ": " << got[i] << " vs " << want[i];
}

}  // namespace

TEST(Complex, DTypesSizesNamesAndPromotion) {
    EXPECT_EQ(ct_dtype_size(CT_COMPLEX64), 8);
    EXPECT_EQ(ct_dtype_size(CT_COMPLEX128), 16);
    EXPECT_STREQ(ct_dtype_name(CT_COMPLEX64), "complex64");
    EXPECT_STREQ(ct_dtype_name(CT_COMPLEX128), "complex128");
    // torch 1.13: complex64 + float64 = complex128, int + complex64 = complex64 (bindings test all 144 pairs)
    H c64 = cmake({{1, 2}}, {1}, CT_COMPLEX64), f64 = make({1}, {1}, CT_FLOAT64), i32 = make({3}, {1}, CT_INT32), out;
    CT_ASSERT_OK(ct_add(c64.get(), f64.get(), 1.0, out.out()));
    EXPECT_EQ(dtype(out), CT_COMPLEX128);
    CT_ASSERT_OK(ct_add(i32.get(), c64.get(), 1.0, out.out()));
    EXPECT_EQ(dtype(out), CT_COMPLEX64);
    expect_near(cvalues(out), {{4, 2}}, 1e-7);
    // a 0-d complex tensor over a float64 tensor with dims keeps float64's precision: complex128
    H z0 = cmake({{0, 1}}, {}, CT_COMPLEX64), f2 = make({1, 2}, {2}, CT_FLOAT64);
    CT_ASSERT_OK(ct_mul(f2.get(), z0.get(), out.out()));
    EXPECT_EQ(dtype(out), CT_COMPLEX128);
    expect_near(cvalues(out), {{0, 1}, {0, 2}}, 1e-12);
}

TEST(Complex, CastsWithEveryDtype) {
    const ct_dtype all[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL,
                            CT_FLOAT16, CT_BFLOAT16, CT_INT8, CT_INT16, CT_COMPLEX64, CT_COMPLEX128};
    H z = cmake({{1.5, -2}, {0, 0}, {0, 3}, {-7, 0.25}}, {4});
    for (ct_dtype d : all) {
        H to, back;
        CT_ASSERT_OK(ct_to_dtype(z.get(), d, to.out()));
        EXPECT_EQ(dtype(to), d);
        if (d == CT_COMPLEX64 || d == CT_COMPLEX128) {
            expect_near(cvalues(to), {{1.5, -2}, {0, 0}, {0, 3}, {-7, 0.25}}, 1e-7);
            continue;
        }
        std::vector<double> v = values(to);
        if (d == CT_BOOL) {
            EXPECT_EQ(v, (std::vector<double>{1, 0, 1, 1}));  // nonzero, imaginary part included
        } else if (d == CT_UINT8) {
            EXPECT_EQ(v[0], 1);  // the real part, truncated (uint8 of -7 saturates as other floats do)
        } else {
            bool integral = d == CT_INT32 || d == CT_INT64 || d == CT_INT8 || d == CT_INT16;
            EXPECT_EQ(v, (std::vector<double>{integral ? 1.0 : 1.5, 0, 0, -7}));  // the real part
        }
        // real -> complex: imaginary part 0
        CT_ASSERT_OK(ct_to_dtype(to.get(), CT_COMPLEX128, back.out()));
        for (cd c : cvalues(back)) EXPECT_EQ(c.imag(), 0.0);
    }
}

TEST(Complex, PrintingItemCreationRandom) {
    H z = cmake({{1, 2}, {-3.5, -0.25}}, {2}, CT_COMPLEX64);
    EXPECT_EQ(repr(z), "tensor([ 1.0000+2.0000j, -3.5000-0.2500j])");
    H w = cmake({{1, 2}}, {1}, CT_COMPLEX128);
    EXPECT_EQ(repr(w), "tensor([1.+2.j], dtype=complex128)");
    double re = 0, im = 0, x = 0;
    H s = cmake({{0.5, -4}}, {});
    CT_ASSERT_OK(ct_tensor_item_complex(s.get(), &re, &im));
    EXPECT_EQ(re, 0.5);
    EXPECT_EQ(im, -4);
    CT_EXPECT_ERR(ct_tensor_item(s.get(), &x), CT_ERR_DTYPE, "item_complex");
    CT_EXPECT_ERR(ct_tensor_item_complex(s.get(), nullptr, &im), CT_ERR_INVALID_ARGUMENT, "item_complex");
    int64_t sh[] = {2, 3};
    H f;
    CT_ASSERT_OK(ct_full_complex(sh, 2, 1.25, -2, CT_COMPLEX64, ct_device{CT_DEVICE_CPU, 0}, f.out()));
    for (cd c : cvalues(f)) EXPECT_EQ(c, cd(1.25, -2));
    CT_EXPECT_ERR(ct_full_complex(sh, 2, 1, 0, CT_FLOAT32, ct_device{CT_DEVICE_CPU, 0}, f.out()), CT_ERR_DTYPE,
                  "full_complex");
    H zs, os;
    CT_ASSERT_OK(ct_zeros(sh, 2, CT_COMPLEX128, ct_device{CT_DEVICE_CPU, 0}, zs.out()));
    CT_ASSERT_OK(ct_ones(sh, 2, CT_COMPLEX128, ct_device{CT_DEVICE_CPU, 0}, os.out()));
    for (cd c : cvalues(zs)) EXPECT_EQ(c, cd(0, 0));
    for (cd c : cvalues(os)) EXPECT_EQ(c, cd(1, 0));
    // randn: real and imaginary parts each with variance 1/2
    int64_t big[] = {200000};
    H r;
    CT_ASSERT_OK(ct_randn(big, 1, CT_COMPLEX64, ct_device{CT_DEVICE_CPU, 0}, nullptr, r.out()));
    double sr = 0, si = 0;
    for (cd c : cvalues(r)) sr += c.real() * c.real(), si += c.imag() * c.imag();
    EXPECT_NEAR(sr / 200000, 0.5, 0.01);
    EXPECT_NEAR(si / 200000, 0.5, 0.01);
}

TEST(Complex, PartsViewsConjAnglePolar) {
    H z = cmake({{3, 4}, {-1, 0}, {0, -2}}, {3});
    H re, im, c, a, ab, p;
    CT_ASSERT_OK(ct_real(z.get(), re.out()));
    CT_ASSERT_OK(ct_imag(z.get(), im.out()));
    EXPECT_EQ(values(re), (std::vector<double>{3, -1, 0}));
    EXPECT_EQ(values(im), (std::vector<double>{4, 0, -2}));
    CT_ASSERT_OK(ct_conj(z.get(), c.out()));
    expect_near(cvalues(c), {{3, -4}, {-1, 0}, {0, 2}}, 0);
    CT_ASSERT_OK(ct_angle(z.get(), a.out()));
    EXPECT_NEAR(values(a)[0], std::atan2(4, 3), 1e-15);
    EXPECT_NEAR(values(a)[1], M_PI, 1e-15);
    CT_ASSERT_OK(ct_abs(z.get(), ab.out()));
    EXPECT_EQ(dtype(ab), CT_FLOAT64);
    EXPECT_EQ(values(ab), (std::vector<double>{5, 1, 2}));
    CT_ASSERT_OK(ct_polar(ab.get(), a.get(), p.out()));
    expect_near(cvalues(p), {{3, 4}, {-1, 0}, {0, -2}}, 1e-15);
    // the views share storage: a write through view_as_real shows in z
    H vr;
    CT_ASSERT_OK(ct_view_as_real(z.get(), vr.out()));
    EXPECT_EQ(shape(vr), (Shape{3, 2}));
    H back;
    CT_ASSERT_OK(ct_view_as_complex(vr.get(), back.out()));
    EXPECT_EQ(dtype(back), CT_COMPLEX128);
    CT_EXPECT_ERR(ct_imag(re.get(), im.out()), CT_ERR_DTYPE, "imag");
    H f3 = make({1, 2, 3}, {3});
    CT_EXPECT_ERR(ct_view_as_complex(f3.get(), back.out()), CT_ERR_SHAPE, "view_as_complex");
    H i2 = make({1, 2}, {2}, CT_INT32);
    CT_EXPECT_ERR(ct_view_as_complex(i2.get(), back.out()), CT_ERR_DTYPE, "view_as_complex");
    CT_EXPECT_ERR(ct_view_as_real(f3.get(), back.out()), CT_ERR_DTYPE, "view_as_real");
    CT_EXPECT_ERR(ct_complex(f3.get(), i2.get(), back.out()), CT_ERR_DTYPE, "complex");
}

TEST(Complex, ElementwiseReductionsMatmul) {
    std::vector<cd> av = {{1, 2}, {-0.5, 3}, {2, -1}, {0.25, 0.75}}, bv = {{0.5, -1}, {2, 0.5}, {-1, -1}, {3, 2}};
    for (ct_dtype dt : {CT_COMPLEX64, CT_COMPLEX128}) {
        const double tol = dt == CT_COMPLEX64 ? 2e-6 : 1e-13;
        H a = cmake(av, {2, 2}, dt), b = cmake(bv, {2, 2}, dt), out;
        auto check2 = [&](ct_status st, auto f) {
            ASSERT_EQ(st, CT_OK) << ct_last_error();
            std::vector<cd> want;
            for (size_t i = 0; i < av.size(); ++i) want.push_back(f(av[i], bv[i]));
            expect_near(cvalues(out), want, tol);
        };
        check2(ct_add(a.get(), b.get(), 2.0, out.out()), [](cd x, cd y) { return x + 2.0 * y; });
        check2(ct_sub(a.get(), b.get(), 1.0, out.out()), [](cd x, cd y) { return x - y; });
        check2(ct_mul(a.get(), b.get(), out.out()), [](cd x, cd y) { return x * y; });
        check2(ct_div(a.get(), b.get(), out.out()), [](cd x, cd y) { return x / y; });
        check2(ct_pow(a.get(), b.get(), out.out()), [](cd x, cd y) { return std::pow(x, y); });
        using U = ct_status (*)(ct_tensor, ct_tensor*);
        const std::pair<U, cd (*)(cd)> unary[] = {
            {ct_neg, [](cd x) { return -x; }},         {ct_exp, [](cd x) { return std::exp(x); }},
            {ct_log, [](cd x) { return std::log(x); }}, {ct_sqrt, [](cd x) { return std::sqrt(x); }},
            {ct_sin, [](cd x) { return std::sin(x); }}, {ct_cos, [](cd x) { return std::cos(x); }},
            {ct_tanh, [](cd x) { return std::tanh(x); }}, {ct_reciprocal, [](cd x) { return 1.0 / x; }}};
        for (auto [fn, ref] : unary) {
            CT_ASSERT_OK(fn(a.get(), out.out()));
            EXPECT_EQ(dtype(out), dt);
            std::vector<cd> want;
            for (cd x : av) want.push_back(ref(x));
            expect_near(cvalues(out), want, tol);
        }
        CT_ASSERT_OK(ct_eq(a.get(), a.get(), out.out()));
        EXPECT_EQ(values(out), (std::vector<double>{1, 1, 1, 1}));
        CT_ASSERT_OK(ct_ne(a.get(), b.get(), out.out()));
        EXPECT_EQ(values(out), (std::vector<double>{1, 1, 1, 1}));
        int64_t d1[] = {1};
        CT_ASSERT_OK(ct_sum(a.get(), d1, 1, 0, out.out()));
        expect_near(cvalues(out), {av[0] + av[1], av[2] + av[3]}, tol);
        CT_ASSERT_OK(ct_mean(a.get(), nullptr, 0, 0, out.out()));
        expect_near(cvalues(out), {(av[0] + av[1] + av[2] + av[3]) / 4.0}, tol);
        CT_ASSERT_OK(ct_matmul(a.get(), b.get(), out.out()));
        expect_near(cvalues(out), {av[0] * bv[0] + av[1] * bv[2], av[0] * bv[1] + av[1] * bv[3],
                                   av[2] * bv[0] + av[3] * bv[2], av[2] * bv[1] + av[3] * bv[3]}, tol);
        // dtype-agnostic views and copies
        H t, cl, ct2;
        CT_ASSERT_OK(ct_transpose(a.get(), 0, 1, t.out()));
        CT_ASSERT_OK(ct_contiguous(t.get(), cl.out()));
        expect_near(cvalues(cl), {av[0], av[2], av[1], av[3]}, 0);
        ct_tensor parts[] = {a.get(), b.get()};
        CT_ASSERT_OK(ct_cat(parts, 2, 0, ct2.out()));
        EXPECT_EQ(shape(ct2), (Shape{4, 2}));
        expect_near(cvalues(ct2), {av[0], av[1], av[2], av[3], bv[0], bv[1], bv[2], bv[3]}, 0);
    }
}

namespace {
// loss(z) -> a real 0-d tensor; checks dL/dRe + i dL/dIm from backward against central differences.
void complex_gradcheck(const std::vector<cd>& zv, const Shape& shape, const std::function<H(const H&)>& loss) {
    H z = cmake(zv, shape, CT_COMPLEX128, true);
    H l = loss(z);
    ASSERT_EQ(dtype(l), CT_FLOAT64);
    CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
    H g;
    CT_ASSERT_OK(ct_tensor_grad(z.get(), g.out()));
    ASSERT_TRUE(g);
    EXPECT_EQ(dtype(g), CT_COMPLEX128);
    std::vector<cd> got = cvalues(g);
    const double h = 1e-6;
    for (size_t i = 0; i < zv.size(); ++i) {
        double part[2];
        for (int k = 0; k < 2; ++k) {
            std::vector<cd> p = zv, m = zv;
            cd d = k == 0 ? cd(h, 0) : cd(0, h);
            p[i] += d, m[i] -= d;
            part[k] = (scalar(loss(cmake(p, shape))) - scalar(loss(cmake(m, shape)))) / (2 * h);
        }
        EXPECT_NEAR(got[i].real(), part[0], 1e-6 * (1 + std::abs(part[0]))) << "element " << i << " (real)";
        EXPECT_NEAR(got[i].imag(), part[1], 1e-6 * (1 + std::abs(part[1]))) << "element " << i << " (imag)";
    }
}

H abs_sum(const H& t) {
    H a, s;
    ok(ct_abs(t.get(), a.out()));
    ok(ct_sum(a.get(), nullptr, 0, 0, s.out()));
    return s;
}
}  // namespace

TEST(Complex, GradientsFollowTorchsConvention) {
    const std::vector<cd> zv = {{1, 2}, {-0.5, 0.7}, {2, -1}, {0.3, -0.4}};
    const H w = cmake({{0.5, -1}, {2, 0.5}, {-1, -1}, {0.3, 0.2}}, {2, 2});
    using U = ct_status (*)(ct_tensor, ct_tensor*);
    for (U fn : {ct_exp, ct_log, ct_sqrt, ct_sin, ct_cos, ct_tanh, ct_reciprocal, ct_neg, ct_conj}) {
        complex_gradcheck(zv, {2, 2}, [fn](const H& z) {
            H y;
            ok(fn(z.get(), y.out()));
            return abs_sum(y);
        });
    }
    complex_gradcheck(zv, {2, 2}, [&](const H& z) {  // (z * w).abs().sum() - z is the first and second input
        H y, y2, s;
        ok(ct_mul(z.get(), w.get(), y.out()));
        ok(ct_div(y.get(), w.get(), y2.out()));
        ok(ct_add(y2.get(), z.get(), 1.0, s.out()));
        return abs_sum(s);
    });
    complex_gradcheck(zv, {2, 2}, [&](const H& z) {
        H y, y2;
        ok(ct_div(w.get(), z.get(), y.out()));
        ok(ct_matmul(y.get(), z.get(), y2.out()));
        return abs_sum(y2);
    });
    complex_gradcheck(zv, {2, 2}, [&](const H& z) {  // real, imag, angle, sum and mean
        H re, im, an, m, s1, s2, t, out;
        int64_t d0[] = {0};
        ok(ct_real(z.get(), re.out()));
        ok(ct_imag(z.get(), im.out()));
        ok(ct_angle(z.get(), an.out()));
        ok(ct_mean(z.get(), d0, 1, 0, m.out()));
        ok(ct_mul(re.get(), im.get(), t.out()));
        ok(ct_add(t.get(), an.get(), 1.0, s1.out()));
        ok(ct_sum(s1.get(), nullptr, 0, 0, s2.out()));
        H am = abs_sum(m);
        ok(ct_add(s2.get(), am.get(), 1.0, out.out()));
        return out;
    });
    complex_gradcheck(zv, {2, 2}, [&](const H& z) {  // view_as_real, a complex -> real cast of a product
        H v, sq, s, zz, r;
        ok(ct_mul(z.get(), z.get(), zz.out()));
        ok(ct_view_as_real(zz.get(), v.out()));
        ok(ct_mul(v.get(), v.get(), sq.out()));
        ok(ct_sum(sq.get(), nullptr, 0, 0, s.out()));
        ok(ct_to_dtype(zz.get(), CT_FLOAT64, r.out()));
        H rs, out;
        ok(ct_sum(r.get(), nullptr, 0, 0, rs.out()));
        ok(ct_add(s.get(), rs.get(), 1.0, out.out()));
        return out;
    });
}

// prod / cumsum / cumprod / sigmoid / tan / rsqrt / pow (issue 15 second step): values against std::complex,
// gradients (torch's convention) against central differences, with a zero in the products' inputs.
TEST(Complex, ScansProductsAndFunctions) {
    const std::vector<cd> zv = {{1, 2}, {-0.5, 0.7}, {2, -1}, {0.3, -0.4}};
    H z = cmake(zv, {2, 2}), p, cs, cp, sg;
    ok(ct_prod(z.get(), nullptr, 0, 0, p.out()));
    expect_near(cvalues(p), {zv[0] * zv[1] * zv[2] * zv[3]}, 1e-12);
    ok(ct_cumsum(z.get(), 1, cs.out()));
    expect_near(cvalues(cs), {zv[0], zv[0] + zv[1], zv[2], zv[2] + zv[3]}, 1e-12);
    ok(ct_cumprod(z.get(), 0, cp.out()));
    expect_near(cvalues(cp), {zv[0], zv[1], zv[0] * zv[2], zv[1] * zv[3]}, 1e-12);
    ok(ct_sigmoid(z.get(), sg.out()));
    std::vector<cd> want;
    for (cd v : zv) want.push_back(1.0 / (1.0 + std::exp(-v)));
    expect_near(cvalues(sg), want, 1e-12);
    using U = ct_status (*)(ct_tensor, ct_tensor*);
    for (U fn : {ct_sigmoid, ct_tan, ct_rsqrt}) {
        complex_gradcheck(zv, {2, 2}, [fn](const H& z) {
            H y;
            ok(fn(z.get(), y.out()));
            return abs_sum(y);
        });
    }
    const std::vector<cd> with_zero = {{1, 2}, {0, 0}, {2, -1}, {0.3, -0.4}};
    for (const auto& v : {zv, with_zero}) {
        int64_t d1[] = {1};
        complex_gradcheck(v, {2, 2}, [&](const H& z) {
            H y;
            ok(ct_prod(z.get(), d1, 1, 0, y.out()));
            return abs_sum(y);
        });
        complex_gradcheck(v, {2, 2}, [&](const H& z) {
            H y;
            ok(ct_cumprod(z.get(), 1, y.out()));
            return abs_sum(y);
        });
        complex_gradcheck(v, {2, 2}, [&](const H& z) {
            H y;
            ok(ct_cumsum(z.get(), 0, y.out()));
            return abs_sum(y);
        });
    }
    const H w = cmake({{0.5, -1}, {2, 0.5}, {-1, -1}, {0.3, 0.2}}, {2, 2});
    complex_gradcheck(zv, {2, 2}, [&](const H& z) {  // z ** w and w ** z: both operands' gradients
        H a, b, s;
        ok(ct_pow(z.get(), w.get(), a.out()));
        ok(ct_pow(w.get(), z.get(), b.out()));
        ok(ct_add(a.get(), b.get(), 1.0, s.out()));
        return abs_sum(s);
    });
}

TEST(Complex, LogicalOpsUseTheTruthOfEachValue) {
    // torch: a complex value is true when nonzero (either part); the other operand keeps its own dtype
    H z = cmake({{0, 0}, {0, 1}, {2, 0}, {0, -0.0}, {-1, -1}}, {5}, CT_COMPLEX64);
    H w = cmake({{0, 0}, {0, 0}, {0, 3}, {0, 0}, {1, 0}}, {5}, CT_COMPLEX128);
    H f = make({0, 0, 1, 3, 0}, {5}, CT_FLOAT32), out;
    CT_ASSERT_OK(ct_logical_and(z.get(), f.get(), out.out()));
    EXPECT_EQ(dtype(out), CT_BOOL);
    EXPECT_EQ(values(out), (std::vector<double>{0, 0, 1, 0, 0}));
    CT_ASSERT_OK(ct_logical_or(f.get(), z.get(), out.out()));
    EXPECT_EQ(values(out), (std::vector<double>{0, 1, 1, 1, 1}));
    CT_ASSERT_OK(ct_logical_xor(z.get(), f.get(), out.out()));
    EXPECT_EQ(values(out), (std::vector<double>{0, 1, 0, 1, 1}));
    CT_ASSERT_OK(ct_logical_and(z.get(), w.get(), out.out()));
    EXPECT_EQ(values(out), (std::vector<double>{0, 0, 1, 0, 1}));
    H number;  // a Python number 0.0 is false
    CT_ASSERT_OK(ct_wrapped_scalar(0.0, 0, number.out()));
    CT_ASSERT_OK(ct_logical_or(z.get(), number.get(), out.out()));
    EXPECT_EQ(values(out), (std::vector<double>{0, 1, 1, 0, 1}));
}

TEST(Complex, OpsWithoutAComplexKernelRefuse) {
    H z = cmake({{1, 2}, {3, 4}}, {2}, CT_COMPLEX64), out, idx;
    CT_EXPECT_ERR(ct_max(z.get(), out.out()), CT_ERR_NOT_SUPPORTED, "complex64");
    CT_EXPECT_ERR(ct_floor(z.get(), out.out()), CT_ERR_NOT_SUPPORTED, "complex64");
    CT_EXPECT_ERR(ct_relu(z.get(), out.out()), CT_ERR_NOT_SUPPORTED, "complex64");
    CT_EXPECT_ERR(ct_expm1(z.get(), out.out()), CT_ERR_NOT_SUPPORTED, "complex64");  // torch 1.13 refuses it too
    CT_EXPECT_ERR(ct_sort(z.get(), 0, 0, 0, out.out(), idx.out()), CT_ERR_NOT_SUPPORTED, "complex64");
    H z2 = cmake({{1, 2}, {3, 4}}, {2}, CT_COMPLEX128);
    CT_EXPECT_ERR(ct_lt(z2.get(), z2.get(), out.out()), CT_ERR_NOT_SUPPORTED, "complex128");
    CT_EXPECT_ERR(ct_softmax(z2.get(), 0, out.out()), CT_ERR_DTYPE, "complex128");  // as torch 1.13's CPU kernel
    int32_t rg = 0;
    CT_ASSERT_OK(ct_tensor_set_requires_grad(z2.get(), 1));
    CT_ASSERT_OK(ct_tensor_requires_grad(z2.get(), &rg));
    EXPECT_EQ(rg, 1);
    // safetensors has C64 (complex64) only: saving a complex128 tensor refuses cleanly
    ct_safetensors f = nullptr;
    CT_ASSERT_OK(ct_safetensors_new(&f));
    CT_ASSERT_OK(ct_safetensors_add(f, "z", z2.get()));
    CT_EXPECT_ERR(ct_save_safetensors(f, "/tmp/ct_complex_refused.safetensors"), CT_ERR_DTYPE, "complex128");
    ct_safetensors_release(f);
}

// safetensors' C64 is complex64 (interleaved float32 pairs): a save / load round trip keeps dtype and values.
TEST(Complex, SafetensorsC64RoundTrip) {
    const std::vector<cd> zv = {{1, 2}, {-0.5, 0.25}, {3, -4}};
    H z = cmake(zv, {3}, CT_COMPLEX64), back;
    const char* path = "/tmp/ct_complex_c64_roundtrip.safetensors";
    ct_safetensors f = nullptr, g = nullptr;
    CT_ASSERT_OK(ct_safetensors_new(&f));
    CT_ASSERT_OK(ct_safetensors_add(f, "z", z.get()));
    CT_ASSERT_OK(ct_save_safetensors(f, path));
    ct_safetensors_release(f);
    CT_ASSERT_OK(ct_load_safetensors(path, ct_cpu(), 0, &g));
    CT_ASSERT_OK(ct_safetensors_get(g, "z", back.out()));
    ct_safetensors_release(g);
    ct_dtype d = -1;
    CT_ASSERT_OK(ct_tensor_dtype(back.get(), &d));
    EXPECT_EQ(d, CT_COMPLEX64);
    expect_near(cvalues(back), zv, 0);
    std::remove(path);
}

// Issue 15 audit: every op that reads an index / class-target / count tensor as int64 refuses a complex (and a
// floating) one with CT_ERR_DTYPE naming the op and the dtype, never reading its real part.
TEST(Complex, IndexTensorsOfComplexOrFloatDtypeRefuse) {
    H x = make({1, 2, 3, 4, 5, 6}, {2, 3}), out;
    for (ct_dtype dt : {CT_COMPLEX64, CT_COMPLEX128, CT_FLOAT32}) {
        H i64 = make({0, 1}, {2}, CT_INT64), idx;
        ok(ct_to_dtype(i64.get(), dt, idx.out()));
        const char* name = ct_dtype_name(dt);
        CT_EXPECT_ERR(ct_index_select(x.get(), 1, idx.get(), out.out()), CT_ERR_DTYPE, "index_select");
        CT_EXPECT_ERR(ct_index_select(x.get(), 1, idx.get(), out.out()), CT_ERR_DTYPE, name);
        H idx2;
        ok(ct_reshape(idx.get(), std::vector<int64_t>{2, 1}.data(), 2, idx2.out()));
        CT_EXPECT_ERR(ct_gather(x.get(), 1, idx2.get(), out.out()), CT_ERR_DTYPE, name);
        CT_EXPECT_ERR(ct_embedding(x.get(), idx.get(), out.out()), CT_ERR_DTYPE, name);
        CT_EXPECT_ERR(ct_nll_loss(x.get(), idx.get(), 1, -100, out.out()), CT_ERR_DTYPE, name);
        CT_EXPECT_ERR(ct_bincount(idx.get(), nullptr, 0, out.out()), CT_ERR_DTYPE, name);
        CT_EXPECT_ERR(ct_repeat_interleave(x.get(), idx.get(), 0, 0, 1, 0, 0, out.out()), CT_ERR_DTYPE, name);
    }
}

TEST(Complex, DLPackBothWays) {
    H z = cmake({{1, 2}, {3, -4}}, {2}, CT_COMPLEX64), back;
    DLManagedTensor* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack(z.get(), &m));
    EXPECT_EQ(m->dl_tensor.dtype.code, kDLComplex);
    EXPECT_EQ(m->dl_tensor.dtype.bits, 64);
    CT_ASSERT_OK(ct_from_dlpack(m, back.out()));
    EXPECT_EQ(dtype(back), CT_COMPLEX64);
    expect_near(cvalues(back), {{1, 2}, {3, -4}}, 0);
}

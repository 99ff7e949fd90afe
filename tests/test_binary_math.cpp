// test_binary_math.cpp - the binary math ops of issue 14 (logaddexp, logaddexp2, hypot, xlogy, copysign, fmax,
// fmin, heaviside, nextafter) through the C API: values against closed forms with broadcasting, edge values,
// result dtypes, refusals naming the op, and gradients (and second derivatives) by finite differences in float64.
#include <cmath>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {

using BinaryFn = ct_status (*)(ct_tensor, ct_tensor, ct_tensor*);
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

H call(BinaryFn fn, const H& a, const H& b) {
    H out;
    ok(fn(a.get(), b.get(), out.out()));
    return out;
}
std::function<H(const std::vector<H>&)> binary(BinaryFn fn) {
    return [fn](const std::vector<H>& in) { return call(fn, in[0], in[1]); };
}
H wrapped(double v) {
    H out;
    ok(ct_wrapped_scalar(v, 0, out.out()));
    return out;
}
// f over a [2, 1] x [1, 3] broadcast, row-major.
std::vector<double> outer_ref(const std::vector<double>& a, const std::vector<double>& b, double (*f)(double, double)) {
    std::vector<double> r;
    for (double x : a)
        for (double y : b) r.push_back(f(x, y));
    return r;
}
// Equal element by element, NaN equal to NaN, the sign of zeros compared.
::testing::AssertionResult same(const H& t, const std::vector<double>& want) {
    std::vector<double> got = values(t);
    if (got.size() != want.size()) return ::testing::AssertionFailure() << "size " << got.size();
    for (size_t i = 0; i < got.size(); ++i) {
        bool eq = std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i] && std::signbit(got[i]) == std::signbit(want[i]);
        if (!eq) return ::testing::AssertionFailure() << "element " << i << ": " << got[i] << " != " << want[i];
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST(BinaryMath, ValuesWithBroadcasting) {
    for_each_device([&] {
        std::vector<double> av = {1.5, -2.0}, bv = {0.5, 3.0, -4.0};
        H a = make(av, {2, 1}), b = make(bv, {1, 3});
        EXPECT_TRUE(allclose(call(ct_logaddexp, a, b), outer_ref(av, bv, [](double x, double y) {
            return std::log(std::exp(x) + std::exp(y));
        }), 1e-12));
        EXPECT_TRUE(allclose(call(ct_logaddexp2, a, b), outer_ref(av, bv, [](double x, double y) {
            return std::log2(std::exp2(x) + std::exp2(y));
        }), 1e-12));
        EXPECT_TRUE(allclose(call(ct_hypot, a, b), outer_ref(av, bv, [](double x, double y) { return std::sqrt(x * x + y * y); }), 1e-12));
        H pa = make({1.5, 0.0}, {2, 1}), pb = make({0.5, 3.0, 0.0}, {1, 3});
        EXPECT_TRUE(same(call(ct_xlogy, pa, pb), {1.5 * std::log(0.5), 1.5 * std::log(3.0), -kInf, 0, 0, 0}));
        EXPECT_TRUE(same(call(ct_copysign, a, b), outer_ref(av, bv, [](double x, double y) { return std::copysign(x, y); })));
        EXPECT_TRUE(same(call(ct_fmax, a, b), outer_ref(av, bv, [](double x, double y) { return std::fmax(x, y); })));
        EXPECT_TRUE(same(call(ct_fmin, a, b), outer_ref(av, bv, [](double x, double y) { return std::fmin(x, y); })));
        H h = call(ct_heaviside, make({-1.5, 0.0, 2.0, kNaN}, {4}), make({0.25}, {1}));
        EXPECT_TRUE(same(h, {0, 0.25, 1, 0}));
        H n = call(ct_nextafter, make({1.0, 1.0, 0.0}, {3}), make({2.0, 0.0, -1.0}, {3}));
        EXPECT_TRUE(same(n, {std::nextafter(1.0, 2.0), std::nextafter(1.0, 0.0), -std::numeric_limits<double>::denorm_min()}));
        EXPECT_EQ(shape(call(ct_hypot, a, b)), (Shape{2, 3}));
    });
}

TEST(BinaryMath, EdgeValues) {
    for_each_device([&] {
        // logaddexp of equal infinities is that infinity (not NaN); large values do not overflow
        H a = make({-kInf, kInf, -kInf, 1000.0, kNaN}, {5}), b = make({-kInf, kInf, 1.0, 1000.0, 1.0}, {5});
        EXPECT_TRUE(same(call(ct_logaddexp, a, b), {-kInf, kInf, 1.0, 1000.0 + std::log(2.0), kNaN}));
        EXPECT_TRUE(same(call(ct_logaddexp2, a, b), {-kInf, kInf, 1.0, 1001.0, kNaN}));
        // xlogy(0, 0) = 0, xlogy(0, inf) = 0, xlogy(0, nan) = nan, xlogy(nan, 1) = nan
        H x = make({0.0, 0.0, 0.0, kNaN, 2.0}, {5}), y = make({0.0, kInf, kNaN, 1.0, -1.0}, {5});
        EXPECT_TRUE(same(call(ct_xlogy, x, y), {0, 0, kNaN, kNaN, kNaN}));
        // fmax / fmin ignore one NaN; maximum would propagate it
        H p = make({kNaN, 1.0, kNaN, -0.0}, {4}), q = make({2.0, kNaN, kNaN, 3.0}, {4});
        EXPECT_TRUE(same(call(ct_fmax, p, q), {2.0, 1.0, kNaN, 3.0}));
        EXPECT_TRUE(same(call(ct_fmin, p, q), {2.0, 1.0, kNaN, -0.0}));
        // copysign takes the sign bit of -0.0 and of NaN's sign; hypot(inf, nan) = inf
        EXPECT_TRUE(same(call(ct_copysign, make({2.0, -3.0}, {2}), make({-0.0, 0.0}, {2})), {-2.0, 3.0}));
        EXPECT_TRUE(allclose(call(ct_hypot, make({kInf, 3e300}, {2}), make({kNaN, 4e300}, {2})), {kInf, 5e300}, 0, 1e-15));
    });
}

TEST(BinaryMath, DtypesAndNumbers) {
    for_each_device([&] {
        H i = make({-2, 0, 3}, {3}, CT_INT64), f = make({1, 2, 3}, {3}, CT_FLOAT32);
        EXPECT_EQ(dtype(call(ct_xlogy, i, i)), CT_FLOAT32);  // integers promote to the default float dtype
        EXPECT_EQ(dtype(call(ct_copysign, i, wrapped(-1.0))), CT_FLOAT32);
        EXPECT_TRUE(same(call(ct_copysign, i, wrapped(-1.0)), {-2, -0.0, -3}));
        EXPECT_EQ(dtype(call(ct_fmax, i, i)), CT_INT64);  // fmax / fmin / heaviside keep integers
        EXPECT_TRUE(same(call(ct_fmin, i, make({0, 0, 0}, {3}, CT_INT32)), {-2, 0, 0}));
        EXPECT_TRUE(same(call(ct_heaviside, i, make({7}, {1}, CT_INT64)), {0, 7, 1}));
        H bl = make({1, 0}, {2}, CT_BOOL);
        EXPECT_EQ(dtype(call(ct_heaviside, bl, bl)), CT_BOOL);
        EXPECT_EQ(dtype(call(ct_fmax, bl, bl)), CT_BOOL);
        EXPECT_EQ(dtype(call(ct_hypot, f, make({1}, {1}, CT_FLOAT64))), CT_FLOAT64);
        EXPECT_EQ(dtype(call(ct_logaddexp, f, i)), CT_FLOAT32);  // one float operand is enough
        // a number on either side
        EXPECT_TRUE(allclose(call(ct_xlogy, wrapped(2.0), f), {0, 2 * std::log(2.0), 2 * std::log(3.0)}, 1e-6));
        EXPECT_EQ(dtype(call(ct_xlogy, wrapped(2.0), f)), CT_FLOAT32);
        EXPECT_TRUE(same(call(ct_heaviside, make({-1, 0, 1}, {3}, CT_FLOAT32), wrapped(0.5)), {0, 0.5, 1}));
        // half dtypes compute in float32 and keep their dtype
        H hf = make({1, 2}, {2}, CT_FLOAT16);
        EXPECT_EQ(dtype(call(ct_logaddexp, hf, hf)), CT_FLOAT16);
        EXPECT_TRUE(allclose(call(ct_hypot, hf, make({2, 2}, {2}, CT_BFLOAT16)), {std::sqrt(5.0), std::sqrt(8.0)}, 1e-2, 1e-2));
    });
}

TEST(BinaryMath, RefusalsNameTheOp) {
    H i = make({1, 2}, {2}, CT_INT32), f = make({1, 2}, {2}, CT_FLOAT32), d = make({1, 2}, {2}, CT_FLOAT64), r;
    CT_EXPECT_ERR(ct_logaddexp(i.get(), i.get(), r.out()), CT_ERR_DTYPE, "logaddexp: not implemented for int32");
    CT_EXPECT_ERR(ct_logaddexp2(i.get(), i.get(), r.out()), CT_ERR_DTYPE, "logaddexp2");
    CT_EXPECT_ERR(ct_hypot(make({1}, {1}, CT_BOOL).get(), make({1}, {1}, CT_BOOL).get(), r.out()), CT_ERR_DTYPE, "hypot");
    CT_EXPECT_ERR(ct_nextafter(i.get(), i.get(), r.out()), CT_ERR_DTYPE, "nextafter");
    CT_EXPECT_ERR(ct_nextafter(make({1}, {1}, CT_FLOAT16).get(), make({1}, {1}, CT_FLOAT16).get(), r.out()), CT_ERR_DTYPE, "float16");
    CT_EXPECT_ERR(ct_heaviside(f.get(), d.get(), r.out()), CT_ERR_DTYPE, "heaviside: input and values must have one dtype");
    CT_EXPECT_ERR(ct_hypot(f.get(), make({1, 2, 3}, {3}).get(), r.out()), CT_ERR_SHAPE, "hypot");
    CT_EXPECT_ERR(ct_fmax(f.get(), nullptr, r.out()), CT_ERR_INVALID_HANDLE, "fmax");
    CT_EXPECT_ERR(ct_xlogy(f.get(), f.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "xlogy");
    H c;
    ok(ct_full_complex(std::vector<int64_t>{2}.data(), 1, 1, 1, CT_COMPLEX64, ct_cpu(), c.out()));
    for (BinaryFn fn : {ct_logaddexp, ct_hypot, ct_xlogy, ct_copysign, ct_fmax, ct_fmin, ct_heaviside})
        EXPECT_NE(fn(c.get(), c.get(), r.out()), CT_OK);
}

TEST(BinaryMath, EmptyAndZeroDim) {
    for_each_device([&] {
        H e = make({}, {0, 3}), s = make({2.0}, {});
        for (BinaryFn fn : {ct_logaddexp, ct_logaddexp2, ct_hypot, ct_xlogy, ct_copysign, ct_fmax, ct_fmin,
                            ct_heaviside, ct_nextafter}) {
            EXPECT_EQ(shape(call(fn, e, s)), (Shape{0, 3}));
            EXPECT_EQ(shape(call(fn, s, s)), (Shape{}));
        }
    });
}

TEST(BinaryMath, Gradients) {
    for_each_device([&] {
        H a = randt({2, 3}, 1), b = randt({3}, 2), c = randt({2, 1}, 3);
        H pos = randt({3}, 4, true, 0.5, 2.0);
        for (BinaryFn fn : {ct_logaddexp, ct_logaddexp2, ct_hypot, ct_copysign, ct_fmax, ct_fmin}) {
            EXPECT_TRUE(gradcheck(binary(fn), {a, b}));
            EXPECT_TRUE(gradcheck(binary(fn), {c, b}));
        }
        EXPECT_TRUE(gradcheck(binary(ct_xlogy), {a, pos}));
        for (BinaryFn fn : {ct_logaddexp, ct_logaddexp2, ct_hypot, ct_xlogy})
            EXPECT_TRUE(gradgradcheck(binary(fn), {c, pos}));
    });
}

TEST(BinaryMath, NonDifferentiableOpsRecordNoGraph) {
    H a = randt({3}, 5), b = randt({3}, 6), r;
    ok(ct_heaviside(a.get(), b.get(), r.out()));
    int32_t rg = 1;
    CT_ASSERT_OK(ct_tensor_requires_grad(r.get(), &rg));
    EXPECT_EQ(rg, 0);
    ok(ct_nextafter(a.get(), b.get(), r.out()));
    CT_ASSERT_OK(ct_tensor_requires_grad(r.get(), &rg));
    EXPECT_EQ(rg, 0);
}

TEST(BinaryMath, AddcmulAddcdiv) {
    for_each_device([&] {
        H s = make({1, 2, 3}, {3}), t1 = make({2, -1}, {2, 1}), t2 = make({0.5, 4, -2}, {1, 3}), r;
        ok(ct_addcmul(s.get(), t1.get(), t2.get(), -0.5, r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 3}));
        EXPECT_TRUE(allclose(r, {1 - 0.5, 2 - 4, 3 + 2, 1 + 0.25, 2 + 2, 3 - 1}, 1e-15));
        ok(ct_addcdiv(s.get(), t1.get(), t2.get(), 2.0, r.out()));
        EXPECT_TRUE(allclose(r, {1 + 8, 2 + 1, 3 - 2, 1 - 4, 2 - 0.5, 3 + 1}, 1e-15));
        // an integer result truncates value (as torch); two integer divisors are refused
        H i = make({1, 2}, {2}, CT_INT64);
        ok(ct_addcmul(i.get(), i.get(), i.get(), 2.7, r.out()));
        EXPECT_EQ(dtype(r), CT_INT64);
        EXPECT_TRUE(allclose(r, {3, 10}, 0, 0));
        CT_EXPECT_ERR(ct_addcdiv(i.get(), i.get(), i.get(), 1.0, r.out()), CT_ERR_DTYPE, "addcdiv: integer division");
        H b = make({1}, {1}, CT_BOOL);
        CT_EXPECT_ERR(ct_addcmul(b.get(), b.get(), b.get(), 1.0, r.out()), CT_ERR_DTYPE, "addcmul");
        CT_EXPECT_ERR(ct_addcmul(s.get(), make({1, 2}, {2}).get(), s.get(), 1.0, r.out()), CT_ERR_SHAPE, "addcmul");
        auto addcmul = [](const std::vector<H>& in) {
            H o;
            ok(ct_addcmul(in[0].get(), in[1].get(), in[2].get(), 1.5, o.out()));
            return o;
        };
        auto addcdiv = [](const std::vector<H>& in) {
            H o;
            ok(ct_addcdiv(in[0].get(), in[1].get(), in[2].get(), -0.7, o.out()));
            return o;
        };
        H ga = randt({3}, 11), gb = randt({2, 1}, 12), gc = randt({1, 3}, 13, true, 0.5, 2.0);
        EXPECT_TRUE(gradcheck(addcmul, {ga, gb, gc}));
        EXPECT_TRUE(gradcheck(addcdiv, {ga, gb, gc}));
        EXPECT_TRUE(gradgradcheck(addcdiv, {ga, gb, gc}));
    });
}

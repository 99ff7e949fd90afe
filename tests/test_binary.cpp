// test_binary.cpp - elementwise binary ops through the C API: values against scalar loops with
// broadcasting, PyTorch type promotion (wrapped scalars, 0-d tensors), NaN rules, remainder signs,
// comparisons, logical ops, where, errors, and gradchecks with broadcasting.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

using BinaryFn = ct_status (*)(ct_tensor, ct_tensor, ct_tensor*);

H call(BinaryFn fn, const H& a, const H& b) {
    H out;
    ok(fn(a.get(), b.get(), out.out()));
    return out;
}
H wrapped(double v, bool is_int) {
    H out;
    ok(ct_wrapped_scalar(v, is_int ? 1 : 0, out.out()));
    return out;
}
H scalar0d(double v, ct_dtype dt) {
    H out;
    ok(ct_scalar_tensor(v, dt, test_device(), out.out()));
    return out;
}

// Reference of a broadcasting binary op over [2, 3] from a [2, 1] and b [1, 3].
std::vector<double> outer_ref(const std::vector<double>& a, const std::vector<double>& b, double (*f)(double, double)) {
    std::vector<double> r;
    for (double x : a)
        for (double y : b) r.push_back(f(x, y));
    return r;
}

}  // namespace

TEST(Binary, ArithmeticValuesWithBroadcasting) {
    for_each_device([&] {
        std::vector<double> av = {1.5, -2.0}, bv = {0.5, 3.0, -4.0};
        H a = make(av, {2, 1}), b = make(bv, {1, 3});
        EXPECT_TRUE(allclose(call(ct_mul, a, b), outer_ref(av, bv, [](double x, double y) { return x * y; })));
        EXPECT_TRUE(allclose(call(ct_div, a, b), outer_ref(av, bv, [](double x, double y) { return x / y; })));
        EXPECT_TRUE(allclose(call(ct_maximum, a, b), outer_ref(av, bv, [](double x, double y) { return x > y ? x : y; })));
        EXPECT_TRUE(allclose(call(ct_minimum, a, b), outer_ref(av, bv, [](double x, double y) { return x < y ? x : y; })));
        EXPECT_TRUE(allclose(call(ct_atan2, a, b), outer_ref(av, bv, [](double x, double y) { return std::atan2(x, y); })));
        H s, d;
        CT_ASSERT_OK(ct_add(a.get(), b.get(), 2.5, s.out()));
        EXPECT_TRUE(allclose(s, outer_ref(av, bv, [](double x, double y) { return x + 2.5 * y; })));
        CT_ASSERT_OK(ct_sub(a.get(), b.get(), -0.5, d.out()));
        EXPECT_TRUE(allclose(d, outer_ref(av, bv, [](double x, double y) { return x + 0.5 * y; })));
        EXPECT_EQ(shape(s), (Shape{2, 3}));
        // pow with a positive base
        H pa = make({2.0, 0.5}, {2, 1});
        EXPECT_TRUE(allclose(call(ct_pow, pa, b), outer_ref({2.0, 0.5}, bv, [](double x, double y) { return std::pow(x, y); })));
        // broadcasting against a 0-d tensor and to three dims
        H z = scalar0d(10, CT_FLOAT64), c = make({1, 2, 3, 4}, {2, 1, 2});
        EXPECT_TRUE(allclose(call(ct_mul, c, z), {10, 20, 30, 40}));
        H e = call(ct_mul, c, make({1, -1}, {2, 1}));  // [2,1,2] * [2,1] -> [2,2,2]
        EXPECT_EQ(shape(e), (Shape{2, 2, 2}));
        EXPECT_TRUE(allclose(e, {1, 2, -1, -2, 3, 4, -3, -4}));
    });
}

TEST(Binary, IntegerArithmetic) {
    for_each_device([&] {
        H a = make({7, -7, 5}, {3}, CT_INT64), b = make({2, 2, -3}, {3}, CT_INT64);
        H q = call(ct_div, a, b);
        EXPECT_EQ(dtype(q), CT_FLOAT32);  // true division
        EXPECT_TRUE(allclose(q, {3.5, -3.5, -5.0 / 3}));
        H p = call(ct_mul, a, b);
        EXPECT_EQ(dtype(p), CT_INT64);
        EXPECT_TRUE(allclose(p, {14, -14, -15}));
        H pw = call(ct_pow, make({2, -1, 3, 1}, {4}, CT_INT64), make({10, 3, -1, -5}, {4}, CT_INT64));
        EXPECT_EQ(dtype(pw), CT_INT64);
        EXPECT_TRUE(allclose(pw, {1024, -1, 0, 1}));
        H dz = call(ct_div, make({1, -1, 0}, {3}, CT_INT32), make({0, 0, 0}, {3}, CT_INT32));
        EXPECT_TRUE(allclose(dz, {INFINITY, -INFINITY, NAN}));  // true division by zero follows IEEE
        H r;
        CT_EXPECT_ERR(ct_add(a.get(), b.get(), 0.5, r.out()), CT_ERR_DTYPE, "alpha");
        H bb = call(ct_mul, make({1, 0, 1}, {3}, CT_BOOL), make({1, 1, 0}, {3}, CT_BOOL));
        EXPECT_EQ(dtype(bb), CT_BOOL);
        EXPECT_TRUE(allclose(bb, {1, 0, 0}));
        CT_EXPECT_ERR(ct_sub(make({1}, {1}, CT_BOOL).get(), make({1}, {1}, CT_BOOL).get(), 1.0, r.out()), CT_ERR_DTYPE,
                      "bool");
    });
}

TEST(Binary, TypePromotion) {
    for_each_device([&] {
        struct Case { H a, b; ct_dtype expected; const char* what; };
        Case cases[] = {
            {make({1}, {1}, CT_INT32), make({1}, {1}, CT_FLOAT32), CT_FLOAT32, "int32 + float32"},
            {make({1}, {1}, CT_INT32), make({1}, {1}, CT_INT64), CT_INT64, "int32 + int64"},
            {make({1}, {1}, CT_UINT8), make({1}, {1}, CT_INT32), CT_INT32, "uint8 + int32"},
            {make({1}, {1}, CT_BOOL), make({1}, {1}, CT_UINT8), CT_UINT8, "bool + uint8"},
            {make({1}, {1}, CT_FLOAT32), make({1}, {1}, CT_FLOAT64), CT_FLOAT64, "float32 + float64"},
            {make({1}, {1}, CT_INT64), wrapped(2.5, false), CT_FLOAT32, "int64 + python float"},
            {make({1}, {1}, CT_INT32), wrapped(2, true), CT_INT32, "int32 + python int"},
            {make({1}, {1}, CT_UINT8), wrapped(2, true), CT_UINT8, "uint8 + python int"},
            {make({1}, {1}, CT_FLOAT32), wrapped(2.5, false), CT_FLOAT32, "float32 + python float"},
            {make({1}, {1}, CT_BOOL), wrapped(2, true), CT_INT64, "bool + python int"},
            {make({1}, {1}, CT_BOOL), wrapped(2.5, false), CT_FLOAT32, "bool + python float"},
            {make({1}, {1}, CT_FLOAT32), scalar0d(1, CT_FLOAT64), CT_FLOAT32, "float32 + 0-d float64"},
            {make({1}, {1}, CT_UINT8), scalar0d(1, CT_INT64), CT_UINT8, "uint8 + 0-d int64"},
            {make({1}, {1}, CT_INT32), scalar0d(1, CT_FLOAT64), CT_FLOAT64, "int32 + 0-d float64"},
            {scalar0d(1, CT_FLOAT64), scalar0d(1, CT_FLOAT32), CT_FLOAT64, "0-d + 0-d"},
            {scalar0d(1, CT_INT32), wrapped(1.5, false), CT_FLOAT32, "0-d int32 + python float"},
            {scalar0d(1, CT_FLOAT64), wrapped(1, true), CT_FLOAT64, "0-d float64 + python int"},
        };
        for (auto& c : cases) {
            SCOPED_TRACE(c.what);
            EXPECT_EQ(dtype(call(ct_mul, c.a, c.b)), c.expected);
            EXPECT_EQ(dtype(call(ct_mul, c.b, c.a)), c.expected);  // symmetric
        }
        // a wrapped value participates with its value, computed in the result type
        H i = make({3}, {1}, CT_INT64);
        EXPECT_TRUE(allclose(call(ct_mul, i, wrapped(2.5, false)), {7.5}));
        H r;
        CT_ASSERT_OK(ct_add(make({1}, {1}, CT_UINT8).get(), wrapped(200, true).get(), 1.0, r.out()));
        EXPECT_EQ(dtype(r), CT_UINT8);  // (300 does not fit uint8: an error, test_hardening_numeric.cpp)
        EXPECT_EQ(values(r), std::vector<double>{201});
    });
}

TEST(Binary, MaximumMinimumPropagateNaN) {
    for_each_device([&] {
        H a = make({1, NAN, 3, NAN}, {4}), b = make({NAN, 2, 1, NAN}, {4});
        EXPECT_TRUE(allclose(call(ct_maximum, a, b), {NAN, NAN, 3, NAN}));
        EXPECT_TRUE(allclose(call(ct_minimum, a, b), {NAN, NAN, 1, NAN}));
        H i = make({1, 5}, {2}, CT_INT32), f = make({2.5}, {1}, CT_FLOAT32);
        H m = call(ct_maximum, i, f);
        EXPECT_EQ(dtype(m), CT_FLOAT32);
        EXPECT_TRUE(allclose(m, {2.5, 5}));
    });
}

TEST(Binary, RemainderFollowsTheDivisorSign) {
    for_each_device([&] {
        std::vector<double> av = {5, -5, 5, -5, 6, -6, 0}, bv = {3, 3, -3, -3, 3, -3, 7};
        std::vector<double> expected = {2, 1, -1, -2, 0, 0, 0};
        for (ct_dtype dt : {CT_INT64, CT_INT32, CT_FLOAT64, CT_FLOAT32}) {
            SCOPED_TRACE(ct_dtype_name(dt));
            H r = call(ct_remainder, make(av, {7}, dt), make(bv, {7}, dt));
            EXPECT_EQ(dtype(r), dt);
            EXPECT_TRUE(allclose(r, expected));
        }
        H f = call(ct_remainder, make({5.5, -5.5, 1.0, 1.0}, {4}), make({2, 2, 0, INFINITY}, {4}));
        EXPECT_TRUE(allclose(f, {1.5, 0.5, NAN, 1.0}));
        H r;
        CT_EXPECT_ERR(ct_remainder(make({1, 2}, {2}, CT_INT64).get(), make({1, 0}, {2}, CT_INT64).get(), r.out()),
                      CT_ERR_INVALID_ARGUMENT, "division by zero");
        CT_EXPECT_ERR(ct_remainder(make({1, 2}, {2}, CT_INT32).get(), wrapped(0, true).get(), r.out()),
                      CT_ERR_INVALID_ARGUMENT, "remainder");
        EXPECT_FALSE(r);
    });
}

TEST(Binary, ComparisonsAndLogicalOps) {
    for_each_device([&] {
        H a = make({1, 2, 3, NAN}, {4}), b = make({2, 2, 2, NAN}, {4});
        struct { BinaryFn fn; std::vector<double> expected; } cases[] = {
            {ct_eq, {0, 1, 0, 0}}, {ct_ne, {1, 0, 1, 1}}, {ct_lt, {1, 0, 0, 0}},
            {ct_le, {1, 1, 0, 0}}, {ct_gt, {0, 0, 1, 0}}, {ct_ge, {0, 1, 1, 0}},
        };
        for (auto& c : cases) {
            H r = call(c.fn, a, b);
            EXPECT_EQ(dtype(r), CT_BOOL);
            EXPECT_TRUE(allclose(r, c.expected));
        }
        // mixed dtypes compare by value after promotion; broadcasting applies
        H i = make({1, 2}, {2, 1}, CT_INT64), f = make({1.0, 1.5, 2.0}, {3}, CT_FLOAT32);
        H eq = call(ct_eq, i, f);
        EXPECT_EQ(shape(eq), (Shape{2, 3}));
        EXPECT_TRUE(allclose(eq, {1, 0, 0, 0, 0, 1}));
        EXPECT_TRUE(allclose(call(ct_lt, i, wrapped(1.5, false)), {1, 0}));
        H x = make({0, 1, 2, 0}, {4}, CT_INT32), y = make({1, 0, 3, 0}, {4}, CT_FLOAT64);
        EXPECT_TRUE(allclose(call(ct_logical_and, x, y), {0, 0, 1, 0}));
        EXPECT_TRUE(allclose(call(ct_logical_or, x, y), {1, 1, 1, 0}));
        EXPECT_TRUE(allclose(call(ct_logical_xor, x, y), {1, 1, 0, 0}));
        EXPECT_EQ(dtype(call(ct_logical_xor, x, y)), CT_BOOL);
    });
}

TEST(Binary, Where) {
    for_each_device([&] {
        H cond = make({1, 0}, {2, 1}, CT_BOOL), a = make({1, 2, 3}, {1, 3}, CT_INT64);
        H r;
        CT_ASSERT_OK(ct_where(cond.get(), a.get(), wrapped(-0.5, false).get(), r.out()));
        EXPECT_EQ(dtype(r), CT_FLOAT32);
        EXPECT_EQ(shape(r), (Shape{2, 3}));
        EXPECT_TRUE(allclose(r, {1, 2, 3, -0.5, -0.5, -0.5}));
        H ri;
        CT_ASSERT_OK(ct_where(cond.get(), a.get(), make({7, 8}, {2, 1}, CT_INT32).get(), ri.out()));
        EXPECT_EQ(dtype(ri), CT_INT64);
        EXPECT_TRUE(allclose(ri, {1, 2, 3, 8, 8, 8}));
        CT_EXPECT_ERR(ct_where(a.get(), a.get(), a.get(), r.out()), CT_ERR_DTYPE, "condition must be bool");
        CT_EXPECT_ERR(ct_where(make({1, 0, 1, 1}, {4}, CT_BOOL).get(), a.get(), a.get(), r.out()), CT_ERR_SHAPE,
                      "cannot be broadcast");
    });
}

TEST(Binary, Errors) {
    H a = make({1, 2, 3, 4, 5, 6}, {2, 3}), b = make({1, 2, 3, 4}, {4}), r;
    CT_EXPECT_ERR(ct_mul(a.get(), b.get(), r.out()), CT_ERR_SHAPE, "mul: shapes [2, 3] and [4] cannot be broadcast");
    CT_EXPECT_ERR(ct_add(a.get(), b.get(), 1.0, r.out()), CT_ERR_SHAPE, "[2, 3]");
    CT_EXPECT_ERR(ct_mul(a.get(), nullptr, r.out()), CT_ERR_INVALID_HANDLE, "mul");
    CT_EXPECT_ERR(ct_mul(a.get(), a.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "mul");
    EXPECT_FALSE(r);
}

TEST(Binary, EmptyAndZeroDim) {
    for_each_device([&] {
        int64_t dims[2] = {0, 3};
        H e;
        CT_ASSERT_OK(ct_zeros(dims, 2, CT_FLOAT32, test_device(), e.out()));
        H r = call(ct_mul, e, make({1, 2, 3}, {3}, CT_FLOAT32));
        EXPECT_EQ(shape(r), (Shape{0, 3}));
        H r2 = call(ct_mul, e, make({5}, {1, 1}));  // [0,3] with [1,1] -> [0,3]
        EXPECT_EQ(shape(r2), (Shape{0, 3}));
        H s = call(ct_atan2, scalar0d(1, CT_FLOAT64), scalar0d(-1, CT_FLOAT64));
        EXPECT_EQ(shape(s), Shape{});
        EXPECT_NEAR(scalar(s), 3 * M_PI / 4, 1e-15);
    });
}

namespace {
// f(inputs) for gradchecks of a two-input op.
std::function<H(const std::vector<H>&)> binary(BinaryFn fn) {
    return [fn](const std::vector<H>& in) { return call(fn, in[0], in[1]); };
}
}  // namespace

TEST(Binary, GradchecksWithBroadcasting) {
    for_each_device([&] {
        H a = randt({2, 3}, 1), b = randt({3}, 2), c = randt({2, 1}, 3), s = randt({}, 4);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H r;
            ok(ct_add(in[0].get(), in[1].get(), -1.5, r.out()));
            return r;
        }, {a, b}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H r;
            ok(ct_sub(in[0].get(), in[1].get(), 2.0, r.out()));
            return r;
        }, {c, b}));
        EXPECT_TRUE(gradcheck(binary(ct_mul), {a, c}));
        EXPECT_TRUE(gradcheck(binary(ct_mul), {a, s}));
        EXPECT_TRUE(gradcheck(binary(ct_div), {c, randt({3}, 5, true, 0.5, 2.0)}));
        EXPECT_TRUE(gradcheck(binary(ct_pow), {randt({2, 1}, 6, true, 0.5, 2.0), randt({3}, 7, true, -2, 2)}));
        EXPECT_TRUE(gradcheck(binary(ct_maximum), {a, b}));
        EXPECT_TRUE(gradcheck(binary(ct_minimum), {c, b}));
        EXPECT_TRUE(gradcheck(binary(ct_atan2), {a, c}));
        // remainder: values chosen away from the jumps of floor(a / b)
        H ra = make({5.3, -5.3, 2.2, -7.9, 0.4, 3.7}, {2, 3}), rb = make({2.0, -3.0, 1.5}, {3});
        EXPECT_TRUE(gradcheck(binary(ct_remainder), {ra, rb}));
        H cond = make({1, 0, 0, 1, 1, 0}, {2, 3}, CT_BOOL);
        EXPECT_TRUE(gradcheck([cond](const std::vector<H>& in) {
            H r;
            ok(ct_where(cond.get(), in[0].get(), in[1].get(), r.out()));
            return r;
        }, {c, b}));
    });
}

TEST(Binary, GradgradchecksOfProductQuotientAndPower) {
    EXPECT_TRUE(gradgradcheck(binary(ct_mul), {randt({2, 3}, 1), randt({3}, 2)}));
    EXPECT_TRUE(gradgradcheck(binary(ct_div), {randt({2, 1}, 3), randt({3}, 4, true, 0.5, 2.0)}));
    EXPECT_TRUE(gradgradcheck(binary(ct_pow), {randt({3}, 5, true, 0.5, 2.0), randt({3}, 6, true, -1, 2)}));
}

TEST(Binary, MaximumTiesSplitTheGradient) {
    for_each_device([&] {
        H a = make({1, 2, 3}, {3}, CT_FLOAT64, true), b = make({1, 5, 0}, {3}, CT_FLOAT64, true);
        H m = call(ct_maximum, a, b), l, ga, gb;
        CT_ASSERT_OK(ct_sum(m.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(a.get(), ga.out()));
        CT_ASSERT_OK(ct_tensor_grad(b.get(), gb.out()));
        EXPECT_TRUE(allclose(ga, {0.5, 0, 1}));
        EXPECT_TRUE(allclose(gb, {0.5, 1, 0}));
    });
}

TEST(Binary, MixedDtypeGradientsKeepInputDtypes) {
    for_each_device([&] {
        H a = make({1, 2}, {2}, CT_FLOAT32, true), b = make({3}, {1}, CT_FLOAT64, true);
        H m = call(ct_mul, a, b), l, ga, gb;
        EXPECT_EQ(dtype(m), CT_FLOAT64);
        CT_ASSERT_OK(ct_sum(m.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(a.get(), ga.out()));
        CT_ASSERT_OK(ct_tensor_grad(b.get(), gb.out()));
        EXPECT_EQ(dtype(ga), CT_FLOAT32);
        EXPECT_EQ(shape(gb), (Shape{1}));
        EXPECT_TRUE(allclose(ga, {3, 3}));
        EXPECT_TRUE(allclose(gb, {3}));
    });
}

// test_bitwise.cpp - the integer ops of issue 14 (bitwise and/or/xor/not, shifts, gcd, lcm) through the C API:
// values against closed forms with broadcasting and promotion, every integer dtype, shift counts outside the bit
// width (Note [Shift counts]), gcd/lcm of negatives and zero, and the refusal of floating inputs.
#include <cstdint>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {

using BinaryFn = ct_status (*)(ct_tensor, ct_tensor, ct_tensor*);

H call(BinaryFn fn, const H& a, const H& b) {
    H out;
    ok(fn(a.get(), b.get(), out.out()));
    return out;
}
H wrapped_int(double v) {
    H out;
    ok(ct_wrapped_scalar(v, 1, out.out()));
    return out;
}
H bnot(const H& x) {
    H out;
    ok(ct_bitwise_not(x.get(), out.out()));
    return out;
}

}  // namespace

TEST(Bitwise, AndOrXorNotValues) {
    for_each_device([&] {
        for (ct_dtype dt : {CT_INT64, CT_INT32, CT_INT16, CT_INT8}) {
            H a = make({5, -3, 0, 7}, {4}, dt), b = make({3, 2, 0, -2}, {4}, dt);
            EXPECT_TRUE(allclose(call(ct_bitwise_and, a, b), {5 & 3, -3 & 2, 0, 7 & -2}, 0, 0));
            EXPECT_TRUE(allclose(call(ct_bitwise_or, a, b), {5 | 3, -3 | 2, 0, 7 | -2}, 0, 0));
            EXPECT_TRUE(allclose(call(ct_bitwise_xor, a, b), {5 ^ 3, -3 ^ 2, 0, 7 ^ -2}, 0, 0));
            EXPECT_TRUE(allclose(bnot(a), {~5, ~-3, ~0, ~7}, 0, 0));
            EXPECT_EQ(dtype(bnot(a)), dt);
        }
        H u = make({0, 1, 200}, {3}, CT_UINT8);
        EXPECT_TRUE(allclose(bnot(u), {255, 254, 55}, 0, 0));
        H m = make({1, 1, 0, 0}, {4}, CT_BOOL), n = make({1, 0, 1, 0}, {4}, CT_BOOL);
        EXPECT_TRUE(allclose(call(ct_bitwise_and, m, n), {1, 0, 0, 0}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_bitwise_xor, m, n), {0, 1, 1, 0}, 0, 0));
        EXPECT_EQ(dtype(call(ct_bitwise_or, m, n)), CT_BOOL);
        EXPECT_TRUE(allclose(bnot(m), {0, 0, 1, 1}, 0, 0));
        // broadcasting, promotion (uint8 with int8 -> int16) and numbers
        H col = make({12, 10}, {2, 1}, CT_INT32), row = make({6, 3, 1}, {1, 3}, CT_INT64);
        H r = call(ct_bitwise_and, col, row);
        EXPECT_EQ(shape(r), (Shape{2, 3}));
        EXPECT_EQ(dtype(r), CT_INT64);
        EXPECT_TRUE(allclose(r, {12 & 6, 12 & 3, 12 & 1, 10 & 6, 10 & 3, 10 & 1}, 0, 0));
        EXPECT_EQ(dtype(call(ct_bitwise_or, make({1}, {1}, CT_UINT8), make({1}, {1}, CT_INT8))), CT_INT16);
        EXPECT_EQ(dtype(call(ct_bitwise_or, make({1}, {1}, CT_INT8), wrapped_int(3))), CT_INT8);
        EXPECT_EQ(dtype(call(ct_bitwise_and, m, make({1}, {1}, CT_INT64))), CT_INT64);
    });
}

TEST(Bitwise, ShiftsInsideAndOutsideTheWidth) {
    for_each_device([&] {
        H a = make({1, -1, -8, 5}, {4}, CT_INT64);
        EXPECT_TRUE(allclose(call(ct_bitwise_left_shift, a, make({1}, {1}, CT_INT64)), {2, -2, -16, 10}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_bitwise_right_shift, a, make({1}, {1}, CT_INT64)), {0, -1, -4, 2}, 0, 0));
        std::vector<double> top = values(call(ct_bitwise_left_shift, make({1}, {1}, CT_INT64), make({63}, {1}, CT_INT64)));
        EXPECT_EQ(top[0], -0x1p63);
        for (double count : {64.0, 65.0, 100.0, -1.0}) {
            H c = make({count}, {1}, CT_INT64);
            EXPECT_TRUE(allclose(call(ct_bitwise_left_shift, a, c), {0, 0, 0, 0}, 0, 0)) << count;
            EXPECT_TRUE(allclose(call(ct_bitwise_right_shift, a, c), {0, -1, -1, 0}, 0, 0)) << count;
        }
        H i8 = make({1, -1, -128, 100}, {4}, CT_INT8);
        EXPECT_TRUE(allclose(call(ct_bitwise_left_shift, i8, make({7}, {1}, CT_INT8)), {-128, -128, 0, 0}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_bitwise_left_shift, i8, make({8}, {1}, CT_INT8)), {0, 0, 0, 0}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_bitwise_right_shift, i8, make({9}, {1}, CT_INT8)), {0, -1, -1, 0}, 0, 0));
        H u8 = make({1, 255, 128}, {3}, CT_UINT8);
        EXPECT_TRUE(allclose(call(ct_bitwise_left_shift, u8, make({7}, {1}, CT_UINT8)), {128, 128, 0}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_bitwise_right_shift, u8, make({7}, {1}, CT_UINT8)), {0, 1, 1}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_bitwise_right_shift, u8, make({8}, {1}, CT_UINT8)), {0, 0, 0}, 0, 0));
        H i32 = make({5, -5}, {2}, CT_INT32);
        EXPECT_TRUE(allclose(call(ct_bitwise_left_shift, i32, wrapped_int(32)), {0, 0}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_bitwise_right_shift, i32, wrapped_int(40)), {0, -1}, 0, 0));
    });
}

TEST(Bitwise, GcdLcm) {
    for_each_device([&] {
        const double lo = -0x1p63;
        H a = make({-12, 0, 0, lo, 7, 12}, {6}, CT_INT64), b = make({18, 0, -5, 0, -14, 18}, {6}, CT_INT64);
        EXPECT_TRUE(allclose(call(ct_gcd, a, b), {6, 0, 5, lo, 7, 6}, 0, 0));
        H c = make({-4, 0, 6, 3}, {4}, CT_INT64), d = make({6, 5, -4, 0}, {4}, CT_INT64);
        EXPECT_TRUE(allclose(call(ct_lcm, c, d), {12, 0, 12, 0}, 0, 0));
        // narrow types compute as torch: in int, the magnitude taken before narrowing (300 -> 44, 200 -> -56)
        H e = make({100, -100, 100}, {3}, CT_INT8), f = make({3, 3, 2}, {3}, CT_INT8);
        EXPECT_TRUE(allclose(call(ct_lcm, e, f), {44, 44, 100}, 0, 0));
        EXPECT_TRUE(allclose(call(ct_lcm, make({100}, {1}, CT_INT16), make({200}, {1}, CT_UINT8)), {200}, 0, 0));
        EXPECT_EQ(dtype(call(ct_gcd, make({4}, {1}, CT_UINT8), make({6}, {1}, CT_INT8))), CT_INT16);
    });
}

TEST(Bitwise, RefusalsAndEdgeShapes) {
    H f = make({1, 2}, {2}, CT_FLOAT32), i = make({1, 2}, {2}, CT_INT64), m = make({1, 0}, {2}, CT_BOOL), r;
    CT_EXPECT_ERR(ct_bitwise_and(f.get(), f.get(), r.out()), CT_ERR_DTYPE, "bitwise_and: not implemented for float32");
    CT_EXPECT_ERR(ct_bitwise_or(i.get(), f.get(), r.out()), CT_ERR_DTYPE, "bitwise_or");
    CT_EXPECT_ERR(ct_bitwise_not(f.get(), r.out()), CT_ERR_DTYPE, "bitwise_not: not implemented for float32");
    CT_EXPECT_ERR(ct_bitwise_left_shift(m.get(), m.get(), r.out()), CT_ERR_DTYPE, "bitwise_left_shift");
    CT_EXPECT_ERR(ct_gcd(m.get(), m.get(), r.out()), CT_ERR_DTYPE, "gcd: not implemented for bool");
    CT_EXPECT_ERR(ct_lcm(i.get(), make({1, 2, 3}, {3}, CT_INT64).get(), r.out()), CT_ERR_SHAPE, "lcm");
    CT_EXPECT_ERR(ct_bitwise_xor(i.get(), nullptr, r.out()), CT_ERR_INVALID_HANDLE, "bitwise_xor");
    CT_EXPECT_ERR(ct_bitwise_not(nullptr, r.out()), CT_ERR_INVALID_HANDLE, "bitwise_not");
    H e = make({}, {0, 3}, CT_INT64), s = make({3}, {}, CT_INT64);
    for (BinaryFn fn : {ct_bitwise_and, ct_bitwise_or, ct_bitwise_xor, ct_bitwise_left_shift, ct_bitwise_right_shift,
                        ct_gcd, ct_lcm}) {
        EXPECT_EQ(shape(call(fn, e, s)), (Shape{0, 3}));
        EXPECT_EQ(shape(call(fn, s, s)), (Shape{}));
    }
    EXPECT_EQ(shape(bnot(e)), (Shape{0, 3}));
}

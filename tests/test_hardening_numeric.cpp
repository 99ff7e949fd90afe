// test_hardening_numeric.cpp - issue 18's findings 3 and 8: integer tensors wrap in two's complement (never signed
// overflow, which UBSan reports in the sanitizer build), INT_MIN // -1 and INT_MIN % -1 never trap, a wrapped integer
// scalar that does not fit the dtype it is computed in is an error (Note [Scalar range]), and integer division by
// zero names the op that divides.
#include <cstdint>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {

constexpr double kMin64 = -9223372036854775808.0;

H int64s(const std::vector<int64_t>& v) {
    H t;
    int64_t shape[1] = {(int64_t)v.size()};
    ok(ct_tensor_from_data(v.data(), (int64_t)(v.size() * 8), shape, 1, CT_INT64, ct_cpu(), t.out()));
    return t;
}

std::vector<int64_t> int64_values(const H& t) {
    int64_t n = 0;
    ok(ct_tensor_numel(t.get(), &n));
    std::vector<int64_t> v((size_t)n);
    ok(ct_tensor_copy_to_host(t.get(), v.data(), n * 8));
    return v;
}

H scalar(double v, bool is_integer = true) {
    H s;
    ok(ct_wrapped_scalar(v, is_integer ? 1 : 0, s.out()));
    return s;
}

}  // namespace

TEST(HardeningNumeric, IntegerArithmeticWraps) {
    const int64_t mx = std::numeric_limits<int64_t>::max(), mn = std::numeric_limits<int64_t>::min();
    H a = int64s({mx, mn, 3}), b = int64s({1, -1, mx});
    H r;
    CT_ASSERT_OK(ct_add(a.get(), b.get(), 1.0, r.out()));
    EXPECT_EQ(int64_values(r), (std::vector<int64_t>{mn, mx, mn + 2}));
    CT_ASSERT_OK(ct_sub(a.get(), b.get(), 2.0, r.out()));  // mx - 2, mn + 2, 3 - 2 mx (wrapped)
    EXPECT_EQ(int64_values(r), (std::vector<int64_t>{mx - 2, mn + 2, (int64_t)(3 - 2 * (uint64_t)mx)}));
    CT_ASSERT_OK(ct_mul(a.get(), b.get(), r.out()));
    EXPECT_EQ(int64_values(r), (std::vector<int64_t>{mx, mn, (int64_t)(3 * (uint64_t)mx)}));
    CT_ASSERT_OK(ct_neg(a.get(), r.out()));
    EXPECT_EQ(int64_values(r), (std::vector<int64_t>{-mx, mn, -3}));
    CT_ASSERT_OK(ct_abs(a.get(), r.out()));
    EXPECT_EQ(int64_values(r), (std::vector<int64_t>{mx, mn, 3}));
    CT_ASSERT_OK(ct_pow(int64s({3}).get(), int64s({41}).get(), r.out()));  // 3^41 wraps past 2^63
    uint64_t p = 1;
    for (int i = 0; i < 41; ++i) p *= 3;
    EXPECT_EQ(int64_values(r), std::vector<int64_t>{(int64_t)p});
    H big = int64s({mx, mx, mx});
    CT_ASSERT_OK(ct_sum(big.get(), nullptr, 0, 0, r.out()));
    EXPECT_EQ(int64_values(r), std::vector<int64_t>{(int64_t)(3 * (uint64_t)mx)});
    CT_ASSERT_OK(ct_prod(big.get(), nullptr, 0, 0, r.out()));
    EXPECT_EQ(int64_values(r), std::vector<int64_t>{(int64_t)((uint64_t)mx * (uint64_t)mx * (uint64_t)mx)});
    CT_ASSERT_OK(ct_cumsum(big.get(), 0, r.out()));
    EXPECT_EQ(int64_values(r), (std::vector<int64_t>{mx, -2, mx - 2}));
    CT_ASSERT_OK(ct_cumprod(big.get(), 0, r.out()));
    EXPECT_EQ(int64_values(r)[1], (int64_t)((uint64_t)mx * (uint64_t)mx));
    // int32 products wrap in int32
    H i32 = make({65536, -2147483648.0}, {2}, CT_INT32), two = make({65536, -1}, {2}, CT_INT32);
    CT_ASSERT_OK(ct_mul(i32.get(), two.get(), r.out()));
    EXPECT_EQ(values(r), (std::vector<double>{0, -2147483648.0}));
}

TEST(HardeningNumeric, IntegerDivisionNeverTraps) {
    const int64_t mn = std::numeric_limits<int64_t>::min();
    H a = int64s({mn, 7, -7, 7, -7, 0}), b = int64s({-1, -2, 2, 2, -2, 5});
    H q, r;
    CT_ASSERT_OK(ct_floor_divide(a.get(), b.get(), q.out()));
    EXPECT_EQ(int64_values(q), (std::vector<int64_t>{mn, -4, -4, 3, 3, 0}));
    CT_ASSERT_OK(ct_remainder(a.get(), b.get(), r.out()));
    EXPECT_EQ(int64_values(r), (std::vector<int64_t>{0, -1, 1, 1, -1, 0}));
    H i32 = make({-2147483648.0}, {1}, CT_INT32), m1 = make({-1}, {1}, CT_INT32);
    CT_ASSERT_OK(ct_floor_divide(i32.get(), m1.get(), q.out()));
    EXPECT_EQ(values(q), std::vector<double>{-2147483648.0});
    // floats: PyTorch's floor division (signs of zero kept, IEEE results for 0)
    H f = make({7.5, -7.5, 1.0, -0.0, 1.0}, {5}), g = make({-2, 2, 3, 5, 0}, {5});
    CT_ASSERT_OK(ct_floor_divide(f.get(), g.get(), q.out()));
    std::vector<double> v = values(q);
    EXPECT_EQ(v[0], -4.0);
    EXPECT_EQ(v[1], -4.0);
    EXPECT_EQ(v[2], 0.0);
    EXPECT_TRUE(std::signbit(v[3]));
    EXPECT_TRUE(std::isinf(v[4]));
    // exact beyond 2^53 (floor division used to go through float64)
    H huge = int64s({(int64_t(1) << 62) + 1}), one = int64s({1});
    CT_ASSERT_OK(ct_floor_divide(huge.get(), one.get(), q.out()));
    EXPECT_EQ(int64_values(q), std::vector<int64_t>{(int64_t(1) << 62) + 1});
    // division by zero names the op
    H zero = int64s({0}), out;
    CT_EXPECT_ERR(ct_floor_divide(a.get(), zero.get(), out.out()), CT_ERR_INVALID_ARGUMENT,
                  "floor_divide: integer division by zero");
    CT_EXPECT_ERR(ct_remainder(a.get(), zero.get(), out.out()), CT_ERR_INVALID_ARGUMENT, "remainder: integer division");
    EXPECT_FALSE(out);
    (void)kMin64;
}

TEST(HardeningNumeric, ScalarsMustFitTheDtype) {
    H u8 = make({5}, {1}, CT_UINT8), out;
    CT_EXPECT_ERR(ct_add(u8.get(), scalar(300).get(), 1.0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "add: value 300 cannot be converted to uint8 without overflow");
    CT_EXPECT_ERR(ct_floor_divide(u8.get(), scalar(256).get(), out.out()), CT_ERR_INVALID_ARGUMENT,
                  "cannot be converted to uint8");
    CT_EXPECT_ERR(ct_remainder(u8.get(), scalar(256).get(), out.out()), CT_ERR_INVALID_ARGUMENT,
                  "cannot be converted to uint8");
    CT_EXPECT_ERR(ct_add(u8.get(), scalar(-1).get(), 1.0, out.out()), CT_ERR_INVALID_ARGUMENT, "value -1");
    H i32 = make({5}, {1}, CT_INT32);
    CT_EXPECT_ERR(ct_mul(i32.get(), scalar(1099511627776.0).get(), out.out()), CT_ERR_INVALID_ARGUMENT,
                  "mul: value 1099511627776 cannot be converted to int32");
    EXPECT_FALSE(out);
    // negative scalars that fit signed dtypes, and the extremes of each dtype
    CT_ASSERT_OK(ct_add(i32.get(), scalar(-1).get(), 1.0, out.out()));
    EXPECT_EQ(values(out), std::vector<double>{4});
    CT_ASSERT_OK(ct_add(i32.get(), scalar(-2147483648.0).get(), 1.0, out.out()));
    EXPECT_EQ(values(out), std::vector<double>{-2147483643.0});
    CT_EXPECT_ERR(ct_add(i32.get(), scalar(-2147483649.0).get(), 1.0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "value -2147483649 cannot be converted to int32");
    CT_ASSERT_OK(ct_mul(u8.get(), scalar(0).get(), out.out()));
    EXPECT_EQ(values(out), std::vector<double>{0});
    // values that fit, float scalars (they promote to a floating result) and int64 tensors are fine
    CT_ASSERT_OK(ct_add(u8.get(), scalar(250).get(), 1.0, out.out()));
    EXPECT_EQ(values(out), std::vector<double>{255});
    CT_ASSERT_OK(ct_mul(u8.get(), scalar(1.5, false).get(), out.out()));
    EXPECT_EQ(values(out), std::vector<double>{7.5});
    CT_ASSERT_OK(ct_add(int64s({1}).get(), scalar(1099511627776.0).get(), 1.0, out.out()));
    EXPECT_EQ(values(out), std::vector<double>{1099511627777.0});
    // a 0-d tensor (not a Python number) that wraps to 0 in the compute dtype is a division by zero, not a trap
    H t256;
    CT_ASSERT_OK(ct_scalar_tensor(256, CT_INT64, ct_cpu(), t256.out()));
    CT_EXPECT_ERR(ct_floor_divide(u8.get(), t256.get(), out.out()), CT_ERR_INVALID_ARGUMENT, "division by zero");
}

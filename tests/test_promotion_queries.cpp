// test_promotion_queries.cpp - ct_promote_types, ct_can_cast and ct_result_type: the queries agree with the dtype
// the ops themselves give (ct_mul of two tensors, of a tensor and a wrapped scalar), can_cast follows torch's
// category rule, and bad dtypes / NULL / released handles are errors naming the query.
#include "ct_test.h"

using namespace ctt;

namespace {

const ct_dtype kEvery[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32,   CT_INT64,     CT_UINT8,     CT_BOOL,
                           CT_FLOAT16, CT_BFLOAT16, CT_INT8,   CT_INT16,     CT_COMPLEX64, CT_COMPLEX128};

// bool < integer < floating < complex, written out independently of the library.
int category(ct_dtype d) {
    switch (d) {
    case CT_BOOL: return 0;
    case CT_INT32: case CT_INT64: case CT_UINT8: case CT_INT8: case CT_INT16: return 1;
    case CT_COMPLEX64: case CT_COMPLEX128: return 3;
    default: return 2;
    }
}

H wrapped(double v, int32_t is_int) {
    H s;
    EXPECT_EQ(ct_wrapped_scalar(v, is_int, s.out()), CT_OK) << ct_last_error();
    return s;
}

}  // namespace

TEST(PromotionQueries, PromoteTypesIsWhatTheOpsGive) {
    for (ct_dtype a : kEvery)
        for (ct_dtype b : kEvery) {
            ct_dtype got = CT_FLOAT32;
            CT_ASSERT_OK(ct_promote_types(a, b, &got));
            H r;
            CT_ASSERT_OK(ct_mul(make({1, 0}, {2}, a).get(), make({1, 1}, {2}, b).get(), r.out()));
            EXPECT_EQ(got, dtype(r)) << ct_dtype_name(a) << ", " << ct_dtype_name(b);
            ct_dtype swapped = CT_FLOAT32;
            CT_ASSERT_OK(ct_promote_types(b, a, &swapped));
            EXPECT_EQ(got, swapped) << "promote_types is symmetric";
        }
    ct_dtype d = CT_FLOAT32;
    CT_ASSERT_OK(ct_promote_types(CT_FLOAT16, CT_BFLOAT16, &d));
    EXPECT_EQ(d, CT_FLOAT32);
    CT_ASSERT_OK(ct_promote_types(CT_INT8, CT_UINT8, &d));
    EXPECT_EQ(d, CT_INT16);
}

TEST(PromotionQueries, CanCastByCategory) {
    for (ct_dtype from : kEvery)
        for (ct_dtype to : kEvery) {
            int32_t ok_ = -1;
            CT_ASSERT_OK(ct_can_cast(from, to, &ok_));
            EXPECT_EQ(ok_, category(from) <= category(to) ? 1 : 0) << ct_dtype_name(from) << " -> " << ct_dtype_name(to);
        }
}

TEST(PromotionQueries, ResultTypeMatchesTheOps) {
    for (ct_dtype a : kEvery) {
        H t = make({1, 2}, {2}, a);
        for (H s : {wrapped(2.5, 0), wrapped(3, 1), make({1}, {}, CT_FLOAT64), make({1}, {}, CT_INT64),
                    make({1, 1}, {2}, CT_FLOAT16)}) {
            ct_dtype got = CT_FLOAT32, got_swapped = CT_FLOAT32;
            CT_ASSERT_OK(ct_result_type(t.get(), s.get(), &got));
            CT_ASSERT_OK(ct_result_type(s.get(), t.get(), &got_swapped));
            H r;
            CT_ASSERT_OK(ct_add(t.get(), s.get(), 1.0, r.out()));
            EXPECT_EQ(got, dtype(r)) << ct_dtype_name(a) << " + " << ct_dtype_name(dtype(s));
            EXPECT_EQ(got, got_swapped);
        }
    }
    // the cases torch documents: a 0-d float64 does not widen a float32 tensor, a number of a higher category does
    ct_dtype d = CT_FLOAT64;
    CT_ASSERT_OK(ct_result_type(make({1, 2}, {2}, CT_FLOAT32).get(), make({1}, {}, CT_FLOAT64).get(), &d));
    EXPECT_EQ(d, CT_FLOAT32);
    CT_ASSERT_OK(ct_result_type(make({1, 2}, {2}, CT_INT32).get(), wrapped(1.5, 0).get(), &d));
    EXPECT_EQ(d, CT_FLOAT32);
    CT_ASSERT_OK(ct_result_type(make({1, 2}, {2}, CT_UINT8).get(), wrapped(300, 1).get(), &d));
    EXPECT_EQ(d, CT_UINT8);
}

TEST(PromotionQueries, Errors) {
    ct_dtype d = CT_FLOAT32;
    int32_t yes = 0;
    CT_EXPECT_ERR(ct_promote_types((ct_dtype)99, CT_FLOAT32, &d), CT_ERR_DTYPE, "promote_types");
    CT_EXPECT_ERR(ct_promote_types(CT_FLOAT32, CT_FLOAT32, nullptr), CT_ERR_INVALID_ARGUMENT, "promote_types");
    CT_EXPECT_ERR(ct_can_cast(CT_FLOAT32, (ct_dtype)-1, &yes), CT_ERR_DTYPE, "can_cast");
    CT_EXPECT_ERR(ct_can_cast(CT_FLOAT32, CT_INT32, nullptr), CT_ERR_INVALID_ARGUMENT, "can_cast");
    H t = make({1}, {1});
    CT_EXPECT_ERR(ct_result_type(t.get(), nullptr, &d), CT_ERR_INVALID_HANDLE, "result_type");
    ct_tensor gone = nullptr;
    CT_ASSERT_OK(ct_zeros(nullptr, 0, CT_FLOAT32, ct_cpu(), &gone));
    ct_tensor_release(gone);
    CT_EXPECT_ERR(ct_result_type(gone, t.get(), &d), CT_ERR_INVALID_HANDLE, "result_type");
    CT_EXPECT_ERR(ct_result_type(t.get(), t.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "result_type");
}

// test_bool_scalar.cpp - ct_wrapped_scalar_bool (issue 15): a language's bool is a 0-d bool wrapped number, so it
// never changes a tensor's dtype (bool + True stays bool, int8 * True stays int8), division gives the default float,
// and the ops torch 1.13 refuses with a Python bool (t - True on any dtype, bool // True, bool ** True, bitwise on
// floats) are refused here with the op and the dtypes named. Expected dtypes and values were printed by torch 1.13.
#include "ct_test.h"

using namespace ctt;

namespace {

const ct_dtype kEvery[] = {CT_BOOL,    CT_UINT8,    CT_INT8,    CT_INT16,     CT_INT32,    CT_INT64,
                           CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128};

bool is_cplx(ct_dtype d) { return d == CT_COMPLEX64 || d == CT_COMPLEX128; }
bool is_float(ct_dtype d) { return d == CT_FLOAT16 || d == CT_BFLOAT16 || d == CT_FLOAT32 || d == CT_FLOAT64; }

H wrapped_bool(int32_t v) {
    H s;
    EXPECT_EQ(ct_wrapped_scalar_bool(v, s.out()), CT_OK) << ct_last_error();
    return s;
}

// the real parts of t (values() reads real tensors; complex ones go through ct_real)
std::vector<double> real_values(const H& t) {
    if (!is_cplx(dtype(t))) return values(t);
    H r;
    ok(ct_real(t.get(), r.out()));
    return values(r);
}

// x = [1, 0] (n-d) or 1 (0-d) in dtype d
H operand(ct_dtype d, bool zero_dim) { return zero_dim ? make({1}, {}, d) : make({1, 0}, {2}, d); }

}  // namespace

TEST(BoolScalar, IsAWrappedBoolZeroDim) {
    H t = wrapped_bool(7), f = wrapped_bool(0);
    EXPECT_EQ(dtype(t), CT_BOOL);
    EXPECT_EQ(shape(t), Shape{});
    EXPECT_EQ(values(t), std::vector<double>{1});
    EXPECT_EQ(values(f), std::vector<double>{0});
    CT_EXPECT_ERR(ct_wrapped_scalar_bool(1, nullptr), CT_ERR_INVALID_ARGUMENT, "wrapped_scalar_bool");
}

TEST(BoolScalar, KeepsTheTensorDtype) {
    H yes = wrapped_bool(1), no = wrapped_bool(0);
    for (ct_dtype d : kEvery)
        for (bool zd : {false, true}) {
            H x = operand(d, zd), sum, rsum, prod, zero, cond, w, m;
            const std::string what = std::string(ct_dtype_name(d)) + (zd ? " 0-d" : " n-d");
            ok(ct_add(x.get(), yes.get(), 1.0, sum.out()));
            ok(ct_add(yes.get(), x.get(), 2.0, rsum.out()));
            ok(ct_mul(x.get(), yes.get(), prod.out()));
            ok(ct_mul(no.get(), x.get(), zero.out()));
            ok(ct_ne(x.get(), no.get(), cond.out()));
            ok(ct_where(cond.get(), x.get(), yes.get(), w.out()));
            for (const H* r : {&sum, &rsum, &prod, &zero, &w}) EXPECT_EQ(dtype(*r), d) << what;
            EXPECT_EQ(dtype(cond), CT_BOOL) << what;
            const bool b = d == CT_BOOL;  // bool arithmetic saturates at true
            std::vector<double> want_sum = zd ? std::vector<double>{b ? 1.0 : 2.0} : std::vector<double>{b ? 1.0 : 2.0, 1};
            std::vector<double> want_rsum = zd ? std::vector<double>{b ? 1.0 : 3.0} : std::vector<double>{b ? 1.0 : 3.0, 1};
            std::vector<double> want_prod = zd ? std::vector<double>{1} : std::vector<double>{1, 0};
            EXPECT_EQ(real_values(sum), want_sum) << what;
            EXPECT_EQ(real_values(rsum), want_rsum) << what;  // True + 2 * x
            EXPECT_EQ(real_values(prod), want_prod) << what;
            EXPECT_EQ(real_values(zero), std::vector<double>(want_prod.size(), 0.0)) << what;
            EXPECT_EQ(real_values(w), std::vector<double>(want_prod.size(), 1.0)) << what;  // x where x != 0, else True
            if (!is_cplx(d)) {
                ok(ct_maximum(x.get(), yes.get(), m.out()));
                EXPECT_EQ(dtype(m), d) << what;
                EXPECT_EQ(values(m), std::vector<double>(want_prod.size(), 1.0)) << what;
                ok(ct_minimum(no.get(), x.get(), m.out()));
                EXPECT_EQ(dtype(m), d) << what;
                EXPECT_EQ(values(m), std::vector<double>(want_prod.size(), 0.0)) << what;
            }
        }
}

TEST(BoolScalar, DivisionAndPowerAsTorch) {
    H yes = wrapped_bool(1);
    for (ct_dtype d : kEvery) {
        H x = operand(d, false), q, rq, p, fd;
        ok(ct_div(x.get(), yes.get(), q.out()));
        ok(ct_div(yes.get(), make({2, 4}, {2}, d == CT_BOOL ? CT_INT32 : d).get(), rq.out()));
        // torch: an integer or bool tensor over a bool number divides in the default float32
        const ct_dtype fl = is_float(d) || is_cplx(d) ? d : CT_FLOAT32;
        EXPECT_EQ(dtype(q), fl) << ct_dtype_name(d);
        EXPECT_EQ(real_values(q), (std::vector<double>{1, 0})) << ct_dtype_name(d);
        EXPECT_EQ(real_values(rq), (std::vector<double>{0.5, 0.25})) << ct_dtype_name(d);
        if (d == CT_BOOL) {  // bool ** True and bool // True are refused by torch 1.13 ("not implemented for 'Bool'")
            CT_EXPECT_ERR(ct_pow(x.get(), yes.get(), p.out()), CT_ERR_DTYPE, "pow");
            CT_EXPECT_ERR(ct_pow(yes.get(), x.get(), p.out()), CT_ERR_DTYPE, "pow");
            CT_EXPECT_ERR(ct_floor_divide(x.get(), yes.get(), fd.out()), CT_ERR_DTYPE, "floor_divide");
            continue;
        }
        ok(ct_pow(x.get(), yes.get(), p.out()));
        EXPECT_EQ(dtype(p), d) << ct_dtype_name(d);
        EXPECT_EQ(real_values(p), (std::vector<double>{1, 0})) << ct_dtype_name(d);
        if (is_cplx(d)) continue;  // complex floor division is refused for every operand
        ok(ct_floor_divide(make({3, -3}, {2}, d == CT_UINT8 ? CT_INT16 : d).get(), yes.get(), fd.out()));
        EXPECT_EQ(values(fd), (std::vector<double>{3, -3})) << ct_dtype_name(d);
    }
}

TEST(BoolScalar, SubtractionIsRefusedAsTorch) {
    // torch 1.13: "Subtraction, the `-` operator, with a bool tensor is not supported" for t - True on every dtype
    H yes = wrapped_bool(1), r;
    for (ct_dtype d : kEvery) {
        H x = operand(d, false);
        CT_EXPECT_ERR(ct_sub(x.get(), yes.get(), 1.0, r.out()), CT_ERR_DTYPE, "sub");
        CT_EXPECT_ERR(ct_sub(yes.get(), x.get(), 1.0, r.out()), CT_ERR_DTYPE, "bool");
        CT_EXPECT_ERR(ct_sub_(x.get(), yes.get(), 1.0), CT_ERR_DTYPE, "sub");
    }
}

TEST(BoolScalar, BitwiseAndLogicalOps) {
    H yes = wrapped_bool(1), no = wrapped_bool(0);
    for (ct_dtype d : kEvery) {
        H x = operand(d, false), a, o, x_, l;
        if (!is_cplx(d)) {  // ctensor refuses complex logical ops for every operand (torch computes them)
            ok(ct_logical_and(x.get(), yes.get(), l.out()));
            EXPECT_EQ(dtype(l), CT_BOOL);
            EXPECT_EQ(values(l), (std::vector<double>{1, 0})) << ct_dtype_name(d);
        }
        if (is_float(d) || is_cplx(d)) {  // torch: "bitwise_and_cpu" not implemented for 'Float'
            CT_EXPECT_ERR(ct_bitwise_and(x.get(), yes.get(), a.out()), CT_ERR_DTYPE, "bitwise_and");
            continue;
        }
        ok(ct_bitwise_and(x.get(), yes.get(), a.out()));
        ok(ct_bitwise_or(no.get(), x.get(), o.out()));
        ok(ct_bitwise_xor(x.get(), yes.get(), x_.out()));
        for (const H* r : {&a, &o, &x_}) EXPECT_EQ(dtype(*r), d) << ct_dtype_name(d);
        EXPECT_EQ(values(a), (std::vector<double>{1, 0})) << ct_dtype_name(d);
        EXPECT_EQ(values(o), (std::vector<double>{1, 0})) << ct_dtype_name(d);
        EXPECT_EQ(values(x_), (std::vector<double>{0, 1})) << ct_dtype_name(d);
    }
}

TEST(BoolScalar, InPlaceKeepsTheDestination) {
    H yes = wrapped_bool(1);
    for (ct_dtype d : kEvery) {
        H x = operand(d, false);
        ok(ct_add_(x.get(), yes.get(), 1.0));
        ok(ct_mul_(x.get(), yes.get()));
        EXPECT_EQ(dtype(x), d);
        EXPECT_EQ(real_values(x), (std::vector<double>{d == CT_BOOL ? 1.0 : 2.0, 1})) << ct_dtype_name(d);
        if (is_float(d) || is_cplx(d)) {
            ok(ct_div_(x.get(), yes.get()));
        } else {  // torch: "result type Float can't be cast to the desired output type"
            CT_EXPECT_ERR(ct_div_(x.get(), yes.get()), CT_ERR_DTYPE, ct_dtype_name(d));
        }
    }
}

TEST(BoolScalar, HalfTensorsComputeWithTheExactNumber) {
    H yes = wrapped_bool(1);
    for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16}) {
        H x = make({0.5, 2048, -3}, {3}, d), r;
        ok(ct_add(x.get(), yes.get(), 1.0, r.out()));
        EXPECT_EQ(dtype(r), d);
        // 2049 rounds to 2048 in float16 (and bfloat16), as torch 1.13
        EXPECT_EQ(values(r), (std::vector<double>{1.5, 2048, -2})) << ct_dtype_name(d);
    }
}

TEST(PromotionQueries, WrappedBoolAgainstEveryDtype) {
    H yes = wrapped_bool(1), also = wrapped_bool(0);
    for (ct_dtype d : kEvery)
        for (bool zd : {false, true}) {
            H x = operand(d, zd), r;
            ct_dtype got = CT_FLOAT32, swapped = CT_FLOAT32;
            CT_ASSERT_OK(ct_result_type(x.get(), yes.get(), &got));
            CT_ASSERT_OK(ct_result_type(yes.get(), x.get(), &swapped));
            EXPECT_EQ(got, d) << ct_dtype_name(d);  // torch.result_type(t, True) is t.dtype for every dtype
            EXPECT_EQ(swapped, d) << ct_dtype_name(d);
            ct_dtype promoted = CT_FLOAT32;
            CT_ASSERT_OK(ct_promote_types(CT_BOOL, d, &promoted));
            EXPECT_EQ(promoted, d) << "bool is the lowest dtype";
        }
    ct_dtype d = CT_FLOAT32;
    CT_ASSERT_OK(ct_result_type(yes.get(), also.get(), &d));
    EXPECT_EQ(d, CT_BOOL);
    H one;
    CT_ASSERT_OK(ct_wrapped_scalar(1, 1, one.out()));
    CT_ASSERT_OK(ct_result_type(yes.get(), one.get(), &d));  // two numbers: by dtype
    EXPECT_EQ(d, CT_INT64);
}

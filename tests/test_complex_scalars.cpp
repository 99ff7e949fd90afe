// test_complex_scalars.cpp - ct_wrapped_scalar_complex (issue 15): a language's complex number promotes by category
// only, as torch 1.13 (float32 / integer / bool -> complex64, float64 -> complex128, complex keeps its dtype,
// float16 / bfloat16 -> complex64 as docs/dtypes.md says), values of the arithmetic against torch's, == / != work and
// ordering is refused, and the gradient of a real tensor through a complex scalar product (Re of conj(s) * grad).
#include <complex>
#include "ct_test.h"

using namespace ctt;
using cd = std::complex<double>;

namespace {

H wrapped(double re, double im) {
    H s;
    ok(ct_wrapped_scalar_complex(re, im, s.out()));
    return s;
}

std::vector<cd> cvalues(const H& t) {
    H v;
    ok(ct_view_as_real(t.get(), v.out()));
    std::vector<double> p = values(v);
    std::vector<cd> out;
    for (size_t i = 0; i + 1 < p.size(); i += 2) out.emplace_back(p[i], p[i + 1]);
    return out;
}

}  // namespace

TEST(ComplexScalar, IsAWrappedComplex128ZeroDim) {
    H s = wrapped(1.5, -2.0);
    EXPECT_EQ(dtype(s), CT_COMPLEX128);
    EXPECT_EQ(shape(s), Shape{});
    double re = 0, im = 0;
    ok(ct_tensor_item_complex(s.get(), &re, &im));
    EXPECT_EQ(re, 1.5);
    EXPECT_EQ(im, -2.0);
    EXPECT_EQ(ct_wrapped_scalar_complex(1, 2, nullptr), CT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ct_last_error()).find("wrapped_scalar_complex"), std::string::npos) << ct_last_error();
}

TEST(ComplexScalar, PromotesByCategoryAsTorch) {
    struct Row { ct_dtype in, out; };
    // torch 1.13: torch.ones(2, dtype=d) * 1j; float16 gives complex32 there, complex64 here (docs/dtypes.md)
    const Row rows[] = {{CT_BOOL, CT_COMPLEX64},     {CT_UINT8, CT_COMPLEX64},       {CT_INT8, CT_COMPLEX64},
                        {CT_INT16, CT_COMPLEX64},    {CT_INT32, CT_COMPLEX64},       {CT_INT64, CT_COMPLEX64},
                        {CT_FLOAT16, CT_COMPLEX64},  {CT_BFLOAT16, CT_COMPLEX64},    {CT_FLOAT32, CT_COMPLEX64},
                        {CT_FLOAT64, CT_COMPLEX128}, {CT_COMPLEX64, CT_COMPLEX64},   {CT_COMPLEX128, CT_COMPLEX128}};
    H s = wrapped(0.5, 2.0);
    for (const Row& r : rows) {
        for (const Shape& sh : {Shape{2}, Shape{}}) {  // a 0-d tensor still outranks the wrapped number
            H x = make(sh.empty() ? std::vector<double>{1} : std::vector<double>{1, 1}, sh, r.in), y, z;
            ok(ct_mul(x.get(), s.get(), y.out()));
            EXPECT_EQ(dtype(y), r.out) << ct_dtype_name(r.in);
            ok(ct_add(s.get(), x.get(), 1.0, z.out()));
            EXPECT_EQ(dtype(z), r.out) << ct_dtype_name(r.in);
            for (cd v : cvalues(y)) EXPECT_EQ(v, cd(0.5, 2.0)) << ct_dtype_name(r.in);
            for (cd v : cvalues(z)) EXPECT_EQ(v, cd(1.5, 2.0)) << ct_dtype_name(r.in);
        }
    }
}

TEST(ComplexScalar, ArithmeticValuesMatchTorch) {
    H x = make({1, -2}, {2}, CT_FLOAT64), s = wrapped(0.5, 2.0), r;
    // values printed by torch 1.13 for x = [1., -2.], s = 0.5+2j
    ok(ct_mul(x.get(), s.get(), r.out()));
    EXPECT_EQ(cvalues(r), (std::vector<cd>{{0.5, 2}, {-1, -4}}));
    ok(ct_div(s.get(), x.get(), r.out()));
    EXPECT_EQ(cvalues(r), (std::vector<cd>{{0.5, 2}, {-0.25, -1}}));
    ok(ct_sub(x.get(), s.get(), 1.0, r.out()));
    EXPECT_EQ(cvalues(r), (std::vector<cd>{{0.5, -2}, {-2.5, -2}}));
    ok(ct_pow(x.get(), s.get(), r.out()));
    std::vector<cd> p = cvalues(r);
    EXPECT_NEAR(std::abs(p[0] - cd(1, 0)), 0, 1e-12);
    EXPECT_NEAR(std::abs(p[1] - cd(-0.0025961397312833884, 0.0004845030526940058)), 0, 1e-12);
}

TEST(ComplexScalar, EqualityWorksOrderingRefuses) {
    H x = make({1, 2}, {2}, CT_INT32), one = wrapped(1, 0), i = wrapped(0, 1), r;
    ok(ct_eq(x.get(), one.get(), r.out()));
    EXPECT_EQ(values(r), (std::vector<double>{1, 0}));
    ok(ct_ne(x.get(), i.get(), r.out()));
    EXPECT_EQ(values(r), (std::vector<double>{1, 1}));
    ct_tensor out = nullptr;
    EXPECT_EQ(ct_lt(x.get(), i.get(), &out), CT_ERR_NOT_SUPPORTED);
    EXPECT_EQ(out, nullptr);
    EXPECT_NE(std::string(ct_last_error()).find("complex64"), std::string::npos) << ct_last_error();
    // every dtype and shape, empty and 0-d included, on either side (the fuzz target relies on it)
    for (ct_dtype dt : {CT_BOOL, CT_UINT8, CT_INT64, CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64,
                        CT_COMPLEX128}) {
        for (const Shape& sh : {Shape{0}, Shape{}, Shape{2, 0, 3}}) {
            H y = make(sh.empty() ? std::vector<double>{1} : std::vector<double>{}, sh, dt);
            EXPECT_EQ(ct_lt(y.get(), i.get(), &out), CT_ERR_NOT_SUPPORTED) << ct_dtype_name(dt) << " rank " << sh.size();
            EXPECT_EQ(ct_ge(i.get(), y.get(), &out), CT_ERR_NOT_SUPPORTED) << ct_dtype_name(dt) << " rank " << sh.size();
        }
    }
    EXPECT_EQ(out, nullptr);
}

TEST(ComplexScalar, GradientOfARealTensorIsReOfConjScalarTimesGrad) {
    H x = make({1, -2}, {2}, CT_FLOAT64, true), s = wrapped(0.5, 2.0), z, im, loss;
    ok(ct_div(s.get(), x.get(), z.out()));
    ok(ct_imag(z.get(), im.out()));
    ok(ct_sum(im.get(), nullptr, 0, 0, loss.out()));
    ok(ct_backward(loss.get(), nullptr, 0, 0));
    H g;
    ok(ct_tensor_grad(x.get(), g.out()));
    EXPECT_TRUE(allclose(g, {-2.0, -0.5}, 1e-12, 1e-12));  // torch 1.13: d imag(s / x) / dx = -2 / x^2
}

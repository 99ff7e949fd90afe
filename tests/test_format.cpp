// test_format.cpp - ct_tensor_to_string: PyTorch's repr rules (styles, widths, line wrapping, summaries,
// suffixes, empty and 0-d tensors) and the C buffer contract (truncation, full length, bad buffers).
#include <cstring>
#include "ct_test.h"

using namespace ctt;

namespace {
std::string repr(const H& t) {
    int64_t len = -1;
    ok(ct_tensor_to_string(t.get(), nullptr, 0, &len));
    std::string s((size_t)len + 1, '\0');
    int64_t len2 = -1;
    ok(ct_tensor_to_string(t.get(), &s[0], len + 1, &len2));
    EXPECT_EQ(len, len2);
    s.resize((size_t)len);
    return s;
}
H arange(double start, double end, ct_dtype dt) {
    H out;
    ok(ct_arange(start, end, 1, dt, ct_cpu(), out.out()));
    return out;
}
H reshaped(const H& t, Shape s) {
    H out;
    ok(ct_reshape(t.get(), s.data(), (int32_t)s.size(), out.out()));
    return out;
}
}  // namespace

TEST(Format, FloatStyles) {
    EXPECT_EQ(repr(make({1, 2, 3, 4}, {2, 2}, CT_FLOAT32)), "tensor([[1., 2.],\n        [3., 4.]])");
    EXPECT_EQ(repr(make({3.5}, {}, CT_FLOAT32)), "tensor(3.5000)");
    EXPECT_EQ(repr(make({1.5, -2.25}, {2}, CT_FLOAT32)), "tensor([ 1.5000, -2.2500])");
    EXPECT_EQ(repr(make({0.1, 10}, {2}, CT_FLOAT32)), "tensor([ 0.1000, 10.0000])");
    EXPECT_EQ(repr(make({1e-5, 1}, {2}, CT_FLOAT32)), "tensor([1.0000e-05, 1.0000e+00])");
    EXPECT_EQ(repr(make({1, 1e9}, {2}, CT_FLOAT32)), "tensor([1.0000e+00, 1.0000e+09])");
    EXPECT_EQ(repr(make({1.5, 2000}, {2}, CT_FLOAT32)), "tensor([1.5000e+00, 2.0000e+03])");
    EXPECT_EQ(repr(make({-1, 100}, {2}, CT_FLOAT32)), "tensor([ -1., 100.])");
    EXPECT_EQ(repr(make({0, 0}, {2}, CT_FLOAT32)), "tensor([0., 0.])");
    EXPECT_EQ(repr(make({-0.0}, {1}, CT_FLOAT32)), "tensor([-0.])");
    EXPECT_EQ(repr(make({NAN, INFINITY, 1.5}, {3}, CT_FLOAT32)), "tensor([   nan,    inf, 1.5000])");
    EXPECT_EQ(repr(make({1, NAN, -INFINITY}, {3}, CT_FLOAT32)), "tensor([1., nan, -inf])");
    EXPECT_EQ(repr(make({NAN}, {}, CT_FLOAT32)), "tensor(nan)");
    EXPECT_EQ(repr(make({0.00012345}, {}, CT_FLOAT32)), "tensor(0.0001)");  // 1e-4 <= value: fixed
    EXPECT_EQ(repr(make({0.00001234}, {}, CT_FLOAT32)), "tensor(1.2340e-05)");
}

TEST(Format, DtypeSuffixes) {
    EXPECT_EQ(repr(make({1, 2}, {2}, CT_FLOAT64)), "tensor([1., 2.], dtype=float64)");
    EXPECT_EQ(repr(make({2.5}, {}, CT_FLOAT64)), "tensor(2.5000, dtype=float64)");
    EXPECT_EQ(repr(make({1, -20, 300}, {3}, CT_INT64)), "tensor([  1, -20, 300])");
    EXPECT_EQ(repr(make({1, 2}, {2}, CT_INT32)), "tensor([1, 2], dtype=int32)");
    EXPECT_EQ(repr(make({0, 255}, {2}, CT_UINT8)), "tensor([  0, 255], dtype=uint8)");
    EXPECT_EQ(repr(make({1, 0}, {2}, CT_BOOL)), "tensor([ True, False])");
    EXPECT_EQ(repr(make({1}, {}, CT_BOOL)), "tensor(True)");
    EXPECT_EQ(repr(make({5}, {}, CT_INT64)), "tensor(5)");
    int64_t big = (int64_t(1) << 62) + 1, n1 = 1;
    H b;
    CT_ASSERT_OK(ct_tensor_from_data(&big, sizeof big, &n1, 1, CT_INT64, ct_cpu(), b.out()));
    EXPECT_EQ(repr(b), "tensor([4611686018427387905])");
}

TEST(Format, AutogradSuffixes) {
    H x = make({1, 2}, {2}, CT_FLOAT32, true);
    EXPECT_EQ(repr(x), "tensor([1., 2.], requires_grad=True)");
    H y;
    CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
    EXPECT_EQ(repr(y), "tensor([1., 4.], grad_fn=<MulBackward>)");
    H d = make({1, 2}, {2}, CT_FLOAT64, true);
    EXPECT_EQ(repr(d), "tensor([1., 2.], dtype=float64, requires_grad=True)");
    // a suffix that would pass 80 columns goes on its own line
    H r = arange(0, 28, CT_FLOAT32), rr;
    CT_ASSERT_OK(ct_clone(r.get(), rr.out()));
    CT_ASSERT_OK(ct_tensor_set_requires_grad(rr.get(), 1));
    EXPECT_EQ(repr(rr),
              "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
              "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.],\n"
              "       requires_grad=True)");
}

TEST(Format, LineWrappingAndNesting) {
    EXPECT_EQ(repr(arange(0, 30, CT_FLOAT32)),
              "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
              "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
              "        28., 29.])");
    EXPECT_EQ(repr(reshaped(arange(0, 8, CT_INT64), {2, 2, 2})),
              "tensor([[[0, 1],\n"
              "         [2, 3]],\n"
              "\n"
              "        [[4, 5],\n"
              "         [6, 7]]])");
    // a non-contiguous view prints in logical order
    H m = reshaped(arange(0, 6, CT_INT64), {2, 3}), t;
    CT_ASSERT_OK(ct_transpose(m.get(), 0, 1, t.out()));
    EXPECT_EQ(repr(t), "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])");
}

TEST(Format, Summaries) {
    EXPECT_EQ(repr(arange(0, 2000, CT_INT64)), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
    EXPECT_EQ(repr(arange(0, 1000, CT_INT64)).find("..."), std::string::npos);  // 1000 is not above the threshold
    int64_t dims[2] = {40, 50};
    H z;
    CT_ASSERT_OK(ct_zeros(dims, 2, CT_FLOAT32, ct_cpu(), z.out()));
    EXPECT_EQ(repr(z),
              "tensor([[0., 0., 0.,  ..., 0., 0., 0.],\n"
              "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
              "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
              "        ...,\n"
              "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
              "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
              "        [0., 0., 0.,  ..., 0., 0., 0.]])");
    // the style comes from the printed values only: the hidden middle (1e6) does not force scientific
    std::vector<double> v(1001, 1e6);
    for (int i = 0; i < 3; ++i) v[(size_t)i] = 1.5, v[1000 - (size_t)i] = 2.5;
    EXPECT_EQ(repr(make(v, {1001}, CT_FLOAT32)), "tensor([1.5000, 1.5000, 1.5000,  ..., 2.5000, 2.5000, 2.5000])");
}

TEST(Format, EmptyTensors) {
    int64_t d03[2] = {0, 3}, d0[1] = {0};
    H a, b, c;
    CT_ASSERT_OK(ct_zeros(d03, 2, CT_FLOAT32, ct_cpu(), a.out()));
    EXPECT_EQ(repr(a), "tensor([], size=(0, 3))");
    CT_ASSERT_OK(ct_zeros(d0, 1, CT_FLOAT32, ct_cpu(), b.out()));
    EXPECT_EQ(repr(b), "tensor([])");
    CT_ASSERT_OK(ct_zeros(d0, 1, CT_INT64, ct_cpu(), c.out()));
    EXPECT_EQ(repr(c), "tensor([], dtype=int64)");
    CT_ASSERT_OK(ct_zeros(d03, 2, CT_FLOAT64, ct_cpu(), c.out()));
    EXPECT_EQ(repr(c), "tensor([], size=(0, 3), dtype=float64)");
}

TEST(Format, BufferContract) {
    H t = make({1, 2}, {2}, CT_FLOAT32);
    const std::string full = "tensor([1., 2.])";
    char buf[8];
    std::memset(buf, 'x', sizeof buf);
    int64_t len = -1;
    CT_ASSERT_OK(ct_tensor_to_string(t.get(), buf, 5, &len));
    EXPECT_EQ(len, (int64_t)full.size());
    EXPECT_STREQ(buf, "tens");
    EXPECT_EQ(buf[5], 'x');  // nothing written past cap
    CT_ASSERT_OK(ct_tensor_to_string(t.get(), buf, 1, nullptr));
    EXPECT_STREQ(buf, "");
    CT_EXPECT_ERR(ct_tensor_to_string(t.get(), nullptr, 4, &len), CT_ERR_INVALID_ARGUMENT, "tensor_to_string");
    CT_EXPECT_ERR(ct_tensor_to_string(t.get(), buf, -1, &len), CT_ERR_INVALID_ARGUMENT, "capacity");
    CT_EXPECT_ERR(ct_tensor_to_string(nullptr, buf, 8, &len), CT_ERR_INVALID_HANDLE, "tensor_to_string");
    EXPECT_EQ(len, (int64_t)full.size());  // untouched on failure
}

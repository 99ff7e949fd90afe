// test_hardening_sizes.cpp - regression tests of issue 18, findings 1, 2, 5 and 9: empty inner dims, size
// arithmetic that overflows int64, work bounded by the result, and the smaller contract breaks (from_blob on an
// unloadable device, flatten of a 0-d tensor, empty embedding, caller strings quoted as valid UTF-8).
#include <dlpack/dlpack.h>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t k40 = int64_t(1) << 40;

// Whether s is well-formed UTF-8 (what every binding decodes the message as).
bool is_utf8(const std::string& s) {
    size_t i = 0;
    while (i < s.size()) {
        unsigned char c = (unsigned char)s[i];
        int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (n < 0 || i + (size_t)n >= s.size() + (n ? 0 : 1)) return false;
        if (c == 0xC0 || c == 0xC1 || c > 0xF4) return false;
        for (int k = 1; k <= n; ++k)
            if (i + (size_t)k >= s.size() || ((unsigned char)s[i + (size_t)k] >> 6) != 2) return false;
        i += (size_t)n + 1;
    }
    return true;
}

// Checks that the live-handle count is back where it started when the test body ends.
class HandleCheck {
  public:
    HandleCheck() : before_(ct_live_handles()) {}
    ~HandleCheck() { EXPECT_EQ(ct_live_handles(), before_) << "handles leaked"; }
  private:
    int64_t before_;
};

H full_of(const Shape& s, double v) {
    H t;
    ok(ct_full(s.data(), (int32_t)s.size(), v, CT_FLOAT64, test_device(), t.out()));
    return t;
}

std::vector<double> repeated(size_t n, double v) { return std::vector<double>(n, v); }

}  // namespace

// ---- finding 1: an empty inner (reduction) dimension ----

TEST(HardeningSizes, LinearWithEmptyInnerDimGivesZerosOrBias) {
    HandleCheck hc;
    for_each_device([&] {
        H x = full_of({3, 2, 0}, 1.0), w = full_of({3, 0}, 1.0), y;
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), nullptr, y.out()));
        EXPECT_EQ(shape(y), (Shape{3, 2, 3}));
        EXPECT_EQ(values(y), repeated(18, 0.0));
        H b = make({1, 2, 3}, {3});
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), b.get(), y.out()));
        std::vector<double> want;
        for (int r = 0; r < 6; ++r) want.insert(want.end(), {1, 2, 3});
        EXPECT_EQ(values(y), want);
        H x1 = full_of({0}, 1.0);  // a 1-D input
        CT_ASSERT_OK(ct_linear(x1.get(), w.get(), nullptr, y.out()));
        EXPECT_EQ(shape(y), (Shape{3}));
        EXPECT_EQ(values(y), repeated(3, 0.0));
    });
}

TEST(HardeningSizes, MatmulFamilyWithEmptyInnerDimGivesZeros) {
    HandleCheck hc;
    for_each_device([&] {
        H a = full_of({2, 0}, 1.0), b = full_of({0, 3}, 1.0), y;
        CT_ASSERT_OK(ct_matmul(a.get(), b.get(), y.out()));
        EXPECT_EQ(shape(y), (Shape{2, 3}));
        EXPECT_EQ(values(y), repeated(6, 0.0));
        H ba = full_of({4, 2, 0}, 1.0), bb = full_of({4, 0, 3}, 1.0);
        CT_ASSERT_OK(ct_matmul(ba.get(), bb.get(), y.out()));
        EXPECT_EQ(shape(y), (Shape{4, 2, 3}));
        EXPECT_EQ(values(y), repeated(24, 0.0));
        H e = full_of({0}, 1.0);
        CT_ASSERT_OK(ct_dot(e.get(), e.get(), y.out()));
        EXPECT_EQ(values(y), repeated(1, 0.0));
        CT_ASSERT_OK(ct_matmul(a.get(), e.get(), y.out()));  // [2, 0] @ [0]
        EXPECT_EQ(values(y), repeated(2, 0.0));
    });
    ct_tensor ops[2];
    H a = full_of({2, 0}, 1.0), b = full_of({0, 3}, 1.0), y;
    ops[0] = a.get();
    ops[1] = b.get();
    CT_ASSERT_OK(ct_einsum("ij,jk->ik", ops, 2, y.out()));
    EXPECT_EQ(shape(y), (Shape{2, 3}));
    EXPECT_EQ(values(y), repeated(6, 0.0));
    CT_ASSERT_OK(ct_einsum("ij->i", ops, 1, y.out()));
    EXPECT_EQ(values(y), repeated(2, 0.0));
}

TEST(HardeningSizes, ConvWithNoInputChannelsGivesBias) {
    HandleCheck hc;
    H x = full_of({1, 0, 3, 3}, 1.0), w = full_of({2, 0, 1, 1}, 1.0), b = make({5, 7}, {2}), y;
    int64_t one[2] = {1, 1}, zero[2] = {0, 0};
    CT_ASSERT_OK(ct_conv2d(x.get(), w.get(), b.get(), one, zero, one, 1, y.out()));
    EXPECT_EQ(shape(y), (Shape{1, 2, 3, 3}));
    std::vector<double> want = repeated(9, 5.0), sevens = repeated(9, 7.0);
    want.insert(want.end(), sevens.begin(), sevens.end());
    EXPECT_EQ(values(y), want);
}

TEST(HardeningSizes, ReductionsOverAnEmptyDimFollowPyTorch) {
    HandleCheck hc;
    for_each_device([&] {
        H x = full_of({2, 0}, 1.0), y;
        int64_t d1 = 1;
        CT_ASSERT_OK(ct_sum(x.get(), &d1, 1, 0, y.out()));
        EXPECT_EQ(values(y), repeated(2, 0.0));
        CT_ASSERT_OK(ct_prod(x.get(), &d1, 1, 0, y.out()));
        EXPECT_EQ(values(y), repeated(2, 1.0));
        CT_ASSERT_OK(ct_mean(x.get(), &d1, 1, 0, y.out()));
        for (double v : values(y)) EXPECT_TRUE(std::isnan(v));
        CT_ASSERT_OK(ct_var(x.get(), &d1, 1, 1.0, 0, y.out()));
        for (double v : values(y)) EXPECT_TRUE(std::isnan(v));
        CT_ASSERT_OK(ct_norm(x.get(), 2.0, &d1, 1, 0, y.out()));
        EXPECT_EQ(values(y), repeated(2, 0.0));
        CT_ASSERT_OK(ct_logsumexp(x.get(), &d1, 1, 0, y.out()));
        EXPECT_EQ(values(y), repeated(2, -INFINITY));
        EXPECT_NE(ct_max(x.get(), y.out()), CT_OK);
        EXPECT_NE(ct_argmax(x.get(), 1, 0, y.out()), CT_OK);
        H c = full_of({0, 3}, 1.0);
        CT_ASSERT_OK(ct_cumsum(c.get(), 0, y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 3}));
        CT_ASSERT_OK(ct_cumprod(c.get(), 1, y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 3}));
    });
}

// ---- finding 2: sizes, strides, offsets and byte counts that overflow int64 ----

TEST(HardeningSizes, ExpandPastInt64IsAnError) {
    HandleCheck hc;
    H x = full_of({1}, 2.0), y;
    int64_t big[2] = {k40, k40};
    CT_EXPECT_ERR(ct_expand(x.get(), big, 2, y.out()), CT_ERR_SHAPE, "expand");
    EXPECT_FALSE(y);
    int64_t ok_shape[3] = {k40, k40, 0};  // empty, but its sizes still multiply past int64
    CT_EXPECT_ERR(ct_expand(x.get(), ok_shape, 3, y.out()), CT_ERR_SHAPE, "expand");
    int64_t fine[2] = {k40, 2};  // a big but representable expansion is a view
    CT_ASSERT_OK(ct_expand(x.get(), fine, 2, y.out()));
    int64_t n = 0;
    CT_ASSERT_OK(ct_tensor_numel(y.get(), &n));
    EXPECT_EQ(n, k40 * 2);
}

TEST(HardeningSizes, CreationChecksElementAndByteCounts) {
    HandleCheck hc;
    H t;
    int64_t e[3] = {0, k40, k40};
    CT_EXPECT_ERR(ct_zeros(e, 3, CT_FLOAT32, ct_cpu(), t.out()), CT_ERR_SHAPE, "zeros");
    int64_t e2[3] = {k40, k40, 0};
    CT_EXPECT_ERR(ct_empty(e2, 3, CT_FLOAT32, ct_cpu(), t.out()), CT_ERR_SHAPE, "empty");
    int64_t fine[3] = {0, k40, 1024};  // empty with representable strides is fine (as PyTorch)
    CT_ASSERT_OK(ct_zeros(fine, 3, CT_FLOAT32, ct_cpu(), t.out()));
    EXPECT_EQ(shape(t), (Shape{0, k40, 1024}));
    int64_t st[3];
    int32_t nd = 0;
    CT_ASSERT_OK(ct_tensor_strides(t.get(), st, 3, &nd));
    EXPECT_EQ(st[0], k40 * 1024);
    // 4 * (2^62 + 1) bytes wrap to 4: the byte count must be checked, not wrapped
    float four[1] = {1};
    int64_t wrap[1] = {(int64_t(1) << 62) + 1};
    CT_EXPECT_ERR(ct_tensor_from_data(four, 4, wrap, 1, CT_FLOAT32, ct_cpu(), t.out()), CT_ERR_INVALID_ARGUMENT,
                  "from_data");
    int64_t huge[2] = {int64_t(1) << 62, int64_t(1) << 62};
    CT_EXPECT_ERR(ct_tensor_from_data(four, 4, huge, 2, CT_FLOAT32, ct_cpu(), t.out()), CT_ERR_SHAPE, "from_data");
}

TEST(HardeningSizes, CopyToHostChecksTheByteCount) {
    HandleCheck hc;
    H x = full_of({1}, 3.0), f, y;
    CT_ASSERT_OK(ct_to_dtype(x.get(), CT_FLOAT32, f.out()));
    int64_t wrap[1] = {(int64_t(1) << 62) + 1};  // 4 * numel wraps to 4 bytes
    CT_ASSERT_OK(ct_expand(f.get(), wrap, 1, y.out()));
    float dst[1] = {0};
    CT_EXPECT_ERR(ct_tensor_copy_to_host(y.get(), dst, 4), CT_ERR_INVALID_ARGUMENT, "copy_to_host");
    EXPECT_EQ(dst[0], 0.0f);
}

TEST(HardeningSizes, FromBlobChecksTheExtent) {
    HandleCheck hc;
    double d[4] = {1, 2, 3, 4};
    int64_t shape2[2] = {2, 2}, strides[2] = {kMax, 1};
    H t;
    CT_EXPECT_ERR(ct_tensor_from_blob(d, shape2, strides, 2, CT_FLOAT64, ct_cpu(), nullptr, nullptr, t.out()),
                  CT_ERR_INVALID_ARGUMENT, "tensor_from_blob");
    int64_t strides2[2] = {int64_t(1) << 61, 1};  // extent fits int64, its bytes do not
    CT_EXPECT_ERR(ct_tensor_from_blob(d, shape2, strides2, 2, CT_FLOAT64, ct_cpu(), nullptr, nullptr, t.out()),
                  CT_ERR_INVALID_ARGUMENT, "tensor_from_blob");
    EXPECT_FALSE(t);
}

TEST(HardeningSizes, ReshapeAndViewCheckTheProduct) {
    HandleCheck hc;
    H x = full_of({0}, 1.0), y;
    int64_t s[3] = {k40, k40, 0};
    CT_EXPECT_ERR(ct_reshape(x.get(), s, 3, y.out()), CT_ERR_SHAPE, "reshape");
    CT_EXPECT_ERR(ct_view(x.get(), s, 3, y.out()), CT_ERR_SHAPE, "view");
    int64_t s2[3] = {k40, -1, 0};
    CT_EXPECT_ERR(ct_reshape(x.get(), s2, 3, y.out()), CT_ERR_SHAPE, "reshape");
    H z = full_of({6}, 1.0);
    int64_t s3[3] = {int64_t(1) << 62, 4, -1};  // the known sizes wrap to 0 mod 2^64
    CT_EXPECT_ERR(ct_reshape(z.get(), s3, 3, y.out()), CT_ERR_SHAPE, "reshape");
}

TEST(HardeningSizes, SliceWithAHugeStepHasOneElement) {
    HandleCheck hc;
    H x = make({0, 1, 2, 3, 4}, {5}), y, z;
    CT_ASSERT_OK(ct_slice(x.get(), 0, 0, 5, kMax, y.out()));
    EXPECT_EQ(shape(y), (Shape{1}));
    EXPECT_EQ(values(y), (std::vector<double>{0}));
    CT_ASSERT_OK(ct_slice(x.get(), 0, 3, kMax, kMax, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{3}));
    CT_ASSERT_OK(ct_slice(x.get(), 0, kMin, kMax, 2, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{0, 2, 4}));
    CT_ASSERT_OK(ct_slice(x.get(), 0, 5, kMax, kMax, y.out()));
    CT_ASSERT_OK(ct_squeeze_all(y.get(), z.out()));
    EXPECT_EQ(shape(z), (Shape{0}));
}

TEST(HardeningSizes, SplitAndChunkWithInt64Max) {
    HandleCheck hc;
    H x = make({0, 1, 2, 3, 4}, {5});
    ct_tensor outs[8] = {};
    int32_t n = 0;
    CT_ASSERT_OK(ct_split(x.get(), kMax, 0, outs, 8, &n));
    ASSERT_EQ(n, 1);
    H p0(outs[0]);
    EXPECT_EQ(shape(p0), (Shape{5}));
    CT_ASSERT_OK(ct_chunk(x.get(), kMax, 0, outs, 8, &n));
    ASSERT_EQ(n, 5);
    for (int i = 0; i < 5; ++i) {
        H p(outs[i]);
        EXPECT_EQ(values(p), (std::vector<double>{(double)i}));
    }
}

TEST(HardeningSizes, ConvGeometryOverflowIsAnError) {
    HandleCheck hc;
    H x = full_of({1, 1, 3, 3}, 1.0), w = full_of({1, 1, 3, 3}, 1.0), y;
    int64_t one[2] = {1, 1}, zero[2] = {0, 0};
    int64_t pad[2] = {int64_t(1) << 62, 0};
    CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), nullptr, one, pad, one, 1, y.out()), CT_ERR_SHAPE,
                  "conv2d: padding 2 * 4611686018427387904 overflows int64");
    int64_t dil[2] = {int64_t(1) << 62, 1};
    CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), nullptr, one, zero, dil, 1, y.out()), CT_ERR_SHAPE,
                  "conv2d: dilation * (kernel - 1) 4611686018427387904 * 2 overflows int64");
    int64_t minstride[2] = {kMin, 1};
    CT_EXPECT_ERR(ct_conv2d(x.get(), w.get(), nullptr, minstride, zero, one, 1, y.out()), CT_ERR_INVALID_ARGUMENT,
                  "stride");
    int64_t bigstride[2] = {kMax, kMax};  // a huge stride is fine: one output position
    CT_ASSERT_OK(ct_conv2d(x.get(), w.get(), nullptr, bigstride, zero, one, 1, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{9}));
    EXPECT_FALSE(HasFailure());
}

TEST(HardeningSizes, PoolGeometryOverflowIsAnError) {
    HandleCheck hc;
    H x = make({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}), y;
    int64_t one[2] = {1, 1}, zero[2] = {0, 0};
    int64_t bigstride[2] = {kMax, 1};
    CT_ASSERT_OK(ct_max_pool2d_ex(x.get(), one, bigstride, zero, one, 1, y.out(), nullptr));
    EXPECT_EQ(shape(y), (Shape{1, 1, 1, 3}));
    EXPECT_EQ(values(y), (std::vector<double>{1, 2, 3}));
    CT_ASSERT_OK(ct_avg_pool2d_ex(x.get(), one, bigstride, zero, 1, 1, 0, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{1, 2, 3}));
    int64_t bigk[2] = {kMax, 1}, dil2[2] = {2, 1};
    CT_EXPECT_ERR(ct_max_pool2d_ex(x.get(), bigk, one, zero, dil2, 0, y.out(), nullptr), CT_ERR_SHAPE,
                  "max_pool2d: dilation * (kernel - 1) 2 * 9223372036854775806 overflows int64");
    int64_t k62[2] = {int64_t(1) << 62, 1}, p61[2] = {int64_t(1) << 61, 0};
    CT_ASSERT_OK(ct_max_pool2d_ex(x.get(), k62, one, p61, one, 1, y.out(), nullptr));  // huge windows, clipped
    EXPECT_EQ(shape(y), (Shape{1, 1, 4, 3}));
    EXPECT_EQ(values(y), (std::vector<double>{7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9}));
    int64_t minstride[2] = {kMin, 1};
    CT_EXPECT_ERR(ct_max_pool2d(x.get(), one, minstride, zero, y.out()), CT_ERR_INVALID_ARGUMENT, "stride");
    // a dilation past the input (one tap per window) and a huge stride with padding: no overflowing steps
    int64_t k12[2] = {1, 2}, hugedil[2] = {kMax, 1}, pad01[2] = {0, 1}, s1max[2] = {1, kMax};
    H ix;
    CT_ASSERT_OK(ct_max_pool2d_ex(x.get(), k12, s1max, pad01, hugedil, 0, y.out(), ix.out()));
    EXPECT_EQ(shape(y), (Shape{1, 1, 3, 1}));
    EXPECT_EQ(values(y), (std::vector<double>{1, 4, 7}));
    EXPECT_EQ(values(ix), (std::vector<double>{0, 3, 6}));
    // the padded window of a huge average kernel holds more than 2^63 positions
    int64_t k41[2] = {int64_t(1) << 41, int64_t(1) << 41}, p40[2] = {int64_t(1) << 40, int64_t(1) << 40};
    CT_ASSERT_OK(ct_avg_pool2d_ex(x.get(), k41, one, p40, 0, 1, 0, y.out()));
    EXPECT_EQ(shape(y), (Shape{1, 1, 4, 4}));
    for (double v : values(y)) EXPECT_NEAR(v, 45.0 / std::pow(2.0, 82), 1e-30);
}

TEST(HardeningSizes, DLPackHugeByteOffsetIsAnError) {
    HandleCheck hc;
    struct Box {
        double data[4] = {1, 2, 3, 4};
        int64_t shape[1] = {2};
        DLManagedTensor m{};
        bool deleted = false;
    };
    for (uint64_t off : {~uint64_t(0) - 7, uint64_t(1) << 63, uint64_t(16)}) {
        Box box;
        box.m.dl_tensor.data = box.data;
        box.m.dl_tensor.device = DLDevice{kDLCPU, 0};
        box.m.dl_tensor.ndim = 1;
        box.m.dl_tensor.dtype = DLDataType{kDLFloat, 64, 1};
        box.m.dl_tensor.shape = box.shape;
        box.m.dl_tensor.byte_offset = off;
        box.m.manager_ctx = &box;
        box.m.deleter = [](DLManagedTensor* m) { static_cast<Box*>(m->manager_ctx)->deleted = true; };
        H t;
        if (off == 16) {  // a sane offset still works: elements 2 and 3
            CT_ASSERT_OK(ct_from_dlpack(&box.m, t.out()));
            EXPECT_EQ(values(t), (std::vector<double>{3, 4}));
            t = H();
            EXPECT_TRUE(box.deleted);
            continue;
        }
        CT_EXPECT_ERR(ct_from_dlpack(&box.m, t.out()), CT_ERR_INVALID_ARGUMENT, "byte_offset");
        EXPECT_FALSE(t);
        EXPECT_FALSE(box.deleted);  // a failed import leaves the tensor to the caller
    }
}

// ---- finding 5: work bounded by the result ----

TEST(HardeningSizes, AdaptivePoolToAnEmptyHugeOutputReturnsAtOnce) {
    HandleCheck hc;
    H x = full_of({1, 1, 4, 4}, 1.0), y, ix;
    int64_t out_size[2] = {k40, 0};
    auto t0 = std::chrono::steady_clock::now();
    CT_ASSERT_OK(ct_adaptive_avg_pool2d(x.get(), out_size, y.out()));
    EXPECT_EQ(shape(y), (Shape{1, 1, k40, 0}));
    CT_ASSERT_OK(ct_adaptive_max_pool2d(x.get(), out_size, y.out(), ix.out()));
    EXPECT_EQ(shape(ix), (Shape{1, 1, k40, 0}));
    int64_t swapped[2] = {0, k40};
    CT_ASSERT_OK(ct_adaptive_avg_pool2d(x.get(), swapped, y.out()));
    EXPECT_EQ(shape(y), (Shape{1, 1, 0, k40}));
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(secs, 1.0);
    int64_t too_big[2] = {kMax, 0};
    CT_ASSERT_OK(ct_adaptive_avg_pool2d(x.get(), too_big, y.out()));
    int64_t past[2] = {k40, k40};  // not empty: 2^80 elements is an error, not an allocation attempt
    CT_EXPECT_ERR(ct_adaptive_avg_pool2d(x.get(), past, y.out()), CT_ERR_SHAPE, "adaptive_avg_pool2d");
    int64_t int64_max_rows[2] = {kMax, 1};  // a valid shape, but the window math needs output size + 1 (fuzz finding)
    CT_EXPECT_ERR(ct_adaptive_max_pool2d(x.get(), int64_max_rows, y.out(), ix.out()), CT_ERR_SHAPE,
                  "adaptive_max_pool2d");
    int64_t int64_max_cols[3] = {1, 1, kMax};
    CT_EXPECT_ERR(ct_adaptive_avg_pool_nd(x.get(), 3, int64_max_cols, y.out()), CT_ERR_SHAPE, "adaptive_avg_pool");
}

TEST(HardeningSizes, ChunkAndSplitCountsAreValidatedBeforeAnyPiece) {
    HandleCheck hc;
    H e = full_of({0, 3}, 1.0);
    ct_tensor outs[2] = {};
    int32_t n = -1;
    // more pieces than the int32 count can report: an error, made without building a piece
    CT_EXPECT_ERR(ct_chunk(e.get(), k40, 0, outs, 2, &n), CT_ERR_INVALID_ARGUMENT, "chunk");
    EXPECT_EQ(n, -1);
    EXPECT_EQ(outs[0], nullptr);
    // within int32: only the pieces that fit are made
    int64_t before = ct_live_handles();
    CT_ASSERT_OK(ct_chunk(e.get(), 100000000, 0, outs, 2, &n));
    EXPECT_EQ(n, 100000000);
    EXPECT_EQ(ct_live_handles(), before + 2);
    H a(outs[0]), b(outs[1]);
    EXPECT_EQ(shape(a), (Shape{0, 3}));
    H one = full_of({1}, 1.0), big;
    int64_t s[1] = {k40};
    CT_ASSERT_OK(ct_expand(one.get(), s, 1, big.out()));
    CT_EXPECT_ERR(ct_split(big.get(), 1, 0, outs, 2, &n), CT_ERR_INVALID_ARGUMENT, "split");
    CT_ASSERT_OK(ct_split(big.get(), k40 / 4, 0, nullptr, 0, &n));
    EXPECT_EQ(n, 4);
}

// ---- finding 9: smaller contract breaks ----

TEST(HardeningSizes, FromBlobOnAnUnloadableCudaDeviceFails) {
    HandleCheck hc;
    if (ct_cuda_is_available(nullptr, 0)) GTEST_SKIP() << "a CUDA backend is loadable here";
    double d[2] = {1, 2};
    int64_t s[1] = {2};
    H t;
    CT_EXPECT_ERR(ct_tensor_from_blob(d, s, nullptr, 1, CT_FLOAT64, ct_cuda(0), nullptr, nullptr, t.out()),
                  CT_ERR_NOT_COMPILED, "cuda:0");
    EXPECT_FALSE(t);
}

TEST(HardeningSizes, FlattenOfAZeroDimTensorChecksDims) {
    HandleCheck hc;
    H x = make({4}, {}), y;
    for (auto d : {std::pair<int64_t, int64_t>{0, 0}, {-1, -1}, {0, -1}, {-1, 0}}) {
        CT_ASSERT_OK(ct_flatten(x.get(), d.first, d.second, y.out()));
        EXPECT_EQ(shape(y), (Shape{1}));
    }
    CT_EXPECT_ERR(ct_flatten(x.get(), 1, 1, y.out()), CT_ERR_INDEX, "flatten");
    CT_EXPECT_ERR(ct_flatten(x.get(), 0, 5, y.out()), CT_ERR_INDEX, "flatten");
    CT_EXPECT_ERR(ct_flatten(x.get(), -2, 0, y.out()), CT_ERR_INDEX, "flatten");
}

TEST(HardeningSizes, EmbeddingWithNoIndicesIsEmpty) {
    HandleCheck hc;
    for_each_device([&] {
        H w = randt({4, 3}, 1, true), idx = make({}, {0, 2}, CT_INT64), y;
        CT_ASSERT_OK(ct_embedding(w.get(), idx.get(), y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 2, 3}));
        H s, g;
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, s.out()));
        CT_ASSERT_OK(ct_backward(s.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(w.get(), g.out()));
        EXPECT_EQ(values(g), repeated(12, 0.0));
        H idx1 = make({}, {0}, CT_INT64);
        CT_ASSERT_OK(ct_embedding(w.get(), idx1.get(), y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 3}));
    });
}

TEST(HardeningSizes, CallerStringsAreQuotedAsValidUtf8) {
    HandleCheck hc;
    H a = full_of({2, 2}, 1.0), y;
    ct_tensor ops[1] = {a.get()};
    EXPECT_NE(ct_einsum("i\xff\xfe->i", ops, 1, y.out()), CT_OK);
    std::string msg = ct_last_error();
    EXPECT_TRUE(is_utf8(msg)) << msg;
    EXPECT_NE(msg.find("\\xff\\xfe"), std::string::npos) << msg;
    EXPECT_NE(ct_einsum("ij->\xc3", ops, 1, y.out()), CT_OK);
    EXPECT_TRUE(is_utf8(ct_last_error())) << ct_last_error();

    H p = full_of({2}, 1.0);
    ct_tensor ph = p.get();
    ct_optimizer o = nullptr;
    CT_ASSERT_OK(ct_optim_sgd_new(&ph, 1, 0.1, 0, 0, 0, 0, &o));
    double v = 0;
    EXPECT_EQ(ct_optimizer_get_hparam(o, "mom\xe2\x82", &v), CT_ERR_INVALID_ARGUMENT);
    msg = ct_last_error();
    EXPECT_TRUE(is_utf8(msg)) << msg;
    EXPECT_NE(msg.find("mom\\xe2\\x82"), std::string::npos) << msg;
    EXPECT_EQ(ct_optimizer_set_hparam(o, "\x01\"x\xc0\xaf", 1.0), CT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(is_utf8(ct_last_error())) << ct_last_error();
    EXPECT_EQ(ct_optimizer_get_state(o, 0, "st\x80", y.out()), CT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(is_utf8(ct_last_error())) << ct_last_error();
    EXPECT_EQ(ct_optimizer_get_hparam(o, "m\xce\xbb", &v), CT_ERR_INVALID_ARGUMENT);  // valid UTF-8 stays readable
    EXPECT_NE(std::string(ct_last_error()).find("m\xce\xbb"), std::string::npos) << ct_last_error();
    ct_optimizer_release(o);
    // a message set by the caller (a callback's error) is stored as valid UTF-8 too
    EXPECT_EQ(ct_set_error(CT_ERR_CALLBACK, "bad \xff byte"), CT_ERR_CALLBACK);
    EXPECT_TRUE(is_utf8(ct_last_error())) << ct_last_error();
}

// An empty tensor may have a huge dim ([2^40, 0]): ops on it must cost nothing, never loop over that dim.
TEST(HardeningSizes, EmptyInputsWithAHugeDimCostNothing) {
    HandleCheck hc;
    // The refusals below of 2^40-element results must not depend on the kernel's overcommit policy: where malloc
    // grants 4 TiB of address space (vm.overcommit_memory=1, as on the GPU machines), zero-filling it is an OOM
    // kill. The memory limit refuses them the same way everywhere.
    CT_ASSERT_OK(ct_set_cpu_memory_limit(int64_t(1) << 32));
    struct Unlimit {
        ~Unlimit() { ct_set_cpu_memory_limit(-1); }
    } unlimit;
    const Shape wide{k40, 0}, tall{0, k40};
    for (const Shape& s : {wide, tall}) {
        SCOPED_TRACE(::testing::Message() << "shape [" << s[0] << ", " << s[1] << "]");
        H x = full_of(s, 1.0), y, ix;
        auto t0 = std::chrono::steady_clock::now();
        for (int64_t d : {0, 1}) {
            SCOPED_TRACE(::testing::Message() << "dim " << d);
            CT_EXPECT_OK(ct_cumsum(x.get(), d, y.out()));
            CT_EXPECT_OK(ct_cumprod(x.get(), d, y.out()));
            CT_EXPECT_OK(ct_softmax(x.get(), d, y.out()));
            CT_EXPECT_OK(ct_log_softmax(x.get(), d, y.out()));
            CT_EXPECT_OK(ct_sort(x.get(), d, 0, 1, y.out(), ix.out()));
            CT_EXPECT_OK(ct_argsort(x.get(), d, 1, 0, y.out()));
            CT_EXPECT_OK(ct_flip(x.get(), &d, 1, y.out()));
            int64_t shift = 3;
            CT_EXPECT_OK(ct_roll(x.get(), &shift, 1, &d, 1, y.out()));
            EXPECT_EQ(shape(y), s);
            if (s[(size_t)d] == 0) {  // reducing the empty dim gives 2^40 elements: refused as too large, fast
                EXPECT_NE(ct_sum(x.get(), &d, 1, 0, y.out()), CT_OK);
            } else {
                CT_EXPECT_OK(ct_sum(x.get(), &d, 1, 0, y.out()));
                CT_EXPECT_OK(ct_max_dim(x.get(), d, 0, y.out(), ix.out()));
                CT_EXPECT_OK(ct_all(x.get(), &d, 1, 0, y.out()));
                EXPECT_EQ(shape(y), (Shape{0}));
            }
        }
        for (int64_t d : {0, 1}) {
            SCOPED_TRACE(::testing::Message() << "dim " << d << " (selections)");
            CT_EXPECT_OK(ct_topk(x.get(), 0, d, 1, 1, y.out(), ix.out()));
            H idx = make({0, 0}, {2}, CT_INT64);
            if (s[(size_t)d] > 0) {
                CT_EXPECT_OK(ct_index_select(x.get(), d, idx.get(), y.out()));
                CT_EXPECT_OK(ct_kthvalue(x.get(), 1, d, 0, y.out(), ix.out()));
            }
            H gidx;
            CT_ASSERT_OK(ct_zeros(s.data(), 2, CT_INT64, ct_cpu(), gidx.out()));
            CT_EXPECT_OK(ct_gather(x.get(), d, gidx.get(), y.out()));
            CT_EXPECT_OK(ct_scatter_add(x.get(), d, gidx.get(), x.get(), y.out()));
            // reducing the non-empty dim gives an empty result; reducing the empty one 2^40 elements (refused)
            EXPECT_EQ(ct_var(x.get(), &d, 1, 1.0, 0, y.out()) == CT_OK, s[(size_t)d] > 0) << ct_last_error();
            EXPECT_EQ(ct_logsumexp(x.get(), &d, 1, 0, y.out()) == CT_OK, s[(size_t)d] > 0) << ct_last_error();
        }
        H mask, vals, inv, counts;
        CT_ASSERT_OK(ct_gt(x.get(), x.get(), mask.out()));
        CT_EXPECT_OK(ct_masked_select(x.get(), mask.get(), y.out()));
        CT_EXPECT_OK(ct_where(mask.get(), x.get(), x.get(), y.out()));
        CT_EXPECT_OK(ct_unique(x.get(), 1, vals.out(), inv.out(), counts.out()));
        CT_EXPECT_OK(ct_mse_loss(x.get(), x.get(), 1, y.out()));
        CT_EXPECT_OK(ct_tril(x.get(), 0, y.out()));
        CT_EXPECT_OK(ct_exp(x.get(), y.out()));
        CT_EXPECT_OK(ct_contiguous(x.get(), y.out()));
        H xt;
        CT_ASSERT_OK(ct_transpose(x.get(), 0, 1, xt.out()));
        CT_EXPECT_OK(ct_clone(xt.get(), y.out()));
        CT_EXPECT_OK(ct_nonzero(x.get(), y.out()));
        EXPECT_EQ(shape(y), (Shape{0, 2}));
        CT_EXPECT_OK(ct_sum(x.get(), nullptr, 0, 0, y.out()));
        EXPECT_EQ(values(y), (std::vector<double>{0}));
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_LT(secs, 1.0);
    }
}

// test_tensor.cpp - handles, metadata, creation, host copies and the errors of bad input.
#include "ct_test.h"

using namespace ctt;

TEST(Tensor, CreateAndReadBack) {
    for_each_device([&] {
        float data[6] = {1, 2, 3, 4, 5, 6};
        int64_t shape[2] = {2, 3};
        H t;
        CT_ASSERT_OK(ct_tensor_from_data(data, sizeof data, shape, 2, CT_FLOAT32, test_device(), t.out()));
        EXPECT_EQ(ctt::shape(t), (Shape{2, 3}));
        EXPECT_EQ(dtype(t), CT_FLOAT32);
        int64_t st[2];
        int32_t nd;
        CT_ASSERT_OK(ct_tensor_strides(t.get(), st, 2, &nd));
        EXPECT_EQ(st[0], 3);
        EXPECT_EQ(st[1], 1);
        EXPECT_TRUE(allclose(t, {1, 2, 3, 4, 5, 6}));
        int32_t c = 0;
        CT_ASSERT_OK(ct_tensor_is_contiguous(t.get(), &c));
        EXPECT_EQ(c, 1);
    });
}

TEST(Tensor, Factories) {
    for_each_device([&] {
        int64_t s[2] = {2, 2};
        H z, o, f, e, a, l;
        CT_ASSERT_OK(ct_zeros(s, 2, CT_INT32, test_device(), z.out()));
        EXPECT_TRUE(allclose(z, {0, 0, 0, 0}));
        CT_ASSERT_OK(ct_ones(s, 2, CT_BOOL, test_device(), o.out()));
        EXPECT_TRUE(allclose(o, {1, 1, 1, 1}));
        CT_ASSERT_OK(ct_full(s, 2, 2.5, CT_FLOAT64, test_device(), f.out()));
        EXPECT_TRUE(allclose(f, {2.5, 2.5, 2.5, 2.5}));
        CT_ASSERT_OK(ct_eye(2, 3, CT_FLOAT32, test_device(), e.out()));
        EXPECT_TRUE(allclose(e, {1, 0, 0, 0, 1, 0}));
        CT_ASSERT_OK(ct_arange(0, 5, 2, CT_INT64, test_device(), a.out()));
        EXPECT_TRUE(allclose(a, {0, 2, 4}));
        CT_ASSERT_OK(ct_linspace(0, 1, 5, CT_FLOAT32, test_device(), l.out()));
        EXPECT_TRUE(allclose(l, {0, 0.25, 0.5, 0.75, 1.0}));
        H zl;
        CT_ASSERT_OK(ct_full_like(f.get(), 7, zl.out()));
        EXPECT_TRUE(allclose(zl, {7, 7, 7, 7}));
        for (const H* t : {&z, &o, &f, &e, &a, &l, &zl})  // created where asked
            EXPECT_EQ(is_cuda(*t), test_device().type == CT_DEVICE_CUDA);
    });
}

TEST(Tensor, LinspaceOneStepIsStart) {  // as PyTorch: linspace(-2, 2, 1) is [-2] (found by the conformance suite)
    for_each_device([&] {
        H l;
        CT_ASSERT_OK(ct_linspace(-2, 2, 1, CT_FLOAT64, test_device(), l.out()));
        EXPECT_TRUE(allclose(l, {-2.0}));
    });
}

TEST(Tensor, ZeroDimAndItem) {
    for_each_device([&] {
        H t;
        CT_ASSERT_OK(ct_scalar_tensor(3.5, CT_FLOAT32, test_device(), t.out()));
        int32_t nd = -1;
        CT_ASSERT_OK(ct_tensor_ndim(t.get(), &nd));
        EXPECT_EQ(nd, 0);
        EXPECT_EQ(scalar(t), 3.5);
        H big = randt({2, 2}, 1, false);
        double v;
        CT_EXPECT_ERR(ct_tensor_item(big.get(), &v), CT_ERR_SHAPE, "item");
    });
}

TEST(Tensor, BadInputGivesStatusNotCrash) {
    for_each_device([&] {
        H t;
        int64_t neg[2] = {2, -3};
        CT_EXPECT_ERR(ct_zeros(neg, 2, CT_FLOAT32, test_device(), t.out()), CT_ERR_INVALID_ARGUMENT, "negative size -3");
        int64_t ok2[1] = {2};
        CT_EXPECT_ERR(ct_zeros(ok2, 1, 42, test_device(), t.out()), CT_ERR_DTYPE, "unknown dtype");
        CT_EXPECT_ERR(ct_zeros(ok2, 1, CT_FLOAT32, ct_device{7, 0}, t.out()), CT_ERR_DEVICE, "unknown device");
        if (!ct_cuda_is_available(nullptr, 0))  // with a GPU this succeeds (tests/test_cuda.cpp covers both)
            CT_EXPECT_ERR(ct_zeros(ok2, 1, CT_FLOAT32, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, "cuda:0");
        int64_t huge[3] = {1LL << 40, 1LL << 40, 1LL << 40};
        CT_EXPECT_ERR(ct_zeros(huge, 3, CT_FLOAT32, test_device(), t.out()), CT_ERR_SHAPE, "too many elements");
        int64_t big[1] = {1LL << 50};
        CT_EXPECT_ERR(ct_empty(big, 1, CT_FLOAT64, test_device(), t.out()), CT_ERR_OUT_OF_MEMORY, "");
        CT_EXPECT_ERR(ct_zeros(ok2, 1, CT_FLOAT32, test_device(), nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
        int32_t nd;
        CT_EXPECT_ERR(ct_tensor_ndim(nullptr, &nd), CT_ERR_INVALID_HANDLE, "NULL tensor handle");
        float d[3] = {1, 2, 3};
        CT_EXPECT_ERR(ct_tensor_from_data(d, 12, ok2, 1, CT_FLOAT32, test_device(), t.out()), CT_ERR_INVALID_ARGUMENT,
                      "got 12 bytes");
    });
}

TEST(Tensor, ReleasedHandleIsDetected) {
    for_each_device([&] {
        ct_tensor raw = nullptr;
        int64_t s[1] = {3};
        CT_ASSERT_OK(ct_zeros(s, 1, CT_FLOAT32, test_device(), &raw));
        int64_t live = ct_live_handles();
        ct_tensor_release(raw);
        EXPECT_EQ(ct_live_handles(), live - 1);
        int32_t nd;
        CT_EXPECT_ERR(ct_tensor_ndim(raw, &nd), CT_ERR_INVALID_HANDLE, "released");
        ct_tensor_release(raw);  // double release is ignored
        ct_tensor_release((ct_tensor)(uintptr_t)0xdeadbeef);
        EXPECT_EQ(ct_live_handles(), live - 1);
    });
}

TEST(Tensor, RetainKeepsAlive) {
    for_each_device([&] {
        H t = randt({3}, 2, false);
        ct_tensor extra = ct_tensor_retain(t.get());
        EXPECT_EQ(extra, t.get());
        ct_tensor_release(extra);
        int32_t nd;
        CT_EXPECT_OK(ct_tensor_ndim(t.get(), &nd));
    });
}

static int g_deleted = 0;
static void count_delete(void*, void* ctx) { *static_cast<int*>(ctx) += 1; }

TEST(Tensor, FromBlobIsZeroCopyAndCallsDeleterOnce) {
    g_deleted = 0;
    float buf[4] = {1, 2, 3, 4};
    int64_t s[2] = {2, 2};
    {
        H t, v;
        CT_ASSERT_OK(ct_tensor_from_blob(buf, s, nullptr, 2, CT_FLOAT32, ct_cpu(), count_delete, &g_deleted, t.out()));
        buf[3] = 40;
        EXPECT_TRUE(allclose(t, {1, 2, 3, 40}));
        CT_ASSERT_OK(ct_transpose(t.get(), 0, 1, v.out()));
        t = H();
        EXPECT_EQ(g_deleted, 0);  // the view keeps the storage alive
        EXPECT_TRUE(allclose(v, {1, 3, 2, 40}));
    }
    EXPECT_EQ(g_deleted, 1);
}

TEST(Tensor, CopyToHostChecksSize) {
    for_each_device([&] {
        H t = randt({2, 3}, 3, false);
        double out[6];
        CT_EXPECT_OK(ct_tensor_copy_to_host(t.get(), out, sizeof out));
        CT_EXPECT_ERR(ct_tensor_copy_to_host(t.get(), out, 8), CT_ERR_INVALID_ARGUMENT, "needs 48");
    });
}

TEST(Library, VersionAndAbi) {
    EXPECT_EQ(ct_version(), CT_VERSION_MAJOR * 10000 + CT_VERSION_MINOR * 100 + CT_VERSION_PATCH);
    EXPECT_EQ(ct_abi_version(), CT_ABI_VERSION);
    CT_EXPECT_OK(ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR));
    CT_EXPECT_ERR(ct_check_abi(CT_ABI_VERSION + 1, 0), CT_ERR_VERSION, "ABI");
    CT_EXPECT_ERR(ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR + 1), CT_ERR_VERSION, "or later");
    EXPECT_STREQ(ct_status_name(CT_ERR_SHAPE), "CT_ERR_SHAPE");
    EXPECT_STREQ(ct_dtype_name(CT_INT64), "int64");
    EXPECT_EQ(ct_dtype_size(CT_FLOAT64), 8);
    char reason[128] = "";
    if (!ct_cuda_is_available(reason, sizeof reason)) EXPECT_GT(strlen(reason), 0u);  // says why
}

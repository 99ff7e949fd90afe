// test_bool_bytes.cpp - issue 18's finding 4 (Note [Bool bytes]): bool tensors made from caller memory never
// hold bytes other than 0 and 1 (loading such a byte as C++ bool is undefined, and UBSan reports it): copies
// normalise nonzero bytes to 1, zero-copy imports (from_blob, DLPack) refuse them and leave the memory to the
// caller.
#include <dlpack/dlpack.h>
#include <cstdint>
#include <vector>
#include "ct_test.h"

using namespace ctt;

namespace {

H bools_from_data(const std::vector<uint8_t>& bytes) {
    H t;
    int64_t shape[1] = {(int64_t)bytes.size()};
    ok(ct_tensor_from_data(bytes.data(), (int64_t)bytes.size(), shape, 1, CT_BOOL, ct_cpu(), t.out()));
    return t;
}

int g_deletes = 0;
void count_delete(void*, void*) { ++g_deletes; }

struct BoolBlock {  // a producer's DLPack tensor over a few bool bytes
    std::vector<uint8_t> bytes;
    int64_t shape[1];
    DLManagedTensor managed{};
};
void delete_block(DLManagedTensor* m) {
    ++g_deletes;
    delete static_cast<BoolBlock*>(m->manager_ctx);
}
DLManagedTensor* bool_block(std::vector<uint8_t> bytes) {
    auto* b = new BoolBlock{std::move(bytes), {0}, {}};
    b->shape[0] = (int64_t)b->bytes.size();
    DLTensor& dl = b->managed.dl_tensor;
    dl.data = b->bytes.data();
    dl.device = DLDevice{kDLCPU, 0};
    dl.ndim = 1;
    dl.dtype = DLDataType{kDLBool, 8, 1};
    dl.shape = b->shape;
    b->managed.manager_ctx = b;
    b->managed.deleter = delete_block;
    return &b->managed;
}

}  // namespace

TEST(BoolBytes, CopiedMemoryIsNormalised) {
    H t = bools_from_data({0, 1, 2, 255, 0x80});
    std::vector<uint8_t> back(5);
    CT_ASSERT_OK(ct_tensor_copy_to_host(t.get(), back.data(), 5));
    EXPECT_EQ(back, (std::vector<uint8_t>{0, 1, 1, 1, 1}));
    H n, s;
    CT_ASSERT_OK(ct_logical_not(t.get(), n.out()));
    EXPECT_EQ(values(n), (std::vector<double>{1, 0, 0, 0, 0}));
    CT_ASSERT_OK(ct_sum(t.get(), nullptr, 0, 0, s.out()));
    EXPECT_EQ(values(s), std::vector<double>{4});
}

TEST(BoolBytes, FromBlobRefusesOtherBytes) {
    int64_t live0 = ct_live_handles();
    uint8_t bad[3] = {0, 2, 1};
    int64_t shape[1] = {3};
    g_deletes = 0;
    H out;
    CT_EXPECT_ERR(ct_tensor_from_blob(bad, shape, nullptr, 1, CT_BOOL, ct_cpu(), count_delete, nullptr, out.out()),
                  CT_ERR_INVALID_ARGUMENT, "tensor_from_blob: bool memory holds the byte 2");
    EXPECT_FALSE(out);
    EXPECT_EQ(g_deletes, 0);  // the caller keeps the memory
    // only the elements the layout reaches are looked at: stride 2 skips the 2
    int64_t two[1] = {2}, stride[1] = {2};
    CT_ASSERT_OK(ct_tensor_from_blob(bad, two, stride, 1, CT_BOOL, ct_cpu(), count_delete, nullptr, out.out()));
    EXPECT_EQ(values(out), (std::vector<double>{0, 1}));
    out = H();
    EXPECT_EQ(g_deletes, 1);
    // the same bytes as uint8 are fine, and != 0 turns them into a valid bool tensor
    H u8, zero, b;
    CT_ASSERT_OK(ct_tensor_from_blob(bad, shape, nullptr, 1, CT_UINT8, ct_cpu(), nullptr, nullptr, u8.out()));
    CT_ASSERT_OK(ct_wrapped_scalar(0, 1, zero.out()));
    CT_ASSERT_OK(ct_ne(u8.get(), zero.get(), b.out()));
    EXPECT_EQ(values(b), (std::vector<double>{0, 1, 1}));
    u8 = H(), zero = H(), b = H();
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST(BoolBytes, DLPackImportRefusesOtherBytes) {
    g_deletes = 0;
    DLManagedTensor* bad = bool_block({1, 0, 9});
    H out;
    CT_EXPECT_ERR(ct_from_dlpack(bad, out.out()), CT_ERR_INVALID_ARGUMENT, "from_dlpack: bool memory holds the byte 9");
    EXPECT_FALSE(out);
    EXPECT_EQ(g_deletes, 0);  // still the producer's
    bad->deleter(bad);
    DLManagedTensor* good = bool_block({1, 0, 1});
    CT_ASSERT_OK(ct_from_dlpack(good, out.out()));
    EXPECT_EQ(values(out), (std::vector<double>{1, 0, 1}));
    out = H();
    EXPECT_EQ(g_deletes, 2);
}

TEST(BoolBytes, OwnExportWrittenByTheConsumerIsChecked) {
    H t = bools_from_data({1, 0});
    DLManagedTensor* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack(t.get(), &m));
    static_cast<uint8_t*>(m->dl_tensor.data)[1] = 5;  // a consumer wrote a byte no bool has
    H back;
    CT_EXPECT_ERR(ct_from_dlpack(m, back.out()), CT_ERR_INVALID_ARGUMENT, "bool memory holds the byte 5");
    static_cast<uint8_t*>(m->dl_tensor.data)[1] = 1;
    CT_ASSERT_OK(ct_from_dlpack(m, back.out()));
    EXPECT_EQ(values(back), (std::vector<double>{1, 1}));
}

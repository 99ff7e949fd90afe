// test_cuda_index.cpp - joining and splitting CUDA tensors (cat, stack, split, chunk) against the CPU, with
// dtype promotion, strided and empty inputs, and gradients.
#include "cuda_compare.h"

using namespace ctt;

namespace {

Fn cat_fn(int64_t dim, bool stack = false) {
    return [=](const std::vector<H>& x) {
        std::vector<ct_tensor> hs;
        for (auto& h : x) hs.push_back(h.get());
        H o;
        ok(stack ? ct_stack(hs.data(), (int32_t)hs.size(), dim, o.out()) : ct_cat(hs.data(), (int32_t)hs.size(), dim, o.out()));
        return o;
    };
}

}  // namespace

TEST(CudaGpu, CatStackMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL}) {
        SCOPED_TRACE(ct_dtype_name(dt));
        compare_on_cuda("cat dim 0", cat_fn(0), {sample({2, 3}, dt, 1), sample({4, 3}, dt, 2)});
        compare_on_cuda("cat dim -1, strided", cat_fn(-1), {sample({3, 2}, dt, 3), sample({2, 6}, dt, 4)}, {},
                        {transposed, every_other_column});
        compare_on_cuda("stack", cat_fn(1, true), {sample({2, 3}, dt, 5), sample({2, 3}, dt, 6)});
    }
    compare_on_cuda("promotion", cat_fn(0), {sample({2}, CT_INT32, 7), sample({3}, CT_FLOAT32, 8)});
    compare_on_cuda("legacy empty skipped", cat_fn(0), {sample({0}, CT_FLOAT64, 9), sample({2, 2}, CT_FLOAT64, 10)});
    compare_on_cuda("stack 0-d", cat_fn(0, true), {sample({}, CT_FLOAT64, 11), sample({}, CT_FLOAT64, 12)});
    compare_on_cuda("cat grads", cat_fn(1), {randt({2, 3}, 13, false), randt({2, 1}, 14, false)}, {true, true});
    compare_on_cuda("stack grads", cat_fn(0, true), {randt({2, 3}, 15, false), randt({2, 3}, 16, false)},
                    {true, true}, {transposed, transposed});
    H a = on(randt({2, 3}, 17, false), ct_cuda(0)), b = randt({2, 3}, 18, false), o;
    ct_tensor mixed[2] = {a.get(), b.get()};
    CT_EXPECT_ERR(ct_cat(mixed, 2, 0, o.out()), CT_ERR_DEVICE, "cuda:0 and cpu");
}

TEST(CudaGpu, SplitChunkAreViewsOnCuda) {
    REQUIRE_CUDA();
    H x = on(randt({7, 3}, 1, false), ct_cuda(0)), cpu = randt({7, 3}, 1, false);
    ct_tensor parts[4] = {}, want[4] = {};
    int32_t n = 0, m = 0;
    CT_ASSERT_OK(ct_chunk(x.get(), 3, 0, parts, 4, &n));
    CT_ASSERT_OK(ct_chunk(cpu.get(), 3, 0, want, 4, &m));
    ASSERT_EQ(n, m);
    for (int32_t i = 0; i < n; ++i) {
        H p(parts[i]), w(want[i]);
        int32_t shares = 0;
        CT_ASSERT_OK(ct_tensor_shares_storage(p.get(), x.get(), &shares));
        EXPECT_EQ(shares, 1);
        EXPECT_EQ(values(p), values(w));
    }
}

namespace {

H idx(const std::vector<double>& v, const Shape& s, ct_dtype dt = CT_INT64) { return make(v, s, dt); }

}  // namespace

TEST(CudaGpu, IndexSelectGatherScatterMatchCpu) {
    REQUIRE_CUDA();
    Fn index_select = [](const std::vector<H>& x) {
        H o;
        ok(ct_index_select(x[0].get(), 1, x[1].get(), o.out()));
        return o;
    };
    Fn gather = [](const std::vector<H>& x) {
        H o;
        ok(ct_gather(x[0].get(), 0, x[1].get(), o.out()));
        return o;
    };
    auto scatter = [](bool add) {
        return Fn([add](const std::vector<H>& x) {
            H o;
            ok(add ? ct_scatter_add(x[0].get(), 0, x[1].get(), x[2].get(), o.out())
                   : ct_scatter(x[0].get(), 0, x[1].get(), x[2].get(), o.out()));
            return o;
        });
    };
    H sel = idx({3, 0, 3, 1}, {4}), g_idx = idx({2, 0, 1, 1, 2, 0}, {2, 3}), unique = idx({2, 0, 1, 1, 2, 0}, {2, 3});
    H dup = idx({1, 1, 1, 0, 0, 0, 2, 2, 2}, {3, 3});  // repeated targets: scatter_add sums them
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL}) {
        SCOPED_TRACE(ct_dtype_name(dt));
        compare_on_cuda("index_select", index_select, {sample({3, 5}, dt, 1), sel});
        compare_on_cuda("index_select int32, strided", index_select, {sample({5, 3}, dt, 2), idx({2, 0}, {2}, CT_INT32)},
                        {}, {transposed, same});
        compare_on_cuda("gather", gather, {sample({3, 4}, dt, 3), g_idx});
        compare_on_cuda("scatter", scatter(false), {sample({3, 3}, dt, 4), unique, sample({2, 3}, dt, 5)});
        compare_on_cuda("scatter_add duplicates", scatter(true), {sample({3, 3}, dt, 6), dup, sample({3, 3}, dt, 7)});
    }
    compare_on_cuda("index_select 0-d", index_select, {sample({2, 3}, CT_FLOAT64, 8), idx({2}, {})});
    compare_on_cuda("index_select empty index", index_select, {sample({2, 3}, CT_FLOAT64, 9), idx({}, {0})});
    compare_on_cuda("index_select grad (scatter_add)", index_select, {randt({3, 5}, 10, false), sel}, {true, false});
    compare_on_cuda("gather grad", gather, {randt({3, 4}, 11, false), g_idx}, {true, false});
    compare_on_cuda("scatter grads", scatter(false), {randt({3, 3}, 12, false), unique, randt({2, 3}, 13, false)},
                    {true, false, true});
    compare_on_cuda("scatter_add grads", scatter(true), {randt({3, 3}, 14, false), dup, randt({3, 3}, 15, false)},
                    {true, false, true});
    H x = on(randt({3, 4}, 16, false), ct_cuda(0)), bad = on(idx({0, 4}, {2}), ct_cuda(0)), o;
    CT_EXPECT_ERR(ct_index_select(x.get(), 1, bad.get(), o.out()), CT_ERR_INDEX,
                  "index 4 is out of bounds for dim 1 with size 4");
    H neg = on(idx({-1, 0, 0, 0}, {1, 4}), ct_cuda(0));
    CT_EXPECT_ERR(ct_gather(x.get(), 0, neg.get(), o.out()), CT_ERR_INDEX, "negative indices are not supported");
    CT_EXPECT_ERR(ct_gather(x.get(), 0, idx({0}, {1, 1}).get(), o.out()), CT_ERR_DEVICE, "cuda:0 and cpu");
}

TEST(CudaGpu, MaskedOpsAndNonzeroMatchCpu) {
    REQUIRE_CUDA();
    Fn masked_fill = [](const std::vector<H>& x) {
        H o;
        ok(ct_masked_fill(x[0].get(), x[1].get(), 2.5, o.out()));
        return o;
    };
    Fn masked_select = [](const std::vector<H>& x) {
        H o;
        ok(ct_masked_select(x[0].get(), x[1].get(), o.out()));
        return o;
    };
    Fn nonzero = [](const std::vector<H>& x) {
        H o;
        ok(ct_nonzero(x[0].get(), o.out()));
        return o;
    };
    H mask = sample({3, 4}, CT_BOOL, 1), row_mask = sample({4}, CT_BOOL, 2);
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL}) {
        SCOPED_TRACE(ct_dtype_name(dt));
        compare_on_cuda("masked_fill", masked_fill, {sample({3, 4}, dt, 3), mask});
        compare_on_cuda("masked_fill broadcast, strided", masked_fill, {sample({4, 3}, dt, 4), row_mask}, {},
                        {transposed, same});
        compare_on_cuda("masked_select", masked_select, {sample({3, 4}, dt, 5), mask});
        compare_on_cuda("masked_select broadcast", masked_select, {sample({3, 4}, dt, 6), row_mask});
        compare_on_cuda("nonzero", nonzero, {sample({3, 5}, dt, 7)});
    }
    compare_on_cuda("nonzero 0-d", nonzero, {sample({}, CT_FLOAT64, 8)});
    compare_on_cuda("masked_select empty", masked_select, {sample({0, 4}, CT_FLOAT64, 9), row_mask});
    compare_on_cuda("masked_fill grad", masked_fill, {randt({3, 4}, 10, false), mask}, {true, false});
    compare_on_cuda("masked_select grad", masked_select, {randt({3, 4}, 11, false), mask}, {true, false});
    H x = on(randt({2, 2}, 12, false), ct_cuda(0)), o;
    CT_EXPECT_ERR(ct_masked_fill(x.get(), on(idx({1, 0}, {2}), ct_cuda(0)).get(), 1.0, o.out()), CT_ERR_DTYPE,
                  "mask must be bool");
}

TEST(CudaGpu, EmbeddingMatchesCpu) {
    REQUIRE_CUDA();
    Fn embedding = [](const std::vector<H>& x) {
        H o;
        ok(ct_embedding(x[0].get(), x[1].get(), o.out()));
        return o;
    };
    H ids = idx({1, 4, 1, 0, 2, 1}, {2, 3});
    compare_on_cuda("values", embedding, {sample({5, 3}, CT_FLOAT32, 1), ids});
    compare_on_cuda("int32 ids, grads with repeats", embedding, {randt({5, 3}, 2, false), idx({1, 4, 1, 1}, {4}, CT_INT32)},
                    {true, false});
    compare_on_cuda("2-D ids grads", embedding, {randt({5, 3}, 3, false), ids}, {true, false});
    H w = on(randt({5, 3}, 4, false), ct_cuda(0)), o;
    CT_EXPECT_ERR(ct_embedding(w.get(), on(idx({5}, {1}), ct_cuda(0)).get(), o.out()), CT_ERR_INDEX,
                  "embedding: index 5 is out of range for 5 embeddings");
}

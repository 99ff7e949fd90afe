// test_cuda_linalg.cpp - matmul, dot, outer and linear on CUDA (cuBLAS gemm; the emulated backend runs a
// reference column-major gemm through the same row-major mapping) against the CPU, with gradients.
#include "cuda_compare.h"

using namespace ctt;

namespace {

Fn matmul_fn = [](const std::vector<H>& x) {
    H o;
    ok(ct_matmul(x[0].get(), x[1].get(), o.out()));
    return o;
};

Fn linear_fn = [](const std::vector<H>& x) {
    H o;
    ok(ct_linear(x[0].get(), x[1].get(), x.size() > 2 ? x[2].get() : nullptr, o.out()));
    return o;
};

}  // namespace

TEST(CudaGpu, MatmulShapesMatchCpu) {
    REQUIRE_CUDA();
    struct Case {
        Shape a, b;
    } cases[] = {
        {{5}, {5}},          {{3, 5}, {5}},       {{5}, {5, 4}},        {{3, 5}, {5, 4}},
        {{1, 1}, {1, 7}},    {{2, 3, 5}, {5, 4}}, {{5}, {2, 5, 4}},     {{2, 3, 5}, {2, 5, 4}},
        {{2, 1, 3, 5}, {4, 5, 6}},  // batch dims broadcast both ways
        {{0, 3}, {3, 4}},    {{3, 0}, {0, 4}},    {{2, 0, 3}, {3, 2}},  // empty rows, empty k, empty batch
    };
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (auto& c : cases) {
            SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + std::to_string(c.a.size()) + "-D @ " +
                         std::to_string(c.b.size()) + "-D");
            compare_on_cuda("matmul", matmul_fn, {sample(c.a, dt, 1), sample(c.b, dt, 2)}, {}, {}, 1e-4);
        }
}

TEST(CudaGpu, MatmulStridedOperands) {
    REQUIRE_CUDA();
    // transposed (passed to cuBLAS as op T), every other column (packed first), and a broadcast view
    compare_on_cuda("a^T @ b", matmul_fn, {sample({5, 3}, CT_FLOAT64, 3), sample({5, 4}, CT_FLOAT64, 4)}, {},
                    {transposed, same});
    compare_on_cuda("a @ b^T", matmul_fn, {sample({3, 5}, CT_FLOAT64, 5), sample({4, 5}, CT_FLOAT64, 6)}, {},
                    {same, transposed});
    compare_on_cuda("a[:, ::2] @ b", matmul_fn, {sample({3, 10}, CT_FLOAT64, 7), sample({5, 4}, CT_FLOAT64, 8)}, {},
                    {every_other_column, same});
    ViewFn expand_batch = [](const H& t) {
        H o;
        ok(ct_expand(t.get(), std::vector<int64_t>{3, 4, 5}.data(), 3, o.out()));
        return o;
    };
    compare_on_cuda("expanded @ b", matmul_fn, {sample({4, 5}, CT_FLOAT64, 9), sample({3, 5, 2}, CT_FLOAT64, 10)}, {},
                    {expand_batch, same});
    ViewFn permute_batch = [](const H& t) {  // batches not evenly spaced: one gemm call per batch
        H o;
        ok(ct_permute(t.get(), std::vector<int64_t>{1, 0, 2, 3}.data(), 4, o.out()));
        return o;
    };
    compare_on_cuda("permuted batches", matmul_fn,
                    {sample({3, 2, 4, 5}, CT_FLOAT64, 11), sample({2, 3, 5, 2}, CT_FLOAT64, 12)}, {},
                    {permute_batch, same});
}

TEST(CudaGpu, MatmulKnownValuesAndErrors) {
    REQUIRE_CUDA();
    H a = on(make({1, 2, 3, 4, 5, 6}, {2, 3}), ct_cuda(0)), b = on(make({1, 0, 0, 1, 1, 1}, {3, 2}), ct_cuda(0)), o;
    CT_ASSERT_OK(ct_matmul(a.get(), b.get(), o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{4, 5, 10, 11}));
    H i = on(make({1, 2, 3}, {3}, CT_INT64), ct_cuda(0)), cpu = make({1, 2, 3}, {3});
    CT_EXPECT_ERR(ct_matmul(i.get(), i.get(), o.out()), CT_ERR_NOT_SUPPORTED, "matmul: int64 tensors are not supported on cuda");
    CT_EXPECT_ERR(ct_matmul(a.get(), a.get(), o.out()), CT_ERR_SHAPE, "cannot be multiplied");
    CT_EXPECT_ERR(ct_matmul(a.get(), cpu.get(), o.out()), CT_ERR_DEVICE, "cuda:0 and cpu");
    CT_EXPECT_ERR(ct_dot(i.get(), i.get(), o.out()), CT_ERR_NOT_SUPPORTED, "int64");
}

TEST(CudaGpu, MatmulGradientsMatchCpu) {
    REQUIRE_CUDA();
    // Same-batch and 2-D cases need no reduction on the device (a broadcast batch grad needs the sum kernel).
    compare_on_cuda("2-D", matmul_fn, {randt({3, 5}, 1, false), randt({5, 4}, 2, false)}, {true, true});
    compare_on_cuda("1-D @ 2-D", matmul_fn, {randt({5}, 3, false), randt({5, 4}, 4, false)}, {true, true});
    compare_on_cuda("2-D @ 1-D", matmul_fn, {randt({3, 5}, 5, false), randt({5}, 6, false)}, {true, true});
    compare_on_cuda("batched", matmul_fn, {randt({2, 3, 5}, 7, false), randt({2, 5, 4}, 8, false)}, {true, true});
    compare_on_cuda("batched @ shared", matmul_fn, {randt({2, 3, 5}, 9, false), randt({5, 4}, 10, false)},
                    {true, true});
    compare_on_cuda("transposed", matmul_fn, {randt({5, 3}, 11, false), randt({5, 4}, 12, false)}, {true, true},
                    {transposed, same});
}

TEST(CudaGpu, DotOuterMatchCpu) {
    REQUIRE_CUDA();
    Fn dot = [](const std::vector<H>& x) {
        H o;
        ok(ct_dot(x[0].get(), x[1].get(), o.out()));
        return o;
    };
    Fn outer = [](const std::vector<H>& x) {
        H o;
        ok(ct_outer(x[0].get(), x[1].get(), o.out()));
        return o;
    };
    compare_on_cuda("dot", dot, {randt({7}, 1, false), randt({7}, 2, false)}, {true, true});
    compare_on_cuda("dot of empty", dot, {randt({0}, 1, false), randt({0}, 2, false)});
    // outer is a broadcast mul: its gradient needs the sum kernel (cuda-ops), so only values are compared here
    compare_on_cuda("outer", outer, {randt({3}, 3, false), randt({4}, 4, false)});
    compare_on_cuda("outer float32", outer, {sample({3}, CT_FLOAT32, 5), sample({2}, CT_FLOAT32, 6)});
}

TEST(CudaGpu, LinearMatchesCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
        SCOPED_TRACE(ct_dtype_name(dt));
        compare_on_cuda("no bias", linear_fn, {sample({4, 3}, dt, 1), sample({5, 3}, dt, 2)}, {}, {}, 1e-4);
        compare_on_cuda("bias", linear_fn, {sample({2, 4, 3}, dt, 3), sample({5, 3}, dt, 4), sample({5}, dt, 5)}, {},
                        {}, 1e-4);
        compare_on_cuda("1-D input", linear_fn, {sample({3}, dt, 6), sample({5, 3}, dt, 7), sample({1}, dt, 8)}, {},
                        {}, 1e-4);
        compare_on_cuda("empty batch", linear_fn, {sample({0, 3}, dt, 9), sample({5, 3}, dt, 10), sample({5}, dt, 11)});
    }
    compare_on_cuda("grads", linear_fn, {randt({2, 4, 3}, 12, false), randt({5, 3}, 13, false), randt({5}, 14, false)},
                    {true, true, true});
    compare_on_cuda("scalar bias grads", linear_fn,
                    {randt({4, 3}, 15, false), randt({5, 3}, 16, false), randt({}, 17, false)}, {true, true, true});
    compare_on_cuda("transposed weight", linear_fn, {randt({4, 3}, 18, false), randt({3, 5}, 19, false)},
                    {true, true}, {same, transposed});
}

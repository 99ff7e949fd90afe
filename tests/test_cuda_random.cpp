// test_cuda_random.cpp - random tensors on CUDA: the same numbers as on the CPU for the same seed (rand, randn,
// randint, bernoulli, randperm, dropout), the generator advancing the same way, and errors.
#include "cuda_compare.h"

using namespace ctt;

namespace {

ct_generator seeded(uint64_t seed) {
    ct_generator g = nullptr;
    ok(ct_generator_new(seed, &g));
    return g;
}

// Runs draw(device, generator) with a fresh generator of seed on the CPU and on cuda:0 and compares exactly.
void same_numbers(const char* what, const std::function<ct_status(ct_device, ct_generator, ct_tensor*)>& draw) {
    SCOPED_TRACE(what);
    ct_generator gc = seeded(42), gd = seeded(42);
    for (int round = 0; round < 2; ++round) {  // the second draw checks that both generators advanced alike
        H want, got;
        ok(draw(ct_cpu(), gc, want.out()));
        CT_EXPECT_OK(draw(ct_cuda(0), gd, got.out()));
        if (!got) break;
        EXPECT_EQ(device_of(got).type, CT_DEVICE_CUDA);
        EXPECT_EQ(dtype(got), dtype(want));
        EXPECT_EQ(shape(got), shape(want));
        EXPECT_EQ(values(got), values(want));
    }
    ct_generator_release(gc);
    ct_generator_release(gd);
}

}  // namespace

TEST(CudaGpu, RandomMatchesCpuForTheSameSeed) {
    REQUIRE_CUDA();
    const int64_t s[2] = {5, 7};
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
        SCOPED_TRACE(ct_dtype_name(dt));
        same_numbers("rand", [&](ct_device d, ct_generator g, ct_tensor* o) { return ct_rand(s, 2, dt, d, g, o); });
        same_numbers("randn", [&](ct_device d, ct_generator g, ct_tensor* o) { return ct_randn(s, 2, dt, d, g, o); });
        same_numbers("rand 0-d", [&](ct_device d, ct_generator g, ct_tensor* o) { return ct_rand(s, 0, dt, d, g, o); });
    }
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8}) {
        SCOPED_TRACE(ct_dtype_name(dt));
        same_numbers("randint", [&](ct_device d, ct_generator g, ct_tensor* o) {
            return ct_randint(dt == CT_UINT8 ? 0 : -3, 9, s, 2, dt, d, g, o);
        });
    }
    same_numbers("randperm", [](ct_device d, ct_generator g, ct_tensor* o) { return ct_randperm(37, d, g, o); });
    same_numbers("randperm empty", [](ct_device d, ct_generator g, ct_tensor* o) { return ct_randperm(0, d, g, o); });
    H p = make(rand_values(35, 3, 0.0, 1.0), {5, 7});
    same_numbers("bernoulli", [&](ct_device d, ct_generator g, ct_tensor* o) {
        return ct_bernoulli(on(p, d).get(), g, o);
    });
    H x = randt({4, 9}, 4, false);
    same_numbers("dropout", [&](ct_device d, ct_generator g, ct_tensor* o) {
        return ct_dropout(on(x, d).get(), 0.3, 1, g, o);
    });
}

TEST(CudaGpu, RandomDefaultGeneratorAndErrors) {
    REQUIRE_CUDA();
    const int64_t s[1] = {6};
    H a, b;
    CT_ASSERT_OK(ct_manual_seed(7));
    CT_ASSERT_OK(ct_randn(s, 1, CT_FLOAT32, ct_cuda(0), nullptr, a.out()));
    CT_ASSERT_OK(ct_manual_seed(7));
    CT_ASSERT_OK(ct_randn(s, 1, CT_FLOAT32, ct_cpu(), nullptr, b.out()));
    EXPECT_EQ(values(a), values(b));
    H o;
    int32_t n = ct_cuda_device_count();
    CT_EXPECT_ERR(ct_rand(s, 1, CT_FLOAT32, ct_cuda(n), nullptr, o.out()), CT_ERR_DEVICE, "rand: invalid device");
    CT_EXPECT_ERR(ct_rand(s, 1, CT_INT32, ct_cuda(0), nullptr, o.out()), CT_ERR_DTYPE, "floating dtype");
    H bad = on(make({0.5, 2}, {2}), ct_cuda(0));
    CT_EXPECT_ERR(ct_bernoulli(bad.get(), nullptr, o.out()), CT_ERR_INVALID_ARGUMENT, "probability 2");
}

TEST(CudaGpu, DropoutOnCudaIsDifferentiable) {
    REQUIRE_CUDA();
    Fn drop = [](const std::vector<H>& x) {
        ct_generator g = seeded(5);
        H o;
        ct_status st = ct_dropout(x[0].get(), 0.5, 1, g, o.out());
        ct_generator_release(g);
        ok(st);
        return o;
    };
    compare_on_cuda("dropout grad", drop, {randt({3, 8}, 1, false)}, {true});
    compare_on_cuda("dropout of a strided view", drop, {randt({4, 6}, 2, false)}, {true}, {transposed});
    H x = on(randt({2, 3}, 3, false), ct_cuda(0)), same_x;
    CT_ASSERT_OK(ct_dropout(x.get(), 0.5, 0, nullptr, same_x.out()));  // eval mode: x itself
    EXPECT_EQ(values(same_x), values(x));
}

// test_cuda_conv.cpp - conv2d, max_pool2d and avg_pool2d on CUDA against the CPU: values and gradients (input,
// weight, bias) for stride, padding, dilation, groups, 1x1, CHW inputs, strided views, float32/float64, empty
// batches, chunked im2col workspaces, second derivatives, and the errors.
#include <cmath>
#include <cstdlib>
#include "cuda_compare.h"

using namespace ctt;

namespace {

struct ConvCase {
    const char* what;
    Shape x, w;
    int64_t stride[2], padding[2], dilation[2], groups;
    bool bias;
};

H conv(const std::vector<H>& in, const ConvCase& c) {
    H out;
    ok(ct_conv2d(in[0].get(), in[1].get(), c.bias ? in[2].get() : nullptr, c.stride, c.padding, c.dilation, c.groups,
                 out.out()));
    return out;
}

std::vector<H> conv_inputs(const ConvCase& c, ct_dtype dt, uint64_t seed) {
    std::vector<H> in = {sample(c.x, dt, seed, -2, 2), sample(c.w, dt, seed + 1, -2, 2)};
    if (c.bias) in.push_back(sample({c.w[0]}, dt, seed + 2, -2, 2));
    return in;
}

const ConvCase kConvCases[] = {
    {"plain 3x3", {2, 3, 7, 6}, {4, 3, 3, 3}, {1, 1}, {0, 0}, {1, 1}, 1, true},
    {"stride padding", {3, 2, 9, 8}, {5, 2, 3, 2}, {2, 3}, {1, 2}, {1, 1}, 1, true},
    {"dilation", {2, 3, 10, 9}, {2, 3, 3, 3}, {1, 2}, {2, 1}, {2, 3}, 1, false},
    {"groups", {2, 6, 6, 7}, {4, 3, 3, 2}, {2, 1}, {1, 1}, {1, 2}, 2, true},
    {"depthwise", {2, 4, 5, 5}, {8, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 4, true},
    {"pointwise 1x1", {3, 4, 5, 6}, {6, 4, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, true},
    {"pointwise groups", {2, 4, 3, 5}, {6, 2, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 2, false},
    {"1x1 strided", {2, 3, 7, 7}, {2, 3, 1, 1}, {2, 2}, {0, 0}, {1, 1}, 1, true},
    {"kernel larger than padding", {1, 1, 2, 3}, {1, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, true},
    {"3-D input (CHW)", {3, 6, 5}, {2, 3, 2, 2}, {1, 1}, {1, 0}, {1, 1}, 1, true},
    {"empty batch", {0, 3, 5, 5}, {2, 3, 3, 3}, {1, 1}, {0, 0}, {1, 1}, 1, true},
};

}  // namespace

TEST(CudaGpu, Conv2dMatchesCpuWithGradients) {
    REQUIRE_CUDA();
    for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32})
        for (const ConvCase& c : kConvCases) {
            SCOPED_TRACE(std::string(c.what) + (dt == CT_FLOAT32 ? " float32" : " float64"));
            std::vector<H> in = conv_inputs(c, dt, 7);
            compare_on_cuda(c.what, [&](const std::vector<H>& v) { return conv(v, c); }, in,
                            std::vector<bool>(in.size(), true), {}, dt == CT_FLOAT32 ? 1e-4 : 1e-10);
        }
}

// Inputs that are views after the move (non-contiguous x and a transposed-kernel weight).
TEST(CudaGpu, Conv2dOnStridedInputs) {
    REQUIRE_CUDA();
    ConvCase c{"strided", {2, 3, 6, 10}, {4, 3, 3, 3}, {1, 2}, {1, 1}, {1, 1}, 1, true};
    std::vector<H> in = {randt({2, 3, 6, 20}, 1), randt({4, 3, 3, 3}, 2), randt({8}, 3)};
    ViewFn every_other = every_other_column;
    ViewFn kernel_t = [](const H& t) {
        H o;
        ok(ct_transpose(t.get(), 2, 3, o.out()));
        return o;
    };
    compare_on_cuda("strided views", [&](const std::vector<H>& v) { return conv(v, c); }, in, {true, true, true},
                    {every_other, kernel_t, every_other_column}, 1e-10);
}

// A tiny im2col workspace forces one sample per chunk (the weight gradient then accumulates across chunks).
TEST(CudaGpu, Conv2dInChunksOfSamples) {
    REQUIRE_CUDA();
    ::setenv("CTENSOR_CUDA_CONV_WORKSPACE", "64", 1);
    for (const ConvCase& c : {kConvCases[1], kConvCases[3], kConvCases[5]}) {
        std::vector<H> in = conv_inputs(c, CT_FLOAT64, 11);
        compare_on_cuda(c.what, [&](const std::vector<H>& v) { return conv(v, c); }, in,
                        std::vector<bool>(in.size(), true), {}, 1e-10);
    }
    ::unsetenv("CTENSOR_CUDA_CONV_WORKSPACE");
}

// Second derivatives on CUDA: the gradient of sum(grad_x(conv)^2) w.r.t. x and w, as the CPU computes it.
TEST(CudaGpu, Conv2dDoubleBackward) {
    REQUIRE_CUDA();
    const ConvCase& c = kConvCases[3];
    auto f = [&](const std::vector<H>& v) {
        H y = conv(v, c), y2;
        ok(ct_mul(y.get(), y.get(), y2.out()));
        H seed;
        ok(ct_ones_like(y2.get(), seed.out()));
        ct_tensor outs[1] = {y2.get()}, seeds[1] = {seed.get()}, ins[2] = {v[0].get(), v[1].get()}, grads[2];
        ok(ct_autograd_grad(outs, 1, seeds, ins, 2, 1, 1, 0, grads));
        H g0(grads[0]), g1(grads[1]), sq;
        ok(ct_mul(g0.get(), g0.get(), sq.out()));
        H flat0, flat1, all;
        ok(ct_reshape(sq.get(), std::vector<int64_t>{-1}.data(), 1, flat0.out()));
        ok(ct_reshape(g1.get(), std::vector<int64_t>{-1}.data(), 1, flat1.out()));
        ct_tensor parts[2] = {flat0.get(), flat1.get()};
        ok(ct_cat(parts, 2, 0, all.out()));
        return all;
    };
    std::vector<H> in = conv_inputs(c, CT_FLOAT64, 21);
    compare_on_cuda("double backward", f, in, {true, true, true}, {}, 1e-9);
}

TEST(CudaGpu, Conv2dErrors) {
    REQUIRE_CUDA();
    H x = on(randt({1, 2, 5, 5}, 1, false), ct_cuda(0)), w = on(randt({3, 2, 3, 3}, 2, false), ct_cuda(0));
    H w_cpu = randt({3, 2, 3, 3}, 2, false), out;
    const int64_t one[2] = {1, 1}, zero[2] = {0, 0};
    CT_EXPECT_ERR(ct_conv2d(x.get(), w_cpu.get(), nullptr, one, zero, one, 1, out.out()), CT_ERR_DEVICE, "cuda:0");
    if (ct_cuda_device_count() >= 2) {  // operands on two devices
        H w1 = on(w_cpu, ct_cuda(1));
        CT_EXPECT_ERR(ct_conv2d(x.get(), w1.get(), nullptr, one, zero, one, 1, out.out()), CT_ERR_DEVICE, "cuda:1");
    }
    H xi = on(make(std::vector<double>(50, 1.0), {1, 2, 5, 5}, CT_INT64), ct_cuda(0));
    H wi = on(make(std::vector<double>(54, 1.0), {3, 2, 3, 3}, CT_INT64), ct_cuda(0));
    CT_EXPECT_ERR(ct_conv2d(xi.get(), wi.get(), nullptr, one, zero, one, 1, out.out()), CT_ERR_DTYPE, "conv2d");
    H w_bad = on(randt({3, 2, 7, 7}, 3, false), ct_cuda(0));
    CT_EXPECT_ERR(ct_conv2d(x.get(), w_bad.get(), nullptr, one, zero, one, 1, out.out()), CT_ERR_SHAPE,
                  "output size would be <= 0");
}

// ---- pooling ----

namespace {

struct PoolCase {
    const char* what;
    Shape x;
    int64_t kernel[2], stride[2], padding[2];
};

const PoolCase kPoolCases[] = {
    {"2x2", {2, 3, 6, 8}, {2, 2}, {2, 2}, {0, 0}},
    {"3x3 stride 2 pad 1", {2, 2, 7, 9}, {3, 3}, {2, 2}, {1, 1}},
    {"overlapping 3x2 stride 1", {1, 3, 5, 6}, {3, 2}, {1, 1}, {1, 0}},
    {"uneven stride", {2, 1, 9, 7}, {2, 3}, {3, 1}, {1, 1}},
    {"3-D input (CHW)", {3, 5, 5}, {2, 2}, {1, 2}, {0, 1}},
    {"empty batch", {0, 2, 4, 4}, {2, 2}, {2, 2}, {0, 0}},
};

H pool(bool max, const H& x, const PoolCase& c) {
    H out;
    ok((max ? ct_max_pool2d : ct_avg_pool2d)(x.get(), c.kernel, c.stride, c.padding, out.out()));
    return out;
}

}  // namespace

// Values come in halves, so windows hold ties: the argmax (first maximum) and so the gradient must agree.
TEST(CudaGpu, PoolingMatchesCpuWithGradients) {
    REQUIRE_CUDA();
    for (bool max : {true, false})
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32})
            for (const PoolCase& c : kPoolCases) {
                SCOPED_TRACE(std::string(max ? "max " : "avg ") + c.what + (dt == CT_FLOAT32 ? " float32" : ""));
                compare_on_cuda(c.what, [&](const std::vector<H>& v) { return pool(max, v[0], c); },
                                {sample(c.x, dt, 5, -2, 2)}, {true}, {}, dt == CT_FLOAT32 ? 1e-5 : 1e-12);
            }
}

// NaN propagates and wins the argmax; -inf windows keep their first position; strided inputs after the move.
TEST(CudaGpu, MaxPoolSpecialValuesAndStridedInput) {
    REQUIRE_CUDA();
    std::vector<double> v = rand_values(2 * 4 * 6, 3);
    v[5] = NAN;
    v[14] = v[15] = v[20] = v[21] = -INFINITY;  // a whole window of plane 0
    const PoolCase c{"special", {2, 4, 6}, {2, 2}, {2, 2}, {0, 0}};
    compare_on_cuda("nan and -inf", [&](const std::vector<H>& in) { return pool(true, in[0], c); },
                    {make(v, {2, 4, 6})}, {true}, {}, 0.0);
    const PoolCase s{"strided", {2, 3, 5, 5}, {3, 3}, {2, 1}, {1, 1}};
    for (bool max : {true, false})
        compare_on_cuda("strided", [&](const std::vector<H>& in) { return pool(max, in[0], s); },
                        {randt({2, 3, 5, 10}, 4)}, {true}, {every_other_column}, 1e-12);
}

// Pooling's backward is differentiable again (max: a gather at the argmax; avg: avg_pool2d itself).
TEST(CudaGpu, PoolingDoubleBackward) {
    REQUIRE_CUDA();
    const PoolCase& c = kPoolCases[2];
    for (bool max : {true, false}) {
        auto f = [&](const std::vector<H>& v) {
            H y = pool(max, v[0], c), y2, seed;
            ok(ct_mul(y.get(), y.get(), y2.out()));
            ok(ct_ones_like(y2.get(), seed.out()));
            ct_tensor outs[1] = {y2.get()}, seeds[1] = {seed.get()}, ins[1] = {v[0].get()}, grads[1];
            ok(ct_autograd_grad(outs, 1, seeds, ins, 1, 1, 1, 0, grads));
            H g(grads[0]), g2;
            ok(ct_mul(g.get(), g.get(), g2.out()));
            return g2;
        };
        compare_on_cuda(max ? "max" : "avg", f, {sample(c.x, CT_FLOAT64, 9)}, {true}, {}, 1e-12);
    }
}

TEST(CudaGpu, PoolingErrors) {
    REQUIRE_CUDA();
    H x = on(make(std::vector<double>(16, 1.0), {1, 1, 4, 4}, CT_INT32), ct_cuda(0)), out;
    const int64_t k[2] = {2, 2}, pad[2] = {0, 0}, big_pad[2] = {2, 0};
    CT_EXPECT_ERR(ct_max_pool2d(x.get(), k, k, pad, out.out()), CT_ERR_DTYPE, "max_pool2d");
    H xf = on(randt({1, 1, 4, 4}, 1, false), ct_cuda(0));
    CT_EXPECT_ERR(ct_avg_pool2d(xf.get(), k, k, big_pad, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "avg_pool2d: padding 2 should be at most half of kernel size 2");
}

// test_cuda_pool_options.cpp - pooling options (dilation, ceil_mode, count_include_pad, divisor_override,
// return_indices) and adaptive pooling on CUDA against the CPU: values, argmax and gradients (also double).
#include "cuda_compare.h"

using namespace ctt;

namespace {

struct OptCase {
    const char* what;
    Shape x;
    int64_t k[2], s[2], p[2], d[2];
    int32_t ceil_mode, include_pad;
    int64_t divisor;
};

const OptCase kOptCases[] = {
    {"ceil_mode 3x3 stride 2", {2, 3, 6, 7}, {3, 3}, {2, 2}, {0, 1}, {1, 1}, 1, 1, 0},
    {"dilation 2 pad 1", {2, 2, 9, 8}, {3, 2}, {1, 2}, {1, 1}, {2, 3}, 0, 1, 0},
    {"dilation and ceil_mode", {1, 3, 8, 7}, {2, 3}, {3, 2}, {1, 1}, {2, 2}, 1, 0, 0},
    {"no pad counted", {2, 1, 7, 9}, {3, 3}, {2, 3}, {1, 1}, {1, 1}, 1, 0, 0},
    {"divisor_override", {3, 5, 5}, {2, 2}, {1, 2}, {1, 0}, {1, 1}, 0, 1, 3},
    {"window of padding only", {1, 1, 2, 2}, {2, 2}, {1, 1}, {1, 1}, {3, 3}, 0, 1, 0},
    {"empty batch", {0, 2, 4, 4}, {2, 2}, {2, 2}, {0, 0}, {1, 1}, 1, 1, 0},
};

H pool(bool max, const H& x, const OptCase& c, bool want_indices = false) {
    H out, idx;
    if (max) ok(ct_max_pool2d_ex(x.get(), c.k, c.s, c.p, c.d, c.ceil_mode, out.out(), idx.out()));
    else ok(ct_avg_pool2d_ex(x.get(), c.k, c.s, c.p, c.ceil_mode, c.include_pad, c.divisor, out.out()));
    return want_indices ? idx : out;
}

H adaptive(bool max, const H& x, const int64_t* o, bool want_indices = false) {
    H out, idx;
    if (max) ok(ct_adaptive_max_pool2d(x.get(), o, out.out(), idx.out()));
    else ok(ct_adaptive_avg_pool2d(x.get(), o, out.out()));
    return want_indices ? idx : out;
}

// d(sum of squares of the gradient of sum(y^2)): exercises the backward's own backward on the device.
H double_backward(const H& x, const std::function<H(const H&)>& f) {
    H y = f(x), y2, seed;
    ok(ct_mul(y.get(), y.get(), y2.out()));
    ok(ct_ones_like(y2.get(), seed.out()));
    ct_tensor outs[1] = {y2.get()}, seeds[1] = {seed.get()}, ins[1] = {x.get()}, grads[1];
    ok(ct_autograd_grad(outs, 1, seeds, ins, 1, 1, 1, 0, grads));
    H g(grads[0]), g2;
    ok(ct_mul(g.get(), g.get(), g2.out()));
    return g2;
}

}  // namespace

// Values come in halves, so windows hold ties: the argmax (first maximum) and so the gradient must agree.
TEST(CudaGpu, PoolOptionsMatchCpuWithGradients) {
    REQUIRE_CUDA();
    for (bool max : {true, false})
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32})
            for (const OptCase& c : kOptCases) {
                if (!max && (c.d[0] != 1 || c.d[1] != 1)) continue;  // average pooling has no dilation
                SCOPED_TRACE(std::string(max ? "max " : "avg ") + c.what + (dt == CT_FLOAT32 ? " float32" : ""));
                H x = sample(c.x, dt, 5, -2, 2);
                compare_on_cuda(c.what, [&](const std::vector<H>& v) { return pool(max, v[0], c); }, {x}, {true},
                                {}, dt == CT_FLOAT32 ? 1e-5 : 1e-12);
                if (max)
                    compare_on_cuda("indices", [&](const std::vector<H>& v) { return pool(true, v[0], c, true); },
                                    {x}, {false}, {}, 0.0);
            }
}

TEST(CudaGpu, PoolOptionsStridedInputAndDoubleBackward) {
    REQUIRE_CUDA();
    const OptCase& c = kOptCases[2];
    for (bool max : {true, false}) {
        OptCase cc = c;
        if (!max) cc.d[0] = cc.d[1] = 1;
        compare_on_cuda("strided", [&](const std::vector<H>& in) { return pool(max, in[0], cc); },
                        {randt({2, 3, 8, 14}, 4)}, {true}, {every_other_column}, 1e-12);
        compare_on_cuda("double backward",
                        [&](const std::vector<H>& v) {
                            return double_backward(v[0], [&](const H& x) { return pool(max, x, cc); });
                        },
                        {sample(cc.x, CT_FLOAT64, 9)}, {true}, {}, 1e-12);
    }
}

TEST(CudaGpu, AdaptivePoolMatchesCpuWithGradients) {
    REQUIRE_CUDA();
    const Shape shapes[] = {{2, 3, 7, 5}, {3, 10, 9}, {0, 2, 3, 3}};
    const int64_t outs[][2] = {{1, 1}, {3, 2}, {4, 4}, {9, 11}};
    for (bool max : {true, false})
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32})
            for (const Shape& s : shapes)
                for (const auto& o : outs) {
                    SCOPED_TRACE(std::string(max ? "adaptive max " : "adaptive avg ") + std::to_string(o[0]) + "x" +
                                 std::to_string(o[1]));
                    H x = sample(s, dt, 6, -2, 2);
                    compare_on_cuda("adaptive", [&](const std::vector<H>& v) { return adaptive(max, v[0], o); },
                                    {x}, {true}, {}, dt == CT_FLOAT32 ? 1e-5 : 1e-12);
                    if (max)
                        compare_on_cuda("indices",
                                        [&](const std::vector<H>& v) { return adaptive(true, v[0], o, true); }, {x},
                                        {false}, {}, 0.0);
                }
    const int64_t o[2] = {3, 4};
    for (bool max : {true, false})
        compare_on_cuda("adaptive double backward",
                        [&](const std::vector<H>& v) {
                            return double_backward(v[0], [&](const H& x) { return adaptive(max, x, o); });
                        },
                        {sample({2, 2, 5, 7}, CT_FLOAT64, 10)}, {true}, {every_other_column}, 1e-12);
}

TEST(CudaGpu, PoolOptionsErrors) {
    REQUIRE_CUDA();
    H x = on(randt({1, 1, 5, 5}, 1, false), ct_cuda(0)), out;
    const int64_t k[2] = {3, 3}, s[2] = {1, 1}, z[2] = {0, 0}, d[2] = {3, 3}, o[2] = {-1, 2};
    CT_EXPECT_ERR(ct_max_pool2d_ex(x.get(), k, s, z, d, 0, out.out(), nullptr), CT_ERR_SHAPE,
                  "max_pool2d: output size -1x-1 is too small");
    CT_EXPECT_ERR(ct_adaptive_avg_pool2d(x.get(), o, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "adaptive_avg_pool2d: output size must be non-negative, got -1x2");
    H xi = on(make(std::vector<double>(16, 1.0), {1, 1, 4, 4}, CT_INT32), ct_cuda(0));
    CT_EXPECT_ERR(ct_adaptive_max_pool2d(xi.get(), k, out.out(), nullptr), CT_ERR_DTYPE, "adaptive_max_pool2d");
}

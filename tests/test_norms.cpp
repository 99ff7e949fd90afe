// test_norms.cpp - ct_layer_norm, ct_group_norm and ct_batch_norm against a float64 host reference (values),
// central differences (gradients of x, weight, bias), second derivatives (gradgradcheck), running-statistic
// updates and eval mode, float32 / half inputs, empty inputs and errors - on the CPU and the (emulated) CUDA device.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

// Reference normalisation of x seen as [N, C, S]: stats_of(n, c) names the statistic (row) of element (n, c, *);
// mean / var per row (biased) unless given (eval), then weight / bias per channel (empty: none).
std::vector<double> ref_norm(const std::vector<double>& x, int64_t N, int64_t C, int64_t S,
                             const std::function<int64_t(int64_t, int64_t)>& stats_of, int64_t rows, double eps,
                             const std::vector<double>& w, const std::vector<double>& b,
                             std::vector<double>* mean_io = nullptr, std::vector<double>* var_io = nullptr,
                             bool eval = false) {
    std::vector<double> mean((size_t)rows, 0), var((size_t)rows, 0), count((size_t)rows, 0);
    if (eval) {
        mean = *mean_io;
        var = *var_io;
    } else {
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t s = 0; s < S; ++s) {
                    mean[(size_t)stats_of(n, c)] += x[(size_t)((n * C + c) * S + s)];
                    count[(size_t)stats_of(n, c)] += 1;
                }
        for (int64_t r = 0; r < rows; ++r) mean[(size_t)r] /= count[(size_t)r];
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t s = 0; s < S; ++s) {
                    double d = x[(size_t)((n * C + c) * S + s)] - mean[(size_t)stats_of(n, c)];
                    var[(size_t)stats_of(n, c)] += d * d;
                }
        for (int64_t r = 0; r < rows; ++r) var[(size_t)r] /= count[(size_t)r];
        if (mean_io) *mean_io = mean;
        if (var_io) *var_io = var;
    }
    std::vector<double> y(x.size());
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t s = 0; s < S; ++s) {
                const size_t i = (size_t)((n * C + c) * S + s), r = (size_t)stats_of(n, c);
                double v = (x[i] - mean[r]) / std::sqrt(var[r] + eps);
                y[i] = v * (w.empty() ? 1.0 : w[(size_t)c]) + (b.empty() ? 0.0 : b[(size_t)c]);
            }
    return y;
}

H layer_norm(const H& x, const Shape& ns, const H& w, const H& b, double eps = 1e-5) {
    H o;
    ok(ct_layer_norm(x.get(), ns.data(), (int32_t)ns.size(), w.get(), b.get(), eps, o.out()));
    return o;
}
H group_norm(const H& x, int64_t groups, const H& w, const H& b, double eps = 1e-5) {
    H o;
    ok(ct_group_norm(x.get(), groups, w.get(), b.get(), eps, o.out()));
    return o;
}
H batch_norm(const H& x, const H& rm, const H& rv, const H& w, const H& b, bool train, double momentum = 0.1,
             double eps = 1e-5) {
    H o;
    ok(ct_batch_norm(x.get(), rm.get(), rv.get(), w.get(), b.get(), train, momentum, eps, o.out()));
    return o;
}

}  // namespace

TEST(Norms, ValuesMatchTheReference) {
    for_each_device([&] {
        // layer_norm over the last two dims of [3, 2, 4, 5] (+ a constant offset so a naive variance would suffer)
        std::vector<double> xv = rand_values(120, 1, 99, 101);
        H x = make(xv, {3, 2, 4, 5});
        std::vector<double> wv = rand_values(20, 2, 0.5, 1.5), bv = rand_values(20, 3);
        H w = make(wv, {4, 5}), b = make(bv, {4, 5});
        // layer_norm: N = 6 rows of C = 20 channels (S = 1)
        std::vector<double> ref = ref_norm(xv, 6, 20, 1, [](int64_t n, int64_t) { return n; }, 6, 1e-5, wv, bv);
        EXPECT_TRUE(allclose(layer_norm(x, {4, 5}, w, b), ref, 1e-9, 1e-9));
        ref = ref_norm(xv, 6, 20, 1, [](int64_t n, int64_t) { return n; }, 6, 1e-3, {}, {});
        EXPECT_TRUE(allclose(layer_norm(x, {4, 5}, H(), H(), 1e-3), ref, 1e-9, 1e-9));
        // group_norm of [3, 4, 10] (x reread as 4 channels of 10) in 2 groups, and in 4 (instance norm)
        std::vector<double> gw = rand_values(4, 4, 0.5, 1.5), gb = rand_values(4, 5);
        H xg = make(xv, {3, 4, 10}), w4 = make(gw, {4}), b4 = make(gb, {4});
        for (int64_t G : {1, 2, 4}) {
            ref = ref_norm(xv, 3, 4, 10, [G](int64_t n, int64_t c) { return n * G + c / (4 / G); }, 3 * G, 1e-5, gw, gb);
            EXPECT_TRUE(allclose(group_norm(xg, G, w4, b4), ref, 1e-9, 1e-9)) << G << " groups";
        }
        // batch_norm, training then eval with the running statistics it left
        H rm = make({0, 0, 0, 0}, {4}), rv = make({1, 1, 1, 1}, {4});
        std::vector<double> mean, var;
        ref = ref_norm(xv, 3, 4, 10, [](int64_t, int64_t c) { return c; }, 4, 1e-5, gw, gb, &mean, &var);
        EXPECT_TRUE(allclose(batch_norm(xg, rm, rv, w4, b4, true, 0.25), ref, 1e-9, 1e-9));
        std::vector<double> want_m, want_v;
        for (size_t c = 0; c < 4; ++c) {
            want_m.push_back(0.25 * mean[c]);
            want_v.push_back(0.75 + 0.25 * var[c] * 30.0 / 29.0);  // unbiased batch variance, as torch
        }
        EXPECT_TRUE(allclose(rm, want_m, 1e-12, 1e-12));
        EXPECT_TRUE(allclose(rv, want_v, 1e-12, 1e-12));
        ref = ref_norm(xv, 3, 4, 10, [](int64_t, int64_t c) { return c; }, 4, 1e-5, gw, gb, &want_m, &want_v, true);
        EXPECT_TRUE(allclose(batch_norm(xg, rm, rv, w4, b4, false), ref, 1e-9, 1e-9));
        // batch_norm of [N, C] (S = 1), without running statistics
        H x2 = make(rand_values(12, 6), {6, 2});
        ref = ref_norm(values(x2), 6, 2, 1, [](int64_t, int64_t c) { return c; }, 2, 1e-5, {}, {});
        EXPECT_TRUE(allclose(batch_norm(x2, H(), H(), H(), H(), true), ref, 1e-9, 1e-9));
        // [N, C] with more channels than one block of Note [Channels-last batch norm]
        H x3 = make(rand_values(3 * 20000, 7), {3, 20000});
        ref = ref_norm(values(x3), 3, 20000, 1, [](int64_t, int64_t c) { return c; }, 20000, 1e-5, {}, {});
        EXPECT_TRUE(allclose(batch_norm(x3, H(), H(), H(), H(), true), ref, 1e-9, 1e-9));
    });
}

TEST(Norms, RunningStatsBumpVersionsAndFloat32RunningStatsFollowFloat64Input) {
    H x = randt({4, 3, 5}, 7, false);
    H rm = make({0, 0, 0}, {3}, CT_FLOAT32), rv = make({1, 1, 1}, {3}, CT_FLOAT32);
    int64_t v0 = 0, v1 = 0;
    ok(ct_tensor_version(rm.get(), &v0));
    batch_norm(x, rm, rv, H(), H(), true);
    ok(ct_tensor_version(rm.get(), &v1));
    EXPECT_GT(v1, v0);
    EXPECT_EQ(dtype(rm), CT_FLOAT32);
    std::vector<double> xv = values(x), mean;
    std::vector<double> var;
    ref_norm(xv, 4, 3, 5, [](int64_t, int64_t c) { return c; }, 3, 1e-5, {}, {}, &mean, &var);
    for (size_t c = 0; c < 3; ++c) {
        EXPECT_NEAR(values(rm)[c], 0.1 * mean[c], 1e-6);
        EXPECT_NEAR(values(rv)[c], 0.9 + 0.1 * var[c] * 20.0 / 19.0, 1e-6);
    }
    // eval does not touch them; not recorded by autograd
    std::vector<double> keep = values(rm);
    batch_norm(x, rm, rv, H(), H(), false);
    EXPECT_EQ(values(rm), keep);
    int32_t rg = 1;
    ok(ct_tensor_requires_grad(rm.get(), &rg));
    EXPECT_EQ(rg, 0);
}

TEST(Norms, GradientsMatchCentralDifferences) {
    for_each_device([&] {
        H rm = make({0.1, -0.2, 0.3}, {3}), rv = make({0.5, 1.5, 2.0}, {3});
        auto check = [&](const char* what, const std::function<H(const std::vector<H>&)>& f, const std::vector<H>& in) {
            EXPECT_TRUE(gradcheck(f, in)) << what;
            EXPECT_TRUE(gradgradcheck(f, in)) << what << " (second derivatives)";
        };
        check("layer_norm", [](const std::vector<H>& in) { return layer_norm(in[0], {2, 3}, in[1], in[2]); },
              {randt({4, 2, 3}, 1), randt({2, 3}, 2), randt({2, 3}, 3)});
        check("layer_norm without affine", [](const std::vector<H>& in) { return layer_norm(in[0], {5}, H(), H()); },
              {randt({3, 5}, 4)});
        check("group_norm", [](const std::vector<H>& in) { return group_norm(in[0], 2, in[1], in[2]); },
              {randt({2, 4, 3}, 5), randt({4}, 6), randt({4}, 7)});
        check("group_norm S = 1", [](const std::vector<H>& in) { return group_norm(in[0], 3, in[1], H()); },
              {randt({2, 6}, 8), randt({6}, 9)});
        check("batch_norm train", [](const std::vector<H>& in) { return batch_norm(in[0], H(), H(), in[1], in[2], true); },
              {randt({4, 3, 2}, 10), randt({3}, 11), randt({3}, 12)});
        check("batch_norm eval",
              [&](const std::vector<H>& in) { return batch_norm(in[0], rm, rv, in[1], in[2], false); },
              {randt({4, 3, 2}, 13), randt({3}, 14), randt({3}, 15)});
        check("batch_norm [N, C]", [](const std::vector<H>& in) { return batch_norm(in[0], H(), H(), in[1], H(), true); },
              {randt({5, 3}, 16), randt({3}, 17)});
        check("batch_norm [N, C] eval",
              [&](const std::vector<H>& in) { return batch_norm(in[0], rm, rv, in[1], in[2], false); },
              {randt({5, 3}, 18), randt({3}, 19), randt({3}, 20)});
    });
}

TEST(Norms, BigRowsFloat32AndHalfInputs) {
    // rows long enough for several accumulator lanes and parallel blocks; float32 within float32 rounding
    H x64 = randt({64, 1000}, 21, false, 5.0, 7.0);
    H w64 = randt({1000}, 22, false), b64 = randt({1000}, 23, false);
    H x32, w32, b32;
    ok(ct_to_dtype(x64.get(), CT_FLOAT32, x32.out()));
    ok(ct_to_dtype(w64.get(), CT_FLOAT32, w32.out()));
    ok(ct_to_dtype(b64.get(), CT_FLOAT32, b32.out()));
    std::vector<double> want = values(layer_norm(x64, {1000}, w64, b64));
    EXPECT_TRUE(allclose(layer_norm(x32, {1000}, w32, b32), want, 1e-4, 1e-4));
    for (ct_dtype half : {CT_FLOAT16, CT_BFLOAT16}) {
        H xh, wh, bh;
        ok(ct_to_dtype(x64.get(), half, xh.out()));
        ok(ct_to_dtype(w64.get(), half, wh.out()));
        ok(ct_to_dtype(b64.get(), half, bh.out()));
        H y = layer_norm(xh, {1000}, wh, bh);
        EXPECT_EQ(dtype(y), half);
        EXPECT_TRUE(allclose(y, want, 0.1, 0.05)) << "dtype " << half;
    }
    // float32 backward against float64
    H xg, g64, g32;
    ok(ct_to_dtype(x64.get(), CT_FLOAT32, xg.out()));
    ok(ct_tensor_set_requires_grad(xg.get(), 1));
    H x64g = randt({64, 1000}, 21, true, 5.0, 7.0);
    for (H* in : {&xg, &x64g}) {
        H y = layer_norm(*in, {1000}, in == &xg ? w32 : w64, H()), sq, s;
        ok(ct_mul(y.get(), y.get(), sq.out()));
        ok(ct_sum(sq.get(), nullptr, 0, 0, s.out()));
        ok(ct_backward(s.get(), nullptr, 0, 0));
    }
    ok(ct_tensor_grad(x64g.get(), g64.out()));
    ok(ct_tensor_grad(xg.get(), g32.out()));
    EXPECT_TRUE(allclose(g32, values(g64), 1e-3, 1e-3));
}

TEST(Norms, EmptyInputsCostNothing) {
    for_each_device([&] {
        H x = make({}, {0, 4, 3});
        EXPECT_EQ(shape(group_norm(x, 2, H(), H())), (Shape{0, 4, 3}));
        EXPECT_EQ(shape(layer_norm(x, {4, 3}, H(), H())), (Shape{0, 4, 3}));
        H rm = make({0, 0, 0, 0}, {4}), rv = make({1, 1, 1, 1}, {4});
        EXPECT_EQ(shape(batch_norm(x, rm, rv, H(), H(), true)), (Shape{0, 4, 3}));
        EXPECT_EQ(values(rm), (std::vector<double>{0, 0, 0, 0}));  // an empty batch leaves them (as torch)
    });
    // a huge dim next to a zero one allocates nothing
    H e;
    const int64_t huge[3] = {0, int64_t(1) << 40, int64_t(1) << 20};
    ok(ct_empty(huge, 3, CT_FLOAT32, ct_device{CT_DEVICE_CPU, 0}, e.out()));
    H o;
    CT_EXPECT_OK(ct_batch_norm(e.get(), nullptr, nullptr, nullptr, nullptr, 1, 0.1, 1e-5, o.out()));
    CT_EXPECT_OK(ct_group_norm(e.get(), 1, nullptr, nullptr, 1e-5, o.out()));
    const int64_t ns[2] = {int64_t(1) << 40, int64_t(1) << 20};
    CT_EXPECT_OK(ct_layer_norm(e.get(), ns, 2, nullptr, nullptr, 1e-5, o.out()));
}

TEST(Norms, BadInputNamesTheOpAndValues) {
    H x = randt({2, 4, 3}, 1, false), o;
    const int64_t ns[1] = {5};
    CT_EXPECT_ERR(ct_layer_norm(x.get(), ns, 1, nullptr, nullptr, 1e-5, o.out()), CT_ERR_SHAPE,
                  "layer_norm: Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[2, 4, 3]");
    const int64_t ns2[2] = {4, 3};
    H w3 = randt({3}, 2, false);
    CT_EXPECT_ERR(ct_layer_norm(x.get(), ns2, 2, w3.get(), nullptr, 1e-5, o.out()), CT_ERR_SHAPE,
                  "layer_norm: expected weight of shape [4, 3], got [3]");
    CT_EXPECT_ERR(ct_layer_norm(x.get(), nullptr, 1, nullptr, nullptr, 1e-5, o.out()), CT_ERR_INVALID_ARGUMENT,
                  "normalized_shape is NULL");
    CT_EXPECT_ERR(ct_group_norm(x.get(), 3, nullptr, nullptr, 1e-5, o.out()), CT_ERR_INVALID_ARGUMENT,
                  "divisible by num_groups, but got input of shape [2, 4, 3] and num_groups=3");
    CT_EXPECT_ERR(ct_group_norm(x.get(), 0, nullptr, nullptr, 1e-5, o.out()), CT_ERR_INVALID_ARGUMENT, "num_groups=0");
    CT_EXPECT_ERR(ct_group_norm(x.get(), 2, w3.get(), nullptr, 1e-5, o.out()), CT_ERR_SHAPE,
                  "group_norm: expected weight of shape [4], got [3]");
    H x1 = randt({4}, 3, false);
    CT_EXPECT_ERR(ct_group_norm(x1.get(), 2, nullptr, nullptr, 1e-5, o.out()), CT_ERR_SHAPE, "at least 2 dims");
    H one = randt({1, 4}, 4, false);
    CT_EXPECT_ERR(ct_batch_norm(one.get(), nullptr, nullptr, nullptr, nullptr, 1, 0.1, 1e-5, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "Expected more than 1 value per channel when training, got input size [1, 4]");
    CT_EXPECT_ERR(ct_batch_norm(x.get(), nullptr, nullptr, nullptr, nullptr, 0, 0.1, 1e-5, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "running_mean and running_var must be defined in evaluation mode");
    CT_EXPECT_ERR(ct_batch_norm(x.get(), w3.get(), w3.get(), nullptr, nullptr, 0, 0.1, 1e-5, o.out()), CT_ERR_SHAPE,
                  "batch_norm: expected running_mean of shape [4]");
    H w4 = randt({4}, 5, false);
    CT_EXPECT_ERR(ct_batch_norm(x.get(), w4.get(), nullptr, nullptr, nullptr, 1, 0.1, 1e-5, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "both be given");
    H xi = make({1, 2, 3, 4}, {2, 2}, CT_INT64);
    CT_EXPECT_ERR(ct_batch_norm(xi.get(), nullptr, nullptr, nullptr, nullptr, 1, 0.1, 1e-5, o.out()), CT_ERR_DTYPE,
                  "batch_norm");
    H w4f;
    ok(ct_to_dtype(w4.get(), CT_FLOAT32, w4f.out()));
    CT_EXPECT_ERR(ct_group_norm(x.get(), 2, w4f.get(), nullptr, 1e-5, o.out()), CT_ERR_DTYPE,
                  "group_norm: weight must have the input's dtype float64, got float32");
    CT_EXPECT_ERR(ct_layer_norm(nullptr, ns, 1, nullptr, nullptr, 1e-5, o.out()), CT_ERR_INVALID_HANDLE, "layer_norm");
}

// test_autocast.cpp - autocast regions (issue 15): state per thread and device type, the policy per op, the cast
// cache, gradient dtypes, and the gradient scaler steps on the CPU and the (emulated) CUDA device.
#include <atomic>
#include <thread>
#include "ct_test.h"

using namespace ctt;

namespace {

// An autocast region on the CPU for the test's lifetime (what the bindings' context managers do).
struct Region {
    explicit Region(ct_dtype dtype = CT_BFLOAT16, int32_t device_type = CT_DEVICE_CPU) : type_(device_type) {
        ok(ct_autocast_set_dtype(type_, dtype, &prev_dtype_));
        ok(ct_autocast_set_enabled(type_, 1, &prev_enabled_));
        ct_autocast_increment_nesting();
    }
    ~Region() {
        ct_autocast_set_enabled(type_, prev_enabled_, nullptr);
        ct_autocast_set_dtype(type_, prev_dtype_, nullptr);
        ct_autocast_decrement_nesting();
    }
    int32_t type_;
    int32_t prev_enabled_ = 0;
    ct_dtype prev_dtype_ = CT_BFLOAT16;
};

H f32(const Shape& s, uint64_t seed, bool requires_grad = false) {
    std::vector<double> v;
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return make(rand_values((size_t)n, seed), s, CT_FLOAT32, requires_grad);
}

H to(const H& t, ct_dtype d) {
    H out;
    ok(ct_to_dtype(t.get(), d, out.out()));
    return out;
}

int32_t enabled(int32_t type) {
    int32_t e = -1;
    ok(ct_autocast_is_enabled(type, &e));
    return e;
}

}  // namespace

TEST(Autocast, StateIsPerDeviceTypeAndChecked) {
    EXPECT_EQ(enabled(CT_DEVICE_CPU), 0);
    EXPECT_EQ(enabled(CT_DEVICE_CUDA), 0);
    ct_dtype d = -1;
    CT_ASSERT_OK(ct_autocast_get_dtype(CT_DEVICE_CPU, &d));
    EXPECT_EQ(d, CT_BFLOAT16);  // torch's defaults
    CT_ASSERT_OK(ct_autocast_get_dtype(CT_DEVICE_CUDA, &d));
    EXPECT_EQ(d, CT_FLOAT16);
    {
        Region r(CT_FLOAT16);
        EXPECT_EQ(enabled(CT_DEVICE_CPU), 1);
        EXPECT_EQ(enabled(CT_DEVICE_CUDA), 0);
        CT_ASSERT_OK(ct_autocast_get_dtype(CT_DEVICE_CPU, &d));
        EXPECT_EQ(d, CT_FLOAT16);
    }
    EXPECT_EQ(enabled(CT_DEVICE_CPU), 0);
    CT_ASSERT_OK(ct_autocast_get_dtype(CT_DEVICE_CPU, &d));
    EXPECT_EQ(d, CT_BFLOAT16);
    CT_EXPECT_ERR(ct_autocast_set_dtype(CT_DEVICE_CPU, CT_FLOAT32, nullptr), CT_ERR_DTYPE, "float32");
    CT_EXPECT_ERR(ct_autocast_set_dtype(CT_DEVICE_CPU, CT_INT64, nullptr), CT_ERR_DTYPE, "int64");
    CT_EXPECT_ERR(ct_autocast_set_dtype(CT_DEVICE_CPU, 99, nullptr), CT_ERR_DTYPE, "99");
    CT_EXPECT_ERR(ct_autocast_set_enabled(7, 1, nullptr), CT_ERR_INVALID_ARGUMENT, "device_type");
    CT_EXPECT_ERR(ct_autocast_is_enabled(CT_DEVICE_CPU, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
    CT_EXPECT_ERR(ct_autocast_policy(nullptr, CT_DEVICE_CPU, &d), CT_ERR_INVALID_ARGUMENT, "op");
    CT_ASSERT_OK(ct_autocast_get_dtype(CT_DEVICE_CPU, &d));
    EXPECT_EQ(d, CT_BFLOAT16);  // a refused dtype changed nothing
}

TEST(Autocast, PolicyPerOp) {
    H x = f32({4, 3}, 1), w = f32({5, 3}, 2), b = f32({5}, 3), y = f32({4, 5}, 4);
    H out, loss, sm;
    {
        Region r;
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), b.get(), out.out()));
        EXPECT_EQ(dtype(out), CT_BFLOAT16);  // lower precision
        H wt;
        CT_ASSERT_OK(ct_t(w.get(), wt.out()));
        H mm;
        CT_ASSERT_OK(ct_matmul(x.get(), wt.get(), mm.out()));
        EXPECT_EQ(dtype(mm), CT_BFLOAT16);
        CT_ASSERT_OK(ct_mse_loss(out.get(), y.get(), CT_REDUCTION_MEAN, loss.out()));
        EXPECT_EQ(dtype(loss), CT_FLOAT32);  // float32 list: the bfloat16 input is cast up
        CT_ASSERT_OK(ct_softmax(out.get(), 1, sm.out()));
        EXPECT_EQ(dtype(sm), CT_BFLOAT16);  // not listed on the CPU (torch 1.13): passes through
        H e;
        CT_ASSERT_OK(ct_exp(x.get(), e.out()));
        EXPECT_EQ(dtype(e), CT_FLOAT32);
        ct_tensor parts[2] = {out.get(), y.get()};
        H c;
        CT_ASSERT_OK(ct_cat(parts, 2, 0, c.out()));
        EXPECT_EQ(dtype(c), CT_FLOAT32);  // promote: the widest input
        // float64 is never cast (torch's is_eligible)
        H x64 = to(x, CT_FLOAT64), w64 = to(w, CT_FLOAT64), o64;
        CT_ASSERT_OK(ct_linear(x64.get(), w64.get(), nullptr, o64.out()));
        EXPECT_EQ(dtype(o64), CT_FLOAT64);
    }
    // the same calls outside the region are unaffected
    CT_ASSERT_OK(ct_linear(x.get(), w.get(), b.get(), out.out()));
    EXPECT_EQ(dtype(out), CT_FLOAT32);
    H hb = to(y, CT_BFLOAT16);
    CT_ASSERT_OK(ct_mse_loss(hb.get(), hb.get(), CT_REDUCTION_MEAN, loss.out()));
    EXPECT_EQ(dtype(loss), CT_BFLOAT16);
    int32_t p = -1;
    CT_ASSERT_OK(ct_autocast_policy("linear", CT_DEVICE_CPU, &p));
    EXPECT_EQ(p, CT_AUTOCAST_LOWER_PRECISION);
    CT_ASSERT_OK(ct_autocast_policy("conv_transpose2d", CT_DEVICE_CPU, &p));
    EXPECT_EQ(p, CT_AUTOCAST_FLOAT32);
    CT_ASSERT_OK(ct_autocast_policy("conv_transpose2d", CT_DEVICE_CUDA, &p));
    EXPECT_EQ(p, CT_AUTOCAST_LOWER_PRECISION);
    CT_ASSERT_OK(ct_autocast_policy("softmax", CT_DEVICE_CUDA, &p));
    EXPECT_EQ(p, CT_AUTOCAST_FLOAT32);
    CT_ASSERT_OK(ct_autocast_policy("stack", CT_DEVICE_CPU, &p));
    EXPECT_EQ(p, CT_AUTOCAST_PROMOTE);
    CT_ASSERT_OK(ct_autocast_policy("relu", CT_DEVICE_CPU, &p));
    EXPECT_EQ(p, CT_AUTOCAST_PASSTHROUGH);
}

TEST(Autocast, ValuesMatchAnExplicitCast) {
    H x = f32({6, 7}, 5), w = f32({3, 7}, 6), out;
    {
        Region r;
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), nullptr, out.out()));
    }
    H ref;
    CT_ASSERT_OK(ct_linear(to(x, CT_BFLOAT16).get(), to(w, CT_BFLOAT16).get(), nullptr, ref.out()));
    EXPECT_EQ(values(out), values(ref));
}

TEST(Autocast, NestingAndThreadLocality) {
    EXPECT_EQ(ct_autocast_increment_nesting(), 1);
    EXPECT_EQ(ct_autocast_increment_nesting(), 2);
    EXPECT_EQ(ct_autocast_decrement_nesting(), 1);
    EXPECT_EQ(ct_autocast_decrement_nesting(), 0);
    EXPECT_EQ(ct_autocast_decrement_nesting(), 0);  // never below 0
    Region outer;
    {
        Region inner(CT_FLOAT16);
        ct_dtype d;
        CT_ASSERT_OK(ct_autocast_get_dtype(CT_DEVICE_CPU, &d));
        EXPECT_EQ(d, CT_FLOAT16);
    }
    ct_dtype d;
    CT_ASSERT_OK(ct_autocast_get_dtype(CT_DEVICE_CPU, &d));
    EXPECT_EQ(d, CT_BFLOAT16);  // the inner region restored the outer's dtype
    EXPECT_EQ(enabled(CT_DEVICE_CPU), 1);
    // another thread is not in this thread's region: its linear stays float32
    H x = f32({2, 3}, 7), w = f32({4, 3}, 8);
    std::atomic<int32_t> other_enabled{-1}, other_dtype{-1};
    std::thread th([&] {
        int32_t e = -1;
        ct_autocast_is_enabled(CT_DEVICE_CPU, &e);
        other_enabled = e;
        ct_tensor o = nullptr;
        ct_dtype od = -1;
        if (ct_linear(x.get(), w.get(), nullptr, &o) == CT_OK && ct_tensor_dtype(o, &od) == CT_OK) other_dtype = od;
        ct_tensor_release(o);
    });
    th.join();
    EXPECT_EQ(other_enabled.load(), 0);
    EXPECT_EQ(other_dtype.load(), CT_FLOAT32);
}

TEST(Autocast, CacheConvertsAWeightOncePerRegion) {
    H x = f32({2, 3}, 9), w = f32({4, 3}, 10, true), plain = f32({4, 3}, 11);
    {
        Region r;
        H a, b, c;
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), nullptr, a.out()));
        EXPECT_EQ(ct_autocast_cache_size(), 1);  // the weight (a leaf requiring grad); x is not cached
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), nullptr, b.out()));
        EXPECT_EQ(ct_autocast_cache_size(), 1);
        CT_ASSERT_OK(ct_linear(x.get(), plain.get(), nullptr, c.out()));
        EXPECT_EQ(ct_autocast_cache_size(), 1);  // no grad: not cached (torch's rule)
        {
            Region inner;
        }
        EXPECT_EQ(ct_autocast_cache_size(), 1);  // only the outermost exit clears
        // an in-place update of the weight makes a new cast (the version changed)
        H before;
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), nullptr, before.out()));
        {
            int32_t prev = 0;
            ct_set_grad_enabled(0, &prev);
            CT_ASSERT_OK(ct_fill_(w.get(), 0.5));
            ct_set_grad_enabled(prev, nullptr);
        }
        H after;
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), nullptr, after.out()));
        H ref;
        CT_ASSERT_OK(ct_linear(to(x, CT_BFLOAT16).get(), to(w, CT_BFLOAT16).get(), nullptr, ref.out()));
        EXPECT_EQ(values(after), values(ref));
        EXPECT_NE(values(after), values(before));
        int32_t prev = ct_autocast_set_cache_enabled(0);
        EXPECT_EQ(prev, 1);
        ct_autocast_clear_cache();
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), nullptr, a.out()));
        EXPECT_EQ(ct_autocast_cache_size(), 0);
        ct_autocast_set_cache_enabled(prev);
    }
    EXPECT_EQ(ct_autocast_cache_size(), 0);
}

TEST(Autocast, GradientsKeepTheParameterDtype) {
    H x = f32({5, 3}, 12), w = f32({4, 3}, 13, true), b = f32({4}, 14, true), y = f32({5, 4}, 15);
    Region r;
    for (int step = 0; step < 2; ++step) {  // two backward passes through the cached casts of one region
        H out, loss;
        CT_ASSERT_OK(ct_linear(x.get(), w.get(), b.get(), out.out()));
        CT_ASSERT_OK(ct_mse_loss(out.get(), y.get(), CT_REDUCTION_SUM, loss.out()));
        EXPECT_EQ(dtype(loss), CT_FLOAT32);
        CT_ASSERT_OK(ct_backward(loss.get(), nullptr, 0, 0));
        H gw, gb;
        CT_ASSERT_OK(ct_tensor_grad(w.get(), gw.out()));
        CT_ASSERT_OK(ct_tensor_grad(b.get(), gb.out()));
        EXPECT_EQ(dtype(gw), CT_FLOAT32);
        EXPECT_EQ(dtype(gb), CT_FLOAT32);
        EXPECT_EQ(ct_autocast_cache_size(), 2);  // w and b, converted once
        // the same gradient as the explicit casts (float64 reference, bf16 tolerance)
        std::vector<double> xv = values(x), wv = values(w), bv = values(b), yv = values(y), g = values(gw);
        for (int o = 0; o < 4; ++o)
            for (int k = 0; k < 3; ++k) {
                double ref = 0;
                for (int n = 0; n < 5; ++n) {
                    double z = bv[o];
                    for (int j = 0; j < 3; ++j) z += xv[n * 3 + j] * wv[o * 3 + j];
                    ref += 2 * (z - yv[n * 4 + o]) * xv[n * 3 + k];
                }
                EXPECT_NEAR(g[o * 3 + k], ref * (step + 1), 0.1);  // .grad accumulates over the two steps
            }
    }
}

TEST(Autocast, NoLeaks) {
    int64_t live0 = ct_live_handles();
    {
        H x = f32({2, 3}, 16), w = f32({4, 3}, 17, true), out;
        Region r;
        ok(ct_linear(x.get(), w.get(), nullptr, out.out()));
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

// ---- gradient scaler ----

TEST(AmpScaler, UnscaleAndCheck) {
    for_each_device([] {
        H g1 = make({2, 4, 8}, {3}, CT_FLOAT32), g2 = make({1, -2}, {2}, CT_FLOAT32), g0 = make({}, {0}, CT_FLOAT32);
        H found = make({0}, {1}, CT_FLOAT32), inv = make({0.5}, {1}, CT_FLOAT32);
        ct_tensor gs[3] = {g1.get(), g2.get(), g0.get()};
        CT_ASSERT_OK(ct_amp_non_finite_check_and_unscale_(gs, 3, found.get(), inv.get()));
        EXPECT_TRUE(allclose(g1, {1, 2, 4}));
        EXPECT_TRUE(allclose(g2, {0.5, -1}));
        EXPECT_TRUE(allclose(found, {0}));
        // an inf in one gradient and a NaN in another (bfloat16 too) set the flag; every gradient is unscaled
        H g3 = make({1, INFINITY}, {2}, CT_FLOAT32), g4 = make({NAN, 2}, {2}, CT_FLOAT32);
        ct_tensor bad[2] = {g3.get(), g1.get()};
        CT_ASSERT_OK(ct_amp_non_finite_check_and_unscale_(bad, 2, found.get(), inv.get()));
        EXPECT_TRUE(allclose(found, {1}));
        EXPECT_TRUE(allclose(g1, {0.5, 1, 2}));
        H found2 = make({0}, {}, CT_FLOAT32);
        ct_tensor nan1[1] = {g4.get()};
        CT_ASSERT_OK(ct_amp_non_finite_check_and_unscale_(nan1, 1, found2.get(), inv.get()));
        EXPECT_TRUE(allclose(found2, {1}));
        // a finite call leaves a set flag set
        ct_tensor fine[1] = {g2.get()};
        CT_ASSERT_OK(ct_amp_non_finite_check_and_unscale_(fine, 1, found.get(), inv.get()));
        EXPECT_TRUE(allclose(found, {1}));
        // a large but finite gradient is not a false positive
        H big = make({3e38, -3e38}, {2}, CT_FLOAT32), f3 = make({0}, {1}, CT_FLOAT32);
        ct_tensor bigs[1] = {big.get()};
        CT_ASSERT_OK(ct_amp_non_finite_check_and_unscale_(bigs, 1, f3.get(), inv.get()));
        EXPECT_TRUE(allclose(f3, {0}));
        CT_ASSERT_OK(ct_amp_non_finite_check_and_unscale_(nullptr, 0, f3.get(), inv.get()));
        EXPECT_TRUE(allclose(f3, {0}));
    });
}

TEST(AmpScaler, UnscaleHalfGradients) {
    H g = make({2, 4}, {2}, CT_BFLOAT16), h = make({65504, 1}, {2}, CT_FLOAT16);
    H found = make({0}, {1}, CT_FLOAT32), inv = make({0.25}, {1}, CT_FLOAT32);
    ct_tensor gs[2] = {g.get(), h.get()};
    CT_ASSERT_OK(ct_amp_non_finite_check_and_unscale_(gs, 2, found.get(), inv.get()));
    EXPECT_EQ(dtype(g), CT_BFLOAT16);
    EXPECT_TRUE(allclose(g, {0.5, 1}));
    EXPECT_TRUE(allclose(h, {16376, 0.25}));
    EXPECT_TRUE(allclose(found, {0}));
}

TEST(AmpScaler, UnscaleRejectsBadArgumentsBeforeWriting) {
    H g = make({2, 4}, {2}, CT_FLOAT32), gi = make({1, 2}, {2}, CT_INT64);
    H found = make({0}, {1}, CT_FLOAT32), inv = make({0.5}, {1}, CT_FLOAT32);
    H inv2 = make({0.5, 1}, {2}, CT_FLOAT32), inv64 = make({0.5}, {1}, CT_FLOAT64);
    ct_tensor gs[2] = {g.get(), gi.get()};
    CT_EXPECT_ERR(ct_amp_non_finite_check_and_unscale_(gs, 2, found.get(), inv.get()), CT_ERR_DTYPE, "grads[1]");
    EXPECT_TRUE(allclose(g, {2, 4}));  // nothing written
    CT_EXPECT_ERR(ct_amp_non_finite_check_and_unscale_(gs, 1, found.get(), inv2.get()), CT_ERR_SHAPE, "inv_scale");
    CT_EXPECT_ERR(ct_amp_non_finite_check_and_unscale_(gs, 1, found.get(), inv64.get()), CT_ERR_DTYPE, "float64");
    CT_EXPECT_ERR(ct_amp_non_finite_check_and_unscale_(gs, 1, nullptr, inv.get()), CT_ERR_INVALID_HANDLE,
                  "found_inf");
    CT_EXPECT_ERR(ct_amp_non_finite_check_and_unscale_(nullptr, 1, found.get(), inv.get()), CT_ERR_INVALID_ARGUMENT,
                  "grads");
    CT_EXPECT_ERR(ct_amp_non_finite_check_and_unscale_(gs, -1, found.get(), inv.get()), CT_ERR_INVALID_ARGUMENT,
                  "negative");
    EXPECT_TRUE(allclose(g, {2, 4}));
}

TEST(AmpScaler, UpdateScale) {
    for_each_device([] {
        H scale = make({65536}, {1}, CT_FLOAT32), tracker = make({0}, {1}, CT_INT32);
        H clean = make({0}, {1}, CT_FLOAT32), inf = make({1}, {1}, CT_FLOAT32);
        // torch's algorithm with growth_interval 3: two clean steps count, the third doubles the scale
        CT_ASSERT_OK(ct_amp_update_scale_(scale.get(), tracker.get(), clean.get(), 2.0, 0.5, 3));
        EXPECT_TRUE(allclose(scale, {65536}));
        EXPECT_TRUE(allclose(tracker, {1}));
        CT_ASSERT_OK(ct_amp_update_scale_(scale.get(), tracker.get(), clean.get(), 2.0, 0.5, 3));
        CT_ASSERT_OK(ct_amp_update_scale_(scale.get(), tracker.get(), clean.get(), 2.0, 0.5, 3));
        EXPECT_TRUE(allclose(scale, {131072}));
        EXPECT_TRUE(allclose(tracker, {0}));
        // an inf backs off and resets the tracker
        CT_ASSERT_OK(ct_amp_update_scale_(scale.get(), tracker.get(), clean.get(), 2.0, 0.5, 3));
        CT_ASSERT_OK(ct_amp_update_scale_(scale.get(), tracker.get(), inf.get(), 2.0, 0.5, 3));
        EXPECT_TRUE(allclose(scale, {65536}));
        EXPECT_TRUE(allclose(tracker, {0}));
        // growth that would overflow float32 keeps the scale (torch keeps only a finite new scale)
        H huge = make({3e38}, {}, CT_FLOAT32), t2 = make({0}, {}, CT_INT32);
        CT_ASSERT_OK(ct_amp_update_scale_(huge.get(), t2.get(), clean.get(), 2.0, 0.5, 1));
        EXPECT_TRUE(allclose(huge, {3e38}, 0, 1e-6));
        EXPECT_TRUE(allclose(t2, {0}));
    });
}

TEST(AmpScaler, UpdateScaleRejectsBadArguments) {
    H scale = make({4}, {1}, CT_FLOAT32), tracker = make({0}, {1}, CT_INT32), found = make({0}, {1}, CT_FLOAT32);
    H tracker64 = make({0}, {1}, CT_INT64);
    CT_EXPECT_ERR(ct_amp_update_scale_(scale.get(), tracker64.get(), found.get(), 2, 0.5, 10), CT_ERR_DTYPE,
                  "growth_tracker");
    CT_EXPECT_ERR(ct_amp_update_scale_(scale.get(), tracker.get(), found.get(), 2, 0.5, 0), CT_ERR_INVALID_ARGUMENT,
                  "growth_interval");
    CT_EXPECT_ERR(ct_amp_update_scale_(scale.get(), tracker.get(), found.get(), NAN, 0.5, 1),
                  CT_ERR_INVALID_ARGUMENT, "growth_factor");
    CT_EXPECT_ERR(ct_amp_update_scale_(scale.get(), nullptr, found.get(), 2, 0.5, 1), CT_ERR_INVALID_HANDLE,
                  "growth_tracker");
    EXPECT_TRUE(allclose(scale, {4}));
    EXPECT_TRUE(allclose(tracker, {0}));
}

// test_interpolate.cpp - ct_interpolate against closed forms (nearest / nearest-exact index rules, linear and
// bicubic reproducing linear ramps, area = adaptive average pooling), float64 gradchecks of every mode in 1-3
// spatial dims and of its backward w.r.t. the incoming gradient (its second derivative), the empty batch, and
// errors - on the CPU and on the (emulated) CUDA device.
// bindings/python/tests/test_interpolate.py compares every mode with torch 1.13.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

H interp(const H& x, const std::vector<int64_t>& size, const std::vector<double>& scale, int mode, int align = -1,
         int recompute = 0) {
    const int32_t k = (int32_t)(size.empty() ? scale.size() : size.size());
    H o;
    ok(ct_interpolate(x.get(), size.empty() ? nullptr : size.data(), scale.empty() ? nullptr : scale.data(), k, mode,
                      align, recompute, o.out()));
    return o;
}

// A ramp a . index + 1 over shape [1, 1, d...] (linear and bicubic interpolation reproduce it).
std::vector<double> ramp(const Shape& spatial, const std::vector<double>& a) {
    std::vector<double> v;
    int64_t n = 1;
    for (int64_t s : spatial) n *= s;
    for (int64_t f = 0; f < n; ++f) {
        double val = 1;
        int64_t r = f;
        for (size_t d = spatial.size(); d-- > 0;) {
            val += a[d] * (double)(r % spatial[d]);
            r /= spatial[d];
        }
        v.push_back(val);
    }
    return v;
}

}  // namespace

TEST(Interpolate, NearestModesFollowTheirIndexRules) {
    for_each_device([&] {
        std::vector<double> xv = rand_values(7, 3);
        H x = make(xv, {1, 1, 7});
        // nearest: src = floor(dst * in / out); nearest-exact: floor((dst + 0.5) * in / out), both capped at in - 1
        for (int64_t out : {3, 7, 12, 14, 20}) {
            std::vector<double> near, exact;
            for (int64_t o = 0; o < out; ++o) {
                near.push_back(xv[(size_t)std::min<int64_t>((int64_t)std::floor((float)o * (7.0f / (float)out)), 6)]);
                exact.push_back(xv[(size_t)std::min<int64_t>((int64_t)std::floor((o + 0.5) * 7.0 / (double)out), 6)]);
            }
            EXPECT_TRUE(allclose(interp(x, {out}, {}, CT_INTERP_NEAREST), near, 0)) << out;
            EXPECT_TRUE(allclose(interp(x, {out}, {}, CT_INTERP_NEAREST_EXACT), exact, 0)) << out;
        }
        // a scale_factor gives the index scale 1 / factor unless recomputed: 7 * 1.5 -> 10 with scale 2/3, not 0.7
        H s = interp(x, {}, {1.5}, CT_INTERP_NEAREST);
        std::vector<double> expect;
        for (int64_t o = 0; o < 10; ++o) expect.push_back(xv[(size_t)(int64_t)std::floor((float)o * (float)(1 / 1.5))]);
        EXPECT_TRUE(allclose(s, expect, 0));
        EXPECT_TRUE(allclose(interp(x, {}, {1.5}, CT_INTERP_NEAREST, -1, 1),
                             values(interp(x, {10}, {}, CT_INTERP_NEAREST)), 0));
    });
}

TEST(Interpolate, LinearAndBicubicReproduceRamps) {
    for_each_device([&] {
        const std::vector<double> a = {0.5, -2.0, 3.0};
        for (int k = 1; k <= 3; ++k) {
            Shape in{4, 3, 5}, out{7, 5, 2};
            in.resize((size_t)k);
            out.resize((size_t)k);
            Shape full{1, 1};
            full.insert(full.end(), in.begin(), in.end());
            H x = make(ramp(in, a), full);
            // align_corners: output o samples the input at o * (in - 1) / (out - 1), so the ramp at that point
            std::vector<double> scaled(a.begin(), a.begin() + k);
            for (int d = 0; d < k; ++d) scaled[(size_t)d] *= (double)(in[(size_t)d] - 1) / (double)(out[(size_t)d] - 1);
            EXPECT_TRUE(allclose(interp(x, out, {}, CT_INTERP_LINEAR, 1), ramp(out, scaled), 1e-12)) << k;
        }
        // bicubic reproduces a ramp where its four taps lie inside (the edge taps are clamped): [8, 9] -> [15, 5]
        // samples rows at o / 2 (inside for o in [2, 11]) and columns at 2 * o (integer points: exact)
        std::vector<double> bi = values(interp(make(ramp({8, 9}, a), {1, 1, 8, 9}), {15, 5}, {}, CT_INTERP_BICUBIC, 1));
        std::vector<double> want = ramp({15, 5}, {a[0] * 0.5, a[1] * 2.0});
        for (int64_t o0 = 2; o0 <= 11; ++o0)
            for (int64_t o1 = 0; o1 < 5; ++o1)
                EXPECT_NEAR(bi[(size_t)(o0 * 5 + o1)], want[(size_t)(o0 * 5 + o1)], 1e-12) << o0 << ", " << o1;
        // half-pixel centres: the sample point (o + 0.5) * in / out - 0.5, clamped to [0, in - 1]
        H x = make({0, 1, 2, 3}, {1, 1, 4});
        std::vector<double> expect;
        for (int o = 0; o < 6; ++o) expect.push_back(std::min(3.0, std::max(0.0, (o + 0.5) * 4.0 / 6.0 - 0.5)));
        EXPECT_TRUE(allclose(interp(x, {6}, {}, CT_INTERP_LINEAR, 0), expect, 1e-12));
    });
}

TEST(Interpolate, AreaIsAdaptiveAveragePooling) {
    for_each_device([&] {
        H x = randt({2, 3, 7, 5}, 4, false);
        const int64_t size[2] = {3, 4};
        H pooled;
        ok(ct_adaptive_avg_pool_nd(x.get(), 2, size, pooled.out()));
        EXPECT_TRUE(allclose(interp(x, {3, 4}, {}, CT_INTERP_AREA), values(pooled), 0));
        // a scale factor becomes the size floor(in * factor)
        ok(ct_adaptive_avg_pool_nd(x.get(), 2, std::vector<int64_t>{3, 2}.data(), pooled.out()));
        EXPECT_TRUE(allclose(interp(x, {}, {0.5, 0.5}, CT_INTERP_AREA), values(pooled), 0));
    });
}

TEST(Interpolate, GradientsOfEveryModeAndRank) {
    for_each_device([&] {
        struct Case {
            int mode, k, align;
        };
        const Case cases[] = {{CT_INTERP_NEAREST, 1, -1}, {CT_INTERP_NEAREST, 2, -1}, {CT_INTERP_NEAREST_EXACT, 3, -1},
                              {CT_INTERP_LINEAR, 1, 0},   {CT_INTERP_LINEAR, 2, 1},   {CT_INTERP_LINEAR, 3, 0},
                              {CT_INTERP_BICUBIC, 2, 0},  {CT_INTERP_BICUBIC, 2, 1},  {CT_INTERP_AREA, 2, -1}};
        for (const Case& c : cases) {
            Shape xs{2, 2, 4, 3, 3};
            xs.resize((size_t)c.k + 2);
            H x = randt(xs, 7 + (uint64_t)c.mode);
            for (double f : {1.7, 0.6}) {
                std::vector<double> scale((size_t)c.k, f);
                auto fn = [&](const std::vector<H>& in) { return interp(in[0], {}, scale, c.mode, c.align); };
                EXPECT_TRUE(gradcheck(fn, {x})) << "mode " << c.mode << " k " << c.k << " factor " << f;
                // the op is linear, so its second derivative is the backward's derivative w.r.t. the incoming
                // gradient g: gradcheck g -> grad(interpolate(x), x, g, create_graph)
                H y = fn({x});
                H g = randt(shape(y), 13);
                auto back = [&](const std::vector<H>& in) {
                    int32_t prev = 0;  // gradcheck's numeric pass runs f without grad mode; this f needs it
                    ok(ct_set_grad_enabled(1, &prev));
                    H yy = fn({x});
                    ct_tensor outs[1] = {yy.get()}, gos[1] = {in[0].get()}, ins[1] = {x.get()}, res[1] = {nullptr};
                    ct_status st = ct_autograd_grad(outs, 1, gos, ins, 1, 0, 1, 0, res);
                    ct_set_grad_enabled(prev, nullptr);
                    ok(st);
                    return H(res[0]);
                };
                EXPECT_TRUE(gradcheck(back, {g})) << "mode " << c.mode << " k " << c.k << " factor " << f;
            }
        }
    });
}

TEST(Interpolate, Float32AndEmptyBatch) {
    for_each_device([&] {
        std::vector<double> xv = rand_values(2 * 5 * 4, 9);
        H x64 = make(xv, {1, 2, 5, 4}), x32 = make(xv, {1, 2, 5, 4}, CT_FLOAT32);
        H o32 = interp(x32, {}, {1.5, 2.5}, CT_INTERP_BICUBIC, 0);
        EXPECT_EQ(dtype(o32), CT_FLOAT32);
        EXPECT_TRUE(allclose(o32, values(interp(x64, {}, {1.5, 2.5}, CT_INTERP_BICUBIC, 0)), 1e-5));
        // an empty batch gives an empty result without building tables, even for a huge output size
        H e = make({}, {0, 2, 3});
        EXPECT_EQ(shape(interp(e, {int64_t(1) << 50}, {}, CT_INTERP_LINEAR)), (Shape{0, 2, int64_t(1) << 50}));
    });
}

TEST(Interpolate, Errors) {
    for_each_device([&] {
        H x = randt({1, 2, 5}, 1, false), out;
        const int64_t s1[1] = {4}, s0[1] = {0};
        const double f1[1] = {2.0};
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, f1, 1, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "interpolate: exactly one of size and scale_factor must be given, got both");
        CT_EXPECT_ERR(ct_interpolate(x.get(), nullptr, nullptr, 1, CT_INTERP_NEAREST, -1, 0, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "got neither");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, nullptr, 2, CT_INTERP_LINEAR, 0, 0, out.out()), CT_ERR_SHAPE,
                      "interpolate: linear with 2 spatial dims needs a 4-D input [N, C, ...], got [1, 2, 5]");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, nullptr, 1, CT_INTERP_BICUBIC, 0, 0, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "bicubic needs 2 spatial dims");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, nullptr, 4, CT_INTERP_NEAREST, -1, 0, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "must be 1, 2 or 3, got 4");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, nullptr, 1, 9, -1, 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "mode must be one of");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s0, nullptr, 1, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_SHAPE,
                      "output size must be positive, got 0");
        const double tiny[1] = {0.1}, huge[1] = {1e300}, nan[1] = {NAN};
        CT_EXPECT_ERR(ct_interpolate(x.get(), nullptr, tiny, 1, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_SHAPE,
                      "output size along spatial dim 0 must be positive");
        CT_EXPECT_ERR(ct_interpolate(x.get(), nullptr, huge, 1, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_SHAPE,
                      "does not fit int64");
        CT_EXPECT_ERR(ct_interpolate(x.get(), nullptr, nan, 1, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_SHAPE,
                      "must be positive");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, nullptr, 1, CT_INTERP_NEAREST, 1, 0, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "align_corners can only be set with linear or bicubic");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, nullptr, 1, CT_INTERP_LINEAR, 0, 1, out.out()),
                      CT_ERR_INVALID_ARGUMENT, "recompute_scale_factor is not meaningful with an explicit size");
        H xi = make({1, 2, 3}, {1, 1, 3}, CT_INT64);
        CT_EXPECT_ERR(ct_interpolate(xi.get(), s1, nullptr, 1, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_DTYPE,
                      "input must be float32 or float64, got int64");
        H xe = make({}, {1, 0, 3});
        CT_EXPECT_ERR(ct_interpolate(xe.get(), s1, nullptr, 1, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_SHAPE,
                      "non-empty channel and spatial dims");
        const int64_t big[3] = {int64_t(1) << 31, int64_t(1) << 31, 4};
        H x3 = randt({1, 1, 2, 2, 2}, 1, false);
        CT_EXPECT_ERR(ct_interpolate(x3.get(), big, nullptr, 3, CT_INTERP_NEAREST, -1, 0, out.out()), CT_ERR_SHAPE,
                      "interpolate");
        CT_EXPECT_ERR(ct_interpolate(x.get(), s1, nullptr, 1, CT_INTERP_NEAREST, -1, 0, nullptr),
                      CT_ERR_INVALID_ARGUMENT, "interpolate: output pointer out is NULL");
        CT_EXPECT_ERR(ct_interpolate(nullptr, s1, nullptr, 1, CT_INTERP_NEAREST, -1, 0, out.out()),
                      CT_ERR_INVALID_HANDLE, "interpolate: x is a NULL tensor handle");
    });
}

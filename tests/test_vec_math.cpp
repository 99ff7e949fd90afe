// test_vec_math.cpp - accuracy of the vectorised exp/sigmoid/tanh fast path (cpu/vec_math.cpp) against libm:
// dense float32 sweeps in ulps, float64 relative error, special values, odd sizes and unaligned starts.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {

template <typename T> H from_vector(const std::vector<T>& v, ct_dtype dt) {
    H t;
    int64_t n = (int64_t)v.size();
    ok(ct_tensor_from_data(v.data(), n * (int64_t)sizeof(T), &n, 1, dt, ct_cpu(), t.out()));
    return t;
}
template <typename T> std::vector<T> to_vector(const H& t) {
    int64_t n = 0;
    ok(ct_tensor_numel(t.get(), &n));
    std::vector<T> v((size_t)n);
    ok(ct_tensor_copy_to_host(t.get(), v.data(), n * (int64_t)sizeof(T)));
    return v;
}

// Distance in representable floats between a and b (both finite or equal infinities).
int64_t ulp_distance(float a, float b) {
    auto ordered = [](float f) {
        int32_t i;
        std::memcpy(&i, &f, sizeof i);
        return i < 0 ? -(int64_t)(i & 0x7fffffff) : (int64_t)i;  // -0 and +0 both map to 0
    };
    return std::llabs(ordered(a) - ordered(b));
}

// Largest ulp error of y against ref(x); NaN must map to NaN and infinities must match exactly.
template <typename Ref>
int64_t max_ulp_error(const std::vector<float>& x, const std::vector<float>& y, Ref ref, float* worst_x) {
    int64_t worst = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        float r = ref(x[i]);
        if (std::isnan(r) || std::isnan(y[i]) || std::isinf(r) || std::isinf(y[i])) {
            bool same = (std::isnan(r) && std::isnan(y[i])) || r == y[i];
            if (!same) return *worst_x = x[i], std::numeric_limits<int64_t>::max();
            continue;
        }
        int64_t d = ulp_distance(y[i], r);
        if (d > worst) worst = d, *worst_x = x[i];
    }
    return worst;
}

float ref_exp(float v) { return std::exp(v); }
float ref_sigmoid(float v) { return (float)(1.0 / (1.0 + std::exp(-(double)v))); }
float ref_tanh(float v) { return (float)std::tanh((double)v); }

std::vector<float> special_floats() {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 1e-30f, -1e-30f, 1e-45f, -1e-45f, 1.17549435e-38f,
                            inf, -inf, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest(),
                            88.0f, 88.5f, 88.7228f, 88.72283f, 88.722839f, 88.72284f, 88.7229f, 88.73f, 89.0f, 100.0f,
                            120.0f, -87.0f, -87.33654f, -87.3366f, -87.5f, -90.0f, -100.0f, -103.0f, -103.27893f,
                            -103.2789f, -103.972f, -103.9721f, -104.0f, -105.0f, -110.0f, -200.0f, 0.3465736f,
                            -0.3465736f, 0.34657362f, 0.6931472f, -0.6931472f};
    // every float within a few ulps of the overflow / underflow / subnormal thresholds
    for (float c : {88.72283935546875f, -87.33654475f, -103.972084f, -103.278929f})
        for (int k = -40; k <= 40; ++k) {
            int32_t i;
            std::memcpy(&i, &c, sizeof i);
            i += k;
            float f;
            std::memcpy(&f, &i, sizeof f);
            v.push_back(f);
        }
    return v;
}

// Every 331st float bit pattern over both signs (finite, subnormal, inf, NaN), plus a dense linear sweep of
// the range where exp is finite and nonzero.
std::vector<float> sweep_floats() {
    std::vector<float> v = special_floats();
    for (uint64_t bits = 0; bits <= 0xffffffffull; bits += 331) {
        uint32_t b = (uint32_t)bits;
        float f;
        std::memcpy(&f, &b, sizeof f);
        v.push_back(f);
    }
    for (int i = 0; i <= 2000000; ++i) v.push_back(-105.0f + 195.0f * (float)i / 2000000.0f);
    return v;
}

}  // namespace

TEST(VecMath, ExpFloat32WithinTwoUlpOfStdExp) {
    std::vector<float> x = sweep_floats();
    H out;
    CT_ASSERT_OK(ct_exp(from_vector(x, CT_FLOAT32).get(), out.out()));
    float worst_x = 0;
    int64_t err = max_ulp_error(x, to_vector<float>(out), ref_exp, &worst_x);
    EXPECT_LE(err, 2) << "worst at x = " << worst_x << " (" << std::exp(worst_x) << ")";
}

TEST(VecMath, ExpFloat32SpecialValuesExactly) {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> x = {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 88.8f, 1000.0f,
                            -104.0f, -1000.0f, std::numeric_limits<float>::lowest()};
    H out;
    CT_ASSERT_OK(ct_exp(from_vector(x, CT_FLOAT32).get(), out.out()));
    std::vector<float> y = to_vector<float>(out);
    EXPECT_EQ(y[0], 1.0f);
    EXPECT_EQ(y[1], 1.0f);
    EXPECT_EQ(y[2], inf);
    EXPECT_EQ(y[3], 0.0f);
    EXPECT_TRUE(std::isnan(y[4]));
    EXPECT_EQ(y[5], inf);
    EXPECT_EQ(y[6], inf);
    EXPECT_EQ(y[7], 0.0f);  // exp(-104) < half the smallest subnormal
    EXPECT_EQ(y[8], 0.0f);
    EXPECT_EQ(y[9], 0.0f);
    // subnormal results stay subnormal (not flushed to zero)
    H sub;
    CT_ASSERT_OK(ct_exp(from_vector(std::vector<float>{-95.0f, -103.0f}, CT_FLOAT32).get(), sub.out()));
    std::vector<float> s = to_vector<float>(sub);
    EXPECT_LE(ulp_distance(s[0], std::exp(-95.0f)), 1);
    EXPECT_LE(ulp_distance(s[1], std::exp(-103.0f)), 1);
    EXPECT_GT(s[1], 0.0f);
}

TEST(VecMath, ExpFloat32OddSizesAndUnalignedStarts) {
    std::vector<double> base = rand_values(200, 7, -90.0, 90.0);
    std::vector<float> basef(base.begin(), base.end());
    H full = from_vector(basef, CT_FLOAT32);
    for (int64_t start = 0; start < 9; ++start)
        for (int64_t len : {0, 1, 3, 7, 15, 16, 17, 31, 33, 63, 65, 127, 129, 190}) {
            H part, out;
            CT_ASSERT_OK(ct_narrow(full.get(), 0, start, len, part.out()));
            CT_ASSERT_OK(ct_exp(part.get(), out.out()));
            std::vector<float> y = to_vector<float>(out);
            ASSERT_EQ((int64_t)y.size(), len);
            for (int64_t i = 0; i < len; ++i)
                ASSERT_LE(ulp_distance(y[i], std::exp(basef[start + i])), 2) << "start " << start << " len " << len;
        }
    // a strided slice takes the scalar path and must agree as well
    H strided, out;
    CT_ASSERT_OK(ct_slice(full.get(), 0, 1, 200, 3, strided.out()));
    CT_ASSERT_OK(ct_exp(strided.get(), out.out()));
    std::vector<float> y = to_vector<float>(out);
    for (size_t i = 0; i < y.size(); ++i) EXPECT_LE(ulp_distance(y[i], std::exp(basef[1 + 3 * i])), 2);
}

TEST(VecMath, ExpFloat64RelativeErrorBelow1e15) {
    std::vector<double> x = {0.0, -0.0, 1.0, -1.0, 1e-300, 0.34657359027997264, 709.0, 709.78, 709.782712893384,
                             709.79, 710.0, 1e4, -700.0, -708.39, -708.4, -720.0, -740.0, -745.0, -745.13, -746.0,
                             -1e4, INFINITY, -INFINITY, NAN};
    for (int i = 0; i <= 1000000; ++i) x.push_back(-750.0 + 1462.0 * i / 1000000.0);
    for (double v : rand_values(100000, 3, -5.0, 5.0)) x.push_back(v);
    H out;
    CT_ASSERT_OK(ct_exp(from_vector(x, CT_FLOAT64).get(), out.out()));
    std::vector<double> y = to_vector<double>(out);
    double worst = 0, worst_x = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        double r = std::exp(x[i]);
        if (std::isnan(r) || std::isinf(r) || r == 0) {
            EXPECT_TRUE((std::isnan(r) && std::isnan(y[i])) || r == y[i]) << "x = " << x[i] << " y = " << y[i];
            continue;
        }
        // relative error, except below the normal range where one subnormal step is the resolution
        double err = std::fabs(y[i] - r) / std::max(r, std::numeric_limits<double>::min() * 1e15);
        if (err > worst) worst = err, worst_x = x[i];
    }
    EXPECT_LE(worst, 1e-15) << "worst at x = " << worst_x;
}

TEST(VecMath, SigmoidFloat32AndFloat64MatchDoubleReference) {
    std::vector<float> x = special_floats();
    for (int i = 0; i <= 400000; ++i) x.push_back(-120.0f + 240.0f * (float)i / 400000.0f);
    H out;
    CT_ASSERT_OK(ct_sigmoid(from_vector(x, CT_FLOAT32).get(), out.out()));
    float worst_x = 0;
    EXPECT_LE(max_ulp_error(x, to_vector<float>(out), ref_sigmoid, &worst_x), 3) << "worst at x = " << worst_x;

    std::vector<double> xd;
    for (int i = 0; i <= 200000; ++i) xd.push_back(-740.0 + 1480.0 * i / 200000.0);
    xd.push_back(INFINITY), xd.push_back(-INFINITY), xd.push_back(NAN);
    H outd;
    CT_ASSERT_OK(ct_sigmoid(from_vector(xd, CT_FLOAT64).get(), outd.out()));
    std::vector<double> yd = to_vector<double>(outd);
    for (size_t i = 0; i < xd.size(); ++i) {
        double v = xd[i], r = v >= 0 ? 1.0 / (1.0 + std::exp(-v)) : std::exp(v) / (1.0 + std::exp(v));
        if (std::isnan(v)) EXPECT_TRUE(std::isnan(yd[i]));
        else ASSERT_LE(std::fabs(yd[i] - r), 2e-15 * r + 1e-300) << "x = " << v;
    }
}

TEST(VecMath, TanhFloat32AndFloat64MatchLibm) {
    std::vector<float> x = special_floats();
    for (int i = 0; i <= 400000; ++i) x.push_back(-12.0f + 24.0f * (float)i / 400000.0f);
    for (int i = 1; i <= 100000; ++i) x.push_back(1e-6f * (float)i), x.push_back(-1e-6f * (float)i);
    H out;
    CT_ASSERT_OK(ct_tanh(from_vector(x, CT_FLOAT32).get(), out.out()));
    std::vector<float> y = to_vector<float>(out);
    float worst_x = 0;
    EXPECT_LE(max_ulp_error(x, y, ref_tanh, &worst_x), 3) << "worst at x = " << worst_x;
    EXPECT_TRUE(std::signbit(y[1]));  // tanh(-0) = -0
    EXPECT_EQ(y[9], 1.0f);            // tanh(inf)
    EXPECT_EQ(y[10], -1.0f);          // tanh(-inf)

    std::vector<double> xd = {-0.0, 1e-300, -1e-20, 1e-8, INFINITY, -INFINITY, NAN, 400.0, -800.0};
    for (int i = 0; i <= 200000; ++i) xd.push_back(-25.0 + 50.0 * i / 200000.0);
    H outd;
    CT_ASSERT_OK(ct_tanh(from_vector(xd, CT_FLOAT64).get(), outd.out()));
    std::vector<double> yd = to_vector<double>(outd);
    EXPECT_TRUE(std::signbit(yd[0]) && yd[0] == 0.0);
    EXPECT_TRUE(std::isnan(yd[6]));
    for (size_t i = 0; i < xd.size(); ++i) {
        if (std::isnan(xd[i])) continue;
        double r = std::tanh(xd[i]);
        ASSERT_LE(std::fabs(yd[i] - r), 2e-15 * std::fabs(r)) << "x = " << xd[i];
    }
}

TEST(VecMath, ExpAndSigmoidOnZeroDimAndEmptyTensors) {
    H s = make({2.0}, {}, CT_FLOAT32), e = make({}, {0, 3}, CT_FLOAT32), o1, o2, o3;
    CT_ASSERT_OK(ct_exp(s.get(), o1.out()));
    EXPECT_EQ(shape(o1), Shape{});
    EXPECT_NEAR(scalar(o1), std::exp(2.0), 1e-5);
    CT_ASSERT_OK(ct_exp(e.get(), o2.out()));
    EXPECT_EQ(shape(o2), (Shape{0, 3}));
    CT_ASSERT_OK(ct_sigmoid(s.get(), o3.out()));
    EXPECT_NEAR(scalar(o3), 1.0 / (1.0 + std::exp(-2.0)), 1e-7);
}

TEST(VecMath, ExpGradcheckThroughFastPath) {
    EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { H o; ok(ct_exp(in[0].get(), o.out())); return o; },
                          {randt({5, 7}, 11)}));
    EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { H o; ok(ct_sigmoid(in[0].get(), o.out())); return o; },
                          {randt({4, 9}, 12, true, -6.0, 6.0)}));
    EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { H o; ok(ct_tanh(in[0].get(), o.out())); return o; },
                          {randt({3, 11}, 13, true, -3.0, 3.0)}));
}

namespace {
// Runs op over x as one contiguous float32 / float64 tensor (the vectorised path).
template <typename T> std::vector<T> run_contiguous(ct_status (*op)(ct_tensor, ct_tensor*), const std::vector<T>& x) {
    H out;
    ok(op(from_vector(x, sizeof(T) == 4 ? CT_FLOAT32 : CT_FLOAT64).get(), out.out()));
    return to_vector<T>(out);
}

// Float inputs for log-like functions: the bit-pattern sweep (all signs, subnormals, specials) plus a dense
// sweep around 1, where log's relative accuracy is hardest.
std::vector<float> log_floats() {
    std::vector<float> v = sweep_floats();
    for (int i = 0; i <= 400000; ++i) v.push_back(0.5f + 1.5f * (float)i / 400000.0f);
    for (int i = 1; i <= 50000; ++i) v.push_back(1.0f + 1e-7f * (float)i), v.push_back(1.0f - 1e-7f * (float)i);
    return v;
}

// Largest relative error of y against ref over x (NaN/inf/0 must match exactly).
template <typename Ref> double max_rel_error(const std::vector<double>& x, const std::vector<double>& y, Ref ref,
                                             double* worst_x) {
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        double r = ref(x[i]);
        if (std::isnan(r) || std::isinf(r) || r == 0) {
            if (!((std::isnan(r) && std::isnan(y[i])) || r == y[i])) return *worst_x = x[i], INFINITY;
            continue;
        }
        double e = std::fabs(y[i] - r) / std::fabs(r);
        if (e > worst) worst = e, *worst_x = x[i];
    }
    return worst;
}

std::vector<double> double_sweep(double lo, double hi, int n) {
    std::vector<double> v = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e-310, 4.9e-324, 1e300, -1e-300,
                             std::numeric_limits<double>::max(), std::numeric_limits<double>::min()};
    for (int i = 0; i <= n; ++i) v.push_back(lo + (hi - lo) * i / n);
    for (int i = -300; i <= 300; ++i) v.push_back(std::pow(10.0, i / 1.0)), v.push_back(1.0 + std::pow(2.0, -i / 6.0));
    return v;
}
}  // namespace

TEST(VecMath, LogLog1pExpm1Float32WithinTwoUlpOfLibm) {
    std::vector<float> x = log_floats();
    float worst_x = 0;
    EXPECT_LE(max_ulp_error(x, run_contiguous<float>(ct_log, x), [](float v) { return std::log(v); }, &worst_x), 2)
        << "log worst at x = " << worst_x;
    EXPECT_LE(max_ulp_error(x, run_contiguous<float>(ct_log1p, x), [](float v) { return (float)std::log1p((double)v); },
                            &worst_x), 2)
        << "log1p worst at x = " << worst_x;
    std::vector<float> xe = sweep_floats();
    for (int i = 1; i <= 100000; ++i) xe.push_back(1e-6f * (float)i), xe.push_back(-1e-6f * (float)i);
    EXPECT_LE(max_ulp_error(xe, run_contiguous<float>(ct_expm1, xe), [](float v) { return (float)std::expm1((double)v); },
                            &worst_x), 2)
        << "expm1 worst at x = " << worst_x;
    std::vector<float> y = run_contiguous<float>(ct_log, std::vector<float>{0.0f, -0.0f, -1.0f, 1.0f, 1e-45f});
    EXPECT_EQ(y[0], -std::numeric_limits<float>::infinity());
    EXPECT_EQ(y[1], -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(y[2]));
    EXPECT_EQ(y[3], 0.0f);
    EXPECT_LE(ulp_distance(y[4], std::log(1e-45f)), 1);  // the smallest subnormal
}

TEST(VecMath, LogLog1pExpm1Float64RelativeError) {
    double worst_x = 0;
    std::vector<double> x = double_sweep(-2.0, 1e3, 400000);
    EXPECT_LE(max_rel_error(x, run_contiguous<double>(ct_log, x), [](double v) { return std::log(v); }, &worst_x), 4e-16)
        << "log worst at x = " << worst_x;
    EXPECT_LE(max_rel_error(x, run_contiguous<double>(ct_log1p, x), [](double v) { return std::log1p(v); }, &worst_x),
              8e-16)
        << "log1p worst at x = " << worst_x;
    std::vector<double> xe = double_sweep(-750.0, 720.0, 400000);
    for (int i = 1; i <= 1000; ++i) xe.push_back(1e-12 * i), xe.push_back(-1e-9 * i);
    EXPECT_LE(max_rel_error(xe, run_contiguous<double>(ct_expm1, xe), [](double v) { return std::expm1(v); }, &worst_x),
              2e-15)
        << "expm1 worst at x = " << worst_x;
}

TEST(VecMath, SiluAndSoftplusMatchDoubleReference) {
    // silu's range stops where sigmoid(x) itself leaves float's normal range (x < -87): there float silu
    // (ours and PyTorch's alike) no longer has full relative accuracy
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> x = {0.0f, -0.0f, inf, std::numeric_limits<float>::quiet_NaN(), 1e-30f, -1e-30f, 88.0f, 100.0f};
    for (int i = 0; i <= 400000; ++i) x.push_back(-80.0f + 160.0f * (float)i / 400000.0f);
    float worst_x = 0;
    auto silu_ref = [](float v) { return (float)((double)v / (1.0 + std::exp(-(double)v))); };
    auto softplus_ref = [](float v) { return v > 20.0f ? v : (float)std::log1p(std::exp((double)v)); };
    EXPECT_LE(max_ulp_error(x, run_contiguous<float>(ct_silu, x), silu_ref, &worst_x), 4) << "silu at " << worst_x;
    EXPECT_LE(max_ulp_error(x, run_contiguous<float>(ct_softplus, x), softplus_ref, &worst_x), 3)
        << "softplus at " << worst_x;
    double worst_d = 0;
    std::vector<double> xd = double_sweep(-700.0, 700.0, 200000);
    EXPECT_LE(max_rel_error(xd, run_contiguous<double>(ct_softplus, xd),
                            [](double v) { return v > 20 ? v : std::log1p(std::exp(v)); }, &worst_d), 2e-15)
        << "softplus at " << worst_d;
    xd.erase(xd.begin() + 5);  // silu(-inf) is NaN for both, but 0 * NaN checks are covered by float
    EXPECT_LE(max_rel_error(xd, run_contiguous<double>(ct_silu, xd), [](double v) { return v / (1 + std::exp(-v)); },
                            &worst_d), 4e-15)
        << "silu at " << worst_d;
}

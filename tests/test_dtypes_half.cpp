// test_dtypes_half.cpp - float16, bfloat16, int8 and int16: the scalar conversions over all 65 536 bit patterns
// against independent references (a decode through double, GCC's _Float16), the bulk (F16C) path through
// ct_to_dtype against the scalar one, casts between every pair of the 10 dtypes, promotion, creation, printing,
// random, DLPack, safetensors, elementwise compute in float32 rounded back, gradients in half, and the errors.
#include <unistd.h>
#include <cmath>
#include <cstring>
#include <dlpack/dlpack.h>
#include "core/half.h"
#include "ct_test.h"

using namespace ctt;

namespace {

const ct_dtype kAll[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8,
                         CT_BOOL,    CT_FLOAT16, CT_BFLOAT16, CT_INT8, CT_INT16};

// The exact value of a binary16 bit pattern, decoded through double (independent of core/half.h).
double half_reference(uint16_t h) {
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 0x1f) return m ? NAN : s * INFINITY;
    if (e == 0) return s * std::ldexp((double)m, -24);
    return s * std::ldexp((double)(1024 + m), e - 25);
}

// The value of a bfloat16 pattern with the exponent field read as unbounded (0xff is 2^128 and up, not inf):
// the rounding candidates of the reference below.
double bf16_unbounded(uint32_t b) {
    const int e = (b >> 7) & 0xff, m = b & 0x7f;
    const double s = (b & 0x8000) ? -1.0 : 1.0;
    if (e == 0) return s * std::ldexp((double)m, -133);
    return s * std::ldexp((double)(128 + m), e - 134);
}

// Round-to-nearest-even float -> bfloat16 by comparing distances in double.
uint16_t bf16_reference(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if (std::isnan(f)) return 0;  // callers check NaN separately
    if (std::isinf(f)) return (uint16_t)(x >> 16);
    const uint32_t lo = x >> 16, hi = lo + 1;  // same sign: magnitudes |lo| <= |f| < |hi|
    const double dl = std::fabs((double)f - bf16_unbounded(lo)), dh = std::fabs(bf16_unbounded(hi) - (double)f);
    if (dl < dh) return (uint16_t)lo;
    if (dh < dl) return (uint16_t)hi;  // 0x7f80 / 0xff80 when past the largest finite: inf
    return (uint16_t)((lo & 1) ? hi : lo);
}

float from_bits(uint32_t x) {
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

// Floats that probe every rounding case of float -> half / bfloat16: every half value, the midpoints between
// neighbours and one float ulp either side, plus a stride through all 2^32 float patterns.
std::vector<float> probe_floats() {
    std::vector<float> v;
    for (uint32_t h = 0; h < 0x7c00; ++h) {
        for (float sign : {1.0f, -1.0f}) {
            const float a = (float)half_reference((uint16_t)h), b = (float)half_reference((uint16_t)(h + 1));
            const float mid = (float)(((double)a + (double)b) / 2);  // exact: 12 significant bits
            v.insert(v.end(), {sign * a, sign * mid, sign * std::nextafter(mid, 0.0f), sign * std::nextafter(mid, 1e9f)});
        }
    }
    for (uint64_t x = 0; x < (1ull << 32); x += 4099) v.push_back(from_bits((uint32_t)x));
    v.insert(v.end(), {65504.0f, 65519.99f, 65520.0f, 1e30f, INFINITY, -INFINITY, NAN, -NAN, 0x1p-25f, 0x1p-26f,
                       from_bits(0x7f7fffff), from_bits(0x7f7f8000), from_bits(0x00000001)});
    return v;
}

H from_bits_tensor(const std::vector<uint16_t>& bits, ct_dtype dtype) {
    H t;
    int64_t n = (int64_t)bits.size();
    ok(ct_tensor_from_data(bits.data(), n * 2, &n, 1, dtype, ct_cpu(), t.out()));
    return t;
}
template <typename T> std::vector<T> host(const H& t) {
    int64_t n = 0;
    ok(ct_tensor_numel(t.get(), &n));
    std::vector<T> v((size_t)n);
    ok(ct_tensor_copy_to_host(t.get(), v.data(), n * (int64_t)sizeof(T)));
    return v;
}
H cast(const H& t, ct_dtype d) {
    H r;
    ok(ct_to_dtype(t.get(), d, r.out()));
    return r;
}
std::string text(const H& t) {
    int64_t len = 0;
    ok(ct_tensor_to_string(t.get(), nullptr, 0, &len));
    std::string s((size_t)len + 1, '\0');
    ok(ct_tensor_to_string(t.get(), &s[0], len + 1, &len));
    s.resize((size_t)len);
    return s;
}

}  // namespace

TEST(HalfConvert, EveryHalfPatternToFloatIsExactAndRoundTrips) {
    for (uint32_t h = 0; h < 65536; ++h) {
        const float f = ct::half_bits_to_float((uint16_t)h);
        const double ref = half_reference((uint16_t)h);
        const _Float16 gcc = [&] { _Float16 g; uint16_t b = (uint16_t)h; std::memcpy(&g, &b, 2); return g; }();
        if (std::isnan(ref)) {
            ASSERT_TRUE(std::isnan(f)) << h;
            ASSERT_TRUE(std::isnan((float)gcc)) << h;
            ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << h;
            ASSERT_EQ(ct::float_to_half_bits(f), h | 0x200) << h;  // quiet, payload kept (Note [Half conversions])
            continue;
        }
        ASSERT_EQ((double)f, ref) << h;
        ASSERT_EQ(f, (float)gcc) << h;
        ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << h;
        ASSERT_EQ(ct::float_to_half_bits(f), h) << h;
    }
}

TEST(HalfConvert, FloatToHalfRoundsToNearestEvenLikeGcc) {
    size_t n = 0;
    for (float f : probe_floats()) {
        const uint16_t got = ct::float_to_half_bits(f);
        const _Float16 g = (_Float16)f;  // libgcc's soft-float (or F16C) conversion: an independent reference
        uint16_t want;
        std::memcpy(&want, &g, 2);
        if (std::isnan(f)) {
            ASSERT_EQ(got & 0x7e00, 0x7e00) << f;
            ASSERT_EQ((got & 0x8000) != 0, std::signbit(f));
        } else {
            ASSERT_EQ(got, want) << "float bits " << std::hex << ct::float_bits(f);
        }
        ++n;
    }
    EXPECT_GT(n, 1000000u);
}

TEST(HalfConvert, EveryBFloat16PatternAndRoundingAgainstDoubleReference) {
    for (uint32_t b = 0; b < 65536; ++b) {
        const float f = ct::bfloat16_bits_to_float((uint16_t)b);
        const int e = (b >> 7) & 0xff;
        if (e == 0xff && (b & 0x7f)) {
            ASSERT_TRUE(std::isnan(f));
            ASSERT_EQ(ct::float_to_bfloat16_bits(f), b | 0x40) << b;
            continue;
        }
        if (e == 0xff) ASSERT_TRUE(std::isinf(f));
        else ASSERT_EQ((double)f, bf16_unbounded(b)) << b;
        ASSERT_EQ(ct::float_to_bfloat16_bits(f), b) << b;
        // the midpoint to the next pattern and its neighbours
        if (e < 0xff && ((b + 1) >> 7 & 0xff) < 0xff) {
            const uint32_t fb = b << 16;
            for (uint32_t x : {fb + 0x8000u, fb + 0x7fffu, fb + 0x8001u, fb + 1u, fb + 0xffffu}) {
                const float v = from_bits(x);
                ASSERT_EQ(ct::float_to_bfloat16_bits(v), bf16_reference(v)) << std::hex << x;
            }
        }
    }
    for (float f : probe_floats())
        if (!std::isnan(f)) ASSERT_EQ(ct::float_to_bfloat16_bits(f), bf16_reference(f)) << ct::float_bits(f);
}

TEST(HalfConvert, BulkPathThroughToDtypeMatchesScalar) {
    std::vector<uint16_t> all(65536);
    for (uint32_t i = 0; i < 65536; ++i) all[i] = (uint16_t)i;
    for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16}) {
        std::vector<float> f = host<float>(cast(from_bits_tensor(all, d), CT_FLOAT32));
        for (uint32_t i = 0; i < 65536; ++i) {
            const float want = d == CT_FLOAT16 ? ct::half_bits_to_float((uint16_t)i)
                                               : ct::bfloat16_bits_to_float((uint16_t)i);
            ASSERT_EQ(ct::float_bits(f[i]), ct::float_bits(want)) << d << " " << i;
        }
        std::vector<float> probe = probe_floats();
        H t;
        int64_t n = (int64_t)probe.size();
        ok(ct_tensor_from_data(probe.data(), n * 4, &n, 1, CT_FLOAT32, ct_cpu(), t.out()));
        std::vector<uint16_t> back = host<uint16_t>(cast(t, d));
        for (size_t i = 0; i < probe.size(); ++i) {
            const uint16_t want = d == CT_FLOAT16 ? ct::float_to_half_bits(probe[i]) : ct::float_to_bfloat16_bits(probe[i]);
            ASSERT_EQ(back[i], want) << d << " float bits " << std::hex << ct::float_bits(probe[i]);
        }
    }
}

TEST(HalfDTypes, NamesSizesAndEnumValues) {
    EXPECT_STREQ(ct_dtype_name(CT_FLOAT16), "float16");
    EXPECT_STREQ(ct_dtype_name(CT_BFLOAT16), "bfloat16");
    EXPECT_STREQ(ct_dtype_name(CT_INT8), "int8");
    EXPECT_STREQ(ct_dtype_name(CT_INT16), "int16");
    EXPECT_EQ(ct_dtype_size(CT_FLOAT16), 2);
    EXPECT_EQ(ct_dtype_size(CT_BFLOAT16), 2);
    EXPECT_EQ(ct_dtype_size(CT_INT8), 1);
    EXPECT_EQ(ct_dtype_size(CT_INT16), 2);
    EXPECT_STREQ(ct_dtype_name(12), "unknown");
    H t;
    int64_t n = 1;
    CT_EXPECT_ERR(ct_zeros(&n, 1, 12, ct_cpu(), t.out()), CT_ERR_DTYPE, "12");
}

// Casts between every ordered pair of the 10 dtypes on values every dtype holds.
TEST(HalfDTypes, CastsBetweenEveryPair) {
    const std::vector<double> vals = {0, 1, 2, 3, 100, 7};
    for (ct_dtype s : kAll) {
        H src = make(vals, {6}, s);
        std::vector<double> sv = values(src);
        for (ct_dtype d : kAll) {
            H r = cast(src, d);
            EXPECT_EQ(dtype(r), d);
            std::vector<double> want = sv;
            if (d == CT_BOOL) for (double& w : want) w = w != 0;
            EXPECT_EQ(values(r), want) << ct_dtype_name(s) << " -> " << ct_dtype_name(d);
        }
    }
    // out-of-range and fractional values follow Note [Float to integer] and the rounding of the target
    H big = make({70000.0, -3.7, 300.5, 1.0 / 3}, {4}, CT_FLOAT64);
    EXPECT_EQ(values(cast(big, CT_INT8)), (std::vector<double>{127, -3, 127, 0}));
    EXPECT_EQ(values(cast(big, CT_INT16)), (std::vector<double>{32767, -3, 300, 0}));
    std::vector<double> h = values(cast(big, CT_FLOAT16));
    EXPECT_TRUE(std::isinf(h[0]));
    EXPECT_EQ(h[2], 300.5);
    EXPECT_EQ(h[3], (double)ct::half_bits_to_float(ct::float_to_half_bits((float)(1.0 / 3))));
    EXPECT_EQ(values(cast(big, CT_BFLOAT16))[0], 70144.0);  // 70000 rounds to 8 significant bits
}

// torch.promote_types (1.13) for the pairs the new dtypes add; the Python suite checks all 100 pairs.
TEST(HalfDTypes, PromotionAsTorch) {
    struct Case { ct_dtype a, b, want; };
    const Case cases[] = {{CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32}, {CT_INT8, CT_UINT8, CT_INT16},
                          {CT_INT16, CT_FLOAT16, CT_FLOAT16},   {CT_INT64, CT_BFLOAT16, CT_BFLOAT16},
                          {CT_FLOAT16, CT_FLOAT32, CT_FLOAT32}, {CT_FLOAT16, CT_FLOAT64, CT_FLOAT64},
                          {CT_INT8, CT_INT16, CT_INT16},        {CT_UINT8, CT_INT16, CT_INT16},
                          {CT_BOOL, CT_INT8, CT_INT8},          {CT_BOOL, CT_FLOAT16, CT_FLOAT16},
                          {CT_INT8, CT_INT32, CT_INT32},        {CT_UINT8, CT_INT8, CT_INT16}};
    for (const Case& c : cases) {
        H r;
        CT_ASSERT_OK(ct_mul(make({1, 2}, {2}, c.a).get(), make({1, 1}, {2}, c.b).get(), r.out()));
        EXPECT_EQ(dtype(r), c.want) << ct_dtype_name(c.a) << " * " << ct_dtype_name(c.b);
    }
}

TEST(HalfDTypes, CreationAndItem) {
    for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16, CT_INT8, CT_INT16}) {
        const int64_t shape[] = {2, 3};
        H z, o, f, a, l, e;
        CT_ASSERT_OK(ct_zeros(shape, 2, d, ct_cpu(), z.out()));
        CT_ASSERT_OK(ct_ones(shape, 2, d, ct_cpu(), o.out()));
        CT_ASSERT_OK(ct_full(shape, 2, 5.0, d, ct_cpu(), f.out()));
        CT_ASSERT_OK(ct_arange(0, 5, 1, d, ct_cpu(), a.out()));
        CT_ASSERT_OK(ct_linspace(-2, 2, 5, d, ct_cpu(), l.out()));
        CT_ASSERT_OK(ct_eye(2, 2, d, ct_cpu(), e.out()));
        EXPECT_EQ(values(z), std::vector<double>(6, 0.0));
        EXPECT_EQ(values(o), std::vector<double>(6, 1.0));
        EXPECT_EQ(values(f), std::vector<double>(6, 5.0));
        EXPECT_EQ(values(a), (std::vector<double>{0, 1, 2, 3, 4}));
        EXPECT_EQ(values(l), (std::vector<double>{-2, -1, 0, 1, 2}));
        EXPECT_EQ(values(e), (std::vector<double>{1, 0, 0, 1}));
        EXPECT_EQ(dtype(z), d);
        double v = 0;
        H s;
        CT_ASSERT_OK(ct_scalar_tensor(-3.0, d, ct_cpu(), s.out()));
        CT_ASSERT_OK(ct_tensor_item(s.get(), &v));
        EXPECT_EQ(v, -3.0);
    }
    H s;
    double v = 0;
    CT_ASSERT_OK(ct_scalar_tensor(0.1, CT_FLOAT16, ct_cpu(), s.out()));
    CT_ASSERT_OK(ct_tensor_item(s.get(), &v));
    EXPECT_EQ(v, 0.0999755859375);  // torch.tensor(0.1, dtype=torch.float16).item()
    CT_ASSERT_OK(ct_scalar_tensor(0.1, CT_BFLOAT16, ct_cpu(), s.out()));
    CT_ASSERT_OK(ct_tensor_item(s.get(), &v));
    EXPECT_EQ(v, 0.10009765625);  // torch.tensor(0.1, dtype=torch.bfloat16).item()
}

TEST(HalfDTypes, PrintingAsTorch) {
    EXPECT_EQ(text(make({1.5, 2, 0.1}, {3}, CT_FLOAT16)), "tensor([1.5000, 2.0000, 0.1000], dtype=float16)");
    EXPECT_EQ(text(make({1, -2}, {2}, CT_BFLOAT16)), "tensor([ 1., -2.], dtype=bfloat16)");
    EXPECT_EQ(text(make({1, -2}, {2}, CT_INT8)), "tensor([ 1, -2], dtype=int8)");
    EXPECT_EQ(text(make({300}, {1}, CT_INT16)), "tensor([300], dtype=int16)");
}

TEST(HalfDTypes, RandomInHalfDtypes) {
    const int64_t shape[] = {1000};
    for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16}) {
        H u, n;
        CT_ASSERT_OK(ct_rand(shape, 1, d, ct_cpu(), nullptr, u.out()));
        CT_ASSERT_OK(ct_randn(shape, 1, d, ct_cpu(), nullptr, n.out()));
        EXPECT_EQ(dtype(u), d);
        EXPECT_EQ(dtype(n), d);
        double lo = 1, hi = 0, mean = 0;
        for (double x : values(u)) lo = std::min(lo, x), hi = std::max(hi, x);
        for (double x : values(n)) mean += x / 1000;
        EXPECT_GE(lo, 0.0);
        EXPECT_LE(hi, 1.0);  // a draw just below 1 may round up to 1 in 8 / 11 bits, as in torch
        EXPECT_NEAR(mean, 0.0, 0.15);
    }
    for (ct_dtype d : {CT_INT8, CT_INT16}) {
        H r;
        CT_ASSERT_OK(ct_randint(-5, 5, shape, 1, d, ct_cpu(), nullptr, r.out()));
        for (double x : values(r)) ASSERT_TRUE(x >= -5 && x < 5);
    }
}

TEST(HalfDTypes, DLPackCodesBothWays) {
    struct Case { ct_dtype d; uint8_t code, bits; };
    for (Case c : {Case{CT_FLOAT16, kDLFloat, 16}, Case{CT_BFLOAT16, kDLBfloat, 16}, Case{CT_INT8, kDLInt, 8},
                   Case{CT_INT16, kDLInt, 16}}) {
        H t = make({1, -2, 3}, {3}, c.d);
        DLManagedTensor* m = nullptr;
        CT_ASSERT_OK(ct_to_dlpack(t.get(), &m));
        EXPECT_EQ(m->dl_tensor.dtype.code, c.code);
        EXPECT_EQ(m->dl_tensor.dtype.bits, c.bits);
        H back;
        CT_ASSERT_OK(ct_from_dlpack(m, back.out()));
        EXPECT_EQ(dtype(back), c.d);
        EXPECT_EQ(values(back), (std::vector<double>{1, -2, 3}));
    }
}

TEST(HalfDTypes, SafetensorsNames) {
    const std::string path = ::testing::TempDir() + "ct_half_" + std::to_string(::getpid()) + ".safetensors";
    ct_safetensors f = nullptr;
    CT_ASSERT_OK(ct_safetensors_new(&f));
    const char* names[] = {"h", "b", "i8", "i16"};
    const ct_dtype ds[] = {CT_FLOAT16, CT_BFLOAT16, CT_INT8, CT_INT16};
    for (int i = 0; i < 4; ++i) CT_ASSERT_OK(ct_safetensors_add(f, names[i], make({1.5, -2}, {2}, ds[i]).get()));
    CT_ASSERT_OK(ct_save_safetensors(f, path.c_str()));
    ct_safetensors_release(f);
    FILE* fp = std::fopen(path.c_str(), "rb");
    ASSERT_TRUE(fp);
    std::string bytes(4096, '\0');
    bytes.resize(std::fread(&bytes[0], 1, bytes.size(), fp));
    std::fclose(fp);
    for (const char* tag : {"\"F16\"", "\"BF16\"", "\"I8\"", "\"I16\""}) EXPECT_NE(bytes.find(tag), std::string::npos) << tag;
    CT_ASSERT_OK(ct_load_safetensors(path.c_str(), ct_cpu(), 0, &f));
    for (int i = 0; i < 4; ++i) {
        H t;
        CT_ASSERT_OK(ct_safetensors_get(f, names[i], t.out()));
        EXPECT_EQ(dtype(t), ds[i]);
        EXPECT_EQ(values(t), (std::vector<double>{i < 2 ? 1.5 : 1.0, -2}));
    }
    ct_safetensors_release(f);
    std::remove(path.c_str());
}

// Elementwise ops on half tensors: float32 results rounded once (Note [Half compute]).
TEST(HalfCompute, ElementwiseIsFloat32RoundedBack) {
    std::vector<double> xs = rand_values(1000, 7, -4, 4), ys = rand_values(1000, 8, 0.5, 4);
    for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16}) {
        H x = make(xs, {10, 100}, d), y = make(ys, {10, 100}, d);
        H xf = cast(x, CT_FLOAT32), yf = cast(y, CT_FLOAT32);
        auto same = [&](const H& half, const H& f32, const char* what) {
            EXPECT_EQ(dtype(half), d) << what;
            EXPECT_EQ(values(half), values(cast(f32, d))) << what << " " << ct_dtype_name(d);
        };
        H r, rf;
        CT_ASSERT_OK(ct_add(x.get(), y.get(), 0.5, r.out()));
        CT_ASSERT_OK(ct_add(xf.get(), yf.get(), 0.5, rf.out()));
        same(r, rf, "add");
        CT_ASSERT_OK(ct_div(x.get(), y.get(), r.out()));
        CT_ASSERT_OK(ct_div(xf.get(), yf.get(), rf.out()));
        same(r, rf, "div");
        CT_ASSERT_OK(ct_exp(x.get(), r.out()));
        CT_ASSERT_OK(ct_exp(xf.get(), rf.out()));
        same(r, rf, "exp");
        CT_ASSERT_OK(ct_tanh(x.get(), r.out()));
        CT_ASSERT_OK(ct_tanh(xf.get(), rf.out()));
        same(r, rf, "tanh");
        // broadcast and a transposed (strided) operand
        H row = make(rand_values(100, 9), {100}, d), xt;
        CT_ASSERT_OK(ct_transpose(make(xs, {100, 10}, d).get(), 0, 1, xt.out()));
        CT_ASSERT_OK(ct_mul(xt.get(), row.get(), r.out()));
        CT_ASSERT_OK(ct_mul(cast(xt, CT_FLOAT32).get(), cast(row, CT_FLOAT32).get(), rf.out()));
        same(r, rf, "mul strided broadcast");
        H lt;
        CT_ASSERT_OK(ct_lt(x.get(), y.get(), lt.out()));
        EXPECT_EQ(dtype(lt), CT_BOOL);
    }
}

TEST(HalfCompute, GradientsOfHalfTensorsAreHalf) {
    for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16}) {
        H x = make({1, 2, 3}, {3}, d, true), y, g;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_ASSERT_OK(ct_backward(y.get(), make({1, 1, 1}, {3}, d).get(), 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_EQ(dtype(g), d);
        EXPECT_EQ(values(g), (std::vector<double>{2, 4, 6}));
    }
}

TEST(HalfCompute, Int8Int16WrapAsIntegers) {
    H a = make({100, -100, 7}, {3}, CT_INT8), r;
    CT_ASSERT_OK(ct_add(a.get(), a.get(), 1.0, r.out()));
    EXPECT_EQ(dtype(r), CT_INT8);
    EXPECT_EQ(values(r), (std::vector<double>{-56, 56, 14}));  // Note [Integer wrap]
    H b = make({30000, 5}, {2}, CT_INT16);
    CT_ASSERT_OK(ct_mul(b.get(), make({2, 3}, {2}, CT_INT16).get(), r.out()));
    EXPECT_EQ(values(r), (std::vector<double>{-5536, 15}));
}

// Note [Half on CUDA]: half tensors live on a CUDA device whose backend takes them (both backends of this tree do,
// tests/test_cuda_half.cpp checks the ops); complex stays refused there, naming the dtype.
TEST(HalfCompute, HalfOnCudaIsAcceptedComplexRefused) {
    for_each_device([] {
        if (test_device().type != CT_DEVICE_CUDA) return;
        const int64_t n = 2;
        H t, c, z;
        CT_ASSERT_OK(ct_zeros(&n, 1, CT_FLOAT16, test_device(), t.out()));
        EXPECT_EQ(dtype(t), CT_FLOAT16);
        CT_ASSERT_OK(ct_to_dtype(make({1, 2}, {2}, CT_FLOAT32).get(), CT_BFLOAT16, c.out()));
        EXPECT_EQ(dtype(c), CT_BFLOAT16);
        EXPECT_EQ(values(c), (std::vector<double>{1, 2}));
        CT_EXPECT_ERR(ct_zeros(&n, 1, CT_COMPLEX64, test_device(), z.out()), CT_ERR_NOT_SUPPORTED, "complex64");
    });
}

// The ops that refused half before issue 15's sweep (tests/half/test_half_sweep.cpp checks every op) run on the
// float32 copy: floating results in the half dtype, indices int64. randint's range must fit the half dtype's
// integers (torch: +-2^digits), else an error naming op and dtype.
TEST(HalfCompute, SelectionIndexAndLapackOpsRunInFloat32) {
    for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16}) {
        H x = make({3, 0, 2}, {3}, d), v, i, nz;
        CT_ASSERT_OK(ct_kthvalue(x.get(), 1, 0, 0, v.out(), i.out()));
        EXPECT_EQ(dtype(v), d);
        EXPECT_EQ(dtype(i), CT_INT64);
        EXPECT_EQ(values(v), (std::vector<double>{0}));
        EXPECT_EQ(values(i), (std::vector<double>{1}));
        CT_ASSERT_OK(ct_nonzero(x.get(), nz.out()));
        EXPECT_EQ(dtype(nz), CT_INT64);
        EXPECT_EQ(values(nz), (std::vector<double>{0, 2}));
        H sq = make({2, 0, 0, 4}, {2, 2}, d), inv;
        CT_ASSERT_OK(ct_linalg_inv(sq.get(), inv.out()));
        EXPECT_EQ(dtype(inv), d);
        EXPECT_EQ(values(inv), (std::vector<double>{0.5, 0, 0, 0.25}));
        const int64_t n = 4;
        H r;
        const int64_t top = d == CT_FLOAT16 ? 2048 : 256;
        CT_ASSERT_OK(ct_randint(-top, top + 1, &n, 1, d, ct_cpu(), nullptr, r.out()));
        EXPECT_EQ(dtype(r), d);
        CT_EXPECT_ERR(ct_randint(0, top + 2, &n, 1, d, ct_cpu(), nullptr, r.out()), CT_ERR_INVALID_ARGUMENT,
                      std::string("does not fit dtype ") + ct_dtype_name(d));
        // an op that wants equal dtypes still refuses a half tensor mixed with float32 (docs/dtypes.md)
        H idx = make({0, 1}, {2}, CT_INT64), src = make({1, 2}, {2}, CT_FLOAT32), out;
        ct_status st = ct_scatter(x.get(), 0, idx.get(), src.get(), out.out());
        EXPECT_NE(st, CT_OK);
        EXPECT_NE(std::string(ct_last_error()).find("scatter"), std::string::npos) << ct_last_error();
        EXPECT_NE(std::string(ct_last_error()).find(ct_dtype_name(d)), std::string::npos) << ct_last_error();
    }
}

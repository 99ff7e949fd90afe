// test_half_fused.cpp - the fused float16/bfloat16 loops (Note [Fused half loops] in cpu/half_loops.h) give the
// blocked loops' results bit for bit: each op runs once on contiguous operands (the fused loop, where the CPU has
// AVX2 and F16C) and once on strided views of the same values (the blocked loops), over lengths that leave every
// tail of the eight-wide loop and values that include NaN, infinities, signed zeros, subnormals and rounding ties.
#include <cmath>
#include <cstring>
#include <functional>
#include "ct_test.h"

using namespace ctt;

namespace {

// n values of dtype's range: random ones at several scales, then the special values.
std::vector<double> probe_values(size_t n, ct_dtype dt, uint64_t seed) {
    std::vector<double> v = rand_values(n, seed, -4.0, 4.0);
    const double tiny = dt == CT_FLOAT16 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -133);
    const double big = dt == CT_FLOAT16 ? 65504.0 : 3.0e38;
    const double special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, tiny, -tiny, 3 * tiny, big, -big,
                              1.0 + 1.0 / 2048, 1.0 + 3.0 / 2048, 1.0 + 1.0 / 256, 0.5, -2.0};
    for (size_t i = 0; i < n; ++i) {
        if (i % 7 == 3) v[i] = special[(i / 7) % (sizeof(special) / sizeof(special[0]))];
        else if (i % 5 == 1) v[i] *= 1e3;
        else if (i % 5 == 2) v[i] *= 1e-3;
    }
    return v;
}

// The values laid out at every other element of a 2n buffer: a strided view (the blocked loops read it).
H strided_of(const std::vector<double>& v, ct_dtype dt) {
    std::vector<double> spread(2 * v.size(), 0.0);
    for (size_t i = 0; i < v.size(); ++i) spread[2 * i] = v[i];
    H buf = make(spread, {(int64_t)spread.size()}, dt), view;
    ok(ct_slice(buf.get(), 0, 0, (int64_t)spread.size(), 2, view.out()));
    return view;
}

std::vector<uint16_t> bits_of(const H& t) {
    H c;
    ok(ct_contiguous(t.get(), c.out()));
    void* p = nullptr;
    ok(ct_tensor_data_ptr(c.get(), &p));
    std::vector<uint16_t> b(values(c).size());
    std::memcpy(b.data(), p, b.size() * 2);
    return b;
}

void expect_same_bits(const H& fused, const H& blocked, const char* what) {
    std::vector<uint16_t> f = bits_of(fused), b = bits_of(blocked);
    ASSERT_EQ(f.size(), b.size()) << what;
    for (size_t i = 0; i < f.size(); ++i)
        ASSERT_EQ(f[i], b[i]) << what << " at " << i << " of " << f.size();
}

using Unary = std::function<ct_status(ct_tensor, ct_tensor*)>;
using Binary = std::function<ct_status(ct_tensor, ct_tensor, ct_tensor*)>;

const std::vector<std::pair<const char*, Unary>>& unary_ops() {
    static const std::vector<std::pair<const char*, Unary>> ops = {
        {"neg", ct_neg}, {"abs", ct_abs}, {"relu", ct_relu}, {"exp", ct_exp},
        {"sqrt", ct_sqrt}, {"tanh", ct_tanh}, {"sigmoid", ct_sigmoid}};
    return ops;
}

const std::vector<std::pair<const char*, Binary>>& binary_ops() {
    static const std::vector<std::pair<const char*, Binary>> ops = {
        {"add", [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_add(a, b, 1.0, o); }},
        {"add alpha", [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_add(a, b, 0.37, o); }},
        {"sub", [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_sub(a, b, 1.0, o); }},
        {"mul", ct_mul}, {"div", ct_div}, {"maximum", ct_maximum}};
    return ops;
}

}  // namespace

TEST(HalfFused, UnaryOpsMatchTheBlockedLoops) {
    for (ct_dtype dt : {CT_FLOAT16, CT_BFLOAT16})
        for (size_t n : {1u, 7u, 8u, 15u, 16u, 17u, 31u, 33u, 1000u, 4099u}) {
            std::vector<double> v = probe_values(n, dt, 7 + n);
            H contiguous = make(v, {(int64_t)n}, dt), strided = strided_of(v, dt);
            for (const auto& [name, f] : unary_ops()) {
                SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + name + " n=" + std::to_string(n));
                H fused, blocked;
                ok(f(contiguous.get(), fused.out()));
                ok(f(strided.get(), blocked.out()));
                expect_same_bits(fused, blocked, name);
            }
        }
}

TEST(HalfFused, BinaryOpsMatchTheBlockedLoops) {
    for (ct_dtype dt : {CT_FLOAT16, CT_BFLOAT16})
        for (size_t n : {1u, 7u, 8u, 15u, 16u, 17u, 31u, 33u, 1000u, 4099u}) {
            std::vector<double> va = probe_values(n, dt, 11 + n), vb = probe_values(n, dt, 13 + 2 * n);
            std::reverse(vb.begin(), vb.end());  // the special values meet other values, not themselves
            H a = make(va, {(int64_t)n}, dt), b = make(vb, {(int64_t)n}, dt);
            H sa = strided_of(va, dt), sb = strided_of(vb, dt);
            H number, one;  // a Python number (float32, unrounded) and a 0-d tensor of dt (broadcast)
            ok(ct_wrapped_scalar(0.1, 0, number.out()));
            one = make({-1.7}, {}, dt);
            for (const auto& [name, f] : binary_ops()) {
                SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " " + name + " n=" + std::to_string(n));
                H fused, blocked;
                ok(f(a.get(), b.get(), fused.out()));
                ok(f(sa.get(), sb.get(), blocked.out()));
                expect_same_bits(fused, blocked, name);
                ok(f(a.get(), number.get(), fused.out()));
                ok(f(sa.get(), number.get(), blocked.out()));
                expect_same_bits(fused, blocked, "with a Python number");
                ok(f(a.get(), one.get(), fused.out()));
                ok(f(sa.get(), one.get(), blocked.out()));
                expect_same_bits(fused, blocked, "with a 0-d tensor");
            }
        }
}

TEST(HalfFused, AddIsTheRoundedFloat32Sum) {
    // an independent check of the values: float16 a + b is the float32 sum of the exact values, rounded once
    std::vector<double> va = probe_values(203, CT_FLOAT16, 5), vb = probe_values(203, CT_FLOAT16, 6);
    H a = make(va, {203}, CT_FLOAT16), b = make(vb, {203}, CT_FLOAT16), sum, want, a32, b32, sum32;
    ok(ct_add(a.get(), b.get(), 1.0, sum.out()));
    ok(ct_to_dtype(a.get(), CT_FLOAT32, a32.out()));
    ok(ct_to_dtype(b.get(), CT_FLOAT32, b32.out()));
    ok(ct_add(a32.get(), b32.get(), 1.0, sum32.out()));
    ok(ct_to_dtype(sum32.get(), CT_FLOAT16, want.out()));
    expect_same_bits(sum, want, "add");
}

// test_fuzz_findings.cpp - regression tests for the bugs the fuzz targets (tests/fuzz) found, one test each,
// written against the C API as the fuzzer saw them.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include "ct_test.h"

using namespace ctt;

namespace {

int g_blob_deletes = 0;
void count_delete(void*, void*) { ++g_blob_deletes; }

// A float32 leaf [n] over caller memory whose deleter counts (a leak keeps it from running).
H tracked_leaf(float* data, int64_t n) {
    H t;
    ok(ct_tensor_from_blob(data, &n, nullptr, 1, CT_FLOAT32, ct_cpu(), count_delete, nullptr, t.out()));
    ok(ct_tensor_set_requires_grad(t.get(), 1));
    return t;
}

}  // namespace

// fuzz_autograd: backward(x, grad_output = x, create_graph) stored x itself as x.grad (x -> grad -> x), a cycle
// that no release could break: x, its memory and its graph leaked.
TEST(FuzzFindings, LeafBackwardWithItselfAsGradOutputLeavesNoCycle) {
    int64_t baseline = ct_live_handles();
    float data[3] = {1, 2, 3};
    int before = g_blob_deletes;
    for (int create = 0; create < 2; ++create) {
        {
            H x = tracked_leaf(data, 3);
            CT_ASSERT_OK(ct_backward(x.get(), x.get(), 0, create));
            H g;
            CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
            EXPECT_EQ(values(g), (std::vector<double>{1, 2, 3}));
        }
        EXPECT_EQ(g_blob_deletes, before + create + 1) << "x was never freed (create_graph " << create << ")";
    }
    EXPECT_EQ(ct_live_handles(), baseline);
}

// Found while reducing the case above: the first backward into a leaf stored the caller's grad_output itself
// (or a view of its memory) as .grad, so the next backward accumulated into the caller's tensor.
TEST(FuzzFindings, AccumulatingGradNeverWritesIntoTheCallersGradOutput) {
    for (int create = 0; create < 2; ++create) {
        H x = make({1, 1}, {2}, CT_FLOAT32, true);
        H go = make({1, 1}, {2}, CT_FLOAT32);
        CT_ASSERT_OK(ct_backward(x.get(), go.get(), 1, create));
        CT_ASSERT_OK(ct_backward(x.get(), go.get(), 1, 0));
        EXPECT_EQ(values(go), (std::vector<double>{1, 1})) << "grad_output changed (create_graph " << create << ")";
        H g;
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_EQ(values(g), (std::vector<double>{2, 2}));
    }
}

// fuzz_ops: ct_tensor_from_blob accepted data misaligned for its dtype; every kernel then loaded misaligned
// floats (undefined behaviour, reported by UBSan in add). It is refused now, as DLPack import refuses it.
TEST(FuzzFindings, FromBlobRefusesMisalignedData) {
    alignas(8) unsigned char buf[16] = {0};
    int64_t n = 2;
    ct_tensor t = nullptr;
    CT_EXPECT_ERR(ct_tensor_from_blob(buf + 1, &n, nullptr, 1, CT_FLOAT32, ct_cpu(), nullptr, nullptr, &t),
                  CT_ERR_NOT_SUPPORTED, "not aligned");
    EXPECT_EQ(t, nullptr);
    CT_EXPECT_OK(ct_tensor_from_blob(buf + 1, &n, nullptr, 1, CT_UINT8, ct_cpu(), nullptr, nullptr, &t));
    ct_tensor_release(t);
    int64_t zero = 0;  // an empty tensor reads nothing: any address will do
    CT_EXPECT_OK(ct_tensor_from_blob(buf + 1, &zero, nullptr, 1, CT_FLOAT64, ct_cpu(), nullptr, nullptr, &t));
    ct_tensor_release(t);
}

// fuzz_autograd: ct_tensor_set_grad(x, x), or x.grad = y and y.grad = x, stored the tensors themselves: a cycle
// of leaves that no release could break (x, y and their memory leaked).
TEST(FuzzFindings, SetGradToItselfOrCrosswiseLeavesNoCycle) {
    int64_t baseline = ct_live_handles();
    float a[2] = {1, 2}, b[2] = {3, 4};
    int before = g_blob_deletes;
    {
        H x = tracked_leaf(a, 2);
        CT_ASSERT_OK(ct_tensor_set_grad(x.get(), x.get()));
        H g;
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_EQ(values(g), (std::vector<double>{1, 2}));
    }
    EXPECT_EQ(g_blob_deletes, before + 1) << "x.grad = x kept x alive";
    {
        H x = tracked_leaf(a, 2), y = tracked_leaf(b, 2);
        CT_ASSERT_OK(ct_tensor_set_grad(x.get(), y.get()));
        CT_ASSERT_OK(ct_tensor_set_grad(y.get(), x.get()));
        H g;
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_EQ(values(g), (std::vector<double>{3, 4}));
    }
    EXPECT_EQ(g_blob_deletes, before + 3) << "x.grad = y, y.grad = x kept them alive";
    EXPECT_EQ(ct_live_handles(), baseline);
}

// fuzz_ops and fuzz_autograd: ct_empty(bool) handed out uninitialised bytes (here a freed uint8 block from the
// allocator's cache, holding 200), so the next kernel loaded a bool that was neither 0 nor 1 (UBSan in the copy
// of a cast). Note [Bool bytes]: empty and empty_like give all-false bool tensors.
TEST(FuzzFindings, EmptyBoolTensorsHoldOnlyZeroBytes) {
    const int64_t n = 4096;
    for (int round = 0; round < 2; ++round) {
        {
            H dirty;
            ok(ct_full(&n, 1, 200.0, CT_UINT8, ct_cpu(), dirty.out()));  // released: its block goes to the cache
        }
        H b;
        if (round == 0) ok(ct_empty(&n, 1, CT_BOOL, ct_cpu(), b.out()));
        else {
            H like;
            ok(ct_zeros(&n, 1, CT_BOOL, ct_cpu(), like.out()));
            {
                H dirty;
                ok(ct_full(&n, 1, 200.0, CT_UINT8, ct_cpu(), dirty.out()));
            }
            ok(ct_empty_like(like.get(), b.out()));
        }
        std::vector<unsigned char> bytes(n, 7);
        ok(ct_tensor_copy_to_host(b.get(), bytes.data(), n));
        for (int64_t i = 0; i < n; ++i) ASSERT_EQ(bytes[i], 0) << "byte " << i << " of round " << round;
    }
}

// fuzz_ops: ct_narrow computed start + length before comparing with the size, so a length near INT64_MAX
// overflowed (UBSan) instead of being refused.
TEST(FuzzFindings, NarrowWithAHugeLengthIsAnIndexError) {
    H t = make({1, 2, 3}, {3});
    ct_tensor out = nullptr;
    CT_EXPECT_ERR(ct_narrow(t.get(), 0, 1, INT64_MAX, &out), CT_ERR_INDEX, "out of range");
    CT_EXPECT_ERR(ct_narrow(t.get(), 0, -1, INT64_MAX, &out), CT_ERR_INDEX, "out of range");
    EXPECT_EQ(out, nullptr);
}

// fuzz_autograd: z = y * y saved y itself; y.add_(z) then made y's grad_fn lead to MulBackward, which held y:
// a cycle no release broke (y, z's node and their memory leaked). Note [Saved inputs]. Checked through a
// from_blob leaf whose deleter must run, and the gradient through the saved history stays right.
TEST(FuzzFindings, InPlaceWriteIntoASavedInputLeavesNoCycle) {
    g_blob_deletes = 0;
    float data[2] = {1.0f, 2.0f};
    {
        H x = tracked_leaf(data, 2), y, z, x2, w, u;
        ok(ct_exp(x.get(), y.out()));              // y = exp(x), a non-leaf
        ok(ct_mul(y.get(), y.get(), z.out()));     // z = y * y saves y twice
        ok(ct_add_(y.get(), z.get(), 1.0));        // y = y + y^2: y's history now leads to z's node
        // a second chain whose saved input is a plain tensor modified in place afterwards
        ok(ct_ones(std::vector<int64_t>{2}.data(), 1, CT_FLOAT32, ct_cpu(), x2.out()));
        ok(ct_mul(x2.get(), x.get(), w.out()));    // saves x2 (no grad) and x (leaf)
        ok(ct_add_(x2.get(), w.get(), 1.0));       // x2 gets a grad_fn leading to w's node
        ok(ct_sum(x2.get(), nullptr, 0, 0, u.out()));
        CT_EXPECT_ERR(ct_backward(u.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "modified by an in-place operation");
        H s;
        ok(ct_sum(z.get(), nullptr, 0, 0, s.out()));
        CT_EXPECT_ERR(ct_backward(s.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "modified by an in-place operation");
        // a saved non-leaf input (an alias plus its grad_fn) still carries first and second derivatives
        H p, q, r, g, gs, gg;
        ok(ct_exp(x.get(), p.out()));
        ok(ct_mul(p.get(), p.get(), q.out()));    // q = exp(2x)
        ok(ct_sum(q.get(), nullptr, 0, 0, r.out()));
        ct_tensor outputs[1] = {r.get()}, inputs[1] = {x.get()};
        ok(ct_autograd_grad(outputs, 1, nullptr, inputs, 1, 1, 1, 0, g.out()));  // 2 exp(2x), with its graph
        EXPECT_TRUE(allclose(g, {2 * std::exp(2.0), 2 * std::exp(4.0)}, 1e-6, 1e-5));
        ok(ct_sum(g.get(), nullptr, 0, 0, gs.out()));
        ok(ct_backward(gs.get(), nullptr, 0, 0));  // x.grad = d/dx sum(2 exp(2x)) = 4 exp(2x)
        ok(ct_tensor_grad(x.get(), gg.out()));
        EXPECT_TRUE(allclose(gg, {4 * std::exp(2.0), 4 * std::exp(4.0)}, 1e-6, 1e-5));
    }
    EXPECT_EQ(ct_live_handles(), 0);
    EXPECT_EQ(g_blob_deletes, 1);
}

namespace {
ct_status no_gradient(void*, const ct_tensor*, int32_t, ct_tensor* grad_inputs, int32_t n) {
    for (int32_t i = 0; i < n; ++i) grad_inputs[i] = nullptr;
    return CT_OK;
}
bool utf8_ok(const std::string& s) {  // well-formed UTF-8 (no overlong or surrogate check needed here)
    for (size_t i = 0; i < s.size();) {
        unsigned char c = s[i];
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (size_t k = 1; k < n; ++k)
            if (((unsigned char)s[i + k] & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}
}  // namespace

// fuzz_autograd: a custom function named with bytes that are not UTF-8 showed them raw in ct_tensor_to_string
// ("grad_fn=<...>") and ct_tensor_grad_fn_name, which every binding decodes as UTF-8; and a text cut to the
// buffer's capacity could end inside a multi-byte character. Names are escaped, cuts fall between characters.
TEST(FuzzFindings, TextOutIsValidUtf8ForAnyNameAndCapacity) {
    for (const char* name : {"Bad\xff\xfe", "\xc3\xa9t\xc3\xa9\xe2\x82\xac"}) {  // invalid bytes; "été€"
        H x = make({1, 2}, {2}, CT_FLOAT32, true), y;
        ct_tensor in = x.get();
        ok(ct_custom_function_apply(name, &in, 1, &in, 1, no_gradient, nullptr, nullptr, y.out()));
        int64_t len = 0;
        ok(ct_tensor_to_string(y.get(), nullptr, 0, &len));
        for (int64_t cap = 1; cap <= len + 1; ++cap) {
            std::string buf((size_t)cap, 'Z');
            ok(ct_tensor_to_string(y.get(), buf.data(), cap, nullptr));
            std::string text(buf.c_str());
            ASSERT_LE((int64_t)text.size(), cap - 1);
            ASSERT_GE((int64_t)text.size(), cap - 4) << "a cut drops at most one character";
            ASSERT_TRUE(utf8_ok(text)) << "name " << name << ", capacity " << cap << ": " << text;
        }
        char fn_name[64];
        ok(ct_tensor_grad_fn_name(y.get(), fn_name, sizeof fn_name, nullptr));
        EXPECT_TRUE(utf8_ok(fn_name)) << fn_name;
    }
    std::string full(256, 0);
    H x = make({1}, {1}, CT_FLOAT32, true), y;
    ct_tensor in = x.get();
    ok(ct_custom_function_apply("Bad\xff", &in, 1, &in, 1, no_gradient, nullptr, nullptr, y.out()));
    ok(ct_tensor_grad_fn_name(y.get(), full.data(), (int32_t)full.size(), nullptr));
    EXPECT_STREQ(full.c_str(), "Bad\\xff");
}

namespace {
// Writes a safetensors file: the header's length (8 bytes, little-endian), the header, then data.
std::string write_safetensors(const std::string& header, const std::string& data) {
    std::string path = ::testing::TempDir() + "fuzz_findings_" + std::to_string(header.size()) + ".safetensors";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    uint64_t n = header.size();
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) len[i] = (unsigned char)(n >> (8 * i));
    std::fwrite(len, 1, 8, f);
    std::fwrite(header.data(), 1, header.size(), f);
    std::fwrite(data.data(), 1, data.size(), f);
    std::fclose(f);
    return path;
}
}  // namespace

// fuzz_safetensors: a file may name a tensor or a metadata key with "\u0000" in JSON; the C API takes names as C
// strings, so such an entry could not be fetched (ct_safetensors_get and metadata_get failed for a key that
// ct_safetensors_metadata_key had just given). The loader refuses NUL bytes in names, keys and values.
TEST(FuzzFindings, SafetensorsNamesWithANulByteAreRefused) {
    const std::string tensor = R"("x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]})";
    const std::string cases[] = {
        R"({"a\u0000b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
        "{\"__metadata__\":{\"k\\u0000\":\"v\"}," + tensor + "}",
        "{\"__metadata__\":{\"k\":\"v\\u0000w\"}," + tensor + "}",
    };
    for (const std::string& header : cases) {
        std::string path = write_safetensors(header, std::string(4, '\0'));
        for (int map = 0; map < 2; ++map) {
            ct_safetensors f = nullptr;
            CT_EXPECT_ERR(ct_load_safetensors(path.c_str(), ct_cpu(), map, &f), CT_ERR_IO, "NUL byte");
            EXPECT_EQ(f, nullptr);
        }
        std::remove(path.c_str());
    }
    // The same messages for caller strings: every quote_text(std::string) call used to resolve to std::quoted
    // (argument-dependent lookup), which escapes nothing: raw NUL and non-UTF-8 bytes reached the message.
    ct_safetensors set = nullptr;
    ok(ct_safetensors_new(&set));
    H one = make({1}, {1}, CT_FLOAT32);
    CT_EXPECT_ERR(ct_safetensors_add(set, "bad\xff", one.get()), CT_ERR_INVALID_ARGUMENT, "\"bad\\xff\"");
    EXPECT_TRUE(utf8_ok(ct_last_error()));
    ct_safetensors_release(set);
    std::string good = write_safetensors("{\"__metadata__\":{\"k\":\"v\"}," + tensor + "}", std::string(4, '\0'));
    ct_safetensors f = nullptr;
    CT_EXPECT_OK(ct_load_safetensors(good.c_str(), ct_cpu(), 0, &f));
    ct_safetensors_release(f);
    std::remove(good.c_str());
}

// fuzz_ops: scatter_add of int64 summed as signed C++ arithmetic, undefined on overflow (UBSan); it wraps like
// every other integer op (Note [Integer wrap]), as torch.scatter_add does.
TEST(FuzzFindings, IntegerScatterAddWraps) {
    const int64_t n = 2;
    int64_t dst_v[2] = {INT64_MAX, INT64_MIN}, src_v[2] = {1, -1}, idx_v[2] = {0, 1};
    H dst, src, idx, out;
    ok(ct_tensor_from_data(dst_v, sizeof dst_v, &n, 1, CT_INT64, ct_cpu(), dst.out()));
    ok(ct_tensor_from_data(src_v, sizeof src_v, &n, 1, CT_INT64, ct_cpu(), src.out()));
    ok(ct_tensor_from_data(idx_v, sizeof idx_v, &n, 1, CT_INT64, ct_cpu(), idx.out()));
    ok(ct_scatter_add(dst.get(), 0, idx.get(), src.get(), out.out()));
    int64_t got[2] = {0, 0};
    ok(ct_tensor_copy_to_host(out.get(), got, sizeof got));
    EXPECT_EQ(got[0], INT64_MIN);
    EXPECT_EQ(got[1], INT64_MAX);
}

// fuzz_ops (UBSan float-cast-overflow): converting a float outside an integer dtype's range (ct_full(int32, 9e18),
// to_dtype of 1e30 to int64) was a C++ cast of an unrepresentable value, undefined behaviour (x86 gives INT_MIN).
// Note [Float to integer]: such conversions saturate, NaN gives 0, in-range values truncate toward zero.
TEST(FuzzFindings, FloatToIntegerConversionsSaturate) {
    const int64_t one = 1, n = 7;
    H full32;
    ok(ct_full(&one, 1, 9.2e18, CT_INT32, ct_cpu(), full32.out()));
    int32_t f32 = 0;
    ok(ct_tensor_copy_to_host(full32.get(), &f32, sizeof f32));
    EXPECT_EQ(f32, INT32_MAX);
    double v[7] = {1e30, -1e30, std::nan(""), 2.7, -2.7, 300.0, -5.0};
    H x, i64, u8;
    ok(ct_tensor_from_data(v, sizeof v, &n, 1, CT_FLOAT64, ct_cpu(), x.out()));
    ok(ct_to_dtype(x.get(), CT_INT64, i64.out()));
    ok(ct_to_dtype(x.get(), CT_UINT8, u8.out()));
    int64_t got[7];
    uint8_t bytes[7];
    ok(ct_tensor_copy_to_host(i64.get(), got, sizeof got));
    ok(ct_tensor_copy_to_host(u8.get(), bytes, sizeof bytes));
    const int64_t want[7] = {INT64_MAX, INT64_MIN, 0, 2, -2, 300, -5};
    const uint8_t want8[7] = {255, 0, 0, 2, 0, 255, 0};
    for (int k = 0; k < 7; ++k) {
        EXPECT_EQ(got[k], want[k]) << "int64 element " << k;
        EXPECT_EQ(bytes[k], want8[k]) << "uint8 element " << k;
    }
}

// fuzz_ops (UBSan float-cast-overflow): ct_add checked an integer alpha with (double)(int64_t)alpha, a cast of an
// unrepresentable value for alpha = 9.2e18 or -9.7e294. Alpha is now checked without casting: not an integer is
// CT_ERR_DTYPE, outside the dtype is CT_ERR_INVALID_ARGUMENT (Note [Scalar range]).
TEST(FuzzFindings, IntegerAddRefusesAnAlphaOutsideTheDtype) {
    H a = make({1, 2}, {2}, CT_INT64), b = make({3, 4}, {2}, CT_INT64), a32 = make({1, 2}, {2}, CT_INT32), out;
    CT_EXPECT_ERR(ct_add(a.get(), b.get(), 9.3e18, out.out()), CT_ERR_INVALID_ARGUMENT, "alpha");
    CT_EXPECT_ERR(ct_add(a.get(), b.get(), -9.67e294, out.out()), CT_ERR_INVALID_ARGUMENT, "alpha");
    CT_EXPECT_ERR(ct_add(a.get(), b.get(), std::nan(""), out.out()), CT_ERR_DTYPE, "alpha");
    CT_EXPECT_ERR(ct_add(a.get(), b.get(), 1.5, out.out()), CT_ERR_DTYPE, "alpha");
    CT_EXPECT_ERR(ct_add(a32.get(), a32.get(), 0x1p40, out.out()), CT_ERR_INVALID_ARGUMENT, "alpha");
    ok(ct_add(a.get(), b.get(), -3.0, out.out()));
    EXPECT_TRUE(allclose(out, {-8, -10}));
}

// fuzz_ops (UBSan float-cast-overflow): ct_tensor_item_int64 of a float tensor holding NaN or -1.9e38 was a C++
// cast of an unrepresentable value. It converts as every dtype conversion does (Note [Float to integer]).
TEST(FuzzFindings, ItemInt64OfAnyFloatIsDefined) {
    const double v[4] = {std::nan(""), -1.92795e38, 1e300, -7.9};
    const int64_t want[4] = {0, INT64_MIN, INT64_MAX, -7};
    for (int k = 0; k < 4; ++k) {
        H t = make({v[k]}, {}, CT_FLOAT64);
        int64_t got = 1;
        ok(ct_tensor_item_int64(t.get(), &got));
        EXPECT_EQ(got, want[k]) << v[k];
    }
}

// fuzz_autograd in CI (UBSan pointer-overflow): a reduction whose reduced dims are empty while the kept ones are
// not (std over dim 1 of a transposed [0, 2] tensor) computed each output's start as the empty storage's null
// pointer plus the kept dims' offset. An empty reduction now reads nothing; every output gets the empty value.
TEST(FuzzFindings, EmptyReductionOverAStridedEmptyTensorReadsNothing) {
    H base, t, out;
    const int64_t shape[2] = {0, 2};
    ok(ct_zeros(shape, 2, CT_FLOAT32, ct_cpu(), base.out()));
    ok(ct_transpose(base.get(), 0, 1, t.out()));  // [2, 0], strides [1, 2]
    const int64_t dim = 1;
    ok(ct_std(t.get(), &dim, 1, 1.0, 0, out.out()));
    std::vector<double> v = values(out);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[1]));
    ok(ct_sum(t.get(), &dim, 1, 0, out.out()));
    EXPECT_TRUE(allclose(out, {0, 0}));
}

// fuzz_ops (UBSan: reference binding to null in std::vector::operator[]): ct_linalg_cross of two 0-d tensors wrapped
// dim 0 against an empty shape and read its size. 0-d inputs are now CT_ERR_SHAPE, as in torch.
TEST(FuzzFindings, LinalgCrossOfZeroDimTensorsIsAShapeError) {
    H a, b, out;
    ok(ct_scalar_tensor(1.0, CT_FLOAT32, ct_cpu(), a.out()));
    ok(ct_scalar_tensor(2.0, CT_FLOAT32, ct_cpu(), b.out()));
    for (int64_t dim : {0, -1}) {
        EXPECT_EQ(ct_linalg_cross(a.get(), b.get(), dim, out.out()), CT_ERR_SHAPE);
        EXPECT_NE(std::string(ct_last_error()).find("at least one dimension"), std::string::npos) << ct_last_error();
    }
}

// fuzz_ops/fuzz_autograd (CI budget run): take_along_dim of 0-d tensors with a dim erased a dim from an empty shape
// (UBSan: offset applied to a null pointer); torch raises IndexError there.
TEST(FuzzFindings, TakeAlongDimOfZeroDimTensorsIsAnIndexError) {
    H x, i, out;
    ok(ct_scalar_tensor(5.0, CT_FLOAT32, ct_cpu(), x.out()));
    ok(ct_scalar_tensor(0.0, CT_INT64, ct_cpu(), i.out()));
    for (int64_t dim : {0, -1}) {
        EXPECT_EQ(ct_take_along_dim(x.get(), i.get(), dim, 1, out.out()), CT_ERR_INDEX);
        EXPECT_NE(std::string(ct_last_error()).find("has no dimensions"), std::string::npos) << ct_last_error();
    }
    ok(ct_take_along_dim(x.get(), i.get(), 0, 0, out.out()));  // without a dim: the flattened input
    EXPECT_EQ(values(out), std::vector<double>{5.0});
}

// fuzz_ops (CI budget run): histc over a range wider than float32 (hi - lo = inf) cast inf / inf = NaN to int64
// (UBSan); such a value now counts in the last bin.
TEST(FuzzFindings, HistcOverARangeBeyondTheDtypeIsDefined) {
    H x = make({3.0e38}, {1}, CT_FLOAT32), out;
    ok(ct_histc(x.get(), 4, -3.4e38, 3.4e38, out.out()));
    double total = 0;
    for (double v : values(out)) total += v;
    EXPECT_EQ(total, 1.0);
}

// fuzz_ops (CI budget run, a timeout): cummax/cummin of an empty tensor with huge dims around its zero one looped
// over outer * inner positions of nothing; an empty input now returns at once.
TEST(FuzzFindings, CumExtremaOfEmptyTensorsWithHugeDimsReturnAtOnce) {
    H x, e, v, i;
    const int64_t shape[3] = {int64_t{1} << 40, int64_t{1} << 20, 0};
    ok(ct_zeros(shape, 3, CT_FLOAT32, ct_cpu(), x.out()));
    ok(ct_cummin(x.get(), 1, v.out(), i.out()));
    EXPECT_EQ(ctt::shape(v), (Shape{int64_t{1} << 40, int64_t{1} << 20, 0}));
    ok(ct_cummax(x.get(), -1, v.out(), i.out()));
}

// fuzz_ops (CI budget run, ASan use-after-poison): index_add/index_copy of a 0-d input with an empty index and a
// 0-d source passed the shape check and read the empty index's one value. A 0-d input now takes one index with a
// one-value source (else CT_ERR_SHAPE), or an empty index with an empty 1-D source: a no-op, as in torch, whose
// backward gives the source an empty gradient.
TEST(FuzzFindings, IndexAddOfZeroDimInputWithEmptyIndexIsChecked) {
    H x = make({2.0}, {}, CT_FLOAT32, true), none = make({}, {0}, CT_INT64), one = make({0}, {1}, CT_INT64);
    H scalar = make({5.0}, {}, CT_FLOAT32, true), empty = make({}, {0}, CT_FLOAT32, true), out, g;
    EXPECT_EQ(ct_index_add(x.get(), 0, none.get(), scalar.get(), 1.0, out.out()), CT_ERR_SHAPE);
    EXPECT_EQ(ct_index_copy(x.get(), 0, none.get(), scalar.get(), out.out()), CT_ERR_SHAPE);
    EXPECT_EQ(ct_index_add(x.get(), 0, one.get(), empty.get(), 1.0, out.out()), CT_ERR_SHAPE);
    for (bool copy : {false, true}) {
        if (copy) ok(ct_index_copy(x.get(), 0, none.get(), empty.get(), out.out()));
        else ok(ct_index_add(x.get(), 0, none.get(), empty.get(), 2.0, out.out()));
        EXPECT_EQ(values(out), std::vector<double>{2.0});
        ok(ct_backward(out.get(), nullptr, 0, 0));
        ok(ct_tensor_grad(empty.get(), g.out()));
        EXPECT_EQ(ctt::shape(g), Shape{0});
    }
    ok(ct_index_add(x.get(), 0, one.get(), scalar.get(), 1.0, out.out()));  // one index: x + src
    EXPECT_EQ(values(out), std::vector<double>{7.0});
}

// fuzz_autograd (budget run of the norms branch, ASan use-after-poison in binary_cross_entropy_with_logits'
// backward): ct_backward took a grad_output of another dtype than the root (a float32 0-d for a float64 loss) and
// the node read its 4 bytes as a double. The engine now casts grad_output to the root's dtype, as torch does; the
// fused norm backward reads its gradient the same way, so it is checked here too.
TEST(FuzzFindings, GradOutputOfAnotherDtypeIsCastToTheRootsDtype) {
    H x = make({0.5, -1.0, 2.0}, {3}, CT_FLOAT64, true), t = make({1.0, 0.0, 1.0}, {3}), loss, g, g64;
    H go32 = make({2.0}, {}, CT_FLOAT32);
    ok(ct_binary_cross_entropy_with_logits(x.get(), t.get(), CT_REDUCTION_MEAN, loss.out()));
    ok(ct_backward(loss.get(), go32.get(), 1, 0));
    ok(ct_tensor_grad(x.get(), g.out()));
    EXPECT_EQ(dtype(g), CT_FLOAT64);
    std::vector<double> got = values(g);
    for (size_t i = 0; i < 3; ++i) {  // 2 * (sigmoid(x) - t) / 3
        const double xv = values(x)[i], tv = values(t)[i];
        EXPECT_NEAR(got[i], 2.0 * (1.0 / (1.0 + std::exp(-xv)) - tv) / 3.0, 1e-12);
    }
    H y, gy, gx;
    H xn = make({1.0, 2.0, 4.0, 8.0}, {2, 2}, CT_FLOAT64, true), ones32 = make({1, 1, 1, 1}, {2, 2}, CT_FLOAT32);
    const int64_t ns[1] = {2};
    ok(ct_layer_norm(xn.get(), ns, 1, nullptr, nullptr, 1e-5, y.out()));
    ok(ct_backward(y.get(), ones32.get(), 0, 0));
    ok(ct_tensor_grad(xn.get(), gx.out()));
    EXPECT_TRUE(allclose(gx, {0, 0, 0, 0}, 1e-9));  // each row of a layer norm sums to zero
}

// fuzz_ops (budget run of the complex branch, a 14 s timeout in ct_diff): an empty input with a huge size along
// dim (beside a zero size) ran one narrow + sub per order up to n, i.e. about 2^40 steps for nothing. An empty
// input now only shrinks that size (by n, at least to 0) at once.
TEST(FuzzFindings, DiffOfAnEmptyTensorWithAHugeDimIsImmediate) {
    const int64_t shape[2] = {0, int64_t(1) << 40};
    H x, out;
    ok(ct_empty(shape, 2, CT_FLOAT32, ct_cpu(), x.out()));
    ok(ct_diff(x.get(), int64_t(1) << 41, 1, nullptr, nullptr, out.out()));
    EXPECT_EQ(ctt::shape(out), (Shape{0, 0}));
    ok(ct_diff(x.get(), 3, 1, nullptr, nullptr, out.out()));
    EXPECT_EQ(ctt::shape(out), (Shape{0, (int64_t(1) << 40) - 3}));
    EXPECT_EQ(dtype(out), CT_FLOAT32);
}

// fuzz_ops (budget run, complex cumsum): an empty complex64 tensor [0, 2^62] has the contiguous stride 2^62 on its
// zero-size dim; view_as_real (which complex cumsum runs through) doubled it past int64 (UBSan: signed
// overflow). Such a stride addresses nothing and is now replaced by an even one; cumsum then fails cleanly.
TEST(FuzzFindings, ViewAsRealOfAnEmptyComplexTensorWithAHugeStride) {
    const int64_t shape[2] = {0, int64_t(1) << 62};
    H x, r, c;
    ok(ct_empty(shape, 2, CT_COMPLEX64, ct_cpu(), x.out()));
    ok(ct_view_as_real(x.get(), r.out()));
    EXPECT_EQ(ctt::shape(r), (Shape{0, int64_t(1) << 62, 2}));
    EXPECT_EQ(dtype(r), CT_FLOAT32);
    // complex cumsum works on the float32 view, whose [0, 2^62, 2] sizes multiply past int64: a clean error
    CT_EXPECT_ERR(ct_cumsum(x.get(), 1, c.out()), CT_ERR_SHAPE, "too many elements");
}

// fuzz_autograd: y = flip(x) made x's AccumulateGrad; x.requires_grad_(False); x.mul_(y) then gave x a history
// leading to that node, which held x: x -> grad_fn -> FlipBackward -> AccumulateGrad(x) -> x, a cycle no
// release broke (x, its graph and its memory leaked). Note [Former leaf cycle]: the node lets go of x when x's
// last handle goes; a backward that still reaches the node skips x and gives the other leaves their gradients.
TEST(FuzzFindings, InPlaceHistoryOfAFormerLeafLeavesNoCycle) {
    int64_t baseline = ct_live_handles();
    g_blob_deletes = 0;
    float a[2] = {1.0f, 2.0f}, b[2] = {1.0f, 2.0f};
    const int64_t dim0 = 0;
    {
        H x = tracked_leaf(a, 2), y, s;
        ok(ct_flip(x.get(), &dim0, 1, y.out()));
        ok(ct_tensor_set_requires_grad(x.get(), 0));
        ok(ct_mul_(x.get(), y.get()));  // x = x * flip(x), whose history reaches x's own AccumulateGrad
        ok(ct_sum(x.get(), nullptr, 0, 0, s.out()));
    }
    EXPECT_EQ(g_blob_deletes, 1) << "x was never freed";
    {
        H w = make({3, 4}, {2}, CT_FLOAT32, true), s;
        {
            H x = tracked_leaf(b, 2), y, t;
            ok(ct_flip(x.get(), &dim0, 1, y.out()));
            ok(ct_tensor_set_requires_grad(x.get(), 0));
            ok(ct_mul_(x.get(), y.get()));  // x = [2, 2]
            ok(ct_mul(x.get(), w.get(), t.out()));
            ok(ct_sum(t.get(), nullptr, 0, 0, s.out()));
        }
        ok(ct_backward(s.get(), nullptr, 0, 0));  // reaches AccumulateGrad(x) after x's last handle went
        H g;
        ok(ct_tensor_grad(w.get(), g.out()));
        EXPECT_EQ(values(g), (std::vector<double>{2, 2}));
    }
    EXPECT_EQ(g_blob_deletes, 2) << "the second x was never freed";
    EXPECT_EQ(ct_live_handles(), baseline);
}

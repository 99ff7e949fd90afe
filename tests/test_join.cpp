// test_join.cpp - cat, stack, split and chunk: PyTorch's shape rules, dtype promotion, legacy empty
// tensors, strided inputs, views, gradients, the capacity protocol of split/chunk, error paths.
#include "ct_test.h"

using namespace ctt;

namespace {

H iota(const Shape& s, double start = 0) {
    int64_t n = 1;
    for (auto d : s) n *= d;
    std::vector<double> v((size_t)n);
    for (int64_t i = 0; i < n; ++i) v[(size_t)i] = start + (double)i;
    return make(v, s);
}

H cat_of(const std::vector<H>& ts, int64_t dim) {
    std::vector<ct_tensor> hs;
    for (auto& t : ts) hs.push_back(t.get());
    H r;
    ok(ct_cat(hs.data(), (int32_t)hs.size(), dim, r.out()));
    return r;
}

// Calls ct_split / ct_chunk with room for every piece.
std::vector<H> pieces(bool is_chunk, const H& x, int64_t arg, int64_t dim) {
    int32_t n = 0;
    ok(is_chunk ? ct_chunk(x.get(), arg, dim, nullptr, 0, &n) : ct_split(x.get(), arg, dim, nullptr, 0, &n));
    std::vector<ct_tensor> hs((size_t)n, nullptr);
    ok(is_chunk ? ct_chunk(x.get(), arg, dim, hs.data(), n, &n) : ct_split(x.get(), arg, dim, hs.data(), n, &n));
    std::vector<H> out;
    for (auto h : hs) out.emplace_back(h);
    return out;
}

std::vector<int64_t> sizes_along(const std::vector<H>& ps, int64_t dim) {
    std::vector<int64_t> s;
    for (auto& p : ps) s.push_back(shape(p)[(size_t)dim]);
    return s;
}

}  // namespace

TEST(Cat, ValuesAlongEachDim) {
    for_each_device([&] {
        H a = iota({2, 2}), b = iota({2, 3}, 10), c = iota({2, 1}, 20);
        H r1 = cat_of({a, b, c}, 1);
        EXPECT_EQ(shape(r1), (Shape{2, 6}));
        EXPECT_TRUE(allclose(r1, {0, 1, 10, 11, 12, 20, 2, 3, 13, 14, 15, 21}));
        H r2 = cat_of({a, b, c}, -1);
        EXPECT_TRUE(allclose(r2, values(r1)));
        H d = iota({1, 2}, 5), r0 = cat_of({a, d}, 0);
        EXPECT_EQ(shape(r0), (Shape{3, 2}));
        EXPECT_TRUE(allclose(r0, {0, 1, 2, 3, 5, 6}));
        H single = cat_of({a}, 0);
        EXPECT_TRUE(allclose(single, {0, 1, 2, 3}));
    });
}

TEST(Cat, StridedInputsAndPromotion) {
    for_each_device([&] {
        H base = iota({3, 2}), t;
        CT_ASSERT_OK(ct_transpose(base.get(), 0, 1, t.out()));  // [[0, 2, 4], [1, 3, 5]]
        H i32 = make({7, 8, 9}, {1, 3}, CT_INT32);
        H r = cat_of({i32, t}, 0);
        EXPECT_EQ(dtype(r), CT_FLOAT64);
        EXPECT_TRUE(allclose(r, {7, 8, 9, 0, 2, 4, 1, 3, 5}));
        H f32 = make({1.5}, {1}, CT_FLOAT32), i64 = make({2}, {1}, CT_INT64), u8 = make({3}, {1}, CT_UINT8);
        H r2 = cat_of({i64, f32, u8}, 0);
        EXPECT_EQ(dtype(r2), CT_FLOAT32);
        EXPECT_TRUE(allclose(r2, {2, 1.5, 3}));
        H b = make({1, 0}, {2}, CT_BOOL), r3 = cat_of({b, u8}, 0);
        EXPECT_EQ(dtype(r3), CT_UINT8);
        EXPECT_TRUE(allclose(r3, {1, 0, 3}));
    });
}

TEST(Cat, LegacyEmptyTensorsAreSkipped) {
    for_each_device([&] {
        H e = iota({0}), a = iota({2, 3}), r = cat_of({e, a, e}, 1);
        EXPECT_EQ(shape(r), (Shape{2, 3}));
        EXPECT_TRUE(allclose(r, values(a)));
        H all_empty = cat_of({e, e}, 0);
        EXPECT_EQ(shape(all_empty), (Shape{0}));
        H e2 = iota({2, 0}), r2 = cat_of({a, e2}, 1);  // a real empty tensor takes part in shape checks
        EXPECT_EQ(shape(r2), (Shape{2, 3}));
        H ae = make({1, 2}, {2}, CT_FLOAT64, true), out, l, g;
        ct_tensor hs[2] = {ae.get(), e.get()};
        CT_ASSERT_OK(ct_cat(hs, 2, 0, out.out()));
        CT_ASSERT_OK(ct_sum(out.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(ae.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1, 1}));
    });
}

TEST(Cat, Errors) {
    for_each_device([&] {
        H a = iota({2, 3}), b = iota({2, 4}), s = make({1}, {}), v = iota({3}), r;
        ct_tensor ab[2] = {a.get(), b.get()};
        CT_EXPECT_ERR(ct_cat(ab, 2, 0, r.out()), CT_ERR_SHAPE,
                      "cat: sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1");
        CT_ASSERT_OK(ct_cat(ab, 2, 1, r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 7}));
        ct_tensor as[2] = {a.get(), s.get()};
        CT_EXPECT_ERR(ct_cat(as, 2, 0, r.out()), CT_ERR_SHAPE, "zero-dimensional tensor (at position 1)");
        ct_tensor av[2] = {a.get(), v.get()};
        CT_EXPECT_ERR(ct_cat(av, 2, 0, r.out()), CT_ERR_SHAPE, "same number of dims");
        CT_EXPECT_ERR(ct_cat(ab, 2, 2, r.out()), CT_ERR_INDEX, "cat: dim 2 is out of range");
        CT_EXPECT_ERR(ct_cat(ab, 0, 0, r.out()), CT_ERR_INVALID_ARGUMENT, "non-empty list");
        CT_EXPECT_ERR(ct_cat(nullptr, 2, 0, r.out()), CT_ERR_INVALID_ARGUMENT, "tensors is NULL");
        ct_tensor with_null[2] = {a.get(), nullptr};
        CT_EXPECT_ERR(ct_cat(with_null, 2, 0, r.out()), CT_ERR_INVALID_HANDLE, "tensors[1]");
    });
}

TEST(Cat, Gradients) {
    for_each_device([&] {
        H a = randt({2, 3}, 1), b = randt({2, 1}, 2), c = randt({2, 2}, 3);
        for (int64_t dim : {1, -1}) {
            EXPECT_TRUE(gradcheck([dim](const std::vector<H>& in) { return cat_of(in, dim); }, {a, b, c}));
        }
        H d = randt({1, 3}, 4);
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) {
            H r = cat_of(in, 0), sq;
            ok(ct_mul(r.get(), r.get(), sq.out()));
            return sq;
        }, {a, d}));
        // a promoted float32 input gets its gradient back in float32
        H f32 = make({1, 2}, {2}, CT_FLOAT32, true), f64 = make({3}, {1}, CT_FLOAT64, true), w = make({1, 2, 3}, {3});
        H r = cat_of({f32, f64}, 0), rw, l, g32, g64;
        CT_ASSERT_OK(ct_mul(r.get(), w.get(), rw.out()));
        CT_ASSERT_OK(ct_sum(rw.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(f32.get(), g32.out()));
        CT_ASSERT_OK(ct_tensor_grad(f64.get(), g64.out()));
        EXPECT_EQ(dtype(g32), CT_FLOAT32);
        EXPECT_TRUE(allclose(g32, {1, 2}));
        EXPECT_TRUE(allclose(g64, {3}));
    });
}

TEST(Stack, ValuesDimsAndGradient) {
    for_each_device([&] {
        H a = iota({2, 2}), b = iota({2, 2}, 10);
        ct_tensor ab[2] = {a.get(), b.get()};
        H r0, r1, rl;
        CT_ASSERT_OK(ct_stack(ab, 2, 0, r0.out()));
        EXPECT_EQ(shape(r0), (Shape{2, 2, 2}));
        EXPECT_TRUE(allclose(r0, {0, 1, 2, 3, 10, 11, 12, 13}));
        CT_ASSERT_OK(ct_stack(ab, 2, 1, r1.out()));
        EXPECT_TRUE(allclose(r1, {0, 1, 10, 11, 2, 3, 12, 13}));
        CT_ASSERT_OK(ct_stack(ab, 2, -1, rl.out()));
        EXPECT_EQ(shape(rl), (Shape{2, 2, 2}));
        EXPECT_TRUE(allclose(rl, {0, 10, 1, 11, 2, 12, 3, 13}));
        H s1 = make({1}, {}), s2 = make({2}, {}), rs;
        ct_tensor ss[2] = {s1.get(), s2.get()};
        CT_ASSERT_OK(ct_stack(ss, 2, 0, rs.out()));
        EXPECT_EQ(shape(rs), (Shape{2}));
        H x = randt({3}, 5), y = randt({3}, 6);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            ct_tensor hs[2] = {in[0].get(), in[1].get()};
            H r;
            ok(ct_stack(hs, 2, -1, r.out()));
            return r;
        }, {x, y}));
    });
}

TEST(Stack, Errors) {
    for_each_device([&] {
        H a = iota({2, 2}), b = iota({2, 3}), r;
        ct_tensor ab[2] = {a.get(), b.get()};
        CT_EXPECT_ERR(ct_stack(ab, 2, 0, r.out()), CT_ERR_SHAPE, "stack: expects each tensor to be equal size, but got [2, 2] at entry 0 and [2, 3] at entry 1");
        ct_tensor aa[2] = {a.get(), a.get()};
        CT_EXPECT_ERR(ct_stack(aa, 2, 3, r.out()), CT_ERR_INDEX, "stack: dim 3 is out of range");
        CT_EXPECT_ERR(ct_stack(aa, 2, -4, r.out()), CT_ERR_INDEX, "expected in [-3, 2]");
        CT_EXPECT_ERR(ct_stack(aa, 0, 0, r.out()), CT_ERR_INVALID_ARGUMENT, "stack: expected a non-empty list");
    });
}

TEST(Split, SizesViewsAndValues) {
    for_each_device([&] {
        H x = iota({5, 2});
        auto ps = pieces(false, x, 2, 0);
        EXPECT_EQ(sizes_along(ps, 0), (std::vector<int64_t>{2, 2, 1}));
        EXPECT_TRUE(allclose(ps[2], {8, 9}));
        int32_t shares = 0;
        CT_ASSERT_OK(ct_tensor_shares_storage(ps[1].get(), x.get(), &shares));
        EXPECT_EQ(shares, 1);
        EXPECT_EQ(sizes_along(pieces(false, x, 7, 0), 0), (std::vector<int64_t>{5}));
        EXPECT_EQ(sizes_along(pieces(false, x, 1, -1), 1), (std::vector<int64_t>{1, 1}));
        H e = iota({0, 3});
        EXPECT_EQ(sizes_along(pieces(false, e, 0, 0), 0), (std::vector<int64_t>{0}));
        EXPECT_EQ(sizes_along(pieces(false, e, 4, 0), 0), (std::vector<int64_t>{0}));
        H t;  // strided input
        CT_ASSERT_OK(ct_transpose(x.get(), 0, 1, t.out()));  // [2, 5]
        auto pt = pieces(false, t, 3, 1);
        EXPECT_TRUE(allclose(pt[1], {6, 8, 7, 9}));
    });
}

TEST(Split, CapacityProtocolAndErrors) {
    for_each_device([&] {
        H x = iota({7});
        int64_t before = ct_live_handles();
        ct_tensor outs[2] = {nullptr, nullptr};
        int32_t n = -1;
        CT_ASSERT_OK(ct_split(x.get(), 2, 0, outs, 2, &n));
        EXPECT_EQ(n, 4);  // the true count, although only two fit
        EXPECT_EQ(ct_live_handles(), before + 2);  // the pieces that did not fit made no handles
        H p0(outs[0]), p1(outs[1]);
        EXPECT_TRUE(allclose(p1, {2, 3}));
        n = -1;
        CT_ASSERT_OK(ct_chunk(x.get(), 3, 0, nullptr, 0, &n));
        EXPECT_EQ(n, 3);
        ct_tensor untouched = nullptr;
        CT_EXPECT_ERR(ct_split(x.get(), 0, 0, &untouched, 1, &n), CT_ERR_INVALID_ARGUMENT,
                      "split_size can only be 0 if dimension size is 0");
        CT_EXPECT_ERR(ct_split(x.get(), -1, 0, &untouched, 1, &n), CT_ERR_INVALID_ARGUMENT, "non-negative");
        CT_EXPECT_ERR(ct_split(x.get(), 2, 1, &untouched, 1, &n), CT_ERR_INDEX, "split: dim 1 is out of range");
        CT_EXPECT_ERR(ct_split(x.get(), 2, 0, nullptr, 1, &n), CT_ERR_INVALID_ARGUMENT, "outs is NULL");
        CT_EXPECT_ERR(ct_split(x.get(), 2, 0, &untouched, -1, &n), CT_ERR_INVALID_ARGUMENT, "capacity");
        CT_EXPECT_ERR(ct_split(x.get(), 2, 0, &untouched, 1, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
        H s = make({1}, {});
        CT_EXPECT_ERR(ct_split(s.get(), 1, 0, &untouched, 1, &n), CT_ERR_SHAPE, "at least a 1-dimensional");
        CT_EXPECT_ERR(ct_chunk(x.get(), 0, 0, &untouched, 1, &n), CT_ERR_INVALID_ARGUMENT, "greater than 0");
        CT_EXPECT_ERR(ct_chunk(nullptr, 2, 0, &untouched, 1, &n), CT_ERR_INVALID_HANDLE, "chunk");
        EXPECT_EQ(untouched, nullptr);
    });
}

TEST(Chunk, TorchChunkSizes) {
    for_each_device([&] {
        auto chunk_sizes = [](int64_t len, int64_t chunks) {
            return sizes_along(pieces(true, iota({len}), chunks, 0), 0);
        };
        EXPECT_EQ(chunk_sizes(5, 3), (std::vector<int64_t>{2, 2, 1}));
        EXPECT_EQ(chunk_sizes(6, 4), (std::vector<int64_t>{2, 2, 2}));  // fewer chunks than asked
        EXPECT_EQ(chunk_sizes(6, 6), (std::vector<int64_t>{1, 1, 1, 1, 1, 1}));
        EXPECT_EQ(chunk_sizes(2, 5), (std::vector<int64_t>{1, 1}));
        EXPECT_EQ(chunk_sizes(0, 3), (std::vector<int64_t>{0, 0, 0}));
        H m = iota({2, 5});
        auto ps = pieces(true, m, 2, -1);
        EXPECT_EQ(sizes_along(ps, 1), (std::vector<int64_t>{3, 2}));
        EXPECT_TRUE(allclose(ps[1], {3, 4, 8, 9}));
    });
}

TEST(SplitChunk, Gradients) {
    for_each_device([&] {
        H x = randt({5, 3}, 7);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            auto ps = pieces(false, in[0], 2, 0);  // [2, 2, 1]; the middle piece is unused
            H a;
            ok(ct_mul(ps[0].get(), ps[0].get(), a.out()));
            return cat_of({ps[2], a}, 0);
        }, {x}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            auto ps = pieces(true, in[0], 2, -1);  // [5, 2] and [5, 1]
            H r;
            ok(ct_mul(ps[0].get(), ps[1].get(), r.out()));  // broadcast product
            return r;
        }, {x}));
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) {
            auto ps = pieces(true, in[0], 3, 0);
            H r;
            ok(ct_mul(ps[0].get(), ps[1].get(), r.out()));
            return r;
        }, {x}));
    });
}

// test_views.cpp - views and layout ops through the C API: shapes, strides and offsets, storage sharing
// (copies only when needed), values against index arithmetic, errors, and gradchecks through every view op.
#include "ct_test.h"

using namespace ctt;

namespace {
Shape strides(const H& t) {
    int32_t nd = 0;
    ok(ct_tensor_strides(t.get(), nullptr, 0, &nd));
    Shape s((size_t)nd);
    ok(ct_tensor_strides(t.get(), s.data(), nd, &nd));
    return s;
}
int64_t offset(const H& t) {
    int64_t o = -1;
    ok(ct_tensor_offset(t.get(), &o));
    return o;
}
bool shares(const H& a, const H& b) {
    int32_t s = -1;
    ok(ct_tensor_shares_storage(a.get(), b.get(), &s));
    return s == 1;
}
bool contiguous(const H& t) {
    int32_t c = -1;
    ok(ct_tensor_is_contiguous(t.get(), &c));
    return c == 1;
}
H arange(int64_t n, ct_dtype dt = CT_FLOAT64) {
    H out;
    ok(ct_arange(0, (double)n, 1, dt, test_device(), out.out()));
    return out;
}
H reshape(const H& t, Shape s) {
    H out;
    ok(ct_reshape(t.get(), s.data(), (int32_t)s.size(), out.out()));
    return out;
}
H transpose(const H& t, int64_t a, int64_t b) {
    H out;
    ok(ct_transpose(t.get(), a, b, out.out()));
    return out;
}
using F = std::function<H(const std::vector<H>&)>;
}  // namespace

TEST(Views, ReshapeAndView) {
    for_each_device([&] {
        H x = arange(24);
        H r = reshape(x, {2, -1, 4});
        EXPECT_EQ(shape(r), (Shape{2, 3, 4}));
        EXPECT_EQ(strides(r), (Shape{12, 4, 1}));
        EXPECT_TRUE(shares(r, x));
        H v;
        int64_t s[2] = {-1, 6};
        CT_ASSERT_OK(ct_view(r.get(), s, 2, v.out()));
        EXPECT_EQ(shape(v), (Shape{4, 6}));
        EXPECT_TRUE(shares(v, x));
        // reshape of a transposed tensor must copy; view refuses
        H t = transpose(reshape(x, {4, 6}), 0, 1);
        H rt = reshape(t, {24});
        EXPECT_FALSE(shares(rt, x));
        std::vector<double> expected;
        for (int j = 0; j < 6; ++j)
            for (int i = 0; i < 4; ++i) expected.push_back(i * 6 + j);
        EXPECT_TRUE(allclose(rt, expected));
        int64_t flat[1] = {24};
        CT_EXPECT_ERR(ct_view(t.get(), flat, 1, v.out()), CT_ERR_SHAPE, "use reshape");
        // a view that only splits or merges compatible dims of a non-contiguous tensor works
        H n;
        CT_ASSERT_OK(ct_narrow(reshape(x, {4, 6}).get(), 1, 1, 3, n.out()));  // [4, 3], strides [6, 1]
        int64_t split[3] = {2, 2, 3};
        CT_ASSERT_OK(ct_view(n.get(), split, 3, v.out()));
        EXPECT_EQ(strides(v), (Shape{12, 6, 1}));
        EXPECT_EQ(offset(v), 1);
        EXPECT_TRUE(allclose(v, {1, 2, 3, 7, 8, 9, 13, 14, 15, 19, 20, 21}));
        int64_t merge[1] = {12};
        CT_EXPECT_ERR(ct_view(n.get(), merge, 1, v.out()), CT_ERR_SHAPE, "not compatible");
        // size-1 dims anywhere, 0-d and empty
        H one = reshape(x, {1, 24, 1});
        EXPECT_EQ(shape(one), (Shape{1, 24, 1}));
        H s0 = reshape(make({5}, {1}), {});
        EXPECT_EQ(shape(s0), Shape{});
        int64_t ed[2] = {0, 4};
        H e, e2;
        CT_ASSERT_OK(ct_zeros(ed, 2, CT_FLOAT32, test_device(), e.out()));
        int64_t es[3] = {2, -1, 0};
        CT_EXPECT_ERR(ct_reshape(e.get(), es, 3, e2.out()), CT_ERR_SHAPE, "invalid");  // -1 is ambiguous with 0
        int64_t es2[2] = {4, 0};
        CT_ASSERT_OK(ct_reshape(e.get(), es2, 2, e2.out()));
        EXPECT_EQ(shape(e2), (Shape{4, 0}));
    });
}

TEST(Views, ReshapeErrors) {
    for_each_device([&] {
        H x = arange(6), r;
        int64_t bad[2] = {4, -1}, two[2] = {-1, -1}, neg[2] = {-2, 3}, big[2] = {2, 4};
        CT_EXPECT_ERR(ct_reshape(x.get(), bad, 2, r.out()), CT_ERR_SHAPE, "[4, -1] is invalid for input of shape [6]");
        CT_EXPECT_ERR(ct_reshape(x.get(), two, 2, r.out()), CT_ERR_SHAPE, "only one dimension can be -1");
        CT_EXPECT_ERR(ct_reshape(x.get(), neg, 2, r.out()), CT_ERR_SHAPE, "invalid size -2");
        CT_EXPECT_ERR(ct_view(x.get(), big, 2, r.out()), CT_ERR_SHAPE, "6 elements");
        CT_EXPECT_ERR(ct_reshape(x.get(), nullptr, 2, r.out()), CT_ERR_INVALID_ARGUMENT, "reshape");
        EXPECT_FALSE(r);
    });
}

TEST(Views, TransposePermuteAndT) {
    for_each_device([&] {
        H x = reshape(arange(24), {2, 3, 4});
        H t = transpose(x, 0, -1);
        EXPECT_EQ(shape(t), (Shape{4, 3, 2}));
        EXPECT_EQ(strides(t), (Shape{1, 4, 12}));
        EXPECT_TRUE(shares(t, x));
        EXPECT_FALSE(contiguous(t));
        H p;
        int64_t perm[3] = {1, 2, 0};
        CT_ASSERT_OK(ct_permute(x.get(), perm, 3, p.out()));
        EXPECT_EQ(shape(p), (Shape{3, 4, 2}));
        EXPECT_EQ(strides(p), (Shape{4, 1, 12}));
        std::vector<double> expected;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 2; ++k) expected.push_back(k * 12 + i * 4 + j);
        EXPECT_TRUE(allclose(p, expected));
        int64_t negperm[3] = {-1, 0, 1}, rep[3] = {0, 0, 1}, shortp[2] = {0, 1}, oob[3] = {0, 1, 3};
        CT_ASSERT_OK(ct_permute(x.get(), negperm, 3, p.out()));
        EXPECT_EQ(shape(p), (Shape{4, 2, 3}));
        CT_EXPECT_ERR(ct_permute(x.get(), rep, 3, p.out()), CT_ERR_INVALID_ARGUMENT, "repeats");
        CT_EXPECT_ERR(ct_permute(x.get(), shortp, 2, p.out()), CT_ERR_SHAPE, "rank 3");
        CT_EXPECT_ERR(ct_permute(x.get(), oob, 3, p.out()), CT_ERR_INDEX, "dim 3");
        CT_EXPECT_ERR(ct_transpose(x.get(), 0, 3, t.out()), CT_ERR_INDEX, "transpose");
        H m = reshape(arange(6), {2, 3}), mt;
        CT_ASSERT_OK(ct_t(m.get(), mt.out()));
        EXPECT_EQ(shape(mt), (Shape{3, 2}));
        EXPECT_TRUE(allclose(mt, {0, 3, 1, 4, 2, 5}));
        CT_EXPECT_ERR(ct_t(x.get(), mt.out()), CT_ERR_SHAPE, "<= 2 dims");
        H v = arange(3), vt;
        CT_ASSERT_OK(ct_t(v.get(), vt.out()));
        EXPECT_EQ(shape(vt), (Shape{3}));
    });
}

TEST(Views, SqueezeUnsqueeze) {
    for_each_device([&] {
        H x = reshape(arange(6), {1, 2, 1, 3}), r;
        CT_ASSERT_OK(ct_squeeze(x.get(), 0, r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 1, 3}));
        CT_ASSERT_OK(ct_squeeze(x.get(), -2, r.out()));
        EXPECT_EQ(shape(r), (Shape{1, 2, 3}));
        CT_ASSERT_OK(ct_squeeze(x.get(), 1, r.out()));  // size 2: unchanged
        EXPECT_EQ(shape(r), (Shape{1, 2, 1, 3}));
        CT_ASSERT_OK(ct_squeeze_all(x.get(), r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 3}));
        EXPECT_TRUE(shares(r, x));
        CT_EXPECT_ERR(ct_squeeze(x.get(), 4, r.out()), CT_ERR_INDEX, "squeeze");
        H y = reshape(arange(6), {2, 3});
        CT_ASSERT_OK(ct_unsqueeze(y.get(), 0, r.out()));
        EXPECT_EQ(shape(r), (Shape{1, 2, 3}));
        CT_ASSERT_OK(ct_unsqueeze(y.get(), -1, r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 3, 1}));
        EXPECT_EQ(strides(r), (Shape{3, 1, 1}));
        CT_ASSERT_OK(ct_unsqueeze(y.get(), 1, r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 1, 3}));
        CT_ASSERT_OK(ct_unsqueeze(y.get(), -3, r.out()));
        EXPECT_EQ(shape(r), (Shape{1, 2, 3}));
        CT_EXPECT_ERR(ct_unsqueeze(y.get(), 3, r.out()), CT_ERR_INDEX, "[-3, 2]");
        CT_EXPECT_ERR(ct_unsqueeze(y.get(), -4, r.out()), CT_ERR_INDEX, "unsqueeze");
        H s = make({7}, {});
        CT_ASSERT_OK(ct_unsqueeze(s.get(), 0, r.out()));
        EXPECT_EQ(shape(r), (Shape{1}));
        H r0;
        CT_ASSERT_OK(ct_squeeze_all(r.get(), r0.out()));
        EXPECT_EQ(shape(r0), Shape{});
    });
}

TEST(Views, Expand) {
    for_each_device([&] {
        H x = make({1, 2, 3}, {3, 1}), e;
        int64_t s1[3] = {2, 3, 4};
        CT_ASSERT_OK(ct_expand(x.get(), s1, 3, e.out()));
        EXPECT_EQ(shape(e), (Shape{2, 3, 4}));
        EXPECT_EQ(strides(e), (Shape{0, 1, 0}));
        EXPECT_TRUE(shares(e, x));
        std::vector<double> expected;
        for (int a = 0; a < 2; ++a)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 4; ++j) expected.push_back(i + 1);
        EXPECT_TRUE(allclose(e, expected));
        int64_t keep[2] = {-1, 5};
        CT_ASSERT_OK(ct_expand(x.get(), keep, 2, e.out()));
        EXPECT_EQ(shape(e), (Shape{3, 5}));
        int64_t bad[2] = {4, 5}, fewer[1] = {3}, newneg[3] = {-1, 3, 1};
        CT_EXPECT_ERR(ct_expand(x.get(), bad, 2, e.out()), CT_ERR_SHAPE, "cannot expand shape [3, 1] to [4, 5]");
        CT_EXPECT_ERR(ct_expand(x.get(), fewer, 1, e.out()), CT_ERR_SHAPE, "fewer dims");
        CT_EXPECT_ERR(ct_expand(x.get(), newneg, 3, e.out()), CT_ERR_SHAPE, "-1");
        // contiguous() of an expanded view materialises it
        H c;
        CT_ASSERT_OK(ct_expand(x.get(), s1, 3, e.out()));
        CT_ASSERT_OK(ct_contiguous(e.get(), c.out()));
        EXPECT_FALSE(shares(c, x));
        EXPECT_TRUE(contiguous(c));
        EXPECT_TRUE(allclose(c, expected));
    });
}

TEST(Views, Flatten) {
    for_each_device([&] {
        H x = reshape(arange(24), {2, 3, 4}), f;
        CT_ASSERT_OK(ct_flatten(x.get(), 0, -1, f.out()));
        EXPECT_EQ(shape(f), (Shape{24}));
        EXPECT_TRUE(shares(f, x));
        CT_ASSERT_OK(ct_flatten(x.get(), 1, 2, f.out()));
        EXPECT_EQ(shape(f), (Shape{2, 12}));
        CT_ASSERT_OK(ct_flatten(x.get(), 0, 1, f.out()));
        EXPECT_EQ(shape(f), (Shape{6, 4}));
        CT_ASSERT_OK(ct_flatten(x.get(), 1, 1, f.out()));
        EXPECT_EQ(shape(f), (Shape{2, 3, 4}));
        CT_EXPECT_ERR(ct_flatten(x.get(), 2, 1, f.out()), CT_ERR_INVALID_ARGUMENT, "start_dim");
        CT_EXPECT_ERR(ct_flatten(x.get(), 0, 3, f.out()), CT_ERR_INDEX, "flatten");
        H t = transpose(x, 0, 2);  // [4, 3, 2] non-contiguous: flatten copies
        CT_ASSERT_OK(ct_flatten(t.get(), 0, -1, f.out()));
        EXPECT_FALSE(shares(f, x));
        H s = make({3}, {});
        CT_ASSERT_OK(ct_flatten(s.get(), 0, -1, f.out()));
        EXPECT_EQ(shape(f), (Shape{1}));
    });
}

TEST(Views, NarrowSliceSelect) {
    for_each_device([&] {
        H x = reshape(arange(20), {4, 5}), r;
        CT_ASSERT_OK(ct_narrow(x.get(), 1, 1, 3, r.out()));
        EXPECT_EQ(shape(r), (Shape{4, 3}));
        EXPECT_EQ(offset(r), 1);
        EXPECT_TRUE(allclose(r, {1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 18}));
        CT_ASSERT_OK(ct_narrow(x.get(), 0, -2, 2, r.out()));
        EXPECT_TRUE(allclose(r, {10, 11, 12, 13, 14, 15, 16, 17, 18, 19}));
        CT_EXPECT_ERR(ct_narrow(x.get(), 0, 3, 2, r.out()), CT_ERR_INDEX, "out of range");
        CT_ASSERT_OK(ct_slice(x.get(), 1, 0, 5, 2, r.out()));  // columns 0, 2, 4
        EXPECT_EQ(shape(r), (Shape{4, 3}));
        EXPECT_EQ(strides(r), (Shape{5, 2}));
        EXPECT_TRUE(allclose(r, {0, 2, 4, 5, 7, 9, 10, 12, 14, 15, 17, 19}));
        CT_ASSERT_OK(ct_slice(x.get(), 1, -4, 100, 3, r.out()));  // Python x[:, -4:100:3] -> columns 1, 4
        EXPECT_TRUE(allclose(r, {1, 4, 6, 9, 11, 14, 16, 19}));
        CT_ASSERT_OK(ct_slice(x.get(), 0, 3, 1, 1, r.out()));  // empty
        EXPECT_EQ(shape(r), (Shape{0, 5}));
        CT_ASSERT_OK(ct_slice(x.get(), 0, -100, -2, 1, r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 5}));
        CT_EXPECT_ERR(ct_slice(x.get(), 0, 0, 4, 0, r.out()), CT_ERR_INVALID_ARGUMENT, "step");
        CT_EXPECT_ERR(ct_slice(x.get(), 2, 0, 4, 1, r.out()), CT_ERR_INDEX, "slice");
        CT_ASSERT_OK(ct_select(x.get(), 1, -1, r.out()));
        EXPECT_EQ(shape(r), (Shape{4}));
        EXPECT_EQ(offset(r), 4);
        EXPECT_TRUE(allclose(r, {4, 9, 14, 19}));
        H r0;
        CT_ASSERT_OK(ct_select(r.get(), 0, 2, r0.out()));
        EXPECT_EQ(shape(r0), Shape{});
        EXPECT_EQ(scalar(r0), 14);
        CT_EXPECT_ERR(ct_select(x.get(), 0, 4, r.out()), CT_ERR_INDEX, "index 4 is out of range");
        CT_EXPECT_ERR(ct_select(x.get(), 0, -5, r.out()), CT_ERR_INDEX, "select");
        H s = make({1}, {});
        CT_EXPECT_ERR(ct_select(s.get(), 0, 0, r.out()), CT_ERR_INDEX, "0-d");
        // views of views compose offsets and strides
        H a, b;
        CT_ASSERT_OK(ct_slice(x.get(), 0, 1, 4, 2, a.out()));  // rows 1, 3
        CT_ASSERT_OK(ct_slice(a.get(), 1, 1, 5, 3, b.out()));  // columns 1, 4
        EXPECT_EQ(offset(b), 6);
        EXPECT_EQ(strides(b), (Shape{10, 3}));
        EXPECT_TRUE(allclose(b, {6, 9, 16, 19}));
        EXPECT_TRUE(shares(b, x));
    });
}

TEST(Views, ContiguousCopiesOnlyWhenNeeded) {
    for_each_device([&] {
        H x = reshape(arange(6), {2, 3}), c;
        CT_ASSERT_OK(ct_contiguous(x.get(), c.out()));
        EXPECT_TRUE(shares(c, x));
        H t = transpose(x, 0, 1);
        CT_ASSERT_OK(ct_contiguous(t.get(), c.out()));
        EXPECT_FALSE(shares(c, x));
        EXPECT_TRUE(contiguous(c));
        EXPECT_TRUE(allclose(c, {0, 3, 1, 4, 2, 5}));
        H s;  // a row slice is contiguous; a column slice is not
        CT_ASSERT_OK(ct_select(x.get(), 0, 1, s.out()));
        CT_ASSERT_OK(ct_contiguous(s.get(), c.out()));
        EXPECT_TRUE(shares(c, x));
        CT_ASSERT_OK(ct_select(x.get(), 1, 1, s.out()));
        EXPECT_FALSE(contiguous(s));
        CT_ASSERT_OK(ct_contiguous(s.get(), c.out()));
        EXPECT_FALSE(shares(c, x));
        EXPECT_TRUE(allclose(c, {1, 4}));
        H cl;
        CT_ASSERT_OK(ct_clone(x.get(), cl.out()));
        EXPECT_FALSE(shares(cl, x));
        H d;
        CT_ASSERT_OK(ct_detach(x.get(), d.out()));
        EXPECT_TRUE(shares(d, x));
    });
}

TEST(Views, ViewsAliasTheirBase) {
    H x = reshape(arange(6), {2, 3}), t = transpose(x, 0, 1);
    void* p = nullptr;
    CT_ASSERT_OK(ct_tensor_data_ptr(x.get(), &p));
    static_cast<double*>(p)[1] = 100;  // x[0][1]
    EXPECT_TRUE(allclose(t, {0, 3, 100, 4, 2, 5}));
}

TEST(Views, GradchecksThroughEveryViewOp) {
    for_each_device([&] {
        H x = randt({2, 3, 4}, 1);
        std::vector<std::pair<const char*, F>> cases = {
            {"reshape", [](const std::vector<H>& in) { return reshape(in[0], {4, -1}); }},
            {"reshape_copy", [](const std::vector<H>& in) { return reshape(transpose(in[0], 0, 2), {-1}); }},
            {"view", [](const std::vector<H>& in) { H r; int64_t s[2] = {6, 4}; ok(ct_view(in[0].get(), s, 2, r.out())); return r; }},
            {"transpose", [](const std::vector<H>& in) { return transpose(in[0], 0, 2); }},
            {"permute", [](const std::vector<H>& in) { H r; int64_t p[3] = {2, 0, 1}; ok(ct_permute(in[0].get(), p, 3, r.out())); return r; }},
            {"squeeze", [](const std::vector<H>& in) { H r; ok(ct_squeeze(reshape(in[0], {2, 1, 12}).get(), 1, r.out())); return r; }},
            {"squeeze_all", [](const std::vector<H>& in) { H r; ok(ct_squeeze_all(reshape(in[0], {1, 24, 1}).get(), r.out())); return r; }},
            {"unsqueeze", [](const std::vector<H>& in) { H r; ok(ct_unsqueeze(in[0].get(), -2, r.out())); return r; }},
            {"expand", [](const std::vector<H>& in) {
                 H s, r;
                 ok(ct_slice(in[0].get(), 2, 0, 1, 1, s.out()));  // [2, 3, 1]
                 int64_t e[4] = {3, 2, 3, 5};
                 ok(ct_expand(s.get(), e, 4, r.out()));
                 return r;
             }},
            {"flatten", [](const std::vector<H>& in) { H r; ok(ct_flatten(in[0].get(), 1, 2, r.out())); return r; }},
            {"narrow", [](const std::vector<H>& in) { H r; ok(ct_narrow(in[0].get(), 2, 1, 2, r.out())); return r; }},
            {"slice_step", [](const std::vector<H>& in) { H r; ok(ct_slice(in[0].get(), 2, -4, 4, 2, r.out())); return r; }},
            {"select", [](const std::vector<H>& in) { H r; ok(ct_select(in[0].get(), 1, -1, r.out())); return r; }},
            {"contiguous", [](const std::vector<H>& in) { H r; ok(ct_contiguous(transpose(in[0], 1, 2).get(), r.out())); return r; }},
            {"clone", [](const std::vector<H>& in) { H r; ok(ct_clone(in[0].get(), r.out())); return r; }},
            {"t", [](const std::vector<H>& in) { H s, r; ok(ct_select(in[0].get(), 0, 1, s.out())); ok(ct_t(s.get(), r.out())); return r; }},
            {"to_float32_and_back", [](const std::vector<H>& in) {
                 H a, b;
                 ok(ct_to_dtype(in[0].get(), CT_FLOAT32, a.out()));
                 ok(ct_to_dtype(a.get(), CT_FLOAT64, b.out()));
                 return b;
             }},
            {"chain", [](const std::vector<H>& in) {
                 H a, b, c;
                 ok(ct_slice(transpose(in[0], 0, 1).get(), 0, 1, 3, 1, a.out()));  // [2, 2, 4]
                 ok(ct_select(a.get(), 2, 0, b.out()));
                 ok(ct_mul(b.get(), b.get(), c.out()));
                 return c;
             }},
        };
        for (auto& c : cases) {
            SCOPED_TRACE(c.first);
            // float32 round trip loses precision: looser tolerance there
            bool lossy = std::string(c.first) == "to_float32_and_back";
            EXPECT_TRUE(gradcheck(c.second, {x}, lossy ? 1e-3 : 1e-6, lossy ? 1e-3 : 1e-5, 1e-3));
        }
    });
}

TEST(Views, DoubleBackwardThroughSliceAndSelect) {
    for_each_device([&] {
        H x = randt({3, 4}, 2);
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) {
            H a, b, c;
            ok(ct_slice(in[0].get(), 1, 0, 4, 2, a.out()));
            ok(ct_mul(a.get(), a.get(), b.out()));
            ok(ct_select(b.get(), 0, 1, c.out()));
            H d;
            ok(ct_mul(c.get(), c.get(), d.out()));
            return d;
        }, {x}));
    });
}

TEST(Views, DetachCutsTheGraph) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true), d;
        CT_ASSERT_OK(ct_detach(x.get(), d.out()));
        int32_t rg = 1;
        CT_ASSERT_OK(ct_tensor_requires_grad(d.get(), &rg));
        EXPECT_EQ(rg, 0);
        H r;
        CT_ASSERT_OK(ct_reshape(x.get(), std::vector<int64_t>{2, 1}.data(), 2, r.out()));
        char name[64];
        CT_ASSERT_OK(ct_tensor_grad_fn_name(r.get(), name, sizeof name, nullptr));
        EXPECT_STREQ(name, "ViewBackward");
    });
}

TEST(Views, DiagonalValuesStridesAndOffsets) {
    for_each_device([&] {
        H m = reshape(arange(12), {3, 4});  // m[i][j] = 4i + j
        const struct {
            int64_t offset;
            std::vector<double> expect;
        } cases[] = {{0, {0, 5, 10}}, {1, {1, 6, 11}}, {3, {3}}, {4, {}}, {-1, {4, 9}}, {-2, {8}}, {-3, {}}, {9, {}}};
        for (auto& c : cases) {
            H d;
            CT_ASSERT_OK(ct_diagonal(m.get(), c.offset, 0, 1, d.out()));
            EXPECT_EQ(shape(d), (Shape{(int64_t)c.expect.size()})) << "offset " << c.offset;
            EXPECT_EQ(values(d), c.expect) << "offset " << c.offset;
            EXPECT_TRUE(shares(d, m));
            if (!c.expect.empty()) EXPECT_EQ(strides(d), (Shape{5}));
        }
        H rev;  // dims swapped: the diagonal of the transpose
        CT_ASSERT_OK(ct_diagonal(m.get(), 1, 1, 0, rev.out()));
        EXPECT_EQ(values(rev), (std::vector<double>{4, 9}));
        // batched: x[b][i][j] = 12b + 4i + j; diagonal of dims (-1, 0) keeps dim 1 and appends the diagonal
        H x = reshape(arange(24), {2, 3, 4}), bd, last;
        CT_ASSERT_OK(ct_diagonal(x.get(), 0, -1, 0, bd.out()));
        EXPECT_EQ(shape(bd), (Shape{3, 2}));
        EXPECT_EQ(values(bd), (std::vector<double>{0, 13, 4, 17, 8, 21}));  // x[k][i][k] for i, k
        CT_ASSERT_OK(ct_diagonal(x.get(), -1, 1, 2, last.out()));
        EXPECT_EQ(shape(last), (Shape{2, 2}));
        EXPECT_EQ(values(last), (std::vector<double>{4, 9, 16, 21}));  // x[b][i+1][i]
        // a view: writing through it changes the base
        H d;
        CT_ASSERT_OK(ct_diagonal(m.get(), -1, 0, 1, d.out()));
        CT_ASSERT_OK(ct_fill_(d.get(), -1.0));
        EXPECT_EQ(values(m), (std::vector<double>{0, 1, 2, 3, -1, 5, 6, 7, 8, -1, 10, 11}));
    });
}

TEST(Views, DiagonalGradientsAndErrors) {
    for_each_device([&] {
        for (int64_t offset : {0, 1, -2}) {
            auto f = [offset](const std::vector<H>& in) {
                H d, sq;
                ok(ct_diagonal(in[0].get(), offset, 2, 0, d.out()));
                ok(ct_mul(d.get(), d.get(), sq.out()));
                return sq;
            };
            EXPECT_TRUE(gradcheck(f, {randt({4, 2, 3}, 11)})) << "offset " << offset;
            EXPECT_TRUE(gradgradcheck(f, {randt({4, 2, 3}, 12)})) << "offset " << offset;
        }
        H v = arange(3), m = reshape(arange(6), {2, 3}), out;
        CT_EXPECT_ERR(ct_diagonal(v.get(), 0, 0, 1, out.out()), CT_ERR_SHAPE,
                      "diagonal: expected a tensor with at least 2 dims, got [3]");
        CT_EXPECT_ERR(ct_diagonal(m.get(), 0, 1, -1, out.out()), CT_ERR_INVALID_ARGUMENT,
                      "diagonal: dim1 and dim2 must differ, both are 1");
        CT_EXPECT_ERR(ct_diagonal(m.get(), 0, 0, 2, out.out()), CT_ERR_INDEX, "diagonal");
        CT_EXPECT_ERR(ct_diagonal(nullptr, 0, 0, 1, out.out()), CT_ERR_INVALID_HANDLE, "diagonal");
        CT_EXPECT_ERR(ct_diagonal(m.get(), 0, 0, 1, nullptr), CT_ERR_INVALID_ARGUMENT, "diagonal");
    });
}

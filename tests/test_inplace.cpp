// test_inplace.cpp - in-place ops through the C API: values, version counters shared by views, autograd
// rules (saved tensors modified in place, leaves, history rebase with gradchecks, writes through views
// recorded on the base as CopySlices), writes into
// slice/select views, overlapping sources, dtype rules and errors.
#include "ct_test.h"

using namespace ctt;

namespace {
int64_t version(const H& t) {
    int64_t v = -1;
    ok(ct_tensor_version(t.get(), &v));
    return v;
}
H slice(const H& t, int64_t dim, int64_t start, int64_t end, int64_t step) {
    H out;
    ok(ct_slice(t.get(), dim, start, end, step, out.out()));
    return out;
}
H select(const H& t, int64_t dim, int64_t index) {
    H out;
    ok(ct_select(t.get(), dim, index, out.out()));
    return out;
}
H mul_scalar(const H& t, double s) {
    H w, out;
    ok(ct_wrapped_scalar(s, 0, w.out()));
    ok(ct_mul(t.get(), w.get(), out.out()));
    return out;
}
struct NoGrad {
    int32_t prev = 0;
    NoGrad() { ct_set_grad_enabled(0, &prev); }
    ~NoGrad() { ct_set_grad_enabled(prev, nullptr); }
};
}  // namespace

TEST(Inplace, Values) {
    for_each_device([&] {
        H x = make({1, 2, 3, 4, 5, 6}, {2, 3});
        CT_ASSERT_OK(ct_add_(x.get(), make({10, 20, 30}, {3}).get(), 2.0));
        EXPECT_TRUE(allclose(x, {21, 42, 63, 24, 45, 66}));
        CT_ASSERT_OK(ct_sub_(x.get(), make({1, 2}, {2, 1}).get(), 1.0));
        EXPECT_TRUE(allclose(x, {20, 41, 62, 22, 43, 64}));
        CT_ASSERT_OK(ct_mul_(x.get(), make({0.5}, {}).get()));
        EXPECT_TRUE(allclose(x, {10, 20.5, 31, 11, 21.5, 32}));
        CT_ASSERT_OK(ct_div_(x.get(), make({2, 4, 8}, {3}).get()));
        EXPECT_TRUE(allclose(x, {5, 5.125, 3.875, 5.5, 5.375, 4}));
        CT_ASSERT_OK(ct_clamp_(x.get(), 4, 1, 5.2, 1));
        EXPECT_TRUE(allclose(x, {5, 5.125, 4, 5.2, 5.2, 4}));
        CT_ASSERT_OK(ct_fill_(x.get(), -1.5));
        EXPECT_TRUE(allclose(x, {-1.5, -1.5, -1.5, -1.5, -1.5, -1.5}));
        CT_ASSERT_OK(ct_zero_(x.get()));
        EXPECT_TRUE(allclose(x, {0, 0, 0, 0, 0, 0}));
        CT_ASSERT_OK(ct_copy_(x.get(), make({1, 2, 3}, {1, 3}).get()));
        EXPECT_TRUE(allclose(x, {1, 2, 3, 1, 2, 3}));
        CT_ASSERT_OK(ct_copy_(x.get(), make({7, 8, 9}, {1, 1, 3}).get()));  // extra leading size-1 dims are fine
        EXPECT_TRUE(allclose(x, {7, 8, 9, 7, 8, 9}));
        // self-aliasing operands read the old values
        CT_ASSERT_OK(ct_mul_(x.get(), x.get()));
        EXPECT_TRUE(allclose(x, {49, 64, 81, 49, 64, 81}));
    });
}

TEST(Inplace, VersionCounterIsSharedByViews) {
    for_each_device([&] {
        H x = make({1, 2, 3, 4}, {2, 2});
        EXPECT_EQ(version(x), 0);
        CT_ASSERT_OK(ct_add_(x.get(), x.get(), 1.0));
        EXPECT_EQ(version(x), 1);
        H row = select(x, 0, 1), t;
        CT_ASSERT_OK(ct_transpose(x.get(), 0, 1, t.out()));
        EXPECT_EQ(version(row), 1);
        CT_ASSERT_OK(ct_fill_(row.get(), 0));
        EXPECT_EQ(version(x), 2);
        EXPECT_EQ(version(t), 2);
        CT_ASSERT_OK(ct_zero_(t.get()));
        CT_ASSERT_OK(ct_copy_(t.get(), x.get()));
        CT_ASSERT_OK(ct_clamp_(x.get(), 0, 1, 0, 0));
        EXPECT_EQ(version(row), 5);
        // out-of-place ops do not bump; a clone has its own counter
        H y, c;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_ASSERT_OK(ct_clone(x.get(), c.out()));
        EXPECT_EQ(version(x), 5);
        CT_ASSERT_OK(ct_fill_(c.get(), 1));
        EXPECT_EQ(version(x), 5);
        EXPECT_EQ(version(c), 1);
    });
}

TEST(Inplace, ModifyingASavedTensorFailsBackward) {
    for_each_device([&] {
        H x = make({1, 2, 3}, {3}, CT_FLOAT64, true);
        H y = mul_scalar(x, 2.0), z, l;
        CT_ASSERT_OK(ct_mul(y.get(), y.get(), z.out()));  // saves y
        CT_ASSERT_OK(ct_add_(y.get(), make({1}, {1}).get(), 1.0));
        CT_ASSERT_OK(ct_sum(z.get(), nullptr, 0, 0, l.out()));
        CT_EXPECT_ERR(ct_backward(l.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "modified by an in-place operation");
        EXPECT_NE(std::string(ct_last_error()).find("MulBackward"), std::string::npos) << ct_last_error();
        // saved outputs too (exp saves its result)
        H e, l2;
        CT_ASSERT_OK(ct_exp(x.get(), e.out()));
        CT_ASSERT_OK(ct_mul_(e.get(), make({2}, {1}).get()));
        CT_ASSERT_OK(ct_sum(e.get(), nullptr, 0, 0, l2.out()));
        CT_EXPECT_ERR(ct_backward(l2.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "ExpBackward");
        // modifying a view of the saved tensor counts as well
        H w = mul_scalar(x, 1.0), s, l3;
        CT_ASSERT_OK(ct_sin(w.get(), s.out()));
        {
            NoGrad ng;
            CT_ASSERT_OK(ct_fill_(select(w, 0, 0).get(), 5));
        }
        CT_ASSERT_OK(ct_sum(s.get(), nullptr, 0, 0, l3.out()));
        CT_EXPECT_ERR(ct_backward(l3.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "SinBackward");
    });
}

TEST(Inplace, LeafRequiringGradIsRefused) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        CT_EXPECT_ERR(ct_add_(x.get(), x.get(), 1.0), CT_ERR_AUTOGRAD, "leaf");
        CT_EXPECT_ERR(ct_fill_(x.get(), 0), CT_ERR_AUTOGRAD, "leaf");
        CT_EXPECT_ERR(ct_copy_(x.get(), make({3, 4}, {2}).get()), CT_ERR_AUTOGRAD, "leaf");
        CT_EXPECT_ERR(ct_clamp_(x.get(), 0, 1, 0, 0), CT_ERR_AUTOGRAD, "leaf");
        EXPECT_TRUE(allclose(x, {1, 2}));  // untouched
        EXPECT_EQ(version(x), 0);
        {
            NoGrad ng;  // allowed without grad mode (e.g. an optimizer step)
            CT_ASSERT_OK(ct_sub_(x.get(), make({0.5, 0.5}, {2}).get(), 2.0));
        }
        EXPECT_TRUE(allclose(x, {0, 1}));
        int32_t leaf = 0;
        CT_ASSERT_OK(ct_tensor_is_leaf(x.get(), &leaf));
        EXPECT_EQ(leaf, 1);
    });
}

TEST(Inplace, NonLeafHistoryIsRebased) {
    for_each_device([&] {
        H x = randt({2, 3}, 1), b = randt({3}, 2), c = randt({2, 1}, 3, true, 0.5, 2.0);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H y = mul_scalar(in[0], 1.5);
            ok(ct_mul_(y.get(), in[1].get()));
            ok(ct_add_(y.get(), in[0].get(), -2.0));
            ok(ct_div_(y.get(), in[2].get()));
            ok(ct_sub_(y.get(), in[1].get(), 0.5));
            ok(ct_mul_(y.get(), y.get()));
            ok(ct_clamp_(y.get(), -0.8, 1, 0.9, 1));
            return y;
        }, {x, b, c}));
        char name[64];
        H y = mul_scalar(x, 1.0);
        CT_ASSERT_OK(ct_mul_(y.get(), b.get()));
        CT_ASSERT_OK(ct_tensor_grad_fn_name(y.get(), name, sizeof name, nullptr));
        EXPECT_STREQ(name, "MulBackward");
        EXPECT_EQ(version(y), 1);
    });
}

TEST(Inplace, DestinationWithoutGradGainsHistory) {
    for_each_device([&] {
        H w = randt({3}, 4);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H buf = make({1, 2, 3}, {3});
            ok(ct_mul_(buf.get(), in[0].get()));
            ok(ct_add_(buf.get(), in[0].get(), 1.0));
            return buf;
        }, {w}));
    });
}

TEST(Inplace, CopyFillAndZeroGradients) {
    for_each_device([&] {
        H x = randt({2, 3}, 5), s = randt({3}, 6);
        // copy_: the overwritten values get no gradient, the source gets it summed over broadcast dims
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H y = mul_scalar(in[0], 2.0), z;
            ok(ct_copy_(y.get(), in[1].get()));
            ok(ct_mul(y.get(), in[0].get(), z.out()));
            return z;
        }, {x, s}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H y = mul_scalar(in[0], 2.0), z;
            ok(ct_fill_(y.get(), 3.0));
            ok(ct_add(y.get(), in[0].get(), 1.0, z.out()));
            return z;
        }, {x}));
        // a non-leaf overwritten by a constant still requires grad (zero gradient), like PyTorch
        H y = mul_scalar(x, 2.0), l, g;
        CT_ASSERT_OK(ct_copy_(y.get(), make({1, 2, 3}, {3}).get()));
        int32_t rg = 0;
        CT_ASSERT_OK(ct_tensor_requires_grad(y.get(), &rg));
        EXPECT_EQ(rg, 1);
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0, 0, 0, 0, 0, 0}));
    });
}

TEST(Inplace, CopyIntoSliceAndSelectViewsWritesTheBase) {
    for_each_device([&] {
        H base;
        int64_t dims[2] = {3, 4};
        CT_ASSERT_OK(ct_zeros(dims, 2, CT_FLOAT32, test_device(), base.out()));
        H cols = slice(base, 1, 1, 4, 2);  // columns 1 and 3
        CT_ASSERT_OK(ct_copy_(cols.get(), make({1, 2, 3, 4, 5, 6}, {3, 2}).get()));
        EXPECT_TRUE(allclose(base, {0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6}));
        H row = select(base, 0, -1);
        CT_ASSERT_OK(ct_copy_(row.get(), make({9}, {1}, CT_INT64).get()));  // broadcast + dtype conversion
        EXPECT_TRUE(allclose(base, {0, 1, 0, 2, 0, 3, 0, 4, 9, 9, 9, 9}));
        H col = select(base, 1, 0);
        CT_ASSERT_OK(ct_fill_(col.get(), -1));
        EXPECT_TRUE(allclose(base, {-1, 1, 0, 2, -1, 3, 0, 4, -1, 9, 9, 9}));
        H sub = slice(slice(base, 0, 0, 2, 1), 1, 2, 4, 1);
        CT_ASSERT_OK(ct_add_(sub.get(), make({100}, {}).get(), 1.0));
        EXPECT_TRUE(allclose(base, {-1, 1, 100, 102, -1, 3, 100, 104, -1, 9, 9, 9}));
        EXPECT_EQ(dtype(base), CT_FLOAT32);
    });
}

TEST(Inplace, OverlappingCopyReadsBeforeWriting) {
    for_each_device([&] {
        H x;
        CT_ASSERT_OK(ct_arange(0, 6, 1, CT_INT64, test_device(), x.out()));
        CT_ASSERT_OK(ct_copy_(slice(x, 0, 1, 6, 1).get(), slice(x, 0, 0, 5, 1).get()));
        EXPECT_TRUE(allclose(x, {0, 0, 1, 2, 3, 4}));
        H m = make({1, 2, 3, 4}, {2, 2}), mt;
        CT_ASSERT_OK(ct_transpose(m.get(), 0, 1, mt.out()));
        CT_ASSERT_OK(ct_copy_(m.get(), mt.get()));  // in-place transpose through copy_
        EXPECT_TRUE(allclose(m, {1, 3, 2, 4}));
    });
}

std::string grad_fn_name(const H& t) {
    char buf[64] = {0};
    ok(ct_tensor_grad_fn_name(t.get(), buf, sizeof buf, nullptr));
    return buf;
}

TEST(Inplace, WritesThroughViewsAreRecordedOnTheBase) {
    for_each_device([&] {
        // y = 2x; y[0:2] *= b; loss = sum(y * y): d/dx = 8x * b^2 on the slice, 8x outside; d/db = 8 x^2 b
        H x = make({1, 2, 3}, {3}, CT_FLOAT64, true), b = make({3, -1}, {2}, CT_FLOAT64, true);
        H y = mul_scalar(x, 2.0), v = slice(y, 0, 0, 2, 1);
        CT_ASSERT_OK(ct_mul_(v.get(), b.get()));
        EXPECT_EQ(grad_fn_name(y), "CopySlices");
        EXPECT_TRUE(allclose(y, {6, -4, 6}));
        H sq, l, gx, gb;
        CT_ASSERT_OK(ct_mul(y.get(), y.get(), sq.out()));
        CT_ASSERT_OK(ct_sum(sq.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), gx.out()));
        CT_ASSERT_OK(ct_tensor_grad(b.get(), gb.out()));
        EXPECT_TRUE(allclose(gx, {72, 16, 24}));
        EXPECT_TRUE(allclose(gb, {24, -32}));
        // the view itself follows the base's new history
        EXPECT_NE(grad_fn_name(v), "");
    });
}

TEST(Inplace, SliceAssignmentIntoAPlainBufferMakesItRequireGrad) {
    for_each_device([&] {
        // out = zeros(3); out[1] = sum(x); out[2:3] = x[0:1] * 3: out now requires grad (like PyTorch)
        H x = make({1, 2, 3}, {3}, CT_FLOAT64, true);
        H out = make({0, 0, 0}, {3}), s, x3;
        CT_ASSERT_OK(ct_sum(x.get(), nullptr, 0, 0, s.out()));
        CT_ASSERT_OK(ct_copy_(select(out, 0, 1).get(), s.get()));
        H part = mul_scalar(slice(x, 0, 0, 1, 1), 3.0);
        CT_ASSERT_OK(ct_copy_(slice(out, 0, 2, 3, 1).get(), part.get()));
        int32_t rg = 0;
        CT_ASSERT_OK(ct_tensor_requires_grad(out.get(), &rg));
        EXPECT_EQ(rg, 1);
        EXPECT_TRUE(allclose(out, {0, 6, 3}));
        H w = make({10, 20, 30}, {3}), p, l, g;
        CT_ASSERT_OK(ct_mul(out.get(), w.get(), p.out()));
        CT_ASSERT_OK(ct_sum(p.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {20 + 90, 20, 20}));
    });
}

TEST(Inplace, GradcheckThroughViewWrites) {
    for_each_device([&] {
        H a = randt({3, 4}, 11), b = randt({4}, 12), c = randt({2}, 13);
        auto f = [](const std::vector<H>& in) {
            H y = mul_scalar(in[0], 1.5), t, r;
            ok(ct_transpose(y.get(), 0, 1, t.out()));   // view of a view: column 1, rows 0..1 of y
            H col = slice(select(t, 0, 1), 0, 0, 2, 1);
            ok(ct_mul_(col.get(), in[2].get()));
            H row = select(y, 0, 2);
            ok(ct_add_(row.get(), in[1].get(), -2.0));
            ok(ct_clamp_(select(y, 0, 0).get(), -0.5, 1, 0.5, 1));
            ok(ct_mul(y.get(), y.get(), r.out()));
            return r;
        };
        EXPECT_TRUE(gradcheck(f, {a, b, c}));
        EXPECT_TRUE(gradgradcheck(f, {a, b, c}));
        // copy_ and fill_ through views: the overwritten region gets no gradient from its old values
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H y = mul_scalar(in[0], 1.0), r;
            ok(ct_copy_(slice(y, 1, 1, 3, 1).get(), in[1].get()));  // broadcast [2] into [3, 2]
            ok(ct_fill_(select(y, 0, 2).get(), 7.0));
            ok(ct_exp(y.get(), r.out()));
            return r;
        }, {a, c}));
    });
}

TEST(Inplace, ViewWritesAutogradCannotAllow) {
    for_each_device([&] {
        H x = make({1, 2, 3}, {3}, CT_FLOAT64, true);
        CT_EXPECT_ERR(ct_mul_(slice(x, 0, 0, 2, 1).get(), make({2}, {1}).get()), CT_ERR_AUTOGRAD,
                      "view (shape [2]) of a leaf tensor that requires grad");
        H y = mul_scalar(x, 1.0), v;
        {
            NoGrad ng;
            v = slice(y, 0, 0, 2, 1);
        }
        CT_EXPECT_ERR(ct_mul_(v.get(), make({2}, {1}, CT_FLOAT64, true).get()), CT_ERR_AUTOGRAD, "created under no_grad");
        // a detached tensor is not a view for autograd: writes to it are recorded on it alone
        H d, s;
        CT_ASSERT_OK(ct_detach(y.get(), d.out()));
        CT_ASSERT_OK(ct_sum(x.get(), nullptr, 0, 0, s.out()));
        CT_ASSERT_OK(ct_add_(d.get(), s.get(), 1.0));
        EXPECT_EQ(grad_fn_name(d), "AddBackward");
        EXPECT_EQ(grad_fn_name(y), "MulBackward");
    });
}

TEST(Inplace, DtypeRules) {
    for_each_device([&] {
        H i = make({1, 2}, {2}, CT_INT64), f = make({0.5, 0.5}, {2}, CT_FLOAT32);
        CT_EXPECT_ERR(ct_add_(i.get(), f.get(), 1.0), CT_ERR_DTYPE, "float32 cannot be cast to the destination dtype int64");
        H w;
        CT_ASSERT_OK(ct_wrapped_scalar(1.5, 0, w.out()));
        CT_EXPECT_ERR(ct_mul_(i.get(), w.get()), CT_ERR_DTYPE, "int64");
        CT_EXPECT_ERR(ct_div_(i.get(), i.get()), CT_ERR_DTYPE, "div_");
        CT_EXPECT_ERR(ct_clamp_(i.get(), 0.5, 1, 0, 0), CT_ERR_DTYPE, "clamp_");
        CT_ASSERT_OK(ct_clamp_(i.get(), 2, 1, 0, 0));
        EXPECT_TRUE(allclose(i, {2, 2}));
        EXPECT_EQ(dtype(i), CT_INT64);
        // lower categories and narrower types of the same category are cast into the destination
        H u = make({250, 3}, {2}, CT_UINT8);
        CT_ASSERT_OK(ct_add_(u.get(), make({10, 1}, {2}, CT_INT64).get(), 1.0));
        EXPECT_EQ(dtype(u), CT_UINT8);
        EXPECT_TRUE(allclose(u, {4, 4}));  // wraps like uint8 arithmetic
        H d = make({1, 2}, {2}, CT_FLOAT32);
        CT_ASSERT_OK(ct_add_(d.get(), make({0.25, 0.5}, {2}, CT_FLOAT64).get(), 1.0));
        EXPECT_EQ(dtype(d), CT_FLOAT32);
        EXPECT_TRUE(allclose(d, {1.25, 2.5}));
        CT_ASSERT_OK(ct_mul_(d.get(), make({1, 0}, {2}, CT_BOOL).get()));
        EXPECT_TRUE(allclose(d, {1.25, 0}));
        H b = make({1, 0}, {2}, CT_BOOL);
        CT_EXPECT_ERR(ct_add_(b.get(), make({1, 1}, {2}, CT_INT32).get(), 1.0), CT_ERR_DTYPE, "bool");
        CT_ASSERT_OK(ct_copy_(b.get(), make({0, 3}, {2}, CT_FLOAT64).get()));  // copy_ converts any dtype
        EXPECT_TRUE(allclose(b, {0, 1}));
        CT_ASSERT_OK(ct_copy_(i.get(), make({-2.7, 3.9}, {2}).get()));
        EXPECT_TRUE(allclose(i, {-2, 3}));  // truncation toward zero, like a C cast
    });
}

TEST(Inplace, FillChecksTheValueRange) {
    for_each_device([&] {
        H u = make({1, 2}, {2}, CT_UINT8), i = make({1}, {1}, CT_INT32), b = make({0}, {1}, CT_BOOL);
        CT_EXPECT_ERR(ct_fill_(u.get(), 256), CT_ERR_INVALID_ARGUMENT, "256");
        CT_EXPECT_ERR(ct_fill_(u.get(), -1), CT_ERR_INVALID_ARGUMENT, "uint8");
        CT_EXPECT_ERR(ct_fill_(i.get(), NAN), CT_ERR_INVALID_ARGUMENT, "int32");
        CT_EXPECT_ERR(ct_fill_(i.get(), 3e9), CT_ERR_INVALID_ARGUMENT, "overflow");
        CT_ASSERT_OK(ct_fill_(u.get(), 255));
        EXPECT_TRUE(allclose(u, {255, 255}));
        CT_ASSERT_OK(ct_fill_(b.get(), 0.5));
        EXPECT_TRUE(allclose(b, {1}));
        H f = make({1}, {1}, CT_FLOAT32);
        CT_ASSERT_OK(ct_fill_(f.get(), NAN));
        EXPECT_TRUE(allclose(f, {NAN}));
    });
}

TEST(Inplace, ShapeAndArgumentErrors) {
    for_each_device([&] {
        H x = make({1, 2, 3}, {3});
        CT_EXPECT_ERR(ct_add_(x.get(), make({1, 2, 3, 4, 5, 6}, {2, 3}).get(), 1.0), CT_ERR_SHAPE, "[3]");
        CT_EXPECT_ERR(ct_copy_(x.get(), make({1, 2}, {2}).get()), CT_ERR_SHAPE, "copy_");
        CT_EXPECT_ERR(ct_copy_(x.get(), make({1, 2, 3, 4, 5, 6}, {2, 3}).get()), CT_ERR_SHAPE,
                      "source of shape [2, 3] cannot be broadcast to the destination shape [3]");
        H row = make({1, 2}, {1, 2}), ex;
        int64_t target[2] = {3, 2};
        CT_ASSERT_OK(ct_expand(row.get(), target, 2, ex.out()));
        CT_EXPECT_ERR(ct_fill_(ex.get(), 0), CT_ERR_INVALID_ARGUMENT, "expanded");
        CT_EXPECT_ERR(ct_add_(ex.get(), ex.get(), 1.0), CT_ERR_INVALID_ARGUMENT, "expanded");
        CT_EXPECT_ERR(ct_add_(nullptr, x.get(), 1.0), CT_ERR_INVALID_HANDLE, "add_");
        CT_EXPECT_ERR(ct_copy_(x.get(), nullptr), CT_ERR_INVALID_HANDLE, "copy_");
        CT_EXPECT_ERR(ct_clamp_(x.get(), 0, 0, 0, 0), CT_ERR_INVALID_ARGUMENT, "at least one");
        CT_EXPECT_ERR(ct_zero_(nullptr), CT_ERR_INVALID_HANDLE, "zero_");
        EXPECT_TRUE(allclose(x, {1, 2, 3}));
        EXPECT_EQ(version(x), 0);  // failed ops leave the destination and its version alone
    });
}

TEST(Inplace, ZeroDimAndEmpty) {
    for_each_device([&] {
        H s;
        CT_ASSERT_OK(ct_scalar_tensor(2, CT_FLOAT64, test_device(), s.out()));
        CT_ASSERT_OK(ct_mul_(s.get(), make({3}, {}).get()));
        EXPECT_EQ(scalar(s), 6);
        int64_t dims[2] = {0, 2};
        H e;
        CT_ASSERT_OK(ct_zeros(dims, 2, CT_FLOAT32, test_device(), e.out()));
        CT_ASSERT_OK(ct_add_(e.get(), make({1, 2}, {2}).get(), 1.0));
        CT_ASSERT_OK(ct_fill_(e.get(), 3));
        EXPECT_EQ(shape(e), (Shape{0, 2}));
    });
}

TEST(Inplace, ViewsFollowTheirBaseAfterInPlaceWrites) {
    for_each_device([&] {
        // a view recorded before an in-place write to its base gets the base's new history when used later
        H x = make({1, 2, 3}, {3}, CT_FLOAT64, true);
        H y = mul_scalar(x, 2.0);
        H v = slice(y, 0, 0, 2, 1);
        CT_ASSERT_OK(ct_mul_(y.get(), make({3}, {1}).get()));
        EXPECT_TRUE(allclose(v, {6, 12}));
        H l, g;
        CT_ASSERT_OK(ct_sum(v.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {6, 6, 0}));
        // the same through views of views and with gradchecks
        H a = randt({2, 3}, 7), b = randt({3}, 8);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H y = mul_scalar(in[0], 1.0), t, r;
            ok(ct_transpose(y.get(), 0, 1, t.out()));
            H row = select(slice(t, 0, 1, 3, 1), 1, 0);
            ok(ct_mul_(y.get(), in[1].get()));
            ok(ct_add_(y.get(), in[0].get(), 1.0));
            ok(ct_mul(row.get(), row.get(), r.out()));
            return r;
        }, {a, b}));
    });
}

TEST(Inplace, CachedViewOfAParameterSurvivesOptimizerSteps) {
    for_each_device([&] {
        H w = make({1, -2, 3, 0.5}, {2, 2}, CT_FLOAT64, true), wt;
        CT_ASSERT_OK(ct_transpose(w.get(), 0, 1, wt.out()));
        for (int step = 0; step < 3; ++step) {
            H sq, l, g;
            CT_ASSERT_OK(ct_mul(wt.get(), wt.get(), sq.out()));
            CT_ASSERT_OK(ct_sum(sq.get(), nullptr, 0, 0, l.out()));
            CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
            CT_ASSERT_OK(ct_tensor_grad(w.get(), g.out()));
            std::vector<double> wv = values(w), expected;
            for (double v : wv) expected.push_back(2 * v);
            EXPECT_TRUE(allclose(g, expected)) << "step " << step;
            NoGrad ng;
            CT_ASSERT_OK(ct_sub_(w.get(), g.get(), 0.25));
            CT_ASSERT_OK(ct_tensor_set_grad(w.get(), nullptr));
        }
        EXPECT_TRUE(allclose(w, {0.125, -0.25, 0.375, 0.0625}));  // each step halves w
    });
}

TEST(Inplace, CpuNumberUpdatesATensorOnAnyDevice) {
    for_each_device([&] {
        H x = make({1, 2, 3}, {3}), number, vec;
        ok(ct_scalar_tensor(2, CT_FLOAT64, ct_cpu(), number.out()));  // a 0-d CPU tensor, as Python passes 2
        CT_ASSERT_OK(ct_add_(x.get(), number.get(), 1.0));
        CT_ASSERT_OK(ct_mul_(x.get(), number.get()));
        EXPECT_TRUE(allclose(x, {6, 8, 10}));
        if (!is_cuda(x)) return;
        ok(ct_to_device(make({1, 1, 1}, {3}).get(), ct_cpu(), vec.out()));  // not a number: devices must match
        CT_EXPECT_ERR(ct_add_(x.get(), vec.get(), 1.0), CT_ERR_DEVICE, "cuda:0 and cpu");
    });
}

// test_toolbox.cpp - the everyday tensor toolbox (issue 14) through the C API: in-place scatters, index_add,
// index_copy and index_put (values against closed forms, duplicates, negative and out-of-range indices, empty
// tensors), their gradients in float64 against central differences and the in-place autograd rules.
#include <cfloat>
#include "ct_test.h"

using namespace ctt;

namespace {
H idx(const std::vector<double>& v, const Shape& s) { return make(v, s, CT_INT64); }

H index_add(const H& x, int64_t dim, const H& index, const H& src, double alpha) {
    H out;
    ok(ct_index_add(x.get(), dim, index.get(), src.get(), alpha, out.out()));
    return out;
}
H index_copy(const H& x, int64_t dim, const H& index, const H& src) {
    H out;
    ok(ct_index_copy(x.get(), dim, index.get(), src.get(), out.out()));
    return out;
}
H index_put(const H& x, const std::vector<H>& indices, const H& values, bool accumulate) {
    std::vector<ct_tensor> hs;
    for (const H& h : indices) hs.push_back(h.get());
    H out;
    ok(ct_index_put(x.get(), hs.data(), (int32_t)hs.size(), values.get(), accumulate, out.out()));
    return out;
}
H exp_of(const H& t) {
    H out;
    ok(ct_exp(t.get(), out.out()));
    return out;
}
H mul2(const H& t) {
    H w, out;
    ok(ct_wrapped_scalar(2.0, 0, w.out()));
    ok(ct_mul(t.get(), w.get(), out.out()));
    return out;
}
H sum_all(const H& t) {
    H out;
    ok(ct_sum(t.get(), nullptr, 0, 0, out.out()));
    return out;
}
H grad_of(const H& t) {
    H g;
    ok(ct_tensor_grad(t.get(), g.out()));
    return g;
}
}  // namespace

TEST(Toolbox, InPlaceScatters) {
    for_each_device([&] {
        H x = make({0, 0, 0, 0, 0, 0}, {2, 3});
        CT_ASSERT_OK(ct_scatter_(x.get(), 1, idx({2, 0}, {2, 1}).get(), make({5, 7}, {2, 1}).get()));
        EXPECT_TRUE(allclose(x, {0, 0, 5, 7, 0, 0}));
        CT_ASSERT_OK(ct_scatter_add_(x.get(), 0, idx({1, 1, 0}, {1, 3}).get(), make({1, 2, 3}, {1, 3}).get()));
        EXPECT_TRUE(allclose(x, {0, 0, 8, 8, 2, 0}));
        int64_t v = -1;
        ok(ct_tensor_version(x.get(), &v));
        EXPECT_EQ(v, 2);
    });
}

TEST(Toolbox, IndexAddAndCopyValues) {
    for_each_device([&] {
        H x = make({1, 2, 3, 4, 5, 6}, {3, 2});
        // duplicates sum; alpha scales the source
        EXPECT_TRUE(allclose(index_add(x, 0, idx({2, 0, 2}, {3}), make({1, 1, 2, 2, 3, 3}, {3, 2}), 10.0),
                             {21, 22, 3, 4, 45, 46}));
        EXPECT_TRUE(allclose(index_add(x, -1, idx({1}, {1}), make({1, 1, 1}, {3, 1}), 1.0), {1, 3, 3, 5, 5, 7}));
        EXPECT_TRUE(allclose(index_copy(x, 1, idx({1, 0}, {2}), make({9, 8, 7, 6, 5, 4}, {3, 2})), {8, 9, 6, 7, 4, 5}));
        H xi = make({1, 2, 3}, {3}, CT_INT32);  // integers: alpha must be integral
        EXPECT_TRUE(allclose(index_add(xi, 0, idx({0}, {1}), make({5}, {1}, CT_INT32), -2.0), {-9, 2, 3}));
        H bad;
        CT_EXPECT_ERR(ct_index_add(xi.get(), 0, idx({0}, {1}).get(), make({5}, {1}, CT_INT32).get(), 0.5, bad.out()),
                      CT_ERR_INVALID_ARGUMENT, "index_add: alpha 0.5");
        CT_ASSERT_OK(ct_index_add_(x.get(), 0, idx({1}, {1}).get(), make({10, 20}, {1, 2}).get(), 1.0));
        CT_ASSERT_OK(ct_index_copy_(x.get(), 0, idx({0}, {1}).get(), make({-1, -2}, {1, 2}).get()));
        EXPECT_TRUE(allclose(x, {-1, -2, 13, 24, 5, 6}));
    });
    H x = make({0, 0, 0}, {3});  // CPU: duplicates in index_copy resolve in index order (the last write wins)
    EXPECT_TRUE(allclose(index_copy(x, 0, idx({1, 1, 1}, {3}), make({4, 5, 6}, {3})), {0, 6, 0}));
}

TEST(Toolbox, IndexAddAndCopyErrors) {
    H x = make({1, 2, 3, 4, 5, 6}, {3, 2}), out;
    CT_EXPECT_ERR(ct_index_add(x.get(), 0, idx({3}, {1}).get(), make({1, 1}, {1, 2}).get(), 1.0, out.out()),
                  CT_ERR_INDEX, "index_add: index 3 is out of bounds for dim 0 with size 3");
    CT_EXPECT_ERR(ct_index_copy(x.get(), 0, idx({-1}, {1}).get(), make({1, 1}, {1, 2}).get(), out.out()), CT_ERR_INDEX,
                  "index_copy: index -1 is out of bounds");
    CT_EXPECT_ERR(ct_index_add(x.get(), 0, idx({0, 1}, {2}).get(), make({1, 1}, {1, 2}).get(), 1.0, out.out()),
                  CT_ERR_SHAPE, "index_add: source of shape [1, 2]");
    CT_EXPECT_ERR(ct_index_copy(x.get(), 0, idx({0}, {1, 1}).get(), make({1, 1}, {1, 2}).get(), out.out()),
                  CT_ERR_SHAPE, "index must be 1-D");
    CT_EXPECT_ERR(ct_index_add(x.get(), 0, make({0}, {1}).get(), make({1, 1}, {1, 2}).get(), 1.0, out.out()),
                  CT_ERR_DTYPE, "index must be int64 or int32");
    CT_EXPECT_ERR(ct_index_copy(x.get(), 0, idx({0}, {1}).get(), make({1, 1}, {1, 2}, CT_FLOAT32).get(), out.out()),
                  CT_ERR_DTYPE, "index_copy: source dtype float32");
    CT_EXPECT_ERR(ct_index_add(x.get(), 2, idx({0}, {1}).get(), make({1, 1}, {1, 2}).get(), 1.0, out.out()),
                  CT_ERR_INDEX, "index_add");
    CT_EXPECT_ERR(ct_index_add(nullptr, 0, idx({0}, {1}).get(), x.get(), 1.0, out.out()), CT_ERR_INVALID_HANDLE,
                  "index_add: x is a NULL tensor handle");
    EXPECT_FALSE(out);
}

TEST(Toolbox, IndexPutValues) {
    for_each_device([&] {
        H x = make({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 2, 2});
        // two index tensors broadcast ([2] with [1]); negative values count from the end; values broadcast
        EXPECT_TRUE(allclose(index_put(x, {idx({0, -1}, {2}), idx({1}, {1})}, make({-5, -6}, {2}), false),
                             {0, 1, -5, -6, 4, 5, 6, 7, 8, 9, -5, -6}));
        // one index over dim 0, a scalar value, accumulate
        EXPECT_TRUE(allclose(index_put(x, {idx({2, 0}, {2, 1})}, make({100}, {}), true),
                             {100, 101, 102, 103, 4, 5, 6, 7, 108, 109, 110, 111}));
        H empty = make({}, {0}, CT_INT64);
        EXPECT_TRUE(allclose(index_put(x, {empty}, make({1}, {}), false), values(x)));
        CT_ASSERT_OK(ct_index_put_(x.get(), std::vector<ct_tensor>{idx({1}, {1}).get(), idx({0}, {1}).get(),
                                                                   idx({1}, {1}).get()}.data(),
                                   3, make({-1}, {1}).get(), 0));
        EXPECT_TRUE(allclose(x, {0, 1, 2, 3, 4, -1, 6, 7, 8, 9, 10, 11}));
    });
    H x = make({0, 0, 0}, {3});  // CPU duplicates: accumulate sums, otherwise the last write wins
    EXPECT_TRUE(allclose(index_put(x, {idx({1, 1, 1, -3}, {4})}, make({1, 2, 3, 4}, {4}), true), {4, 6, 0}));
    EXPECT_TRUE(allclose(index_put(x, {idx({1, 1, 1}, {3})}, make({1, 2, 3}, {3}), false), {0, 3, 0}));
    H e = make({}, {0, 2});  // an empty destination with an empty index
    EXPECT_EQ(shape(index_put(e, {make({}, {0}, CT_INT64)}, make({1}, {}), true)), (Shape{0, 2}));
}

TEST(Toolbox, IndexPutErrors) {
    H x = make({1, 2, 3, 4, 5, 6}, {3, 2}), out;
    ct_tensor i5[1] = {nullptr};
    H five = idx({0, 5}, {2}), neg = idx({-4}, {1}), a = idx({0, 1}, {2}), b = idx({0, 1, 1}, {3});
    i5[0] = five.get();
    CT_EXPECT_ERR(ct_index_put(x.get(), i5, 1, make({1}, {}).get(), 0, out.out()), CT_ERR_INDEX,
                  "index_put: index 5 is out of bounds for dimension 0 with size 3");
    i5[0] = neg.get();
    CT_EXPECT_ERR(ct_index_put(x.get(), i5, 1, make({1}, {}).get(), 0, out.out()), CT_ERR_INDEX,
                  "index_put: index -4 is out of bounds for dimension 0 with size 3");
    ct_tensor ab[2] = {a.get(), b.get()};
    CT_EXPECT_ERR(ct_index_put(x.get(), ab, 2, make({1}, {}).get(), 0, out.out()), CT_ERR_SHAPE, "index_put");
    ct_tensor three[3] = {a.get(), a.get(), a.get()};
    CT_EXPECT_ERR(ct_index_put(x.get(), three, 3, make({1}, {}).get(), 0, out.out()), CT_ERR_INDEX,
                  "index_put: too many indices (3) for a tensor of dimension 2");
    ct_tensor one[1] = {a.get()};
    CT_EXPECT_ERR(ct_index_put(x.get(), one, 1, make({1, 2, 3}, {3}).get(), 0, out.out()), CT_ERR_SHAPE,
                  "index_put: values of shape [3] cannot be broadcast to the indexed shape [2, 2]");
    CT_EXPECT_ERR(ct_index_put(x.get(), one, 1, make({1}, {}, CT_FLOAT32).get(), 0, out.out()), CT_ERR_DTYPE,
                  "index_put: values dtype float32");
    CT_EXPECT_ERR(ct_index_put(x.get(), one, 0, make({1}, {}).get(), 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "index_put: at least one index tensor");
    CT_EXPECT_ERR(ct_index_put(x.get(), nullptr, 1, make({1}, {}).get(), 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "index_put");
    ct_tensor fl[1] = {x.get()};
    CT_EXPECT_ERR(ct_index_put(x.get(), fl, 1, make({1}, {}).get(), 0, out.out()), CT_ERR_DTYPE,
                  "index must be int64 or int32");
    EXPECT_FALSE(out);
    CT_EXPECT_ERR(ct_index_put_(x.get(), i5, 1, make({1}, {}).get(), 0), CT_ERR_INDEX, "index -4");
    EXPECT_TRUE(allclose(x, {1, 2, 3, 4, 5, 6}));  // a failed write leaves dst untouched
}

TEST(Toolbox, Gradients) {
    for_each_device([&] {
        H i3 = idx({2, 0, 2}, {3}), i2 = idx({1, 0}, {2});
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return index_add(in[0], 0, i3, in[1], -1.5); },
                              {randt({3, 2}, 1), randt({3, 2}, 2)}));
        // second derivatives: through exp, so the first derivative depends on the inputs
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) { return exp_of(index_add(in[0], 0, i3, in[1], 2.0)); },
                                  {randt({3, 2}, 1), randt({3, 2}, 2)}));
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return index_copy(in[0], 1, i2, in[1]); },
                              {randt({3, 2}, 3), randt({3, 2}, 4)}));
        H r = idx({0, 2, 2}, {3}), c = idx({1, -1, 1}, {3});
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return index_put(in[0], {r, c}, in[1], true); },
                              {randt({3, 2, 2}, 5), randt({3, 2}, 6)}));
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) { return exp_of(index_put(in[0], {r, c}, in[1], true)); },
                                  {randt({3, 2, 2}, 5), randt({2}, 6)}));
        H u = idx({0, 2}, {2});  // without accumulate: distinct positions, values broadcast over rows
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return index_put(in[0], {u}, in[1], false); },
                              {randt({3, 2}, 7), randt({1, 2}, 8)}));
    });
}

TEST(Toolbox, InPlaceAutograd) {
    H leaf = randt({3, 2}, 9), src = randt({2, 2}, 10);
    // a leaf that requires grad cannot be written in place
    CT_EXPECT_ERR(ct_index_add_(leaf.get(), 0, idx({0, 2}, {2}).get(), src.get(), 1.0), CT_ERR_AUTOGRAD,
                  "index_add_: a leaf tensor that requires grad");
    // history rebase: y = exp(leaf) * 2 then y.index_put_(accumulate) -> d/dleaf and d/dsrc as the closed forms
    H y = mul2(exp_of(leaf));
    std::vector<H> rows = {idx({0, 2}, {2})};
    std::vector<ct_tensor> hs = {rows[0].get()};
    CT_ASSERT_OK(ct_index_put_(y.get(), hs.data(), 1, src.get(), 1));
    CT_ASSERT_OK(ct_backward(sum_all(y).get(), nullptr, 0, 0));
    std::vector<double> want, lv = values(leaf);
    for (double v : lv) want.push_back(2 * std::exp(v));
    EXPECT_TRUE(allclose(grad_of(leaf), want));
    EXPECT_TRUE(allclose(grad_of(src), {1, 1, 1, 1}));
    // a tensor saved for backward (exp's output) modified in place: backward fails naming the version
    H z = exp_of(mul2(randt({3, 2}, 11)));  // exp saves its output z
    CT_ASSERT_OK(ct_index_copy_(z.get(), 0, idx({1}, {1}).get(), make({0, 0}, {1, 2}).get()));
    CT_EXPECT_ERR(ct_backward(sum_all(z).get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "ExpBackward");
    // gradcheck through a clone written in place (scatter_ rebases the clone's history)
    EXPECT_TRUE(gradcheck(
        [&](const std::vector<H>& in) {
            H c;
            ok(ct_clone(in[0].get(), c.out()));
            ok(ct_scatter_(c.get(), 1, idx({1, 0}, {2, 1}).get(), in[1].get()));
            ok(ct_scatter_add_(c.get(), 0, idx({0, 0}, {1, 2}).get(), in[1].get()));
            return c;
        },
        {randt({2, 2}, 12), randt({2, 2}, 13)}));
}

// ---- counting and searching ----

TEST(Toolbox, SearchsortedValues) {
    for_each_device([&] {
        H seq = make({1, 3, 5, 7, 9}, {5}), v = make({3, 6, 9, 0, 10}, {5}), out;
        CT_ASSERT_OK(ct_searchsorted(seq.get(), v.get(), 0, 0, nullptr, out.out()));
        EXPECT_TRUE(allclose(out, {1, 3, 4, 0, 5}));
        EXPECT_EQ(dtype(out), CT_INT64);
        CT_ASSERT_OK(ct_searchsorted(seq.get(), v.get(), 1, 1, nullptr, out.out()));
        EXPECT_TRUE(allclose(out, {2, 3, 5, 0, 5}));
        EXPECT_EQ(dtype(out), CT_INT32);
        // N-d: each row of values searches its own row; int values against a float sequence promote
        H seq2 = make({1, 2, 3, 10, 20, 30}, {2, 3}), v2 = make({2, 25, 0, 30}, {2, 2}, CT_INT64);
        CT_ASSERT_OK(ct_searchsorted(seq2.get(), v2.get(), 0, 0, nullptr, out.out()));
        EXPECT_TRUE(allclose(out, {1, 3, 0, 2}));
        // sorter: the order that sorts an unsorted sequence
        H unsorted = make({5, 1, 3}, {3}), sorter = make({1, 2, 0}, {3}, CT_INT64);
        CT_ASSERT_OK(ct_searchsorted(unsorted.get(), make({4, 1}, {2}).get(), 0, 0, sorter.get(), out.out()));
        EXPECT_TRUE(allclose(out, {2, 0}));
    });
    H seq = make({1, 2, NAN}, {3}), out;  // torch's rule: NaN sorts after everything
    CT_ASSERT_OK(ct_searchsorted(seq.get(), make({NAN, 5}, {2}).get(), 0, 0, nullptr, out.out()));
    EXPECT_TRUE(allclose(out, {3, 3}));
    CT_EXPECT_ERR(ct_searchsorted(make({1, 2, 3, 4}, {2, 2}).get(), make({1}, {1, 1, 1}).get(), 0, 0, nullptr, out.out()),
                  CT_ERR_SHAPE, "searchsorted: sorted_sequence of shape [2, 2] and values of shape [1, 1, 1]");
    CT_EXPECT_ERR(ct_searchsorted(seq.get(), seq.get(), 0, 0, make({0, 3, 1}, {3}, CT_INT64).get(), out.out()),
                  CT_ERR_INDEX, "searchsorted: sorter index 3 is out of bounds");
    CT_EXPECT_ERR(ct_searchsorted(make({1}, {}).get(), seq.get(), 0, 0, nullptr, out.out()), CT_ERR_SHAPE,
                  "searchsorted: sorted_sequence must have at least one dim");
}

TEST(Toolbox, BincountAndHistc) {
    for_each_device([&] {
        H x = make({1, 1, 3, 0, 1}, {5}, CT_INT64), out;
        CT_ASSERT_OK(ct_bincount(x.get(), nullptr, 0, out.out()));
        EXPECT_TRUE(allclose(out, {1, 3, 0, 1}));
        EXPECT_EQ(dtype(out), CT_INT64);
        CT_ASSERT_OK(ct_bincount(x.get(), make({0.5, 1, 2, 4, 8}, {5}, CT_FLOAT32).get(), 6, out.out()));
        EXPECT_TRUE(allclose(out, {4, 9.5, 0, 2, 0, 0}));
        EXPECT_EQ(dtype(out), CT_FLOAT32);
        CT_ASSERT_OK(ct_bincount(make({}, {0}, CT_INT32).get(), make({}, {0}, CT_INT64).get(), 2, out.out()));
        EXPECT_TRUE(allclose(out, {0, 0}));
        EXPECT_EQ(dtype(out), CT_FLOAT64);
        H h = make({0, 1, 2, 3, 4, -1, 5, NAN}, {8}, CT_FLOAT32);
        CT_ASSERT_OK(ct_histc(h.get(), 4, 0, 4, out.out()));
        EXPECT_TRUE(allclose(out, {1, 1, 1, 2}));  // the top edge counts in the last bin; outside and NaN ignored
        CT_ASSERT_OK(ct_histc(make({1, 2, 1}, {3}).get(), 4, 0, 0, out.out()));  // min == max: the data's range
        EXPECT_TRUE(allclose(out, {2, 0, 0, 1}));
        CT_ASSERT_OK(ct_histc(make({1, 1}, {2}).get(), 4, 0, 0, out.out()));  // a one-value range widens by 1
        EXPECT_TRUE(allclose(out, {0, 0, 2, 0}));
    });
    H out;
    CT_EXPECT_ERR(ct_bincount(make({1, -2}, {2}, CT_INT64).get(), nullptr, 0, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "bincount: input must be non-negative, got -2");
    CT_EXPECT_ERR(ct_bincount(make({1}, {1}).get(), nullptr, 0, out.out()), CT_ERR_DTYPE, "bincount: input must be an integer");
    CT_EXPECT_ERR(ct_bincount(make({1}, {1, 1}, CT_INT64).get(), nullptr, 0, out.out()), CT_ERR_SHAPE, "bincount: input must be 1-D");
    CT_EXPECT_ERR(ct_histc(make({1}, {1}).get(), 0, 0, 1, out.out()), CT_ERR_INVALID_ARGUMENT, "histc: bins must be > 0");
    CT_EXPECT_ERR(ct_histc(make({1}, {1}).get(), 2, 3, 1, out.out()), CT_ERR_INVALID_ARGUMENT, "histc: max (1)");
    CT_EXPECT_ERR(ct_histc(make({1}, {1}, CT_INT64).get(), 2, 0, 1, out.out()), CT_ERR_DTYPE, "histc");
}

TEST(Toolbox, CummaxCumminValuesAndGradients) {
    auto cum = [](bool max, const H& x, int64_t dim) {
        H v, i;
        ok(max ? ct_cummax(x.get(), dim, v.out(), i.out()) : ct_cummin(x.get(), dim, v.out(), i.out()));
        return std::make_pair(v, i);
    };
    for_each_device([&] {
        H x = make({1, 3, 3, 2, NAN, 5}, {6});
        auto [v, i] = cum(true, x, 0);
        EXPECT_TRUE(allclose(v, {1, 3, 3, 3, NAN, NAN}));
        EXPECT_TRUE(allclose(i, {0, 1, 2, 2, 4, 4}));  // ties take the later position; a NaN sticks
        auto [w, j] = cum(false, make({2, 1, 1, 4, 0, 6}, {2, 3}, CT_INT32), 0);
        EXPECT_TRUE(allclose(w, {2, 1, 1, 2, 0, 1}));
        EXPECT_TRUE(allclose(j, {0, 0, 0, 0, 1, 0}));
        EXPECT_EQ(shape(cum(true, make({}, {0, 3}), 1).first), (Shape{0, 3}));
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return cum(true, in[0], 1).first; }, {randt({3, 4}, 20)}));
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return cum(false, in[0], -2).first; }, {randt({3, 4}, 21)}));
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) { return exp_of(cum(true, in[0], 0).first); }, {randt({4}, 22)}));
    });
    H v, i;
    CT_EXPECT_ERR(ct_cummax(make({1}, {1}).get(), 1, v.out(), i.out()), CT_ERR_INDEX, "cummax");
    CT_EXPECT_ERR(ct_cummin(make({1}, {1}).get(), 0, v.out(), nullptr), CT_ERR_INVALID_ARGUMENT, "cummin");
}

// ---- composites and dtype limits ----

TEST(Toolbox, NanToNumDiffTakeAlongDim) {
    for_each_device([&] {
        H x = make({1, NAN, INFINITY, -INFINITY, -2}, {5}), out;
        CT_ASSERT_OK(ct_nan_to_num(x.get(), 0, 0, 0, 0, 0, 0, out.out()));
        EXPECT_TRUE(allclose(out, {1, 0, DBL_MAX, -DBL_MAX, -2}));
        CT_ASSERT_OK(ct_nan_to_num(make({NAN, INFINITY}, {2}, CT_FLOAT32).get(), 5, 1, 0, 0, 0, 0, out.out()));
        EXPECT_TRUE(allclose(out, {5, FLT_MAX}));
        CT_ASSERT_OK(ct_nan_to_num(x.get(), -1, 1, 7, 1, -7, 1, out.out()));
        EXPECT_TRUE(allclose(out, {1, -1, 7, -7, -2}));
        H xg = make({1, NAN, INFINITY, 3}, {4}, CT_FLOAT64, true), g;
        CT_ASSERT_OK(ct_nan_to_num(xg.get(), 0, 0, 0, 0, 0, 0, out.out()));
        CT_ASSERT_OK(ct_backward(sum_all(mul2(out)).get(), nullptr, 0, 0));
        EXPECT_TRUE(allclose(grad_of(xg), {2, 0, 0, 2}));  // zero where x was not finite
        H m = make({1, 4, 9, 16, 2, 3, 5, 8}, {2, 4});
        CT_ASSERT_OK(ct_diff(m.get(), 1, -1, nullptr, nullptr, out.out()));
        EXPECT_TRUE(allclose(out, {3, 5, 7, 1, 2, 3}));
        CT_ASSERT_OK(ct_diff(m.get(), 2, 1, make({0, 0}, {2, 1}).get(), make({0, 0}, {2, 1}).get(), out.out()));
        EXPECT_TRUE(allclose(out, {2, 2, 2, -23, -1, 1, 1, -11}));
        CT_ASSERT_OK(ct_diff(m.get(), 1, 0, nullptr, nullptr, out.out()));
        EXPECT_TRUE(allclose(out, {1, -1, -4, -8}));
        CT_ASSERT_OK(ct_diff(m.get(), 5, 1, nullptr, nullptr, out.out()));  // more steps than elements: empty
        EXPECT_EQ(shape(out), (Shape{2, 0}));
        CT_ASSERT_OK(ct_diff(make({1, 0, 0, 1}, {4}, CT_BOOL).get(), 1, 0, nullptr, nullptr, out.out()));
        EXPECT_TRUE(allclose(out, {1, 0, 1}));
        H t = make({10, 30, 20, 60, 50, 40}, {2, 3});
        CT_ASSERT_OK(ct_take_along_dim(t.get(), make({1, 0}, {2, 1}, CT_INT64).get(), 1, 1, out.out()));
        EXPECT_TRUE(allclose(out, {30, 60}));
        CT_ASSERT_OK(ct_take_along_dim(t.get(), make({2, 1, 0}, {1, 3}, CT_INT64).get(), 1, 1, out.out()));  // broadcast
        EXPECT_TRUE(allclose(out, {20, 30, 10, 40, 50, 60}));
        CT_ASSERT_OK(ct_take_along_dim(t.get(), make({5, 0}, {2}, CT_INT64).get(), 0, 0, out.out()));  // flattened
        EXPECT_TRUE(allclose(out, {40, 10}));
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { H o; ok(ct_diff(in[0].get(), 2, 0, in[1].get(), nullptr, o.out())); return o; },
                              {randt({4, 2}, 30), randt({1, 2}, 31)}));
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
            H o;
            ok(ct_take_along_dim(in[0].get(), make({0, 2, 2}, {1, 3}, CT_INT64).get(), 0, 1, o.out()));
            return o;
        }, {randt({3, 3}, 32)}));
    });
    H out;
    CT_EXPECT_ERR(ct_diff(make({1}, {}).get(), 1, 0, nullptr, nullptr, out.out()), CT_ERR_SHAPE, "diff: expects input");
    CT_EXPECT_ERR(ct_diff(make({1, 2}, {2}).get(), -1, 0, nullptr, nullptr, out.out()), CT_ERR_INVALID_ARGUMENT,
                  "diff: order must be non-negative");
    CT_EXPECT_ERR(ct_take_along_dim(make({1, 2}, {2}).get(), make({0}, {1, 1}, CT_INT64).get(), 0, 1, out.out()), CT_ERR_SHAPE,
                  "take_along_dim: input (shape [2]) and indices (shape [1, 1])");
    CT_EXPECT_ERR(ct_take_along_dim(make({1, 2}, {2}).get(), make({2}, {1}, CT_INT64).get(), 0, 1, out.out()), CT_ERR_INDEX,
                  "index 2 is out of bounds");
}

TEST(Toolbox, FinfoIinfo) {
    double v = 0;
    CT_ASSERT_OK(ct_finfo(CT_FLOAT32, CT_FINFO_EPS, &v));
    EXPECT_EQ(v, (double)FLT_EPSILON);
    CT_ASSERT_OK(ct_finfo(CT_FLOAT64, CT_FINFO_TINY, &v));
    EXPECT_EQ(v, DBL_MIN);
    CT_ASSERT_OK(ct_finfo(CT_FLOAT32, CT_FINFO_MIN, &v));
    EXPECT_EQ(v, -(double)FLT_MAX);
    CT_ASSERT_OK(ct_finfo(CT_FLOAT64, CT_FINFO_BITS, &v));
    EXPECT_EQ(v, 64);
    CT_ASSERT_OK(ct_finfo(CT_FLOAT32, CT_FINFO_RESOLUTION, &v));
    EXPECT_EQ(v, 1e-6);
    int64_t i = 0;
    CT_ASSERT_OK(ct_iinfo(CT_INT64, CT_IINFO_MIN, &i));
    EXPECT_EQ(i, INT64_MIN);
    CT_ASSERT_OK(ct_iinfo(CT_UINT8, CT_IINFO_MAX, &i));
    EXPECT_EQ(i, 255);
    CT_ASSERT_OK(ct_iinfo(CT_INT32, CT_IINFO_BITS, &i));
    EXPECT_EQ(i, 32);
    CT_EXPECT_ERR(ct_finfo(CT_INT32, CT_FINFO_EPS, &v), CT_ERR_DTYPE, "finfo: int32 is not a floating point dtype");
    CT_EXPECT_ERR(ct_iinfo(CT_BOOL, CT_IINFO_MAX, &i), CT_ERR_DTYPE, "iinfo: bool is not an integer dtype");
    CT_EXPECT_ERR(ct_finfo(CT_FLOAT32, 9, &v), CT_ERR_INVALID_ARGUMENT, "finfo: unknown field 9");
    CT_EXPECT_ERR(ct_finfo(CT_FLOAT32, 0, nullptr), CT_ERR_INVALID_ARGUMENT, "finfo");
}

// test_reduce_minmax.cpp - max/min (all and along a dim), argmax/argmin and cumsum against naive loops:
// ties (first occurrence), NaN propagation, every dtype, 0-d, empty and non-contiguous inputs, gradients.
#include "ct_test.h"
#include "reduce_ref.h"

using namespace ctt;
using namespace ctt_ref;

namespace {

// (value, index) of the first extreme of v; a NaN wins at its first position (as PyTorch).
std::pair<double, int64_t> ref_arg(const Vec& v, bool is_max) {
    std::pair<double, int64_t> best = {v[0], 0};
    for (size_t i = 0; i < v.size(); ++i) {
        if (std::isnan(v[i])) return {v[i], (int64_t)i};
        if (is_max ? v[i] > best.first : v[i] < best.first) best = {v[i], (int64_t)i};
    }
    return best;
}

// Small integer-valued data (many ties) with an optional NaN.
H tie_data(const Shape& s, uint64_t seed, ct_dtype dt, bool with_nan) {
    Vec v = rand_values((size_t)numel_of(s), seed, 0, 4);
    for (double& x : v) x = std::floor(x);
    if (with_nan && v.size() > 3) v[v.size() / 2] = NAN, v[1] = NAN;
    return make(v, s, dt);
}

// Checks max_dim/min_dim/argmax/argmin of x along every dim against ref_arg.
void check_dims(const H& x, const std::string& label) {
    Shape s = shape(x);
    Vec xv = values(x);
    int64_t nd = (int64_t)s.size();
    for (int64_t dim = -std::max<int64_t>(nd, 1); dim < std::max<int64_t>(nd, 1); ++dim) {
        Dims dims = {dim};
        for (int keep = 0; keep < 2; ++keep) {
            for (bool is_max : {true, false}) {
                SCOPED_TRACE(label + " dim " + std::to_string(dim) + " keep " + std::to_string(keep) +
                             (is_max ? " max" : " min"));
                H val, idx, am;
                auto fn = is_max ? ct_max_dim : ct_min_dim;
                CT_ASSERT_OK(fn(x.get(), dim, keep, val.out(), idx.out()));
                CT_ASSERT_OK((is_max ? ct_argmax : ct_argmin)(x.get(), dim, keep, am.out()));
                Vec want_v, want_i;
                for (const Vec& sl : naive_slices(xv, s, dims)) {
                    auto r = ref_arg(sl, is_max);
                    want_v.push_back(r.first), want_i.push_back((double)r.second);
                }
                Shape ws = naive_shape(s, dims, keep != 0);
                EXPECT_EQ(shape(val), ws);
                EXPECT_EQ(shape(idx), ws);
                EXPECT_EQ(shape(am), ws);
                EXPECT_EQ(dtype(val), dtype(x));
                EXPECT_EQ(dtype(idx), CT_INT64);
                EXPECT_TRUE(allclose(val, want_v, 0, 0));
                EXPECT_TRUE(allclose(idx, want_i, 0, 0));
                EXPECT_TRUE(allclose(am, want_i, 0, 0));
            }
        }
    }
}

void check_all(const H& x) {
    Vec xv = values(x);
    for (bool is_max : {true, false}) {
        H v, i;
        CT_ASSERT_OK((is_max ? ct_max : ct_min)(x.get(), v.out()));
        CT_ASSERT_OK((is_max ? ct_argmax_all : ct_argmin_all)(x.get(), i.out()));
        auto r = ref_arg(xv, is_max);
        EXPECT_EQ(shape(v), Shape{});
        EXPECT_EQ(dtype(v), dtype(x));
        EXPECT_EQ(dtype(i), CT_INT64);
        EXPECT_TRUE(allclose(v, {r.first}, 0, 0));
        EXPECT_EQ(scalar(i), (double)r.second);
    }
}

H unary(ct_status (*op)(ct_tensor, ct_tensor*), const H& x) {
    H o;
    ok(op(x.get(), o.out()));
    return o;
}

}  // namespace

TEST(ReduceMinMax, AlongDimsWithTiesAndNaN) {
    for_each_device([&] {
        for (const Shape& s : {Shape{}, Shape{7}, Shape{3, 5}, Shape{2, 3, 4}})
            for (bool nan : {false, true})
                for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) check_dims(tie_data(s, 5, dt, nan), "shape " + dims_str(s));
        for (ct_dtype dt : {CT_INT32, CT_INT64, CT_UINT8, CT_BOOL})
            check_dims(tie_data({3, 4}, 9, dt, false), "int dtype " + std::to_string(dt));
    });
}

TEST(ReduceMinMax, NonContiguousAndLarge) {
    H base = tie_data({4, 3, 5}, 3, CT_FLOAT64, false), perm, sl;
    int64_t p[3] = {1, 2, 0};
    CT_ASSERT_OK(ct_permute(base.get(), p, 3, perm.out()));
    check_dims(perm, "permuted");
    check_all(perm);
    CT_ASSERT_OK(ct_slice(base.get(), 2, 0, 5, 2, sl.out()));
    check_dims(sl, "sliced");
    // long rows and columns reach the vectorised run and lane-wise kernel paths
    H big = make(rand_values(70001 * 3, 4), {3, 70001}), bt;
    check_dims(big, "big");
    check_all(big);
    CT_ASSERT_OK(ct_transpose(big.get(), 0, 1, bt.out()));
    check_dims(bt, "big transposed");
    Vec nanv = rand_values(1000, 8);
    nanv[777] = NAN;
    check_all(make(nanv, {1000}));
}

TEST(ReduceMinMax, AllDimsValues) {
    for_each_device([&] {
        for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL}) {
            check_all(tie_data({4, 6}, 11, dt, false));
            check_all(tie_data({}, 12, dt, false));
        }
        check_all(tie_data({4, 6}, 11, CT_FLOAT64, true));
        H inf = make({-INFINITY, -INFINITY}, {2});
        check_all(inf);
    });
}

TEST(ReduceMinMax, EmptyErrors) {
    H e = randt({2, 0}, 1, false), o, i;
    CT_EXPECT_ERR(ct_max(e.get(), o.out()), CT_ERR_INDEX, "max: cannot reduce an empty tensor");
    CT_EXPECT_ERR(ct_min(e.get(), o.out()), CT_ERR_INDEX, "min: cannot reduce an empty tensor");
    CT_EXPECT_ERR(ct_argmax_all(e.get(), o.out()), CT_ERR_INDEX, "argmax");
    CT_EXPECT_ERR(ct_max_dim(e.get(), 1, 0, o.out(), i.out()), CT_ERR_INDEX, "max_dim: cannot reduce over dim 1");
    CT_EXPECT_ERR(ct_argmin(e.get(), -1, 0, o.out()), CT_ERR_INDEX, "argmin");
    CT_EXPECT_ERR(ct_max_dim(e.get(), 2, 0, o.out(), i.out()), CT_ERR_INDEX, "out of range");
    CT_EXPECT_ERR(ct_max_dim(e.get(), 0, 0, o.out(), nullptr), CT_ERR_INVALID_ARGUMENT, "indices");
    EXPECT_FALSE(o);  // untouched on failure
    CT_ASSERT_OK(ct_max_dim(e.get(), 0, 0, o.out(), i.out()));  // reducing a non-empty dim of an empty tensor
    EXPECT_EQ(shape(o), (Shape{0}));
}

TEST(ReduceMinMax, GradientSplitsAmongTies) {
    for_each_device([&] {
        H x = make({1, 3, 3, 2, 3, 0}, {2, 3}, CT_FLOAT64, true), g;
        H m = unary(ct_max, x);
        CT_ASSERT_OK(ct_backward(m.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0, 1.0 / 3, 1.0 / 3, 0, 1.0 / 3, 0}));
        // along a dim the gradient goes to the first index only
        H y = make({1, 3, 3, 2, 3, 0}, {2, 3}, CT_FLOAT64, true), v, i, gy;
        CT_ASSERT_OK(ct_max_dim(y.get(), 1, 0, v.out(), i.out()));
        H go = make({10, 20}, {2});
        CT_ASSERT_OK(ct_backward(v.get(), go.get(), 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(y.get(), gy.out()));
        EXPECT_TRUE(allclose(gy, {0, 10, 0, 0, 20, 0}));
    });
}

TEST(ReduceMinMax, Gradchecks) {
    for_each_device([&] {
        H x = randt({3, 4, 2}, 50, true);  // distinct values: no ties
        EXPECT_TRUE(gradcheck([](const std::vector<H>& v) { return unary(ct_max, v[0]); }, {x}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& v) { return unary(ct_min, v[0]); }, {x}));
        for (int64_t dim : {0, 1, -1}) {
            for (int keep = 0; keep < 2; ++keep) {
                for (auto fn : {ct_max_dim, ct_min_dim}) {
                    auto f = [&](const std::vector<H>& v) {
                        H val, idx;
                        ok(fn(v[0].get(), dim, keep, val.out(), idx.out()));
                        return val;
                    };
                    EXPECT_TRUE(gradcheck(f, {x})) << "dim " << dim << " keep " << keep;
                    auto f2 = [&](const std::vector<H>& v) {  // nonlinear inside: max itself has no curvature
                        H sq, val, idx;
                        ok(ct_mul(v[0].get(), v[0].get(), sq.out()));
                        ok(fn(sq.get(), dim, keep, val.out(), idx.out()));
                        return val;
                    };
                    EXPECT_TRUE(gradgradcheck(f2, {x}));
                }
            }
        }
        H s0 = make({2.5}, {}, CT_FLOAT64, true);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& v) { H a, b; ok(ct_max_dim(v[0].get(), 0, 1, a.out(), b.out())); return a; }, {s0}));
    });
}

TEST(Cumsum, ValuesEveryDim) {
    for_each_device([&] {
        for (const Shape& s : {Shape{}, Shape{6}, Shape{3, 4}, Shape{2, 3, 4}, Shape{2, 0, 3}}) {
            H x = randt(s, 60, false);
            Vec xv = values(x);
            int64_t nd = (int64_t)s.size();
            for (int64_t dim = -std::max<int64_t>(nd, 1); dim < std::max<int64_t>(nd, 1); ++dim) {
                H c;
                CT_ASSERT_OK(ct_cumsum(x.get(), dim, c.out()));
                EXPECT_EQ(shape(c), s);
                // naive: walk each element and add everything before it along dim
                int64_t d = nd == 0 ? 0 : (dim < 0 ? dim + nd : dim);
                Shape st(s.size(), 1);
                for (int64_t k = nd - 2; k >= 0; --k) st[k] = st[k + 1] * s[k + 1];
                Vec want(xv.size());
                for (size_t i = 0; i < xv.size(); ++i) {
                    int64_t pos = nd == 0 ? 0 : ((int64_t)i / st[d]) % s[d];
                    double acc = 0;
                    for (int64_t p = 0; p <= pos; ++p) acc += xv[i - (size_t)((pos - p) * (nd ? st[d] : 0))];
                    want[i] = acc;
                }
                EXPECT_TRUE(allclose(c, want, 1e-12, 1e-12)) << dims_str(s) << " dim " << dim;
            }
        }
    });
}

TEST(Cumsum, DtypesViewsAndLarge) {
    H xi = make({1, 2, 3, 4}, {2, 2}, CT_INT32), xb = make({1, 0, 1}, {3}, CT_BOOL), c;
    CT_ASSERT_OK(ct_cumsum(xi.get(), 0, c.out()));
    EXPECT_EQ(dtype(c), CT_INT64);
    EXPECT_TRUE(allclose(c, {1, 2, 4, 6}));
    CT_ASSERT_OK(ct_cumsum(xb.get(), 0, c.out()));
    EXPECT_TRUE(allclose(c, {1, 1, 2}));
    H m = make({1, 2, 3, 4, 5, 6}, {2, 3}, CT_FLOAT32), t;
    CT_ASSERT_OK(ct_transpose(m.get(), 0, 1, t.out()));  // [[1,4],[2,5],[3,6]]
    CT_ASSERT_OK(ct_cumsum(t.get(), 1, c.out()));
    EXPECT_EQ(dtype(c), CT_FLOAT32);
    EXPECT_TRUE(allclose(c, {1, 5, 2, 7, 3, 9}));
    H ones;
    int64_t s[2] = {4000, 300};
    CT_ASSERT_OK(ct_full(s, 2, 1.0, CT_FLOAT32, test_device(), ones.out()));
    CT_ASSERT_OK(ct_cumsum(ones.get(), 0, c.out()));
    Vec v = values(c);
    EXPECT_EQ(v[299], 1.0);
    EXPECT_EQ(v.back(), 4000.0);
    CT_ASSERT_OK(ct_cumsum(ones.get(), 1, c.out()));
    v = values(c);
    EXPECT_EQ(v[300 * 3999 + 299], 300.0);
    CT_EXPECT_ERR(ct_cumsum(m.get(), 2, c.out()), CT_ERR_INDEX, "cumsum: dim 2 is out of range");
}

TEST(Cumsum, Gradchecks) {
    for_each_device([&] {
        H x = randt({3, 4}, 70, true);
        for (int64_t dim : {0, 1, -1}) {
            auto f = [dim](const std::vector<H>& v) {
                H o, sq;
                ok(ct_cumsum(v[0].get(), dim, o.out()));
                ok(ct_mul(o.get(), o.get(), sq.out()));
                return sq;
            };
            EXPECT_TRUE(gradcheck(f, {x}));
            EXPECT_TRUE(gradgradcheck(f, {x}));
        }
    });
}

// test_sort.cpp - sort/argsort/topk/kthvalue/unique against naive references (NaN order, ties, dtypes, 0-d,
// empty, non-contiguous inputs), their gradients, and error paths.
#include <algorithm>
#include <map>
#include <numeric>
#include "ct_test.h"

using namespace ctt;

namespace {

using Vec = std::vector<double>;

// PyTorch's order: NaN largest; ties by position.
bool ref_before(double a, double b, bool descending) {
    if (std::isnan(a) || std::isnan(b)) return descending ? std::isnan(a) && !std::isnan(b) : !std::isnan(a) && std::isnan(b);
    return descending ? a > b : a < b;
}

// Naive stable sort of every row of a [rows, n] matrix: (values, indices).
std::pair<Vec, Vec> ref_sort_rows(const Vec& v, int64_t rows, int64_t n, bool descending) {
    Vec vals, idx;
    for (int64_t r = 0; r < rows; ++r) {
        std::vector<int64_t> p(n);
        std::iota(p.begin(), p.end(), 0);
        std::stable_sort(p.begin(), p.end(), [&](int64_t a, int64_t b) { return ref_before(v[r * n + a], v[r * n + b], descending); });
        for (int64_t i : p) vals.push_back(v[r * n + i]), idx.push_back((double)i);
    }
    return {vals, idx};
}

bool same_values(const Vec& a, const Vec& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    return true;
}

H transpose(const H& x, int64_t a, int64_t b) {
    H t;
    ok(ct_transpose(x.get(), a, b, t.out()));
    return t;
}

}  // namespace

TEST(Sort, MatchesNaiveStableSortWithNaNsAndTies) {
    for_each_device([&] {
        Vec v = {3, 1, NAN, 2, 1, 3, 0, NAN, -1, 2, 2, 5};
        for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
            H x = make(v, {3, 4}, dt);
            for (int desc = 0; desc < 2; ++desc) {
                H val, idx;
                CT_ASSERT_OK(ct_sort(x.get(), -1, desc, 1, val.out(), idx.out()));
                auto ref = ref_sort_rows(v, 3, 4, desc);
                EXPECT_TRUE(same_values(values(val), ref.first)) << "desc " << desc;
                EXPECT_EQ(values(idx), ref.second);
                EXPECT_EQ(dtype(idx), CT_INT64);
                EXPECT_EQ(dtype(val), dt);
                H arg;
                CT_ASSERT_OK(ct_argsort(x.get(), 1, desc, 0, arg.out()));
                EXPECT_EQ(values(arg), ref.second);
            }
        }
    });
}

TEST(Sort, AlongDim0NonContiguousAndIntegerDtypes) {
    for_each_device([&] {
        Vec v = {4, 9, 1, 7, 2, 2, 8, 0, 5, 3, 6, 1};  // [4, 3]
        for (ct_dtype dt : {CT_INT32, CT_INT64, CT_UINT8, CT_FLOAT64}) {
            H x = make(v, {4, 3}, dt);
            H xt = transpose(x, 0, 1);  // [3, 4], non-contiguous: rows of xt are columns of x
            Vec cols;
            for (int64_t c = 0; c < 3; ++c)
                for (int64_t r = 0; r < 4; ++r) cols.push_back(v[r * 3 + c]);
            H val, idx;
            CT_ASSERT_OK(ct_sort(xt.get(), 1, 0, 1, val.out(), idx.out()));
            auto ref = ref_sort_rows(cols, 3, 4, false);
            EXPECT_EQ(values(val), ref.first);
            EXPECT_EQ(values(idx), ref.second);
            // dim 0 of x is the same problem transposed
            H v0, i0;
            CT_ASSERT_OK(ct_sort(x.get(), 0, 0, 1, v0.out(), i0.out()));
            EXPECT_EQ(values(transpose(v0, 0, 1)), ref.first);
        }
        H b = make({1, 0, 1, 0}, {4}, CT_BOOL), bv, bi;
        CT_ASSERT_OK(ct_sort(b.get(), 0, 1, 1, bv.out(), bi.out()));
        EXPECT_EQ(values(bv), (Vec{1, 1, 0, 0}));
        EXPECT_EQ(values(bi), (Vec{0, 2, 1, 3}));
    });
}

TEST(Sort, ZeroDimAndEmpty) {
    for_each_device([&] {
        H s = make({2.5}, {}), v, i;
        CT_ASSERT_OK(ct_sort(s.get(), 0, 0, 1, v.out(), i.out()));
        EXPECT_EQ(shape(v), Shape{});
        EXPECT_EQ(values(v), Vec{2.5});
        EXPECT_EQ(values(i), Vec{0});
        H e;
        CT_ASSERT_OK(ct_zeros(Shape{0, 3}.data(), 2, CT_FLOAT32, test_device(), e.out()));
        CT_ASSERT_OK(ct_sort(e.get(), 1, 0, 1, v.out(), i.out()));
        EXPECT_EQ(shape(v), (Shape{0, 3}));
        CT_ASSERT_OK(ct_topk(e.get(), 2, 1, 1, 1, v.out(), i.out()));
        EXPECT_EQ(shape(i), (Shape{0, 2}));
    });
}

TEST(Sort, Gradients) {
    for_each_device([&] {
        H x = randt({3, 4, 2}, 7, true);
        for (int64_t dim : {0, 1, -1}) {
            for (int desc = 0; desc < 2; ++desc) {
                auto f = [&](const std::vector<H>& in) { H a, b; ok(ct_sort(in[0].get(), dim, desc, 1, a.out(), b.out())); return a; };
                EXPECT_TRUE(gradcheck(f, {x})) << dim << " " << desc;
                auto f2 = [&](const std::vector<H>& in) {
                    H sq, a, b;
                    ok(ct_mul(in[0].get(), in[0].get(), sq.out()));
                    ok(ct_sort(sq.get(), dim, desc, 1, a.out(), b.out()));
                    return a;
                };
                EXPECT_TRUE(gradgradcheck(f2, {x}));
            }
        }
        H s = make({1.5}, {}, CT_FLOAT64, true);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { H a, b; ok(ct_sort(in[0].get(), -1, 0, 1, a.out(), b.out())); return a; }, {s}));
    });
}

TEST(Topk, LargestSmallestAgainstSort) {
    for_each_device([&] {
        Vec v = {5, 1, 4, 4, 9, -2, 0, 7, 3, 3, 8, 6};
        H x = make(v, {2, 6}, CT_FLOAT32);
        for (int largest = 0; largest < 2; ++largest) {
            for (int64_t k : {0, 1, 3, 6}) {
                H val, idx;
                CT_ASSERT_OK(ct_topk(x.get(), k, 1, largest, 1, val.out(), idx.out()));
                auto ref = ref_sort_rows(v, 2, 6, largest != 0);
                Vec rv, ri;
                for (int64_t r = 0; r < 2; ++r)
                    for (int64_t j = 0; j < k; ++j) rv.push_back(ref.first[r * 6 + j]), ri.push_back(ref.second[r * 6 + j]);
                EXPECT_EQ(shape(val), (Shape{2, k}));
                EXPECT_EQ(values(val), rv) << "k " << k << " largest " << largest;
                EXPECT_EQ(values(idx), ri);
            }
        }
        H nan = make({1, NAN, 3}, {3}), val, idx;
        CT_ASSERT_OK(ct_topk(nan.get(), 1, 0, 1, 1, val.out(), idx.out()));
        EXPECT_TRUE(std::isnan(values(val)[0]));  // NaN is the largest (as PyTorch)
    });
}

TEST(Topk, GradientsAndErrors) {
    for_each_device([&] {
        H x = randt({4, 5}, 11, true);
        for (int64_t dim : {0, 1}) {
            for (int largest = 0; largest < 2; ++largest) {
                auto f = [&](const std::vector<H>& in) { H a, b; ok(ct_topk(in[0].get(), 3, dim, largest, 1, a.out(), b.out())); return a; };
                EXPECT_TRUE(gradcheck(f, {x}));
            }
        }
        H v, i;
        CT_EXPECT_ERR(ct_topk(x.get(), 6, 1, 1, 1, v.out(), i.out()), CT_ERR_INDEX, "topk: k (6) is out of range");
        CT_EXPECT_ERR(ct_topk(x.get(), -1, 1, 1, 1, v.out(), i.out()), CT_ERR_INDEX, "topk");
        CT_EXPECT_ERR(ct_topk(x.get(), 1, 2, 1, 1, v.out(), i.out()), CT_ERR_INDEX, "topk: dim 2");
        CT_EXPECT_ERR(ct_topk(x.get(), 1, 0, 1, 1, nullptr, i.out()), CT_ERR_INVALID_ARGUMENT, "values");
        CT_EXPECT_ERR(ct_sort(nullptr, 0, 0, 0, v.out(), i.out()), CT_ERR_INVALID_HANDLE, "sort");
    });
}

TEST(Kthvalue, ValuesIndicesKeepdimAndGradients) {
    for_each_device([&] {
        Vec v = {5, 1, 4, 2, 9, -2, 0, 7, 3, 8, 6, 10};
        H x = make(v, {3, 4});
        for (int64_t k = 1; k <= 4; ++k) {
            for (int keep = 0; keep < 2; ++keep) {
                H val, idx;
                CT_ASSERT_OK(ct_kthvalue(x.get(), k, 1, keep, val.out(), idx.out()));
                auto ref = ref_sort_rows(v, 3, 4, false);
                Vec rv, ri;
                for (int64_t r = 0; r < 3; ++r) rv.push_back(ref.first[r * 4 + k - 1]), ri.push_back(ref.second[r * 4 + k - 1]);
                EXPECT_EQ(shape(val), (keep ? Shape{3, 1} : Shape{3}));
                EXPECT_EQ(values(val), rv);
                EXPECT_EQ(values(idx), ri);
            }
        }
        H xg = randt({3, 4}, 5, true);
        for (int keep = 0; keep < 2; ++keep)
            for (int64_t dim : {0, -1})
                EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { H a, b; ok(ct_kthvalue(in[0].get(), 2, dim, keep, a.out(), b.out())); return a; }, {xg}));
        H a, b;
        CT_EXPECT_ERR(ct_kthvalue(x.get(), 0, 1, 0, a.out(), b.out()), CT_ERR_INDEX, "kthvalue: k (0) is out of range");
        CT_EXPECT_ERR(ct_kthvalue(x.get(), 5, 1, 0, a.out(), b.out()), CT_ERR_INDEX, "size 4");
    });
}

TEST(Unique, SortedInverseCounts) {
    for_each_device([&] {
        Vec v = {3, 1, 2, 3, 1, 7, 7, 7, 0};
        H x = make(v, {3, 3}, CT_INT64), val, inv, cnt;
        CT_ASSERT_OK(ct_unique(x.get(), 1, val.out(), inv.out(), cnt.out()));
        std::map<double, int> counts;
        for (double d : v) counts[d]++;
        Vec rv, rc;
        for (auto& kv : counts) rv.push_back(kv.first), rc.push_back(kv.second);
        EXPECT_EQ(values(val), rv);
        EXPECT_EQ(values(cnt), rc);
        EXPECT_EQ(shape(inv), (Shape{3, 3}));
        Vec iv = values(inv);
        for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(rv[(size_t)iv[i]], v[i]);
        EXPECT_EQ(dtype(val), CT_INT64);
        // unsorted: order of first occurrence
        CT_ASSERT_OK(ct_unique(x.get(), 0, val.out(), inv.out(), nullptr));
        EXPECT_EQ(values(val), (Vec{3, 1, 2, 7, 0}));
        iv = values(inv);
        for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(values(val)[(size_t)iv[i]], v[i]);
    });
}

TEST(Unique, NaNsAreDistinctAndLastAndEmpty) {
    for_each_device([&] {
        H x = make({2, NAN, 1, NAN, 2}, {5}), val, cnt;
        CT_ASSERT_OK(ct_unique(x.get(), 1, val.out(), nullptr, cnt.out()));
        Vec vv = values(val);
        ASSERT_EQ(vv.size(), 4u);
        EXPECT_EQ(vv[0], 1);
        EXPECT_EQ(vv[1], 2);
        EXPECT_TRUE(std::isnan(vv[2]) && std::isnan(vv[3]));
        EXPECT_EQ(values(cnt), (Vec{1, 2, 1, 1}));
        H e, inv;
        CT_ASSERT_OK(ct_zeros(Shape{0}.data(), 1, CT_FLOAT32, test_device(), e.out()));
        CT_ASSERT_OK(ct_unique(e.get(), 1, val.out(), inv.out(), cnt.out()));
        EXPECT_EQ(shape(val), Shape{0});
        EXPECT_EQ(shape(cnt), Shape{0});
        CT_EXPECT_ERR(ct_unique(e.get(), 1, nullptr, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT, "unique");
    });
}

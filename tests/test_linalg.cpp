// test_linalg.cpp - matmul for every rank combination (NumPy semantics, broadcast batch dims) against a naive
// loop, transposed/sliced operands, big sizes, integer matmul, dot, outer, errors, gradcheck/gradgradcheck.
#include "ct_test.h"

using namespace ctt;

namespace {

// NumPy matmul by definition: promote 1-D operands, broadcast batch dims, triple loop, drop the added dims.
std::pair<std::vector<double>, Shape> naive_matmul(const std::vector<double>& a, Shape sa, const std::vector<double>& b,
                                                   Shape sb) {
    bool a1 = sa.size() == 1, b1 = sb.size() == 1;
    if (a1) sa.insert(sa.begin(), 1);
    if (b1) sb.push_back(1);
    int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
    size_t nb = std::max(sa.size(), sb.size()) - 2;
    Shape batch(nb);
    auto dim_or_1 = [](const Shape& s, size_t i, size_t nb) {  // batch dim i (aligned right) of s
        size_t sb = s.size() - 2;
        return i + sb >= nb ? s[i + sb - nb] : int64_t(1);
    };
    for (size_t i = 0; i < nb; ++i) {
        int64_t da = dim_or_1(sa, i, nb), db = dim_or_1(sb, i, nb);
        batch[i] = da == 1 ? db : da;
    }
    int64_t nbatch = 1;
    for (auto v : batch) nbatch *= v;
    std::vector<double> out((size_t)(nbatch * m * n), 0.0);
    for (int64_t bi = 0; bi < nbatch; ++bi) {
        int64_t rem = bi, ia = 0, ib = 0, stride_a = 1, stride_b = 1;
        for (int64_t d = (int64_t)nb - 1; d >= 0; --d) {
            int64_t idx = rem % batch[d];
            rem /= batch[d];
            int64_t da = dim_or_1(sa, (size_t)d, nb), db = dim_or_1(sb, (size_t)d, nb);
            ia += (da == 1 ? 0 : idx) * stride_a, stride_a *= da;
            ib += (db == 1 ? 0 : idx) * stride_b, stride_b *= db;
        }
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                double s = 0;
                for (int64_t p = 0; p < k; ++p) s += a[(size_t)(ia * m * k + i * k + p)] * b[(size_t)(ib * k * n + p * n + j)];
                out[(size_t)(bi * m * n + i * n + j)] = s;
            }
    }
    Shape so = batch;
    if (!a1) so.push_back(m);
    if (!b1) so.push_back(n);
    return {out, so};
}

H matmul(const H& a, const H& b) {
    H o;
    ok(ct_matmul(a.get(), b.get(), o.out()));
    return o;
}

void check_matmul(const H& a, const H& b, double tol = 1e-10) {
    auto want = naive_matmul(values(a), shape(a), values(b), shape(b));
    H o;
    CT_ASSERT_OK(ct_matmul(a.get(), b.get(), o.out()));
    EXPECT_EQ(shape(o), want.second);
    EXPECT_EQ(dtype(o), dtype(a));
    EXPECT_TRUE(allclose(o, want.first, tol, tol));
}

const std::vector<std::pair<Shape, Shape>> kRankCases = {
    {{3}, {3}},          {{3}, {3, 4}},          {{2, 3}, {3}},          {{2, 3}, {3, 4}},
    {{3}, {2, 3, 4}},    {{2, 4, 3}, {3}},       {{2, 2, 3}, {3, 4}},    {{2, 3}, {2, 3, 4}},
    {{2, 2, 3}, {2, 3, 4}}, {{2, 1, 2, 3}, {3, 3, 2}}, {{1, 2, 3}, {4, 3, 2}}, {{3}, {2, 1, 3, 2}},
    {{2, 3, 1}, {1}},    {{0, 2, 3}, {3, 4}},    {{2, 0}, {0, 3}},       {{0}, {0}},
};

}  // namespace

TEST(Linalg, MatmulEveryRankCombination) {
    for_each_device([&] {
        uint64_t seed = 1;
        for (const auto& [sa, sb] : kRankCases) {
            SCOPED_TRACE(::testing::Message() << "a " << ::testing::PrintToString(sa) << " b " << ::testing::PrintToString(sb));
            check_matmul(randt(sa, seed++, false), randt(sb, seed++, false));
            check_matmul(make(values(randt(sa, seed, false)), sa, CT_FLOAT32), make(values(randt(sb, seed + 1, false)), sb, CT_FLOAT32),
                         1e-5);
        }
        H d = matmul(make({1, 2, 3}, {3}), make({4, 5, 6}, {3}));
        EXPECT_EQ(shape(d), Shape{});
        EXPECT_EQ(scalar(d), 32.0);
    });
}

TEST(Linalg, MatmulStridedOperands) {
    for_each_device([&] {
        H a = randt({5, 4}, 1, false), b = randt({6, 5}, 2, false), at, bt, o;
        CT_ASSERT_OK(ct_t(a.get(), at.out()));  // [4, 5] column-major view: passed to BLAS transposed
        CT_ASSERT_OK(ct_t(b.get(), bt.out()));  // [5, 6]
        check_matmul(at, bt);
        check_matmul(at, randt({5, 3}, 3, false));
        check_matmul(randt({2, 5}, 4, false), bt);
        // sliced rows/columns (non-unit strides on both dims: copied), batched transposes, expanded operands
        H big = randt({8, 10}, 5, false), s1, s2;
        CT_ASSERT_OK(ct_slice(big.get(), 0, 0, 8, 2, s1.out()));  // [4, 10], row stride 20
        CT_ASSERT_OK(ct_slice(s1.get(), 1, 1, 10, 3, s2.out()));  // [4, 3], strides (20, 3)
        check_matmul(s2, randt({3, 2}, 6, false));
        check_matmul(s1, randt({10, 2}, 7, false));  // row stride 20 > 10: a BLAS leading dimension
        H c = randt({2, 3, 4}, 8, false), ct3;
        CT_ASSERT_OK(ct_transpose(c.get(), -1, -2, ct3.out()));  // [2, 4, 3]
        check_matmul(ct3, randt({2, 3, 5}, 9, false));
        check_matmul(randt({2, 5, 4}, 10, false), ct3);
        H row = randt({1, 3}, 11, false), ex;
        int64_t es[2] = {4, 3};
        CT_ASSERT_OK(ct_expand(row.get(), es, 2, ex.out()));  // row stride 0
        check_matmul(ex, randt({3, 2}, 12, false));
        H v = randt({3}, 13, false), vs;
        CT_ASSERT_OK(ct_expand(v.get(), es, 2, vs.out()));
        check_matmul(randt({2, 4}, 14, false), vs);
    });
}

TEST(Linalg, MatmulBigAgainstNaive) {
    for_each_device([&] {
        H a = make(rand_values(300 * 200, 21), {300, 200}, CT_FLOAT32);
        H b = make(rand_values(200 * 100, 22), {200, 100}, CT_FLOAT32);
        check_matmul(a, b, 2e-4);
        H a64 = randt({300, 200}, 23, false), b64 = randt({100, 200}, 24, false), bt;
        CT_ASSERT_OK(ct_t(b64.get(), bt.out()));
        check_matmul(a64, bt, 1e-10);
        check_matmul(randt({3, 70, 40}, 25, false), randt({40, 50}, 26, false));  // folded batch
    });
}

TEST(Linalg, IntegerMatmul) {
    for_each_device([&] {
        for (ct_dtype dt : {CT_INT32, CT_INT64, CT_UINT8}) {
            H a = make({1, 2, 3, 4, 5, 6}, {2, 3}, dt), b = make({1, 0, 2, 1, 0, 3, 1, 1, 1, 2, 2, 0}, {3, 4}, dt);
            if (is_cuda(a)) {  // cuBLAS has no integer gemm: refused, as in PyTorch
                H r;
                CT_EXPECT_ERR(ct_matmul(a.get(), b.get(), r.out()), CT_ERR_NOT_SUPPORTED, "not supported on cuda");
                continue;
            }
            check_matmul(a, b, 0);
            check_matmul(make({1, 2, 3, 0, 1, 2, 2, 2, 2, 1, 1, 1}, {2, 2, 3}, dt), make({3, 1, 2}, {3}, dt), 0);
            H at;
            CT_ASSERT_OK(ct_t(a.get(), at.out()));
            check_matmul(at, make({1, 2, 3, 4}, {2, 2}, dt), 0);
        }
    });
}

TEST(Linalg, DotAndOuter) {
    for_each_device([&] {
        H a = make({1, 2, 3}, {3}, CT_FLOAT64, true), b = make({4, 5, 6}, {3}, CT_FLOAT64, true), d, o, ga;
        CT_ASSERT_OK(ct_dot(a.get(), b.get(), d.out()));
        EXPECT_EQ(shape(d), Shape{});
        EXPECT_EQ(scalar(d), 32.0);
        CT_ASSERT_OK(ct_backward(d.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(a.get(), ga.out()));
        EXPECT_TRUE(allclose(ga, {4, 5, 6}));
        CT_ASSERT_OK(ct_outer(a.get(), make({1, 10}, {2}).get(), o.out()));
        EXPECT_EQ(shape(o), (Shape{3, 2}));
        EXPECT_TRUE(allclose(o, {1, 10, 2, 20, 3, 30}));
        auto fo = [](const std::vector<H>& v) { H r; ok(ct_outer(v[0].get(), v[1].get(), r.out())); return r; };
        auto fd = [](const std::vector<H>& v) { H r; ok(ct_dot(v[0].get(), v[1].get(), r.out())); return r; };
        EXPECT_TRUE(gradcheck(fo, {randt({3}, 1), randt({4}, 2)}));
        EXPECT_TRUE(gradcheck(fd, {randt({5}, 3), randt({5}, 4)}));
        H m = randt({2, 3}, 5, false), w = randt({4}, 6, false), r;
        CT_EXPECT_ERR(ct_dot(m.get(), a.get(), r.out()), CT_ERR_SHAPE, "dot: expected 1-D tensors, got shape [2, 3]");
        CT_EXPECT_ERR(ct_dot(a.get(), w.get(), r.out()), CT_ERR_SHAPE, "dot: expected both vectors to have the same");
        CT_EXPECT_ERR(ct_dot(a.get(), make({1, 2, 3}, {3}, CT_FLOAT32).get(), r.out()), CT_ERR_DTYPE, "float64 and float32");
        CT_EXPECT_ERR(ct_outer(m.get(), a.get(), r.out()), CT_ERR_SHAPE, "outer: expected 1-D");
    });
}

TEST(Linalg, MatmulErrors) {
    for_each_device([&] {
        H a = randt({2, 3}, 1, false), b = randt({4, 5}, 2, false), s = make({2}, {}), r;
        CT_EXPECT_ERR(ct_matmul(a.get(), b.get(), r.out()), CT_ERR_SHAPE, "matmul: shapes [2, 3] and [4, 5] cannot be multiplied");
        CT_EXPECT_ERR(ct_matmul(a.get(), make({1, 2}, {2}).get(), r.out()), CT_ERR_SHAPE, "[2, 3] and [2] cannot be multiplied");
        CT_EXPECT_ERR(ct_matmul(s.get(), a.get(), r.out()), CT_ERR_SHAPE, "matmul: both arguments need at least 1 dim");
        CT_EXPECT_ERR(ct_matmul(a.get(), s.get(), r.out()), CT_ERR_SHAPE, "at least 1 dim");
        H f32 = make({1, 2, 3}, {3, 1}, CT_FLOAT32);
        CT_EXPECT_ERR(ct_matmul(f32.get(), a.get(), r.out()), CT_ERR_DTYPE,
                      "matmul: expected both operands to have the same dtype, got float32 and float64");
        H bl = make({1, 0, 1}, {3}, CT_BOOL);
        CT_EXPECT_ERR(ct_matmul(bl.get(), bl.get(), r.out()), CT_ERR_DTYPE, "bool");
        CT_EXPECT_ERR(ct_matmul(randt({2, 2, 3}, 3, false).get(), randt({3, 3, 4}, 4, false).get(), r.out()), CT_ERR_SHAPE,
                      "batch dims that cannot be broadcast (2 vs 3)");
        CT_EXPECT_ERR(ct_matmul(a.get(), nullptr, r.out()), CT_ERR_INVALID_HANDLE, "matmul");
        CT_EXPECT_ERR(ct_matmul(a.get(), a.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "matmul");
    });
}

TEST(Linalg, MatmulGradchecksEveryRank) {
    for_each_device([&] {
        uint64_t seed = 40;
        auto f = [](const std::vector<H>& v) { return matmul(v[0], v[1]); };
        for (const auto& [sa, sb] : kRankCases) {
            SCOPED_TRACE(::testing::Message() << "a " << ::testing::PrintToString(sa) << " b " << ::testing::PrintToString(sb));
            EXPECT_TRUE(gradcheck(f, {randt(sa, seed++), randt(sb, seed++)}));
        }
        // transposed operands inside the function (the backward sees strided views)
        auto ft = [](const std::vector<H>& v) {
            H at, bt;
            ok(ct_transpose(v[0].get(), -1, -2, at.out()));
            ok(ct_transpose(v[1].get(), -1, -2, bt.out()));
            return matmul(at, bt);
        };
        EXPECT_TRUE(gradcheck(ft, {randt({3, 2}, 60), randt({4, 3}, 61)}));
        EXPECT_TRUE(gradcheck(ft, {randt({2, 3, 2}, 62), randt({1, 4, 3}, 63)}));
    });
}

TEST(Linalg, MatmulGradgradchecks) {
    for_each_device([&] {
        auto f = [](const std::vector<H>& v) { return matmul(v[0], v[1]); };
        const std::vector<std::pair<Shape, Shape>> cases = {
            {{3}, {3}}, {{2, 3}, {3, 4}}, {{3}, {3, 2}}, {{2, 2, 3}, {3, 2}}, {{2, 3}, {2, 3, 2}}, {{2, 1, 2, 3}, {3, 3, 1}},
        };
        uint64_t seed = 80;
        for (const auto& [sa, sb] : cases) {
            SCOPED_TRACE(::testing::Message() << "a " << ::testing::PrintToString(sa) << " b " << ::testing::PrintToString(sb));
            EXPECT_TRUE(gradgradcheck(f, {randt(sa, seed++), randt(sb, seed++)}));
        }
    });
}

TEST(Linalg, MatmulGradientToOneSideOnly) {
    for_each_device([&] {
        H a = make({1, 2, 3, 4, 5, 6}, {2, 3}, CT_FLOAT64, true), b = make({1, 0, 2, 1, 0, 3}, {3, 2}), o, ga, gb;
        CT_ASSERT_OK(ct_matmul(a.get(), b.get(), o.out()));
        H go = make({1, 1, 1, 1}, {2, 2});
        CT_ASSERT_OK(ct_backward(o.get(), go.get(), 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(a.get(), ga.out()));
        EXPECT_TRUE(allclose(ga, {1, 3, 3, 1, 3, 3}));  // row sums of b, for each row of a
        CT_ASSERT_OK(ct_tensor_grad(b.get(), gb.out()));
        EXPECT_FALSE(gb);
        char name[64];
        int32_t len = 0;
        CT_ASSERT_OK(ct_tensor_grad_fn_name(o.get(), name, sizeof name, &len));
        EXPECT_STREQ(name, "MatmulBackward");
    });
}

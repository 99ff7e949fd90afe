// test_indexing.cpp - index_select, gather, scatter, scatter_add, masked_fill, masked_select and nonzero:
// values against hand-computed results and independent loops, strided inputs, gradients, error paths.
#include "ct_test.h"

using namespace ctt;

namespace {

H ints(const std::vector<double>& v, const Shape& s, ct_dtype dt = CT_INT64) { return make(v, s, dt); }
H bools(const std::vector<double>& v, const Shape& s) { return make(v, s, CT_BOOL); }

// 0, 1, ..., n-1 in the given shape (float64).
H iota(const Shape& s) {
    int64_t n = 1;
    for (auto d : s) n *= d;
    std::vector<double> v((size_t)n);
    for (int64_t i = 0; i < n; ++i) v[(size_t)i] = (double)i;
    return make(v, s);
}

H transposed(const H& t) {
    H r;
    ok(ct_transpose(t.get(), 0, 1, r.out()));
    return r;
}

}  // namespace

TEST(IndexSelect, RowsColumnsAndNegativeDim) {
    for_each_device([&] {
        H x = iota({3, 4}), idx = ints({2, 0, 2}, {3}), r;
        CT_ASSERT_OK(ct_index_select(x.get(), 0, idx.get(), r.out()));
        EXPECT_EQ(shape(r), (Shape{3, 4}));
        EXPECT_TRUE(allclose(r, {8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11}));
        H c, i32 = ints({3, 1}, {2}, CT_INT32);
        CT_ASSERT_OK(ct_index_select(x.get(), -1, i32.get(), c.out()));
        EXPECT_EQ(shape(c), (Shape{3, 2}));
        EXPECT_TRUE(allclose(c, {3, 1, 7, 5, 11, 9}));
        EXPECT_EQ(dtype(c), CT_FLOAT64);
    });
}

TEST(IndexSelect, StridedInputAndIndexMatchLoop) {
    for_each_device([&] {
        H base = iota({5, 6}), xt = transposed(base);  // [6, 5], non-contiguous
        H idx_full = ints({4, 9, 0, 9, 2, 9, 4, 9}, {8}), idx;
        CT_ASSERT_OK(ct_slice(idx_full.get(), 0, 0, 8, 2, idx.out()));  // {4, 0, 2, 4}, stride 2
        H r;
        CT_ASSERT_OK(ct_index_select(xt.get(), 1, idx.get(), r.out()));
        std::vector<double> expect;
        const int sel[4] = {4, 0, 2, 4};
        for (int i = 0; i < 6; ++i)
            for (int j : sel) expect.push_back(j * 6 + i);  // xt[i][j] = base[j][i]
        EXPECT_TRUE(allclose(r, expect));
    });
}

TEST(IndexSelect, EmptyIndexAndScalarInput) {
    for_each_device([&] {
        H x = iota({2, 3}), none = ints({}, {0}), r;
        CT_ASSERT_OK(ct_index_select(x.get(), 1, none.get(), r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 0}));
        H s = make({7.5}, {}), zero = ints({0}, {1}), rs;
        CT_ASSERT_OK(ct_index_select(s.get(), 0, zero.get(), rs.out()));
        EXPECT_EQ(shape(rs), Shape{});
        EXPECT_TRUE(allclose(rs, {7.5}));
        H two = ints({0, 0}, {2});
        CT_EXPECT_ERR(ct_index_select(s.get(), 0, two.get(), rs.out()), CT_ERR_INDEX, "exactly one value");
    });
}

TEST(IndexSelect, Errors) {
    for_each_device([&] {
        H x = iota({3, 4}), r;
        H neg = ints({0, -1}, {2});
        CT_EXPECT_ERR(ct_index_select(x.get(), 0, neg.get(), r.out()), CT_ERR_INDEX,
                      "index_select: index -1 is out of bounds for dim 0 with size 3");
        H big = ints({1, 4}, {2});
        CT_EXPECT_ERR(ct_index_select(x.get(), 1, big.get(), r.out()), CT_ERR_INDEX, "index 4 is out of bounds for dim 1 with size 4");
        H two_d = ints({0, 1}, {1, 2});
        CT_EXPECT_ERR(ct_index_select(x.get(), 0, two_d.get(), r.out()), CT_ERR_SHAPE, "index must be 1-D");
        H fidx = make({0, 1}, {2});
        CT_EXPECT_ERR(ct_index_select(x.get(), 0, fidx.get(), r.out()), CT_ERR_DTYPE, "int64 or int32");
        H ok_idx = ints({0}, {1});
        CT_EXPECT_ERR(ct_index_select(x.get(), 2, ok_idx.get(), r.out()), CT_ERR_INDEX, "dim 2 is out of range");
        CT_EXPECT_ERR(ct_index_select(nullptr, 0, ok_idx.get(), r.out()), CT_ERR_INVALID_HANDLE, "index_select");
        CT_EXPECT_ERR(ct_index_select(x.get(), 0, ok_idx.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
        EXPECT_FALSE(r);  // failures leave out-params untouched
    });
}

TEST(IndexSelect, GradientWithRepeatedIndices) {
    for_each_device([&] {
        H x = randt({4, 3}, 1), rep = ints({1, 1, 3, 0, 1}, {5});
        for (int64_t dim : {0, -2}) {
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
                H r;
                ok(ct_index_select(in[0].get(), dim, rep.get(), r.out()));
                return r;
            }, {x}));
        }
        H cols = ints({2, 2, 0}, {3}, CT_INT32);
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) {
            H r, sq;
            ok(ct_index_select(in[0].get(), 1, cols.get(), r.out()));
            ok(ct_mul(r.get(), r.get(), sq.out()));
            return sq;
        }, {x}));
        // hand check: each row's gradient counts how often it was selected
        H xl = make({1, 2, 3, 4}, {4}, CT_FLOAT64, true), r, l, g;
        CT_ASSERT_OK(ct_index_select(xl.get(), 0, rep.get(), r.out()));
        CT_ASSERT_OK(ct_sum(r.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(xl.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1, 3, 0, 1}));
    });
}

TEST(Gather, DocExampleAndLoop) {
    for_each_device([&] {
        H t = make({1, 2, 3, 4}, {2, 2}), idx = ints({0, 0, 1, 0}, {2, 2}), r;
        CT_ASSERT_OK(ct_gather(t.get(), 1, idx.get(), r.out()));
        EXPECT_TRUE(allclose(r, {1, 1, 4, 3}));
        // 3-D, index smaller than x in the other dims, along every dim (also negative), x non-contiguous
        H base = iota({4, 3, 5}), x;
        int64_t perm[3] = {1, 0, 2};
        CT_ASSERT_OK(ct_permute(base.get(), perm, 3, x.out()));  // x[i][j][k] = base[j][i][k], shape [3, 4, 5]
        const Shape xs = {3, 4, 5}, is = {2, 3, 4};
        for (int64_t dim = -3; dim < 3; ++dim) {
            int64_t d = dim < 0 ? dim + 3 : dim;
            std::vector<double> iv = rand_values(24, 5 + (uint64_t)d, 0, (double)xs[(size_t)d] - 1e-9);
            for (auto& v : iv) v = std::floor(v);
            H index = ints(iv, is), g;
            CT_ASSERT_OK(ct_gather(x.get(), dim, index.get(), g.out()));
            EXPECT_EQ(shape(g), is);
            std::vector<double> expect;
            for (int64_t a = 0; a < 2; ++a)
                for (int64_t b = 0; b < 3; ++b)
                    for (int64_t c = 0; c < 4; ++c) {
                        int64_t p[3] = {a, b, c};
                        p[d] = (int64_t)iv[(size_t)((a * 3 + b) * 4 + c)];
                        expect.push_back((double)(p[1] * 15 + p[0] * 5 + p[2]));
                    }
            EXPECT_TRUE(allclose(g, expect)) << "dim " << dim;
        }
    });
}

TEST(Gather, IntegerDataAndScalar) {
    for_each_device([&] {
        H x = ints({10, 20, 30}, {3}, CT_INT32), idx = ints({2, 2, 0, 1}, {4}), r;
        CT_ASSERT_OK(ct_gather(x.get(), 0, idx.get(), r.out()));
        EXPECT_EQ(dtype(r), CT_INT32);
        EXPECT_TRUE(allclose(r, {30, 30, 10, 20}));
        H s = make({4}, {}), zi = ints({0}, {}), rs;
        CT_ASSERT_OK(ct_gather(s.get(), 0, zi.get(), rs.out()));
        EXPECT_EQ(shape(rs), Shape{});
        EXPECT_TRUE(allclose(rs, {4}));
    });
}

TEST(Gather, Errors) {
    for_each_device([&] {
        H x = iota({2, 5}), r;
        H oob = ints({0, 7, 1, 2}, {2, 2});
        CT_EXPECT_ERR(ct_gather(x.get(), 1, oob.get(), r.out()), CT_ERR_INDEX,
                      "gather: index 7 is out of bounds for dim 1 with size 5");
        H neg = ints({0, -2}, {1, 2});
        CT_EXPECT_ERR(ct_gather(x.get(), -1, neg.get(), r.out()), CT_ERR_INDEX, "index -2 is out of bounds");
        H rank1 = ints({0}, {1});
        CT_EXPECT_ERR(ct_gather(x.get(), 0, rank1.get(), r.out()), CT_ERR_SHAPE, "as many dims as input");
        H wide = ints({0, 0, 0, 0, 0, 0}, {1, 6});
        CT_EXPECT_ERR(ct_gather(x.get(), 0, wide.get(), r.out()), CT_ERR_SHAPE, "exceeds input shape [2, 5] in dim 1");
        H fidx = make({0}, {1, 1});
        CT_EXPECT_ERR(ct_gather(x.get(), 0, fidx.get(), r.out()), CT_ERR_DTYPE, "gather: index must be int64 or int32");
        CT_EXPECT_ERR(ct_gather(x.get(), 3, rank1.get(), r.out()), CT_ERR_INDEX, "dim 3 is out of range");
    });
}

TEST(Gather, GradientWithRepeatedIndices) {
    for_each_device([&] {
        H x = randt({3, 4}, 2);
        H idx = ints({0, 0, 3, 1, 1, 1, 2, 2}, {2, 4});
        for (int64_t dim : {1, -1}) {
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
                H r;
                ok(ct_gather(in[0].get(), dim, idx.get(), r.out()));
                return r;
            }, {x}));
        }
        H idx0 = ints({2, 2, 0, 2, 1, 2, 2, 2}, {2, 4});
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) {
            H r, sq;
            ok(ct_gather(in[0].get(), 0, idx0.get(), r.out()));
            ok(ct_mul(r.get(), r.get(), sq.out()));
            return sq;
        }, {x}));
    });
}

TEST(Scatter, DocExamples) {
    for_each_device([&] {
        H src = make({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {2, 5}), z, r;
        CT_ASSERT_OK(ct_zeros(Shape{3, 5}.data(), 2, CT_FLOAT64, test_device(), z.out()));
        H idx = ints({0, 1, 2, 0}, {1, 4});  // src larger than index in both dims
        CT_ASSERT_OK(ct_scatter(z.get(), 0, idx.get(), src.get(), r.out()));
        EXPECT_TRUE(allclose(r, {1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0}));
        H ones, ra;
        CT_ASSERT_OK(ct_ones(Shape{2, 5}.data(), 2, CT_FLOAT64, test_device(), ones.out()));
        H idx2 = ints({0, 1, 2, 0, 0, 0, 1, 2, 2, 2}, {2, 5});
        CT_ASSERT_OK(ct_scatter_add(z.get(), 0, idx2.get(), ones.get(), ra.out()));
        EXPECT_TRUE(allclose(ra, {2, 0, 0, 1, 1, 0, 2, 0, 0, 0, 0, 0, 2, 1, 1}));
        EXPECT_TRUE(allclose(z, std::vector<double>(15, 0.0)));  // out of place: x untouched
    });
}

TEST(Scatter, AlongLastDimStridedAndIntegers) {
    for_each_device([&] {
        H base = iota({3, 2}), x = transposed(base);  // [[0, 2, 4], [1, 3, 5]]
        H src = make({10, 20, 30, 40}, {2, 2}), idx = ints({2, 0, 1, 1}, {2, 2}), r;
        CT_ASSERT_OK(ct_scatter(x.get(), -1, idx.get(), src.get(), r.out()));
        // row 1 writes index 1 twice: on the CPU the later write wins; on a GPU either may (as in torch, whose
        // scatter documents duplicates as nondeterministic there; the emulated backend runs in order)
        std::vector<double> got = values(r);
        if (is_cuda(r) && got[4] == 30) got[4] = 40;
        EXPECT_EQ(got, (std::vector<double>{20, 2, 10, 1, 40, 5}));
        H xi = ints({1, 1, 1}, {3}, CT_INT32), si = ints({5, 6, 7, 8}, {4}, CT_INT32), ii = ints({0, 2, 0, 0}, {4}), ri;
        CT_ASSERT_OK(ct_scatter_add(xi.get(), 0, ii.get(), si.get(), ri.out()));
        EXPECT_EQ(dtype(ri), CT_INT32);
        EXPECT_TRUE(allclose(ri, {1 + 5 + 7 + 8, 1, 1 + 6}));
    });
}

TEST(Scatter, Errors) {
    for_each_device([&] {
        H x = iota({3, 5}), src = iota({2, 5}), r;
        H oob = ints({0, 3}, {1, 2});
        CT_EXPECT_ERR(ct_scatter(x.get(), 0, oob.get(), src.get(), r.out()), CT_ERR_INDEX,
                      "scatter: index 3 is out of bounds for dim 0 with size 3");
        H neg = ints({-1}, {1, 1});
        CT_EXPECT_ERR(ct_scatter_add(x.get(), 1, neg.get(), src.get(), r.out()), CT_ERR_INDEX,
                      "scatter_add: index -1 is out of bounds for dim 1 with size 5");
        H tall = ints({0, 0, 0}, {3, 1});
        CT_EXPECT_ERR(ct_scatter(x.get(), 1, tall.get(), src.get(), r.out()), CT_ERR_SHAPE, "exceeds src shape [2, 5] in dim 0");
        H wide = ints({0, 0, 0, 0, 0, 0}, {1, 6}), src6 = iota({1, 6});
        CT_EXPECT_ERR(ct_scatter(x.get(), 0, wide.get(), src6.get(), r.out()), CT_ERR_SHAPE, "exceeds input shape");
        H f32 = make({1, 2}, {1, 2}, CT_FLOAT32), i2 = ints({0, 1}, {1, 2});
        CT_EXPECT_ERR(ct_scatter(x.get(), 0, i2.get(), f32.get(), r.out()), CT_ERR_DTYPE, "src dtype float32 differs");
        H flat = ints({0}, {1});
        CT_EXPECT_ERR(ct_scatter(x.get(), 0, flat.get(), src.get(), r.out()), CT_ERR_SHAPE, "as many dims");
        CT_EXPECT_ERR(ct_scatter(x.get(), 0, i2.get(), nullptr, r.out()), CT_ERR_INVALID_HANDLE, "src");
    });
}

TEST(Scatter, Gradients) {
    for_each_device([&] {
        H x = randt({3, 4}, 3), src = randt({3, 5}, 4);  // src larger than index
        H uniq = ints({2, 0, 1, 1, 0, 2, 2, 0}, {2, 4});  // unique per column of dim 0
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
            H r;
            ok(ct_scatter(in[0].get(), 0, uniq.get(), in[1].get(), r.out()));
            return r;
        }, {x, src}));
        H rep = ints({1, 1, 1, 0, 3, 3, 3, 3}, {2, 4});  // repeated along dim 1
        for (int64_t dim : {1, -1}) {
            EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
                H r;
                ok(ct_scatter_add(in[0].get(), dim, rep.get(), in[1].get(), r.out()));
                return r;
            }, {x, src}));
        }
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) {
            H r, sq;
            ok(ct_scatter_add(in[0].get(), 1, rep.get(), in[1].get(), r.out()));
            ok(ct_mul(r.get(), r.get(), sq.out()));
            return sq;
        }, {x, src}));
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) {
            H r, sq;
            ok(ct_scatter(in[0].get(), 0, uniq.get(), in[1].get(), r.out()));
            ok(ct_mul(r.get(), r.get(), sq.out()));
            return sq;
        }, {x, src}));
        // scatter: the overwritten positions of x get no gradient
        H xl = make({1, 2, 3}, {3}, CT_FLOAT64, true), s = make({9}, {1}), i = ints({1}, {1}), r, l, g;
        CT_ASSERT_OK(ct_scatter(xl.get(), 0, i.get(), s.get(), r.out()));
        CT_ASSERT_OK(ct_sum(r.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(xl.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1, 0, 1}));
    });
}

TEST(Scatter, LargeParallelScatterAddMatchesLoopAndThreadCount) {
    // many duplicates per output line, enough rows for the parallel path; integer-valued floats sum exactly
    const int64_t rows = 64, cols = 2048, n = rows * cols;
    std::vector<double> iv = rand_values((size_t)n, 21, 0, rows - 1e-9), sv = rand_values((size_t)n, 22, -8, 8);
    for (auto& v : iv) v = std::floor(v);
    for (auto& v : sv) v = std::floor(v);
    H index = ints(iv, {rows, cols}), src = make(sv, {rows, cols}), z, r1, r2, rf1, rf2;
    CT_ASSERT_OK(ct_zeros(Shape{rows, cols}.data(), 2, CT_FLOAT64, ct_cpu(), z.out()));
    std::vector<double> expect((size_t)n, 0.0);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) expect[(size_t)(iv[(size_t)(i * cols + j)] * cols + j)] += sv[(size_t)(i * cols + j)];
    int32_t original = ct_get_num_threads();
    H fsrc = randt({rows, cols}, 23, false);
    CT_ASSERT_OK(ct_set_num_threads(1));
    CT_ASSERT_OK(ct_scatter_add(z.get(), 0, index.get(), src.get(), r1.out()));
    CT_ASSERT_OK(ct_scatter_add(z.get(), 0, index.get(), fsrc.get(), rf1.out()));
    CT_ASSERT_OK(ct_set_num_threads(2));
    CT_ASSERT_OK(ct_scatter_add(z.get(), 0, index.get(), src.get(), r2.out()));
    CT_ASSERT_OK(ct_scatter_add(z.get(), 0, index.get(), fsrc.get(), rf2.out()));
    CT_ASSERT_OK(ct_set_num_threads(original));
    EXPECT_TRUE(allclose(r1, expect, 0, 0));
    EXPECT_TRUE(allclose(r2, expect, 0, 0));
    EXPECT_TRUE(values(rf1) == values(rf2));  // same summation order whatever the thread count
}

TEST(MaskedFill, ValuesAndBroadcasting) {
    for_each_device([&] {
        H x = iota({2, 3}), m = bools({1, 0, 1}, {3}), r;
        CT_ASSERT_OK(ct_masked_fill(x.get(), m.get(), -1.5, r.out()));
        EXPECT_TRUE(allclose(r, {-1.5, 1, -1.5, -1.5, 4, -1.5}));
        H row = make({5, 6, 7}, {3}), m2 = bools({0, 1, 0, 1, 1, 0}, {2, 3}), r2;  // mask broadcasts x
        CT_ASSERT_OK(ct_masked_fill(row.get(), m2.get(), 0, r2.out()));
        EXPECT_EQ(shape(r2), (Shape{2, 3}));
        EXPECT_TRUE(allclose(r2, {5, 0, 7, 0, 0, 7}));
        H xi = ints({1, 2, 3}, {3}, CT_UINT8), ri;
        CT_ASSERT_OK(ct_masked_fill(xi.get(), m.get(), 255, ri.out()));
        EXPECT_EQ(dtype(ri), CT_UINT8);
        EXPECT_TRUE(allclose(ri, {255, 2, 255}));
        H xt = transposed(x), rt;  // [3, 2] strided
        H m3 = bools({1, 0}, {2});
        CT_ASSERT_OK(ct_masked_fill(xt.get(), m3.get(), 9, rt.out()));
        EXPECT_TRUE(allclose(rt, {9, 3, 9, 4, 9, 5}));
    });
}

TEST(MaskedFill, ErrorsAndGradient) {
    for_each_device([&] {
        H x = iota({2, 3}), r;
        H notbool = ints({1, 0, 1}, {3});
        CT_EXPECT_ERR(ct_masked_fill(x.get(), notbool.get(), 0, r.out()), CT_ERR_DTYPE, "masked_fill: mask must be bool, got int64");
        H m4 = bools({1, 0, 1, 0}, {4});
        CT_EXPECT_ERR(ct_masked_fill(x.get(), m4.get(), 0, r.out()), CT_ERR_SHAPE, "masked_fill");
        H xu = ints({1}, {1}, CT_UINT8), m1 = bools({1}, {1});
        CT_EXPECT_ERR(ct_masked_fill(xu.get(), m1.get(), 300, r.out()), CT_ERR_INVALID_ARGUMENT, "value 300 cannot be converted to uint8");
        CT_EXPECT_ERR(ct_masked_fill(xu.get(), m1.get(), NAN, r.out()), CT_ERR_INVALID_ARGUMENT, "cannot be converted");
        H a = randt({2, 3}, 5), m = bools({0, 1, 1, 0, 0, 1}, {2, 3}), b = randt({3}, 6);
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
            H r;
            ok(ct_masked_fill(in[0].get(), m.get(), 2.0, r.out()));
            return r;
        }, {a}));
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {  // x broadcast by the mask: gradients summed
            H r;
            ok(ct_masked_fill(in[0].get(), m.get(), 2.0, r.out()));
            return r;
        }, {b}));
    });
}

TEST(MaskedSelect, ValuesBroadcastAndEmpty) {
    for_each_device([&] {
        H x = iota({2, 3}), m = bools({1, 0, 1, 0, 1, 1}, {2, 3}), r;
        CT_ASSERT_OK(ct_masked_select(x.get(), m.get(), r.out()));
        EXPECT_EQ(shape(r), (Shape{4}));
        EXPECT_TRUE(allclose(r, {0, 2, 4, 5}));
        H row = bools({0, 1, 1}, {3}), rb;
        H xt = transposed(iota({3, 2}));  // [[0, 2, 4], [1, 3, 5]]
        CT_ASSERT_OK(ct_masked_select(xt.get(), row.get(), rb.out()));
        EXPECT_TRUE(allclose(rb, {2, 4, 3, 5}));
        H v = make({7, 8}, {2, 1}), m2 = bools({1, 0, 1}, {3}), rv;  // x broadcast by the mask
        CT_ASSERT_OK(ct_masked_select(v.get(), m2.get(), rv.out()));
        EXPECT_TRUE(allclose(rv, {7, 7, 8, 8}));
        H none = bools({0, 0, 0}, {3}), re;
        CT_ASSERT_OK(ct_masked_select(x.get(), none.get(), re.out()));
        EXPECT_EQ(shape(re), (Shape{0}));
        H bad = make({1}, {1});
        CT_EXPECT_ERR(ct_masked_select(x.get(), bad.get(), re.out()), CT_ERR_DTYPE, "masked_select: mask must be bool");
    });
}

TEST(MaskedSelect, LargeMaskMatchesLoop) {
    const int64_t n = 300001;  // several compaction blocks
    std::vector<double> mv = rand_values((size_t)n, 8, 0, 1);
    for (auto& v : mv) v = v < 0.3 ? 1 : 0;
    H x = iota({n}), m = bools(mv, {n}), r;
    CT_ASSERT_OK(ct_masked_select(x.get(), m.get(), r.out()));
    std::vector<double> expect;
    for (int64_t i = 0; i < n; ++i)
        if (mv[(size_t)i]) expect.push_back((double)i);
    EXPECT_TRUE(allclose(r, expect));
}

TEST(MaskedSelect, Gradient) {
    for_each_device([&] {
        H a = randt({2, 3}, 7), m = bools({1, 0, 1, 1, 1, 0}, {2, 3});
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
            H r;
            ok(ct_masked_select(in[0].get(), m.get(), r.out()));
            return r;
        }, {a}));
        H col = randt({2, 1}, 8);  // broadcast x: gradient summed over the expanded dim
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
            H r;
            ok(ct_masked_select(in[0].get(), m.get(), r.out()));
            return r;
        }, {col}));
        EXPECT_TRUE(gradgradcheck([&](const std::vector<H>& in) {
            H r, sq;
            ok(ct_masked_select(in[0].get(), m.get(), r.out()));
            ok(ct_mul(r.get(), r.get(), sq.out()));
            return sq;
        }, {a}));
    });
}

TEST(Nonzero, CoordinatesForEveryRank) {
    for_each_device([&] {
        H x = make({0, 1.5, 0, -2, NAN, 0}, {2, 3}), r;
        CT_ASSERT_OK(ct_nonzero(x.get(), r.out()));
        EXPECT_EQ(dtype(r), CT_INT64);
        EXPECT_EQ(shape(r), (Shape{3, 2}));
        EXPECT_TRUE(allclose(r, {0, 1, 1, 0, 1, 1}));
        H b = bools({0, 1, 1}, {3}), rb;
        CT_ASSERT_OK(ct_nonzero(b.get(), rb.out()));
        EXPECT_EQ(shape(rb), (Shape{2, 1}));
        EXPECT_TRUE(allclose(rb, {1, 2}));
        H s = make({3}, {}), rs;
        CT_ASSERT_OK(ct_nonzero(s.get(), rs.out()));
        EXPECT_EQ(shape(rs), (Shape{1, 0}));
        H e = iota({0, 4}), re;
        CT_ASSERT_OK(ct_nonzero(e.get(), re.out()));
        EXPECT_EQ(shape(re), (Shape{0, 2}));
        H xt = transposed(make({0, 1, 2, 0}, {2, 2})), rt;  // [[0, 2], [1, 0]]
        CT_ASSERT_OK(ct_nonzero(xt.get(), rt.out()));
        EXPECT_TRUE(allclose(rt, {0, 1, 1, 0}));
        CT_EXPECT_ERR(ct_nonzero(nullptr, rt.out()), CT_ERR_INVALID_HANDLE, "nonzero");
    });
}

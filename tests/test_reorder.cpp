// test_reorder.cpp - cumprod (values, zeros in the backward, double backward), flip, roll, tril/triu and einsum
// against naive loops, their gradients and error paths.
#include <functional>
#include "ct_test.h"

using namespace ctt;

namespace {
using Vec = std::vector<double>;

H unary_dim(ct_status (*fn)(ct_tensor, int64_t, ct_tensor*), const H& x, int64_t d) {
    H out;
    ok(fn(x.get(), d, out.out()));
    return out;
}

H einsum(const char* eq, const std::vector<H>& ops) {
    std::vector<ct_tensor> hs;
    for (auto& h : ops) hs.push_back(h.get());
    H out;
    ok(ct_einsum(eq, hs.data(), (int32_t)hs.size(), out.out()));
    return out;
}

// Naive sum over an index space: out[o] = sum over all index tuples of prod of operand entries.
Vec matmul_ref(const Vec& a, const Vec& b, int64_t m, int64_t k, int64_t n) {
    Vec out(m * n, 0.0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t t = 0; t < k; ++t) out[i * n + j] += a[i * k + t] * b[t * n + j];
    return out;
}
}  // namespace

TEST(Cumprod, ValuesAlongEachDimAndDtypes) {
    for_each_device([&] {
        Vec v = {1, 2, 3, 4, 0, 5, -1, 2, 2, 1, 3, 0.5};  // [3, 4]
        H x = make(v, {3, 4});
        Vec r1, r0(v);
        for (int64_t r = 0; r < 3; ++r) {
            double acc = 1;
            for (int64_t c = 0; c < 4; ++c) r1.push_back(acc *= v[r * 4 + c]);
        }
        for (int64_t r = 1; r < 3; ++r)
            for (int64_t c = 0; c < 4; ++c) r0[r * 4 + c] = r0[(r - 1) * 4 + c] * v[r * 4 + c];
        EXPECT_TRUE(allclose(unary_dim(ct_cumprod, x, 1), r1));
        EXPECT_TRUE(allclose(unary_dim(ct_cumprod, x, -2), r0));
        H xi = make({2, 3, 4}, {3}, CT_INT32);
        H ci = unary_dim(ct_cumprod, xi, 0);
        EXPECT_EQ(dtype(ci), CT_INT64);
        EXPECT_EQ(values(ci), (Vec{2, 6, 24}));
        H s = make({3}, {});
        EXPECT_EQ(values(unary_dim(ct_cumprod, s, -1)), Vec{3});
        H out;
        CT_EXPECT_ERR(ct_cumprod(x.get(), 2, out.out()), CT_ERR_INDEX, "cumprod: dim 2");
    });
}

TEST(Cumprod, GradientWithZerosAndDoubleBackward) {
    for_each_device([&] {
        for (const Vec& v : {Vec{0.5, -1.2, 0.8, 1.5, 0.3, -0.7}, Vec{0.5, 0.0, 0.8, 1.5, 0.0, -0.7},
                             Vec{0.0, 0.9, 0.8, 1.5, -1.1, 0.0}, Vec{0.0, 0.0, 0.8, 0.0, 0.0, 0.0}}) {
            H x = make(v, {2, 3}, CT_FLOAT64, true);
            for (int64_t d : {0, 1}) {
                auto f = [d](const std::vector<H>& in) { return unary_dim(ct_cumprod, in[0], d); };
                EXPECT_TRUE(gradcheck(f, {x})) << "dim " << d << " first value " << v[0];
                EXPECT_TRUE(gradgradcheck(f, {x})) << "dim " << d;
            }
        }
        // hand-computed: x = [2, 0, 3]: out = [2, 0, 0]; d/dx0 = 1, d/dx1 = 2 + 2*3, d/dx2 = 0
        H x = make({2, 0, 3}, {3}, CT_FLOAT64, true), c = unary_dim(ct_cumprod, x, 0), s, g;
        ok(ct_sum(c.get(), nullptr, 0, 0, s.out()));
        CT_ASSERT_OK(ct_backward(s.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1, 8, 0}));
    });
}

TEST(Flip, ValuesDtypesAndGradient) {
    for_each_device([&] {
        Vec v(24);
        for (int i = 0; i < 24; ++i) v[i] = i;
        for (ct_dtype dt : {CT_FLOAT32, CT_INT64, CT_UINT8, CT_BOOL}) {
            H x = make(v, {2, 3, 4}, dt), out;
            int64_t dims[] = {0, -1};
            CT_ASSERT_OK(ct_flip(x.get(), dims, 2, out.out()));
            Vec ref, xv = values(x);
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 3; ++b)
                    for (int c = 0; c < 4; ++c) ref.push_back(xv[(1 - a) * 12 + b * 4 + (3 - c)]);
            EXPECT_EQ(values(out), ref);
            EXPECT_EQ(dtype(out), dt);
            int64_t mid = 1;
            CT_ASSERT_OK(ct_flip(x.get(), &mid, 1, out.out()));
            ref.clear();
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 3; ++b)
                    for (int c = 0; c < 4; ++c) ref.push_back(xv[a * 12 + (2 - b) * 4 + c]);
            EXPECT_EQ(values(out), ref);
        }
        H x = randt({3, 4}, 3, true);
        int64_t d1 = 1, dd[] = {0, 0};
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { H o; ok(ct_flip(in[0].get(), &d1, 1, o.out())); return o; }, {x}));
        H o;
        CT_EXPECT_ERR(ct_flip(x.get(), dd, 2, o.out()), CT_ERR_INVALID_ARGUMENT, "flip: dim 0 appears more than once");
        CT_EXPECT_ERR(ct_flip(x.get(), &d1, -1, o.out()), CT_ERR_INVALID_ARGUMENT, "flip");
    });
}

TEST(Roll, ValuesAndGradient) {
    for_each_device([&] {
        H x = make({0, 1, 2, 3, 4, 5}, {2, 3}), out;
        int64_t s1 = 1, d1 = 1, sneg = -4, shifts[] = {1, 2}, dims[] = {0, 1};
        CT_ASSERT_OK(ct_roll(x.get(), &s1, 1, &d1, 1, out.out()));
        EXPECT_EQ(values(out), (Vec{2, 0, 1, 5, 3, 4}));
        CT_ASSERT_OK(ct_roll(x.get(), &sneg, 1, nullptr, 0, out.out()));  // flattened: left by 4
        EXPECT_EQ(values(out), (Vec{4, 5, 0, 1, 2, 3}));
        EXPECT_EQ(shape(out), (Shape{2, 3}));
        CT_ASSERT_OK(ct_roll(x.get(), shifts, 2, dims, 2, out.out()));
        EXPECT_EQ(values(out), (Vec{4, 5, 3, 1, 2, 0}));
        H xg = randt({3, 4}, 9, true);
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { H o; ok(ct_roll(in[0].get(), shifts, 2, dims, 2, o.out())); return o; }, {xg}));
        CT_EXPECT_ERR(ct_roll(x.get(), shifts, 2, dims, 1, out.out()), CT_ERR_INVALID_ARGUMENT, "roll: shifts and dims");
        CT_EXPECT_ERR(ct_roll(x.get(), shifts, 2, nullptr, 0, out.out()), CT_ERR_INVALID_ARGUMENT, "roll: without dims");
    });
}

TEST(Triangle, TrilTriuDiagonalsBatchAndGradient) {
    for_each_device([&] {
        Vec v(2 * 3 * 4);
        for (size_t i = 0; i < v.size(); ++i) v[i] = (double)i + 1;
        H x = make(v, {2, 3, 4});
        for (int64_t diag : {-1, 0, 2}) {
            H lo, up;
            CT_ASSERT_OK(ct_tril(x.get(), diag, lo.out()));
            CT_ASSERT_OK(ct_triu(x.get(), diag, up.out()));
            Vec rl, ru;
            for (int b = 0; b < 2; ++b)
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 4; ++j) {
                        double e = v[b * 12 + i * 4 + j];
                        rl.push_back(j - i <= diag ? e : 0);
                        ru.push_back(j - i >= diag ? e : 0);
                    }
            EXPECT_EQ(values(lo), rl) << diag;
            EXPECT_EQ(values(up), ru) << diag;
        }
        H xi = make({1, 2, 3, 4}, {2, 2}, CT_INT32), o;
        CT_ASSERT_OK(ct_tril(xi.get(), 0, o.out()));
        EXPECT_EQ(dtype(o), CT_INT32);
        EXPECT_EQ(values(o), (Vec{1, 0, 3, 4}));
        H xg = randt({3, 3}, 4, true);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { H r; ok(ct_triu(in[0].get(), 1, r.out())); return r; }, {xg}));
        H one = make({1, 2}, {2});
        CT_EXPECT_ERR(ct_tril(one.get(), 0, o.out()), CT_ERR_SHAPE, "tril: input must have at least 2 dims, got shape [2]");
    });
}

TEST(Einsum, MatmulBatchTraceOuterAndEllipsis) {
    for_each_device([&] {
        H a = randt({3, 4}, 1, false), b = randt({4, 5}, 2, false);
        EXPECT_TRUE(allclose(einsum("ij,jk->ik", {a, b}), matmul_ref(values(a), values(b), 3, 4, 5), 1e-12));
        EXPECT_TRUE(allclose(einsum("ij,jk", {a, b}), matmul_ref(values(a), values(b), 3, 4, 5), 1e-12));
        // transpose of the product through the output order
        H ki = einsum("ij,jk->ki", {a, b}), ref_t;
        Vec mm = matmul_ref(values(a), values(b), 3, 4, 5), tr;
        for (int k = 0; k < 5; ++k)
            for (int i = 0; i < 3; ++i) tr.push_back(mm[i * 5 + k]);
        EXPECT_TRUE(allclose(ki, tr, 1e-12));
        // trace and diagonal
        H sq = randt({4, 4}, 3, false);
        Vec sv = values(sq);
        EXPECT_NEAR(scalar(einsum("ii", {sq})), sv[0] + sv[5] + sv[10] + sv[15], 1e-12);
        EXPECT_TRUE(allclose(einsum("ii->i", {sq}), {sv[0], sv[5], sv[10], sv[15]}, 1e-12));
        // outer product, sums, implicit output in alphabetical order
        H u = make({1, 2}, {2}), w = make({3, 4, 5}, {3});
        EXPECT_EQ(values(einsum("i,j->ij", {u, w})), (Vec{3, 4, 5, 6, 8, 10}));
        EXPECT_EQ(values(einsum("j,i", {u, w})), (Vec{3, 6, 4, 8, 5, 10}));  // output "ij": i from w
        EXPECT_EQ(values(einsum("ij->", {einsum("i,j->ij", {u, w})})), Vec{36});
        // batched matmul with ellipsis broadcasting a batch dim of size 1
        H x = randt({2, 3, 4}, 5, false), y = randt({1, 4, 2}, 6, false);
        H r = einsum("...ij,...jk->...ik", {x, y});
        EXPECT_EQ(shape(r), (Shape{2, 3, 2}));
        Vec xv = values(x), yv = values(y), rv;
        for (int bb = 0; bb < 2; ++bb) {
            Vec xb(xv.begin() + bb * 12, xv.begin() + bb * 12 + 12), p = matmul_ref(xb, yv, 3, 4, 2);
            rv.insert(rv.end(), p.begin(), p.end());
        }
        EXPECT_TRUE(allclose(r, rv, 1e-12));
        // three operands: a chain product
        H c = randt({5, 2}, 8, false);
        H chain = einsum("ij,jk,kl->il", {a, b, c});
        EXPECT_TRUE(allclose(chain, matmul_ref(mm, values(c), 3, 5, 2), 1e-12));
        // integer operands
        H ia = make({1, 2, 3, 4}, {2, 2}, CT_INT64);
        if (is_cuda(ia)) {  // contracted through matmul, which cuBLAS cannot do for integers (as in PyTorch)
            H r;
            const ct_tensor ops[2] = {ia.get(), ia.get()};
            CT_EXPECT_ERR(ct_einsum("ij,jk->ik", ops, 2, r.out()), CT_ERR_NOT_SUPPORTED, "not supported on cuda");
            return;
        }
        H ir = einsum("ij,jk->ik", {ia, ia});
        EXPECT_EQ(dtype(ir), CT_INT64);
        EXPECT_EQ(values(ir), (Vec{7, 10, 15, 22}));
    });
}

TEST(Einsum, GradientsAndErrors) {
    for_each_device([&] {
        H a = randt({3, 4}, 1), b = randt({4, 2}, 2), v = randt({3}, 3), sq = randt({3, 3}, 4);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return einsum("ij,jk->ik", in); }, {a, b}));
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) { return einsum("ij,jk->ik", in); }, {a, b}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return einsum("i,ij,jk->k", in); }, {v, a, b}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return einsum("ii->i", in); }, {sq}));
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return einsum("ij->j", in); }, {a}));
        H x = randt({2, 3, 4}, 5), y = randt({2, 4}, 6);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) { return einsum("bij,bj->bi", in); }, {x, y}));
        std::vector<ct_tensor> hs = {a.get(), b.get()};
        H o;
        CT_EXPECT_ERR(ct_einsum("ij,jk->ik", hs.data(), 1, o.out()), CT_ERR_INVALID_ARGUMENT, "1 tensor(s)");
        CT_EXPECT_ERR(ct_einsum("ij,kl->im", hs.data(), 2, o.out()), CT_ERR_INVALID_ARGUMENT, "output subscript 'm'");
        CT_EXPECT_ERR(ct_einsum("ij,ik->jk", hs.data(), 2, o.out()), CT_ERR_SHAPE, "subscript i has size 3");
        CT_EXPECT_ERR(ct_einsum("ijk,jk->i", hs.data(), 2, o.out()), CT_ERR_SHAPE, "operand 0");
        CT_EXPECT_ERR(ct_einsum("i1,jk", hs.data(), 2, o.out()), CT_ERR_INVALID_ARGUMENT, "invalid character '1'");
        CT_EXPECT_ERR(ct_einsum("ij,jk->ii", hs.data(), 2, o.out()), CT_ERR_INVALID_ARGUMENT, "more than once");
        CT_EXPECT_ERR(ct_einsum(nullptr, hs.data(), 2, o.out()), CT_ERR_INVALID_ARGUMENT, "equation is NULL");
    });
}

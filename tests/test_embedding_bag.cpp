// test_embedding_bag.cpp - ct_embedding_bag against a host reference (every mode, offsets or 2-D bags, empty bags,
// padding_idx, per_sample_weights, include_last_offset), float64 gradchecks of weight and per_sample_weights,
// ct_embedding_ex's padding_idx / scale_grad_by_freq gradients (and second derivatives), ct_embedding_renorm_, and
// errors - on the CPU and on the (emulated) CUDA device.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

const int64_t kNum = 6, kDim = 3;

// Reference bag reduction: bags given as start positions into idx (start.back() == idx.size()).
std::vector<double> ref_bags(const std::vector<double>& w, const std::vector<int64_t>& idx,
                             const std::vector<int64_t>& start, int mode, const std::vector<double>& psw,
                             int64_t padding) {
    std::vector<double> out;
    for (size_t b = 0; b + 1 < start.size(); ++b) {
        std::vector<double> acc((size_t)kDim, 0.0);
        int used = 0;
        for (int64_t e = start[b]; e < start[b + 1]; ++e) {
            int64_t row = idx[(size_t)e];
            if (row == padding) continue;
            for (int64_t c = 0; c < kDim; ++c) {
                double v = w[(size_t)(row * kDim + c)];
                if (mode == CT_EMBEDDING_BAG_MAX) acc[(size_t)c] = used == 0 ? v : std::max(acc[(size_t)c], v);
                else acc[(size_t)c] += (psw.empty() ? 1.0 : psw[(size_t)e]) * v;
            }
            ++used;
        }
        if (mode == CT_EMBEDDING_BAG_MEAN && used > 0)
            for (double& a : acc) a /= used;
        out.insert(out.end(), acc.begin(), acc.end());
    }
    return out;
}

H bag(const H& w, const H& idx, const H& off, int mode, const H& psw = H(), int last = 0, int64_t pad = 0,
      int has_pad = 0, int freq = 0) {
    H o;
    ok(ct_embedding_bag(w.get(), idx.get(), off.get(), mode, psw.get(), last, pad, has_pad, freq, o.out()));
    return o;
}

H weight_grad(const H& out, const H& w) {
    H s, g;
    ok(ct_sum(out.get(), nullptr, 0, 0, s.out()));
    ok(ct_backward(s.get(), nullptr, 0, 0));
    ok(ct_tensor_grad(w.get(), g.out()));
    return g;
}

}  // namespace

TEST(EmbeddingBag, EveryModeMatchesTheReference) {
    for_each_device([&] {
        std::vector<double> wv = rand_values((size_t)(kNum * kDim), 11, -2, 2);
        H w = make(wv, {kNum, kDim});
        const std::vector<int64_t> idx = {0, 2, 4, 5, 1, 2, 2, 3};
        const std::vector<double> idxd(idx.begin(), idx.end());
        H indices = make(idxd, {8}, CT_INT64);
        H offsets = make({0, 3, 3, 5}, {4}, CT_INT64);  // bags [0,3) [3,3) (empty) [3,5) [5,8)
        const std::vector<int64_t> start = {0, 3, 3, 5, 8};
        std::vector<double> psw = rand_values(8, 3, 0.5, 1.5);
        for (int mode : {CT_EMBEDDING_BAG_SUM, CT_EMBEDDING_BAG_MEAN, CT_EMBEDDING_BAG_MAX}) {
            H o = bag(w, indices, offsets, mode);
            EXPECT_EQ(shape(o), (Shape{4, kDim}));
            EXPECT_TRUE(allclose(o, ref_bags(wv, idx, start, mode, {}, -1), 1e-12)) << "mode " << mode;
            // padding_idx 2 (given as -4) leaves those rows out
            H p = bag(w, indices, offsets, mode, H(), 0, -4, 1);
            EXPECT_TRUE(allclose(p, ref_bags(wv, idx, start, mode, {}, 2), 1e-12)) << "padding, mode " << mode;
        }
        H ps = make(psw, {8});
        EXPECT_TRUE(allclose(bag(w, indices, offsets, CT_EMBEDDING_BAG_SUM, ps), ref_bags(wv, idx, start, 0, psw, -1), 1e-12));
        // include_last_offset: the offsets {0, 3, 3, 5, 8} end the last bag themselves
        H off5 = make({0, 3, 3, 5, 8}, {5}, CT_INT32);
        EXPECT_TRUE(allclose(bag(w, indices, off5, CT_EMBEDDING_BAG_MEAN, H(), 1), ref_bags(wv, idx, start, 1, {}, -1), 1e-12));
        // 2-D indices: each row a bag
        H idx2 = make(idxd, {2, 4}, CT_INT64);
        EXPECT_TRUE(allclose(bag(w, idx2, H(), CT_EMBEDDING_BAG_MAX), ref_bags(wv, idx, {0, 4, 8}, 2, {}, -1), 1e-12));
    });
}

TEST(EmbeddingBag, GradientsMatchCentralDifferences) {
    for_each_device([&] {
        H indices = make({0, 2, 4, 5, 1, 2, 2, 3}, {8}, CT_INT64);
        H offsets = make({0, 3, 3, 5}, {4}, CT_INT64);
        for (int mode : {CT_EMBEDDING_BAG_SUM, CT_EMBEDDING_BAG_MEAN, CT_EMBEDDING_BAG_MAX})
            for (int freq : {0, 1}) {
                if (mode == CT_EMBEDDING_BAG_MAX && freq) continue;  // refused, as torch
                EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return bag(in[0], indices, offsets, mode, H(), 0, 2, 1, freq); },
                                      {randt({kNum, kDim}, 5 + mode)}))
                    << "mode " << mode << " scale_grad_by_freq " << freq;
            }
        EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) { return bag(in[0], indices, offsets, CT_EMBEDDING_BAG_SUM, in[1]); },
                              {randt({kNum, kDim}, 8), randt({8}, 9)}));
    });
}

TEST(EmbeddingBag, EmptyBagsGiveZerosAndNoGradient) {
    for_each_device([&] {
        H w = randt({kNum, kDim}, 4);
        std::vector<double> wv = values(w);
        H indices = make({1, 1}, {2}, CT_INT64);
        H offsets = make({0, 0, 2}, {3}, CT_INT64);  // bags: [0, 0) empty, [0, 2) = {1, 1}, [2, 2) empty
        H o = bag(w, indices, offsets, CT_EMBEDDING_BAG_MAX);
        std::vector<double> v = values(o);
        for (int64_t c = 0; c < kDim; ++c) {
            EXPECT_EQ(v[(size_t)c], 0.0);
            EXPECT_EQ(v[(size_t)(kDim + c)], wv[(size_t)(kDim + c)]);
            EXPECT_EQ(v[(size_t)(2 * kDim + c)], 0.0);
        }
        std::vector<double> g = values(weight_grad(o, w));
        for (int64_t r = 0; r < kNum; ++r)
            for (int64_t c = 0; c < kDim; ++c)  // max: the first of the tied rows gets the gradient
                EXPECT_EQ(g[(size_t)(r * kDim + c)], r == 1 ? 1.0 : 0.0);
    });
}

TEST(EmbeddingEx, PaddingRowGetsNoGradientAndFrequencyScales) {
    for_each_device([&] {
        H w = randt({kNum, kDim}, 12);
        H indices = make({3, 1, 3, 3, 0}, {5}, CT_INT64);
        H o;
        CT_ASSERT_OK(ct_embedding_ex(w.get(), indices.get(), -3, 1, 1, o.out()));  // padding row 3, by frequency
        std::vector<double> g = values(weight_grad(o, w));
        const double want[kNum] = {1, 1, 0, 0, 0, 0};  // rows 0 and 1 once each (1 / count 1), row 3 padded
        for (int64_t r = 0; r < kNum; ++r)
            for (int64_t c = 0; c < kDim; ++c) EXPECT_EQ(g[(size_t)(r * kDim + c)], want[r]) << r;
        H plain;
        CT_ASSERT_OK(ct_embedding(w.get(), indices.get(), plain.out()));
        EXPECT_TRUE(allclose(o, values(plain), 0.0, 0.0));  // the forward is embedding's
        // Second derivative, in closed form: with S the row factors (0 at padding row 3, 1 / count by frequency),
        // g = dL/dw of L = sum(E * E) is 2 S[r] count[r] w[r], and d sum(g) / dw[r] = 2 S[r]^2 count[r] (the
        // gradient of E goes through the scaling alias again; torch's double backward leaves the frequency out).
        H w2 = randt({kNum, kDim}, 13);
        H e, sq, s, g2, gs, gg;
        CT_ASSERT_OK(ct_embedding_ex(w2.get(), indices.get(), 3, 1, 1, e.out()));
        CT_ASSERT_OK(ct_mul(e.get(), e.get(), sq.out()));
        CT_ASSERT_OK(ct_sum(sq.get(), nullptr, 0, 0, s.out()));
        ct_tensor ins[1] = {w2.get()};
        ct_tensor outs[1] = {s.get()};
        CT_ASSERT_OK(ct_autograd_grad(outs, 1, nullptr, ins, 1, 1, 1, 0, g2.out()));
        std::vector<double> wv2 = values(w2), gv = values(g2);
        const double count[kNum] = {1, 1, 0, 3, 0, 0}, factor[kNum] = {1, 1, 1, 0, 1, 1};
        for (int64_t r = 0; r < kNum; ++r)
            for (int64_t c = 0; c < kDim; ++c)
                EXPECT_NEAR(gv[(size_t)(r * kDim + c)], 2 * factor[r] * (count[r] > 0 ? 1.0 : 0.0) * wv2[(size_t)(r * kDim + c)], 1e-12);
        CT_ASSERT_OK(ct_sum(g2.get(), nullptr, 0, 0, gs.out()));
        CT_ASSERT_OK(ct_backward(gs.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(w2.get(), gg.out()));
        std::vector<double> ggv = values(gg);
        for (int64_t r = 0; r < kNum; ++r)
            for (int64_t c = 0; c < kDim; ++c)
                EXPECT_NEAR(ggv[(size_t)(r * kDim + c)], count[r] > 0 ? 2 * (factor[r] / count[r]) * (factor[r] / count[r]) * count[r] : 0.0, 1e-12)
                    << r;
    });
}

TEST(EmbeddingRenorm, ScalesOnlyTheNamedRowsAboveMaxNorm) {
    for_each_device([&] {
        std::vector<double> wv = {3, 4, 0, /*row 1*/ 0.1, 0.1, 0.1, /*row 2*/ 6, 8, 0, /*row 3*/ 1, 2, 2};
        H w = make(wv, {4, 3});
        H indices = make({0, 1, 0}, {3}, CT_INT64);
        int64_t v0 = 0, v1 = 0;
        CT_ASSERT_OK(ct_tensor_version(w.get(), &v0));
        CT_ASSERT_OK(ct_embedding_renorm_(w.get(), indices.get(), 2.0, 2.0));
        CT_ASSERT_OK(ct_tensor_version(w.get(), &v1));
        EXPECT_GT(v1, v0);
        const double s = 2.0 / (5.0 + 1e-7);
        EXPECT_TRUE(allclose(w, {3 * s, 4 * s, 0, 0.1, 0.1, 0.1, 6, 8, 0, 1, 2, 2}, 1e-12));
        // inf-norm: row 3's max |x| is 2 > 1.5
        H i3 = make({3}, {1}, CT_INT32);
        CT_ASSERT_OK(ct_embedding_renorm_(w.get(), i3.get(), 1.5, INFINITY));
        std::vector<double> v = values(w);
        EXPECT_NEAR(v[9 + 2], 1.5 * 2 / (2 + 1e-7), 1e-12);
    });
}

TEST(EmbeddingBag, BadInputNamesTheOpAndValues) {
    H w = randt({kNum, kDim}, 1, false);
    H idx = make({0, 1, 2}, {3}, CT_INT64);
    H off = make({0, 2}, {2}, CT_INT64);
    H o;
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), nullptr, 0, nullptr, 0, 0, 0, 0, o.out()), CT_ERR_INVALID_ARGUMENT,
                  "offsets are required");
    H off_bad = make({1, 2}, {2}, CT_INT64);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off_bad.get(), 0, nullptr, 0, 0, 0, 0, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "offsets[0] must be 0, got 1");
    H off_dec = make({0, 2, 1}, {3}, CT_INT64);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off_dec.get(), 0, nullptr, 0, 0, 0, 0, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "non-decreasing");
    H off_far = make({0, 9}, {2}, CT_INT64);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off_far.get(), 0, nullptr, 0, 0, 0, 0, o.out()), CT_ERR_INDEX, "9");
    H big = make({0, 7}, {2}, CT_INT64);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), big.get(), off.get(), 0, nullptr, 0, 0, 0, 0, o.out()), CT_ERR_INDEX,
                  "index 7 is out of range for 6");
    H psw = randt({3}, 2, false);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off.get(), CT_EMBEDDING_BAG_MAX, psw.get(), 0, 0, 0, 0, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "only supported for mode sum, got mode max");
    H psw2 = randt({2}, 2, false);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off.get(), 0, psw2.get(), 0, 0, 0, 0, o.out()), CT_ERR_SHAPE,
                  "per_sample_weights (shape [2])");
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off.get(), 7, nullptr, 0, 0, 0, 0, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "got 7");
    H idx2 = make({0, 1, 2, 3}, {2, 2}, CT_INT64);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx2.get(), off.get(), 0, nullptr, 0, 0, 0, 0, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "offsets must be NULL when indices is 2-D");
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off.get(), 0, nullptr, 0, 6, 1, 0, o.out()), CT_ERR_INDEX,
                  "padding_idx 6 is out of range for 6");
    H fidx = make({0, 1}, {2}, CT_FLOAT32);
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), fidx.get(), off.get(), 0, nullptr, 0, 0, 0, 0, o.out()), CT_ERR_DTYPE,
                  "indices must be int64 or int32, got float32");
    CT_EXPECT_ERR(ct_embedding_bag(w.get(), idx.get(), off.get(), CT_EMBEDDING_BAG_MAX, nullptr, 0, 0, 0, 1, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "max mode does not support scaling the gradient by the frequency");
    CT_EXPECT_ERR(ct_embedding_ex(w.get(), idx.get(), -7, 1, 0, o.out()), CT_ERR_INDEX, "padding_idx -7");
    CT_EXPECT_ERR(ct_embedding_renorm_(w.get(), idx.get(), -1.0, 2.0), CT_ERR_INVALID_ARGUMENT, "max_norm must be positive");
    CT_EXPECT_ERR(ct_embedding_bag(nullptr, idx.get(), off.get(), 0, nullptr, 0, 0, 0, 0, o.out()), CT_ERR_INVALID_HANDLE,
                  "embedding_bag");
}

// test_fold.cpp - ct_unfold / ct_fold (sliding blocks and their adjoint) and ct_pixel_shuffle / _unshuffle through
// the C API: values against direct loops, the adjoint identity <unfold(x), c> = <x, fold(c)>, gradchecks incl.
// double backward, and errors.
#include "ct_test.h"

using namespace ctt;

namespace {

struct Blocks {
    int64_t k[2], d[2], p[2], s[2];
};

// y * y: unfold and fold are linear, so their double backward is only exercised through a product.
H sq(const H& y) {
    H yy;
    ok(ct_mul(y.get(), y.get(), yy.out()));
    return yy;
}

H unfold_of(const H& x, const Blocks& b) {
    H y;
    ok(ct_unfold(x.get(), b.k, b.d, b.p, b.s, y.out()));
    return y;
}

H fold_of(const H& c, const int64_t* size, const Blocks& b) {
    H y;
    ok(ct_fold(c.get(), size, b.k, b.d, b.p, b.s, y.out()));
    return y;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

}  // namespace

TEST(Fold, UnfoldMatchesDirectLoopsAndFoldIsItsAdjoint) {
    for_each_device([&] {
        const Blocks b{{3, 2}, {1, 2}, {1, 0}, {2, 1}};
        const int64_t N = 2, C = 3, H_ = 7, W = 6, size[2] = {H_, W};
        const int64_t OH = (H_ + 2 - 3) / 2 + 1, OW = (W - 3) / 1 + 1, L = OH * OW;
        std::vector<double> xv = rand_values((size_t)(N * C * H_ * W), 1), expect;
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t i = 0; i < 3; ++i)
                    for (int64_t j = 0; j < 2; ++j)
                        for (int64_t oh = 0; oh < OH; ++oh)
                            for (int64_t ow = 0; ow < OW; ++ow) {
                                const int64_t h = oh * 2 - 1 + i, w = ow + 2 * j;
                                expect.push_back(h < 0 || h >= H_ || w >= W ? 0.0
                                                                           : xv[(size_t)(((n * C + c) * H_ + h) * W + w)]);
                            }
        H x = make(xv, {N, C, H_, W});
        H y = unfold_of(x, b);
        EXPECT_EQ(shape(y), (Shape{N, C * 6, L}));
        EXPECT_TRUE(allclose(y, expect, 0));
        std::vector<double> cv = rand_values((size_t)(N * C * 6 * L), 2);
        H f = fold_of(make(cv, {N, C * 6, L}), size, b);
        EXPECT_EQ(shape(f), (Shape{N, C, H_, W}));
        EXPECT_NEAR(dot(values(y), cv), dot(xv, values(f)), 1e-10);
        H y3 = unfold_of(make(std::vector<double>(xv.begin(), xv.begin() + C * H_ * W), {C, H_, W}), b);
        EXPECT_EQ(shape(y3), (Shape{C * 6, L}));
    });
}

TEST(Fold, GradcheckAndDoubleBackward) {
    for_each_device([&] {
        const Blocks b{{2, 2}, {2, 1}, {1, 1}, {1, 2}};
        const int64_t size[2] = {4, 5};
        std::function<H(const std::vector<H>&)> fu = [b](const std::vector<H>& v) { return sq(unfold_of(v[0], b)); };
        std::function<H(const std::vector<H>&)> ff = [b, size](const std::vector<H>& v) {
            return sq(fold_of(v[0], size, b));
        };
        std::vector<H> x{randt({1, 2, 4, 5}, 3)};
        H probe = unfold_of(x[0], b);
        std::vector<H> c{randt(shape(probe), 4)};
        EXPECT_TRUE(gradcheck(fu, x));
        EXPECT_TRUE(gradgradcheck(fu, x));
        EXPECT_TRUE(gradcheck(ff, c));
        EXPECT_TRUE(gradgradcheck(ff, c));
        std::function<H(const std::vector<H>&)> ps = [](const std::vector<H>& v) {
            H y;
            ok(ct_pixel_shuffle(v[0].get(), 2, y.out()));
            return y;
        };
        std::vector<H> z{randt({1, 8, 2, 3}, 5)};
        EXPECT_TRUE(gradcheck(ps, z));
    });
}

TEST(Fold, PixelShuffleValues) {
    for_each_device([&] {
        // [1, 4, 1, 2] -> [1, 1, 2, 4]: out[h * 2 + i][w * 2 + j] = x[i * 2 + j][h][w]
        H x = make({0, 1, 10, 11, 20, 21, 30, 31}, {1, 4, 1, 2}), y, back;
        CT_ASSERT_OK(ct_pixel_shuffle(x.get(), 2, y.out()));
        EXPECT_EQ(shape(y), (Shape{1, 1, 2, 4}));
        EXPECT_TRUE(allclose(y, {0, 10, 1, 11, 20, 30, 21, 31}, 0));
        CT_ASSERT_OK(ct_pixel_unshuffle(y.get(), 2, back.out()));
        EXPECT_TRUE(allclose(back, values(x), 0));
    });
}

TEST(Fold, Errors) {
    const int64_t two[2] = {2, 2}, one[2] = {1, 1}, zero[2] = {0, 0}, three[2] = {3, 3}, big[2] = {5, 5};
    H x = randt({1, 2, 4, 4}, 1, false), y;
    CT_EXPECT_ERR(ct_unfold(x.get(), big, one, zero, one, y.out()), CT_ERR_SHAPE, "unfold: no sliding block fits");
    CT_EXPECT_ERR(ct_unfold(x.get(), two, one, zero, zero, y.out()), CT_ERR_INVALID_ARGUMENT,
                  "unfold: stride must be positive, got 0");
    CT_EXPECT_ERR(ct_unfold(x.get(), nullptr, one, zero, one, y.out()), CT_ERR_INVALID_ARGUMENT, "unfold: kernel is NULL");
    H c = randt({1, 8, 5}, 2, false);
    CT_EXPECT_ERR(ct_fold(c.get(), three, two, one, zero, one, y.out()), CT_ERR_SHAPE,
                  "fold: input [1, 8, 5] has 5 blocks but output size 3x3");
    H c7 = randt({1, 7, 4}, 3, false);
    CT_EXPECT_ERR(ct_fold(c7.get(), three, two, one, zero, one, y.out()), CT_ERR_SHAPE, "divisible by the product");
    CT_EXPECT_ERR(ct_pixel_shuffle(x.get(), 2, y.out()), CT_ERR_SHAPE,
                  "pixel_shuffle: channels 2 are not divisible by upscale_factor^2 = 4");
    CT_EXPECT_ERR(ct_pixel_shuffle(x.get(), 0, y.out()), CT_ERR_INVALID_ARGUMENT, "upscale_factor must be positive");
    CT_EXPECT_ERR(ct_pixel_unshuffle(x.get(), 3, y.out()), CT_ERR_SHAPE, "must be divisible by downscale_factor 3");
    H x1 = randt({4}, 4, false);
    CT_EXPECT_ERR(ct_pixel_unshuffle(x1.get(), 1, y.out()), CT_ERR_SHAPE, "expected input with at least 3 dims");
}

// test_conv_nd.cpp - ct_convolution (spatial rank 1, 2, 3; direct and transposed) through the C API: values
// against direct loops (the transposed one as a scatter), gradchecks incl. double backward, and bad input.
#include "ct_test.h"

using namespace ctt;

namespace {

struct NdCase {
    int32_t nd;
    Shape x, w;
    std::vector<int64_t> stride, padding, dilation, output_padding;
    int64_t groups;
    bool bias, transposed;
};

int64_t prod(const Shape& s, size_t from = 0) {
    int64_t n = 1;
    for (size_t i = from; i < s.size(); ++i) n *= s[i];
    return n;
}

// Pads a rank-nd spatial array to 3 values (leading fill), as Note [Conv rank] normalises.
std::vector<int64_t> three(const std::vector<int64_t>& v, int32_t nd, int64_t fill) {
    std::vector<int64_t> r(3 - nd, fill);
    r.insert(r.end(), v.begin(), v.end());
    return r;
}

// Direct loops over the normalised 3 dims. Direct: out[n][o][q] += x[n][g*Cg+c][q*s - p + t*d] * w[o][c][t].
// Transposed: out[n][g*Og+o][i*s - p + t*d] += x[n][g*Cg+c][i] * w[g*Cg+c][o][t] (scatter).
std::vector<double> ref(const std::vector<double>& xv, const std::vector<double>& wv, const std::vector<double>& bv,
                        const NdCase& k, Shape& out_shape) {
    const int nd = k.nd;
    std::vector<int64_t> in = three(Shape(k.x.begin() + 2, k.x.end()), nd, 1);
    std::vector<int64_t> ks = three(Shape(k.w.begin() + 2, k.w.end()), nd, 1);
    std::vector<int64_t> s = three(k.stride, nd, 1), p = three(k.padding, nd, 0), d = three(k.dilation, nd, 1);
    std::vector<int64_t> op = three(k.output_padding.empty() ? std::vector<int64_t>(nd, 0) : k.output_padding, nd, 0);
    const int64_t N = k.x[0], C = k.x[1], G = k.groups, Cg = C / G;
    const int64_t O = k.transposed ? k.w[1] * G : k.w[0], Og = O / G;
    std::vector<int64_t> out(3);
    for (int i = 0; i < 3; ++i)
        out[i] = k.transposed ? (in[i] - 1) * s[i] - 2 * p[i] + d[i] * (ks[i] - 1) + op[i] + 1
                              : (in[i] + 2 * p[i] - d[i] * (ks[i] - 1) - 1) / s[i] + 1;
    out_shape = {N, O};
    for (int i = 3 - nd; i < 3; ++i) out_shape.push_back(out[i]);
    const int64_t P = out[0] * out[1] * out[2], X = in[0] * in[1] * in[2], T = ks[0] * ks[1] * ks[2];
    std::vector<double> y((size_t)(N * O * P), 0.0);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < O; ++o)
            for (int64_t q = 0; q < P; ++q) y[(size_t)((n * O + o) * P + q)] = k.bias ? bv[(size_t)o] : 0.0;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t g = 0; g < G; ++g)
            for (int64_t c = 0; c < Cg; ++c)
                for (int64_t o = 0; o < Og; ++o)
                    for (int64_t t = 0; t < T; ++t) {
                        const int64_t tap[3] = {t / (ks[1] * ks[2]), t / ks[2] % ks[1], t % ks[2]};
                        const double wt = k.transposed ? wv[(size_t)(((g * Cg + c) * Og + o) * T + t)]
                                                       : wv[(size_t)(((g * Og + o) * Cg + c) * T + t)];
                        const int64_t* lo = k.transposed ? in.data() : out.data();  // the gathered-from side
                        for (int64_t a = 0; a < lo[0]; ++a)
                            for (int64_t b = 0; b < lo[1]; ++b)
                                for (int64_t e = 0; e < lo[2]; ++e) {
                                    const int64_t q[3] = {a, b, e};
                                    int64_t r[3];
                                    bool inside = true;
                                    for (int i = 0; i < 3; ++i) {
                                        r[i] = q[i] * s[i] - p[i] + tap[i] * d[i];
                                        const int64_t lim = k.transposed ? out[i] : in[i];
                                        inside = inside && r[i] >= 0 && r[i] < lim;
                                    }
                                    if (!inside) continue;
                                    const int64_t qi = (a * lo[1] + b) * lo[2] + e;
                                    if (k.transposed) {
                                        const int64_t ri = (r[0] * out[1] + r[1]) * out[2] + r[2];
                                        y[(size_t)((n * O + g * Og + o) * P + ri)] +=
                                            xv[(size_t)((n * C + g * Cg + c) * X + qi)] * wt;
                                    } else {
                                        const int64_t ri = (r[0] * in[1] + r[1]) * in[2] + r[2];
                                        y[(size_t)((n * O + g * Og + o) * P + qi)] +=
                                            xv[(size_t)((n * C + g * Cg + c) * X + ri)] * wt;
                                    }
                                }
                    }
    return y;
}

H conv_of(const std::vector<H>& in, const NdCase& k) {
    H y;
    ok(ct_convolution(in[0].get(), in[1].get(), in.size() > 2 ? in[2].get() : nullptr, k.stride.data(),
                      k.padding.data(), k.dilation.data(), k.nd, k.transposed,
                      k.output_padding.empty() ? nullptr : k.output_padding.data(), k.groups, y.out()));
    return y;
}

std::vector<NdCase> cases() {
    return {
        {1, {2, 3, 9}, {4, 3, 3}, {1}, {0}, {1}, {}, 1, true, false},
        {1, {2, 4, 11}, {6, 2, 3}, {2}, {2}, {2}, {}, 2, true, false},
        {1, {1, 4, 7}, {4, 1, 3}, {1}, {1}, {1}, {}, 4, false, false},  // depthwise
        {2, {1, 4, 7, 6}, {6, 2, 3, 2}, {2, 1}, {1, 0}, {1, 2}, {}, 2, true, false},
        {3, {2, 2, 5, 4, 6}, {3, 2, 3, 2, 3}, {1, 1, 2}, {1, 0, 1}, {1, 2, 1}, {}, 1, true, false},
        {3, {1, 4, 4, 5, 3}, {4, 2, 2, 1, 2}, {2, 1, 1}, {0, 1, 1}, {1, 1, 2}, {}, 2, false, false},
        {3, {1, 3, 3, 3, 3}, {2, 3, 1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {}, 1, true, false},  // pointwise
        {1, {2, 3, 5}, {3, 2, 3}, {2}, {1}, {1}, {1}, 1, true, true},
        {1, {1, 4, 6}, {4, 3, 2}, {3}, {0}, {2}, {1}, 2, false, true},
        {2, {1, 4, 3, 4}, {4, 2, 3, 2}, {2, 1}, {1, 0}, {1, 3}, {1, 2}, 2, true, true},  // op < dilation only
        {3, {1, 2, 3, 2, 3}, {2, 3, 2, 3, 2}, {2, 1, 2}, {0, 1, 1}, {1, 1, 2}, {1, 0, 1}, 1, true, true},
    };
}

}  // namespace

TEST(ConvNd, MatchesDirectLoops) {
    for_each_device([&] {
        int seed = 0;
        for (const NdCase& k : cases()) {
            std::vector<double> xv = rand_values((size_t)prod(k.x), ++seed), wv = rand_values((size_t)prod(k.w), ++seed);
            const int64_t O = k.transposed ? k.w[1] * k.groups : k.w[0];
            std::vector<double> bv = rand_values((size_t)O, ++seed);
            Shape os;
            std::vector<double> expect = ref(xv, wv, bv, k, os);
            for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
                std::vector<H> in{make(xv, k.x, dt), make(wv, k.w, dt)};
                if (k.bias) in.push_back(make(bv, {O}, dt));
                H y = conv_of(in, k);
                EXPECT_EQ(shape(y), os) << "case " << seed / 3;
                EXPECT_TRUE(allclose(y, expect, dt == CT_FLOAT64 ? 1e-12 : 1e-5, 1e-4)) << "case " << seed / 3;
            }
        }
    });
}

TEST(ConvNd, Unbatched) {
    for_each_device([&] {
        NdCase k{3, {1, 2, 4, 3, 3}, {2, 2, 2, 2, 2}, {1, 1, 1}, {1, 0, 0}, {1, 1, 1}, {}, 1, true, false};
        std::vector<double> xv = rand_values(72, 1), wv = rand_values(32, 2), bv = rand_values(2, 3);
        Shape os;
        std::vector<double> expect = ref(xv, wv, bv, k, os);
        H y = conv_of({make(xv, {2, 4, 3, 3}), make(wv, k.w), make(bv, {2})}, k);
        EXPECT_EQ(shape(y), Shape(os.begin() + 1, os.end()));
        EXPECT_TRUE(allclose(y, expect, 1e-12));
    });
}

TEST(ConvNd, GradcheckAndDoubleBackward) {
    for_each_device([&] {
        int seed = 100;
        for (const NdCase& k : cases()) {
            Shape xs = k.x;
            xs[0] = 1;  // keep the numeric differences cheap
            const int64_t O = k.transposed ? k.w[1] * k.groups : k.w[0];
            std::vector<H> in{randt(xs, ++seed), randt(k.w, ++seed)};
            if (k.bias) in.push_back(randt({O}, ++seed));
            std::function<H(const std::vector<H>&)> f = [k](const std::vector<H>& v) { return conv_of(v, k); };
            EXPECT_TRUE(gradcheck(f, in)) << "case seed " << seed;
            EXPECT_TRUE(gradgradcheck(f, in)) << "case seed " << seed;
        }
    });
}

// Note [Conv batch parallelism]: the threads own samples (each with its own im2col scratch and weight-gradient
// partial) when there are at least as many sample-group items as threads, else each kernel splits itself. Every
// case with a batch of 5 under 1, 2 and 3 threads: the forward against the direct loops, and the input, weight
// and bias gradients of a fixed output gradient equal across thread counts (the weight-gradient partials are
// summed in another order: close, not bitwise). The direct convolutions' weight gradient (read from the
// forward's im2col, Note [Conv col reuse]) is also checked against the direct loops: by linearity in w,
// grad_w[j] = <grad_out, conv(x, e_j)> for the unit weight e_j.
TEST(ConvNd, ThreadCountsAgree) {
    const int32_t saved = ct_get_num_threads();
    int seed = 300;
    for (NdCase k : cases()) {
        k.x[0] = 5;
        const int64_t O = k.transposed ? k.w[1] * k.groups : k.w[0];
        std::vector<double> xv = rand_values((size_t)prod(k.x), ++seed), wv = rand_values((size_t)prod(k.w), ++seed);
        std::vector<double> bv = rand_values((size_t)O, ++seed);
        Shape os;
        std::vector<double> expect = ref(xv, wv, bv, k, os);
        std::vector<double> gov = rand_values((size_t)prod(os), ++seed);
        std::vector<std::vector<double>> first;
        for (int32_t threads : {1, 2, 3}) {
            SCOPED_TRACE("case seed " + std::to_string(seed) + ", threads " + std::to_string(threads));
            CT_ASSERT_OK(ct_set_num_threads(threads));
            std::vector<H> in{make(xv, k.x, CT_FLOAT64, true), make(wv, k.w, CT_FLOAT64, true)};
            if (k.bias) in.push_back(make(bv, {O}, CT_FLOAT64, true));
            H y = conv_of(in, k), go = make(gov, os);
            EXPECT_TRUE(allclose(y, expect, 1e-12));
            std::vector<ct_tensor> ins;
            for (const H& h : in) ins.push_back(h.get());
            std::vector<ct_tensor> grads(ins.size(), nullptr);
            ct_tensor yh = y.get(), goh = go.get();
            CT_ASSERT_OK(ct_autograd_grad(&yh, 1, &goh, ins.data(), (int32_t)ins.size(), 0, 0, 0, grads.data()));
            for (size_t i = 0; i < grads.size(); ++i) {
                H gi(grads[i]);
                if (threads == 1) first.push_back(values(gi));
                else EXPECT_TRUE(allclose(gi, first[i], 1e-12)) << "gradient " << i;
            }
        }
        if (k.transposed) continue;
        NdCase nobias = k;
        nobias.bias = false;
        std::vector<double> want_gw(wv.size());
        for (size_t j = 0; j < wv.size(); ++j) {
            std::vector<double> unit(wv.size(), 0.0);
            unit[j] = 1;
            Shape unused;
            std::vector<double> yj = ref(xv, unit, {}, nobias, unused);
            for (size_t q = 0; q < yj.size(); ++q) want_gw[j] += gov[q] * yj[q];
        }
        EXPECT_TRUE(allclose(make(first[1], k.w), want_gw, 1e-10)) << "case seed " << seed;
    }
    CT_EXPECT_OK(ct_set_num_threads(saved));
}

TEST(ConvNd, Errors) {
    for_each_device([&] {
        int64_t one[3] = {1, 1, 1}, zero[3] = {0, 0, 0}, two[3] = {2, 2, 2}, big[3] = {10, 10, 10};
        H x = randt({1, 4, 5, 5, 5}, 1, false), w = randt({4, 2, 3, 3, 3}, 2, false), y;
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, one, zero, one, 2, 0, nullptr, 1, y.out()),
                      CT_ERR_SHAPE, "conv2d: expected input with 4 dims");
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, one, zero, one, 4, 0, nullptr, 1, y.out()),
                      CT_ERR_INVALID_ARGUMENT, "spatial rank must be 1, 2 or 3, got 4");
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, one, zero, one, 3, 0, nullptr, 3, y.out()),
                      CT_ERR_SHAPE, "conv3d: input channels 4 are not divisible by groups 3");
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, one, zero, one, 3, 0, nullptr, 1, y.out()),
                      CT_ERR_SHAPE, "conv3d: input has 4 channels but weight [4, 2, 3, 3, 3] expects 2");
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, one, zero, big, 3, 0, nullptr, 2, y.out()),
                      CT_ERR_SHAPE, "conv3d: output size would be <= 0");
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, one, zero, one, 3, 0, one, 2, y.out()),
                      CT_ERR_INVALID_ARGUMENT, "output_padding is only valid for a transposed convolution");
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, two, zero, one, 3, 1, two, 2, y.out()),
                      CT_ERR_INVALID_ARGUMENT,
                      "conv_transpose3d: output_padding 2 must be smaller than either stride 2 or dilation 1");
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), nullptr, one, big, one, 3, 1, nullptr, 2, y.out()),
                      CT_ERR_SHAPE, "conv_transpose3d: output size -13 in spatial dim 0 is not positive");
        H w1 = randt({3, 2, 3}, 3, false), x1 = randt({1, 4, 6}, 4, false);
        CT_EXPECT_ERR(ct_convolution(x1.get(), w1.get(), nullptr, one, zero, one, 1, 1, nullptr, 1, y.out()),
                      CT_ERR_SHAPE, "conv_transpose1d: input has 4 channels but weight [3, 2, 3] expects 3");
        CT_EXPECT_ERR(ct_convolution(x1.get(), w.get(), nullptr, one, zero, one, 1, 0, nullptr, 1, y.out()),
                      CT_ERR_SHAPE, "conv1d: expected weight with 3 dims");
        CT_EXPECT_ERR(ct_convolution(x1.get(), w1.get(), nullptr, nullptr, zero, one, 1, 0, nullptr, 1, y.out()),
                      CT_ERR_INVALID_ARGUMENT, "conv1d: stride is NULL");
        H b = randt({5}, 5, false);
        CT_EXPECT_ERR(ct_convolution(x.get(), w.get(), b.get(), one, zero, one, 3, 1, nullptr, 2, y.out()),
                      CT_ERR_SHAPE, "conv_transpose3d: bias of shape [5]");
    });
}

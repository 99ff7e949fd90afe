// test_rnn.cpp - ct_rnn / ct_rnn_cell: cells against a closed-form reference, the stack against stepping the cell,
// packed rows against each sequence run alone, float64 central-difference gradients for every mode (multi-layer,
// bidirectional, proj_size, packed input, initial states), no second derivative, and bad input errors.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

const int kModes[] = {CT_RNN_RELU, CT_RNN_TANH, CT_RNN_LSTM, CT_RNN_GRU};
int64_t gates(int mode) { return mode == CT_RNN_LSTM ? 4 : mode == CT_RNN_GRU ? 3 : 1; }

double sig(double v) { return 1 / (1 + std::exp(-v)); }

// Closed-form cell step for one row: x [I], h [H], c [H] -> (h', c'), torch's formulas.
void ref_cell(int mode, const std::vector<double>& x, const std::vector<double>& h, const std::vector<double>& c,
              const std::vector<double>& wih, const std::vector<double>& whh, const std::vector<double>& bih,
              const std::vector<double>& bhh, int64_t I, int64_t H, std::vector<double>& h2, std::vector<double>& c2) {
    const int64_t G = gates(mode);
    std::vector<double> xi((size_t)(G * H)), hh((size_t)(G * H));
    for (int64_t k = 0; k < G * H; ++k) {
        xi[k] = bih[k], hh[k] = bhh[k];
        for (int64_t i = 0; i < I; ++i) xi[k] += wih[k * I + i] * x[i];
        for (int64_t j = 0; j < H; ++j) hh[k] += whh[k * H + j] * h[j];
    }
    h2.assign((size_t)H, 0), c2.assign((size_t)H, 0);
    for (int64_t j = 0; j < H; ++j) {
        if (mode == CT_RNN_LSTM) {
            double i = sig(xi[j] + hh[j]), f = sig(xi[H + j] + hh[H + j]), g = std::tanh(xi[2 * H + j] + hh[2 * H + j]),
                   o = sig(xi[3 * H + j] + hh[3 * H + j]);
            c2[j] = f * c[j] + i * g, h2[j] = o * std::tanh(c2[j]);
        } else if (mode == CT_RNN_GRU) {
            double r = sig(xi[j] + hh[j]), z = sig(xi[H + j] + hh[H + j]);
            double n = std::tanh(xi[2 * H + j] + r * hh[2 * H + j]);
            h2[j] = (1 - z) * n + z * h[j];
        } else {
            double p = xi[j] + hh[j];
            h2[j] = mode == CT_RNN_TANH ? std::tanh(p) : std::max(p, 0.0);
        }
    }
}

H flat(const H& t) {
    H o;
    ok(ct_flatten(t.get(), 0, -1, o.out()));
    return o;
}
H cat_flat(const std::vector<H>& ts) {
    std::vector<H> f;
    std::vector<ct_tensor> hs;
    for (const H& t : ts) f.push_back(flat(t)), hs.push_back(f.back().get());
    H o;
    ok(ct_cat(hs.data(), (int32_t)hs.size(), 0, o.out()));
    return o;
}

// Weights of a stack in torch's order (seeded), each requiring grad.
std::vector<H> stack_weights(int mode, int64_t I, int64_t Hs, int64_t L, int64_t D, bool bias, int64_t P,
                             uint64_t seed) {
    std::vector<H> w;
    const int64_t G = gates(mode), Hout = P > 0 ? P : Hs;
    for (int64_t l = 0; l < L; ++l)
        for (int64_t d = 0; d < D; ++d) {
            const int64_t in = l == 0 ? I : D * Hout;
            w.push_back(randt({G * Hs, in}, seed++, true, -0.6, 0.6));
            w.push_back(randt({G * Hs, Hout}, seed++, true, -0.6, 0.6));
            if (bias) w.push_back(randt({G * Hs}, seed++)), w.push_back(randt({G * Hs}, seed++, true, -0.5, 0.5));
            if (P > 0) w.push_back(randt({P, Hs}, seed++, true, -0.6, 0.6));
        }
    return w;
}

struct Cfg {
    int mode;
    int64_t L = 1;
    bool bidir = false, bias = true, batch_first = false;
    int64_t P = 0;
    const std::vector<int64_t>* bs = nullptr;
};

// ct_rnn of cfg over x with hx/cx (possibly empty H), all outputs flattened into one tensor.
H run_stack(const Cfg& c, const H& x, const H& hx, const H& cx, const std::vector<H>& w) {
    std::vector<ct_tensor> hs;
    for (const H& t : w) hs.push_back(t.get());
    H out, hy, cy;
    ok(ct_rnn(c.mode, x.get(), hx.get(), cx.get(), hs.data(), (int32_t)hs.size(), c.bias, c.L, 0.0, 1, c.bidir,
              c.batch_first, c.P, c.bs ? c.bs->data() : nullptr, c.bs ? (int64_t)c.bs->size() : 0, nullptr,
              out.out(), hy.out(), cy.out()));
    return c.mode == CT_RNN_LSTM ? cat_flat({out, hy, cy}) : cat_flat({out, hy});
}

// Central differences of every input of the stack of cfg (x, hx, cx when given, all weights).
void check_stack_grad(const Cfg& c, int64_t T, int64_t B, int64_t I, int64_t Hs, bool states) {
    const int64_t D = c.bidir ? 2 : 1, Hout = c.P > 0 ? c.P : Hs;
    int64_t rows = 0;
    if (c.bs)
        for (int64_t b : *c.bs) rows += b;
    H x = c.bs ? randt({rows, I}, 1) : randt(c.batch_first ? Shape{B, T, I} : Shape{T, B, I}, 1);
    std::vector<H> in{x};
    const int64_t b0 = c.bs ? (*c.bs)[0] : B;
    H hx = states ? randt({c.L * D, b0, Hout}, 2) : H();
    H cx = states && c.mode == CT_RNN_LSTM ? randt({c.L * D, b0, Hs}, 3) : H();
    if (hx) in.push_back(hx);
    if (cx) in.push_back(cx);
    const size_t nfix = in.size();
    for (H& w : stack_weights(c.mode, I, Hs, c.L, D, c.bias, c.P, 10)) in.push_back(w);
    auto f = [&](const std::vector<H>& v) {
        size_t k = 1;
        H hx2 = hx ? v[k++] : H(), cx2 = cx ? v[k++] : H();
        return run_stack(c, v[0], hx2, cx2, std::vector<H>(v.begin() + (long)nfix, v.end()));
    };
    EXPECT_TRUE(gradcheck(f, in)) << "mode " << c.mode << " L " << c.L << " bidir " << c.bidir << " P " << c.P
                                  << " packed " << (c.bs != nullptr) << " states " << states;
}

}  // namespace

TEST(Rnn, CellsMatchTheClosedForm) {
    for_each_device([&] {
        const int64_t B = 3, I = 4, Hs = 5;
        for (int mode : kModes) {
            const int64_t G = gates(mode);
            H x = randt({B, I}, 1, false), h = randt({B, Hs}, 2, false), c = randt({B, Hs}, 3, false);
            H wih = randt({G * Hs, I}, 4, false), whh = randt({G * Hs, Hs}, 5, false);
            H bih = randt({G * Hs}, 6, false), bhh = randt({G * Hs}, 7, false);
            H hy, cy;
            CT_ASSERT_OK(ct_rnn_cell(mode, x.get(), h.get(), mode == CT_RNN_LSTM ? c.get() : nullptr, wih.get(),
                                     whh.get(), bih.get(), bhh.get(), hy.out(), cy.out()));
            EXPECT_EQ(shape(hy), (Shape{B, Hs}));
            EXPECT_EQ((bool)cy, mode == CT_RNN_LSTM);
            std::vector<double> xv = values(x), hv = values(h), cv = values(c), expect_h, expect_c;
            for (int64_t r = 0; r < B; ++r) {
                std::vector<double> h2, c2;
                ref_cell(mode, {xv.begin() + r * I, xv.begin() + (r + 1) * I},
                         {hv.begin() + r * Hs, hv.begin() + (r + 1) * Hs},
                         {cv.begin() + r * Hs, cv.begin() + (r + 1) * Hs},
                         values(wih), values(whh), values(bih), values(bhh), I, Hs, h2, c2);
                expect_h.insert(expect_h.end(), h2.begin(), h2.end());
                expect_c.insert(expect_c.end(), c2.begin(), c2.end());
            }
            EXPECT_TRUE(allclose(hy, expect_h, 1e-12, 1e-12)) << "mode " << mode;
            if (mode == CT_RNN_LSTM) {
                EXPECT_TRUE(allclose(cy, expect_c, 1e-12, 1e-12));
            }
        }
    });
}

TEST(Rnn, UnbatchedCellAndMissingStatesAreZeros) {
    H x = randt({4}, 1, false), wih = randt({9, 4}, 2, false), whh = randt({9, 3}, 3, false);
    H z = make(std::vector<double>(3, 0.0), {3}), hy, hy0, cy;
    CT_ASSERT_OK(ct_rnn_cell(CT_RNN_GRU, x.get(), nullptr, nullptr, wih.get(), whh.get(), nullptr, nullptr, hy.out(),
                             cy.out()));
    CT_ASSERT_OK(ct_rnn_cell(CT_RNN_GRU, x.get(), z.get(), nullptr, wih.get(), whh.get(), nullptr, nullptr, hy0.out(),
                             cy.out()));
    EXPECT_EQ(shape(hy), (Shape{3}));
    EXPECT_FALSE((bool)cy);
    EXPECT_TRUE(allclose(hy, values(hy0), 0, 0));
}

TEST(Rnn, StackEqualsSteppingTheCell) {
    const int64_t T = 4, B = 2, I = 3, Hs = 5;
    for (int mode : kModes) {
        std::vector<H> w = stack_weights(mode, I, Hs, 1, 1, true, 0, 20);
        H x = randt({T, B, I}, 1, false);
        Cfg c{mode};
        H got = run_stack(c, x, H(), H(), w);
        std::vector<double> xs = values(x), expect;
        H h = make(std::vector<double>((size_t)(B * Hs), 0.0), {B, Hs}), cs = h;
        for (int64_t t = 0; t < T; ++t) {
            H xt = make({xs.begin() + t * B * I, xs.begin() + (t + 1) * B * I}, {B, I}), hy, cy;
            ok(ct_rnn_cell(mode, xt.get(), h.get(), cs.get(), w[0].get(), w[1].get(), w[2].get(), w[3].get(),
                           hy.out(), cy.out()));
            h = hy;
            if (cy) cs = cy;
            std::vector<double> hv = values(h);
            expect.insert(expect.end(), hv.begin(), hv.end());
        }
        std::vector<double> hv = values(h), cv = values(cs);
        expect.insert(expect.end(), hv.begin(), hv.end());
        if (mode == CT_RNN_LSTM) expect.insert(expect.end(), cv.begin(), cv.end());
        EXPECT_TRUE(allclose(got, expect, 1e-12, 1e-12)) << "mode " << mode;
    }
}

TEST(Rnn, PackedRowsEqualEachSequenceAlone) {
    // lengths 3, 2, 1: batch_sizes {3, 2, 1}; sequence b's row at step t is row off_t + b.
    const std::vector<int64_t> bs{3, 2, 1}, len{3, 2, 1}, off{0, 3, 5};
    const int64_t I = 2, Hs = 3;
    for (int mode : kModes)
        for (int bidir = 0; bidir < 2; ++bidir) {
            std::vector<H> w = stack_weights(mode, I, Hs, 2, bidir ? 2 : 1, true, 0, 30);
            std::vector<ct_tensor> hs;
            for (const H& t : w) hs.push_back(t.get());
            H x = randt({6, I}, 5, false), out, hy, cy;
            CT_ASSERT_OK(ct_rnn(mode, x.get(), nullptr, nullptr, hs.data(), (int32_t)hs.size(), 1, 2, 0.0, 0, bidir, 0,
                                0, bs.data(), 3, nullptr, out.out(), hy.out(), cy.out()));
            std::vector<double> xv = values(x), ov = values(out), hyv = values(hy);
            const int64_t Dh = (bidir ? 2 : 1) * Hs, LD = 2 * (bidir ? 2 : 1);
            for (int64_t b = 0; b < 3; ++b) {
                std::vector<double> xs;
                for (int64_t t = 0; t < len[b]; ++t)
                    xs.insert(xs.end(), xv.begin() + (off[t] + b) * I, xv.begin() + (off[t] + b + 1) * I);
                H xb = make(xs, {len[b], 1, I}), ob, hb, cb;
                CT_ASSERT_OK(ct_rnn(mode, xb.get(), nullptr, nullptr, hs.data(), (int32_t)hs.size(), 1, 2, 0.0, 0,
                                    bidir, 0, 0, nullptr, 0, nullptr, ob.out(), hb.out(), cb.out()));
                std::vector<double> obv = values(ob), hbv = values(hb);
                for (int64_t t = 0; t < len[b]; ++t)
                    for (int64_t j = 0; j < Dh; ++j)
                        EXPECT_NEAR(ov[(off[t] + b) * Dh + j], obv[t * Dh + j], 1e-12) << mode << " " << b << " " << t;
                for (int64_t k = 0; k < LD; ++k)
                    for (int64_t j = 0; j < Hs; ++j) EXPECT_NEAR(hyv[(k * 3 + b) * Hs + j], hbv[k * Hs + j], 1e-12);
            }
        }
}

TEST(Rnn, GradientsOfEveryModeMatchFiniteDifferences) {
    for_each_device([&] {
        for (int mode : kModes) {
            Cfg c{mode};
            check_stack_grad(c, 3, 2, 3, 4, false);
            c.L = 2, c.bidir = true;
            check_stack_grad(c, 3, 2, 3, 4, true);
            c.batch_first = true, c.bias = false, c.L = 1;
            check_stack_grad(c, 3, 2, 3, 4, true);
        }
    });
}

TEST(Rnn, GradientsOfProjectionPackedInputAndCells) {
    Cfg c{CT_RNN_LSTM};
    c.P = 2, c.L = 2, c.bidir = true;
    check_stack_grad(c, 3, 2, 3, 4, true);
    const std::vector<int64_t> bs{3, 3, 1, 1};
    for (int mode : kModes) {
        Cfg p{mode};
        p.bs = &bs, p.bidir = true, p.L = 2;
        check_stack_grad(p, 0, 0, 2, 3, true);
        if (mode == CT_RNN_LSTM) p.P = 2, check_stack_grad(p, 0, 0, 2, 3, false);
        const int64_t G = gates(mode);
        std::vector<H> in{randt({2, 3}, 1), randt({2, 4}, 2), randt({2, 4}, 3), randt({G * 4, 3}, 4),
                          randt({G * 4, 4}, 5), randt({G * 4}, 6), randt({G * 4}, 7)};
        EXPECT_TRUE(gradcheck(
            [&](const std::vector<H>& v) {
                H hy, cy;
                ok(ct_rnn_cell(mode, v[0].get(), v[1].get(), v[2].get(), v[3].get(), v[4].get(), v[5].get(),
                               v[6].get(), hy.out(), cy.out()));
                return mode == CT_RNN_LSTM ? cat_flat({hy, cy}) : hy;
            },
            in))
            << "cell mode " << mode;
    }
}

TEST(Rnn, NoSecondDerivative) {
    std::vector<H> w = stack_weights(CT_RNN_TANH, 2, 3, 1, 1, true, 0, 40);
    H x = randt({2, 1, 2}, 1);
    Cfg c{CT_RNN_TANH};
    H y = run_stack(c, x, H(), H(), w), s, g;
    ok(ct_sum(y.get(), nullptr, 0, 0, s.out()));
    ct_tensor outs[1] = {s.get()}, in[1] = {x.get()}, gs[1] = {nullptr};
    CT_ASSERT_OK(ct_autograd_grad(outs, 1, nullptr, in, 1, 1, 1, 0, gs));
    H gx(gs[0]), s2;
    ok(ct_sum(gx.get(), nullptr, 0, 0, s2.out()));
    CT_EXPECT_ERR(ct_backward(s2.get(), nullptr, 0, 0), CT_ERR_NOT_SUPPORTED, "second derivative");
}

TEST(Rnn, BadInputIsAClearError) {
    std::vector<H> w = stack_weights(CT_RNN_LSTM, 3, 4, 1, 1, true, 0, 50);
    std::vector<ct_tensor> hs;
    for (const H& t : w) hs.push_back(t.get());
    H x = randt({5, 2, 3}, 1, false), x2 = randt({5, 3}, 1, false), out, hy, cy;
    auto run = [&](const H& in, int32_t n, const int64_t* bs, int64_t nbs, const H& hx) {
        return ct_rnn(CT_RNN_LSTM, in.get(), hx.get(), nullptr, hs.data(), n, 1, 1, 0.0, 0, 0, 0, 0, bs, nbs, nullptr,
                      out.out(), hy.out(), cy.out());
    };
    CT_EXPECT_ERR(run(x2, 4, nullptr, 0, H()), CT_ERR_SHAPE, "lstm: expected input of rank 3");
    CT_EXPECT_ERR(run(x, 3, nullptr, 0, H()), CT_ERR_INVALID_ARGUMENT, "expected 4 weights");
    H badh = randt({1, 2, 5}, 2, false);
    CT_EXPECT_ERR(run(x, 4, nullptr, 0, badh), CT_ERR_SHAPE, "expected hx of shape [1, 2, 4], got [1, 2, 5]");
    const int64_t up[] = {2, 3};
    CT_EXPECT_ERR(run(x2, 4, up, 2, H()), CT_ERR_INVALID_ARGUMENT, "batch_sizes must not increase");
    const int64_t few[] = {2, 2};
    CT_EXPECT_ERR(run(x2, 4, few, 2, H()), CT_ERR_SHAPE, "batch_sizes sum to 4 but the packed input has 5 rows");
    H x4 = randt({5, 2, 7}, 1, false);
    CT_EXPECT_ERR(run(x4, 4, nullptr, 0, H()), CT_ERR_SHAPE, "input_size of the input is 7");
    CT_EXPECT_ERR(ct_rnn(7, x.get(), nullptr, nullptr, hs.data(), 4, 1, 1, 0.0, 0, 0, 0, 0, nullptr, 0, nullptr,
                         out.out(), hy.out(), cy.out()),
                  CT_ERR_INVALID_ARGUMENT, "rnn: unknown mode 7");
    CT_EXPECT_ERR(ct_rnn(CT_RNN_GRU, x.get(), nullptr, nullptr, hs.data(), 4, 1, 1, 0.0, 0, 0, 0, 0, nullptr, 0,
                         nullptr, out.out(), hy.out(), cy.out()),
                  CT_ERR_SHAPE, "gru: expected weight_ih_l0 of shape [3 * hidden_size");
    H xi = make({1, 2, 3}, {1, 1, 3}, CT_INT64);
    CT_EXPECT_ERR(run(xi, 4, nullptr, 0, H()), CT_ERR_DTYPE, "float32 or float64");
    H c1 = randt({2, 5}, 3, false);
    CT_EXPECT_ERR(ct_rnn_cell(CT_RNN_LSTM, randt({2, 3}, 1, false).get(), nullptr, c1.get(), hs[0], hs[1], hs[2], hs[3],
                              hy.out(), cy.out()),
                  CT_ERR_SHAPE, "lstm_cell: expected cx of shape [2, 4], got [2, 5]");
    ct_tensor dead = randt({1}, 1, false).get();  // released at the end of the statement
    CT_EXPECT_ERR(ct_rnn_cell(CT_RNN_GRU, dead, nullptr, nullptr, hs[0], hs[1], nullptr, nullptr, hy.out(), cy.out()),
                  CT_ERR_INVALID_HANDLE, "rnn_cell");
}

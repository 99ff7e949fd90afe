// test_cuda_kernels_rnn.cpp - the rnn_step launcher (cuda/rnn.cuh) compiled as host C++ through cuda/emulation.h:
// bad requests are refused before any launch, and one LSTM and one GRU step over a tiny grid (the grid-stride loop
// wraps) match torch's formulas written out per unit.
#include "cuda/emulation.h"
#include "cuda/rnn.cuh"
#include <cmath>
#include <vector>
#include "ct_test.h"

using namespace ct::cuda;

namespace {
constexpr LaunchConfig kTiny{3, 7};
double sig(double v) { return 1 / (1 + std::exp(-v)); }
std::vector<double> seq(size_t n, double start, double step) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = start + step * (double)i;
    return v;
}
}  // namespace

TEST(CudaKernelsRnn, BadRequestsAreRefusedBeforeLaunching) {
    std::vector<double> buf(64, 0.5);
    ct_cuda_rnn_step_args a{};
    a.op = CT_CUDA_RNN_STEP_FORWARD, a.mode = kRnnTanh, a.dtype = CT_FLOAT64, a.rows = 2, a.H = 3;
    a.gates = buf.data(), a.hw = buf.data(), a.h_out = buf.data() + 32;
    const int64_t before = ct::emu::launches;
    EXPECT_EQ(launch_rnn_step(kTiny, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT);
    auto with = [&](auto change) {
        ct_cuda_rnn_step_args b = a;
        change(b);
        return launch_rnn_step(kTiny, nullptr, &b);
    };
    EXPECT_EQ(with([](auto& b) { b.op = CT_CUDA_NUM_RNN_OPS; }), CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(with([](auto& b) { b.mode = 4; }), CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(with([](auto& b) { b.rows = -1; }), CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(with([](auto& b) { b.H = 0; }), CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(with([](auto& b) { b.rows = INT64_MAX / 2; }), CT_ERR_INVALID_ARGUMENT);  // rows * G * H overflows
    EXPECT_EQ(with([](auto& b) { b.dtype = CT_INT32; }), CT_ERR_DTYPE);
    EXPECT_EQ(with([](auto& b) { b.hw = nullptr; }), CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(with([](auto& b) { b.mode = kRnnLstm; }), CT_ERR_INVALID_ARGUMENT);  // no c, cell
    EXPECT_EQ(with([](auto& b) { b.mode = kRnnGru; }), CT_ERR_INVALID_ARGUMENT);   // no h, hn
    EXPECT_EQ(with([](auto& b) { b.op = CT_CUDA_RNN_STEP_BACKWARD; }), CT_ERR_INVALID_ARGUMENT);  // no dh, dg
    EXPECT_EQ(ct::emu::launches, before);
    EXPECT_EQ(with([](auto& b) { b.rows = 0; }), CT_OK);  // nothing to do: no launch
    EXPECT_EQ(ct::emu::launches, before);
    EXPECT_EQ(with([](auto&) {}), CT_OK);
    EXPECT_EQ(ct::emu::launches, before + 1);
}

TEST(CudaKernelsRnn, LstmAndGruStepsMatchTheFormulas) {
    const int64_t R = 3, H = 5;  // 15 units over a grid of 21 threads of 3 x 7, strided by 21
    for (int mode : {kRnnLstm, kRnnGru}) {
        SCOPED_TRACE(mode == kRnnLstm ? "LSTM" : "GRU");
        const int64_t G = mode == kRnnLstm ? 4 : 3, GH = G * H;
        std::vector<double> x = seq((size_t)(R * GH), -1.2, 0.041), hw = seq((size_t)(R * GH), 0.9, -0.037);
        std::vector<double> bias = seq((size_t)GH, -0.3, 0.029), bhn = seq((size_t)H, 0.2, -0.05);
        std::vector<double> h = seq((size_t)(R * H), -0.5, 0.07), c = seq((size_t)(R * H), 0.4, -0.06);
        std::vector<double> gates = x, cell((size_t)(R * H)), hn((size_t)(R * H)), out((size_t)(R * H)), c2 = c;
        ct_cuda_rnn_step_args a{};
        a.op = CT_CUDA_RNN_STEP_FORWARD, a.mode = mode, a.dtype = CT_FLOAT64, a.rows = R, a.H = H;
        a.gates = gates.data(), a.hw = hw.data(), a.bias = bias.data(), a.bhn = mode == kRnnGru ? bhn.data() : nullptr;
        a.h = h.data(), a.c = c2.data(), a.cell = cell.data(), a.hn = hn.data(), a.h_out = out.data();
        ASSERT_EQ(launch_rnn_step(kTiny, nullptr, &a), CT_OK);
        for (int64_t r = 0; r < R; ++r)
            for (int64_t j = 0; j < H; ++j) {
                auto pre = [&](int64_t k) { return x[r * GH + k] + hw[r * GH + k] + bias[k]; };
                const size_t u = (size_t)(r * H + j);
                double want;
                if (mode == kRnnLstm) {
                    const double i = sig(pre(j)), f = sig(pre(H + j)), g = std::tanh(pre(2 * H + j)),
                                 o = sig(pre(3 * H + j)), cn = f * c[u] + i * g;
                    EXPECT_NEAR(c2[u], cn, 1e-14);
                    EXPECT_NEAR(cell[u], std::tanh(cn), 1e-14);
                    want = o * std::tanh(cn);
                } else {
                    const double rr = sig(pre(j)), z = sig(pre(H + j)), hnv = hw[r * GH + 2 * H + j] + bhn[j];
                    const double n = std::tanh(x[r * GH + 2 * H + j] + bias[2 * H + j] + rr * hnv);
                    EXPECT_NEAR(hn[u], hnv, 1e-14);
                    EXPECT_NEAR(gates[(size_t)(r * GH + 2 * H + j)], n, 1e-14);
                    want = (1 - z) * n + z * h[u];
                }
                EXPECT_NEAR(out[u], want, 1e-14) << "row " << r << " unit " << j;
            }
    }
}

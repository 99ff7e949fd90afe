// test_cuda_rnn.cpp - ct_rnn / ct_rnn_cell on CUDA against the CPU (Note [RNN on the device] in
// src/ops/rnn_layer.cpp): every mode, 2 layers, bidirectional, proj_size, packed rows, batch_first, no biases,
// input_size 0 and an empty batch; outputs and the gradients of every input, float64 tightly and float32. On the
// emulated backend (ctest ctensor_tests_emulated_cuda) the layer's gate kernels are cuda/rnn.cuh compiled as host
// C++, and CudaRnn.NoHostRoundTrip counts the backend's device-to-host copies through its test hook.
#include <cstdlib>
#include "cuda_compare.h"
#include "emulated_hooks.h"

using namespace ctt;

namespace {

const int kModes[] = {CT_RNN_RELU, CT_RNN_TANH, CT_RNN_LSTM, CT_RNN_GRU};
int64_t gates(int mode) { return mode == CT_RNN_LSTM ? 4 : mode == CT_RNN_GRU ? 3 : 1; }

struct Cfg {
    int mode = CT_RNN_LSTM;
    int64_t L = 2, T = 4, B = 3, I = 5, H = 4, P = 0;
    bool bidir = true, bias = true, batch_first = false, states = true;
    std::vector<int64_t> bs;  // packed rows when not empty
};

H flat(const H& t) {
    H o;
    ok(ct_flatten(t.get(), 0, -1, o.out()));
    return o;
}

// The inputs of cfg (x, hx, cx when given, then the weights in torch's order), float64 values cast to dt.
std::vector<H> rnn_inputs(const Cfg& c, ct_dtype dt, uint64_t seed) {
    auto make_dt = [&](const Shape& s, double lo, double hi) {
        size_t n = 1;
        for (int64_t d : s) n *= (size_t)d;
        return make(rand_values(n, seed++, lo, hi), s, dt);
    };
    const int64_t D = c.bidir ? 2 : 1, G = gates(c.mode), Hout = c.P > 0 ? c.P : c.H;
    int64_t rows = 0;
    for (int64_t b : c.bs) rows += b;
    const int64_t B = c.bs.empty() ? c.B : c.bs[0];
    std::vector<H> in{make_dt(!c.bs.empty() ? Shape{rows, c.I} : c.batch_first ? Shape{c.B, c.T, c.I}
                                                                               : Shape{c.T, c.B, c.I}, -1, 1)};
    if (c.states) {
        in.push_back(make_dt({c.L * D, B, Hout}, -1, 1));
        if (c.mode == CT_RNN_LSTM) in.push_back(make_dt({c.L * D, B, c.H}, -1, 1));
    }
    for (int64_t l = 0; l < c.L; ++l)
        for (int64_t d = 0; d < D; ++d) {
            in.push_back(make_dt({G * c.H, l == 0 ? c.I : D * Hout}, -0.6, 0.6));
            in.push_back(make_dt({G * c.H, Hout}, -0.6, 0.6));
            if (c.bias) in.push_back(make_dt({G * c.H}, -0.5, 0.5)), in.push_back(make_dt({G * c.H}, -0.5, 0.5));
            if (c.P > 0) in.push_back(make_dt({c.P, c.H}, -0.6, 0.6));
        }
    return in;
}

// ct_rnn of cfg over inputs laid out as rnn_inputs, all outputs flattened into one tensor.
Fn rnn_fn(const Cfg& c) {
    return [c](const std::vector<H>& v) {
        size_t k = 1;
        H hx = c.states ? v[k++] : H(), cx = c.states && c.mode == CT_RNN_LSTM ? v[k++] : H();
        std::vector<ct_tensor> w;
        for (size_t i = k; i < v.size(); ++i) w.push_back(v[i].get());
        H out, hy, cy, o;
        ok(ct_rnn(c.mode, v[0].get(), hx.get(), cx.get(), w.data(), (int32_t)w.size(), c.bias, c.L, 0.0, 1, c.bidir,
                  c.batch_first, c.P, c.bs.empty() ? nullptr : c.bs.data(), (int64_t)c.bs.size(), nullptr, out.out(),
                  hy.out(), cy.out()));
        std::vector<H> parts{flat(out), flat(hy)};
        if (c.mode == CT_RNN_LSTM) parts.push_back(flat(cy));
        std::vector<ct_tensor> hs;
        for (const H& p : parts) hs.push_back(p.get());
        ok(ct_cat(hs.data(), (int32_t)hs.size(), 0, o.out()));
        return o;
    };
}

// Forward and the gradients of every input on cuda:0 against the CPU.
void compare_rnn(const char* what, const Cfg& c, ct_dtype dt, double tol) {
    std::string trace = std::string(what) + " mode " + std::to_string(c.mode) + (dt == CT_FLOAT64 ? " f64" : " f32");
    std::vector<H> in = rnn_inputs(c, dt, 11);
    compare_on_cuda(trace.c_str(), rnn_fn(c), in, std::vector<bool>(in.size(), true), {}, tol);
}

}  // namespace

TEST(CudaGpu, RnnStackMatchesCpu) {
    REQUIRE_CUDA();
    for (int mode : kModes) {
        Cfg c;
        c.mode = mode;
        compare_rnn("2 layers, bidirectional", c, CT_FLOAT64, 1e-10);
        compare_rnn("2 layers, bidirectional", c, CT_FLOAT32, 2e-5);
        Cfg packed = c;
        packed.bs = {3, 3, 2, 1};
        compare_rnn("packed rows", packed, CT_FLOAT64, 1e-10);
        Cfg plain = c;
        plain.L = 1, plain.bidir = false, plain.bias = false, plain.states = false, plain.batch_first = true;
        compare_rnn("1 layer, no biases, no states, batch_first", plain, CT_FLOAT64, 1e-10);
    }
}

TEST(CudaGpu, RnnLstmProjectionMatchesCpu) {
    REQUIRE_CUDA();
    Cfg c;
    c.P = 3;
    compare_rnn("proj_size 3, 2 layers, bidirectional", c, CT_FLOAT64, 1e-10);
    compare_rnn("proj_size 3, 2 layers, bidirectional", c, CT_FLOAT32, 2e-5);
    c.bs = {3, 2, 2, 1};
    compare_rnn("proj_size 3, packed rows", c, CT_FLOAT64, 1e-10);
}

TEST(CudaGpu, RnnEdgeSizesMatchCpu) {
    REQUIRE_CUDA();
    for (int mode : kModes) {
        Cfg zero_in;  // input_size 0: the input projection is an empty sum
        zero_in.mode = mode, zero_in.I = 0, zero_in.L = 1;
        compare_rnn("input_size 0", zero_in, CT_FLOAT64, 1e-10);
        Cfg one;  // one step, one row, one unit
        one.mode = mode, one.T = 1, one.B = 1, one.H = 1;
        compare_rnn("T = B = H = 1", one, CT_FLOAT64, 1e-10);
        Cfg wide;  // more units than the emulated grid has threads: the grid-stride loop wraps
        wide.mode = mode, wide.L = 1, wide.bidir = false, wide.B = 5, wide.H = 130, wide.T = 2;
        compare_rnn("H = 130", wide, CT_FLOAT64, 1e-10);
    }
    Cfg empty;  // an empty batch: no steps; outputs and gradients are empty or zeros on the device
    empty.B = 0;
    compare_rnn("empty batch", empty, CT_FLOAT64, 1e-10);
}

TEST(CudaGpu, RnnCellsMatchCpu) {
    REQUIRE_CUDA();
    for (int mode : kModes) {
        const int64_t G = gates(mode), B = 3, I = 4, Hs = 5;
        std::vector<H> in{randt({B, I}, 1), randt({B, Hs}, 2), randt({G * Hs, I}, 3), randt({G * Hs, Hs}, 4),
                          randt({G * Hs}, 5), randt({G * Hs}, 6)};
        if (mode == CT_RNN_LSTM) in.push_back(randt({B, Hs}, 7));
        Fn f = [mode](const std::vector<H>& v) {
            H hy, cy, o;
            ok(ct_rnn_cell(mode, v[0].get(), v[1].get(), mode == CT_RNN_LSTM ? v[6].get() : nullptr, v[2].get(),
                           v[3].get(), v[4].get(), v[5].get(), hy.out(), cy.out()));
            if (mode != CT_RNN_LSTM) return hy;
            ct_tensor both[] = {hy.get(), cy.get()};
            ok(ct_cat(both, 2, 0, o.out()));
            return o;
        };
        compare_on_cuda(("cell mode " + std::to_string(mode)).c_str(), f, in, std::vector<bool>(in.size(), true), {},
                        1e-10);
    }
}

// The emulated backend's count of device-to-host memcpy calls (its test hook), or -1 on another backend.
int64_t host_reads() {
    auto fn = emulated_hook<int64_t (*)()>("ct_emulated_cuda_host_reads");
    return fn ? fn() : -1;
}

TEST(CudaRnn, NoHostRoundTrip) {
    REQUIRE_CUDA();
    if (host_reads() < 0) GTEST_SKIP() << "needs the emulated backend's copy counter (CTENSOR_CUDA_BACKEND)";
    for (int mode : kModes) {
        Cfg c;
        c.mode = mode, c.P = mode == CT_RNN_LSTM ? 3 : 0;
        std::vector<H> in;
        for (const H& t : rnn_inputs(c, CT_FLOAT64, 5)) in.push_back(leaf_on(t, ct_cuda(0), true));
        Cfg packed = c;
        packed.bs = {3, 2, 1, 1};
        std::vector<H> pin;
        for (const H& t : rnn_inputs(packed, CT_FLOAT64, 6)) pin.push_back(leaf_on(t, ct_cuda(0), true));
        const int64_t before = host_reads();
        for (auto& run : {std::make_pair(c, in), std::make_pair(packed, pin)}) {
            H y = rnn_fn(run.first)(run.second), s;
            CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, s.out()));
            CT_ASSERT_OK(ct_backward(s.get(), nullptr, 0, 0));
        }
        EXPECT_EQ(host_reads() - before, 0) << "mode " << mode << ": the forward or backward copied to the host";
        H g;
        CT_ASSERT_OK(ct_tensor_grad(in.back().get(), g.out()));
        EXPECT_EQ(device_of(g).type, CT_DEVICE_CUDA);
        (void)values(g);
        EXPECT_GT(host_reads(), before);  // the counter counts: reading a gradient's values copies it to the host
    }
}

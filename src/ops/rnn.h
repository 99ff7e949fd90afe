// rnn.h - recurrent nets (issue 14): the fused layer-direction op (rnn_layer.cpp) and the stack, cells and
// argument checks built on it (rnn.cpp). Modes use torch's cudnn numbering (RNN_RELU 0, RNN_TANH 1, LSTM 2, GRU 3).
#pragma once
#include "ops/ops.h"

namespace ct {

enum class RnnMode : int32_t { RnnRelu = 0, RnnTanh = 1, Lstm = 2, Gru = 3 };

// Gates per hidden unit: LSTM i, f, g, o; GRU r, z, n; plain RNN one.
inline int64_t rnn_gate_count(RnnMode m) { return m == RnnMode::Lstm ? 4 : m == RnnMode::Gru ? 3 : 1; }

// Note [Packed rows]: a layer's input is always packed, time-major rows: step t owns rows [off_t, off_t + bs[t])
// where off_t = bs[0] + ... + bs[t - 1] and bs is non-increasing (a padded [T, B, I] input is bs = {B, ..., B}).
// Row r of step t is the same sequence as row r of step 0, so a sequence that ended simply stops being updated
// and its hidden state at that point is its final state (hy); the reverse direction walks the steps backwards.

// One layer-direction, fused (checked arguments expected; rnn() checks them): x [N, I] packed rows, h0 [B, Hout],
// c0 [B, H] (LSTM, else undefined), w_ih [G*H, I], w_hh [G*H, Hout], b_ih / b_hh [G*H] or undefined, w_hr [P, H]
// (LSTM projection, Hout = P) or undefined. Returns {out [N, Hout], hy [B, Hout]} plus cy [B, H] for LSTM, with ONE
// autograd node for all of them (BPTT over the saved gates; no second derivative, as torch's cudnn RNN).
TensorList rnn_layer(RnnMode mode, const Tensor& x, const Tensor& h0, const Tensor& c0, const Tensor& w_ih,
                     const Tensor& w_hh, const Tensor& b_ih, const Tensor& b_hh, const Tensor& w_hr,
                     const IntList& batch_sizes, bool reverse);

struct RnnResult {
    Tensor out, hy, cy;  // cy undefined unless LSTM
};

// torch's _VF.rnn_tanh / rnn_relu / lstm / gru: weights in torch's _flat_weights order (per layer, per direction:
// w_ih, w_hh, then b_ih, b_hh when has_biases, then w_hr when proj_size > 0). x is [T, B, I] ([B, T, I] when
// batch_first) or, with batch_sizes, packed rows [N, I] (Note [Packed rows]). hx [L*D, B, Hout], cx [L*D, B, H]
// (undefined = zeros). Dropout (train only) between layers, drawn from gen.
RnnResult rnn(RnnMode mode, const Tensor& x, const Tensor& hx, const Tensor& cx, const TensorList& weights,
              bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional, bool batch_first,
              int64_t proj_size, const IntList* batch_sizes, Generator* gen);

// One step (torch's lstm_cell / gru_cell / rnn_tanh_cell / rnn_relu_cell): x [B, I] or [I], hx [B, H] or [H]
// (undefined = zeros), cx likewise for LSTM; biases may be undefined. The fused layer with one step.
RnnResult rnn_cell(RnnMode mode, const Tensor& x, const Tensor& hx, const Tensor& cx, const Tensor& w_ih,
                   const Tensor& w_hh, const Tensor& b_ih, const Tensor& b_hh);

}  // namespace ct

// rnn.cpp - the recurrent stack (layers x directions of the fused rnn_layer, dropout between layers, batch_first,
// packed rows) and the cells, with the argument checks: every bad input is an error naming the op and the values.
#include "ops/half_compute.h"
#include "ops/rnn.h"
#include "core/checked_math.h"

namespace ct {

namespace {

const char* mode_op(RnnMode m) {
    switch (m) {
    case RnnMode::Lstm: return "lstm";
    case RnnMode::Gru: return "gru";
    case RnnMode::RnnTanh: return "rnn_tanh";
    default: return "rnn_relu";
    }
}

// Fails unless t is defined with exactly shape want; what names the tensor in the message.
void check_shape(const char* op, const Tensor& t, const Shape& want, const std::string& what) {
    if (!t.defined()) fail(CT_ERR_INVALID_ARGUMENT, op, ": ", what, " is missing (expected ", shape_str(want), ")");
    if (t.sizes() != want)
        fail(CT_ERR_SHAPE, op, ": expected ", what, " of shape ", shape_str(want), ", got ", shape_str(t.sizes()));
}

// Fails unless t (when defined) is float32/float64 of x's dtype on x's device.
void check_like(const char* op, const Tensor& x, const Tensor& t, const std::string& what) {
    if (!t.defined()) return;
    check_same_device(op, x, t);
    if (t.dtype() != x.dtype())
        fail(CT_ERR_DTYPE, op, ": ", what, " has dtype ", dtype_name(t.dtype()), ", the input ",
             dtype_name(x.dtype()), " (all must match)");
}

void check_input_dtype(const char* op, const Tensor& x) {
    if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
        fail(CT_ERR_DTYPE, op, ": expected a float32 or float64 input, got ", dtype_name(x.dtype()));
}

// The weight name of torch's nn modules (weight_ih_l0, bias_hh_l1_reverse, ...), for messages.
std::string weight_name(const char* kind, int64_t layer, int64_t dir) {
    return std::string(kind) + "_l" + std::to_string(layer) + (dir ? "_reverse" : "");
}

// Checks batch sizes of a packed input with N rows: positive, non-increasing, summing to N.
void check_batch_sizes(const char* op, const IntList& bs, int64_t N) {
    int64_t total = 0;
    for (size_t t = 0; t < bs.size(); ++t) {
        if (bs[t] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": batch_sizes[", t, "] is ", bs[t], " (must be > 0)");
        if (t > 0 && bs[t] > bs[t - 1])
            fail(CT_ERR_INVALID_ARGUMENT, op, ": batch_sizes must not increase, got batch_sizes[", t - 1, "] = ",
                 bs[t - 1], " then batch_sizes[", t, "] = ", bs[t]);
        total = checked_add(total, bs[t], op, "the sum of batch_sizes");
    }
    if (total != N)
        fail(CT_ERR_SHAPE, op, ": batch_sizes sum to ", total, " but the packed input has ", N, " rows");
}

}  // namespace

RnnResult rnn(RnnMode mode, const Tensor& x, const Tensor& hx, const Tensor& cx, const TensorList& weights,
              bool has_biases, int64_t num_layers, double dropout_p, bool train, bool bidirectional, bool batch_first,
              int64_t proj_size, const IntList* batch_sizes, Generator* gen) {
    if (auto h = uniform_half_dtype_of(mode_op(mode), x, hx, cx, weights)) {  // Note [Half compute]
        RnnResult r = rnn(mode, as_float32(x), as_float32(hx), as_float32(cx), as_float32(weights), has_biases,
                          num_layers, dropout_p, train, bidirectional, batch_first, proj_size, batch_sizes, gen);
        return {round_results(r.out, *h), round_results(r.hy, *h), round_results(r.cy, *h)};
    }
    const char* op = mode_op(mode);
    check_input_dtype(op, x);
    const bool lstm = mode == RnnMode::Lstm;
    if (num_layers < 1) fail(CT_ERR_INVALID_ARGUMENT, op, ": num_layers must be at least 1, got ", num_layers);
    if (!(dropout_p >= 0 && dropout_p <= 1))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": dropout must be in [0, 1], got ", dropout_p);
    if (proj_size < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": proj_size must be >= 0, got ", proj_size);
    if (proj_size > 0 && !lstm) fail(CT_ERR_INVALID_ARGUMENT, op, ": proj_size is only for LSTM, got ", proj_size);
    const int64_t D = bidirectional ? 2 : 1, G = rnn_gate_count(mode);
    const int64_t per = 2 + (has_biases ? 2 : 0) + (proj_size > 0 ? 1 : 0);
    const int64_t want = checked_mul(num_layers, D * per, op, "the weight count", CT_ERR_INVALID_ARGUMENT);
    if ((int64_t)weights.size() != want)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": expected ", want, " weights (", num_layers, " layers x ", D,
             " directions x ", per, " per layer-direction), got ", weights.size());
    for (size_t i = 0; i < weights.size(); ++i) {
        if (!weights[i].defined()) fail(CT_ERR_INVALID_ARGUMENT, op, ": weights[", i, "] is missing");
        check_like(op, x, weights[i], "weights[" + std::to_string(i) + "]");
    }
    if (weights[0].dim() != 2 || weights[0].size(0) % G != 0 || weights[0].size(0) == 0)
        fail(CT_ERR_SHAPE, op, ": expected weight_ih_l0 of shape [", G, " * hidden_size, input_size], got ",
             shape_str(weights[0].sizes()));
    const int64_t H = weights[0].size(0) / G, Hout = proj_size > 0 ? proj_size : H;
    if (proj_size >= H && proj_size > 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": proj_size ", proj_size, " must be smaller than hidden_size ", H);
    // Time-major packed rows (Note [Packed rows]) and the batch.
    Tensor rows;
    IntList bs;
    int64_t T = 0, B = 0;
    if (batch_sizes) {
        if (x.dim() != 2)
            fail(CT_ERR_SHAPE, op, ": expected packed input data [sum(batch_sizes), input_size], got ",
                 shape_str(x.sizes()));
        bs = *batch_sizes;
        check_batch_sizes(op, bs, x.size(0));
        rows = x, T = (int64_t)bs.size(), B = bs.empty() ? 0 : bs[0];
    } else {
        if (x.dim() != 3)
            fail(CT_ERR_SHAPE, op, ": expected input of rank 3 (", batch_first ? "[batch, seq, input_size]" :
                 "[seq, batch, input_size]", "), got ", shape_str(x.sizes()));
        Tensor tm = batch_first ? transpose(x, 0, 1) : x;
        T = tm.size(0), B = tm.size(1);
        rows = reshape(tm, {checked_mul(T, B, op, "the rows seq * batch"), tm.size(2)});
        if (B > 0) bs.assign((size_t)T, B);  // no rows: no steps (T may be huge when B is 0; the work stays nil)
    }
    if (rows.size(1) != weights[0].size(1))
        fail(CT_ERR_SHAPE, op, ": input_size of the input is ", rows.size(1), " but weight_ih_l0 expects ",
             weights[0].size(1));
    const Shape hshape{num_layers * D, B, Hout}, cshape{num_layers * D, B, H};
    if (hx.defined()) check_like(op, x, hx, "hx"), check_shape(op, hx, hshape, "hx");
    if (lstm && cx.defined()) check_like(op, x, cx, "cx"), check_shape(op, cx, cshape, "cx");
    Tensor h0 = hx.defined() ? hx : zeros(hshape, x.dtype(), x.device());
    Tensor c0 = lstm ? (cx.defined() ? cx : zeros(cshape, x.dtype(), x.device())) : Tensor();
    TensorList hys, cys;
    Tensor layer_in = rows;
    for (int64_t l = 0; l < num_layers; ++l) {
        const int64_t in_l = l == 0 ? rows.size(1) : D * Hout;
        TensorList outs;
        for (int64_t dir = 0; dir < D; ++dir) {
            const size_t k = (size_t)((l * D + dir) * per);
            const Tensor& w_ih = weights[k];
            const Tensor& w_hh = weights[k + 1];
            Tensor b_ih = has_biases ? weights[k + 2] : Tensor(), b_hh = has_biases ? weights[k + 3] : Tensor();
            Tensor w_hr = proj_size > 0 ? weights[k + per - 1] : Tensor();
            check_shape(op, w_ih, {G * H, in_l}, weight_name("weight_ih", l, dir));
            check_shape(op, w_hh, {G * H, Hout}, weight_name("weight_hh", l, dir));
            if (has_biases) {
                check_shape(op, b_ih, {G * H}, weight_name("bias_ih", l, dir));
                check_shape(op, b_hh, {G * H}, weight_name("bias_hh", l, dir));
            }
            if (w_hr.defined()) check_shape(op, w_hr, {Hout, H}, weight_name("weight_hr", l, dir));
            const int64_t idx = l * D + dir;
            TensorList r = rnn_layer(mode, layer_in, select(h0, 0, idx), lstm ? select(c0, 0, idx) : Tensor(), w_ih,
                                     w_hh, b_ih, b_hh, w_hr, bs, dir == 1);
            outs.push_back(r[0]);
            hys.push_back(r[1]);
            if (lstm) cys.push_back(r[2]);
        }
        layer_in = D == 1 ? outs[0] : cat(outs, 1);
        if (dropout_p > 0 && train && l + 1 < num_layers) layer_in = dropout(layer_in, dropout_p, true, gen);
    }
    RnnResult res;
    if (batch_sizes) {
        res.out = layer_in;
    } else {
        res.out = reshape(layer_in, {T, B, D * Hout});
        if (batch_first) res.out = transpose(res.out, 0, 1);
    }
    res.hy = stack(hys, 0);
    if (lstm) res.cy = stack(cys, 0);
    return res;
}

RnnResult rnn_cell(RnnMode mode, const Tensor& x, const Tensor& hx, const Tensor& cx, const Tensor& w_ih,
                   const Tensor& w_hh, const Tensor& b_ih, const Tensor& b_hh) {
    const std::string name = std::string(mode_op(mode)) + "_cell";
    const char* op = name.c_str();
    if (auto h = uniform_half_dtype_of(op, x, hx, cx, w_ih, w_hh, b_ih, b_hh)) {  // Note [Half compute]
        RnnResult r = rnn_cell(mode, as_float32(x), as_float32(hx), as_float32(cx), as_float32(w_ih), as_float32(w_hh),
                               as_float32(b_ih), as_float32(b_hh));
        return {round_results(r.out, *h), round_results(r.hy, *h), round_results(r.cy, *h)};
    }
    check_input_dtype(op, x);
    const bool lstm = mode == RnnMode::Lstm;
    const int64_t G = rnn_gate_count(mode);
    if (x.dim() != 1 && x.dim() != 2)
        fail(CT_ERR_SHAPE, op, ": expected input [batch, input_size] or [input_size], got ", shape_str(x.sizes()));
    for (auto [t, what] : {std::pair<const Tensor*, const char*>{&w_ih, "weight_ih"}, {&w_hh, "weight_hh"},
                           {&b_ih, "bias_ih"}, {&b_hh, "bias_hh"}, {&hx, "hx"}, {&cx, "cx"}})
        check_like(op, x, *t, what);
    if (!w_ih.defined() || !w_hh.defined()) fail(CT_ERR_INVALID_ARGUMENT, op, ": weight_ih and weight_hh are required");
    if (w_ih.dim() != 2 || w_ih.size(0) % G != 0 || w_ih.size(0) == 0)
        fail(CT_ERR_SHAPE, op, ": expected weight_ih of shape [", G, " * hidden_size, input_size], got ",
             shape_str(w_ih.sizes()));
    const bool batched = x.dim() == 2;
    Tensor xb = batched ? x : unsqueeze(x, 0);
    const int64_t B = xb.size(0), H = w_ih.size(0) / G;
    check_shape(op, w_ih, {G * H, xb.size(1)}, "weight_ih (input_size " + std::to_string(xb.size(1)) + ")");
    check_shape(op, w_hh, {G * H, H}, "weight_hh");
    if (b_ih.defined() != b_hh.defined())
        fail(CT_ERR_INVALID_ARGUMENT, op, ": give both bias_ih and bias_hh or neither");
    if (b_ih.defined()) check_shape(op, b_ih, {G * H}, "bias_ih"), check_shape(op, b_hh, {G * H}, "bias_hh");
    const Shape hshape = batched ? Shape{B, H} : Shape{H};
    if (hx.defined()) check_shape(op, hx, hshape, "hx");
    if (lstm && cx.defined()) check_shape(op, cx, hshape, "cx");
    Tensor h0 = hx.defined() ? (batched ? hx : unsqueeze(hx, 0)) : zeros({B, H}, x.dtype(), x.device());
    Tensor c0;
    if (lstm) c0 = cx.defined() ? (batched ? cx : unsqueeze(cx, 0)) : zeros({B, H}, x.dtype(), x.device());
    TensorList r = rnn_layer(mode, xb, h0, c0, w_ih, w_hh, b_ih, b_hh, Tensor(), IntList{B}, false);
    RnnResult res;
    res.hy = batched ? r[1] : squeeze(r[1], 0);
    if (lstm) res.cy = batched ? r[2] : squeeze(r[2], 0);
    return res;
}

}  // namespace ct

// capi_rnn.cpp - C API: recurrent nets (ops/rnn.cpp): the fused stack ct_rnn and the cells ct_rnn_cell.
#include "capi/capi_common.h"
#include "core/generator.h"
#include "ops/rnn.h"

using namespace ct;

namespace {

RnnMode mode_arg(int32_t mode, const char* op) {
    if (mode < CT_RNN_RELU || mode > CT_RNN_GRU)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": unknown mode ", mode,
             " (expected 0 = RNN_RELU, 1 = RNN_TANH, 2 = LSTM, 3 = GRU)");
    return (RnnMode)mode;
}

}  // namespace

extern "C" {

ct_status ct_rnn(int32_t mode, ct_tensor x, ct_tensor hx, ct_tensor cx, const ct_tensor* weights,
                 int32_t num_weights, int32_t has_biases, int64_t num_layers, double dropout, int32_t train,
                 int32_t bidirectional, int32_t batch_first, int64_t proj_size, const int64_t* batch_sizes,
                 int64_t num_batch_sizes, ct_generator gen, ct_tensor* out, ct_tensor* hy, ct_tensor* cy) {
    const char* op = "rnn";
    return guard([&] {
        check_out(out, op, "out");
        check_out(hy, op, "hy");
        RnnMode m = mode_arg(mode, op);
        if (m == RnnMode::Lstm) check_out(cy, op, "cy");
        Tensor X = get_tensor(x, op, "x");
        Tensor HX = get_optional_tensor(hx, op, "hx"), CX = get_optional_tensor(cx, op, "cx");
        TensorList W = tensor_list_arg(weights, num_weights, op, "weights");
        std::vector<Tensor*> args = {&X, &HX, &CX};
        for (Tensor& w : W) args.push_back(&w);
        autocast_rnn_args(m == RnnMode::RnnTanh || m == RnnMode::RnnRelu, args);  // Note [Autocast by argument]
        if (num_batch_sizes < 0 || (num_batch_sizes > 0 && !batch_sizes))
            fail(CT_ERR_INVALID_ARGUMENT, op, ": batch_sizes is NULL or num_batch_sizes (", num_batch_sizes,
                 ") is negative");
        IntList bs(batch_sizes ? batch_sizes : nullptr, batch_sizes ? batch_sizes + num_batch_sizes : nullptr);
        std::shared_ptr<Generator> g = generator_arg(gen, op);
        RnnResult r = rnn(m, X, HX, CX, W, has_biases != 0, num_layers, dropout, train != 0, bidirectional != 0,
                          batch_first != 0, proj_size, batch_sizes ? &bs : nullptr, g.get());
        ct_tensor o = new_tensor_handle(r.out), h = nullptr, c = nullptr;
        try {
            h = new_tensor_handle(r.hy);
            if (r.cy.defined()) c = new_tensor_handle(r.cy);
        } catch (...) {
            ct_tensor_release(o);
            ct_tensor_release(h);
            throw;
        }
        *out = o, *hy = h;
        if (cy) *cy = c;
    });
}

ct_status ct_rnn_cell(int32_t mode, ct_tensor x, ct_tensor hx, ct_tensor cx, ct_tensor w_ih, ct_tensor w_hh,
                      ct_tensor b_ih, ct_tensor b_hh, ct_tensor* hy, ct_tensor* cy) {
    const char* op = "rnn_cell";
    return guard([&] {
        check_out(hy, op, "hy");
        RnnMode m = mode_arg(mode, op);
        if (m == RnnMode::Lstm) check_out(cy, op, "cy");
        Tensor X = get_tensor(x, op, "x"), HX = get_optional_tensor(hx, op, "hx"), CX = get_optional_tensor(cx, op, "cx");
        Tensor WI = get_optional_tensor(w_ih, op, "w_ih"), WH = get_optional_tensor(w_hh, op, "w_hh");
        Tensor BI = get_optional_tensor(b_ih, op, "b_ih"), BH = get_optional_tensor(b_hh, op, "b_hh");
        autocast_rnn_args(m == RnnMode::RnnTanh || m == RnnMode::RnnRelu,  // Note [Autocast by argument]
                          {&X, &HX, &CX, &WI, &WH, &BI, &BH});
        RnnResult r = rnn_cell(m, X, HX, CX, WI, WH, BI, BH);
        ct_tensor h = new_tensor_handle(r.hy), c = nullptr;
        try {
            if (r.cy.defined()) c = new_tensor_handle(r.cy);
        } catch (...) {
            ct_tensor_release(h);
            throw;
        }
        *hy = h;
        if (cy) *cy = c;
    });
}

}  // extern "C"

// rnn_layer.cpp - one fused layer-direction of a recurrent net (RNN tanh/relu, LSTM with optional projection, GRU):
// one gemm for the input projection of the whole sequence, one gemm per step for the recurrence, a step's gates in
// one kernel over the batch rows, and a backward that is ONE autograd node (BPTT over the saved gates) ending in one
// gemm per weight. Rows follow Note [Packed rows] (rnn.h); where it runs, Note [RNN on the device].
#include <memory>
#include "autograd/grad_mode.h"
#include "ops/nn_common.h"
#include "ops/rnn.h"
#include "ops/rnn_ops.h"

namespace ct {

// Note [RNN on the device]: the layer loop below is written once, over five primitives (rnn_ops.h): gemm, copy,
// add, the step's gate kernel and column sums. HostOps runs them on the CPU (OpenBLAS, the vectorised CPU step
// kernels); DeviceOps runs each as one call of the CUDA backend (cuBLAS gemm, device memcpy, the binary add, the
// rnn_step entry of cuda/rnn.cuh, a gemm with a ones row), so a CUDA layer keeps every buffer on its device and
// nothing is copied to the host, forward or backward. Both step kernels take the same ct_cuda_rnn_step_args
// (core/backend.h) and apply core/rnn_math.h, so CPU and CUDA share the math. Invariants: every buffer is a
// contiguous tensor on the inputs' device; a step's pointers are offset to its first row (row o of the packed
// rows); the backward writes each row of dg, dgh and dhp exactly once (the step owning it).

namespace {

using namespace rnn_detail;

// The sizes of one layer-direction (Note [Packed rows]).
struct LayerDims {
    RnnMode mode = RnnMode::Lstm;
    int64_t N = 0, I = 0, H = 0, Hout = 0, G = 1, B = 0;
    bool reverse = false, proj = false;
    IntList bs, off;
    int64_t steps() const { return (int64_t)bs.size(); }
    int64_t time_of(int64_t s) const { return reverse ? steps() - 1 - s : s; }  // s-th step processed
};

// Buffers the backward needs, made in the forward on the inputs' device. Plain workspace tensors with no autograd
// metadata that are never handed out, so a node holding them cannot form a reference cycle.
struct LayerSaved {
    LayerDims d;
    Tensor hprev;  // [N, Hout] the hidden state entering each row's step
    Tensor cprev;  // [N, H] the cell state entering it (LSTM)
    Tensor gates;  // [N, G*H] activated gates (LSTM i f g o; GRU r z n; RNN the new h)
    Tensor cell;   // [N, H] tanh of the new cell state (LSTM)
    Tensor hn;     // [N, H] W_hn h + b_hn (GRU)
    Tensor hraw;   // [N, H] o * tanh(c) before the projection (LSTM with proj)
};

// The forward's inputs, contiguous on their device, with the biases joined as the step kernels add them.
struct LayerInputs {
    Tensor x, h0, c0, w_ih, w_hh, w_hr, bias, bhn;
};

template <typename T> T* ptr(const Tensor& t) { return t.defined() ? static_cast<T*>(t.device_data()) : nullptr; }

// t contiguous, of dtype dt, on its own device (undefined stays undefined).
Tensor dense(const Tensor& t, DType dt) {
    if (!t.defined()) return t;
    return contiguous_nograd(t.dtype() == dt ? t : to_dtype(t, dt));
}

// bias [G*H] joins b_ih and b_hh (for GRU's n gate b_in only), bhn [H] is GRU's b_hn (added inside
// r * (W_hn h + b_hn)); both undefined without biases. Tensor ops, so they run on the biases' device.
void join_biases(const LayerDims& d, const Tensor& b_ih, const Tensor& b_hh, LayerInputs& in) {
    if (!b_ih.defined()) return;
    if (d.mode != RnnMode::Gru) {
        in.bias = contiguous_nograd(add(b_ih, b_hh));
        return;
    }
    const int64_t H = d.H;
    in.bias = contiguous_nograd(cat({add(slice(b_ih, 0, 0, 2 * H, 1), slice(b_hh, 0, 0, 2 * H, 1)),
                                     slice(b_ih, 0, 2 * H, 3 * H, 1)}, 0));
    in.bhn = contiguous_nograd(slice(b_hh, 0, 2 * H, 3 * H, 1));
}

// Calls fn(T{}, ops) with the primitives of dev for dtype dt (float32/float64).
template <typename Fn> decltype(auto) with_ops(DType dt, Device dev, Fn&& fn) {
    return dispatch_float(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (dev.is_cpu()) return fn(T(), HostOps<T>{dev});
        return fn(T(), DeviceOps<T>{dev});
    });
}

template <typename T, typename Ops>
void layer_forward(const Ops& ops, const LayerDims& d, const LayerInputs& in, LayerSaved& s, Tensor& out, Tensor& hy,
                   Tensor& cy) {
    const int64_t H = d.H, GH = d.G * H, Hout = d.Hout, B = d.B;
    T* gates = ptr<T>(s.gates);
    if (d.N > 0) ops.gemm(false, true, d.N, GH, d.I, T(1), ptr<T>(in.x), d.I, ptr<T>(in.w_ih), d.I, T(0), gates, GH);
    T* h = ptr<T>(hy);
    ops.copy(h, ptr<T>(in.h0), B * Hout);
    T* c = ptr<T>(cy);
    if (c) ops.copy(c, ptr<T>(in.c0), B * H);
    Tensor hw = empty_tensor({B, GH}, in.x.dtype(), ops.dev, "rnn");
    T *outp = ptr<T>(out), *hraw = ptr<T>(s.hraw), *cell = ptr<T>(s.cell), *hn = ptr<T>(s.hn);
    ct_cuda_rnn_step_args a{};
    a.op = CT_CUDA_RNN_STEP_FORWARD, a.mode = (int32_t)d.mode, a.H = H, a.bias = ptr<T>(in.bias);
    a.bhn = ptr<T>(in.bhn), a.hw = ptr<T>(hw), a.h = h, a.c = c;
    for (int64_t st = 0; st < d.steps(); ++st) {
        const int64_t t = d.time_of(st), b = d.bs[(size_t)t], o = d.off[(size_t)t];
        if (b == 0) continue;
        ops.copy(ptr<T>(s.hprev) + o * Hout, h, b * Hout);
        if (c) ops.copy(ptr<T>(s.cprev) + o * H, c, b * H);
        ops.gemm(false, true, b, GH, Hout, T(1), h, Hout, ptr<T>(in.w_hh), Hout, T(0), ptr<T>(hw), GH);
        a.rows = b, a.gates = gates + o * GH, a.cell = cell ? cell + o * H : nullptr;
        a.hn = hn ? hn + o * H : nullptr, a.h_out = (d.proj ? hraw : outp) + o * H;  // Hout == H without proj
        ops.step(a);
        if (d.proj)
            ops.gemm(false, true, b, Hout, H, T(1), hraw + o * H, H, ptr<T>(in.w_hr), H, T(0), outp + o * Hout, Hout);
        ops.copy(h, outp + o * Hout, b * Hout);
    }
}

// Which gradients a backward computes (the rest are undefined): the input's, h0's, the weights' (all or none).
struct LayerNeeds {
    bool x = true, h0 = true, w = true;
};

// Gradients of every input (x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr; undefined where the input is) from those of
// the outputs (dout [N, Hout], dhy [B, Hout], dcy [B, H]); every tensor contiguous on the saved buffers' device.
template <typename T, typename Ops>
TensorList layer_backward(const Ops& ops, const LayerSaved& s, const Tensor& x, const Tensor& w_ih,
                          const Tensor& w_hh, const Tensor& w_hr, bool has_bias, const Tensor& dout, const Tensor& dhy,
                          const Tensor& dcy, const LayerNeeds& needs) {
    const LayerDims& d = s.d;
    const int64_t H = d.H, GH = d.G * H, Hout = d.Hout, B = d.B, N = d.N;
    const DType dt = x.dtype();
    const Device dev = ops.dev;
    const bool gru = d.mode == RnnMode::Gru, lstm = d.mode == RnnMode::Lstm;
    Tensor dh = clone(dhy), dc = lstm ? clone(dcy) : Tensor();
    // every row belongs to one step, which writes its rows of dg, dgh and dhp whole: no zero fill needed
    Tensor dg = empty_tensor({N, GH}, dt, dev, "rnn"), dgh = gru ? empty_tensor({N, GH}, dt, dev, "rnn") : dg;
    Tensor dhp = d.proj ? empty_tensor({N, Hout}, dt, dev, "rnn") : Tensor();
    Tensor dhr = d.proj ? empty_tensor({B, H}, dt, dev, "rnn") : Tensor();
    T* dhd = ptr<T>(dh);
    const T* doutp = ptr<T>(dout);
    ct_cuda_rnn_step_args a{};
    a.op = CT_CUDA_RNN_STEP_BACKWARD, a.mode = (int32_t)d.mode, a.H = H, a.dc = ptr<T>(dc), a.dh_out = dhd;
    for (int64_t st = d.steps() - 1; st >= 0; --st) {
        const int64_t t = d.time_of(st), b = d.bs[(size_t)t], o = d.off[(size_t)t];
        if (b == 0) continue;
        ops.add(dhd, doutp + o * Hout, b * Hout);
        const T* src = dhd;
        if (d.proj) {
            ops.copy(ptr<T>(dhp) + o * Hout, dhd, b * Hout);
            ops.gemm(false, false, b, H, Hout, T(1), dhd, Hout, ptr<T>(w_hr), H, T(0), ptr<T>(dhr), H);
            src = ptr<T>(dhr);
        }
        a.rows = b, a.gates = ptr<T>(s.gates) + o * GH, a.dh = src, a.dg = ptr<T>(dg) + o * GH;
        a.dgh = ptr<T>(dgh) + o * GH;
        a.cell = lstm ? ptr<T>(s.cell) + o * H : nullptr, a.c_prev = lstm ? ptr<T>(s.cprev) + o * H : nullptr;
        a.hn = gru ? ptr<T>(s.hn) + o * H : nullptr, a.h_prev = gru ? ptr<T>(s.hprev) + o * Hout : nullptr;
        ops.step(a);
        if (st > 0 || needs.h0)  // the first step's product is only h0's gradient
            ops.gemm(false, false, b, Hout, GH, T(1), ptr<T>(dgh) + o * GH, GH, ptr<T>(w_hh), Hout,
                     gru ? T(1) : T(0), dhd, Hout);
    }
    // the gemms below write these whole (beta 0) when there are rows; zeros otherwise
    auto grad_buffer = [&](const Shape& shape) {
        return N > 0 ? empty_tensor(shape, dt, dev, "rnn") : zeros(shape, dt, dev);
    };
    Tensor dx, dwih, dwhh, dbih, dbhh, dwhr;
    if (needs.x) {
        dx = grad_buffer({N, d.I});
        if (N > 0) ops.gemm(false, false, N, d.I, GH, T(1), ptr<T>(dg), GH, ptr<T>(w_ih), d.I, T(0), ptr<T>(dx), d.I);
    }
    if (!needs.w) return {dx, needs.h0 ? dh : Tensor(), dc, dwih, dwhh, dbih, dbhh, dwhr};
    dwih = grad_buffer(w_ih.sizes()), dwhh = grad_buffer(w_hh.sizes());
    if (N > 0) {
        ops.gemm(true, false, GH, d.I, N, T(1), ptr<T>(dg), GH, ptr<T>(x), d.I, T(0), ptr<T>(dwih), d.I);
        ops.gemm(true, false, GH, Hout, N, T(1), ptr<T>(dgh), GH, ptr<T>(s.hprev), Hout, T(0), ptr<T>(dwhh), Hout);
    }
    if (has_bias) {
        dbih = empty_tensor({GH}, dt, dev, "rnn"), dbhh = empty_tensor({GH}, dt, dev, "rnn");
        ops.col_sums(ptr<T>(dg), N, GH, ptr<T>(dbih));
        ops.col_sums(ptr<T>(dgh), N, GH, ptr<T>(dbhh));
    }
    if (d.proj) {
        dwhr = grad_buffer(w_hr.sizes());
        if (N > 0)
            ops.gemm(true, false, Hout, H, N, T(1), ptr<T>(dhp), Hout, ptr<T>(s.hraw), H, T(0), ptr<T>(dwhr), H);
    }
    return {dx, needs.h0 ? dh : Tensor(), dc, dwih, dwhh, dbih, dbhh, dwhr};
}

// Marks grads as results of a node whose backward refuses (the second derivative, as torch's cudnn RNN).
void refuse_double_backward(TensorList& grads, const TensorList& inputs) {
    if (!GradMode::is_enabled() || !any_requires_grad(inputs)) return;
    auto node = make_node("RnnBackwardBackward", inputs, [](BackwardCtx&) -> TensorList {
        fail(CT_ERR_NOT_SUPPORTED, "rnn: the second derivative is not implemented (as in torch's cudnn RNN)");
    });
    for (size_t i = 0; i < grads.size(); ++i)
        if (grads[i].defined()) set_history(grads[i], node, (uint32_t)i);
}

}  // namespace

TensorList rnn_layer(RnnMode mode, const Tensor& x, const Tensor& h0, const Tensor& c0, const Tensor& w_ih,
                     const Tensor& w_hh, const Tensor& b_ih, const Tensor& b_hh, const Tensor& w_hr,
                     const IntList& batch_sizes, bool reverse) {
    auto s = std::make_shared<LayerSaved>();
    LayerDims& d = s->d;
    d.mode = mode, d.G = rnn_gate_count(mode), d.N = x.size(0), d.I = x.size(1), d.H = w_ih.size(0) / d.G;
    d.Hout = w_hh.size(1), d.B = h0.size(0), d.reverse = reverse, d.proj = w_hr.defined(), d.bs = batch_sizes;
    int64_t acc = 0;
    for (int64_t b : batch_sizes) d.off.push_back(acc), acc += b;
    const DType dt = x.dtype();
    const Device dev = x.device();
    const bool lstm = mode == RnnMode::Lstm;
    if (!dev.is_cpu()) cuda_device_backend("rnn", dev.index);  // a clear error before any allocation
    auto buffer = [&](const Shape& shape) { return empty_tensor(shape, dt, dev, "rnn"); };
    Tensor out = buffer({d.N, d.Hout}), hy = buffer({d.B, d.Hout}), cy = lstm ? buffer({d.B, d.H}) : Tensor();
    {
        NoGradGuard no_grad;
        s->hprev = buffer({d.N, d.Hout});
        s->gates = buffer({d.N, d.G * d.H});
        if (lstm) s->cprev = buffer({d.N, d.H}), s->cell = buffer({d.N, d.H});
        if (mode == RnnMode::Gru) s->hn = buffer({d.N, d.H});
        if (d.proj) s->hraw = buffer({d.N, d.H});
        LayerInputs in{dense(x, dt), dense(h0, dt), dense(c0, dt), dense(w_ih, dt), dense(w_hh, dt), dense(w_hr, dt),
                       Tensor(), Tensor()};
        join_biases(d, b_ih, b_hh, in);
        with_ops(dt, dev, [&](auto tag, const auto& ops) {
            layer_forward<decltype(tag)>(ops, d, in, *s, out, hy, cy);
        });
    }
    TensorList outs = lstm ? TensorList{out, hy, cy} : TensorList{out, hy};
    TensorList inputs{x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr};
    if (!any_requires_grad(inputs)) return outs;
    const bool has_bias = b_ih.defined();
    auto backward = [s, has_bias](BackwardCtx& c) -> TensorList {
        const DType dt = c.saved(0).dtype();
        const Device dev = c.saved(0).device();
        const LayerDims& d = s->d;
        // an output's gradient, contiguous on the layer's device (zeros when the engine passes none)
        auto grad = [&](size_t i, const Shape& shape) {
            return i < c.grads.size() && c.grads[i].defined() ? dense(c.grads[i], dt) : zeros(shape, dt, dev);
        };
        TensorList g;
        {
            NoGradGuard no_grad;
            LayerNeeds needs;
            needs.x = c.needs(0), needs.h0 = c.needs(1);
            needs.w = c.needs(3) || c.needs(4) || c.needs(5) || c.needs(6) || c.needs(7);
            Tensor dout = grad(0, {d.N, d.Hout}), dhy = grad(1, {d.B, d.Hout});
            Tensor dcy = d.mode == RnnMode::Lstm ? grad(2, {d.B, d.H}) : Tensor();
            g = with_ops(dt, dev, [&](auto tag, const auto& ops) {
                return layer_backward<decltype(tag)>(ops, *s, dense(c.saved(0), dt), dense(c.saved(1), dt),
                                                     dense(c.saved(2), dt), dense(c.saved(3), dt), has_bias, dout,
                                                     dhy, dcy, needs);
            });
        }
        TensorList ins;
        for (size_t i = 0; i < 4; ++i) ins.push_back(c.saved(i));
        refuse_double_backward(g, ins);
        return g;
    };
    auto node = make_node("RnnBackward", inputs, backward);
    node->save(x), node->save(w_ih), node->save(w_hh), node->save(w_hr.defined() ? w_hr : w_hh);
    for (size_t i = 0; i < outs.size(); ++i) set_history(outs[i], node, (uint32_t)i);
    return outs;
}

}  // namespace ct

// rnn_layer.cpp - one fused layer-direction of a recurrent net (RNN tanh/relu, LSTM with optional projection, GRU):
// one gemm for the input projection of the whole sequence, one gemm per step for the recurrence, a step's gates in
// one loop over the batch rows, and a backward that is ONE autograd node (BPTT over the saved gates) ending in one
// gemm per weight. Rows follow Note [Packed rows] (rnn.h); the math runs on the host (Note [RNN on the host]).
#include <cmath>
#include <memory>
#include "autograd/grad_mode.h"
#include "cpu/gemm.h"
#include "cpu/parallel.h"
#include "cpu/vec_math.h"
#include "core/rnn_math.h"
#include "ops/device_ops.h"
#include "ops/nn_common.h"
#include "ops/rnn.h"

namespace ct {

// Note [RNN on the host]: the kernels below run on host memory; a CUDA call copies its inputs to the host and
// the results back (one copy each way in the forward and in the backward), as the CTC loss does. The step
// structure (one gemm per step, one gate kernel per step) is what a device backend would launch; it is not one yet.

namespace {

// The sizes of one layer-direction (Note [Packed rows]).
struct LayerDims {
    RnnMode mode = RnnMode::Lstm;
    int64_t N = 0, I = 0, H = 0, Hout = 0, G = 1, B = 0;
    bool reverse = false, proj = false;
    IntList bs, off;
    int64_t steps() const { return (int64_t)bs.size(); }
    int64_t time_of(int64_t s) const { return reverse ? steps() - 1 - s : s; }  // s-th step processed
};

// Host float64/float32 buffers the backward needs, made in the forward. Plain workspace tensors with no autograd
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

template <typename T> const T* ptr(const Tensor& t) { return t.defined() ? t.data<T>() : nullptr; }
template <typename T> T* mptr(const Tensor& t) { return t.defined() ? t.data<T>() : nullptr; }
template <typename T> T at(const T* p, int64_t i) { return p ? p[i] : T(0); }

// The host copy of t, contiguous and of dtype dt (undefined stays undefined).
Tensor host(const Tensor& t, DType dt) {
    if (!t.defined()) return t;
    Tensor h = t.device().is_cpu() ? t : to_device(t, Device{});
    return contiguous_nograd(h.dtype() == dt ? h : to_dtype(h, dt));
}

// Runs fn(r0, r1) over the b rows of a step; parallel only when a step has enough work to pay for it.
template <typename Fn> void over_rows(int64_t b, int64_t work_per_row, Fn&& fn) {
    parallel_for(b, std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(work_per_row, 1)), fn);
}

// The biases as the step kernels add them: bias[G*H] joins b_ih and b_hh (for GRU's n gate b_in only), bhn[H] is
// GRU's b_hn (added inside r * (W_hn h + b_hn)); zeros without biases.
template <typename T> struct StepBias {
    std::vector<T> bias, bhn;
    StepBias(const LayerDims& d, const T* b_ih, const T* b_hh) : bias((size_t)(d.G * d.H)), bhn((size_t)d.H) {
        const int64_t GH = d.G * d.H, joined = d.mode == RnnMode::Gru ? 2 * d.H : GH;
        for (int64_t k = 0; k < GH; ++k) bias[k] = at(b_ih, k) + (k < joined ? at(b_hh, k) : T(0));
        if (d.mode == RnnMode::Gru)
            for (int64_t j = 0; j < d.H; ++j) bhn[j] = at(b_hh, 2 * d.H + j);
    }
};

// Forward gate kernel of one step: rows [r0, r1) of gates (x @ w_ih^T in, activations out), hw = h @ w_hh^T,
// the running states h [B, Hout] / c [B, H], writing the new hidden state to hdst (row o + r, H wide). The
// activations run vectorised over each row's gate blocks (cpu/vec_math.h); the rest is core/rnn_math.h.
template <typename T>
void step_forward(const LayerDims& d, int64_t o, int64_t r0, int64_t r1, T* gates, const T* hw, const StepBias<T>& b,
                  const T* h, T* c, T* cell, T* hn, T* hdst) {
    const int64_t H = d.H, GH = d.G * H;
    const T* bias = b.bias.data();
    for (int64_t r = r0; r < r1; ++r) {
        T* g = gates + (o + r) * GH;
        const T* w = hw + r * GH;
        T* hd = hdst + (o + r) * H;
        if (d.mode == RnnMode::Lstm) {
            for (int64_t k = 0; k < GH; ++k) g[k] += w[k] + bias[k];
            vec::sigmoid(g, g, 2 * H);
            vec::tanh(g + 2 * H, g + 2 * H, H);
            vec::sigmoid(g + 3 * H, g + 3 * H, H);
            T* cr = c + r * H;
            T* tc = cell + (o + r) * H;
            for (int64_t j = 0; j < H; ++j) cr[j] = math::LstmGates::cell(g[j], g[H + j], g[2 * H + j], cr[j]);
            vec::tanh(cr, tc, H);
            for (int64_t j = 0; j < H; ++j) hd[j] = g[3 * H + j] * tc[j];
        } else if (d.mode == RnnMode::Gru) {
            const T* hr = h + r * H;
            T* hnr = hn + (o + r) * H;
            for (int64_t k = 0; k < 2 * H; ++k) g[k] += w[k] + bias[k];
            vec::sigmoid(g, g, 2 * H);
            for (int64_t j = 0; j < H; ++j) {
                hnr[j] = w[2 * H + j] + b.bhn[j];
                g[2 * H + j] = math::GruGates::n_pre(g[2 * H + j] + bias[2 * H + j], g[j], hnr[j]);
            }
            vec::tanh(g + 2 * H, g + 2 * H, H);
            for (int64_t j = 0; j < H; ++j) hd[j] = math::GruGates::hidden(g[H + j], g[2 * H + j], hr[j]);
        } else {
            for (int64_t k = 0; k < H; ++k) g[k] += w[k] + bias[k];
            if (d.mode == RnnMode::RnnTanh) vec::tanh(g, g, H);
            else for (int64_t k = 0; k < H; ++k) g[k] = math::PlainGates::relu(g[k]);
            std::copy(g, g + H, hd);
        }
    }
}

template <typename T>
void layer_forward(const LayerDims& d, const Tensor& x, const Tensor& h0, const Tensor& c0, const Tensor& w_ih,
                   const Tensor& w_hh, const Tensor& b_ih, const Tensor& b_hh, const Tensor& w_hr, LayerSaved& s,
                   Tensor& out, Tensor& hy, Tensor& cy) {
    const int64_t H = d.H, GH = d.G * H, Hout = d.Hout, B = d.B;
    T* gates = s.gates.data<T>();
    if (d.N > 0) gemm(false, true, d.N, GH, d.I, T(1), x.data<T>(), d.I, w_ih.data<T>(), d.I, T(0), gates, GH);
    T* h = hy.data<T>();
    std::copy(h0.data<T>(), h0.data<T>() + B * Hout, h);
    T* c = cy.defined() ? cy.data<T>() : nullptr;
    if (c) std::copy(c0.data<T>(), c0.data<T>() + B * H, c);
    std::vector<T> hw((size_t)(B * GH));
    const StepBias<T> bias(d, ptr<T>(b_ih), ptr<T>(b_hh));
    T* outp = out.data<T>();
    T* hraw = d.proj ? s.hraw.data<T>() : nullptr;
    for (int64_t st = 0; st < d.steps(); ++st) {
        const int64_t t = d.time_of(st), b = d.bs[(size_t)t], o = d.off[(size_t)t];
        if (b == 0) continue;
        std::copy(h, h + b * Hout, s.hprev.data<T>() + o * Hout);
        if (c) std::copy(c, c + b * H, s.cprev.data<T>() + o * H);
        gemm(false, true, b, GH, Hout, T(1), h, Hout, w_hh.data<T>(), Hout, T(0), hw.data(), GH);
        over_rows(b, GH, [&](int64_t r0, int64_t r1) {
            step_forward<T>(d, o, r0, r1, gates, hw.data(), bias, h, c, mptr<T>(s.cell), mptr<T>(s.hn),
                            d.proj ? hraw : outp);
        });
        if (d.proj)
            gemm(false, true, b, Hout, H, T(1), hraw + o * H, H, w_hr.data<T>(), H, T(0), outp + o * Hout, Hout);
        std::copy(outp + o * Hout, outp + (o + b) * Hout, h);
    }
}

// Backward gate kernel of one step: from dh (the gradient reaching the new hidden state, before the projection)
// and dc (the cell state's), the gate pre-activation gradients dg (x side) and dgh (h side; GRU differs in n),
// dc becoming the previous cell state's, and for GRU dh becoming its direct part z * dh.
template <typename T>
void step_backward(const LayerDims& d, const LayerSaved& s, int64_t o, int64_t r0, int64_t r1, const T* dhsrc,
                   T* dh, T* dc, T* dg, T* dgh) {
    const int64_t H = d.H, GH = d.G * H;
    for (int64_t r = r0; r < r1; ++r) {
        const T* g = s.gates.data<T>() + (o + r) * GH;
        T* gx = dg + (o + r) * GH;
        const T* dhr = dhsrc + r * H;
        if (d.mode == RnnMode::Lstm) {
            const T* tc = s.cell.data<T>() + (o + r) * H;
            const T* cp = s.cprev.data<T>() + (o + r) * H;
            T* dcr = dc + r * H;
            for (int64_t j = 0; j < H; ++j)
                math::LstmGates::backward(g[j], g[H + j], g[2 * H + j], g[3 * H + j], tc[j], cp[j], dhr[j], dcr[j],
                                          gx[j], gx[H + j], gx[2 * H + j], gx[3 * H + j]);
        } else if (d.mode == RnnMode::Gru) {
            const T* hp = s.hprev.data<T>() + (o + r) * H;
            const T* hn = s.hn.data<T>() + (o + r) * H;
            T* gh = dgh + (o + r) * GH;
            T* dhw = dh + r * H;
            for (int64_t j = 0; j < H; ++j) {
                dhw[j] = math::GruGates::backward(g[j], g[H + j], g[2 * H + j], hn[j], hp[j], dhr[j], gx[j],
                                                  gx[H + j], gx[2 * H + j]);
                gh[j] = gx[j], gh[H + j] = gx[H + j], gh[2 * H + j] = gx[2 * H + j] * g[j];
            }
        } else {
            for (int64_t j = 0; j < H; ++j)
                gx[j] = math::PlainGates::backward(d.mode == RnnMode::RnnRelu, g[j], dhr[j]);
        }
    }
}

// Which gradients a backward computes (the rest are undefined): the input's, h0's, the weights' (all or none).
struct LayerNeeds {
    bool x = true, h0 = true, w = true;
};

// Column sums of m [n, k] into out [k].
template <typename T> void col_sums(const T* m, int64_t n, int64_t k, T* out) {
    std::fill(out, out + k, T(0));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j) out[j] += m[i * k + j];
}

// Gradients of every input (x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr; undefined where the input is) from those of
// the outputs (dout [N, Hout], dhy [B, Hout], dcy [B, H]); host tensors of dtype T.
template <typename T>
TensorList layer_backward(const LayerSaved& s, const Tensor& x, const Tensor& w_ih, const Tensor& w_hh,
                          const Tensor& w_hr, bool has_bias, const Tensor& dout, const Tensor& dhy, const Tensor& dcy,
                          const LayerNeeds& needs) {
    const LayerDims& d = s.d;
    const int64_t H = d.H, GH = d.G * H, Hout = d.Hout, B = d.B, N = d.N;
    const DType dt = x.dtype();
    const bool gru = d.mode == RnnMode::Gru, lstm = d.mode == RnnMode::Lstm;
    Tensor dh = clone(dhy), dc = lstm ? clone(dcy) : Tensor();
    // every row belongs to one step, which writes its rows of dg, dgh and dhp whole: no zero fill needed
    Tensor dg = empty_tensor({N, GH}, dt, Device{}), dgh = gru ? empty_tensor({N, GH}, dt, Device{}) : dg;
    Tensor dhp = d.proj ? empty_tensor({N, Hout}, dt, Device{}) : Tensor();
    std::vector<T> dhr(d.proj ? (size_t)(B * H) : 0);
    T* dhd = dh.data<T>();
    const T* doutp = dout.data<T>();
    for (int64_t st = d.steps() - 1; st >= 0; --st) {
        const int64_t t = d.time_of(st), b = d.bs[(size_t)t], o = d.off[(size_t)t];
        if (b == 0) continue;
        for (int64_t i = 0; i < b * Hout; ++i) dhd[i] += doutp[o * Hout + i];
        const T* src = dhd;
        if (d.proj) {
            std::copy(dhd, dhd + b * Hout, dhp.data<T>() + o * Hout);
            gemm(false, false, b, H, Hout, T(1), dhd, Hout, w_hr.data<T>(), H, T(0), dhr.data(), H);
            src = dhr.data();
        }
        over_rows(b, GH, [&](int64_t r0, int64_t r1) {
            step_backward<T>(d, s, o, r0, r1, src, dhd, mptr<T>(dc), dg.data<T>(), dgh.data<T>());
        });
        if (st > 0 || needs.h0)  // the first step's product is only h0's gradient
            gemm(false, false, b, Hout, GH, T(1), dgh.data<T>() + o * GH, GH, w_hh.data<T>(), Hout,
                 gru ? T(1) : T(0), dhd, Hout);
    }
    // the gemms below write these whole (beta 0) when there are rows; zeros otherwise
    auto grad_buffer = [&](const Shape& shape) {
        return N > 0 ? empty_tensor(shape, dt, Device{}) : zeros(shape, dt, Device{});
    };
    Tensor dx, dwih, dwhh, dbih, dbhh, dwhr;
    if (needs.x) {
        dx = grad_buffer({N, d.I});
        if (N > 0) gemm(false, false, N, d.I, GH, T(1), dg.data<T>(), GH, w_ih.data<T>(), d.I, T(0), dx.data<T>(), d.I);
    }
    if (!needs.w) return {dx, needs.h0 ? dh : Tensor(), dc, dwih, dwhh, dbih, dbhh, dwhr};
    dwih = grad_buffer(w_ih.sizes()), dwhh = grad_buffer(w_hh.sizes());
    if (N > 0) {
        gemm(true, false, GH, d.I, N, T(1), dg.data<T>(), GH, x.data<T>(), d.I, T(0), dwih.data<T>(), d.I);
        gemm(true, false, GH, Hout, N, T(1), dgh.data<T>(), GH, s.hprev.data<T>(), Hout, T(0), dwhh.data<T>(),
             Hout);
    }
    if (has_bias) {
        dbih = empty_tensor({GH}, dt, Device{}), dbhh = empty_tensor({GH}, dt, Device{});
        col_sums(dg.data<T>(), N, GH, dbih.data<T>());
        col_sums(dgh.data<T>(), N, GH, dbhh.data<T>());
    }
    if (d.proj) {
        dwhr = grad_buffer(w_hr.sizes());
        if (N > 0)
            gemm(true, false, Hout, H, N, T(1), dhp.data<T>(), Hout, s.hraw.data<T>(), H, T(0), dwhr.data<T>(), H);
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
    Tensor out = empty_tensor({d.N, d.Hout}, dt, Device{}), hy = empty_tensor({d.B, d.Hout}, dt, Device{});
    Tensor cy = lstm ? empty_tensor({d.B, d.H}, dt, Device{}) : Tensor();
    {
        NoGradGuard no_grad;
        s->hprev = empty_tensor({d.N, d.Hout}, dt, Device{});
        s->gates = empty_tensor({d.N, d.G * d.H}, dt, Device{});
        if (lstm) s->cprev = empty_tensor({d.N, d.H}, dt, Device{}), s->cell = empty_tensor({d.N, d.H}, dt, Device{});
        if (mode == RnnMode::Gru) s->hn = empty_tensor({d.N, d.H}, dt, Device{});
        if (d.proj) s->hraw = empty_tensor({d.N, d.H}, dt, Device{});
        dispatch_float(dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            layer_forward<T>(d, host(x, dt), host(h0, dt), host(c0, dt), host(w_ih, dt), host(w_hh, dt),
                             host(b_ih, dt), host(b_hh, dt), host(w_hr, dt), *s, out, hy, cy);
        });
        if (!dev.is_cpu()) {
            out = copy_to_device(out, dev), hy = copy_to_device(hy, dev);
            if (lstm) cy = copy_to_device(cy, dev);
        }
    }
    TensorList outs = lstm ? TensorList{out, hy, cy} : TensorList{out, hy};
    TensorList inputs{x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr};
    if (!any_requires_grad(inputs)) return outs;
    const bool has_bias = b_ih.defined();
    auto backward = [s, has_bias](BackwardCtx& c) -> TensorList {
        const DType dt = c.saved(0).dtype();
        const Device dev = c.saved(0).device();
        TensorList g;
        {
            NoGradGuard no_grad;
            Tensor dcy = c.grads.size() > 2 ? host(c.grads[2], dt) : Tensor();
            g = dispatch_float(dt, [&](auto tag) {
                using T = typename decltype(tag)::type;
                LayerNeeds needs;
                needs.x = c.needs(0), needs.h0 = c.needs(1);
                needs.w = c.needs(3) || c.needs(4) || c.needs(5) || c.needs(6) || c.needs(7);
                return layer_backward<T>(*s, host(c.saved(0), dt), host(c.saved(1), dt), host(c.saved(2), dt),
                                         host(c.saved(3), dt), has_bias, host(c.grads[0], dt), host(c.grads[1], dt),
                                         dcy, needs);
            });
            for (Tensor& t : g)
                if (t.defined() && !dev.is_cpu()) t = copy_to_device(t, dev);
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

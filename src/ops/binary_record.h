// binary_record.h - the autograd recording and result-dtype helpers shared by the binary elementwise ops
// (ops/binary.cpp, ops/binary_math.cpp).
#pragma once
#include "autograd/grad_mode.h"
#include "ops/elementwise.h"

namespace ct {

// Records a two-input node when needed. back(c, a, b) returns {grad_a, grad_b} (may skip undefined).
template <typename Back>
Tensor record2(Tensor out, const char* name, const Tensor& a, const Tensor& b, bool save_inputs, bool save_out,
               Back back) {
    if (!any_requires_grad({a, b})) return out;
    Shape sa = a.sizes(), sb = b.sizes();
    DType da = a.dtype(), db = b.dtype();
    const bool holo = is_complex(out.dtype());  // Note [Complex gradients]: conj(back(conj(g)))
    auto node = make_node(name, {a, b}, [=](BackwardCtx& c) {
        TensorList r;
        if (holo) {
            TensorList cg{conj(c.grads[0])};
            BackwardCtx cc{cg, c.node};
            r = back(cc);
            for (Tensor& t : r)
                if (t.defined()) t = conj(t);
        } else {
            r = back(c);
        }
        if (r[0].defined()) r[0] = reduce_to(r[0], sa, da);
        if (r[1].defined()) r[1] = reduce_to(r[1], sb, db);
        return r;
    });
    if (save_inputs) node->save(a), node->save(b);
    set_history(out, node);
    if (save_out) node->save_output(out);  // after set_history: Note [Saved outputs]
    return out;
}

// The dtype of an op that computes in floating point: the promoted dtype, integers and bool as float32.
inline DType float_result(const Tensor& a, const Tensor& b) {
    DType d = result_type(a, b);
    return is_floating(d) || is_complex(d) ? d : DType::Float32;
}

}  // namespace ct

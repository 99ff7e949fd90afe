// capi_autograd.cpp - C API: grad mode, requires_grad, .grad, backward, autograd.grad and custom functions
// whose backward is a C callback (so every binding can define one).
#include <cstring>
#include "autograd/engine.h"
#include "autograd/grad_mode.h"
#include "capi/capi_common.h"
#include "core/quote.h"
#include "ops/ops.h"

using namespace ct;

namespace {

// A node whose backward calls a user C function. Invariant: ctx_release runs exactly once (destructor).
class CallbackNode : public Node {
  public:
    CallbackNode(std::string name, ct_backward_fn fn, void* ctx, ct_ctx_release_fn release, std::vector<OutputMeta> ins)
        : name_(std::move(name)), fn_(fn), ctx_(ctx), release_(release), inputs_(std::move(ins)) {}
    ~CallbackNode() override {
        if (release_) release_(ctx_);
    }
    std::string name() const override { return name_; }
    TensorList apply(TensorList&& grads) override {
        if (released_)
            fail(CT_ERR_AUTOGRAD, "backward: trying to backward through the graph a second time (", name_,
                 "); pass retain_graph=1 to the first backward");
        std::vector<ct_tensor> gh = new_tensor_handles(grads), ih(inputs_.size(), nullptr);
        ct_status st = fn_(ctx_, gh.data(), (int32_t)gh.size(), ih.data(), (int32_t)ih.size());
        for (auto h : gh) ct_tensor_release(h);
        TensorList out(inputs_.size());
        std::string err;
        for (size_t i = 0; i < ih.size(); ++i) {
            if (!ih[i]) continue;
            if (st == CT_OK) {
                try {
                    out[i] = get_tensor_any_device(ih[i], name_.c_str(), "grad_inputs[i]");
                } catch (const Error& e) {
                    err = e.what();
                }
            }
            ct_tensor_release(ih[i]);
        }
        if (st != CT_OK)
            fail(CT_ERR_CALLBACK, name_, ": custom backward returned ", ct_status_name(st), ": ", ct_last_error());
        if (!err.empty()) fail(CT_ERR_CALLBACK, name_, ": custom backward returned a bad handle: ", err);
        for (size_t i = 0; i < out.size(); ++i) {
            if (out[i].defined() && out[i].sizes() != inputs_[i].sizes)
                fail(CT_ERR_CALLBACK, name_, ": custom backward gave a gradient of shape ", shape_str(out[i].sizes()),
                     " for input ", i, " of shape ", shape_str(inputs_[i].sizes));
        }
        return out;
    }
    void release_saved() override { released_ = true; }

  private:
    std::string name_;
    ct_backward_fn fn_;
    void* ctx_;
    ct_ctx_release_fn release_;
    std::vector<OutputMeta> inputs_;
    bool released_ = false;
};

}  // namespace

extern "C" {

ct_status ct_set_grad_enabled(int32_t enabled, int32_t* previous) {
    if (previous) *previous = GradMode::is_enabled() ? 1 : 0;
    GradMode::set_enabled(enabled != 0);
    return CT_OK;
}

int32_t ct_is_grad_enabled(void) { return GradMode::is_enabled() ? 1 : 0; }

ct_status ct_tensor_set_requires_grad(ct_tensor t, int32_t flag) {
    return guard([&] {
        Tensor T = get_tensor(t, "set_requires_grad", "t");
        if (!is_leaf(T)) {
            if (flag) return;  // a non-leaf of a recorded graph already requires grad
            fail(CT_ERR_AUTOGRAD, "set_requires_grad: cannot clear requires_grad of a non-leaf tensor (made by ",
                 grad_fn_of(T)->name(), "); use detach");
        }
        if (flag && !is_floating(T.dtype()) && !is_complex(T.dtype()))
            fail(CT_ERR_DTYPE, "set_requires_grad: only floating and complex tensors can require grad, got ",
                 dtype_name(T.dtype()));
        autograd_meta(T).requires_grad = flag != 0;
    });
}

ct_status ct_tensor_requires_grad(ct_tensor t, int32_t* flag) {
    return guard([&] {
        check_out(flag, "requires_grad", "requires_grad");
        *flag = tensor_requires_grad(get_tensor(t, "requires_grad", "t")) ? 1 : 0;
    });
}

ct_status ct_tensor_is_leaf(ct_tensor t, int32_t* leaf) {
    return guard([&] {
        check_out(leaf, "is_leaf", "is_leaf");
        *leaf = is_leaf(get_tensor(t, "is_leaf", "t")) ? 1 : 0;
    });
}

ct_status ct_tensor_grad(ct_tensor t, ct_tensor* grad) {
    return guard([&] {
        check_out(grad, "grad", "grad");
        Tensor T = get_tensor(t, "grad", "t");
        Tensor g = grad_of(T);
        *grad = g.defined() ? new_tensor_handle(g) : nullptr;
    });
}

ct_status ct_tensor_set_grad(ct_tensor t, ct_tensor grad) {
    return guard([&] {
        Tensor T = get_tensor(t, "set_grad", "t");
        Tensor G = get_optional_tensor(grad, "set_grad", "grad");
        if (G.defined()) {
            if (G.sizes() != T.sizes() || G.dtype() != T.dtype() || G.device() != T.device())
                fail(CT_ERR_SHAPE, "set_grad: gradient ", shape_str(G.sizes()), " ", dtype_name(G.dtype()), " on ",
                     device_str(G.device()), " does not match tensor ", shape_str(T.sizes()), " ",
                     dtype_name(T.dtype()), " on ", device_str(T.device()));
        }
        // Note [Grad cycle]: a gradient without history is stored detached (sharing its memory), so that no
        // x.grad = x or x.grad = y, y.grad = x can make a cycle of tensors that no release breaks.
        set_grad_of(T, G.defined() && !grad_fn_of(G) ? detach(G) : G);
    });
}

ct_status ct_tensor_retain_grad(ct_tensor t) {
    return guard([&] {
        Tensor T = get_tensor(t, "retain_grad", "t");
        if (!tensor_requires_grad(T))
            fail(CT_ERR_AUTOGRAD, "retain_grad: cannot retain the gradient of a tensor that does not require grad");
        auto& meta = autograd_meta(T);
        if (!meta.grad_fn) return;  // leaves keep their gradient anyway
        meta.retains_grad = true;
        auto& node = *meta.grad_fn;
        if (node.retained.size() <= meta.output_nr) node.retained.resize(meta.output_nr + 1);
        node.retained[meta.output_nr] = T.impl_ptr();
    });
}

ct_status ct_tensor_grad_fn_name(ct_tensor t, char* buf, int32_t cap, int32_t* len) {
    return guard([&] {
        Tensor T = get_tensor(t, "grad_fn_name", "t");
        auto fn = grad_fn_of(T);
        text_out(fn ? fn->name() : std::string(), buf, cap, len, "grad_fn_name");
    });
}

ct_status ct_backward(ct_tensor t, ct_tensor grad_output, int32_t retain_graph, int32_t create_graph) {
    return guard([&] {
        Tensor T = get_tensor(t, "backward", "t");
        Tensor G = get_optional_tensor(grad_output, "backward", "grad_output");
        backward({T}, {G}, retain_graph != 0, create_graph != 0);
    });
}

ct_status ct_autograd_grad(const ct_tensor* outputs, int32_t n_outputs, const ct_tensor* grad_outputs,
                           const ct_tensor* inputs, int32_t n_inputs, int32_t retain_graph, int32_t create_graph,
                           int32_t allow_unused, ct_tensor* grads_out) {
    return guard([&] {
        const char* op = "autograd_grad";
        check_out(grads_out, op, "grads_out");
        TensorList outs = tensor_list_arg(outputs, n_outputs, op, "outputs");
        TensorList gouts(outs.size());
        if (grad_outputs)
            for (int32_t i = 0; i < n_outputs; ++i) gouts[i] = get_optional_tensor(grad_outputs[i], op, "grad_outputs[i]");
        TensorList ins = tensor_list_arg(inputs, n_inputs, op, "inputs");
        TensorList res = grad(outs, gouts, ins, retain_graph != 0, create_graph != 0, allow_unused != 0);
        std::vector<ct_tensor> hs = new_tensor_handles(res);
        for (size_t i = 0; i < hs.size(); ++i) grads_out[i] = hs[i];
    });
}

ct_status ct_custom_function_apply(const char* name, const ct_tensor* inputs, int32_t n_inputs,
                                   const ct_tensor* outputs, int32_t n_outputs, ct_backward_fn backward_fn, void* ctx,
                                   ct_ctx_release_fn ctx_release, ct_tensor* results) {
    bool ctx_owned = true;
    ct_status st = guard([&] {
        const char* op = "custom_function_apply";
        check_out(results, op, "results");
        if (!backward_fn) fail(CT_ERR_INVALID_ARGUMENT, op, ": backward callback is NULL");
        TensorList ins = tensor_list_arg(inputs, n_inputs, op, "inputs");
        TensorList outs = tensor_list_arg(outputs, n_outputs, op, "outputs");
        if (outs.empty()) fail(CT_ERR_INVALID_ARGUMENT, op, ": a custom function needs at least one output");
        TensorList res;
        for (auto& o : outs) res.push_back(detach(o));
        if (any_requires_grad(ins)) {
            std::vector<OutputMeta> in_meta;
            for (auto& i : ins) in_meta.push_back(OutputMeta{i.sizes(), i.dtype(), i.device()});
            auto node = std::make_shared<CallbackNode>(name && *name ? escape_utf8(name) : "CustomFunctionBackward", backward_fn,
                                                       ctx, ctx_release, std::move(in_meta));
            ctx_owned = false;  // the node releases ctx from now on
            for (auto& i : ins) node->next_edges.push_back(gradient_edge(i));
            for (size_t k = 0; k < res.size(); ++k) {
                if (!is_floating(res[k].dtype()))
                    fail(CT_ERR_DTYPE, op, ": output ", k, " has dtype ", dtype_name(res[k].dtype()),
                         "; outputs of a differentiable function must be floating");
                set_history(res[k], node, (uint32_t)k);
            }
        }
        std::vector<ct_tensor> hs = new_tensor_handles(res);
        for (size_t k = 0; k < hs.size(); ++k) results[k] = hs[k];
    });
    if (ctx_owned && ctx_release) ctx_release(ctx);
    return st;
}

}  // extern "C"

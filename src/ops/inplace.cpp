// inplace.cpp - in-place ops. Each writes dst's memory and bumps the version counter shared by dst's
// views (Note [Version counter]), so a backward that needs the old values fails clearly. Under autograd,
// dst's history is rebased onto the new node (like PyTorch); in-place writes through a view of a tensor
// that takes part in autograd are refused (we do not rebuild the base's history).
#include "autograd/grad_mode.h"
#include "ops/device_ops.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

void check_writable(const char* op, const Tensor& dst) {
    for (int64_t d = 0; d < dst.dim(); ++d)
        if (dst.strides()[d] == 0 && dst.sizes()[d] > 1)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": the destination (shape ", shape_str(dst.sizes()),
                 ") has several elements at one memory location (an expanded view); clone it first");
}

// Writes r (already computed, dst's shape) into dst and, when recording, makes r's node dst's grad_fn.
void commit(const char* op, Tensor& dst, const Tensor& r, bool record) {
    if (r.sizes() != dst.sizes())
        fail(CT_ERR_SHAPE, op, ": output with shape ", shape_str(dst.sizes()),
             " does not match the broadcast shape ", shape_str(r.sizes()));
    copy_into(dst, r);
    dst.bump_version();
    if (record) {
        auto& meta = autograd_meta(dst);
        meta.grad_fn = grad_fn_of(r);
        meta.output_nr = r.impl()->autograd ? r.impl()->autograd->output_nr : 0;
        if (meta.grad_fn) {
            meta.grad_fn->outputs[meta.output_nr] = OutputMeta{dst.sizes(), dst.dtype(), dst.device()};
        }
    }
}

// Runs out_of_place(current value of dst) and stores the result in dst.
template <typename F> void apply_inplace(const char* op, Tensor& dst, std::initializer_list<Tensor> others, F out_of_place) {
    check_writable(op, dst);
    bool record = GradMode::is_enabled() && (tensor_requires_grad(dst) || any_requires_grad(others));
    if (record && is_leaf(dst) && tensor_requires_grad(dst))
        fail(CT_ERR_AUTOGRAD, op, ": a leaf tensor that requires grad (shape ", shape_str(dst.sizes()),
             ") cannot be modified in place while grad mode is on; use no_grad");
    if (record && dst.impl()->is_view)
        fail(CT_ERR_NOT_SUPPORTED, op, ": in-place writes through a view take part in autograd here; clone the "
             "base or run under no_grad");
    if (!record) {
        NoGradGuard ng;
        Tensor r = out_of_place(dst);
        if (r.sizes() != dst.sizes()) r = broadcast_view(r, broadcast_shapes(op, r.sizes(), dst.sizes()));
        commit(op, dst, r, false);
        return;
    }
    // Compute from a copy so the new node never saves the memory being overwritten.
    Tensor old = clone(dst);
    Tensor r = out_of_place(old);
    if (r.dtype() != dst.dtype()) r = to_dtype(r, dst.dtype());
    commit(op, dst, r, true);
}

void check_result_dtype(const char* op, const Tensor& dst, DType result) {
    if (promote_types(result, dst.dtype()) != dst.dtype() && !(is_floating(dst.dtype()) && is_floating(result)))
        fail(CT_ERR_DTYPE, op, ": result type ", dtype_name(result), " cannot be cast to the destination dtype ",
             dtype_name(dst.dtype()));
}

}  // namespace

void add_(Tensor& dst, const Tensor& b, double alpha) {
    check_result_dtype("add_", dst, result_type(dst, b));
    apply_inplace("add_", dst, {b}, [&](const Tensor& cur) { return add(cur, b, alpha); });
}

void sub_(Tensor& dst, const Tensor& b, double alpha) {
    check_result_dtype("sub_", dst, result_type(dst, b));
    apply_inplace("sub_", dst, {b}, [&](const Tensor& cur) { return sub(cur, b, alpha); });
}

void mul_(Tensor& dst, const Tensor& b) {
    check_result_dtype("mul_", dst, result_type(dst, b));
    apply_inplace("mul_", dst, {b}, [&](const Tensor& cur) { return mul(cur, b); });
}

void div_(Tensor& dst, const Tensor& b) {
    DType r = result_type(dst, b);
    check_result_dtype("div_", dst, is_floating(r) ? r : DType::Float32);
    apply_inplace("div_", dst, {b}, [&](const Tensor& cur) { return div(cur, b); });
}

void clamp_(Tensor& dst, std::optional<double> lo, std::optional<double> hi) {
    apply_inplace("clamp_", dst, {}, [&](const Tensor& cur) { return clamp(cur, lo, hi); });
}

void copy_(Tensor& dst, const Tensor& src) {
    check_same_device("copy_", dst, src);
    broadcast_shapes("copy_", src.sizes(), dst.sizes());
    apply_inplace("copy_", dst, {src}, [&](const Tensor&) {
        Tensor s = src;
        if (is_floating(dst.dtype()) && s.dtype() != dst.dtype()) s = to_dtype(s, dst.dtype());
        return s.sizes() == dst.sizes() ? s : expand(s, dst.sizes());
    });
}

void fill_(Tensor& dst, double value) {
    check_writable("fill_", dst);
    bool record = GradMode::is_enabled() && tensor_requires_grad(dst);
    if (record && is_leaf(dst))
        fail(CT_ERR_AUTOGRAD, "fill_: a leaf tensor that requires grad (shape ", shape_str(dst.sizes()),
             ") cannot be modified in place while grad mode is on; use no_grad");
    if (record && dst.impl()->is_view)
        fail(CT_ERR_NOT_SUPPORTED, "fill_: in-place writes through a view take part in autograd here; clone the "
             "base or run under no_grad");
    std::shared_ptr<FunctionNode> node;
    if (record) node = make_node("FillBackward", {dst}, [](BackwardCtx& c) { return TensorList{zeros_like(c.grads[0])}; });
    fill_into(dst, value);
    dst.bump_version();
    if (node) set_history(dst, node);
}

void zero_(Tensor& dst) { fill_(dst, 0.0); }

}  // namespace ct

// inplace.cpp - in-place ops. Each writes dst's memory and bumps the version counter shared by dst's
// views (Note [Version counter]), so a backward that needs the old values fails clearly. Under autograd,
// dst's history is rebased onto the new node (like PyTorch); a write through a view rebases the view's
// base instead (Note [In-place through views]).
#include <cmath>
#include <limits>
#include "autograd/grad_mode.h"
#include "core/dtype_cast.h"
#include "ops/device_ops.h"
#include "ops/elementwise.h"
#include "ops/index_write.h"

namespace ct {
namespace {

void check_writable(const char* op, const Tensor& dst) {
    for (int64_t d = 0; d < dst.dim(); ++d)
        if (dst.strides()[d] == 0 && dst.sizes()[d] > 1)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": the destination (shape ", shape_str(dst.sizes()),
                 ") has several elements at one memory location (an expanded view); clone it first");
}

// Note [In-place through views]: a view made under grad mode knows its root base and how to remake
// itself from it (Note [View history]). Writing r into such a view gives the BASE a new history,
// CopySlices(base before the write, r): its backward sends the gradient outside the view's region to the
// base's old history and the region's gradient to r's node (PyTorch's CopySlices does the same by calling
// r's node itself). The view then rebuilds its own history from the base when next used.
const AutogradMeta* view_meta(const Tensor& t) {
    const AutogradMeta* m = t.impl()->autograd.get();
    return m && m->view_base.defined() ? m : nullptr;
}

// Whether the write must be recorded; throws for the writes autograd cannot allow.
bool check_autograd(const char* op, const Tensor& dst, const Tensor& other) {
    bool record = GradMode::is_enabled() && is_floating(dst.dtype()) &&
                  (tensor_requires_grad(dst) || tensor_requires_grad(other));
    if (!record) return false;  // an integer or bool destination never carries a gradient
    if (is_leaf(dst) && tensor_requires_grad(dst))
        fail(CT_ERR_AUTOGRAD, op, ": a leaf tensor that requires grad (shape ", shape_str(dst.sizes()),
             ") cannot be modified in place while grad mode is on; use no_grad");
    if (const AutogradMeta* vm = view_meta(dst)) {
        const Tensor& base = vm->view_base;
        if (is_leaf(base) && tensor_requires_grad(base))
            fail(CT_ERR_AUTOGRAD, op, ": a view (shape ", shape_str(dst.sizes()), ") of a leaf tensor that requires grad (shape ",
                 shape_str(base.sizes()), ") cannot be modified in place while grad mode is on; use no_grad");
    } else if (dst.impl()->is_view) {
        fail(CT_ERR_AUTOGRAD, op, ": this view (shape ", shape_str(dst.sizes()),
             ") was created under no_grad, so autograd cannot track an in-place write through it with grad mode on; "
             "create the view with grad mode on, or clone it");
    }
    return true;
}

// Makes node's output output_nr the new value of dst: dst's own history, or for a view its base's
// (Note [In-place through views]).
void commit_history(Tensor& dst, const std::shared_ptr<Node>& node, uint32_t output_nr) {
    const AutogradMeta* vm = view_meta(dst);
    if (!vm) return set_history(dst, node, output_nr);
    if (node->outputs.size() <= output_nr) record_output(node, dst, output_nr);  // as set_history would
    Tensor base = vm->view_base;
    std::shared_ptr<ViewStep> steps = vm->view_steps;
    auto region = [steps](const Tensor& t) { return replay_view(steps, t); };
    auto copy_slices = std::make_shared<FunctionNode>("CopySlices", [region](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor g_base, g_view;
        if (c.needs(1)) g_view = contiguous(region(g));
        if (c.needs(0)) {  // the region was overwritten: its old values get no gradient from here
            g_base = clone(g);
            Tensor overwritten = region(g_base);
            zero_(overwritten);
        }
        return {g_base, g_view};
    });
    copy_slices->next_edges = {gradient_edge(base), Edge{node, output_nr}};
    set_history(base, copy_slices);
}

// Throws unless the op's result type can be stored in dst (PyTorch's can_cast, core/dtype_cast.h).
void check_result_dtype(const char* op, const Tensor& dst, DType result) {
    if (!can_cast(result, dst.dtype()))
        fail(CT_ERR_DTYPE, op, ": result type ", dtype_name(result), " cannot be cast to the destination dtype ",
             dtype_name(dst.dtype()));
}

// Writes r (dst's shape) into dst and bumps the version. r never aliases dst (it is freshly computed).
void write_result(const char* op, const Tensor& dst, const Tensor& r) {
    if (r.sizes() != dst.sizes())
        fail(CT_ERR_SHAPE, op, ": output with shape ", shape_str(dst.sizes()),
             " does not match the broadcast shape ", shape_str(r.sizes()));
    copy_into(dst, r);
    dst.bump_version();
}

// dst = out_of_place(dst, other) computed into fresh memory, then written back. When recording, the
// result's node becomes dst's grad_fn; it is computed from a clone of dst (and of other when other shares
// dst's memory) so that the node never saves the memory being overwritten.
template <typename F> void apply_inplace(const char* op, Tensor& dst, const Tensor& other, F out_of_place) {
    check_writable(op, dst);
    // a 0-d CPU tensor (a number) may update a CUDA tensor, as in PyTorch: the out-of-place op moves it
    if (other.defined() && !(other.dim() == 0 && other.device().is_cpu())) check_same_device(op, dst, other);
    if (!check_autograd(op, dst, other)) {
        NoGradGuard ng;
        write_result(op, dst, out_of_place(dst, other));
        return;
    }
    Tensor old = clone(dst);
    Tensor oth = other;
    if (other.defined()) oth = other.is_same(dst) ? old : (other.storage() == dst.storage() ? clone(other) : other);
    Tensor r = out_of_place(old, oth);
    if (r.dtype() != dst.dtype()) r = to_dtype(r, dst.dtype());
    write_result(op, dst, r);
    if (auto fn = grad_fn_of(r)) commit_history(dst, fn, r.impl()->autograd->output_nr);
}

// Throws when value cannot be stored in an integer dtype without overflow (PyTorch's check).
void check_fill_value(const char* op, const Tensor& dst, double value) {
    if (!is_integral(dst.dtype())) return;
    bool fits = dispatch_all(dst.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        return std::isfinite(value) && value >= (double)std::numeric_limits<T>::lowest() &&
               value <= (double)std::numeric_limits<T>::max();
    });
    if (!fits) fail(CT_ERR_INVALID_ARGUMENT, op, ": value ", value, " cannot be converted to ", dtype_name(dst.dtype()),
                    " without overflow");
}

}  // namespace

void add_(Tensor& dst, const Tensor& b, double alpha) {
    check_result_dtype("add_", dst, result_type(dst, b));
    apply_inplace("add_", dst, b, [alpha](const Tensor& cur, const Tensor& o) { return add(cur, o, alpha); });
}

void sub_(Tensor& dst, const Tensor& b, double alpha) {
    check_result_dtype("sub_", dst, result_type(dst, b));
    apply_inplace("sub_", dst, b, [alpha](const Tensor& cur, const Tensor& o) { return sub(cur, o, alpha); });
}

void mul_(Tensor& dst, const Tensor& b) {
    check_result_dtype("mul_", dst, result_type(dst, b));
    apply_inplace("mul_", dst, b, [](const Tensor& cur, const Tensor& o) { return mul(cur, o); });
}

void div_(Tensor& dst, const Tensor& b) {
    DType r = result_type(dst, b);
    check_result_dtype("div_", dst, is_floating(r) || is_complex(r) ? r : DType::Float32);
    apply_inplace("div_", dst, b, [](const Tensor& cur, const Tensor& o) { return div(cur, o); });
}

void clamp_(Tensor& dst, std::optional<double> lo, std::optional<double> hi) {
    if (dst.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "clamp_: bool tensors cannot be clamped");
    bool fractional = (lo && std::isfinite(*lo) && *lo != std::floor(*lo)) || (lo && std::isnan(*lo)) ||
                      (hi && std::isfinite(*hi) && *hi != std::floor(*hi)) || (hi && std::isnan(*hi));
    if (fractional) check_result_dtype("clamp_", dst, DType::Float32);
    apply_inplace("clamp_", dst, Tensor(), [&](const Tensor& cur, const Tensor&) { return clamp(cur, lo, hi); });
}

void copy_(Tensor& dst, const Tensor& src) {
    const char* op = "copy_";
    check_same_device(op, dst, src);
    check_writable(op, dst);
    // src broadcasts to dst's shape; extra leading size-1 dims of src are allowed (like PyTorch).
    Shape ss = src.sizes(), sst = src.strides();
    while (ss.size() > dst.sizes().size() && ss.front() == 1) ss.erase(ss.begin()), sst.erase(sst.begin());
    if (ss.size() > dst.sizes().size() || broadcast_shapes(op, ss, dst.sizes()) != dst.sizes())
        fail(CT_ERR_SHAPE, op, ": source of shape ", shape_str(src.sizes()),
             " cannot be broadcast to the destination shape ", shape_str(dst.sizes()));
    bool record = check_autograd(op, dst, src);
    std::shared_ptr<FunctionNode> node;
    if (record) {
        Shape src_shape = src.sizes();
        DType sd = src.dtype();
        // dst's old values are overwritten: they get a zero gradient; src gets the gradient summed to its shape.
        // a view's old values need no edge: CopySlices already gives them no gradient
        Tensor old = view_meta(dst) ? Tensor() : dst;
        node = make_node("CopyBackward", {old, src}, [src_shape, sd](BackwardCtx& c) -> TensorList {
            Tensor ga, gb;
            if (c.needs(0)) ga = zeros_like(c.grads[0]);
            if (c.needs(1)) gb = reduce_to(c.grads[0], src_shape, sd);
            return {ga, gb};
        });
    }
    Tensor s = make_view(src, ss, sst, src.offset());
    if (src.storage() == dst.storage()) {  // read all of an overlapping source before writing dst
        Tensor tmp = empty_tensor(ss, src.dtype(), src.device());
        copy_into(tmp, s);
        s = tmp;
    }
    copy_into(dst, broadcast_view(s, dst.sizes()));
    dst.bump_version();
    if (node) commit_history(dst, node, 0);
}

void fill_(Tensor& dst, double value) {
    check_writable("fill_", dst);
    check_fill_value("fill_", dst, value);
    bool record = check_autograd("fill_", dst, Tensor());
    std::shared_ptr<FunctionNode> node;
    if (record) {
        Tensor old = view_meta(dst) ? Tensor() : dst;
        node = make_node("FillBackward", {old}, [](BackwardCtx& c) { return TensorList{zeros_like(c.grads[0])}; });
    }
    fill_into(dst, value);
    dst.bump_version();
    if (node) commit_history(dst, node, 0);
}

void zero_(Tensor& dst) { fill_(dst, 0.0); }

// The indexed writes: the out-of-place op (indexing.cpp, index_write.cpp) through apply_inplace; `other` is
// the source/values tensor, the index tensors are captured (they carry no gradient).
void scatter_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src) {
    apply_inplace("scatter_", dst, src, [&](const Tensor& cur, const Tensor& s) { return scatter(cur, dim, index, s); });
}

void scatter_add_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src) {
    apply_inplace("scatter_add_", dst, src,
                  [&](const Tensor& cur, const Tensor& s) { return scatter_add(cur, dim, index, s); });
}

void scatter_reduce_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduce r,
                     bool include_self) {
    apply_inplace("scatter_reduce_", dst, src, [&](const Tensor& cur, const Tensor& s) {
        return scatter_reduce(cur, dim, index, s, r, include_self);
    });
}

void index_add_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src, double alpha) {
    apply_inplace("index_add_", dst, src,
                  [&](const Tensor& cur, const Tensor& s) { return index_add(cur, dim, index, s, alpha); });
}

void index_copy_(Tensor& dst, int64_t dim, const Tensor& index, const Tensor& src) {
    apply_inplace("index_copy_", dst, src,
                  [&](const Tensor& cur, const Tensor& s) { return index_copy(cur, dim, index, s); });
}

void index_put_(Tensor& dst, const TensorList& indices, const Tensor& values, bool accumulate) {
    apply_inplace("index_put_", dst, values,
                  [&](const Tensor& cur, const Tensor& v) { return index_put(cur, indices, v, accumulate); });
}

}  // namespace ct

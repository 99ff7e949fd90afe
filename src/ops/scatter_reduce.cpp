// scatter_reduce.cpp - torch's Tensor.scatter_reduce(dim, index, src, reduce, include_self): src's values combined
// into a copy of x at the indexed positions by sum, prod, mean, amax or amin (scatter_combine_into in
// indexing.cpp), with torch 1.13's gradients (made of core ops, so they are differentiable again). Half inputs run
// in float32; CUDA tensors are combined on the host (the backend has no such kernel yet).
#include "autograd/grad_mode.h"
#include "ops/half_compute.h"
#include "ops/index_common.h"

namespace ct {
namespace {

const char* reduce_name(ScatterReduce r) {
    switch (r) {
    case ScatterReduce::Sum: return "sum";
    case ScatterReduce::Prod: return "prod";
    case ScatterReduce::Mean: return "mean";
    case ScatterReduce::Amax: return "amax";
    case ScatterReduce::Amin: return "amin";
    }
    return "?";
}

// src's part that index covers: src[:index.size(0), :index.size(1), ...] (a view; its gradient pads back).
Tensor covered(const Tensor& src, const Tensor& index) {
    Tensor s = src;
    for (int64_t k = 0; k < index.dim(); ++k)
        if (s.size(k) != index.size(k)) s = narrow(s, k, 0, index.size(k));
    return s;
}

// The values of the reduction (no autograd), on the CPU: x and s of one dtype, s of index's shape.
Tensor combine_values(const char* op, const Tensor& x, int64_t d, const Tensor& index, const Tensor& s,
                      ScatterReduce r, bool include_self) {
    Tensor out = clone(x);
    if (!include_self) {  // the indexed positions start from the first value written there, not from x
        if (r == ScatterReduce::Amax || r == ScatterReduce::Amin) scatter_into(op, out, d, index, s, false, index);
        else scatter_into(op, out, d, index, full(index.sizes(), r == ScatterReduce::Prod ? 1.0 : 0.0, x.dtype(),
                                                  x.device()), false, index);
    }
    scatter_combine_into(op, out, d, index, s, r);
    if (r != ScatterReduce::Mean) return out;
    Tensor counts = include_self ? ones_like(x) : zeros_like(x);
    scatter_into(op, counts, d, index, ones(index.sizes(), x.dtype(), x.device()), true, index);
    counts = maximum(counts, ones_like(counts));  // positions nothing was written to keep their value
    return is_floating(x.dtype()) ? div(out, counts) : floor_divide(out, counts);
}

// torch 1.13's scatter_reduce backward (FunctionsManual.cpp) for grad g of result.
TensorList scatter_reduce_backward(BackwardCtx& c, int64_t d, ScatterReduce r, bool include_self) {
    const Tensor &g = c.grads[0], &x = c.saved(0), &s = c.saved(1), &index = c.saved(2), &result = c.saved(3);
    Tensor gx, gs;
    switch (r) {
    case ScatterReduce::Sum:
        gx = g;
        gs = gather(g, d, index);
        break;
    case ScatterReduce::Mean: {
        Tensor n = scatter_add(include_self ? ones_like(g) : zeros_like(g), d, index, ones_like(s));
        n = maximum(n, ones_like(n));
        gx = div(g, n);
        gs = div(gather(g, d, index), gather(n, d, index));
        break;
    }
    case ScatterReduce::Prod: {
        // exclusive products where x or src holds a zero: the product of the others, not result / 0
        Tensor zero = zeros({}, x.dtype(), x.device());
        Tensor x_zero = eq(x, zero), masked_x = where(x_zero, ones_like(x), x);
        gx = div(mul(g, scatter_reduce(masked_x, d, index, s, r, include_self)), masked_x);
        Tensor s_zero = eq(s, zero);
        Tensor zeros_at = gather(scatter_add(zeros_like(x), d, index, to_dtype(s_zero, x.dtype())), d, index);
        Tensor single_zero = logical_and(s_zero, eq(zeros_at, ones_like(zeros_at)));
        Tensor masked_src_result = scatter_reduce(x, d, index, where(single_zero, ones_like(s), s), r, include_self);
        gs = where(single_zero, gather(mul(g, masked_src_result), d, index),
                   div(gather(mul(g, result), d, index), where(s_zero, ones_like(s), s)));
        break;
    }
    case ScatterReduce::Amax:
    case ScatterReduce::Amin: {  // the gradient is shared among the elements equal to the result
        Tensor value = gather(result, d, index);
        Tensor x_is = eq(x, result), s_is = eq(s, value);
        Tensor n = scatter_add(to_dtype(x_is, g.dtype()), d, index, to_dtype(s_is, g.dtype()));
        Tensor share = div(g, n);
        gx = mul(to_dtype(x_is, g.dtype()), share);
        gs = mul(to_dtype(s_is, g.dtype()), gather(share, d, index));
        break;
    }
    }
    if (!include_self) gx = scatter(gx, d, index, zeros(index.sizes(), gx.dtype(), gx.device()));
    return {c.needs(0) ? gx : Tensor(), c.needs(1) ? gs : Tensor()};
}

}  // namespace

Tensor scatter_reduce(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduce r,
                      bool include_self) {
    const char* op = "scatter_reduce";
    if ((int32_t)r < 0 || (int32_t)r > 4)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": reduce ", (int32_t)r,
             " should be one of CT_SCATTER_SUM (0), CT_SCATTER_PROD (1), CT_SCATTER_MEAN (2), CT_SCATTER_AMAX (3), "
             "CT_SCATTER_AMIN (4)");
    check_index(op, x, index);
    check_same_device(op, x, src);
    if (src.dtype() != x.dtype())
        fail(CT_ERR_DTYPE, op, ": src dtype ", dtype_name(src.dtype()), " differs from input dtype ",
             dtype_name(x.dtype()));
    if (x.dtype() == DType::Bool && r != ScatterReduce::Amax && r != ScatterReduce::Amin)
        fail(CT_ERR_DTYPE, op, ": reduce '", reduce_name(r), "' is not defined for bool tensors");
    const int64_t d = wrap_dim(dim, x.dim(), op);
    check_index_fits(op, index, x, "input", d);
    check_index_fits(op, index, src, "src", -1);
    if (is_half(x.dtype()))  // Note [Half compute]: in float32, rounded back (differentiable casts)
        return round_to_half(scatter_reduce(half_to_float32(x), d, index, half_to_float32(src), r, include_self),
                             x.dtype());
    Tensor s = covered(src, index);
    Tensor out;
    {
        NoGradGuard no_grad;
        if (x.device().is_cpu()) {
            out = combine_values(op, x, d, index, s, r, include_self);
        } else {
            const Device cpu{};
            out = to_device(combine_values(op, to_device(x, cpu), d, to_device(index, cpu), to_device(s, cpu), r,
                                           include_self),
                            x.device());
        }
    }
    if (!any_requires_grad({x, s})) return out;
    auto node = make_node("ScatterReduceBackward", {x, s}, [d, r, include_self](BackwardCtx& c) {
        return scatter_reduce_backward(c, d, r, include_self);
    });
    node->save(x);
    node->save(s);
    node->save(index);
    set_history(out, node);
    node->save_output(out);
    return out;
}

}  // namespace ct

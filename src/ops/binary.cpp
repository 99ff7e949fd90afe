// binary.cpp - elementwise binary ops with broadcasting and PyTorch promotion, and their backward.
#include <cmath>
#include "autograd/grad_mode.h"
#include "core/scalar_math.h"
#include "cpu/kernels.h"
#include "ops/binary_record.h"
#include "ops/complex_ops.h"
#include "ops/elementwise.h"

namespace ct {

Tensor cast_nograd(const Tensor& t, DType dtype) {
    if (t.dtype() == dtype) return t;
    if (is_complex(t.dtype()) && !is_complex(dtype)) fail_half_kernel(t.dtype());  // Note [Complex dtypes]
    Tensor out = empty_tensor(t.sizes(), dtype, t.device());
    copy_into(out, t);
    return out;
}

Tensor reduce_to(const Tensor& g, const Shape& shape, DType dtype) {
    Tensor r = g.sizes() == shape ? g : sum_to(g, shape);
    return r.dtype() == dtype ? r : to_dtype(r, dtype);
}

Tensor reduce_grad(const Tensor& g, const Tensor& input) { return reduce_to(g, input.sizes(), input.dtype()); }

namespace {

void check_nonzero_int_divisor(const char* op, const Tensor& b, DType compute) {
    if (is_floating(compute)) return;
    check_scalar_fits(op, b, compute);  // 256 // uint8 is out of range, not a zero divisor
    if (!b.device().is_cpu()) {  // one reduction on the device, one number read back
        NoGradGuard ng;
        if (item(any(eq(b, wrapped_scalar(0.0, true)), {}, false)) != 0.0)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": integer division by zero");
        return;
    }
    Tensor cb = cast_nograd(cast_nograd(b, compute), DType::Int64);  // zero as the kernel will see it
    Tensor c = contiguous(cb);
    const int64_t* p = c.data<int64_t>();
    for (int64_t i = 0, n = c.numel(); i < n; ++i)
        if (p[i] == 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": integer division by zero");
}

// torch 1.13 has no bool kernel for these ("pow" / "remainder_cpu" not implemented for 'Bool'): bool ** True and
// bool % True are refused, not computed as integers.
void check_not_bool(const char* op, const Tensor& a, const Tensor& b, DType dt) {
    if (dt == DType::Bool)
        fail(CT_ERR_DTYPE, op, ": not implemented for bool (", dtype_name(a.dtype()), " and ", dtype_name(b.dtype()),
             ")");
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b, double alpha) {
    DType dt = result_type(a, b);
    if (!is_floating(dt) && !is_complex(dt)) {  // checked without casting alpha first: an out-of-range cast is undefined
        if (!std::isfinite(alpha) || alpha != std::trunc(alpha))
            fail(CT_ERR_DTYPE, "add: alpha ", alpha, " must be an integer for integer tensors (", dtype_name(dt), ")");
        bool fits = dt == DType::Bool || (alpha >= -0x1p63 && alpha < 0x1p63 && dispatch_all(dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            return (double)math::convert<T>(alpha) == alpha;
        }));
        if (!fits)  // Note [Scalar range]
            fail(CT_ERR_INVALID_ARGUMENT, "add: alpha ", alpha, " cannot be converted to ", dtype_name(dt), " without overflow");
    }
    Tensor out = binary_kernel<void>("add", a, b, dt, [alpha](auto tag) {
        using T = typename decltype(tag)::type;
        return math::Add<T>{math::convert<T>(alpha)};  // Note [Float to integer]
    });
    return record2(out, "AddBackward", a, b, false, false, [alpha](BackwardCtx& c) -> TensorList {
        return TensorList{c.grads[0], alpha == 1.0 ? c.grads[0] : mul_scalar(c.grads[0], alpha)};
    });
}

Tensor sub(const Tensor& a, const Tensor& b, double alpha) {
    // torch 1.13 refuses a bool operand on either side, also beside a number of another kind (bool - 1)
    if (a.dtype() == DType::Bool || b.dtype() == DType::Bool)
        fail(CT_ERR_DTYPE, "sub: subtraction with a bool tensor is not supported (", dtype_name(a.dtype()), " - ",
             dtype_name(b.dtype()), "); use logical_xor or logical_not for masks");
    return add(a, b, -alpha);
}

Tensor mul(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("mul", a, b, result_type(a, b), [](auto) { return math::Mul{}; });
    return record2(out, "MulBackward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor ga, gb;
        if (c.needs(0)) ga = mul(g, c.saved(1));
        if (c.needs(1)) gb = mul(g, c.saved(0));
        return {ga, gb};
    });
}

Tensor div(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("div", a, b, float_result(a, b), [](auto) { return math::Div{}; });
    return record2(out, "DivBackward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        if (c.needs(0)) ga = div(g, b);
        if (c.needs(1)) gb = neg(div(mul(g, a), mul(b, b)));
        return {ga, gb};
    });
}

Tensor pow(const Tensor& a, const Tensor& b) {
    const DType dt = result_type(a, b);
    check_not_bool("pow", a, b, dt);
    Tensor out = is_complex(dt) ? complex_binary<void>("pow", a, b, dt, [](auto) { return cmath::Pow{}; })
                                : binary_kernel<void>("pow", a, b, dt, [](auto) { return math::Pow{}; });
    return record2(out, "PowBackward", a, b, true, true, [](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        if (c.needs(0)) {
            // d/da a^b = b * a^(b-1), taken as 0 where b == 0 (so 0^0 gives 0, as PyTorch)
            Tensor d = mul(b, pow(a, sub(b, wrapped_scalar(1.0, false))));
            ga = mul(g, where(eq(b, wrapped_scalar(0.0, false)), zeros_like(d), d));
        }
        if (c.needs(1)) {
            Tensor out = c.saved(2);
            Tensor d = mul(out, log(a));
            // 0 where a == 0 and b >= 0 (the limit; real(b) >= 0 for a complex b), like PyTorch
            Tensor b_re = is_complex(b.dtype()) ? real(b) : b;
            Tensor mask = logical_and(eq(a, wrapped_scalar(0.0, false)), ge(b_re, wrapped_scalar(0.0, false)));
            gb = mul(g, where(mask, zeros_like(d), d));
        }
        return {ga, gb};
    });
}

namespace {
Tensor minmax_backward(const Tensor& g, const Tensor& a, const Tensor& b, bool is_max, bool for_a) {
    // The winner takes the gradient; ties split it evenly (as PyTorch).
    Tensor win = is_max ? (for_a ? gt(a, b) : gt(b, a)) : (for_a ? lt(a, b) : lt(b, a));
    Tensor tie = eq(a, b);
    Tensor w = add(to_dtype(win, g.dtype()), to_dtype(tie, g.dtype()), 0.5);
    return mul(g, w);
}
}  // namespace

Tensor maximum(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("maximum", a, b, result_type(a, b), [](auto) { return math::Maximum{}; });
    return record2(out, "MaximumBackward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        if (c.needs(0)) ga = minmax_backward(c.grads[0], a, b, true, true);
        if (c.needs(1)) gb = minmax_backward(c.grads[0], a, b, true, false);
        return {ga, gb};
    });
}

Tensor minimum(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("minimum", a, b, result_type(a, b), [](auto) { return math::Minimum{}; });
    return record2(out, "MinimumBackward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        if (c.needs(0)) ga = minmax_backward(c.grads[0], a, b, false, true);
        if (c.needs(1)) gb = minmax_backward(c.grads[0], a, b, false, false);
        return {ga, gb};
    });
}

Tensor atan2(const Tensor& a, const Tensor& b) {
    Tensor out = binary_kernel<void>("atan2", a, b, float_result(a, b), [](auto) { return math::Atan2{}; });
    return record2(out, "Atan2Backward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        Tensor denom = add(mul(a, a), mul(b, b));
        if (c.needs(0)) ga = mul(c.grads[0], div(b, denom));
        if (c.needs(1)) gb = mul(c.grads[0], div(neg(a), denom));
        return {ga, gb};
    });
}

Tensor remainder(const Tensor& a, const Tensor& b) {
    DType dt = result_type(a, b);
    check_not_bool("remainder", a, b, dt);
    check_nonzero_int_divisor("remainder", b, dt);
    Tensor out = binary_kernel<void>("remainder", a, b, dt, [](auto) { return math::Remainder{}; });
    return record2(out, "RemainderBackward", a, b, true, false, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        if (c.needs(0)) ga = c.grads[0];
        if (c.needs(1)) gb = neg(mul(c.grads[0], floor(div(a, b))));
        return {ga, gb};
    });
}

Tensor floor_divide(const Tensor& a, const Tensor& b) {
    DType dt = result_type(a, b);
    if (dt == DType::Bool) fail(CT_ERR_DTYPE, "floor_divide: bool tensors cannot be divided (got bool and bool)");
    check_nonzero_int_divisor("floor_divide", b, dt);
    return binary_kernel<void>("floor_divide", a, b, dt, [](auto) { return math::FloorDivide{}; });
}

#define CT_COMPARISON(fn, Functor)                                                                  \
    Tensor fn(const Tensor& a, const Tensor& b) {                                                   \
        return binary_kernel<bool>(#fn, a, b, result_type(a, b), [](auto) { return math::Functor{}; }); \
    }
CT_COMPARISON(eq, Eq)
CT_COMPARISON(ne, Ne)
CT_COMPARISON(lt, Lt)
CT_COMPARISON(le, Le)
CT_COMPARISON(gt, Gt)
CT_COMPARISON(ge, Ge)
#undef CT_COMPARISON

// The logical ops see only whether each value is nonzero, so a complex operand enters as its truth (z != 0), as
// torch computes them; the other operand keeps its dtype.
namespace {
Tensor logical_operand(const Tensor& t) { return is_complex(t.dtype()) ? complex_truth(t) : t; }
}  // namespace
#define CT_LOGICAL(fn, Functor)                                                                                \
    Tensor fn(const Tensor& a0, const Tensor& b0) {                                                          \
        Tensor a = logical_operand(a0), b = logical_operand(b0);                                             \
        return binary_kernel<bool>(#fn, a, b, result_type(a, b), [](auto) { return math::Functor{}; });      \
    }
CT_LOGICAL(logical_and, LogicalAnd)
CT_LOGICAL(logical_or, LogicalOr)
CT_LOGICAL(logical_xor, LogicalXor)
#undef CT_LOGICAL

Tensor where(const Tensor& cond0, const Tensor& a0, const Tensor& b0) {
    Tensor cond = cond0, a = a0, b = b0;  // 0-d CPU operands (numbers) join a CUDA operand's device
    bring_cpu_scalars(a, b);
    bring_cpu_scalars(cond, a);
    bring_cpu_scalars(cond, b);
    check_same_device("where", cond, a);
    check_same_device("where", a, b);
    if (cond.dtype() != DType::Bool)
        fail(CT_ERR_DTYPE, "where: condition must be bool, got ", dtype_name(cond.dtype()));
    Shape shape = broadcast_shapes("where", broadcast_shapes("where", cond.sizes(), a.sizes()), b.sizes());
    DType dt = result_type(a, b);
    Tensor ca = broadcast_view(cast_nograd(a, dt), shape), cb = broadcast_view(cast_nograd(b, dt), shape);
    Tensor cc = broadcast_view(cond, shape);
    Tensor out = dispatch_storage(dt, [&](auto tag) {  // a selection: half dtypes move as they are
        using T = typename decltype(tag)::type;
        Tensor o = empty_tensor(shape, dt, a.device());
        if (!a.device().is_cpu()) cuda_where(o, cc, ca, cb);
        else map3<T, bool, T, T>(o, cc, ca, cb, [](bool c, T x, T y) { return c ? x : y; });
        return o;
    });
    if (!any_requires_grad({a0, b0})) return out;
    Shape sa = a0.sizes(), sb = b0.sizes();
    DType da = a0.dtype(), db = b0.dtype();
    auto node = make_node("WhereBackward", {a0, b0}, [=](BackwardCtx& c) -> TensorList {
        Tensor cond = c.saved(0), g = c.grads[0], z = zeros_like(g), ga, gb;
        if (c.needs(0)) ga = reduce_to(where(cond, g, z), sa, da);
        if (c.needs(1)) gb = reduce_to(where(cond, z, g), sb, db);
        return {ga, gb};
    });
    node->save(cond);
    set_history(out, node);
    return out;
}

Tensor add_scalar(const Tensor& a, double s) { return add(a, wrapped_scalar(s, false)); }
Tensor mul_scalar(const Tensor& a, double s) { return mul(a, wrapped_scalar(s, false)); }

}  // namespace ct

// elementwise.h - the shared driver of elementwise ops: device checks, broadcasting, promotion to a
// compute dtype, and a typed kernel call over strided operands (see cpu/loops.h).
#pragma once
#include "cpu/loops.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {

// Casts without recording autograd (kernel-side conversion).
Tensor cast_nograd(const Tensor& t, DType dtype);

// out = f(a, b) computed in type `compute` (inputs converted to it), result dtype out_dtype.
// MakeF(TypeTag<T>) returns the functor for compute type T; the functor returns the output type.
// On a CUDA device the functor's backend kernel runs instead (CudaBinaryOp; 0-d CPU operands are moved).
template <typename Out, typename MakeF>
Tensor binary_kernel(const char* op, const Tensor& a0, const Tensor& b0, DType compute, MakeF make_f) {
    check_scalar_fits(op, a0, compute);  // Note [Scalar range]
    check_scalar_fits(op, b0, compute);
    Tensor a = a0, b = b0;
    bring_cpu_scalars(a, b);
    check_same_device(op, a, b);
    Shape shape = broadcast_shapes(op, a.sizes(), b.sizes());
    Tensor ca = cast_nograd(a, compute), cb = cast_nograd(b, compute);
    Tensor va = broadcast_view(ca, shape), vb = broadcast_view(cb, shape);
    return dispatch_all(compute, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using R = std::conditional_t<std::is_same<Out, void>::value, T, Out>;
        auto f = make_f(tag);
        Tensor out = empty_tensor(shape, DTypeOf<R>::value, a.device());
        if (a.device().is_cpu()) map2<R, T, T>(out, va, vb, f);
        else cuda_binary(op, CudaBinaryOp<decltype(f)>::code, functor_alpha(f), out, va, vb);
        return out;
    });
}

// out = f(x) in compute type; Out void means "same as compute". On a CUDA device the functor's backend
// kernel runs instead (CudaUnaryOp).
template <typename Out, typename MakeF> Tensor unary_kernel(const Tensor& x, DType compute, MakeF make_f) {
    Tensor cx = cast_nograd(x, compute);
    return dispatch_all(compute, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using R = std::conditional_t<std::is_same<Out, void>::value, T, Out>;
        Tensor out = empty_tensor(x.sizes(), DTypeOf<R>::value, x.device());
        if (x.device().is_cpu()) map1<R, T>(out, cx, make_f(tag));
        else cuda_unary_functor("unary", make_f(tag), out, cx);
        return out;
    });
}

// g summed over broadcast dims down to shape and converted to dtype.
Tensor reduce_to(const Tensor& g, const Shape& shape, DType dtype);
// Gradient for an input of a broadcasting op: summed to the input's shape, in the input's dtype.
Tensor reduce_grad(const Tensor& g, const Tensor& input);
// Gradient dtype rule: integer/bool inputs get no gradient.
inline bool differentiable(const Tensor& t) { return is_floating(t.dtype()); }

}  // namespace ct

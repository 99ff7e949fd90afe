// elementwise.h - the shared driver of elementwise ops: device checks, broadcasting, promotion to a
// compute dtype, and a typed kernel call over strided operands (see cpu/loops.h).
#pragma once
#include "cpu/half_loops.h"
#include "cpu/loops.h"
#include "ops/complex_kernels.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {

// Casts without recording autograd (kernel-side conversion).
Tensor cast_nograd(const Tensor& t, DType dtype);

// Calls run(TypeTag<S>{}) with S = Half or BFloat16 for a half dtype d.
template <typename Run> decltype(auto) dispatch_half(DType d, Run&& run) {
    if (d == DType::Float16) return run(TypeTag<Half>{});
    return run(TypeTag<BFloat16>{});
}

// The result dtype of a kernel with output type Out (void: the compute dtype).
template <typename Out> DType kernel_out_dtype(DType compute) {
    if constexpr (std::is_same<Out, void>::value) return compute;
    else return DTypeOf<Out>::value;
}

// Note [Half compute]: an elementwise op whose compute dtype is float16 or bfloat16 converts its inputs to that
// dtype (as torch's common dtype), then runs the float32 functor over blocks converted to float32 and rounds the
// results back (cpu/half_loops.h): one kernel per op for all floating dtypes, no float32 copy of the tensors.
// Ops that are not elementwise (reductions, matmul, nn) convert half inputs to float32 at the op, compute, and
// round the result back (ops/half_compute.h), so they accumulate in float32. On a CUDA device the backend's
// kernel takes the half operands itself and computes in float (Note [Half on CUDA]); with a Python number operand
// (the kernel has one operand dtype) the op runs as the float32 kernel on the float32 values and rounds the result
// once, which is what the CPU computes (the number stays float32, unrounded, as torch's opmath).
template <typename Out, typename MakeF>
Tensor binary_kernel(const char* op, const Tensor& a0, const Tensor& b0, DType compute, MakeF make_f);

template <typename Out, typename MakeF>
Tensor binary_kernel_half(const char* op, const Tensor& a0, const Tensor& b0, DType compute, MakeF make_f) {
    Tensor a = a0, b = b0;
    bring_cpu_scalars(a, b);
    check_same_device(op, a, b);
    Shape shape = broadcast_shapes(op, a.sizes(), b.sizes());
    // a Python number enters as float32, unrounded (torch's original_scalar_value); tensors round to compute
    const bool scalar_b = b.impl()->wrapped_number && !a.impl()->wrapped_number;
    const bool cuda = !a.device().is_cpu();
    if (cuda && scalar_b) {  // float32 kernel on the exact float32 values, rounded once: the CPU's result
        Tensor r = binary_kernel<Out>(op, cast_nograd(a, DType::Float32), b, DType::Float32, make_f);
        return is_floating(r.dtype()) ? cast_nograd(r, compute) : r;
    }
    Tensor va = broadcast_view(cast_nograd(a, compute), shape);
    Tensor vb = broadcast_view(cast_nograd(b, scalar_b ? DType::Float32 : compute), shape);
    if (cuda) {
        auto f = make_f(TypeTag<float>{});
        Tensor out = empty_tensor(shape, kernel_out_dtype<Out>(compute), a.device());
        cuda_binary(op, CudaBinaryOp<decltype(f)>::code, functor_alpha(f), out, va, vb);
        return out;
    }
    return dispatch_half(compute, [&](auto tag) {
        using S = typename decltype(tag)::type;
        using R = std::conditional_t<std::is_same<Out, void>::value, S, Out>;
        Tensor out = empty_tensor(shape, DTypeOf<R>::value, a.device());
        if (scalar_b) map2_via_float<R, S, float>(out, va, vb, make_f(TypeTag<float>{}));
        else map2_via_float<R, S, S>(out, va, vb, make_f(TypeTag<float>{}));
        return out;
    });
}

template <typename Out, typename MakeF> Tensor unary_kernel_half(const Tensor& x, DType compute, MakeF make_f) {
    Tensor cx = cast_nograd(x, compute);
    if (!x.device().is_cpu()) {  // the backend's kernel computes in float (Note [Half on CUDA])
        Tensor out = empty_tensor(x.sizes(), kernel_out_dtype<Out>(compute), x.device());
        cuda_unary_functor("unary", make_f(TypeTag<float>{}), out, cx);
        return out;
    }
    return dispatch_half(compute, [&](auto tag) {
        using S = typename decltype(tag)::type;
        using R = std::conditional_t<std::is_same<Out, void>::value, S, Out>;
        Tensor out = empty_tensor(x.sizes(), DTypeOf<R>::value, x.device());
        map1_via_float<R, S>(out, cx, make_f(TypeTag<float>{}));
        return out;
    });
}

// out = f(a, b) computed in type `compute` (inputs converted to it), result dtype out_dtype.
// MakeF(TypeTag<T>) returns the functor for compute type T; the functor returns the output type.
// On a CUDA device the functor's backend kernel runs instead (CudaBinaryOp; 0-d CPU operands are moved).
template <typename Out, typename MakeF>
Tensor binary_kernel(const char* op, const Tensor& a0, const Tensor& b0, DType compute, MakeF make_f) {
    check_scalar_fits(op, a0, compute);  // Note [Scalar range]
    check_scalar_fits(op, b0, compute);
    if (is_half(compute)) return binary_kernel_half<Out>(op, a0, b0, compute, make_f);
    if (is_complex(compute)) return complex_binary_or_refuse<Out>(op, a0, b0, compute, make_f);  // Note [Complex functors]
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
    if (is_half(compute)) return unary_kernel_half<Out>(x, compute, make_f);
    if (is_complex(compute)) return complex_unary_or_refuse<Out>(x, compute, make_f);  // Note [Complex functors]
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
inline bool differentiable(const Tensor& t) { return is_floating(t.dtype()) || is_complex(t.dtype()); }

}  // namespace ct

// complex_kernels.h - the elementwise driver for complex64 / complex128 (Note [Complex dtypes]): which
// scalar_math functors have a complex meaning (ComplexOk), and the kernel calls over std::complex operands.
#pragma once
#include "core/scalar_math.h"
#include "cpu/loops.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {

Tensor cast_nograd(const Tensor& t, DType dtype);  // ops/binary.cpp (elementwise.h)

// Note [Complex functors]: a functor is run on std::complex only where std::complex gives it the meaning torch
// gives it (+, -, *, /, ==, !=, negation, exp, log, sqrt, sin, cos, tan, tanh, 1/x, 1/sqrt, the inverse and
// hyperbolic trigonometric functions, sinc); every other functor refuses a
// complex compute dtype naming op and dtype. abs, angle, pow and sigmoid have their own complex functors below.
template <typename F> struct ComplexOk { static constexpr bool value = false; };
template <typename T> struct ComplexOk<math::Add<T>> { static constexpr bool value = true; };
template <typename T> struct ComplexOk<math::Sub<T>> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Mul> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Div> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Eq> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Ne> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Neg> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Exp> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Log> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Sqrt> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Sin> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Cos> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Tanh> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Reciprocal> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Tan> { static constexpr bool value = true; };    // std::tan: torch's principal value
template <> struct ComplexOk<math::Rsqrt> { static constexpr bool value = true; };  // 1 / principal sqrt
// unary math (issue 14): std::complex's principal branches, as torch 1.13
template <> struct ComplexOk<math::Asin> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Acos> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Atan> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Sinh> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Cosh> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Asinh> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Acosh> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Atanh> { static constexpr bool value = true; };
template <> struct ComplexOk<math::Sinc> { static constexpr bool value = true; };

namespace cmath {
// z ** w by std::pow (principal branch, as torch); 0 ** 0 is 1.
struct Pow {
    template <typename T> T operator()(T a, T b) const {
        if (b == T(0)) return T(1);
        return std::pow(a, b);
    }
};
// 1 / (1 + exp(-z)).
struct Sigmoid {
    template <typename T> T operator()(T v) const { return T(1) / (T(1) + std::exp(-v)); }
};
}  // namespace cmath
template <> struct ComplexOk<cmath::Pow> { static constexpr bool value = true; };
template <> struct ComplexOk<cmath::Sigmoid> { static constexpr bool value = true; };

// out = f(a, b) over a and b converted to the complex dtype compute (broadcast; a Python number or a 0-d
// tensor promotes as result_type says). Out void means the compute type; bool for comparisons. make_f(TypeTag<T>)
// gives the functor for T = std::complex<float or double>.
template <typename Out, typename MakeF>
Tensor complex_binary(const char* op, const Tensor& a0, const Tensor& b0, DType compute, MakeF make_f) {
    Tensor a = a0, b = b0;
    bring_cpu_scalars(a, b);
    check_same_device(op, a, b);
    Shape shape = broadcast_shapes(op, a.sizes(), b.sizes());
    Tensor va = broadcast_view(cast_nograd(a, compute), shape), vb = broadcast_view(cast_nograd(b, compute), shape);
    return dispatch_complex(compute, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using R = std::conditional_t<std::is_same<Out, void>::value, T, Out>;
        Tensor out = empty_tensor(shape, DTypeOf<R>::value, a.device(), op);
        map2<R, T, T>(out, va, vb, make_f(tag));
        return out;
    });
}

// out = f(x) for a complex x; f(T) returns Out (void: T itself; RealOut: T's real part type).
struct RealOut {};
template <typename Out, typename MakeF> Tensor complex_unary(const Tensor& x, MakeF make_f) {
    return dispatch_complex(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using R = std::conditional_t<std::is_same<Out, void>::value, T,
                                     std::conditional_t<std::is_same<Out, RealOut>::value, typename T::value_type, Out>>;
        Tensor out = empty_tensor(x.sizes(), DTypeOf<R>::value, x.device());
        map1<R, T>(out, x, make_f(tag));
        return out;
    });
}

// The complex path of a generic elementwise driver: runs make_f's functor when it has a complex meaning
// (ComplexOk), else refuses naming the running op and the dtype.
template <typename Out, typename MakeF>
Tensor complex_binary_or_refuse(const char* op, const Tensor& a, const Tensor& b, DType compute, MakeF make_f) {
    using F = decltype(make_f(TypeTag<std::complex<float>>{}));
    if constexpr (ComplexOk<F>::value) {
        return complex_binary<Out>(op, a, b, compute, make_f);
    } else {
        (void)op, (void)a, (void)b, (void)make_f;
        fail_half_kernel(compute);
    }
}
template <typename Out, typename MakeF> Tensor complex_unary_or_refuse(const Tensor& x, DType compute, MakeF make_f) {
    using F = decltype(make_f(TypeTag<std::complex<float>>{}));
    if constexpr (ComplexOk<F>::value) {
        return complex_unary<Out>(cast_nograd(x, compute), make_f);
    } else {
        (void)x, (void)make_f;
        fail_half_kernel(compute);
    }
}

}  // namespace ct

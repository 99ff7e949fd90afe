// unary_common.h - helpers shared by the unary op files (unary.cpp; reusable by other op families): the dtype
// rule of float functions, kernel calls with scalar_math functors, and the one-input autograd recorder.
#pragma once
#include "core/scalar_math.h"
#include "cpu/vec_math.h"
#include "ops/elementwise.h"

namespace ct {
namespace unary {

// Float functions compute in the input's dtype when it is floating, else in float32 (like PyTorch).
// Complex inputs keep their dtype (Note [Complex dtypes]).
inline DType float_of(const Tensor& x) {
    return is_floating(x.dtype()) || is_complex(x.dtype()) ? x.dtype() : DType::Float32;
}

// out = f(in) for a fresh contiguous out (on the CUDA backend for CUDA tensors): when F has an array kernel (cpu/vec_math.h) and in is contiguous
// too, the kernel runs over the whole array; otherwise the scalar functor goes through map1.
template <typename T, typename F> void map1_float(const Tensor& out, const Tensor& in, F f) {
    if (!in.device().is_cpu()) return cuda_unary_functor("unary", f, out, in);
    if constexpr (vec::ArrayKernel<F, T>::available) {
        if (in.is_contiguous()) {
            // Large inputs are split across the threads in big chunks (a wake-up costs microseconds, so
            // small inputs stay on one thread).
            const T* src = in.data<T>();
            T* dst = out.data<T>();
            parallel_for(in.numel(), int64_t(1) << 18, [&](int64_t b, int64_t e) {
                vec::ArrayKernel<F, T>::run(src + b, dst + b, e - b);
            });
            return;
        }
    }
    map1<T, T>(out, in, f);
}

// out = f(x) computed in float_of(x); MakeF(TypeTag<T>) returns the functor for float or double.
template <typename MakeF> Tensor float_map(const Tensor& x, MakeF make_f) {
    DType dt = float_of(x);
    if (is_half(dt)) return unary_kernel_half<void>(x, dt, make_f);  // Note [Half compute]
    if (is_complex(dt)) return complex_unary_or_refuse<void>(x, dt, make_f);  // Note [Complex functors]
    Tensor cx = cast_nograd(x, dt);
    return dispatch_float(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor out = empty_tensor(x.sizes(), dt, x.device());
        map1_float<T>(out, cx, make_f(tag));
        return out;
    });
}
template <typename F> Tensor float_op(const Tensor& x) {
    return float_map(x, [](auto) { return F{}; });
}
// out = F(x) in x's own dtype (any dtype).
template <typename F> Tensor same_dtype_op(const Tensor& x) {
    return unary_kernel<void>(x, x.dtype(), [](auto) { return F{}; });
}

// Records a one-input node named name when x requires grad; back(c) returns the input gradient from
// c.grads[0] (converted to x's dtype here). save_x / save_out choose what back may read with c.saved():
// x is saved first, then the output.
template <typename Back>
Tensor record1(Tensor out, const char* name, const Tensor& x, bool save_x, bool save_out, Back back) {
    if (!requires_grad(x)) return out;
    DType dx = x.dtype();
    const bool holo = is_complex(out.dtype());  // Note [Complex gradients]: g * conj(f'(z)) = conj(back(conj(g)))
    auto node = make_node(name, {x}, [back, dx, holo](BackwardCtx& c) {
        Tensor g;
        if (holo) {
            TensorList cg{conj(c.grads[0])};
            BackwardCtx cc{cg, c.node};
            g = conj(back(cc));
        } else {
            g = back(c);
        }
        return TensorList{g.dtype() == dx ? g : to_dtype(g, dx)};
    });
    if (save_x) node->save(x);
    set_history(out, node);
    if (save_out) node->save_output(out);  // after set_history: Note [Saved outputs]
    return out;
}

// Zero gradient (the backward of piecewise-constant functions: sign, floor, ceil, round).
inline Tensor zero_grad(BackwardCtx& c) { return zeros_like(c.grads[0]); }
// A wrapped float scalar (promotes like a Python float).
inline Tensor scalar(double v) { return wrapped_scalar(v, false); }

}  // namespace unary
}  // namespace ct

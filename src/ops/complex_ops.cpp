// complex_ops.cpp - complex64 / complex128 ops (Note [Complex dtypes]): torch.complex, real / imag views, conj,
// angle, polar, |z|, complex fills, scalars and draws. Composites of real ops over view_as_real where that is
// enough (their gradients then follow torch's convention by construction: Note [Complex gradients]).
#include <cmath>
#include "ops/complex_scalar.h"
#include "ops/unary_common.h"

namespace ct {

// Note [Complex gradients]: the gradient of a real loss L with respect to a complex z = x + iy is
// dL/dx + i dL/dy (torch's convention: the conjugate Wirtinger derivative, times 2). Composites over
// view_as_real get it by construction. A holomorphic op f records the real formula for f' and runs it as
// conj(back(conj(g))) = g * conj(f'(z)) (record1 / record2 when the output is complex).

namespace {

void check_float_part(const char* op, const char* what, const Tensor& t) {
    if (t.dtype() != DType::Float32 && t.dtype() != DType::Float64)
        fail(CT_ERR_DTYPE, op, ": expected ", what, " to be float32 or float64, got ", dtype_name(t.dtype()));
}

struct ConjF {
    template <typename T> T operator()(T v) const { return std::conj(v); }
};
struct AbsF {
    template <typename T> typename T::value_type operator()(T v) const { return std::abs(v); }
};

}  // namespace

Tensor make_complex(const Tensor& re, const Tensor& im) {
    const char* op = "complex";
    check_float_part(op, "real", re);
    check_float_part(op, "imag", im);
    if (re.dtype() != im.dtype())
        fail(CT_ERR_DTYPE, op, ": expected real and imag of one dtype, got ", dtype_name(re.dtype()), " and ",
             dtype_name(im.dtype()));
    check_same_device(op, re, im);
    Shape shape = broadcast_shapes(op, re.sizes(), im.sizes());
    return view_as_complex(stack({expand(re, shape), expand(im, shape)}, -1));
}

Tensor real(const Tensor& x) { return is_complex(x.dtype()) ? select(view_as_real(x), -1, 0) : x; }

Tensor imag(const Tensor& x) {
    if (!is_complex(x.dtype()))
        fail(CT_ERR_DTYPE, "imag: expected a complex tensor (complex64 or complex128), got ", dtype_name(x.dtype()));
    return select(view_as_real(x), -1, 1);
}

Tensor conj(const Tensor& x) {
    if (!is_complex(x.dtype())) return x;
    Tensor out = complex_unary<void>(x, [](auto) { return ConjF{}; });
    if (!requires_grad(x)) return out;
    auto node = make_node("ConjBackward", {x}, [](BackwardCtx& c) { return TensorList{conj(c.grads[0])}; });
    set_history(out, node);
    return out;
}

Tensor complex_abs(const Tensor& x) {
    Tensor out = complex_unary<RealOut>(x, [](auto) { return AbsF{}; });
    if (!requires_grad(x)) return out;
    // d|z| -> grad * z / |z| (torch's sgn(z); 0 at z == 0)
    auto node = make_node("AbsBackward", {x}, [](BackwardCtx& c) {
        Tensor z = c.saved(0), a = c.saved(1);
        Tensor zero = eq(a, wrapped_scalar(0.0, false));
        Tensor sgn = div(z, where(zero, ones_like(a), a));
        return TensorList{mul(c.grads[0], sgn)};
    });
    node->save(x);
    set_history(out, node);
    node->save_output(out);  // after set_history: Note [Saved outputs]
    return out;
}

Tensor angle(const Tensor& x) {
    if (is_complex(x.dtype())) return atan2(imag(x), real(x));
    // a real x: pi where x < 0, 0 elsewhere, NaN stays NaN (as torch); no gradient flows (piecewise constant)
    Tensor f = unary::float_of(x) == x.dtype() ? detach(x) : to_dtype(x, unary::float_of(x));
    Tensor pi_or_0 = mul_scalar(to_dtype(lt(f, wrapped_scalar(0.0, false)), f.dtype()), M_PI);
    return where(ne(f, f), f, pi_or_0);
}

Tensor polar(const Tensor& abs_, const Tensor& angle_) {
    const char* op = "polar";
    check_float_part(op, "abs", abs_);
    check_float_part(op, "angle", angle_);
    if (abs_.dtype() != angle_.dtype())
        fail(CT_ERR_DTYPE, op, ": expected abs and angle of one dtype, got ", dtype_name(abs_.dtype()), " and ",
             dtype_name(angle_.dtype()));
    return make_complex(mul(abs_, cos(angle_)), mul(abs_, sin(angle_)));
}

Tensor complex_truth(const Tensor& x) { return ne(x, wrapped_scalar(0.0, false)); }

Tensor full_complex(const Shape& shape, double re, double im, DType dtype, Device device) {
    if (!is_complex(dtype))
        fail(CT_ERR_DTYPE, "full_complex: expected a complex dtype (complex64 or complex128), got ", dtype_name(dtype));
    check_device_usable("full_complex", device);
    Tensor t = empty_tensor(shape, dtype, device, "full_complex");
    dispatch_complex(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using P = typename T::value_type;
        const T v((P)re, (P)im);
        T* p = t.data<T>();
        parallel_for(t.numel(), 1 << 16, [&](int64_t b, int64_t e) { std::fill(p + b, p + e, v); });
    });
    return t;
}

Tensor wrapped_scalar_complex(double re, double im) {
    Tensor t = full_complex({}, re, im, DType::Complex128, Device{});
    t.impl()->wrapped_number = true;
    return t;
}

std::complex<double> item_complex(const Tensor& t) {
    if (t.numel() != 1)
        fail(CT_ERR_SHAPE, "item_complex: a tensor with ", t.numel(), " elements (shape ", shape_str(t.sizes()),
             ") cannot be converted to a scalar");
    Tensor h = t.device().is_cpu() ? t : copy_to_device(t, Device{});
    return dispatch_storage(h.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        return math::convert<std::complex<double>>(*h.data<T>());
    });
}

Tensor complex_draw(const Tensor& parts) { return view_as_complex(parts); }

}  // namespace ct

// complex_ops.h - ops that exist for complex64 / complex128 (Note [Complex dtypes] in core/dtype.h): building
// complex tensors from parts, reading parts, conjugation, angle, polar, complex scalars.
#pragma once
#include <complex>
#include "core/tensor.h"

namespace ct {

// torch.complex: real + i imag, both float32 or both float64 (broadcast); complex64 / complex128.
Tensor make_complex(const Tensor& real, const Tensor& imag);
// torch.view_as_real: a complex tensor's [..., 2] float view (same storage); view_as_complex is its inverse
// (last dim 2 with stride 1, other strides and the offset even).
Tensor view_as_real(const Tensor& x);
Tensor view_as_complex(const Tensor& x);
// The real / imaginary part as a view of a complex tensor; real() of a real tensor is the tensor itself,
// imag() of one is an error (as torch).
Tensor real(const Tensor& x);
Tensor imag(const Tensor& x);
// The complex conjugate (a new tensor, torch's conj_physical; a real tensor is returned as it is).
Tensor conj(const Tensor& x);
// The argument of each element (float32/float64): atan2(imag, real); for real x: 0 for x >= 0, pi for x < 0.
Tensor angle(const Tensor& x);
// abs * (cos(angle) + i sin(angle)) for float32 / float64 abs and angle of one dtype.
Tensor polar(const Tensor& abs, const Tensor& angle);
// |z| of a complex tensor (a float tensor), differentiable: grad * z / |z| (0 where z == 0).
Tensor complex_abs(const Tensor& x);
// x != 0 as a bool tensor: the truth value of complex elements (all, any, nonzero, logical_not; as torch).
Tensor complex_truth(const Tensor& x);
// A tensor of shape filled with re + i im, dtype complex64 or complex128.
Tensor full_complex(const Shape& shape, double re, double im, DType dtype, Device device);
// The one element of a tensor as a complex double (real dtypes give imag 0).
std::complex<double> item_complex(const Tensor& t);
// The complex draws of rand / randn: real and imaginary parts each uniform in [0, 1), or each normal with
// variance 1/2 (as torch), from the float draws of shape [..., 2].
Tensor complex_draw(const Tensor& parts);

}  // namespace ct

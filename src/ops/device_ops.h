// device_ops.h - device-aware building blocks for ops: copy, fill and moves between devices run on the
// CPU or through the CUDA backend; binary elementwise functors map to the backend's kernel codes.
#pragma once
#include "core/backend.h"
#include "core/scalar_math.h"
#include "core/tensor.h"

namespace ct {

// dst[i] = src[i] converted to dst's dtype. src has dst's shape (possibly a broadcast view); any strides;
// any devices (a cross-device copy goes through a contiguous staging copy).
void copy_into(const Tensor& dst, const Tensor& src);
// dst[i] = value converted to dst's dtype, on dst's device. Any strides.
void fill_into(const Tensor& dst, double value);
// A contiguous copy of t on device (no autograd).
Tensor copy_to_device(const Tensor& t, Device device);
// Throws CT_ERR_NOT_COMPILED / CT_ERR_DEVICE (naming op) unless device can hold tensors.
void check_device_usable(const char* op, Device device);

// The backend's code for a scalar_math functor, or -1 when CUDA has no kernel for it yet.
template <typename F> struct CudaBinaryOp { static constexpr int32_t code = -1; };
template <typename T> struct CudaBinaryOp<math::Add<T>> { static constexpr int32_t code = CT_CUDA_ADD; };
template <typename T> struct CudaBinaryOp<math::Sub<T>> { static constexpr int32_t code = CT_CUDA_SUB; };
template <> struct CudaBinaryOp<math::Mul> { static constexpr int32_t code = CT_CUDA_MUL; };
template <> struct CudaBinaryOp<math::Div> { static constexpr int32_t code = CT_CUDA_DIV; };
template <> struct CudaBinaryOp<math::Maximum> { static constexpr int32_t code = CT_CUDA_MAXIMUM; };
template <> struct CudaBinaryOp<math::Minimum> { static constexpr int32_t code = CT_CUDA_MINIMUM; };
template <> struct CudaBinaryOp<math::Eq> { static constexpr int32_t code = CT_CUDA_EQ; };
template <> struct CudaBinaryOp<math::Ne> { static constexpr int32_t code = CT_CUDA_NE; };
template <> struct CudaBinaryOp<math::Lt> { static constexpr int32_t code = CT_CUDA_LT; };
template <> struct CudaBinaryOp<math::Le> { static constexpr int32_t code = CT_CUDA_LE; };
template <> struct CudaBinaryOp<math::Gt> { static constexpr int32_t code = CT_CUDA_GT; };
template <> struct CudaBinaryOp<math::Ge> { static constexpr int32_t code = CT_CUDA_GE; };
template <> struct CudaBinaryOp<math::LogicalAnd> { static constexpr int32_t code = CT_CUDA_LOGICAL_AND; };
template <> struct CudaBinaryOp<math::LogicalOr> { static constexpr int32_t code = CT_CUDA_LOGICAL_OR; };
template <> struct CudaBinaryOp<math::LogicalXor> { static constexpr int32_t code = CT_CUDA_LOGICAL_XOR; };
template <> struct CudaBinaryOp<math::Pow> { static constexpr int32_t code = CT_CUDA_POW; };
template <> struct CudaBinaryOp<math::Atan2> { static constexpr int32_t code = CT_CUDA_ATAN2; };
template <> struct CudaBinaryOp<math::Remainder> { static constexpr int32_t code = CT_CUDA_REMAINDER; };
template <> struct CudaBinaryOp<math::FloorDivide> { static constexpr int32_t code = CT_CUDA_FLOOR_DIVIDE; };
template <> struct CudaBinaryOp<math::LogAddExp> { static constexpr int32_t code = CT_CUDA_LOGADDEXP; };
template <> struct CudaBinaryOp<math::LogAddExp2> { static constexpr int32_t code = CT_CUDA_LOGADDEXP2; };
template <> struct CudaBinaryOp<math::Hypot> { static constexpr int32_t code = CT_CUDA_HYPOT; };
template <> struct CudaBinaryOp<math::Xlogy> { static constexpr int32_t code = CT_CUDA_XLOGY; };
template <> struct CudaBinaryOp<math::CopySign> { static constexpr int32_t code = CT_CUDA_COPYSIGN; };
template <> struct CudaBinaryOp<math::NextAfter> { static constexpr int32_t code = CT_CUDA_NEXTAFTER; };
template <> struct CudaBinaryOp<math::Fmax> { static constexpr int32_t code = CT_CUDA_FMAX; };
template <> struct CudaBinaryOp<math::Fmin> { static constexpr int32_t code = CT_CUDA_FMIN; };
template <> struct CudaBinaryOp<math::Heaviside> { static constexpr int32_t code = CT_CUDA_HEAVISIDE; };
template <> struct CudaBinaryOp<math::BitwiseAnd> { static constexpr int32_t code = CT_CUDA_BITWISE_AND; };
template <> struct CudaBinaryOp<math::BitwiseOr> { static constexpr int32_t code = CT_CUDA_BITWISE_OR; };
template <> struct CudaBinaryOp<math::BitwiseXor> { static constexpr int32_t code = CT_CUDA_BITWISE_XOR; };
template <> struct CudaBinaryOp<math::LeftShift> { static constexpr int32_t code = CT_CUDA_LEFT_SHIFT; };
template <> struct CudaBinaryOp<math::RightShift> { static constexpr int32_t code = CT_CUDA_RIGHT_SHIFT; };
template <> struct CudaBinaryOp<math::Gcd> { static constexpr int32_t code = CT_CUDA_GCD; };
template <> struct CudaBinaryOp<math::Lcm> { static constexpr int32_t code = CT_CUDA_LCM; };

// The alpha a functor carries (Add/Sub), else 1.
template <typename F> double functor_alpha(const F&) { return 1.0; }
template <typename T> double functor_alpha(const math::Add<T>& f) { return (double)f.alpha; }
template <typename T> double functor_alpha(const math::Sub<T>& f) { return (double)f.alpha; }

// out = f(a, b) on the CUDA device of out; a and b have out's shape and the compute dtype. code < 0 fails with
// CT_ERR_NOT_SUPPORTED "<op>: not implemented for cuda tensors yet".
void cuda_binary(const char* op, int32_t code, double alpha, const Tensor& out, const Tensor& a, const Tensor& b);

// When one operand is on a CUDA device and the other is a 0-d CPU tensor (a number), moves the number to
// that device, as PyTorch allows CPU scalars in CUDA ops. Other mixes are left for check_same_device.
void bring_cpu_scalars(Tensor& a, Tensor& b);

// ---- unary, where, reductions and cumsum (cuda-ops) ----

// The backend's code for a unary scalar_math functor, or -1 when CUDA has no kernel for it.
template <typename F> struct CudaUnaryOp { static constexpr int32_t code = -1; };
#define CT_CUDA_UNARY_CODE(Functor, Code) \
    template <> struct CudaUnaryOp<math::Functor> { static constexpr int32_t code = Code; };
CT_CUDA_UNARY_CODE(Neg, CT_CUDA_NEG)
CT_CUDA_UNARY_CODE(Abs, CT_CUDA_ABS)
CT_CUDA_UNARY_CODE(Sign, CT_CUDA_SIGN)
CT_CUDA_UNARY_CODE(Exp, CT_CUDA_EXP)
CT_CUDA_UNARY_CODE(Log, CT_CUDA_LOG)
CT_CUDA_UNARY_CODE(Log1p, CT_CUDA_LOG1P)
CT_CUDA_UNARY_CODE(Expm1, CT_CUDA_EXPM1)
CT_CUDA_UNARY_CODE(Sqrt, CT_CUDA_SQRT)
CT_CUDA_UNARY_CODE(Rsqrt, CT_CUDA_RSQRT)
CT_CUDA_UNARY_CODE(Sin, CT_CUDA_SIN)
CT_CUDA_UNARY_CODE(Cos, CT_CUDA_COS)
CT_CUDA_UNARY_CODE(Tan, CT_CUDA_TAN)
CT_CUDA_UNARY_CODE(Tanh, CT_CUDA_TANH)
CT_CUDA_UNARY_CODE(Sigmoid, CT_CUDA_SIGMOID)
CT_CUDA_UNARY_CODE(Relu, CT_CUDA_RELU)
CT_CUDA_UNARY_CODE(Gelu, CT_CUDA_GELU)
CT_CUDA_UNARY_CODE(GeluGrad, CT_CUDA_GELU_GRAD)
CT_CUDA_UNARY_CODE(Silu, CT_CUDA_SILU)
CT_CUDA_UNARY_CODE(Softplus, CT_CUDA_SOFTPLUS)
CT_CUDA_UNARY_CODE(Floor, CT_CUDA_FLOOR)
CT_CUDA_UNARY_CODE(Ceil, CT_CUDA_CEIL)
CT_CUDA_UNARY_CODE(Round, CT_CUDA_ROUND)
CT_CUDA_UNARY_CODE(Reciprocal, CT_CUDA_RECIPROCAL)
CT_CUDA_UNARY_CODE(LogicalNot, CT_CUDA_LOGICAL_NOT)
// unary math (issue 14)
CT_CUDA_UNARY_CODE(Asin, CT_CUDA_ASIN)
CT_CUDA_UNARY_CODE(Acos, CT_CUDA_ACOS)
CT_CUDA_UNARY_CODE(Atan, CT_CUDA_ATAN)
CT_CUDA_UNARY_CODE(Sinh, CT_CUDA_SINH)
CT_CUDA_UNARY_CODE(Cosh, CT_CUDA_COSH)
CT_CUDA_UNARY_CODE(Asinh, CT_CUDA_ASINH)
CT_CUDA_UNARY_CODE(Acosh, CT_CUDA_ACOSH)
CT_CUDA_UNARY_CODE(Atanh, CT_CUDA_ATANH)
CT_CUDA_UNARY_CODE(Erf, CT_CUDA_ERF)
CT_CUDA_UNARY_CODE(Erfc, CT_CUDA_ERFC)
CT_CUDA_UNARY_CODE(Erfinv, CT_CUDA_ERFINV)
CT_CUDA_UNARY_CODE(Lgamma, CT_CUDA_LGAMMA)
CT_CUDA_UNARY_CODE(Polygamma, CT_CUDA_POLYGAMMA)
CT_CUDA_UNARY_CODE(Sinc, CT_CUDA_SINC)
CT_CUDA_UNARY_CODE(Signbit, CT_CUDA_SIGNBIT)
CT_CUDA_UNARY_CODE(I0, CT_CUDA_I0)
CT_CUDA_UNARY_CODE(I1, CT_CUDA_I1)
#undef CT_CUDA_UNARY_CODE
template <typename T> struct CudaUnaryOp<math::PowScalar<T>> { static constexpr int32_t code = CT_CUDA_POW_SCALAR; };
template <typename T> struct CudaUnaryOp<math::Clamp<T>> { static constexpr int32_t code = CT_CUDA_CLAMP; };
template <typename T> struct CudaUnaryOp<math::Logit<T>> { static constexpr int32_t code = CT_CUDA_LOGIT; };

// The scalar parameters a unary functor carries (p0, p1 of ct_cuda_unary_op).
struct UnaryParams {
    double p0 = 0, p1 = 0;
};
template <typename F> UnaryParams unary_params(const F&) { return {}; }
template <typename T> UnaryParams unary_params(const math::PowScalar<T>& f) { return {(double)f.e, 0}; }
template <typename T> UnaryParams unary_params(const math::Clamp<T>& f) { return {(double)f.lo, (double)f.hi}; }
template <typename T> UnaryParams unary_params(const math::Logit<T>& f) { return {(double)f.eps, 0}; }
inline UnaryParams unary_params(const math::Polygamma& f) { return {(double)f.n, 0}; }

// out = F(x) on the CUDA device of out (x has out's shape, any strides); code < 0 fails with
// CT_ERR_NOT_SUPPORTED "<op>: not implemented for cuda tensors yet".
void cuda_unary(const char* op, int32_t code, double p0, double p1, const Tensor& out, const Tensor& x);
template <typename F> void cuda_unary_functor(const char* op, const F& f, const Tensor& out, const Tensor& x) {
    UnaryParams p = unary_params(f);
    cuda_unary(op, CudaUnaryOp<F>::code, p.p0, p.p1, out, x);
}
// out = cond ? a : b on the CUDA device of out; cond bool, a/b of out's dtype, all of out's shape.
void cuda_where(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b);
// Reduces x over mask (ct_cuda_reduce_op code) into contiguous out and/or out_index (undefined = not wanted);
// out has the op's result dtype, or float32 for a half x (Note [Native half on CUDA] in ops/half_compute.h).
void cuda_reduce(const char* op, int32_t code, const Tensor& x, const std::vector<bool>& mask, const Tensor& out,
                 const Tensor& out_index, double p0 = 0);
// In-place cumulative sum of contiguous data viewed as [outer, n, inner] along n.
void cuda_cumsum(const Tensor& data, int64_t outer, int64_t n, int64_t inner, bool reverse);

}  // namespace ct

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

}  // namespace ct

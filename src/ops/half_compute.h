// half_compute.h - the op-level half path (Note [Half compute] in ops/elementwise.h): reductions, matmul and nn
// ops run on float32 copies of float16/bfloat16 inputs (so they accumulate in float32) and round their floating
// results back, through differentiable casts, so half inputs get half gradients (as torch).
//
// The one pattern every such op uses, as its first line (docs/dtypes.md lists the families):
//   if (auto h = half_dtype_of(x, w)) return round_results(op(as_float32(x), ..., as_float32(w)), *h);
// Invariants: the recursive call sees no half tensor (so it takes the op's own path); integer and bool results
// (indices, counts, masks) keep their dtype; an undefined optional tensor stays undefined.
#pragma once
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include "core/dtype.h"
#include "core/error.h"
#include "ops/ops.h"

namespace ct {

// x as float32 (a differentiable cast); x itself when it is not half.
inline Tensor half_to_float32(const Tensor& x) { return is_half(x.dtype()) ? to_dtype(x, DType::Float32) : x; }

// Note [Native half on CUDA]: on a CUDA device the op families that have native half kernels (reductions,
// softmax, cumsum, the norms (Note [Native half norms], ops/nn_norms.cpp) and the optimizer steps (Note [Native half
// step], cuda/optim.cuh); docs/cuda.md lists them) read x's float16/bfloat16 storage directly instead of a float32 copy: the kernel loads
// as float, accumulates as the float32 kernel does and rounds once (cuda/reduce.cuh), so the forward equals the
// fallback bit for bit. Where the fallback's backward works on float32 values (x, an unrounded output), the native
// op keeps the float32 result (written by the kernel, output-sized), rounds it with a differentiable cast, and its
// backward makes the float32 copy of x only when it runs and rounds the gradient to x's dtype: the same values as
// the fallback, with the copy moved from every forward to the backward. The CPU keeps the fallback.
inline bool native_half(const Tensor& x) { return x.defined() && is_half(x.dtype()) && !x.device().is_cpu(); }
// x as float32 when the op must take the fallback for it (half on the CPU); x itself otherwise.
inline Tensor float32_unless_native(const Tensor& x) { return native_half(x) ? x : half_to_float32(x); }
// A floating result r rounded to the half dtype d (integer and bool results, e.g. indices, stay as they are).
inline Tensor round_to_half(const Tensor& r, DType d) { return is_floating(r.dtype()) ? to_dtype(r, d) : r; }

// Calls f(t) for each Tensor argument and each element of a vector<Tensor> argument, in order (others are ignored).
template <typename F, typename... A> void for_each_tensor(F&& f, const A&... args) {
    auto visit = [&](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, Tensor>) {
            f(a);
        } else if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
            for (const Tensor& t : a) f(t);
        }
    };
    (visit(args), ...);
}

// The dtype of the first defined half tensor among the arguments (Tensor or vector<Tensor>; others are ignored).
template <typename... A> std::optional<DType> half_dtype_of(const A&... args) {
    std::optional<DType> h;
    for_each_tensor([&](const Tensor& t) {
        if (!h && t.defined() && is_half(t.dtype())) h = t.dtype();
    }, args...);
    return h;
}

// For ops whose tensors must all share one dtype (torch raises on a mix): the half dtype as half_dtype_of, after
// checking that every defined tensor argument has it (CT_ERR_DTYPE naming op and both dtypes otherwise).
template <typename... A> std::optional<DType> uniform_half_dtype_of(const char* op, const A&... args) {
    std::optional<DType> h = half_dtype_of(args...);
    if (h)
        for_each_tensor([&](const Tensor& t) {
            if (t.defined() && t.dtype() != *h)
                fail(CT_ERR_DTYPE, op, ": expected every tensor to have dtype ", dtype_name(*h), ", got one of dtype ",
                     dtype_name(t.dtype()), " (the dtypes must match)");
        }, args...);
    return h;
}

// The half dtype of a and b when both have it (else nullopt): for ops that require equal dtypes, so that a half
// tensor mixed with another dtype takes the op's own path and its error naming both.
inline std::optional<DType> same_half_dtype(const Tensor& a, const Tensor& b) {
    if (a.defined() && b.defined() && is_half(a.dtype()) && a.dtype() == b.dtype()) return a.dtype();
    return std::nullopt;
}

// A tensor argument as float32 when it is half (undefined stays undefined), each of a list likewise.
inline Tensor as_float32(const Tensor& x) { return x.defined() ? half_to_float32(x) : x; }
inline std::vector<Tensor> as_float32(const std::vector<Tensor>& xs) {
    std::vector<Tensor> r;
    r.reserve(xs.size());
    for (const Tensor& x : xs) r.push_back(as_float32(x));
    return r;
}

// An op's result with its floating tensors rounded to d: a tensor, a pair, a list.
inline Tensor round_results(const Tensor& r, DType d) { return r.defined() ? round_to_half(r, d) : r; }
inline std::pair<Tensor, Tensor> round_results(const std::pair<Tensor, Tensor>& r, DType d) {
    return {round_results(r.first, d), round_results(r.second, d)};
}
inline std::tuple<Tensor, Tensor, Tensor> round_results(const std::tuple<Tensor, Tensor, Tensor>& r, DType d) {
    return {round_results(std::get<0>(r), d), round_results(std::get<1>(r), d), round_results(std::get<2>(r), d)};
}
inline std::vector<Tensor> round_results(const std::vector<Tensor>& r, DType d) {
    std::vector<Tensor> out;
    out.reserve(r.size());
    for (const Tensor& t : r) out.push_back(round_results(t, d));
    return out;
}

}  // namespace ct

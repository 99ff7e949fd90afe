// copy.cpp - strided copy with dtype conversion and fill (the kernels behind contiguous, clone, to, copy_).
#include <cstring>
#include "cpu/half_convert.h"
#include "cpu/kernels.h"
#include "cpu/loops.h"

namespace ct {
namespace {

// float32 <-> float16/bfloat16 between contiguous tensors of one shape: the vectorised bulk conversion.
template <typename D, typename S> void convert_contiguous(const Tensor& dst, const Tensor& src) {
    D* d = dst.data<D>();
    const S* s = src.data<S>();
    parallel_for(dst.numel(), 1 << 16, [&](int64_t b, int64_t e) {
        if constexpr (std::is_same<S, float>::value) convert_from_float(s + b, d + b, e - b);
        else convert_to_float(s + b, d + b, e - b);
    });
}

bool copy_half_float_contiguous(const Tensor& dst, const Tensor& src) {
    if (!dst.is_contiguous() || !src.is_contiguous() || dst.sizes() != src.sizes()) return false;
    const DType d = dst.dtype(), s = src.dtype();
    if (d == DType::Float32 && s == DType::Float16) convert_contiguous<float, Half>(dst, src);
    else if (d == DType::Float32 && s == DType::BFloat16) convert_contiguous<float, BFloat16>(dst, src);
    else if (d == DType::Float16 && s == DType::Float32) convert_contiguous<Half, float>(dst, src);
    else if (d == DType::BFloat16 && s == DType::Float32) convert_contiguous<BFloat16, float>(dst, src);
    else return false;
    return true;
}

}  // namespace

void cpu_copy(const Tensor& dst, const Tensor& src) {
    if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous() && dst.sizes() == src.sizes()) {
        size_t n = (size_t)dst.numel() * dst.itemsize();
        if (n == 0) return;
        char* d = static_cast<char*>(dst.raw_data());
        const char* s = static_cast<const char*>(src.raw_data());
        parallel_for((int64_t)n, 1 << 20, [&](int64_t b, int64_t e) { std::memcpy(d + b, s + b, (size_t)(e - b)); });
        return;
    }
    if (copy_half_float_contiguous(dst, src)) return;
    dispatch_storage(dst.dtype(), [&](auto rt) {
        using R = typename decltype(rt)::type;
        dispatch_storage(src.dtype(), [&](auto st) {
            using T = typename decltype(st)::type;
            map1<R, T>(dst, src, [](T v) { return math::convert<R>(v); });  // Note [Float to integer]
        });
    });
}

void cpu_fill(const Tensor& dst, double value) {
    dispatch_storage(dst.dtype(), [&](auto rt) {
        using R = typename decltype(rt)::type;
        const R v = from_double<R>(value);
        R* base = dst.data<R>();
        // writes only: dst may be uninitialised (reading it would load invalid bools)
        for_each_run<1>(dst.sizes(), {&dst.strides()},
                        [&](const std::array<int64_t, 1>& off, const std::array<int64_t, 1>& st, int64_t n) {
                            R* p = base + off[0];
                            for (int64_t i = 0; i < n; ++i) p[i * st[0]] = v;
                        });
    });
}

}  // namespace ct

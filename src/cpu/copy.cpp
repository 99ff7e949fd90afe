// copy.cpp - strided copy with dtype conversion and fill (the kernels behind contiguous, clone, to, copy_).
#include <cstring>
#include "cpu/kernels.h"
#include "cpu/loops.h"

namespace ct {

void cpu_copy(const Tensor& dst, const Tensor& src) {
    if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous() && dst.sizes() == src.sizes()) {
        size_t n = (size_t)dst.numel() * dst.itemsize();
        if (n == 0) return;
        char* d = static_cast<char*>(dst.raw_data());
        const char* s = static_cast<const char*>(src.raw_data());
        parallel_for((int64_t)n, 1 << 20, [&](int64_t b, int64_t e) { std::memcpy(d + b, s + b, (size_t)(e - b)); });
        return;
    }
    dispatch_all(dst.dtype(), [&](auto rt) {
        using R = typename decltype(rt)::type;
        dispatch_all(src.dtype(), [&](auto st) {
            using T = typename decltype(st)::type;
            map1<R, T>(dst, src, [](T v) { return math::convert<R>(v); });  // Note [Float to integer]
        });
    });
}

void cpu_fill(const Tensor& dst, double value) {
    dispatch_all(dst.dtype(), [&](auto rt) {
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

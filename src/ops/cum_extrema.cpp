// cum_extrema.cpp - cummax and cummin (issue 14): the running extreme along a dim and the position it came from
// (torch's rules: ties take the later position, a NaN sticks once seen). The values' gradient flows to those
// positions (scatter_add of the gradient, so double backward works). CUDA tensors are computed on the host.
#include <cmath>
#include "ops/half_compute.h"
#include "ops/elementwise.h"
#include "ops/toolbox_ops.h"

namespace ct {
namespace {

// Whether v replaces the running extreme e (torch's cummax / cummin update rule).
template <typename T> bool replaces(T v, T e, bool max) {
    if constexpr (std::is_floating_point<T>::value) {
        if (std::isnan(v)) return true;
        if (std::isnan(e)) return false;
    }
    return max ? v >= e : v <= e;
}

std::pair<Tensor, Tensor> cum_extreme(const char* op, const Tensor& x, int64_t dim, bool max) {
    const int64_t d = wrap_dim(dim, x.dim(), op);
    Tensor xs = empty_tensor(x.sizes(), x.dtype(), Device{});
    copy_into(xs, copy_to_device(x, Device{}));
    Tensor vals = empty_tensor(x.sizes(), x.dtype(), Device{}), idx = empty_tensor(x.sizes(), DType::Int64, Device{});
    int64_t outer = 1, inner = 1, n = x.dim() > 0 ? x.sizes()[d] : 1;
    for (int64_t i = 0; i < d; ++i) outer *= x.sizes()[i];
    for (int64_t i = d + 1; i < x.dim(); ++i) inner *= x.sizes()[i];
    // an empty x may still have huge dims around a zero one (outer * inner loops of nothing for ever)
    if (x.numel() > 0) dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* px = xs.data<T>();
        T* pv = vals.data<T>();
        int64_t* pi = idx.data<int64_t>();
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t j = 0; j < inner; ++j) {
                const int64_t base = o * n * inner + j;
                T e = T();
                int64_t at = 0;
                for (int64_t s = 0; s < n; ++s) {
                    const int64_t k = base + s * inner;
                    if (s == 0 || replaces<T>(px[k], e, max)) e = px[k], at = s;
                    pv[k] = e, pi[k] = at;
                }
            }
    });
    Tensor v = copy_to_device(vals, x.device()), i = copy_to_device(idx, x.device());
    if (requires_grad(x)) {
        Shape xs_shape = x.sizes();
        auto node = make_node(max ? "CummaxBackward" : "CumminBackward", {x}, [d, xs_shape](BackwardCtx& c) {
            const Tensor& g = c.grads[0];
            if (xs_shape.empty()) return TensorList{g};
            return TensorList{scatter_add(zeros(xs_shape, g.dtype(), g.device()), d, c.saved(0), g)};
        });
        node->save(i);
        set_history(v, node);
    }
    return {v, i};
}

}  // namespace

std::pair<Tensor, Tensor> cummax(const Tensor& x, int64_t dim) {
    if (auto h = half_dtype_of(x)) return round_results(cummax(as_float32(x), dim), *h);  // Note [Half compute]
    return cum_extreme("cummax", x, dim, true);
}
std::pair<Tensor, Tensor> cummin(const Tensor& x, int64_t dim) {
    if (auto h = half_dtype_of(x)) return round_results(cummin(as_float32(x), dim), *h);  // Note [Half compute]
    return cum_extreme("cummin", x, dim, false);
}

}  // namespace ct

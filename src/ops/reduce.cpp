// reduce.cpp - sum and mean over dims (with keepdim), and sum_to (the backward of broadcasting).
#include <cmath>
#include "cpu/reduce_kernel.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

template <typename T, typename A> struct Summer {
    using Acc = A;
    A init() const { return A(0); }
    void step(A& acc, T v, int64_t) const { acc += (A)v; }
    void merge(A& a, const A& b) const { a += b; }
    A finish(const A& a) const { return a; }
};

// Sum's result dtype: integers and bool sum to int64, floats keep their dtype.
DType sum_dtype(DType d) { return is_floating(d) ? d : DType::Int64; }

Tensor sum_kernel(const Tensor& x, const std::vector<bool>& mask, bool keepdim) {
    DType od = sum_dtype(x.dtype());
    Tensor out = empty_tensor(reduced_shape(x.sizes(), mask, keepdim), od, x.device());
    dispatch_all(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same<T, float>::value) {
            reduce_into<float, float>(out, x, mask, Summer<float, double>{});
        } else if constexpr (std::is_same<T, double>::value) {
            reduce_into<double, double>(out, x, mask, Summer<double, double>{});
        } else {
            reduce_into<T, int64_t>(out, x, mask, Summer<T, int64_t>{});
        }
    });
    return out;
}

}  // namespace

Tensor sum(const Tensor& x, const IntList& dims, bool keepdim) {
    std::vector<bool> mask = reduce_mask("sum", dims, x.dim());
    Tensor out = sum_kernel(x, mask, keepdim);
    if (!requires_grad(x)) return out;
    Shape in_shape = x.sizes();
    auto node = make_node("SumBackward", {x}, [in_shape, mask, keepdim](BackwardCtx& c) {
        Tensor g = c.grads[0];
        if (!keepdim) {
            Shape ks = reduced_shape(in_shape, mask, true);
            g = reshape(g, ks);
        }
        return TensorList{expand(g, in_shape)};
    });
    set_history(out, node);
    return out;
}

Tensor mean(const Tensor& x, const IntList& dims, bool keepdim) {
    if (!is_floating(x.dtype()))
        fail(CT_ERR_DTYPE, "mean: expected a floating tensor, got ", dtype_name(x.dtype()),
             "; convert with to_dtype first");
    std::vector<bool> mask = reduce_mask("mean", dims, x.dim());
    int64_t n = 1;
    for (int64_t d = 0; d < x.dim(); ++d)
        if (mask[d]) n *= x.sizes()[d];
    return mul_scalar(sum(x, dims, keepdim), n == 0 ? NAN : 1.0 / (double)n);
}

Tensor sum_to(const Tensor& g, const Shape& shape) {
    if (g.sizes() == shape) return g;
    int64_t lead = g.dim() - (int64_t)shape.size();
    if (lead < 0) fail(CT_ERR_SHAPE, "sum_to: cannot reduce shape ", shape_str(g.sizes()), " to ", shape_str(shape));
    IntList dims;
    for (int64_t d = 0; d < g.dim(); ++d) {
        if (d < lead) dims.push_back(d);
        else if (shape[d - lead] == 1 && g.sizes()[d] != 1) dims.push_back(d);
        else if (shape[d - lead] != g.sizes()[d])
            fail(CT_ERR_SHAPE, "sum_to: cannot reduce shape ", shape_str(g.sizes()), " to ", shape_str(shape));
    }
    if (dims.empty()) return reshape(g, shape);
    return reshape(sum(g, dims, true), shape);
}

}  // namespace ct

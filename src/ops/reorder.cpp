// reorder.cpp - ops that move elements without computing new values: flip (a copy kernel for any dtype on
// the CPU, index_select with reversed indices on CUDA; its own backward), roll (narrow + cat) and tril/triu (a where with a diagonal mask), both composites.
#include <cstring>
#include "autograd/grad_mode.h"
#include "cpu/parallel.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// Copies x (contiguous) into out reversing the dims marked in flipped; rows of the last dim are copied whole.
void flip_kernel(const Tensor& x, Tensor& out, const std::vector<bool>& flipped) {
    const int64_t nd = x.dim(), last = x.sizes()[nd - 1], rows = x.numel() / std::max<int64_t>(last, 1);
    const size_t item = x.itemsize();
    const char* src = static_cast<const char*>(x.raw_data());
    char* dst = static_cast<char*>(out.raw_data());
    Shape strides = contiguous_strides(x.sizes());
    parallel_for(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(last, 1)), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
            int64_t rest = r, from = 0;  // element offset of the source row
            for (int64_t i = nd - 2; i >= 0; --i) {
                int64_t size = x.sizes()[i], idx = rest % size;
                rest /= size;
                from += (flipped[i] ? size - 1 - idx : idx) * strides[i];
            }
            const char* s = src + from * item;
            char* o = dst + r * last * item;
            if (!flipped[nd - 1]) {
                std::memcpy(o, s, (size_t)last * item);
            } else {
                for (int64_t j = 0; j < last; ++j) std::memcpy(o + j * item, s + (last - 1 - j) * item, item);
            }
        }
    });
}

// The mask col - row <= diagonal (lower) or >= diagonal (upper) over the last two dims of x.
Tensor triangle_mask(const char* op, const Tensor& x, int64_t diagonal, bool lower) {
    if (x.dim() < 2)
        fail(CT_ERR_SHAPE, op, ": input must have at least 2 dims, got shape ", shape_str(x.sizes()));
    int64_t rows = x.size(-2), cols = x.size(-1);
    Tensor r = reshape(arange(0, (double)rows, 1, DType::Int64, x.device()), {rows, 1});
    Tensor c = reshape(arange(0, (double)cols, 1, DType::Int64, x.device()), {1, cols});
    Tensor offset = sub(c, r);
    Tensor diag = wrapped_scalar((double)diagonal, true);
    return lower ? le(offset, diag) : ge(offset, diag);
}

Tensor triangle(const char* op, const Tensor& x, int64_t diagonal, bool lower) {
    if (x.numel() == 0) {  // no mask of rows x cols: an empty tensor's other dim may be huge
        if (x.dim() < 2) triangle_mask(op, x, diagonal, lower);  // the rank error
        return clone(x);
    }
    Tensor mask = triangle_mask(op, x, diagonal, lower);
    return where(mask, x, scalar_tensor(0.0, x.dtype(), x.device()));
}

}  // namespace

Tensor flip(const Tensor& x, const IntList& dims) {
    std::vector<bool> flipped(x.dim(), false);
    for (int64_t dim : dims) {
        int64_t d = wrap_dim(dim, x.dim(), "flip");
        if (x.dim() == 0) continue;
        if (flipped[d]) fail(CT_ERR_INVALID_ARGUMENT, "flip: dim ", dim, " appears more than once in the dims list");
        flipped[d] = true;
    }
    Tensor out;
    if (!x.device().is_cpu()) {  // one gather per flipped dim (index_select kernel), unrecorded
        NoGradGuard no_grad;
        out = detach(x);
        bool gathered = false;  // index_select made a fresh tensor
        for (int64_t i = 0; i < x.dim(); ++i) {
            int64_t n = x.sizes()[i];
            if (!flipped[i] || n < 2) continue;
            out = index_select(out, i, arange((double)(n - 1), -1, -1, DType::Int64, x.device()));
            gathered = true;
        }
        if (!gathered) out = clone(out);
    } else if (x.dim() == 0 || x.numel() == 0) {
        out = empty_tensor(x.sizes(), x.dtype(), x.device());
        if (x.numel()) std::memcpy(out.raw_data(), contiguous_nograd(x).raw_data(), x.itemsize());
    } else {
        out = empty_tensor(x.sizes(), x.dtype(), x.device());
        flip_kernel(contiguous_nograd(x), out, flipped);
    }
    if (!requires_grad(x)) return out;
    IntList wrapped;
    for (int64_t i = 0; i < x.dim(); ++i)
        if (flipped[i]) wrapped.push_back(i);
    auto node = make_node("FlipBackward", {x}, [wrapped](BackwardCtx& c) { return TensorList{flip(c.grads[0], wrapped)}; });
    set_history(out, node);
    return out;
}

Tensor roll(const Tensor& x, const IntList& shifts, const IntList& dims) {
    if (dims.empty()) {
        if (shifts.size() != 1)
            fail(CT_ERR_INVALID_ARGUMENT, "roll: without dims, shifts must have exactly one value, got ", shifts.size());
        return reshape(roll(flatten(x, 0, -1), shifts, {0}), x.sizes());
    }
    if (shifts.size() != dims.size())
        fail(CT_ERR_INVALID_ARGUMENT, "roll: shifts and dims must have the same length, got ", shifts.size(),
             " and ", dims.size());
    Tensor out = x;
    for (size_t i = 0; i < dims.size(); ++i) {
        int64_t d = wrap_dim(dims[i], x.dim(), "roll");
        if (x.dim() == 0) continue;
        int64_t n = x.sizes()[d];
        if (n == 0) continue;
        int64_t s = shifts[i] % n;  // in (-n, n); no (shift % n) + n: it overflows when n > 2^62
        if (s < 0) s += n;
        if (s == 0) continue;
        out = cat({narrow(out, d, n - s, s), narrow(out, d, 0, n - s)}, d);
    }
    return out.is_same(x) ? clone(x) : out;
}

Tensor tril(const Tensor& x, int64_t diagonal) { return triangle("tril", x, diagonal, true); }
Tensor triu(const Tensor& x, int64_t diagonal) { return triangle("triu", x, diagonal, false); }

}  // namespace ct

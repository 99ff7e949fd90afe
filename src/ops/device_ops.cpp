// device_ops.cpp - copy/fill/binary on whichever device the tensors live on: CPU kernels directly, CUDA
// through the backend's function table (layouts coalesced here, outer dims split off beyond CT_CUDA_MAX_DIMS).
#include "ops/device_ops.h"
#include <functional>
#include "cpu/kernels.h"

namespace ct {
namespace {

struct Operand {
    char* ptr;             // element 0 of the view (device pointer for CUDA tensors)
    const int64_t* strides;
    size_t itemsize;
};

// Calls run(layout, pointers) for the operands (shared sizes), peeling outer dims while the coalesced
// layout has more than CT_CUDA_MAX_DIMS dims. Layout: ct_cuda_layout, or ct_cuda_layout4 for 4 operands.
template <typename Layout = ct_cuda_layout, typename Run>
void for_each_layout(const Shape& sizes, size_t first, std::vector<Operand> ops, const Run& run) {
    Layout L;
    std::vector<const int64_t*> st;
    for (auto& o : ops) st.push_back(o.strides + first);
    if (make_cuda_layout((int32_t)(sizes.size() - first), sizes.data() + first, st.data(), (int32_t)ops.size(), &L)) {
        run(L, ops);
        return;
    }
    for (int64_t i = 0; i < sizes[first]; ++i) {
        std::vector<Operand> sub = ops;
        for (size_t k = 0; k < ops.size(); ++k)
            sub[k].ptr = ops[k].ptr + i * ops[k].strides[first] * (int64_t)ops[k].itemsize;
        for_each_layout<Layout>(sizes, first + 1, sub, run);
    }
}

Operand operand(const Tensor& t) {
    return Operand{static_cast<char*>(t.device_data()), t.strides().data(), t.itemsize()};
}

int32_t memcpy_device(Device d) { return d.is_cpu() ? CT_CUDA_HOST : d.index; }

// Bytes of contiguous src into contiguous dst (same numel and dtype) across devices.
void memcpy_tensor(const Tensor& dst, const Tensor& src) {
    size_t nbytes = (size_t)dst.numel() * dst.itemsize();
    if (nbytes == 0) return;
    Device dd = dst.device(), sd = src.device();
    const ct_cuda_backend* b = nullptr;
    if (!dd.is_cpu()) b = &cuda_device_backend("to", dd.index);
    if (!sd.is_cpu()) b = &cuda_device_backend("to", sd.index);
    cuda_check("to", b->memcpy(dst.device_data(), memcpy_device(dd), src.device_data(), memcpy_device(sd), nbytes));
}

Tensor packed(const Tensor& t) {
    Tensor out = empty_tensor(t.sizes(), t.dtype(), t.device());
    copy_into(out, t);
    return out;
}

}  // namespace

void check_device_usable(const char* op, Device device) {
    if (!device.is_cpu()) cuda_device_backend(op, device.index);
}

void copy_into(const Tensor& dst, const Tensor& src) {
    if (dst.sizes() != src.sizes())
        fail(CT_ERR_INTERNAL, "copy: shapes ", shape_str(dst.sizes()), " and ", shape_str(src.sizes()), " differ");
    if (dst.numel() == 0) return;
    Device dd = dst.device(), sd = src.device();
    if (dd.is_cpu() && sd.is_cpu()) return cpu_copy(dst, src);
    if (dd != sd) {  // across devices: move src's values as they are, then convert on dst's device if needed
        Tensor s = src.is_contiguous() ? src : packed(src);
        if (s.dtype() == dst.dtype() && dst.is_contiguous()) return memcpy_tensor(dst, s);
        return copy_into(dst, copy_to_device(s, dd));
    }
    const ct_cuda_backend& b = cuda_device_backend("copy", dd.index);
    for_each_layout(dst.sizes(), 0, {operand(dst), operand(src)}, [&](const ct_cuda_layout& L, const std::vector<Operand>& p) {
        cuda_check("copy", b.copy(dd.index, &L, p[0].ptr, (int32_t)dst.dtype(), p[1].ptr, (int32_t)src.dtype()));
    });
}

void fill_into(const Tensor& dst, double value) {
    if (dst.device().is_cpu()) return cpu_fill(dst, value);
    if (dst.numel() == 0) return;
    int32_t dev = dst.device().index;
    const ct_cuda_backend& b = cuda_device_backend("fill", dev);
    for_each_layout(dst.sizes(), 0, {operand(dst)}, [&](const ct_cuda_layout& L, const std::vector<Operand>& p) {
        cuda_check("fill", b.fill(dev, &L, p[0].ptr, (int32_t)dst.dtype(), value));
    });
}

Tensor copy_to_device(const Tensor& t, Device device) {
    if (device == t.device()) return packed(t);
    Tensor src = t.is_contiguous() ? t : packed(t);  // pack on t's own device (materialises broadcast views)
    Tensor out = empty_tensor(t.sizes(), t.dtype(), device);
    memcpy_tensor(out, src);
    return out;
}

void cuda_binary(const char* op, int32_t code, double alpha, const Tensor& out, const Tensor& a, const Tensor& b) {
    if (code < 0) fail(CT_ERR_NOT_SUPPORTED, op, ": not implemented for cuda tensors yet");
    if (out.numel() == 0) return;
    int32_t dev = out.device().index;
    const ct_cuda_backend& be = cuda_device_backend(op, dev);
    for_each_layout(out.sizes(), 0, {operand(out), operand(a), operand(b)},
                    [&](const ct_cuda_layout& L, const std::vector<Operand>& p) {
                        cuda_check(op, be.binary(dev, code, &L, p[0].ptr, p[1].ptr, p[2].ptr, (int32_t)a.dtype(), alpha));
                    });
}

void bring_cpu_scalars(Tensor& a, Tensor& b) {
    auto move = [](Tensor& scalar, Device device) {
        bool wrapped = scalar.impl()->wrapped_number;
        scalar = copy_to_device(scalar, device);
        scalar.impl()->wrapped_number = wrapped;
    };
    if (!a.device().is_cpu() && b.device().is_cpu() && b.dim() == 0) move(b, a.device());
    else if (!b.device().is_cpu() && a.device().is_cpu() && a.dim() == 0) move(a, b.device());
}

// ---- unary, where, reductions and cumsum (cuda-ops) ----

void cuda_unary(const char* op, int32_t code, double p0, double p1, const Tensor& out, const Tensor& x) {
    if (code < 0) fail(CT_ERR_NOT_SUPPORTED, op, ": not implemented for cuda tensors yet");
    if (out.numel() == 0) return;
    int32_t dev = out.device().index;
    const ct_cuda_backend& be = cuda_device_backend(op, dev);
    for_each_layout(out.sizes(), 0, {operand(out), operand(x)}, [&](const ct_cuda_layout& L, const std::vector<Operand>& p) {
        cuda_check(op, be.unary(dev, code, &L, p[0].ptr, p[1].ptr, (int32_t)x.dtype(), p0, p1));
    });
}

void cuda_where(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b) {
    if (out.numel() == 0) return;
    int32_t dev = out.device().index;
    const ct_cuda_backend& be = cuda_device_backend("where", dev);
    for_each_layout<ct_cuda_layout4>(out.sizes(), 0, {operand(out), operand(cond), operand(a), operand(b)},
                                     [&](const ct_cuda_layout4& L, const std::vector<Operand>& p) {
                                         cuda_check("where", be.where(dev, &L, p[0].ptr, p[1].ptr, p[2].ptr, p[3].ptr,
                                                                      (int32_t)a.dtype()));
                                     });
}

namespace {
// Kept and reduced dims of x over mask with size-1 dims dropped and neighbours of the same kind merged when
// their strides allow (row-major order, so output index and reduced index are unchanged). False when either
// side needs more than CT_CUDA_MAX_DIMS dims.
bool make_reduce_layout(const Tensor& x, const std::vector<bool>& mask, ct_cuda_reduce_layout* L) {
    L->kept_ndim = L->reduced_ndim = 0;
    int last_kind = -1;
    for (int64_t d = 0; d < x.dim(); ++d) {
        int64_t sz = x.sizes()[d], st = x.strides()[d];
        if (sz == 1) continue;
        bool red = mask[d];
        int32_t& n = red ? L->reduced_ndim : L->kept_ndim;
        int64_t* S = red ? L->reduced_sizes : L->kept_sizes;
        int64_t* St = red ? L->reduced_strides : L->kept_strides;
        if (last_kind == (int)red && St[n - 1] == st * sz) {
            S[n - 1] *= sz;
            St[n - 1] = st;
            continue;
        }
        if (n == CT_CUDA_MAX_DIMS) return false;
        S[n] = sz;
        St[n] = st;
        ++n;
        last_kind = (int)red;
    }
    return true;
}
}  // namespace

void cuda_reduce(const char* op, int32_t code, const Tensor& x0, const std::vector<bool>& mask, const Tensor& out,
                 const Tensor& out_index, double p0) {
    const Tensor& any_out = out.defined() ? out : out_index;
    if (any_out.numel() == 0) return;
    Tensor x = x0;
    ct_cuda_reduce_layout L;
    if (!make_reduce_layout(x, mask, &L)) {  // packing merges what strides kept apart
        x = copy_to_device(x0, x0.device());
        if (!make_reduce_layout(x, mask, &L))
            fail(CT_ERR_NOT_SUPPORTED, op, ": more than ", CT_CUDA_MAX_DIMS,
                 " alternating reduced and kept dims on cuda (shape ", shape_str(x0.sizes()), ")");
    }
    int32_t dev = x.device().index;
    const ct_cuda_backend& be = cuda_device_backend(op, dev);
    // out's dtype names the result rule (a half x may reduce to float32, Note [Native half on CUDA])
    cuda_check(op, be.reduce_to(dev, code, &L, out.defined() ? out.device_data() : nullptr,
                                (int32_t)(out.defined() ? out.dtype() : x.dtype()),
                                out_index.defined() ? out_index.device_data() : nullptr, x.device_data(),
                                (int32_t)x.dtype(), p0));
}

void cuda_cumsum(const Tensor& data, int64_t outer, int64_t n, int64_t inner, bool reverse) {
    if (data.numel() == 0) return;
    int32_t dev = data.device().index;
    const ct_cuda_backend& be = cuda_device_backend("cumsum", dev);
    cuda_check("cumsum", be.cumsum(dev, data.device_data(), (int32_t)data.dtype(), outer, n, inner, reverse ? 1 : 0));
}

}  // namespace ct

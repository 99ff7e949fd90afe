// views.cpp - layout-only ops (reshape, transpose, permute, squeeze, expand, narrow, slice, select, diagonal, ...),
// plus contiguous/clone/detach/to. Views share storage; their backward maps the gradient back to the base shape.
#include <algorithm>
#include <cstdint>
#include "autograd/grad_mode.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {
namespace {

using ViewFn = std::function<Tensor(const Tensor&)>;

// Scatters grad (the gradient of a view) into zeros of the base shape: the backward of narrow/slice/select.
// Differentiable itself: its backward applies the view again.
Tensor view_scatter(const Tensor& grad, const Shape& base_shape, ViewFn view_fn, const char* name) {
    Tensor out = zeros(base_shape, grad.dtype(), grad.device());
    {
        NoGradGuard ng;
        Tensor v = view_fn(out);
        copy_into(v, grad);
    }
    if (requires_grad(grad)) {
        auto node = make_node(std::string(name) + "Backward", {grad}, [view_fn](BackwardCtx& c) {
            return TensorList{view_fn(c.grads[0])};
        });
        set_history(out, node);
    }
    return out;
}

// Records the history of out (made from base): backward maps out's gradient to base. For true views,
// remake(base) gives the view again; it is kept so that the view's history can be rebuilt after an
// in-place write to its base (Note [View history] in autograd/node.h).
// True views record remake under grad mode even when base needs no gradient: an in-place write through
// the view may make the base require grad later (Note [In-place through views] in ops/inplace.cpp).
Tensor record_view(Tensor out, const Tensor& base, const char* name, ViewFn back, ViewFn remake = nullptr) {
    if (requires_grad(base)) {
        auto node = make_node(name, {base}, [back](BackwardCtx& c) { return TensorList{back(c.grads[0])}; });
        set_history(out, node);
    }
    if (remake && GradMode::is_enabled()) set_view_history(out, base, std::move(remake));
    return out;
}

// Computes the shape with one -1 inferred; throws CT_ERR_SHAPE on a numel mismatch.
Shape infer_shape(const char* op, const Shape& shape, int64_t numel, const Shape& from) {
    Shape s = shape;
    int64_t infer = -1;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == -1) {
            if (infer >= 0) fail(CT_ERR_SHAPE, op, ": only one dimension can be -1, got ", shape_str(shape));
            infer = (int64_t)i;
        } else if (s[i] < 0) {
            fail(CT_ERR_SHAPE, op, ": invalid size ", s[i], " in shape ", shape_str(shape));
        }
    }
    Shape known_sizes = s;  // the sizes given, the inferred one counted as 1 (Note [Shape bound])
    if (infer >= 0) known_sizes[infer] = 1;
    int64_t known = checked_numel(known_sizes, op);
    if (infer >= 0) {
        if (known == 0 || numel % known != 0)
            fail(CT_ERR_SHAPE, op, ": shape ", shape_str(shape), " is invalid for input of shape ", shape_str(from),
                 " (", numel, " elements)");
        s[infer] = numel / known;
    } else if (known != numel) {
        fail(CT_ERR_SHAPE, op, ": shape ", shape_str(shape), " is invalid for input of shape ", shape_str(from), " (",
             numel, " elements)");
    }
    return s;
}

// t.offset() + index * stride: the offset of a view with sizes s of t (the base offset when s is empty, whose
// offset is never read, so that empty views of huge empty tensors need no arithmetic).
int64_t view_offset(const Tensor& t, const Shape& s, int64_t index, int64_t stride, const char* op) {
    for (int64_t n : s)
        if (n == 0) return t.offset();
    return checked_add(t.offset(), checked_mul(index, stride, op, "offset"), op, "offset");
}

// Strides for viewing t with shape without copying, or false (PyTorch's computeStride).
bool view_strides(const Tensor& t, const Shape& shape, Shape& out) {
    const Shape& os = t.sizes();
    const Shape& ost = t.strides();
    int64_t numel = t.numel();
    out.assign(shape.size(), 0);
    if (numel == 0) {
        out = contiguous_strides(shape);
        return true;
    }
    int64_t view_d = (int64_t)shape.size() - 1;
    int64_t chunk_base_stride = ost.empty() ? 1 : ost.back();
    int64_t tensor_numel = 1, view_numel = 1, next = 0;
    for (int64_t td = (int64_t)os.size() - 1; td >= 0; --td) {
        tensor_numel *= os[td];
        // a product past int64 cannot equal a stride: the chunk ends there
        if (td == 0 || (os[td - 1] != 1 && (!mul_fits(tensor_numel, chunk_base_stride, &next) || ost[td - 1] != next))) {
            while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
                out[view_d] = view_numel * chunk_base_stride;
                view_numel *= shape[view_d];
                --view_d;
            }
            if (view_numel != tensor_numel) return false;
            if (td > 0) {
                chunk_base_stride = ost[td - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if (view_d != -1) {
        // remaining leading size-1 dims
        while (view_d >= 0) {
            if (shape[view_d] != 1) return false;
            out[view_d] = 1;
            --view_d;
        }
    }
    return true;
}

}  // namespace

Tensor view(const Tensor& t, const Shape& shape) {
    Shape s = infer_shape("view", shape, t.numel(), t.sizes());
    Shape st;
    if (!view_strides(t, s, st))
        fail(CT_ERR_SHAPE, "view: size ", shape_str(s), " is not compatible with input of shape ",
             shape_str(t.sizes()), " and strides ", shape_str(t.strides()), "; use reshape");
    Shape in_shape = t.sizes();
    return record_view(make_view(t, s, st, t.offset()), t, "ViewBackward",
                       [in_shape](const Tensor& g) { return reshape(g, in_shape); },
                       [s](const Tensor& b) { return view(b, s); });
}

Tensor reshape(const Tensor& t, const Shape& shape) {
    Shape s = infer_shape("reshape", shape, t.numel(), t.sizes());
    Shape st;
    if (view_strides(t, s, st)) return view(t, s);
    return view(contiguous(t), s);
}

Tensor transpose(const Tensor& t, int64_t d0, int64_t d1) {
    int64_t nd = t.dim();
    int64_t a = wrap_dim(d0, nd, "transpose"), b = wrap_dim(d1, nd, "transpose");
    ViewFn remake = [a, b](const Tensor& base) { return transpose(base, a, b); };
    if (nd == 0) return record_view(make_view(t, t.sizes(), t.strides(), t.offset()), t, "TransposeBackward",
                                    [](const Tensor& g) { return g; }, remake);
    Shape s = t.sizes(), st = t.strides();
    std::swap(s[a], s[b]);
    std::swap(st[a], st[b]);
    return record_view(make_view(t, s, st, t.offset()), t, "TransposeBackward",
                       [a, b](const Tensor& g) { return transpose(g, a, b); }, remake);
}

Tensor t2d(const Tensor& t) {
    if (t.dim() > 2) fail(CT_ERR_SHAPE, "t: expects a tensor with <= 2 dims, got shape ", shape_str(t.sizes()));
    if (t.dim() < 2) return transpose(t, 0, 0);
    return transpose(t, 0, 1);
}

Tensor permute(const Tensor& t, const IntList& perm) {
    int64_t nd = t.dim();
    if ((int64_t)perm.size() != nd)
        fail(CT_ERR_SHAPE, "permute: got ", perm.size(), " dims ", shape_str(perm), " for a tensor of rank ", nd);
    Shape s(nd), st(nd);
    IntList inv(nd, -1);
    for (int64_t i = 0; i < nd; ++i) {
        int64_t p = wrap_dim(perm[i], nd, "permute");
        if (inv[p] != -1) fail(CT_ERR_INVALID_ARGUMENT, "permute: dim ", p, " repeats in ", shape_str(perm));
        inv[p] = i;
        s[i] = t.sizes()[p];
        st[i] = t.strides()[p];
    }
    return record_view(make_view(t, s, st, t.offset()), t, "PermuteBackward",
                       [inv](const Tensor& g) { return permute(g, inv); },
                       [perm](const Tensor& b) { return permute(b, perm); });
}

Tensor squeeze(const Tensor& t, int64_t dim) {
    int64_t d = wrap_dim(dim, t.dim(), "squeeze");
    ViewFn remake = [d](const Tensor& base) { return squeeze(base, d); };
    if (t.dim() == 0 || t.sizes()[d] != 1)
        return record_view(make_view(t, t.sizes(), t.strides(), t.offset()), t, "SqueezeBackward",
                           [](const Tensor& g) { return g; }, remake);
    Shape s = t.sizes(), st = t.strides();
    s.erase(s.begin() + d);
    st.erase(st.begin() + d);
    Shape in_shape = t.sizes();
    return record_view(make_view(t, s, st, t.offset()), t, "SqueezeBackward",
                       [in_shape](const Tensor& g) { return reshape(g, in_shape); }, remake);
}

Tensor squeeze_all(const Tensor& t) {
    Shape s, st;
    for (int64_t i = 0; i < t.dim(); ++i)
        if (t.sizes()[i] != 1) s.push_back(t.sizes()[i]), st.push_back(t.strides()[i]);
    Shape in_shape = t.sizes();
    return record_view(make_view(t, s, st, t.offset()), t, "SqueezeBackward",
                       [in_shape](const Tensor& g) { return reshape(g, in_shape); },
                       [](const Tensor& base) { return squeeze_all(base); });
}

Tensor unsqueeze(const Tensor& t, int64_t dim) {
    int64_t nd = t.dim();
    if (dim < -nd - 1 || dim > nd)
        fail(CT_ERR_INDEX, "unsqueeze: dim ", dim, " is out of range for a tensor of rank ", nd, " (expected in [",
             -nd - 1, ", ", nd, "])");
    int64_t d = dim < 0 ? dim + nd + 1 : dim;
    Shape s = t.sizes(), st = t.strides();
    int64_t new_stride = 1;  // any stride is right for a size-1 dim; PyTorch's where it fits
    if (d < nd && !mul_fits(st[d], s[d], &new_stride)) new_stride = 1;
    s.insert(s.begin() + d, 1);
    st.insert(st.begin() + d, new_stride);
    return record_view(make_view(t, s, st, t.offset()), t, "UnsqueezeBackward",
                       [d](const Tensor& g) { return squeeze(g, d); },
                       [d](const Tensor& base) { return unsqueeze(base, d); });
}

Tensor expand(const Tensor& t, const Shape& shape) {
    int64_t nd = (int64_t)shape.size(), td = t.dim();
    if (nd < td)
        fail(CT_ERR_SHAPE, "expand: target shape ", shape_str(shape), " has fewer dims than input shape ",
             shape_str(t.sizes()));
    Shape s(nd), st(nd);
    for (int64_t i = nd - 1; i >= 0; --i) {
        int64_t ti = i - (nd - td);
        int64_t want = shape[i];
        if (ti < 0) {
            if (want < 0) fail(CT_ERR_SHAPE, "expand: -1 is not allowed for a new leading dim in ", shape_str(shape));
            s[i] = want;
            st[i] = 0;
            continue;
        }
        int64_t have = t.sizes()[ti];
        if (want == -1) want = have;
        if (have == want) {
            s[i] = have;
            st[i] = t.strides()[ti];
        } else if (have == 1 && want >= 0) {
            s[i] = want;
            st[i] = 0;
        } else {
            fail(CT_ERR_SHAPE, "expand: cannot expand shape ", shape_str(t.sizes()), " to ", shape_str(shape),
                 " (dim ", i, ": ", have, " vs ", want, ")");
        }
    }
    checked_numel(s, "expand");
    Shape in_shape = t.sizes();
    return record_view(make_view(t, s, st, t.offset()), t, "ExpandBackward",
                       [in_shape](const Tensor& g) { return sum_to(g, in_shape); },
                       [s](const Tensor& base) { return expand(base, s); });
}

Tensor flatten(const Tensor& t, int64_t start_dim, int64_t end_dim) {
    int64_t nd = t.dim();
    int64_t a = wrap_dim(start_dim, nd, "flatten"), b = wrap_dim(end_dim, nd, "flatten");  // 0-d: dims in [-1, 0]
    if (nd == 0) return reshape(t, {1});
    if (a > b) fail(CT_ERR_INVALID_ARGUMENT, "flatten: start_dim ", start_dim, " comes after end_dim ", end_dim);
    Shape s;
    for (int64_t i = 0; i < a; ++i) s.push_back(t.sizes()[i]);
    int64_t m = 1;
    for (int64_t i = a; i <= b; ++i) m *= t.sizes()[i];
    s.push_back(m);
    for (int64_t i = b + 1; i < nd; ++i) s.push_back(t.sizes()[i]);
    return reshape(t, s);
}

Tensor slice(const Tensor& t, int64_t dim, int64_t start, int64_t end, int64_t step) {
    if (t.dim() == 0) fail(CT_ERR_INDEX, "slice: cannot slice a 0-d tensor");
    int64_t d = wrap_dim(dim, t.dim(), "slice");
    if (step <= 0) fail(CT_ERR_INVALID_ARGUMENT, "slice: step must be positive, got ", step);
    int64_t n = t.sizes()[d];
    if (start < 0) start += n;
    if (end < 0) end += n;
    start = std::min(std::max<int64_t>(start, 0), n);
    end = std::min(std::max<int64_t>(end, start), n);
    int64_t len = end > start ? (end - start - 1) / step + 1 : 0;  // no end - start + step: it may overflow
    Shape s = t.sizes(), st = t.strides();
    s[d] = len;
    // With two or more elements step < n, so the new stride and the offset lie within the dim's reach.
    if (len > 1) st[d] = checked_mul(st[d], step, "slice", "stride");
    int64_t off = view_offset(t, s, start, t.strides()[d], "slice");
    Shape in_shape = t.sizes();
    return record_view(make_view(t, s, st, off), t, "SliceBackward", [=](const Tensor& g) {
        return view_scatter(g, in_shape, [=](const Tensor& z) { return slice(z, d, start, end, step); }, "SliceScatter");
    }, [=](const Tensor& base) { return slice(base, d, start, end, step); });
}

Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
    if (t.dim() == 0) fail(CT_ERR_INDEX, "narrow: cannot narrow a 0-d tensor");
    int64_t d = wrap_dim(dim, t.dim(), "narrow");
    int64_t n = t.sizes()[d];
    if (start < 0) start += n;
    if (start < 0 || length < 0 || start > n || length > n - start)  // not start + length: it may pass int64
        fail(CT_ERR_INDEX, "narrow: start ", start, " and length ", length, " are out of range for dim ", d,
             " of size ", n);
    return slice(t, d, start, start + length, 1);
}

Tensor select(const Tensor& t, int64_t dim, int64_t index) {
    if (t.dim() == 0) fail(CT_ERR_INDEX, "select: cannot index a 0-d tensor");
    int64_t d = wrap_dim(dim, t.dim(), "select");
    int64_t n = t.sizes()[d];
    if (index < -n || index >= n)
        fail(CT_ERR_INDEX, "select: index ", index, " is out of range for dim ", d, " of size ", n);
    if (index < 0) index += n;
    Shape s = t.sizes(), st = t.strides();
    int64_t off = view_offset(t, s, index, st[d], "select");
    s.erase(s.begin() + d);
    st.erase(st.begin() + d);
    Shape in_shape = t.sizes();
    return record_view(make_view(t, s, st, off), t, "SelectBackward", [=](const Tensor& g) {
        return view_scatter(g, in_shape, [=](const Tensor& z) { return select(z, d, index); }, "SelectScatter");
    }, [=](const Tensor& base) { return select(base, d, index); });
}

// The diagonal {t[..., i, ..., i + offset, ...]} of dims d1, d2 as a view: both dims removed, the diagonal
// appended last with stride st[d1] + st[d2]; empty when the offset lies outside the matrix (as in PyTorch).
Tensor diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2) {
    if (t.dim() < 2) fail(CT_ERR_SHAPE, "diagonal: expected a tensor with at least 2 dims, got ", shape_str(t.sizes()));
    int64_t d1 = wrap_dim(dim1, t.dim(), "diagonal"), d2 = wrap_dim(dim2, t.dim(), "diagonal");
    if (d1 == d2) fail(CT_ERR_INVALID_ARGUMENT, "diagonal: dim1 and dim2 must differ, both are ", d1);
    const Shape& sz = t.sizes();
    const Shape& st = t.strides();
    int64_t len = std::max<int64_t>(0, offset >= 0 ? std::min(sz[d1], sz[d2] - offset) : std::min(sz[d1] + offset, sz[d2]));
    int64_t off = t.offset();
    if (len > 0) off += offset >= 0 ? offset * st[d2] : -offset * st[d1];
    Shape s, nst;
    for (int64_t d = 0; d < t.dim(); ++d)
        if (d != d1 && d != d2) s.push_back(sz[d]), nst.push_back(st[d]);
    s.push_back(len);
    int64_t dst = 0;  // the diagonal's stride matters only with two or more elements
    if (!add_fits(st[d1], st[d2], &dst) && len > 1) checked_add(st[d1], st[d2], "diagonal", "stride");
    nst.push_back(dst);
    Shape in_shape = sz;
    return record_view(make_view(t, s, nst, off), t, "DiagonalBackward", [=](const Tensor& g) {
        return view_scatter(g, in_shape, [=](const Tensor& z) { return diagonal(z, offset, d1, d2); }, "DiagonalScatter");
    }, [=](const Tensor& base) { return diagonal(base, offset, d1, d2); });
}

Tensor clone(const Tensor& t) {
    Tensor out = empty_tensor(t.sizes(), t.dtype(), t.device());
    copy_into(out, t);
    return record_view(out, t, "CloneBackward", [](const Tensor& g) { return g; });
}

Tensor contiguous(const Tensor& t) { return t.is_contiguous() ? t : clone(t); }

Tensor detach(const Tensor& t) {
    Tensor out = make_view(t, t.sizes(), t.strides(), t.offset());
    // Shares t's memory and version counter but is no differentiable view: in-place writes to it are
    // recorded on it alone, as in PyTorch.
    out.impl()->is_view = false;
    out.impl()->wrapped_number = t.impl()->wrapped_number;
    return out;
}

Tensor to_dtype(const Tensor& t, DType dtype) {
    if (t.dtype() == dtype) return t;
    Tensor out = empty_tensor(t.sizes(), dtype, t.device());
    copy_into(out, t);
    // differentiable between floating and complex dtypes: complex -> real keeps the real part, whose gradient
    // is real; real -> complex gets the real part of the complex gradient (as torch)
    auto diff = [](DType d) { return is_floating(d) || is_complex(d); };
    if (diff(dtype) && diff(t.dtype())) {
        DType from = t.dtype();
        return record_view(out, t, "ToCopyBackward", [from](const Tensor& g) { return to_dtype(g, from); });
    }
    return out;
}

Tensor to_device(const Tensor& t, Device device) {
    if (t.device() == device) return t;
    check_device_usable("to", device);
    Device from = t.device();
    return record_view(copy_to_device(t, device), t, "ToDeviceBackward",
                       [from](const Tensor& g) { return to_device(g, from); });
}

// ---- complex views (Note [Complex dtypes]) ----

Tensor view_as_real(const Tensor& x) {
    if (!is_complex(x.dtype()))
        fail(CT_ERR_DTYPE, "view_as_real: expected a complex tensor (complex64 or complex128), got ", dtype_name(x.dtype()));
    Shape s = x.sizes(), st = x.strides();
    // strides in elements of the part dtype. A stride that would double past int64 addresses nothing (storage
    // bounds keep a stride that steps over an element below 2^62 / 16): its dim has size <= 1 or the tensor is
    // empty (contiguous [0, 2^62] has stride 2^62), so any even stride serves there.
    for (int64_t& v : st) v = (v > INT64_MAX / 2 || v < INT64_MIN / 2) ? 2 : v * 2;
    s.push_back(2);
    st.push_back(1);
    Tensor out = make_view(x, s, st, x.offset() * 2);
    out.impl()->dtype = real_dtype(x.dtype());
    return record_view(out, x, "ViewAsRealBackward", [](const Tensor& g) { return view_as_complex(contiguous(g)); },
                       [](const Tensor& b) { return view_as_real(b); });
}

Tensor view_as_complex(const Tensor& x) {
    const char* op = "view_as_complex";
    if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
        fail(CT_ERR_DTYPE, op, ": expected a float32 or float64 tensor, got ", dtype_name(x.dtype()));
    if (x.dim() == 0 || x.size(-1) != 2)
        fail(CT_ERR_SHAPE, op, ": expected a last dimension of size 2, got shape ", shape_str(x.sizes()));
    if (x.stride(-1) != 1)
        fail(CT_ERR_SHAPE, op, ": expected the last dimension to have stride 1, got ", x.stride(-1));
    Shape s(x.sizes().begin(), x.sizes().end() - 1), st(x.strides().begin(), x.strides().end() - 1);
    for (size_t i = 0; i < st.size(); ++i) {
        if (st[i] % 2 != 0 && s[i] != 1)
            fail(CT_ERR_SHAPE, op, ": expected every stride but the last to be even, got strides ", shape_str(x.strides()));
        st[i] = s[i] == 1 ? 1 : st[i] / 2;
    }
    if (x.offset() % 2 != 0) fail(CT_ERR_SHAPE, op, ": expected an even storage offset, got ", x.offset());
    check_dtype_on_device(op, x.dtype() == DType::Float64 ? DType::Complex128 : DType::Complex64, x.device());
    Tensor out = make_view(x, s, st, x.offset() / 2);
    out.impl()->dtype = x.dtype() == DType::Float64 ? DType::Complex128 : DType::Complex64;
    return record_view(out, x, "ViewAsComplexBackward", [](const Tensor& g) { return view_as_real(g); },
                       [](const Tensor& b) { return view_as_complex(b); });
}

}  // namespace ct

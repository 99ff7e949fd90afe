// nn_embedding_bag.cpp - embedding's options (padding_idx, scale_grad_by_freq), embedding_renorm_ (max_norm) and
// embedding_bag (sum / mean / max over bags of rows). embedding_ex is embedding on a gradient-scaling alias of the
// weight, so it is twice differentiable and runs on every device embedding runs on. embedding_bag is a CPU kernel
// with its own backward (torch has no double backward for it either); CUDA tensors go through differentiable host
// copies.
#include <cmath>
#include <cstring>
#include "ops/elementwise.h"
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "cpu/parallel.h"
#include "ops/device_ops.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

// Index values as int64 from a contiguous host copy of idx (int32 or int64); throws CT_ERR_INDEX naming op unless
// each is in [0, num).
std::vector<int64_t> host_indices(const Tensor& idx, int64_t num, const char* op, const char* what) {
    Tensor c = contiguous_nograd(idx.device().is_cpu() ? idx : to_device(detach(idx), Device{}));
    std::vector<int64_t> v((size_t)c.numel());
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = c.dtype() == DType::Int64 ? c.data<int64_t>()[i] : (int64_t)c.data<int32_t>()[i];
    for (int64_t i : v)
        if (i < 0 || i >= num) fail(CT_ERR_INDEX, op, ": index ", i, " is out of range for ", num, " ", what);
    return v;
}

void check_index_dtype(const char* op, const char* what, const Tensor& t) {
    if (t.dtype() != DType::Int64 && t.dtype() != DType::Int32)
        fail(CT_ERR_DTYPE, op, ": ", what, " must be int64 or int32, got ", dtype_name(t.dtype()));
}

void check_weight(const char* op, const Tensor& weight) {
    if (weight.dim() != 2)
        fail(CT_ERR_SHAPE, op, ": weight must be 2-D [num_embeddings, embedding_dim], got ", shape_str(weight.sizes()));
    if (!is_floating(weight.dtype()))
        fail(CT_ERR_DTYPE, op, ": weight must be floating, got ", dtype_name(weight.dtype()));
}

// padding_idx wrapped into [0, num) (negative counts from the end, as torch); throws CT_ERR_INDEX outside.
int64_t wrap_padding(const char* op, int64_t padding_idx, int64_t num) {
    if (padding_idx < -num || padding_idx >= num)
        fail(CT_ERR_INDEX, op, ": padding_idx ", padding_idx, " is out of range for ", num, " embeddings");
    return padding_idx < 0 ? padding_idx + num : padding_idx;
}

// [num] factors for the weight's gradient rows: 0 at padding_idx, 1 / (count of the row in idx) with
// scale_grad_by_freq, else 1; in dtype on device.
Tensor row_grad_scale(const std::vector<int64_t>& idx, int64_t num, int64_t padding, bool by_freq, DType dtype,
                      Device device) {
    std::vector<double> scale((size_t)num, 1.0);
    if (by_freq) {
        std::vector<int64_t> count((size_t)num, 0);
        for (int64_t i : idx) ++count[(size_t)i];
        for (int64_t r = 0; r < num; ++r)
            if (count[(size_t)r] > 0) scale[(size_t)r] = 1.0 / (double)count[(size_t)r];
    }
    if (padding >= 0) scale[(size_t)padding] = 0.0;
    Tensor s = empty_tensor(Shape{num, 1}, DType::Float64, Device{});
    if (num > 0) std::memcpy(s.raw_data(), scale.data(), scale.size() * sizeof(double));
    Tensor d = to_dtype(s, dtype);
    return device.is_cpu() ? d : to_device(d, device);
}

// An alias of weight (no copy) whose gradient is the incoming gradient times scale ([num, 1]).
Tensor grad_scaled_alias(const Tensor& weight, const Tensor& scale) {
    Tensor alias = detach(weight);
    if (!requires_grad(weight)) return alias;
    auto node = make_node("EmbeddingGradScaleBackward", {weight}, [](BackwardCtx& c) {
        return TensorList{mul(c.grads[0], c.saved(0))};
    });
    node->save(scale);
    set_history(alias, node);
    return alias;
}

// Bags of a flat index list: bag b covers entries [start[b], start[b + 1]).
struct Bags {
    std::vector<int64_t> idx, start;
    int64_t count() const { return (int64_t)start.size() - 1; }
};

Bags make_bags(const char* op, const Tensor& indices, const Tensor& offsets, bool include_last_offset, int64_t num) {
    Bags b;
    b.idx = host_indices(indices, num, op, "embeddings");
    const int64_t n = (int64_t)b.idx.size();
    if (indices.dim() == 2) {
        if (offsets.defined())
            fail(CT_ERR_INVALID_ARGUMENT, op, ": offsets must be NULL when indices is 2-D (each row is a bag), got shape ",
                 shape_str(offsets.sizes()));
        const int64_t rows = indices.sizes()[0], per = indices.sizes()[1];
        for (int64_t r = 0; r <= rows; ++r) b.start.push_back(r * per);
        return b;
    }
    if (indices.dim() != 1)
        fail(CT_ERR_SHAPE, op, ": indices must be 1-D (with offsets) or 2-D [bags, per_bag], got ", shape_str(indices.sizes()));
    if (!offsets.defined()) fail(CT_ERR_INVALID_ARGUMENT, op, ": offsets are required when indices is 1-D");
    check_index_dtype(op, "offsets", offsets);
    if (offsets.dim() != 1) fail(CT_ERR_SHAPE, op, ": offsets must be 1-D, got ", shape_str(offsets.sizes()));
    std::vector<int64_t> off = host_indices(offsets, n + 1, op, "positions (offsets run from 0 to the index count)");
    if (include_last_offset && off.empty())
        fail(CT_ERR_INVALID_ARGUMENT, op, ": include_last_offset needs at least one offset");
    if (!off.empty() && off[0] != 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": offsets[0] must be 0, got ", off[0]);
    for (size_t i = 1; i < off.size(); ++i)
        if (off[i] < off[i - 1])
            fail(CT_ERR_INVALID_ARGUMENT, op, ": offsets must be non-decreasing, got ", off[i - 1], " then ", off[i],
                 " at position ", i);
    b.start = off;
    if (!include_last_offset) b.start.push_back(n);
    return b;
}

struct BagResult {
    Tensor out, argmax;  // argmax: [bags, dim] int64 row of each maximum (-1 for an empty bag), max mode only
};

// The forward kernel on host tensors: w [num, dim] contiguous, psw (sum mode, may be undefined) per entry.
BagResult bag_forward(const Tensor& w, const Bags& bags, int32_t mode, const Tensor& psw, int64_t padding) {
    const int64_t B = bags.count(), D = w.sizes()[1];
    BagResult r;
    r.out = zeros(Shape{B, D}, w.dtype(), Device{});
    if (mode == CT_EMBEDDING_BAG_MAX) r.argmax = full(Shape{B, D}, -1.0, DType::Int64, Device{});
    dispatch_float(w.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* pw = w.data<T>();
        const T* ps = psw.defined() ? psw.data<T>() : nullptr;
        T* po = r.out.data<T>();
        int64_t* pa = r.argmax.defined() ? r.argmax.data<int64_t>() : nullptr;
        parallel_for(B, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, D)), [&](int64_t b0, int64_t b1) {
            for (int64_t b = b0; b < b1; ++b) {
                T* o = po + b * D;
                int64_t used = 0;
                for (int64_t e = bags.start[(size_t)b]; e < bags.start[(size_t)b + 1]; ++e) {
                    const int64_t row = bags.idx[(size_t)e];
                    if (row == padding) continue;
                    const T* src = pw + row * D;
                    if (mode == CT_EMBEDDING_BAG_MAX) {
                        int64_t* a = pa + b * D;
                        for (int64_t c = 0; c < D; ++c)  // the first maximum wins; a NaN, once there, stays
                            if (used == 0 || src[c] > o[c] || (std::isnan((double)src[c]) && !std::isnan((double)o[c]))) {
                                o[c] = src[c];
                                a[c] = row;
                            }
                    } else {
                        const T s = ps ? ps[e] : T(1);
                        for (int64_t c = 0; c < D; ++c) o[c] += s * src[c];
                    }
                    ++used;
                }
                if (mode == CT_EMBEDDING_BAG_MEAN && used > 0)
                    for (int64_t c = 0; c < D; ++c) o[c] /= (T)used;
            }
        });
    });
    return r;
}

// Gradients of bag_forward: weight's [num, dim] (rows scaled by row_scale's factors) and psw's per entry.
TensorList bag_backward(const Tensor& g_in, const Tensor& w, const Bags& bags, int32_t mode, const Tensor& psw,
                        const Tensor& argmax, int64_t padding, const std::vector<double>& row_scale, bool need_w,
                        bool need_psw) {
    Tensor g = contiguous_nograd(g_in);
    const int64_t num = w.sizes()[0], D = w.sizes()[1], B = bags.count();
    Tensor gw, gp;
    if (need_w) gw = zeros(Shape{num, D}, w.dtype(), Device{});
    if (need_psw) gp = zeros(Shape{(int64_t)bags.idx.size()}, w.dtype(), Device{});
    dispatch_float(w.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* pg = g.data<T>();
        const T* pw = w.data<T>();
        const T* ps = psw.defined() ? psw.data<T>() : nullptr;
        if (need_w) {
            T* po = gw.data<T>();
            // threads own disjoint column ranges, so rows that repeat never race
            parallel_for(D, std::max<int64_t>(8, 65536 / std::max<int64_t>(1, (int64_t)bags.idx.size() + B)),
                         [&](int64_t c0, int64_t c1) {
                for (int64_t b = 0; b < B; ++b) {
                    const T* gb = pg + b * D;
                    if (mode == CT_EMBEDDING_BAG_MAX) {
                        const int64_t* a = argmax.data<int64_t>() + b * D;
                        for (int64_t c = c0; c < c1; ++c)
                            if (a[c] >= 0) po[a[c] * D + c] += gb[c] * (T)row_scale[(size_t)a[c]];
                        continue;
                    }
                    int64_t used = 0;
                    for (int64_t e = bags.start[(size_t)b]; e < bags.start[(size_t)b + 1]; ++e)
                        used += bags.idx[(size_t)e] != padding;
                    for (int64_t e = bags.start[(size_t)b]; e < bags.start[(size_t)b + 1]; ++e) {
                        const int64_t row = bags.idx[(size_t)e];
                        if (row == padding) continue;
                        T s = (ps ? ps[e] : T(1)) * (T)row_scale[(size_t)row];
                        if (mode == CT_EMBEDDING_BAG_MEAN) s /= (T)used;
                        T* dst = po + row * D;
                        for (int64_t c = c0; c < c1; ++c) dst[c] += s * gb[c];
                    }
                }
            });
        }
        if (need_psw) {
            T* pp = gp.data<T>();
            for (int64_t b = 0; b < B; ++b)
                for (int64_t e = bags.start[(size_t)b]; e < bags.start[(size_t)b + 1]; ++e) {
                    const int64_t row = bags.idx[(size_t)e];
                    if (row == padding) continue;
                    double dot = 0;
                    for (int64_t c = 0; c < D; ++c) dot += (double)pg[b * D + c] * (double)pw[row * D + c];
                    pp[e] = (T)dot;
                }
        }
    });
    return {gw, gp};
}

// embedding_bag on host tensors (weight and psw may require grad; the node saves what backward needs).
Tensor embedding_bag_host(const Tensor& weight, const Tensor& indices, const Tensor& offsets, int32_t mode,
                          const Tensor& psw, bool include_last_offset, int64_t padding, bool by_freq) {
    const char* op = "embedding_bag";
    const int64_t num = weight.sizes()[0];
    auto bags = std::make_shared<Bags>(make_bags(op, indices, offsets, include_last_offset, num));
    if (psw.defined() && psw.numel() != (int64_t)bags->idx.size())
        fail(CT_ERR_SHAPE, op, ": per_sample_weights (shape ", shape_str(psw.sizes()), ") must have indices' shape ",
             shape_str(indices.sizes()));
    Tensor w = contiguous_nograd(weight), p = psw.defined() ? contiguous_nograd(psw) : Tensor();
    BagResult r = bag_forward(w, *bags, mode, p, padding);
    bool wants_w = requires_grad(weight), wants_p = psw.defined() && requires_grad(psw);
    if (!(wants_w || wants_p) || !GradMode::is_enabled()) return r.out;
    std::vector<double> row_scale((size_t)num, 1.0);
    if (by_freq) {  // sum and mean bags only (embedding_bag refuses max with it, as torch)
        std::vector<int64_t> count((size_t)num, 0);
        for (int64_t i : bags->idx) ++count[(size_t)i];
        for (int64_t row = 0; row < num; ++row)
            if (count[(size_t)row] > 0) row_scale[(size_t)row] = 1.0 / (double)count[(size_t)row];
    }
    TensorList inputs{weight};
    if (psw.defined()) inputs.push_back(psw);
    auto node = make_node("EmbeddingBagBackward", inputs, [bags, mode, padding, row_scale](BackwardCtx& c) {
        Tensor w = c.saved(0), p = c.saved(1), am = c.saved(2);
        TensorList g = bag_backward(c.grads[0], w, *bags, mode, p.numel() ? p : Tensor(), am.numel() ? am : Tensor(),
                                    padding, row_scale, c.needs(0), c.node.next_edges.size() > 1 && c.needs(1));
        if (c.node.next_edges.size() == 1) g.pop_back();
        return g;
    });
    node->save(w);
    node->save(p.defined() ? p : empty_tensor(Shape{0}, w.dtype(), Device{}));
    node->save(r.argmax.defined() ? r.argmax : empty_tensor(Shape{0}, DType::Int64, Device{}));
    set_history(r.out, node);
    return r.out;
}

}  // namespace

Tensor embedding_ex(const Tensor& weight, const Tensor& indices, std::optional<int64_t> padding_idx,
                    bool scale_grad_by_freq) {
    const char* op = "embedding";
    check_weight(op, weight);
    check_index_dtype(op, "indices", indices);
    check_same_device(op, weight, indices);
    const int64_t num = weight.sizes()[0];
    int64_t padding = padding_idx ? wrap_padding(op, *padding_idx, num) : -1;
    if ((padding < 0 && !scale_grad_by_freq) || !requires_grad(weight) || !GradMode::is_enabled())
        return embedding(weight, indices);
    std::vector<int64_t> idx = host_indices(indices, num, op, "embeddings");
    Tensor scale = row_grad_scale(idx, num, padding, scale_grad_by_freq, weight.dtype(), weight.device());
    return embedding(grad_scaled_alias(weight, scale), indices);
}

void embedding_renorm_(Tensor& weight, const Tensor& indices, double max_norm, double norm_type) {
    const char* op = "embedding_renorm_";
    check_weight(op, weight);
    check_index_dtype(op, "indices", indices);
    check_same_device(op, weight, indices);
    if (!(max_norm > 0)) fail(CT_ERR_INVALID_ARGUMENT, op, ": max_norm must be positive, got ", max_norm);
    if (!(norm_type > 0)) fail(CT_ERR_INVALID_ARGUMENT, op, ": norm_type must be positive, got ", norm_type);
    const int64_t num = weight.sizes()[0], D = weight.sizes()[1];
    std::vector<int64_t> idx = host_indices(indices, num, op, "embeddings");
    std::vector<char> seen((size_t)num, 0);
    Tensor host = contiguous_nograd(weight.device().is_cpu() ? detach(weight) : to_device(detach(weight), Device{}));
    if (is_half(host.dtype())) host = cast_nograd(host, DType::Float32);  // Note [Half compute]: rounded back below
    bool changed = false;
    dispatch_float(host.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* pw = host.data<T>();
        for (int64_t row : idx) {
            if (seen[(size_t)row]) continue;
            seen[(size_t)row] = 1;
            T* r = pw + row * D;
            double norm = 0;
            if (std::isinf(norm_type)) {
                for (int64_t c = 0; c < D; ++c) norm = std::max(norm, std::fabs((double)r[c]));
            } else {
                for (int64_t c = 0; c < D; ++c) norm += std::pow(std::fabs((double)r[c]), norm_type);
                norm = std::pow(norm, 1.0 / norm_type);
            }
            if (norm > max_norm) {  // torch's factor: max_norm / (norm + 1e-7)
                const double scale = max_norm / (norm + 1e-7);
                for (int64_t c = 0; c < D; ++c) r[c] = (T)((double)r[c] * scale);
                changed = true;
            }
        }
    });
    if (!changed) return;
    if (!host.is_same(weight) && host.storage() != weight.storage()) copy_into(weight, host);
    weight.bump_version();
}

Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets, int32_t mode,
                     const Tensor& per_sample_weights, bool include_last_offset, std::optional<int64_t> padding_idx,
                     bool scale_grad_by_freq) {
    if (auto h = half_dtype_of(weight, per_sample_weights))
        return round_results(embedding_bag(as_float32(weight), indices, offsets, mode, as_float32(per_sample_weights),
                                           // Note [Half compute]
                                           include_last_offset, padding_idx, scale_grad_by_freq), *h);
    const char* op = "embedding_bag";
    check_weight(op, weight);
    check_index_dtype(op, "indices", indices);
    check_same_device(op, weight, indices);
    if (offsets.defined()) check_same_device(op, weight, offsets);
    if (mode != CT_EMBEDDING_BAG_SUM && mode != CT_EMBEDDING_BAG_MEAN && mode != CT_EMBEDDING_BAG_MAX)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": mode must be CT_EMBEDDING_BAG_SUM, _MEAN or _MAX, got ", mode);
    if (mode == CT_EMBEDDING_BAG_MAX && scale_grad_by_freq)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": max mode does not support scaling the gradient by the frequency");
    const Tensor& psw = per_sample_weights;
    if (psw.defined()) {
        if (mode != CT_EMBEDDING_BAG_SUM)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": per_sample_weights is only supported for mode sum, got mode ",
                 mode == CT_EMBEDDING_BAG_MEAN ? "mean" : "max");
        check_same_device(op, weight, psw);
        if (psw.dtype() != weight.dtype())
            fail(CT_ERR_DTYPE, op, ": per_sample_weights dtype ", dtype_name(psw.dtype()), " differs from weight's ",
                 dtype_name(weight.dtype()));
        if (psw.sizes() != indices.sizes())
            fail(CT_ERR_SHAPE, op, ": per_sample_weights (shape ", shape_str(psw.sizes()), ") must have indices' shape ",
                 shape_str(indices.sizes()));
    }
    const int64_t padding = padding_idx ? wrap_padding(op, *padding_idx, weight.sizes()[0]) : -1;
    if (weight.device().is_cpu())
        return embedding_bag_host(weight, indices, offsets, mode, psw, include_last_offset, padding, scale_grad_by_freq);
    // CUDA: the same kernel on host copies; the moves are differentiable, so gradients come back to the device
    Device host{};
    Tensor out = embedding_bag_host(to_device(weight, host), to_device(indices, host),
                                    offsets.defined() ? to_device(offsets, host) : Tensor(), mode,
                                    psw.defined() ? to_device(psw, host) : Tensor(), include_last_offset, padding,
                                    scale_grad_by_freq);
    return to_device(out, weight.device());
}

}  // namespace ct

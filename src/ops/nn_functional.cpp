// nn_functional.cpp - linear (one gemm node, closed under its own backward), softmax / log_softmax along any
// dim (stable direct kernels), dropout and embedding. First-order backward passes use direct kernels; under
// create_graph the backward is written with ops so that higher derivatives work.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")  // lets the NaN-aware selects in cpu/nn_rows.h vectorise
#endif
#include <cmath>
#include <cstring>
#include "autograd/grad_mode.h"
#include "core/generator.h"
#include "cpu/nn_blas.h"
#include "cpu/nn_rows.h"
#include "ops/half_compute.h"
#include "ops/device_gemm.h"
#include "ops/nn_common.h"

namespace ct {

// ---- linear ---------------------------------------------------------------------------------------------

namespace {

void check_linear_args(const Tensor& x, const Tensor& w, const Tensor& b) {
    check_same_device("linear", x, w);
    if (b.defined()) check_same_device("linear", x, b);
    if (x.dim() < 1) fail(CT_ERR_SHAPE, "linear: input must have at least 1 dim, got a 0-d tensor");
    if (w.dim() != 2)
        fail(CT_ERR_SHAPE, "linear: weight must be 2-D [out_features, in_features], got ", shape_str(w.sizes()));
    if (x.sizes().back() != w.sizes()[1])
        fail(CT_ERR_SHAPE, "linear: input shape ", shape_str(x.sizes()), " does not match weight shape ",
             shape_str(w.sizes()), " (last input dim ", x.sizes().back(), " vs in_features ", w.sizes()[1], ")");
    if (!is_complex(x.dtype())) check_floating("linear", x);
    bool same = w.dtype() == x.dtype() && (!b.defined() || b.dtype() == x.dtype());
    if (!same)
        fail(CT_ERR_DTYPE, "linear: input (", dtype_name(x.dtype()), "), weight (", dtype_name(w.dtype()), ")",
             b.defined() ? std::string(" and bias (") + dtype_name(b.dtype()) + ")" : std::string(),
             " must have the same dtype");
    if (b.defined() && (b.dim() > 1 || (b.numel() != w.sizes()[0] && b.numel() != 1)))
        fail(CT_ERR_SHAPE, "linear: bias of shape ", shape_str(b.sizes()), " does not match out_features ",
             w.sizes()[0]);
}

// x viewed (or copied) as a 2-D matrix [numel / cols, cols], without autograd.
Tensor as_matrix(const Tensor& x, int64_t cols) {
    if (x.dim() == 2) return x;
    int64_t rows = 1;  // the leading dims' product (not numel / cols: cols may be 0 while rows are not)
    for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.sizes()[d];  // fits: Note [Shape bound]
    if (x.dim() == 1) return make_view(x, {1, cols}, {cols, x.strides()[0]}, x.offset());
    Tensor c = x.is_contiguous() ? x : contiguous_nograd(x);
    return make_view(c, {rows, cols}, {cols, 1}, c.offset());
}

Tensor linear_forward(const Tensor& x, const Tensor& w, const Tensor& b) {
    const int64_t in = w.sizes()[1], outf = w.sizes()[0];
    Tensor x2 = as_matrix(x, in);
    const int64_t m = x2.sizes()[0];
    Tensor out = empty_tensor({m, outf}, x.dtype(), x.device());
    if (!x.device().is_cpu()) {  // bias rows copied in, then one cuBLAS gemm accumulating onto them
        if (b.defined()) copy_into(out, broadcast_view(b, {m, outf}));
        cuda_matmul_into("linear", out, x2, make_view(w, {in, outf}, {w.strides()[1], w.strides()[0]}, w.offset()), {},
                         b.defined() ? 1.0 : 0.0);
    } else dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T beta = T(0);
        if (b.defined()) {
            Tensor bc = contiguous_nograd(b);
            const T* pb = bc.data<T>();
            T* po = out.data<T>();
            bool scalar_bias = bc.numel() == 1;
            parallel_for(m, std::max<int64_t>(1, 16384 / std::max<int64_t>(outf, 1)), [&](int64_t r0, int64_t r1) {
                for (int64_t r = r0; r < r1; ++r)
                    for (int64_t j = 0; j < outf; ++j) po[r * outf + j] = scalar_bias ? pb[0] : pb[j];
            });
            beta = T(1);
        }
        gemm_into<T>(out, x2, make_view(w, {in, outf}, {w.strides()[1], w.strides()[0]}, w.offset()), beta);
    });
    Shape shape = x.sizes();
    shape.back() = outf;
    return make_view(out, shape, contiguous_strides(shape), 0);
}

// The bias gradient: g2 [rows, outf] summed over rows, shaped like the bias. On CUDA it is written as products
// with ones (cuBLAS), which needs no reduction kernel and stays differentiable.
Tensor bias_grad(const Tensor& g2, const Shape& bias_shape) {
    if (g2.device().is_cpu()) return sum_to(sum(g2, {0}, false), bias_shape);
    Tensor cols = matmul(ones({g2.sizes()[0]}, g2.dtype(), g2.device()), g2);
    int64_t bias_numel = 1;
    for (int64_t s : bias_shape) bias_numel *= s;
    if (bias_numel != cols.numel()) cols = matmul(cols, ones({cols.numel()}, g2.dtype(), g2.device()));
    return reshape(cols, bias_shape);
}

}  // namespace

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    check_linear_args(x, weight, bias);
    if (is_half(x.dtype()) && x.device().is_cpu())  // Note [Half compute]; CUDA: GemmEx (Note [Half on CUDA])
        return round_to_half(linear(half_to_float32(x), half_to_float32(weight),
                                    bias.defined() ? half_to_float32(bias) : bias), x.dtype());
    if (is_complex(x.dtype())) {  // x @ W^T through matmul's cgemm/zgemm (its backward conjugates by BLAS flags)
        Tensor out = matmul(x, transpose(weight, 0, 1));
        return bias.defined() ? add(out, bias, 1.0) : out;
    }
    Tensor out = linear_forward(x, weight, bias);
    if (!any_requires_grad({x, weight, bias})) return out;
    Shape bias_shape = bias.defined() ? bias.sizes() : Shape{};
    int64_t in = weight.sizes()[1], outf = weight.sizes()[0];
    // grad_x = g @ W = linear(g, W^T); grad_W = g2^T @ x2 = linear(g2^T, x2^T); grad_b = sum of g over rows.
    auto node = make_node("LinearBackward", {x, weight, bias}, [=](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor x = c.saved(0), w = c.saved(1), gx, gw, gb;
        if (c.needs(0)) gx = linear(g, transpose(w, 0, 1), Tensor());
        Tensor g2 = reshape(g, {-1, outf});
        if (c.needs(1)) gw = linear(transpose(g2, 0, 1), transpose(reshape(x, {-1, in}), 0, 1), Tensor());
        if (c.needs(2)) gb = bias_grad(g2, bias_shape);
        return {gx, gw, gb};
    });
    node->save(x);
    node->save(weight);
    set_history(out, node);
    return out;
}

// ---- softmax / log_softmax ------------------------------------------------------------------------------

namespace {

// One contiguous row (the softmax dim is innermost).
template <typename T, bool Log> void softmax_row(const T* x, T* y, int64_t n) {
    const T mx = row_max(x, n);
    const double s = row_sum_exp<!Log>(x, n, mx, y);
    if (Log) {  // (x - max) - log(s): max + log(s) would round to T's spacing at max (6e-5 for 1000 in float32)
        const T ls = (T)std::log(s);
        for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - mx) - ls;
    } else {
        const T inv = (T)(1.0 / s);
        for (int64_t j = 0; j < n; ++j) y[j] *= inv;
    }
}

// w <= kColBlock adjacent columns of n elements each, `stride` apart (the softmax dim is not innermost).
constexpr int64_t kColBlock = 64;
template <typename T, bool Log> void softmax_cols(const T* x, T* y, int64_t n, int64_t stride, int64_t w) {
    T mx[kColBlock];
    double sum[kColBlock];
    for (int64_t l = 0; l < w; ++l) mx[l] = -INFINITY, sum[l] = 0.0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t l = 0; l < w; ++l) mx[l] = max_nan(mx[l], x[j * stride + l]);
    for (int64_t j = 0; j < n; ++j) {
        T* yr = y + j * stride;
        for (int64_t l = 0; l < w; ++l) yr[l] = x[j * stride + l] - mx[l];
        exp_shifted(yr, yr, w, T(0));
        for (int64_t l = 0; l < w; ++l) sum[l] += (double)yr[l];
    }
    T ls[kColBlock], inv[kColBlock];
    for (int64_t l = 0; l < w; ++l) ls[l] = (T)std::log(sum[l]), inv[l] = (T)(1.0 / sum[l]);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t l = 0; l < w; ++l) {
            const int64_t i = j * stride + l;
            y[i] = Log ? (x[i] - mx[l]) - ls[l] : y[i] * inv[l];
        }
}

// grad_x of softmax (Log false: y * (g - sum(g * y))) or log_softmax (Log true: g - exp(y) * sum(g)).
template <typename T, bool Log> void softmax_backward_row(const T* g, const T* y, T* gx, int64_t n) {
    const T s = (T)row_dot<!Log>(g, y, n);
    if (Log) {
        exp_shifted(y, gx, n, T(0));
        for (int64_t j = 0; j < n; ++j) gx[j] = g[j] - gx[j] * s;
    } else {
        for (int64_t j = 0; j < n; ++j) gx[j] = y[j] * (g[j] - s);
    }
}

template <typename T, bool Log>
void softmax_backward_cols(const T* g, const T* y, T* gx, int64_t n, int64_t stride, int64_t w) {
    double acc[kColBlock];
    for (int64_t l = 0; l < w; ++l) acc[l] = 0.0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t l = 0; l < w; ++l) {
            const int64_t i = j * stride + l;
            acc[l] += Log ? (double)g[i] : (double)g[i] * y[i];
        }
    T s[kColBlock];
    for (int64_t l = 0; l < w; ++l) s[l] = (T)acc[l];
    for (int64_t j = 0; j < n; ++j) {
        const T *gr = g + j * stride, *yr = y + j * stride;
        T* xr = gx + j * stride;
        if (Log) {
            exp_shifted(yr, xr, w, T(0));
            for (int64_t l = 0; l < w; ++l) xr[l] = gr[l] - xr[l] * s[l];
        } else {
            for (int64_t l = 0; l < w; ++l) xr[l] = yr[l] * (gr[l] - s[l]);
        }
    }
}

// Runs row(offset) for every contiguous row (inner == 1), or cols(offset, width) over blocks of up to
// kColBlock adjacent columns, in parallel.
template <typename Row, typename Cols> void for_each_row_block(const DimLayout& L, Row row, Cols cols) {
    if (L.inner == 1) {
        parallel_for(L.outer, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, L.n)), [&](int64_t r0, int64_t r1) {
            for (int64_t r = r0; r < r1; ++r) row(r * L.n);
        });
        return;
    }
    const int64_t blocks = (L.inner + kColBlock - 1) / kColBlock, total = L.outer * blocks;
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, L.n * std::min(L.inner, kColBlock)));
    parallel_for(total, grain, [&](int64_t b0, int64_t b1) {
        for (int64_t t = b0; t < b1; ++t) {
            const int64_t o = t / blocks, l0 = (t % blocks) * kColBlock;
            cols(o * L.n * L.inner + l0, std::min(kColBlock, L.inner - l0));
        }
    });
}

template <bool Log> Tensor softmax_kernel(const Tensor& x, int64_t d) {
    Tensor xc = contiguous_nograd(x);
    Tensor y = empty_tensor(x.sizes(), x.dtype(), x.device());
    if (y.numel() == 0) return y;  // never loop over the other dims of an empty tensor
    DimLayout L = dim_layout(x.sizes(), d);
    if (!x.device().is_cpu()) {
        const char* op = Log ? "log_softmax" : "softmax";
        const int32_t dev = x.device().index;
        cuda_check(op, cuda_device_backend(op, dev).softmax(dev, (int32_t)x.dtype(), Log, L.outer, L.n, L.inner,
                                                             xc.device_data(), y.device_data()));
        return y;
    }
    dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* px = xc.data<T>();
        T* py = y.data<T>();
        for_each_row_block(
            L, [&](int64_t off) { softmax_row<T, Log>(px + off, py + off, L.n); },
            [&](int64_t off, int64_t w) { softmax_cols<T, Log>(px + off, py + off, L.n, L.inner, w); });
    });
    return y;
}

template <bool Log> Tensor softmax_backward_kernel(const Tensor& g, const Tensor& y, int64_t d) {
    Tensor gc = contiguous_nograd(g), yc = contiguous_nograd(y);
    Tensor gx = empty_tensor(y.sizes(), y.dtype(), y.device());
    if (gx.numel() == 0) return gx;
    DimLayout L = dim_layout(y.sizes(), d);
    if (!y.device().is_cpu()) {
        const char* op = Log ? "log_softmax_backward" : "softmax_backward";
        const int32_t dev = y.device().index;
        cuda_check(op, cuda_device_backend(op, dev).softmax_backward(dev, (int32_t)y.dtype(), Log, L.outer, L.n,
                                                                      L.inner, gc.device_data(), yc.device_data(),
                                                                      gx.device_data()));
        return gx;
    }
    dispatch_float(y.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T *pg = gc.data<T>(), *py = yc.data<T>();
        T* px = gx.data<T>();
        for_each_row_block(
            L, [&](int64_t off) { softmax_backward_row<T, Log>(pg + off, py + off, px + off, L.n); },
            [&](int64_t off, int64_t w) {
                softmax_backward_cols<T, Log>(pg + off, py + off, px + off, L.n, L.inner, w);
            });
    });
    return gx;
}

template <bool Log> Tensor softmax_impl(const Tensor& x, int64_t dim, const char* op) {
    check_floating(op, x);
    // Note [Half compute] on the CPU; on CUDA the row kernels take half natively (Note [Native half on CUDA]:
    // forward bit-equal to the fallback; the backward reads the saved half output, as torch's)
    if (is_half(x.dtype()) && !native_half(x))
        return round_to_half(softmax_impl<Log>(half_to_float32(x), dim, op), x.dtype());
    int64_t d = wrap_dim(dim, std::max<int64_t>(x.dim(), 1), op);
    Tensor y = softmax_kernel<Log>(x, d);
    if (!requires_grad(x)) return y;
    auto node = make_node(Log ? "LogSoftmaxBackward" : "SoftmaxBackward", {x}, [d](BackwardCtx& c) {
        const Tensor& g = c.grads[0];
        Tensor y = c.saved(0);
        if (!GradMode::is_enabled()) return TensorList{softmax_backward_kernel<Log>(g, y, d)};
        IntList dims = y.dim() == 0 ? IntList{} : IntList{d};
        if (Log) return TensorList{sub(g, mul(exp(y), sum(g, dims, true)))};
        return TensorList{mul(y, sub(g, sum(mul(g, y), dims, true)))};
    });
    set_history(y, node);
    node->save_output(y);  // after set_history (Note [Saved outputs])
    return y;
}

}  // namespace

DimLayout dim_layout(const Shape& sizes, int64_t d) {
    DimLayout L{1, 1, 1};
    for (int64_t i = 0; i < (int64_t)sizes.size(); ++i) {
        if (i < d) L.outer *= sizes[i];
        else if (i == d) L.n = sizes[i];
        else L.inner *= sizes[i];
    }
    return L;
}

Tensor contiguous_nograd(const Tensor& t) {
    if (t.is_contiguous()) return t;
    Tensor c = empty_tensor(t.sizes(), t.dtype(), t.device());
    copy_into(c, t);
    return c;
}

Tensor softmax(const Tensor& x, int64_t dim) { return softmax_impl<false>(x, dim, "softmax"); }
Tensor log_softmax(const Tensor& x, int64_t dim) { return softmax_impl<true>(x, dim, "log_softmax"); }

// ---- dropout --------------------------------------------------------------------------------------------

namespace {

// Mask of x's shape and dtype holding 0 (dropped, probability p) or 1 / (1 - p) (kept). One Philox block gives
// the uniforms of four consecutive elements, so the mask depends on the generator state, not on threads. A mask
// for a CUDA tensor is drawn on the host and copied, so it is the CPU's mask for the same seed.
Tensor dropout_mask(const Tensor& x, double p, Generator* gen) {
    Tensor mask = empty_tensor(x.sizes(), x.dtype(), Device{});
    const int64_t n = mask.numel(), blocks = (n + 3) / 4;
    PhiloxStream stream = generator_or_default(gen).reserve((uint64_t)blocks);
    const float keep_below = (float)(1.0 - p);  // keep when uniform < 1 - p
    dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* m = mask.data<T>();
        const T scale = p < 1.0 ? (T)(1.0 / (1.0 - p)) : T(0);
        parallel_for(blocks, 4096, [&](int64_t b0, int64_t b1) {
            for (int64_t b = b0; b < b1; ++b) {
                PhiloxWords w = stream.block((uint64_t)b);
                for (int64_t k = 0; k < 4 && 4 * b + k < n; ++k)
                    m[4 * b + k] = uniform24(w[k]) < keep_below ? scale : T(0);
            }
        });
    });
    return x.device().is_cpu() ? mask : copy_to_device(mask, x.device());
}

}  // namespace

Tensor dropout(const Tensor& x, double p, bool training, Generator* gen) {
    if (!(p >= 0.0 && p <= 1.0)) fail(CT_ERR_INVALID_ARGUMENT, "dropout: probability p must be in [0, 1], got ", p);
    if (!training) return x;
    check_floating("dropout", x);
    if (is_half(x.dtype())) return round_to_half(dropout(half_to_float32(x), p, training, gen), x.dtype());  // Note [Half compute]
    check_device_usable("dropout", x.device());
    Tensor mask = dropout_mask(x, p, gen);
    Tensor xc = contiguous_nograd(x), out;
    if (!x.device().is_cpu()) out = mul(detach(xc), mask);  // the binary kernel; the node is recorded below
    else out = empty_tensor(x.sizes(), x.dtype(), x.device());
    if (x.device().is_cpu()) dispatch_float(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T *px = xc.data<T>(), *pm = mask.data<T>();
        T* po = out.data<T>();
        parallel_for(out.numel(), kElementwiseGrain, [&](int64_t i0, int64_t i1) {
            for (int64_t i = i0; i < i1; ++i) po[i] = px[i] * pm[i];
        });
    });
    if (!requires_grad(x)) return out;
    auto node = make_node("DropoutBackward", {x}, [](BackwardCtx& c) {
        return TensorList{mul(c.grads[0], c.saved(0))};  // the same mask (saved 0), already scaled
    });
    node->save(mask);
    set_history(out, node);
    return out;
}

// ---- embedding ------------------------------------------------------------------------------------------

namespace {

// Index values as int64 (contiguous), each checked against [0, num); throws CT_ERR_INDEX naming op.
std::vector<int64_t> checked_indices(const Tensor& idx, int64_t num, const char* op, const char* what) {
    Tensor c = idx.device().is_cpu() ? contiguous_nograd(idx) : copy_to_device(idx, Device{});
    std::vector<int64_t> v((size_t)c.numel());
    if (v.empty()) return v;  // no memcpy: an empty vector's data() may be NULL
    if (c.dtype() == DType::Int64) std::memcpy(v.data(), c.raw_data(), v.size() * sizeof(int64_t));
    else for (size_t i = 0; i < v.size(); ++i) v[i] = c.data<int32_t>()[i];
    for (int64_t i : v)
        if (i < 0 || i >= num) fail(CT_ERR_INDEX, op, ": index ", i, " is out of range for ", num, " ", what);
    return v;
}

// Sums the rows of g ([count, dim] contiguous) into rows idx of a new [num, dim] tensor (repeats accumulate).
Tensor embedding_backward_kernel(const Tensor& g, const std::vector<int64_t>& idx, int64_t num) {
    const int64_t dim = g.sizes()[1];
    Tensor out = zeros({num, dim}, g.dtype(), g.device());
    dispatch_float(g.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* pg = g.data<T>();
        T* po = out.data<T>();
        // Threads own disjoint column ranges, so repeated indices never race.
        int64_t grain = std::max<int64_t>(8, 65536 / std::max<int64_t>(1, (int64_t)idx.size()));
        parallel_for(dim, grain, [&](int64_t c0, int64_t c1) {
            for (size_t i = 0; i < idx.size(); ++i) {
                const T* src = pg + (int64_t)i * dim;
                T* dst = po + idx[i] * dim;
                for (int64_t c = c0; c < c1; ++c) dst[c] += src[c];
            }
        });
    });
    return out;
}

// The weight gradient of embedding: linear in g, so its own backward is embedding(gg, indices).
Tensor embedding_backward(const Tensor& g, const Tensor& indices, int64_t num) {
    const int64_t dim = g.sizes().back();
    Tensor gc = contiguous_nograd(g);
    Tensor g2 = make_view(gc, {indices.numel(), dim}, {dim, 1}, gc.offset());
    Tensor out = embedding_backward_kernel(g2, checked_indices(indices, num, "embedding", "embeddings"), num);
    if (!requires_grad(g)) return out;
    auto node = make_node("EmbeddingBackwardBackward", {g}, [](BackwardCtx& c) {
        return TensorList{embedding(c.grads[0], c.saved(0))};
    });
    node->save(indices);
    set_history(out, node);
    return out;
}

// Records embedding's node on out (when weight requires grad) and returns out.
Tensor record_embedding(Tensor out, const Tensor& weight, const Tensor& indices, int64_t num) {
    if (!requires_grad(weight)) return out;
    auto node = make_node("EmbeddingBackward", {weight}, [num](BackwardCtx& c) {
        return TensorList{embedding_backward(c.grads[0], c.saved(0), num)};
    });
    node->save(indices);
    set_history(out, node);
    return out;
}

}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices) {
    if (is_half(weight.dtype()))  // Note [Half compute]
        return round_to_half(embedding(half_to_float32(weight), indices), weight.dtype());
    check_same_device("embedding", weight, indices);
    if (weight.dim() != 2)
        fail(CT_ERR_SHAPE, "embedding: weight must be 2-D [num_embeddings, embedding_dim], got ",
             shape_str(weight.sizes()));
    if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
        fail(CT_ERR_DTYPE, "embedding: indices must be int64 or int32, got ", dtype_name(indices.dtype()));
    const int64_t num = weight.sizes()[0], dim = weight.sizes()[1];
    std::vector<int64_t> idx = checked_indices(indices, num, "embedding", "embeddings");
    Shape shape = indices.sizes();
    shape.push_back(dim);
    if (!weight.device().is_cpu())  // rows gathered by index_select (its backward is scatter_add on the device)
        return reshape(index_select(weight, 0, reshape(indices, {-1})), shape);
    Tensor out = empty_tensor(shape, weight.dtype(), weight.device());
    if (out.numel() == 0) return record_embedding(out, weight, indices, num);
    const int64_t s0 = weight.strides()[0], s1 = weight.strides()[1];
    dispatch_all(weight.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* pw = weight.data<T>();
        T* po = out.data<T>();
        const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, dim));
        parallel_for((int64_t)idx.size(), grain, [&](int64_t i0, int64_t i1) {
            for (int64_t i = i0; i < i1; ++i) {
                const T* src = pw + idx[(size_t)i] * s0;
                T* dst = po + i * dim;
                if (s1 == 1) std::memcpy(dst, src, (size_t)dim * sizeof(T));
                else for (int64_t c = 0; c < dim; ++c) dst[c] = src[c * s1];
            }
        });
    });
    return record_embedding(out, weight, indices, num);
}

}  // namespace ct

// device_conv.cpp - N-d convolution and pooling of CUDA tensors (see device_conv.h). Samples are processed in chunks
// whose im2col matrix fits a memory budget; each group's gemm is one strided-batched cuBLAS call over the chunk.
// The weight gradient lays col out group-major ([G, K, samples, P]) so that one gemm sums over the samples.
#include "ops/device_conv.h"
#include <algorithm>
#include <cstdlib>
#include "ops/device_ops.h"

namespace ct {
namespace {

// Bytes of im2col scratch per chunk of samples: 128 MiB, or $CTENSOR_CUDA_CONV_WORKSPACE (read per call).
int64_t col_budget_bytes() {
    const char* v = std::getenv("CTENSOR_CUDA_CONV_WORKSPACE");
    const long long n = v && *v ? std::atoll(v) : 0;
    return n > 0 ? (int64_t)n : int64_t(128) << 20;
}

struct Sizes {
    int64_t G, Cg, Og, K, P, in_sample;  // K = rows of one group's col matrix, P = output plane
};
Sizes sizes_of(const CudaConv& c) {
    const ct_cuda_conv_nd& g = c.g;
    const int64_t Cg = g.C / g.groups;
    return Sizes{g.groups, Cg, c.O / g.groups, Cg * g.k[0] * g.k[1] * g.k[2], g.out[0] * g.out[1] * g.out[2],
                 g.C * g.in[0] * g.in[1] * g.in[2]};
}

// 1x..x1 kernel, stride 1, no padding, output as large as the input: the input is its own im2col matrix.
bool is_pointwise(const ct_cuda_conv_nd& g) {
    for (int d = 0; d < 3; ++d)
        if (g.k[d] != 1 || g.stride[d] != 1 || g.padding[d] != 0 || g.out[d] != g.in[d]) return false;
    return true;
}

// Samples per chunk so that a chunk's col (G * K * P per sample) stays within the budget (at least 1).
int64_t chunk_samples(const Sizes& s, int64_t N, size_t item) {
    const int64_t per_sample = std::max<int64_t>(1, s.G * s.K * s.P * (int64_t)item);
    return std::max<int64_t>(1, std::min<int64_t>(N, col_budget_bytes() / per_sample));
}

char* at(const Tensor& t, int64_t elements) { return static_cast<char*>(t.device_data()) + elements * t.itemsize(); }

struct Gemm {  // one row-major strided-batched call of the backend's gemm entry
    const ct_cuda_backend& be;
    int32_t dev, dtype;
    void operator()(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void* a, int64_t lda, int64_t sa,
                    const void* b, int64_t ldb, int64_t sb, double beta, void* c, int64_t ldc, int64_t sc,
                    int64_t batch) const {
        cuda_check("convolution", be.gemm(dev, dtype, ta, tb, m, n, k, 1.0, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch));
    }
};

Gemm gemm_for(const Tensor& t) {
    const int32_t dev = t.device().index;
    return Gemm{cuda_device_backend("convolution", dev), dev, (int32_t)t.dtype()};
}

}  // namespace

Tensor cuda_conv_forward(const Tensor& x, const Tensor& w, const Tensor& b, const CudaConv& c) {
    const Sizes s = sizes_of(c);
    const int64_t N = c.N, O = c.O;
    Tensor out = empty_tensor(c.out_shape, x.dtype(), x.device());
    if (out.numel() == 0) return out;
    if (b.defined())  // out[n, o, p] = b[o]; the gemms then add with beta = 1
        copy_into(make_view(out, {N, O, s.P}, {O * s.P, s.P, 1}, 0),
                  make_view(b, {N, O, s.P}, {0, b.strides()[0], 0}, b.offset()));
    else if (s.K == 0)
        fill_into(out, 0.0);
    if (s.K == 0) return out;
    const Gemm gemm = gemm_for(x);
    const ct_cuda_backend& be = gemm.be;
    const bool pointwise = is_pointwise(c.g);
    const int64_t chunk = pointwise ? N : chunk_samples(s, N, x.itemsize());
    Tensor col = pointwise ? Tensor() : empty_tensor({chunk * s.G * s.K * s.P}, x.dtype(), x.device());
    const int64_t col_strides[3] = {s.G * s.K * s.P, s.K * s.P, s.P};  // sample-major
    for (int64_t n0 = 0; n0 < N; n0 += chunk) {
        const int64_t cnt = std::min(chunk, N - n0);
        const char* src = at(x, n0 * s.in_sample);
        if (!pointwise)
            cuda_check("convolution", be.im2col_nd(gemm.dev, gemm.dtype, &c.g, cnt, src, col.device_data(), col_strides));
        const char* cm = pointwise ? src : static_cast<const char*>(col.device_data());
        for (int64_t g = 0; g < s.G; ++g)  // out[n, g] = W_g [Og, K] @ col[n, g] [K, P] for n in the chunk
            gemm(false, false, s.Og, s.P, s.K, at(w, g * s.Og * s.K), s.K, 0, cm + g * s.K * s.P * x.itemsize(), s.P,
                 s.G * s.K * s.P, b.defined() ? 1.0 : 0.0, at(out, (n0 * O + g * s.Og) * s.P), s.P, O * s.P, cnt);
    }
    return out;
}

Tensor cuda_conv_input_grad(const Tensor& go, const Tensor& w, const CudaConv& c) {
    const Sizes s = sizes_of(c);
    const int64_t N = c.N, O = c.O;
    Tensor gx = empty_tensor(c.x_shape, go.dtype(), go.device());
    if (gx.numel() == 0) return gx;
    if (O == 0 || s.P == 0) {
        fill_into(gx, 0.0);
        return gx;
    }
    const Gemm gemm = gemm_for(go);
    const bool pointwise = is_pointwise(c.g);
    const int64_t chunk = pointwise ? N : chunk_samples(s, N, go.itemsize());
    Tensor col = pointwise ? Tensor() : empty_tensor({chunk * s.G * s.K * s.P}, go.dtype(), go.device());
    for (int64_t n0 = 0; n0 < N; n0 += chunk) {
        const int64_t cnt = std::min(chunk, N - n0);
        char* dst = pointwise ? at(gx, n0 * s.in_sample) : static_cast<char*>(col.device_data());
        for (int64_t g = 0; g < s.G; ++g)  // col[n, g] [K, P] = W_g^T @ go[n, g] [Og, P]
            gemm(true, false, s.K, s.P, s.Og, at(w, g * s.Og * s.K), s.K, 0, at(go, (n0 * O + g * s.Og) * s.P), s.P,
                 O * s.P, 0.0, dst + g * s.K * s.P * go.itemsize(), s.P, s.G * s.K * s.P, cnt);
        if (!pointwise)
            cuda_check("convolution", gemm.be.col2im_nd(gemm.dev, gemm.dtype, &c.g, cnt, col.device_data(),
                                                         at(gx, n0 * s.in_sample)));
    }
    return gx;
}

Tensor cuda_conv_weight_grad(const Tensor& go, const Tensor& x, const CudaConv& c) {
    const Sizes s = sizes_of(c);
    const int64_t N = c.N, O = c.O;
    Tensor gw = empty_tensor(c.w_shape, go.dtype(), go.device());
    if (gw.numel() == 0) return gw;
    if (N == 0 || s.P == 0) {
        fill_into(gw, 0.0);
        return gw;
    }
    const Gemm gemm = gemm_for(go);
    const int64_t chunk = chunk_samples(s, N, go.itemsize());
    Tensor col = empty_tensor({chunk * s.G * s.K * s.P}, go.dtype(), go.device());
    Tensor gop = empty_tensor({chunk * O * s.P}, go.dtype(), go.device());
    for (int64_t n0 = 0; n0 < N; n0 += chunk) {
        const int64_t cnt = std::min(chunk, N - n0), np = cnt * s.P;
        // go[n0 + n, g, o, p] -> gop[g, o, n, p]; x's taps -> col[g, r, n, p] (group-major)
        copy_into(make_view(gop, {cnt, s.G, s.Og, s.P}, {s.P, s.Og * np, np, 1}, 0),
                  make_view(go, {cnt, s.G, s.Og, s.P}, {O * s.P, s.Og * s.P, s.P, 1}, go.offset() + n0 * O * s.P));
        const int64_t col_strides[3] = {s.P, s.K * np, np};
        cuda_check("convolution", gemm.be.im2col_nd(gemm.dev, gemm.dtype, &c.g, cnt, at(x, n0 * s.in_sample),
                                                    col.device_data(), col_strides));
        // gw[g] [Og, K] (+)= gop[g] [Og, cnt * P] @ col[g]^T [cnt * P, K], one batch per group
        gemm(false, true, s.Og, s.K, np, gop.device_data(), np, s.Og * np, col.device_data(), np, s.K * np,
             n0 == 0 ? 0.0 : 1.0, gw.device_data(), s.K, s.Og * s.K, s.G);
    }
    return gw;
}

Tensor cuda_unfold(const Tensor& x, const CudaConv& c, const Shape& col_shape) {
    Tensor col = empty_tensor(col_shape, x.dtype(), x.device());
    if (col.numel() == 0) return col;
    const Sizes s = sizes_of(c);
    const Gemm gemm = gemm_for(x);
    const int64_t col_strides[3] = {s.K * s.P, 0, s.P};  // sample-major, one group
    cuda_check("unfold", gemm.be.im2col_nd(gemm.dev, gemm.dtype, &c.g, c.N, x.device_data(), col.device_data(),
                                           col_strides));
    return col;
}

Tensor cuda_fold(const Tensor& col, const CudaConv& c) {
    Tensor x = empty_tensor(c.x_shape, col.dtype(), col.device());
    if (x.numel() == 0) return x;
    const Gemm gemm = gemm_for(col);
    if (col.numel() == 0) {
        fill_into(x, 0.0);
        return x;
    }
    cuda_check("fold", gemm.be.col2im_nd(gemm.dev, gemm.dtype, &c.g, c.N, col.device_data(), x.device_data()));
    return x;
}

Tensor cuda_pool2d(int32_t op, const ct_cuda_pool2d_ex& g, const Tensor& in, const Tensor& idx, const Shape& out_shape,
                   Tensor* out_idx) {
    Tensor out = empty_tensor(out_shape, in.dtype(), in.device());
    Tensor ix = op == CT_CUDA_MAX_POOL ? empty_tensor(out_shape, DType::Int64, in.device()) : Tensor();
    if (in.numel() == 0 || out.numel() == 0) {  // no work: never launch over a dim of an empty result
        if (out.numel() > 0) fill_into(out, 0.0);
        if (out_idx) *out_idx = ix;
        return out;
    }
    const int32_t dev = in.device().index;
    const bool avg = op == CT_CUDA_AVG_POOL || op == CT_CUDA_AVG_POOL_BACKWARD;
    const char* name = g.adaptive ? (avg ? "adaptive_avg_pool2d" : "adaptive_max_pool2d")
                                  : (avg ? "avg_pool2d" : "max_pool2d");
    cuda_check(name, cuda_device_backend(name, dev)
                         .pool2d_ex(dev, (int32_t)in.dtype(), op, &g, in.device_data(),
                                 idx.defined() ? static_cast<const int64_t*>(idx.device_data()) : nullptr,
                                 out.device_data(), ix.defined() ? static_cast<int64_t*>(ix.device_data()) : nullptr));
    if (out_idx) *out_idx = ix;
    return out;
}

}  // namespace ct

// nn_pool_nd.cpp - max/avg/adaptive pooling over 1, 2 or 3 spatial dims, composed of the one 2-d pooling of
// nn_pool.cpp (CPU and CUDA, its backward and double backward come along). Note [Separable pooling]: every
// window is a product of per-axis windows, and max, sum and each divisor (window size with or without padding,
// adaptive counts) factor over the axes, so a 1-d pooling is a 2-d one over a unit axis and a 3-d pooling is a
// 2-d pooling over (H, W) followed by a pooling over D. The max's argmax recombines as d * H * W + hw, and the
// row-major scan order (first maximum wins, the last NaN wins) is kept because each stage keeps it.
#include "ops/half_compute.h"
#include "ops/nn_common.h"

namespace ct {
namespace {

enum Kind { kMax, kAvg, kAdaptiveMax, kAdaptiveAvg };

const char* pool_name(Kind kind, int32_t nd) {
    static const char* names[4][4] = {
        {"max_pool", "max_pool1d", "max_pool2d", "max_pool3d"},
        {"avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d"},
        {"adaptive_max_pool", "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d"},
        {"adaptive_avg_pool", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d"}};
    return names[kind][nd >= 1 && nd <= 3 ? nd : 0];
}

void check_input(const char* op, const Tensor& x, int32_t nd) {
    if (nd < 1 || nd > 3) fail(CT_ERR_INVALID_ARGUMENT, op, ": spatial rank must be 1, 2 or 3, got ", nd);
    if (x.dim() != nd + 1 && x.dim() != nd + 2)
        fail(CT_ERR_SHAPE, op, ": expected input with ", nd + 2, " dims [N, C, spatial...] (or ", nd + 1,
             " dims [C, spatial...]), got ", shape_str(x.sizes()));
    check_floating(op, x);
}

// Checks p for op (errors name op and the axis) and returns the output spatial sizes.
Shape check_params(const char* op, const Tensor& x, const PoolNdParams& p, bool is_max) {
    check_input(op, x, p.nd);
    Shape out;
    for (int i = 0; i < p.nd; ++i) {
        if (p.kernel[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": kernel size must be positive, got ", p.kernel[i]);
        if (p.stride[i] <= 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": stride must be positive, got ", p.stride[i]);
        if (is_max && p.dilation[i] <= 0)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": dilation must be positive, got ", p.dilation[i]);
        if (p.padding[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": padding must be non-negative, got ", p.padding[i]);
        if (p.padding[i] > p.kernel[i] / 2)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": padding ", p.padding[i], " should be at most half of kernel size ",
                 p.kernel[i]);
        const int64_t in = x.sizes()[x.dim() - p.nd + i];
        const int64_t o = pooled_size(op, in, p.kernel[i], p.stride[i], p.padding[i], is_max ? p.dilation[i] : 1,
                                      p.ceil_mode);
        if (o < 1)
            fail(CT_ERR_SHAPE, op, ": output size ", o, " in spatial dim ", i, " is too small (< 1) for input ",
                 shape_str(x.sizes()), ", kernel ", p.kernel[i], ", stride ", p.stride[i], ", padding ",
                 p.padding[i], is_max ? ", dilation " : "", is_max ? std::to_string(p.dilation[i]) : "",
                 p.ceil_mode ? ", ceil_mode" : "");
        out.push_back(o);
    }
    if (!is_max && p.divisor_override < 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": divisor_override must be positive (0 = none), got ", p.divisor_override);
    return out;
}

void check_adaptive(const char* op, const Tensor& x, int32_t nd, const int64_t* size) {
    check_input(op, x, nd);
    if (!size) fail(CT_ERR_INVALID_ARGUMENT, op, ": output_size is NULL");
    for (int i = 0; i < nd; ++i)
        if (size[i] < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": output size must be non-negative, got ", size[i]);
    for (int64_t d = x.dim() == nd + 2 ? 1 : 0; d < x.dim(); ++d)
        if (x.sizes()[d] == 0)
            fail(CT_ERR_SHAPE, op, ": expected input with non-zero sizes for non-batch dims, got ",
                 shape_str(x.sizes()));
}

// One 2-d stage: the pooling `kind` of 4-d x with the given 2-d options (validated by the N-d caller).
struct Stage {
    int64_t kernel[2], stride[2], padding[2], dilation[2], out[2];  // out: adaptive output size
    bool ceil_mode, count_include_pad;
    int64_t divisor_override;
};

std::pair<Tensor, Tensor> run2d(Kind kind, const Tensor& x, const Stage& s) {
    Pool2dParams p;
    for (int i = 0; i < 2; ++i) {
        p.kernel[i] = s.kernel[i];
        p.stride[i] = s.stride[i];
        p.padding[i] = s.padding[i];
        p.dilation[i] = s.dilation[i];
    }
    p.ceil_mode = s.ceil_mode;
    p.count_include_pad = s.count_include_pad;
    p.divisor_override = s.divisor_override;
    switch (kind) {
    case kMax: return max_pool2d_with_indices(x, p);
    case kAvg: return {avg_pool2d(x, p), Tensor()};
    case kAdaptiveMax: return adaptive_max_pool2d(x, s.out);
    default: return {adaptive_avg_pool2d(x, s.out), Tensor()};
    }
}

// The stage over the axis pair (a, b) of the N-d options: a < 0 gives a unit axis (kernel 1, output = input).
Stage stage_of(const PoolNdParams& p, const int64_t* out, int a, int b, int64_t unit_size, int64_t divisor) {
    Stage s{};
    const int ax[2] = {a, b};
    for (int i = 0; i < 2; ++i) {
        const int k = ax[i];
        s.kernel[i] = k < 0 ? 1 : p.kernel[k];
        s.stride[i] = k < 0 ? 1 : p.stride[k];
        s.padding[i] = k < 0 ? 0 : p.padding[k];
        s.dilation[i] = k < 0 ? 1 : p.dilation[k];
        s.out[i] = k < 0 ? unit_size : out ? out[k] : 0;  // out: adaptive only
    }
    s.ceil_mode = p.ceil_mode;
    s.count_include_pad = p.count_include_pad;
    s.divisor_override = divisor;
    return s;
}

// Pools batched xb [N, C, spatial...] (Note [Separable pooling]); out holds the adaptive output sizes.
std::pair<Tensor, Tensor> pool_batched(Kind kind, const Tensor& xb, const PoolNdParams& p, const int64_t* out) {
    const Shape& xs = xb.sizes();
    const int64_t N = xs[0], C = xs[1];
    if (p.nd == 2) return run2d(kind, xb, stage_of(p, out, 0, 1, 0, p.divisor_override));
    if (p.nd == 1) {  // [N, C, 1, L]
        auto r = run2d(kind, unsqueeze(xb, 2), stage_of(p, out, -1, 0, 1, p.divisor_override));
        return {squeeze(r.first, 2), r.second.defined() ? squeeze(r.second, 2) : Tensor()};
    }
    // 3-d: (H, W) per depth slice, then D over [N, C, OH * OW, D]
    const int64_t D = xs[2], H = xs[3], W = xs[4];
    const bool avg_override = (kind == kAvg) && p.divisor_override > 0;
    auto a = run2d(kind, reshape(xb, {N, C * D, H, W}), stage_of(p, out, 1, 2, 0, avg_override ? 1 : 0));
    const int64_t OH = a.first.sizes()[2], OW = a.first.sizes()[3];
    Tensor rows = transpose(reshape(a.first, {N, C, D, OH * OW}), 2, 3);  // [N, C, OH * OW, D]
    auto b = run2d(kind, rows, stage_of(p, out, -1, 0, OH * OW, avg_override ? p.divisor_override : 0));
    const int64_t OD = b.first.sizes()[3];
    Tensor y = reshape(transpose(b.first, 2, 3), {N, C, OD, OH, OW});
    if (!b.second.defined()) return {y, Tensor()};
    // b's argmax is row * D + d; a's is h * W + w within slice d: the flat index is d * H * W + (h * W + w)
    Tensor ib = transpose(b.second, 2, 3);  // [N, C, OD, OH * OW]
    Tensor Dt = scalar_tensor((double)D, DType::Int64, ib.device());
    Tensor d = remainder(ib, Dt);
    Tensor hw = gather(reshape(a.second, {N, C, D, OH * OW}), 2, d);
    Tensor flat = add(mul(d, scalar_tensor((double)(H * W), DType::Int64, ib.device())), hw, 1.0);  // int64
    Tensor none = full({}, -1.0, DType::Int64, ib.device());
    Tensor miss = lt(ib, scalar_tensor(0.0, DType::Int64, ib.device()));
    Tensor hw_miss = lt(hw, scalar_tensor(0.0, DType::Int64, ib.device()));
    flat = where(miss, none, where(hw_miss, none, flat));
    return {y, reshape(flat, {N, C, OD, OH, OW})};
}

std::pair<Tensor, Tensor> pool(Kind kind, const Tensor& x, const PoolNdParams& p, const int64_t* out) {
    if (out && p.nd == 3 && (out[1] == 0 || out[2] == 0)) {  // an empty adaptive output: no stages
        Shape s(x.sizes().begin(), x.sizes().end() - 3);
        s.insert(s.end(), out, out + 3);
        return {empty_tensor(s, x.dtype(), x.device(), pool_name(kind, 3)),
                kind == kAdaptiveMax ? empty_tensor(s, DType::Int64, x.device()) : Tensor()};
    }
    if (x.dim() == p.nd + 2) return pool_batched(kind, x, p, out);
    auto r = pool_batched(kind, unsqueeze(x, 0), p, out);
    return {squeeze(r.first, 0), r.second.defined() ? squeeze(r.second, 0) : Tensor()};
}

}  // namespace

std::pair<Tensor, Tensor> max_pool_nd(const Tensor& x, const PoolNdParams& p) {
    check_params(pool_name(kMax, p.nd), x, p, true);
    return pool(kMax, x, p, nullptr);
}

Tensor avg_pool_nd(const Tensor& x, const PoolNdParams& p) {
    check_params(pool_name(kAvg, p.nd), x, p, false);
    PoolNdParams q = p;
    for (int i = 0; i < 3; ++i) q.dilation[i] = 1;
    return pool(kAvg, x, q, nullptr).first;
}

Tensor adaptive_avg_pool_nd(const Tensor& x, int32_t nd, const int64_t* output_size) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(adaptive_avg_pool_nd(as_float32(x), nd, output_size), *h);
    check_adaptive(pool_name(kAdaptiveAvg, nd), x, nd, output_size);
    PoolNdParams p;
    p.nd = nd;
    return pool(kAdaptiveAvg, x, p, output_size).first;
}

std::pair<Tensor, Tensor> adaptive_max_pool_nd(const Tensor& x, int32_t nd, const int64_t* output_size) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x)) return round_results(adaptive_max_pool_nd(as_float32(x), nd, output_size), *h);
    check_adaptive(pool_name(kAdaptiveMax, nd), x, nd, output_size);
    PoolNdParams p;
    p.nd = nd;
    return pool(kAdaptiveMax, x, p, output_size);
}

}  // namespace ct

// fuzz_calls.cpp - the op action of the fuzz targets: every non-creation op of abi/ops.tsv, reached through
// tables by signature, with tensors from the pool and dims, indices, dtypes and options from the input.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>
#include "fuzz_common.h"

namespace fz {
namespace {

using Unary = ct_status (*)(ct_tensor, ct_tensor*);
using Binary = ct_status (*)(ct_tensor, ct_tensor, ct_tensor*);
using Reduce = ct_status (*)(ct_tensor, const int64_t*, int32_t, int32_t, ct_tensor*);
using DimOut = ct_status (*)(ct_tensor, int64_t, ct_tensor*);
using DimKeep2 = ct_status (*)(ct_tensor, int64_t, int32_t, ct_tensor*, ct_tensor*);
using InplaceB = ct_status (*)(ct_tensor, ct_tensor);
using Loss = ct_status (*)(ct_tensor, ct_tensor, int32_t, ct_tensor*);
template <class F> struct Named {
    const char* name;
    F fn;
};

const Named<Unary> kUnary[] = {
    {"neg", ct_neg}, {"abs", ct_abs}, {"sign", ct_sign}, {"exp", ct_exp}, {"log", ct_log}, {"log1p", ct_log1p},
    {"expm1", ct_expm1}, {"sqrt", ct_sqrt}, {"rsqrt", ct_rsqrt}, {"sin", ct_sin}, {"cos", ct_cos}, {"tan", ct_tan},
    {"tanh", ct_tanh}, {"sigmoid", ct_sigmoid}, {"relu", ct_relu}, {"gelu", ct_gelu}, {"silu", ct_silu},
    {"softplus", ct_softplus}, {"floor", ct_floor}, {"ceil", ct_ceil}, {"round", ct_round},
    {"reciprocal", ct_reciprocal}, {"logical_not", ct_logical_not}, {"contiguous", ct_contiguous},
    {"clone", ct_clone}, {"detach", ct_detach}, {"squeeze_all", ct_squeeze_all}, {"t", ct_t}, {"max", ct_max},
    {"min", ct_min}, {"argmax_all", ct_argmax_all}, {"argmin_all", ct_argmin_all}, {"nonzero", ct_nonzero},
    {"hardsigmoid", ct_hardsigmoid}, {"hardswish", ct_hardswish}, {"mish", ct_mish}, {"log_sigmoid", ct_log_sigmoid},
    {"softsign", ct_softsign}, {"tanhshrink", ct_tanhshrink},
    {"bitwise_not", ct_bitwise_not}};  // issue 14
const Named<Binary> kBinary[] = {
    {"mul", ct_mul}, {"div", ct_div}, {"pow", ct_pow}, {"maximum", ct_maximum}, {"minimum", ct_minimum},
    {"atan2", ct_atan2}, {"remainder", ct_remainder}, {"floor_divide", ct_floor_divide}, {"eq", ct_eq}, {"ne", ct_ne}, {"lt", ct_lt}, {"le", ct_le},
    {"gt", ct_gt}, {"ge", ct_ge}, {"logical_and", ct_logical_and}, {"logical_or", ct_logical_or},
    {"logical_xor", ct_logical_xor}, {"matmul", ct_matmul}, {"dot", ct_dot}, {"outer", ct_outer},
    {"masked_select", ct_masked_select}, {"embedding", ct_embedding}, {"prelu", ct_prelu},
    // binary math (issue 14)
    {"logaddexp", ct_logaddexp}, {"logaddexp2", ct_logaddexp2}, {"hypot", ct_hypot}, {"xlogy", ct_xlogy},
    {"copysign", ct_copysign}, {"fmax", ct_fmax}, {"fmin", ct_fmin}, {"heaviside", ct_heaviside},
    {"nextafter", ct_nextafter}, {"bitwise_and", ct_bitwise_and}, {"bitwise_or", ct_bitwise_or},
    {"bitwise_xor", ct_bitwise_xor}, {"bitwise_left_shift", ct_bitwise_left_shift},
    {"bitwise_right_shift", ct_bitwise_right_shift}, {"gcd", ct_gcd}, {"lcm", ct_lcm}};
const Named<Reduce> kReduce[] = {{"sum", ct_sum}, {"mean", ct_mean}, {"prod", ct_prod},
                                 {"logsumexp", ct_logsumexp}, {"all", ct_all}, {"any", ct_any}};
const Named<DimOut> kDimOut[] = {{"cumsum", ct_cumsum}, {"cumprod", ct_cumprod}, {"softmax", ct_softmax},
                                 {"log_softmax", ct_log_softmax}, {"squeeze", ct_squeeze},
                                 {"unsqueeze", ct_unsqueeze}, {"tril", ct_tril}, {"triu", ct_triu},
                                 {"softmin", ct_softmin}, {"glu", ct_glu}};
const Named<DimKeep2> kDimKeep2[] = {{"max_dim", ct_max_dim}, {"min_dim", ct_min_dim}};
const Named<InplaceB> kInplaceB[] = {{"mul_", ct_mul_}, {"div_", ct_div_}, {"copy_", ct_copy_}};
const Named<Loss> kLoss[] = {{"mse_loss", ct_mse_loss}, {"binary_cross_entropy", ct_binary_cross_entropy},
                             {"binary_cross_entropy_with_logits", ct_binary_cross_entropy_with_logits},
                             {"l1_loss", ct_l1_loss}, {"soft_margin_loss", ct_soft_margin_loss}};

template <class T, size_t N> const T& pick_entry(Input& in, const T (&table)[N]) { return table[in.u8() % N]; }

// A {h, w} pair for conv and pooling options; sometimes NULL.
struct Pair {
    int64_t v[2];
    bool null;
    const int64_t* get() const { return null ? nullptr : v; }
};
Pair pair(Input& in) {
    Pair p;
    p.null = in.u8() == 0xff;
    p.v[0] = in.count();
    p.v[1] = in.count();
    return p;
}

void reductions(Input& in, Pool& p, uint8_t which) {
    bool ok = true;
    ct_tensor x = p.pick(in, &ok);
    std::vector<int64_t> dims = in.dims(4);
    int32_t keep = in.flag();
    const int64_t* dp = dims.empty() && (in.u8() & 1) ? nullptr : dims.data();
    int32_t nd = (int32_t)dims.size();
    switch (which % 6) {
    case 0: {
        auto& e = pick_entry(in, kReduce);
        call(in, p, e.name, !ok, 1, 0, [&](ct_tensor* o) { return e.fn(x, dp, nd, keep, o); });
        break;
    }
    case 1: {
        double c = in.scalar();
        call(in, p, "var", !ok, 1, 0, [&](ct_tensor* o) { return ct_var(x, dp, nd, c, keep, o); });
        break;
    }
    case 2: {
        double c = in.scalar();
        call(in, p, "std", !ok, 1, 0, [&](ct_tensor* o) { return ct_std(x, dp, nd, c, keep, o); });
        break;
    }
    case 3: {
        double q = in.scalar();
        call(in, p, "norm", !ok, 1, 0, [&](ct_tensor* o) { return ct_norm(x, q, dp, nd, keep, o); });
        break;
    }
    case 4: {
        std::vector<int64_t> shifts = in.dims(3);
        for (auto& s : shifts) s = in.u8() < 0xf0 ? s : in.edge();
        call(in, p, "roll", !ok, 1, 0, [&](ct_tensor* o) {
            return ct_roll(x, shifts.data(), (int32_t)shifts.size(), dp, nd, o);
        });
        break;
    }
    default:
        call(in, p, "flip", !ok, 1, 0, [&](ct_tensor* o) { return ct_flip(x, dp, nd, o); });
    }
}

void dim_ops(Input& in, Pool& p, uint8_t which) {
    bool ok = true;
    ct_tensor x = p.pick(in, &ok);
    int64_t d = in.dim(), e = in.dim();
    int32_t keep = in.flag();
    switch (which % 12) {
    case 0: {
        auto& f = pick_entry(in, kDimOut);
        call(in, p, f.name, !ok, 1, 0, [&](ct_tensor* o) { return f.fn(x, d, o); });
        break;
    }
    case 1: call(in, p, "argmax", !ok, 1, 0, [&](ct_tensor* o) { return ct_argmax(x, d, keep, o); }); break;
    case 2: call(in, p, "argmin", !ok, 1, 0, [&](ct_tensor* o) { return ct_argmin(x, d, keep, o); }); break;
    case 3: {
        auto& f = pick_entry(in, kDimKeep2);
        call(in, p, f.name, !ok, 2, 0, [&](ct_tensor* o) { return f.fn(x, d, keep, o, o + 1); });
        break;
    }
    case 4: call(in, p, "transpose", !ok, 1, 0, [&](ct_tensor* o) { return ct_transpose(x, d, e, o); }); break;
    case 5: call(in, p, "flatten", !ok, 1, 0, [&](ct_tensor* o) { return ct_flatten(x, d, e, o); }); break;
    case 6: {
        int64_t idx = in.u8() < 0xe0 ? in.dim() : in.edge();
        call(in, p, "select", !ok, 1, 0, [&](ct_tensor* o) { return ct_select(x, d, idx, o); });
        break;
    }
    case 7: {
        int64_t start = in.edge(), len = in.edge();
        call(in, p, "narrow", !ok, 1, 0, [&](ct_tensor* o) { return ct_narrow(x, d, start, len, o); });
        break;
    }
    case 8: {
        int64_t start = in.edge(), end = in.edge(), step = in.edge();
        call(in, p, "slice", !ok, 1, 0, [&](ct_tensor* o) { return ct_slice(x, d, start, end, step, o); });
        break;
    }
    case 9: {
        int64_t off = in.u8() < 0xe0 ? in.dim() : in.edge();
        call(in, p, "diagonal", !ok, 1, 0, [&](ct_tensor* o) { return ct_diagonal(x, off, d, e, o); });
        break;
    }
    case 10: {
        int32_t desc = in.flag(), stable = in.flag();
        if (in.u8() & 1)
            call(in, p, "sort", !ok, 2, 0, [&](ct_tensor* o) { return ct_sort(x, d, desc, stable, o, o + 1); });
        else
            call(in, p, "argsort", !ok, 1, 0, [&](ct_tensor* o) { return ct_argsort(x, d, desc, stable, o); });
        break;
    }
    default: {
        int64_t k = in.u8() < 0xe0 ? in.count() : in.edge();
        int32_t a = in.flag(), b = in.flag();
        if (in.u8() & 1)
            call(in, p, "topk", !ok, 2, 0, [&](ct_tensor* o) { return ct_topk(x, k, d, a, b, o, o + 1); });
        else
            call(in, p, "kthvalue", !ok, 2, 0, [&](ct_tensor* o) { return ct_kthvalue(x, k, d, a, o, o + 1); });
    }
    }
}

void shape_ops(Input& in, Pool& p, uint8_t which) {
    bool ok = true;
    ct_tensor x = p.pick(in, &ok);
    std::vector<int64_t> v = (which % 4 == 3) ? in.dims(5) : in.sizes(5);
    const int64_t* vp = v.empty() && (in.u8() & 1) ? nullptr : v.data();
    int32_t n = (int32_t)v.size();
    switch (which % 4) {
    case 0: call(in, p, "reshape", !ok, 1, 0, [&](ct_tensor* o) { return ct_reshape(x, vp, n, o); }); break;
    case 1: call(in, p, "view", !ok, 1, 0, [&](ct_tensor* o) { return ct_view(x, vp, n, o); }); break;
    case 2: call(in, p, "expand", !ok, 1, 0, [&](ct_tensor* o) { return ct_expand(x, vp, n, o); }); break;
    default: call(in, p, "permute", !ok, 1, 0, [&](ct_tensor* o) { return ct_permute(x, vp, n, o); });
    }
}

// The activations with scalar parameters (the others are in kUnary, kBinary, kDimOut).
void activations(Input& in, Pool& p, ct_tensor a, bool ok, double s, double s2) {
    switch (in.u8() % 8) {
    case 0: {
        double s3 = in.scalar();
        call(in, p, "elu", !ok, 1, 0, [&](ct_tensor* o) { return ct_elu(a, s, s2, s3, o); });
        break;
    }
    case 1: call(in, p, "leaky_relu", !ok, 1, 0, [&](ct_tensor* o) { return ct_leaky_relu(a, s, o); }); break;
    case 2: call(in, p, "hardtanh", !ok, 1, 0, [&](ct_tensor* o) { return ct_hardtanh(a, s, s2, o); }); break;
    case 3: call(in, p, "softshrink", !ok, 1, 0, [&](ct_tensor* o) { return ct_softshrink(a, s, o); }); break;
    case 4: call(in, p, "hardshrink", !ok, 1, 0, [&](ct_tensor* o) { return ct_hardshrink(a, s, o); }); break;
    case 5: call(in, p, "threshold", !ok, 1, 0, [&](ct_tensor* o) { return ct_threshold(a, s, s2, o); }); break;
    default: {
        int32_t training = in.flag();
        ct_generator g = (in.u8() & 1) ? p.gen : nullptr;
        call(in, p, "rrelu", !ok, 1, 0, [&](ct_tensor* o) { return ct_rrelu(a, s, s2, training, g, o); });
    }
    }
}

void elementwise(Input& in, Pool& p, uint8_t which) {
    bool ok = true;
    ct_tensor a = p.pick(in, &ok);
    bool ok_b = ok;
    ct_tensor b = p.pick(in, &ok_b);
    double s = in.scalar(), s2 = in.scalar();
    switch (which % 11) {
    case 0: {
        if (in.u8() < 0x50) {  // the unary math ops of issue 14 (fuzz_unary_math.cpp)
            unary_math_ops(in, p, a, ok);
            break;
        }
        auto& f = pick_entry(in, kUnary);
        call(in, p, f.name, !ok, 1, 0, [&](ct_tensor* o) { return f.fn(a, o); });
        break;
    }
    case 1: {
        auto& f = pick_entry(in, kBinary);
        call(in, p, f.name, !ok_b, 1, 0, [&](ct_tensor* o) { return f.fn(a, b, o); });
        break;
    }
    case 2: call(in, p, "add", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_add(a, b, s, o); }); break;
    case 3: call(in, p, "sub", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_sub(a, b, s, o); }); break;
    case 4: call(in, p, "pow_scalar", !ok, 1, 0, [&](ct_tensor* o) { return ct_pow_scalar(a, s, o); }); break;
    case 5: {
        int32_t hmin = in.flag(), hmax = in.flag();
        call(in, p, "clamp", !ok, 1, 0, [&](ct_tensor* o) { return ct_clamp(a, s, hmin, s2, hmax, o); });
        break;
    }
    case 6: call(in, p, "masked_fill", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_masked_fill(a, b, s, o); }); break;
    case 7: {
        ct_tensor c = p.pick(in, &ok_b);
        call(in, p, "where", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_where(a, b, c, o); });
        call(in, p, "addcmul", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_addcmul(a, b, c, s, o); });  // issue 14
        call(in, p, "addcdiv", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_addcdiv(a, b, c, s, o); });
        break;
    }
    case 8: {
        ct_dtype dt = in.dtype();
        call(in, p, "to_dtype", !ok || ct_dtype_size(dt) == 0, 1, 0, [&](ct_tensor* o) { return ct_to_dtype(a, dt, o); });
        break;
    }
    case 9: activations(in, p, a, ok, s, s2); break;
    default: {
        ct_device dev = in.device();
        call(in, p, "to_device", !ok, 1, 0, [&](ct_tensor* o) { return ct_to_device(a, dev, o); });
    }
    }
}

void indexing(Input& in, Pool& p, uint8_t which) {
    bool ok_x = true;
    ct_tensor x = p.pick(in, &ok_x);
    bool ok = ok_x;
    ct_tensor idx = p.pick(in, &ok);
    int64_t d = in.dim();
    switch (which % 7) {
    case 6: {  // embedding options, embedding_renorm_, embedding_bag: pool tensors (or NULL) for offsets and weights
        // offsets and per_sample_weights: optional (NULL is fine), and only embedding_bag takes them
        bool ok_off = true, ok_psw = true;
        ct_tensor off = in.u8() & 1 ? p.pick(in, &ok_off) : nullptr;
        ct_tensor psw = in.u8() & 1 ? p.pick(in, &ok_psw) : nullptr;
        const bool ok_bag = (ok_off || off == nullptr) && (ok_psw || psw == nullptr);
        int64_t pad = in.u8() < 0xe0 ? (int64_t)(in.u8() % 8) - 2 : in.edge();  // mostly small, negative too
        int32_t mode = in.u8() % 4, f1 = in.flag(), f2 = in.flag(), f3 = in.flag();
        double s = in.scalar(), s2 = in.scalar();
        switch (in.u8() % 3) {
        case 0:
            call(in, p, "embedding_ex", !ok, 1, 0, [&](ct_tensor* o) { return ct_embedding_ex(x, idx, pad, f1, f2, o); });
            break;
        case 1: check_status("embedding_renorm_", ct_embedding_renorm_(x, idx, s, s2), !ok); break;
        default:
            call(in, p, "embedding_bag", !ok || !ok_bag, 1, 0, [&](ct_tensor* o) {
                return ct_embedding_bag(x, idx, off, mode, psw, f1, pad, f2, f3, o);
            });
        }
        break;
    }
    case 0: call(in, p, "index_select", !ok, 1, 0, [&](ct_tensor* o) { return ct_index_select(x, d, idx, o); }); break;
    case 1: call(in, p, "gather", !ok, 1, 0, [&](ct_tensor* o) { return ct_gather(x, d, idx, o); }); break;
    case 2: case 3: {
        ct_tensor src = p.pick(in, &ok);
        if (which % 7 == 2)
            call(in, p, "scatter", !ok, 1, 0, [&](ct_tensor* o) { return ct_scatter(x, d, idx, src, o); });
        else
            call(in, p, "scatter_add", !ok, 1, 0, [&](ct_tensor* o) { return ct_scatter_add(x, d, idx, src, o); });
        break;
    }
    case 4: {  // cat / stack over up to 5 pool tensors (the array may be NULL)
        ct_tensor ts[5];
        bool all = true;
        int32_t n = in.int32();
        int32_t m = n < 0 ? 0 : n > 5 ? 5 : n;
        for (int i = 0; i < m; ++i) ts[i] = p.pick(in, &all);
        bool null_array = in.u8() == 0xff;
        bool must_fail = !all || n < 0 || n > 5 || (null_array && n > 0);
        if (n > 5) return;  // the array holds only 5
        const ct_tensor* tp = null_array ? nullptr : ts;
        if (in.u8() & 1)
            call(in, p, "cat", must_fail, 1, 0, [&](ct_tensor* o) { return ct_cat(tp, n, d, o); });
        else
            call(in, p, "stack", must_fail, 1, 0, [&](ct_tensor* o) { return ct_stack(tp, n, d, o); });
        break;
    }
    default: {  // split / chunk into a capacity-limited array
        int64_t k = in.u8() < 0xe0 ? in.count() : in.edge();
        int32_t cap = in.int32();
        if (cap > 8) cap = 8;
        ct_tensor outs[9];
        for (auto& o : outs) o = kSentinel;
        int32_t count = -77;
        bool is_split = in.u8() & 1;
        const char* op = is_split ? "split" : "chunk";
        ct_status st = is_split ? ct_split(x, k, d, cap > 0 ? outs : nullptr, cap, &count)
                                : ct_chunk(x, k, d, cap > 0 ? outs : nullptr, cap, &count);
        check_status(op, st, !ok_x);
        if (st != CT_OK) {
            for (auto o : outs)
                if (o != kSentinel) die(op, "an out-parameter was written by a failed call");
            if (count != -77) die(op, "the count was written by a failed call");
            break;
        }
        if (count < 0) die(op, "a negative piece count");
        int32_t got = count < cap ? count : cap;
        for (int i = 0; i < 9; ++i) {
            if (i < got && (outs[i] == kSentinel || !outs[i])) die(op, "a piece within the capacity is missing");
            if (i >= got && outs[i] != kSentinel) die(op, "a piece was written past the count or the capacity");
        }
        for (int i = 0; i < got; ++i) p.keep(in, op, outs[i]);
    }
    }
}

void inplace(Input& in, Pool& p, uint8_t which) {
    bool ok = true;
    ct_tensor dst = p.pick(in, &ok);
    bool ok_b = ok;
    ct_tensor b = p.pick(in, &ok_b);
    double s = in.scalar(), s2 = in.scalar();
    ct_status st;
    const char* op;
    bool must_fail = !ok;
    switch (which % 6) {
    case 0: op = "add_", st = ct_add_(dst, b, s), must_fail = !ok_b; break;
    case 1: op = "sub_", st = ct_sub_(dst, b, s), must_fail = !ok_b; break;
    case 2: {
        auto& f = pick_entry(in, kInplaceB);
        op = f.name, st = f.fn(dst, b), must_fail = !ok_b;
        break;
    }
    case 3: op = "zero_", st = ct_zero_(dst); break;
    case 4: op = "fill_", st = ct_fill_(dst, s); break;
    default: {
        int32_t hmin = in.flag(), hmax = in.flag();
        op = "clamp_", st = ct_clamp_(dst, s, hmin, s2, hmax);
    }
    }
    check_status(op, st, must_fail);
}

// The losses of issue 14 with parameters or a third tensor (l1_loss and soft_margin_loss are in kLoss); x and w are
// the first two tensors, opt the optional third (NULL is fine for the weights, a failure for the required ones).
void losses(Input& in, Pool& p, ct_tensor x, ct_tensor w, ct_tensor opt, bool ok, bool ok_opt, int32_t red) {
    double s = in.scalar(), s2 = in.scalar();
    int32_t f1 = in.flag(), f2 = in.flag();
    const bool need3 = !ok || !ok_opt || opt == nullptr;
    switch (in.u8() % 12) {
    case 11: {  // ctc_loss: up to 4 lengths of each kind, small or edge values
        int64_t n = in.u8() % 5, in_len[4], tg_len[4], blank = in.count();
        for (int64_t i = 0; i < n; ++i) in_len[i] = in.count(), tg_len[i] = in.count();
        call(in, p, "ctc_loss", !ok, 1, 0,
             [&](ct_tensor* o) { return ct_ctc_loss(x, w, in_len, tg_len, n, red, blank, f1, o); });
        break;
    }
    case 0: call(in, p, "smooth_l1_loss", !ok, 1, 0, [&](ct_tensor* o) { return ct_smooth_l1_loss(x, w, red, s, o); }); break;
    case 1: call(in, p, "huber_loss", !ok, 1, 0, [&](ct_tensor* o) { return ct_huber_loss(x, w, red, s, o); }); break;
    case 2: call(in, p, "kl_div", !ok, 1, 0, [&](ct_tensor* o) { return ct_kl_div(x, w, red, f1, o); }); break;
    case 3:
        call(in, p, "poisson_nll_loss", !ok, 1, 0, [&](ct_tensor* o) { return ct_poisson_nll_loss(x, w, red, f1, f2, s, o); });
        break;
    case 4:
        call(in, p, "gaussian_nll_loss", need3, 1, 0,
             [&](ct_tensor* o) { return ct_gaussian_nll_loss(x, w, opt, red, f1, s, o); });
        break;
    case 5:
        call(in, p, "hinge_embedding_loss", !ok, 1, 0, [&](ct_tensor* o) { return ct_hinge_embedding_loss(x, w, red, s, o); });
        break;
    case 6:
        call(in, p, "margin_ranking_loss", need3, 1, 0,
             [&](ct_tensor* o) { return ct_margin_ranking_loss(x, w, opt, red, s, o); });
        break;
    case 7:
        call(in, p, "multilabel_soft_margin_loss", !ok || !ok_opt, 1, 0,
             [&](ct_tensor* o) { return ct_multilabel_soft_margin_loss(x, w, opt, red, o); });
        break;
    case 8: {
        int64_t q = in.u8() < 0xe0 ? in.count() : in.edge();
        call(in, p, "multi_margin_loss", !ok || !ok_opt, 1, 0,
             [&](ct_tensor* o) { return ct_multi_margin_loss(x, w, red, q, s, opt, o); });
        break;
    }
    case 9:
        call(in, p, "cosine_embedding_loss", need3, 1, 0,
             [&](ct_tensor* o) { return ct_cosine_embedding_loss(x, w, opt, red, s, o); });
        break;
    default: {
        double eps = in.scalar();
        call(in, p, "triplet_margin_loss", need3, 1, 0,
             [&](ct_tensor* o) { return ct_triplet_margin_loss(x, w, opt, red, s, s2, eps, f1, o); });
    }
    }
}

// Attention (issue 14): sdpa on x, w, opt (the mask optional) and multi_head_attention_forward with the rest of its
// tensors drawn from the pool (each optional one NULL half the time); the weights out-parameter may be NULL.
void attention(Input& in, Pool& p, ct_tensor x, ct_tensor w, ct_tensor opt, bool ok, bool ok_opt) {
    bool ok_v = true;
    ct_tensor v = p.pick(in, &ok_v);
    double drop = in.scalar(), scale = in.scalar();
    int32_t f1 = in.flag(), f2 = in.flag();
    ct_generator g = (in.u8() & 1) ? p.gen : nullptr;
    if (in.u8() & 1) {
        call(in, p, "scaled_dot_product_attention", !ok || !ok_v || !ok_opt, 1, 0,
             [&](ct_tensor* o) { return ct_scaled_dot_product_attention(x, w, v, opt, drop, f1, scale, g, o); });
        return;
    }
    bool ok_all = ok && ok_v && ok_opt;
    auto optional = [&]() -> ct_tensor {
        if (in.u8() & 1) return nullptr;
        bool ok_t = true;
        ct_tensor t = p.pick(in, &ok_t);
        ok_all = ok_all && ok_t;
        return t;
    };
    ct_tensor in_w = optional(), in_b = optional(), bk = optional(), bv = optional(), out_b = optional();
    ct_tensor kpm = optional(), qw = optional(), kw = optional(), vw = optional();
    int64_t heads = in.u8() < 0xe0 ? in.count() : in.edge();
    int32_t need = in.flag(), zero_attn = in.flag(), avg = in.flag();
    call(in, p, "multi_head_attention_forward", !ok_all, 2, need ? 0u : 2u, [&](ct_tensor* o) {
        return ct_multi_head_attention_forward(x, w, v, heads, in_w, in_b, bk, bv, zero_attn, drop, opt, out_b, f2, kpm,
                                               need, nullptr, qw, kw, vw, avg, f1, g, o, need ? o + 1 : nullptr);
    });
}

// The recurrent nets of issue 14: the stack over up to 6 pool tensors as weights (mode 4 is invalid), packed
// batch sizes from the input (or none), and one cell step; cy is NULL unless the mode is LSTM.
void recurrent(Input& in, Pool& p, ct_tensor x, ct_tensor h, ct_tensor c, bool ok) {
    int32_t mode = in.u8() % 5, nw = in.u8() % 7;
    ct_tensor w[6];
    bool ok_w = true, ok_cell_w = true;  // every weight a live tensor; the cell's four (NULL biases allowed)
    for (int32_t i = 0; i < nw; ++i) {
        bool ok_i = true;
        w[i] = p.pick(in, &ok_i);
        ok_w = ok_w && ok_i;
        if (i < 4 && !ok_i && (i < 2 || w[i] != nullptr)) ok_cell_w = false;
    }
    int64_t nbs = in.u8() % 4, bs[3], layers = in.u8() < 0xe0 ? in.u8() % 3 : in.edge();
    for (int64_t i = 0; i < nbs; ++i) bs[i] = in.u8() < 0xe0 ? in.count() : in.edge();
    int32_t bias = in.flag(), train = in.flag(), bidir = in.flag(), batch_first = in.flag();
    int64_t proj = in.u8() < 0xe0 ? in.u8() % 3 : in.edge();
    double drop = in.scalar();
    ct_generator g = (in.u8() & 1) ? p.gen : nullptr;
    const unsigned no_cy = mode == CT_RNN_LSTM ? 0 : 4;
    if (in.u8() & 1) {
        call(in, p, "rnn", !ok || !ok_w, 3, no_cy, [&](ct_tensor* o) {
            return ct_rnn(mode, x, h, c, w, nw, bias, layers, drop, train, bidir, batch_first, proj,
                          nbs ? bs : nullptr, nbs, g, &o[0], &o[1], &o[2]);
        });
        return;
    }
    call(in, p, "rnn_cell", !ok || !ok_cell_w || nw < 2, 2, no_cy >> 1, [&](ct_tensor* o) {
        return ct_rnn_cell(mode, x, h, c, nw > 0 ? w[0] : nullptr, nw > 1 ? w[1] : nullptr, nw > 2 ? w[2] : nullptr,
                           nw > 3 ? w[3] : nullptr, &o[0], &o[1]);
    });
}

void nn(Input& in, Pool& p, uint8_t which) {
    bool ok_x = true;
    ct_tensor x = p.pick(in, &ok_x);
    bool ok = ok_x;
    ct_tensor w = p.pick(in, &ok);
    bool ok_opt = true;
    ct_tensor opt = (in.u8() & 1) ? p.pick(in, &ok_opt) : nullptr;  // optional: NULL is fine
    if (opt == nullptr) ok_opt = true;
    bool must_fail = !ok || !ok_opt;
    int32_t red = in.int32();
    int64_t ignore = in.u8() < 0xe0 ? in.dim() : in.edge();
    switch (which % 11) {
    case 8: attention(in, p, x, w, opt, ok, ok_opt); break;
    case 0: call(in, p, "linear", must_fail, 1, 0, [&](ct_tensor* o) { return ct_linear(x, w, opt, o); }); break;
    case 1: {
        auto& f = pick_entry(in, kLoss);
        call(in, p, f.name, !ok, 1, 0, [&](ct_tensor* o) { return f.fn(x, w, red, o); });
        break;
    }
    case 2: call(in, p, "cross_entropy", !ok, 1, 0, [&](ct_tensor* o) { return ct_cross_entropy(x, w, red, ignore, o); }); break;
    case 3: call(in, p, "nll_loss", !ok, 1, 0, [&](ct_tensor* o) { return ct_nll_loss(x, w, red, ignore, o); }); break;
    case 4: {
        double smooth = in.scalar();
        call(in, p, "cross_entropy_ex", must_fail, 1, 0,
             [&](ct_tensor* o) { return ct_cross_entropy_ex(x, w, opt, red, ignore, smooth, o); });
        break;
    }
    case 5: call(in, p, "nll_loss_ex", must_fail, 1, 0, [&](ct_tensor* o) { return ct_nll_loss_ex(x, w, opt, red, ignore, o); }); break;
    case 6: {
        double q = in.scalar();
        int32_t training = in.flag();
        ct_generator g = (in.u8() & 1) ? p.gen : nullptr;
        call(in, p, "dropout", !ok_x, 1, 0, [&](ct_tensor* o) { return ct_dropout(x, q, training, g, o); });
        break;
    }
    case 7: losses(in, p, x, w, opt, ok, ok_opt, red); break;
    case 9: recurrent(in, p, x, w, opt, ok_x && (w == nullptr || ok) && ok_opt); break;  // NULL states: zeros
    default: {
        Pair st = pair(in), pad = pair(in), dil = pair(in);
        int64_t groups = in.u8() < 0xe0 ? in.count() : in.edge();
        if (in.u8() & 1) {
            call(in, p, "conv2d", must_fail, 1, 0,
                 [&](ct_tensor* o) { return ct_conv2d(x, w, opt, st.get(), pad.get(), dil.get(), groups, o); });
            break;
        }
        // N-d (issue 14): rank 1..3 (4 and 0 must fail), transposed or not; arrays of 3 hostile values
        int32_t rank = (int32_t)(in.u8() % 5), transposed = in.flag();
        Pair st2 = pair(in), pad2 = pair(in), dil2 = pair(in), op2 = pair(in);
        int64_t s3[3] = {st.v[0], st.v[1], st2.v[0]}, p3[3] = {pad.v[0], pad.v[1], pad2.v[0]};
        int64_t d3[3] = {dil.v[0], dil.v[1], dil2.v[0]}, o3[3] = {op2.v[0], op2.v[1], in.count()};
        call(in, p, "convolution", must_fail || rank == 0 || rank == 4, 1, 0, [&](ct_tensor* o) {
            return ct_convolution(x, w, opt, st.null ? nullptr : s3, pad.null ? nullptr : p3, dil.null ? nullptr : d3,
                                  rank, transposed, op2.null ? nullptr : o3, groups, o);
        });
    }
    }
}

// Issue 14: N-d pooling (rank 0..4: 0 and 4 must fail), unfold / fold, pixel_(un)shuffle and interpolate with
// hostile sizes.
void pools_nd(Input& in, Pool& p, ct_tensor x, bool ok, uint8_t which) {
    Pair k = pair(in), st = pair(in), pad = pair(in), dil = pair(in), extra = pair(in), os = pair(in);
    const int64_t k3[3] = {k.v[0], k.v[1], extra.v[0]}, s3[3] = {st.v[0], st.v[1], extra.v[1]};
    const int64_t p3[3] = {pad.v[0], pad.v[1], in.count()}, d3[3] = {dil.v[0], dil.v[1], in.count()};
    const int64_t o3[3] = {os.v[0], os.v[1], in.u8() < 0xe0 ? in.count() : in.edge()};
    const int32_t rank = (int32_t)(in.u8() % 5), ceil = in.flag(), cip = in.flag();
    const bool bad_rank = rank == 0 || rank == 4;
    const int64_t div = in.u8() < 0xe0 ? in.count() : in.edge(), factor = in.u8() < 0xe0 ? in.count() : in.edge();
    const unsigned want_idx = in.u8() & 1, null_mask = want_idx ? 0 : 2;
    const int64_t* kk = k.null ? nullptr : k3;
    switch ((which / 8) % 9) {
    case 0:
        call(in, p, "max_pool_nd", !ok || bad_rank, 2, null_mask, [&](ct_tensor* o) {
            return ct_max_pool_nd(x, rank, kk, s3, p3, d3, ceil, o, want_idx ? o + 1 : nullptr);
        });
        break;
    case 1:
        call(in, p, "avg_pool_nd", !ok || bad_rank, 1, 0,
             [&](ct_tensor* o) { return ct_avg_pool_nd(x, rank, kk, s3, p3, ceil, cip, div, o); });
        break;
    case 2:
        call(in, p, "adaptive_avg_pool_nd", !ok || bad_rank, 1, 0,
             [&](ct_tensor* o) { return ct_adaptive_avg_pool_nd(x, rank, os.null ? nullptr : o3, o); });
        break;
    case 3:
        call(in, p, "adaptive_max_pool_nd", !ok || bad_rank, 2, null_mask, [&](ct_tensor* o) {
            return ct_adaptive_max_pool_nd(x, rank, os.null ? nullptr : o3, o, want_idx ? o + 1 : nullptr);
        });
        break;
    case 4:
        call(in, p, "unfold", !ok, 1, 0,
             [&](ct_tensor* o) { return ct_unfold(x, k.get(), dil.get(), pad.get(), st.get(), o); });
        break;
    case 5:
        call(in, p, "fold", !ok, 1, 0,
             [&](ct_tensor* o) { return ct_fold(x, os.get(), k.get(), dil.get(), pad.get(), st.get(), o); });
        break;
    case 6: call(in, p, "pixel_shuffle", !ok, 1, 0, [&](ct_tensor* o) { return ct_pixel_shuffle(x, factor, o); }); break;
    case 7:
        call(in, p, "pixel_unshuffle", !ok, 1, 0, [&](ct_tensor* o) { return ct_pixel_unshuffle(x, factor, o); });
        break;
    default: {  // interpolate: sizes (or NULL), factors mostly in [0, 4) (or hostile scalars, or NULL), any mode
        double f3[3];
        for (double& f : f3) f = in.u8() < 0xc0 ? (double)(in.u8() % 40) / 10.0 : in.scalar();
        const bool no_scale = in.flag();
        const int32_t mode = (int32_t)(in.u8() % 6), align = (int32_t)(in.u8() % 3) - 1, recompute = in.flag();
        call(in, p, "interpolate", !ok || bad_rank, 1, 0, [&](ct_tensor* o) {
            return ct_interpolate(x, os.null ? nullptr : o3, no_scale ? nullptr : f3, rank, mode, align, recompute, o);
        });
    }
    }
}

void pools(Input& in, Pool& p, uint8_t which) {
    bool ok = true;
    ct_tensor x = p.pick(in, &ok);
    Pair k = pair(in), st = pair(in), pad = pair(in), dil = pair(in);
    int32_t ceil = in.flag(), cip = in.flag();
    int64_t div = in.u8() < 0xe0 ? in.count() : in.edge();
    unsigned want_idx = in.u8() & 1;
    unsigned null_mask = want_idx ? 0 : 2;
    switch (which % 8) {
    case 0: call(in, p, "max_pool2d", !ok, 1, 0, [&](ct_tensor* o) { return ct_max_pool2d(x, k.get(), st.get(), pad.get(), o); }); break;
    case 1: call(in, p, "avg_pool2d", !ok, 1, 0, [&](ct_tensor* o) { return ct_avg_pool2d(x, k.get(), st.get(), pad.get(), o); }); break;
    case 2:
        call(in, p, "max_pool2d_ex", !ok, 2, null_mask, [&](ct_tensor* o) {
            return ct_max_pool2d_ex(x, k.get(), st.get(), pad.get(), dil.get(), ceil, o, want_idx ? o + 1 : nullptr);
        });
        break;
    case 3:
        call(in, p, "avg_pool2d_ex", !ok, 1, 0, [&](ct_tensor* o) {
            return ct_avg_pool2d_ex(x, k.get(), st.get(), pad.get(), ceil, cip, div, o);
        });
        break;
    case 4: {
        Pair os = pair(in);
        if (in.u8() == 0xff) os.v[0] = in.edge();
        call(in, p, "adaptive_avg_pool2d", !ok, 1, 0, [&](ct_tensor* o) { return ct_adaptive_avg_pool2d(x, os.get(), o); });
        break;
    }
    case 5: {
        Pair os = pair(in);
        if (in.u8() == 0xff) os.v[1] = in.edge();
        call(in, p, "adaptive_max_pool2d", !ok, 2, null_mask,
             [&](ct_tensor* o) { return ct_adaptive_max_pool2d(x, os.get(), o, want_idx ? o + 1 : nullptr); });
        break;
    }
    default: pools_nd(in, p, x, ok, which); break;
    }
}

// torch.linalg (LAPACK): any pool tensor as A and B, every flag and mode (a bad mode must fail).
void linalg(Input& in, Pool& p, ct_tensor a, bool ok) {
    bool ok_b = ok;
    ct_tensor b = p.pick(in, &ok_b);
    int32_t f1 = in.flag(), f2 = in.flag(), f3 = in.flag();
    switch (in.u8() % 20) {
    case 0: call(in, p, "linalg_inv", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_inv(a, o); }); break;
    case 1: call(in, p, "linalg_det", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_det(a, o); }); break;
    case 2: call(in, p, "linalg_slogdet", !ok, 2, 0, [&](ct_tensor* o) { return ct_linalg_slogdet(a, o, o + 1); }); break;
    case 3: call(in, p, "linalg_solve", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_linalg_solve(a, b, o); }); break;
    case 4: call(in, p, "linalg_cholesky", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_cholesky(a, f1, o); }); break;
    case 5: {
        int32_t mode = in.u8() % 4;  // 3 is not a mode
        call(in, p, "linalg_qr", !ok || mode == 3, 2, 0, [&](ct_tensor* o) { return ct_linalg_qr(a, mode, o, o + 1); });
        break;
    }
    case 6: call(in, p, "linalg_eigh", !ok, 2, 0, [&](ct_tensor* o) { return ct_linalg_eigh(a, f1, o, o + 1); }); break;
    case 7: call(in, p, "linalg_eigvalsh", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_eigvalsh(a, f1, o); }); break;
    case 8: call(in, p, "linalg_svd", !ok, 3, 0, [&](ct_tensor* o) { return ct_linalg_svd(a, f1, o, o + 1, o + 2); }); break;
    case 9: call(in, p, "linalg_svdvals", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_svdvals(a, o); }); break;
    case 10: {
        int64_t n = in.u8() == 0xff ? in.edge() : (int64_t)(in.u8() % 7) - 3;  // negative powers invert
        call(in, p, "linalg_matrix_power", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_matrix_power(a, n, o); });
        break;
    }
    case 11: {
        int64_t dim = in.u8() == 0xff ? in.edge() : (int64_t)(in.u8() % 5) - 2;
        call(in, p, "linalg_cross", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_linalg_cross(a, b, dim, o); });
        break;
    }
    case 12: {
        static const double kOrds[] = {2.0, 1.0, 0.0, 3.5, -1.0, INFINITY, -INFINITY, NAN};
        double ord = kOrds[in.u8() % 8];
        int64_t dims[2] = {(int64_t)(in.u8() % 5) - 2, in.u8() == 0xff ? in.edge() : (int64_t)(in.u8() % 5) - 2};
        int32_t nd = in.u8() % 3;
        call(in, p, "linalg_vector_norm", !ok, 1, 0,
             [&](ct_tensor* o) { return ct_linalg_vector_norm(a, ord, nd ? dims : nullptr, nd, f1, o); });
        break;
    }
    case 13: {
        static const char* kOrds[] = {"fro", "nuc", "inf", "-inf", "1", "-1", "2", "-2", "3", ""};
        const char* ord = in.u8() == 0xff ? nullptr : kOrds[in.u8() % 10];  // "3", "" and NULL are not norms
        int64_t d0 = (int64_t)(in.u8() % 5) - 2, d1 = in.u8() == 0xff ? in.edge() : (int64_t)(in.u8() % 5) - 2;
        call(in, p, "linalg_matrix_norm", !ok, 1, 0,
             [&](ct_tensor* o) { return ct_linalg_matrix_norm(a, ord, d0, d1, f1, o); });
        break;
    }
    case 14:
    case 15: {
        static const double kTols[] = {-1.0, 0.0, 0.5, 1e-12, INFINITY, NAN};
        double atol = kTols[in.u8() % 6], rtol = kTols[in.u8() % 6];
        if (in.u8() % 2)
            call(in, p, "linalg_pinv", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_pinv(a, atol, rtol, o); });
        else
            call(in, p, "linalg_matrix_rank", !ok, 1, 0,
                 [&](ct_tensor* o) { return ct_linalg_matrix_rank(a, atol, rtol, o); });
        break;
    }
    case 16: {
        // a third of the time A and B both converted to one complex dtype, so that the c/z drivers run (two pool
        // tensors rarely share a complex dtype); the copies are released here, the picked handles used when a
        // conversion fails (a CUDA tensor: complex is CPU-only)
        ct_tensor ca = nullptr, cb = nullptr;
        if (in.u8() % 3 == 0 && ok_b) {
            ct_dtype cd = in.flag() ? CT_COMPLEX64 : CT_COMPLEX128;
            if (ct_to_dtype(a, cd, &ca) == CT_OK && ct_to_dtype(b, cd, &cb) == CT_OK) {
                a = ca;
                b = cb;
            }
        }
        if (in.u8() % 2) {
            call(in, p, "linalg_lstsq", !ok_b, 1, 0, [&](ct_tensor* o) { return ct_linalg_lstsq(a, b, o); });
        } else {
            static const double kRconds[] = {-1.0, 0.0, 0.5, 1e-12, INFINITY, NAN};
            double rcond = kRconds[in.u8() % 6];
            int32_t driver = in.u8() % 5;  // 4 is not a driver
            unsigned mask = in.u8() & 14;  // the solution is required; residuals, rank, singular_values optional
            call(in, p, "linalg_lstsq_ex", !ok_b || driver == 4, 4, mask, [&](ct_tensor* o) {
                return ct_linalg_lstsq_ex(a, b, rcond, driver, o, (mask & 2) ? nullptr : o + 1,
                                          (mask & 4) ? nullptr : o + 2, (mask & 8) ? nullptr : o + 3);
            });
        }
        if (ca) ct_tensor_release(ca);
        if (cb) ct_tensor_release(cb);
        break;
    }
    case 17: call(in, p, "linalg_eig", !ok, 2, 0, [&](ct_tensor* o) { return ct_linalg_eig(a, o, o + 1); }); break;
    case 18: call(in, p, "linalg_eigvals", !ok, 1, 0, [&](ct_tensor* o) { return ct_linalg_eigvals(a, o); }); break;
    default:
        call(in, p, "linalg_solve_triangular", !ok_b, 1, 0,
             [&](ct_tensor* o) { return ct_linalg_solve_triangular(a, b, f1, f2, f3, o); });
    }
}

void misc(Input& in, Pool& p, uint8_t which) {
    bool ok = true;
    ct_tensor x = p.pick(in, &ok);
    switch (which % 4) {
    case 2: linalg(in, p, x, ok); break;
    case 0: {  // unique with any subset of its optional outputs
        int32_t sorted = in.flag();
        unsigned mask = in.u8() & 6;  // values are required; inverse, counts optional
        call(in, p, "unique", !ok, 3, mask, [&](ct_tensor* o) {
            return ct_unique(x, sorted, o, (mask & 2) ? nullptr : o + 1, (mask & 4) ? nullptr : o + 2);
        });
        break;
    }
    case 1: {  // einsum: an equation from a small alphabet (or raw bytes), operands from the pool
        static const char kAlpha[] = "ijkl,->.. ijIJ";
        std::string eq;
        int len = in.u8() % 16;
        bool raw = in.u8() == 0xff;
        for (int i = 0; i < len; ++i) eq += raw ? (char)(in.u8() | 1) : kAlpha[in.u8() % (sizeof kAlpha - 1)];
        ct_tensor ops[3];
        int32_t n = in.u8() % 4;
        bool all = true;  // x above is not an operand
        for (int i = 0; i < n; ++i) ops[i] = p.pick(in, &all);
        call(in, p, "einsum", !all, 1, 0, [&](ct_tensor* o) { return ct_einsum(eq.c_str(), ops, n, o); });
        break;
    }
    default: {  // metadata getters with small capacities and NULL out-pointers
        int64_t dims[4] = {-9, -9, -9, -9};
        int32_t cap = in.u8() % 4, nd = -9;
        ct_status st = ct_tensor_shape(x, dims, cap, &nd);
        check_status("tensor_shape", st, !ok);
        if (st == CT_OK) {
            if (nd < 0) die("tensor_shape", "negative rank");
            for (int32_t i = nd < cap ? nd : cap; i < 4; ++i)
                if (dims[i] != -9) die("tensor_shape", "wrote past the rank or the capacity");
        }
        char buf[64];
        int64_t cap2 = in.u8() % 64, len = -9;
        buf[cap2 > 0 ? cap2 - 1 : 0] = 'Z';
        st = ct_tensor_to_string(x, cap2 > 0 ? buf : nullptr, cap2, &len);
        check_status("tensor_to_string", st, !ok);
        if (st == CT_OK) {
            if (len < 0) die("tensor_to_string", "negative length");
            if (cap2 > 0) {
                size_t n = strnlen(buf, (size_t)cap2);
                if (n == (size_t)cap2) die("tensor_to_string", "the text is not NUL-terminated within the capacity");
                if (!valid_utf8(buf, n)) die("tensor_to_string", "the text is not valid UTF-8");
            }
        }
        double v = -9;
        int64_t iv = -9;
        st = ct_tensor_item(x, &v);
        check_status("tensor_item", st, !ok);
        if (st != CT_OK && v != -9) die("tensor_item", "an out-parameter was written by a failed call");
        st = ct_tensor_item_int64(x, &iv);
        check_status("tensor_item_int64", st, !ok);
        if (st != CT_OK && iv != -9) die("tensor_item_int64", "an out-parameter was written by a failed call");
        int32_t shares = -9;
        bool ok2 = ok;
        ct_tensor y = p.pick(in, &ok2);
        st = ct_tensor_shares_storage(x, y, &shares);
        check_status("tensor_shares_storage", st, !ok2);
        st = ct_tensor_numel(x, nullptr);
        check_status("tensor_numel", st, true);
        int32_t contiguous = -9;
        int64_t version = -9;
        check_status("tensor_is_contiguous", ct_tensor_is_contiguous(x, &contiguous), !ok);
        check_status("tensor_version", st = ct_tensor_version(x, &version), !ok);
        if (st == CT_OK && version < 0) die("tensor_version", "a negative version");
    }
    }
}

}  // namespace

void call_op(Input& in, Pool& p) {
    uint8_t which = in.u8();
    uint8_t sub = in.u8();
    switch (which % 12) {
    case 11: norm_ops(in, p, sub); break;
    case 10: toolbox_ops(in, p, sub); break;
    case 0: case 1: elementwise(in, p, sub); break;
    case 2: reductions(in, p, sub); break;
    case 3: dim_ops(in, p, sub); break;
    case 4: shape_ops(in, p, sub); break;
    case 5: indexing(in, p, sub); break;
    case 6: inplace(in, p, sub); break;
    case 7: nn(in, p, sub); break;
    case 8: pools(in, p, sub); break;
    default: misc(in, p, sub);
    }
}

}  // namespace fz

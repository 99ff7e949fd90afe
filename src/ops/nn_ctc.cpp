// nn_ctc.cpp - the connectionist temporal classification loss (torch.nn.functional.ctc_loss): a dedicated forward
// (the alpha recursion) and backward (the beta recursion and the alpha-beta posteriors), in log space and in
// double precision on the host, one batch element per task. CUDA inputs are copied to the host and the results
// back (Note [CTC on the host]). Reductions and zero_infinity are composed of ops around the per-sample losses,
// as torch composes them.
#include <cmath>
#include <limits>
#include <memory>
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "ops/nn_common.h"
#include "ops/unary_common.h"

namespace ct {

// Note [CTC on the host]: the recursions are sequential in time and read every (t, s) once per step; they run on a
// float64 host copy of log_probs (computed in double whatever the dtype, so float32 results are torch's to within
// float32 rounding). A CUDA log_probs costs one copy each way in the forward and in the backward.

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// log(exp(a) + exp(b) + exp(c)), -inf when all are -inf (torch's max-shifted form; -inf terms cost no exp).
double log_sum3(double a, double b, double c) {
    double m = std::max(a, std::max(b, c));
    if (m == kNegInf) return kNegInf;
    double sum = 0;
    for (double v : {a, b, c})
        if (v != kNegInf) sum += std::exp(v - m);
    return std::log(sum) + m;
}

// The checked problem: log-probabilities [T, N, C] as float64 on the host, and per sample its input length and
// its labels (targets, 0 <= label < C).
struct CtcProblem {
    int64_t T = 0, N = 0, C = 0, blank = 0;
    std::vector<double> lp;                   // [T, N, C] row-major
    std::vector<int64_t> input_lengths;       // [N]
    std::vector<std::vector<int64_t>> labels;  // N label sequences
    std::vector<std::vector<int64_t>> ext;     // N extended sequences l': blank, l1, blank, l2, ..., blank (2L + 1)
    double at(int64_t t, int64_t n, int64_t c) const { return lp[(size_t)((t * N + n) * C + c)]; }
};

// The extended label sequences of p's labels.
void extend_labels(CtcProblem& p) {
    p.ext.assign(p.labels.size(), {});
    for (size_t n = 0; n < p.labels.size(); ++n) {
        p.ext[n].push_back(p.blank);
        for (int64_t l : p.labels[n]) p.ext[n].insert(p.ext[n].end(), {l, p.blank});
    }
}

// The labels of each sample from targets [N, S] (padded) or [sum(target_lengths)] (concatenated), checked.
std::vector<std::vector<int64_t>> read_labels(const char* op, const Tensor& targets, const IntList& target_lengths,
                                              int64_t N, int64_t C) {
    if (targets.dtype() != DType::Int64 && targets.dtype() != DType::Int32)
        fail(CT_ERR_DTYPE, op, ": expected integer targets (int64 or int32), got ", dtype_name(targets.dtype()));
    if (targets.dim() != 1 && targets.dim() != 2)
        fail(CT_ERR_SHAPE, op, ": expected targets [N, S] or concatenated [sum(target_lengths)], got ",
             shape_str(targets.sizes()));
    int64_t total = 0, longest = 0;
    for (int64_t len : target_lengths) {
        if (len < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": target lengths must be at least 0, got ", len);
        total += len;
        longest = std::max(longest, len);
    }
    if (targets.dim() == 2 && (targets.size(0) != N || targets.size(1) < longest))
        fail(CT_ERR_SHAPE, op, ": expected targets of shape [", N, ", >= ", longest, "] (the batch and the longest ",
             "target length), got ", shape_str(targets.sizes()));
    if (targets.dim() == 1 && targets.size(0) < total)
        fail(CT_ERR_SHAPE, op, ": concatenated targets hold ", targets.size(0), " labels, the target lengths sum to ",
             total);
    NoGradGuard no_grad;
    Tensor t = to_dtype(contiguous(targets.device().is_cpu() ? targets : to_device(targets, Device{})), DType::Int64);
    const int64_t* v = t.data<int64_t>();
    std::vector<std::vector<int64_t>> labels((size_t)N);
    int64_t offset = 0;
    for (int64_t n = 0; n < N; ++n) {
        const int64_t len = target_lengths[(size_t)n];
        const int64_t* row = targets.dim() == 2 ? v + n * targets.size(1) : v + offset;
        for (int64_t i = 0; i < len; ++i) {
            if (row[i] < 0 || row[i] >= C)
                fail(CT_ERR_INDEX, op, ": target label ", row[i], " is out of range for ", C, " classes");
            labels[(size_t)n].push_back(row[i]);
        }
        offset += len;
    }
    return labels;
}

// Log alphas of sample n, [T_n, 2L + 1] row-major, and its negative log likelihood.
double ctc_alpha(const CtcProblem& p, int64_t n, std::vector<double>& alpha) {
    const int64_t Tn = p.input_lengths[(size_t)n], L = (int64_t)p.labels[(size_t)n].size(), S = 2 * L + 1;
    if (Tn == 0) return L == 0 ? 0.0 : std::numeric_limits<double>::infinity();  // only the empty alignment
    alpha.assign((size_t)(Tn * S), kNegInf);
    const int64_t* e = p.ext[(size_t)n].data();
    alpha[0] = p.at(0, n, p.blank);
    if (L > 0) alpha[1] = p.at(0, n, e[1]);
    for (int64_t t = 1; t < Tn; ++t)
        for (int64_t s = 0; s < S; ++s) {
            const double* prev = &alpha[(size_t)((t - 1) * S)];
            const int64_t l = e[s];
            double a2 = s > 0 ? prev[s - 1] : kNegInf;
            double a3 = s > 1 && l != e[s - 2] ? prev[s - 2] : kNegInf;
            double v = log_sum3(prev[s], a2, a3);
            alpha[(size_t)(t * S + s)] = v == kNegInf ? kNegInf : v + p.at(t, n, l);
        }
    const double* last = &alpha[(size_t)((Tn - 1) * S)];
    return -log_sum3(last[S - 1], L > 0 ? last[S - 2] : kNegInf, kNegInf);
}

// d nll_n / d log_probs[t, n, :] into grad (torch's formula: exp(lp) - exp(log sum_{s: l'(s) = c} alpha beta + nll
// - lp) for t < T_n, 0 after), scaled by g.
void ctc_grad(const CtcProblem& p, int64_t n, const std::vector<double>& alpha, double nll, double g, double* grad) {
    const int64_t Tn = p.input_lengths[(size_t)n], L = (int64_t)p.labels[(size_t)n].size(), S = 2 * L + 1;
    if (Tn == 0) return;
    const int64_t* e = p.ext[(size_t)n].data();
    std::vector<double> beta((size_t)(Tn * S), kNegInf), lcab((size_t)(Tn * p.C), kNegInf);
    beta[(size_t)((Tn - 1) * S + S - 1)] = p.at(Tn - 1, n, p.blank);
    if (L > 0) beta[(size_t)((Tn - 1) * S + S - 2)] = p.at(Tn - 1, n, e[S - 2]);
    for (int64_t t = Tn - 2; t >= 0; --t)
        for (int64_t s = 0; s < S; ++s) {
            const double* next = &beta[(size_t)((t + 1) * S)];
            const int64_t l = e[s];
            double b2 = s < S - 1 ? next[s + 1] : kNegInf;
            double b3 = s < S - 2 && l != e[s + 2] ? next[s + 2] : kNegInf;
            double v = log_sum3(next[s], b2, b3);
            beta[(size_t)(t * S + s)] = v == kNegInf ? kNegInf : v + p.at(t, n, l);
        }
    for (int64_t t = 0; t < Tn; ++t)
        for (int64_t s = 0; s < S; ++s) {
            double& acc = lcab[(size_t)(t * p.C + e[s])];
            acc = log_sum3(acc, alpha[(size_t)(t * S + s)] + beta[(size_t)(t * S + s)], kNegInf);
        }
    for (int64_t t = 0; t < Tn; ++t)
        for (int64_t c = 0; c < p.C; ++c) {
            const double lp = p.at(t, n, c);
            grad[(t * p.N + n) * p.C + c] = (std::exp(lp) - std::exp(lcab[(size_t)(t * p.C + c)] + nll - lp)) * g;
        }
}

// The per-sample losses [N] of log_probs [T, N, C], recorded for autograd (first order: a second derivative
// fails as torch's does).
Tensor ctc_per_sample(const Tensor& log_probs, std::shared_ptr<const CtcProblem> p, bool zero_infinity) {
    auto alphas = std::make_shared<std::vector<std::vector<double>>>((size_t)p->N);
    auto nll = std::make_shared<std::vector<double>>((size_t)p->N);
    parallel_for(p->N, 1, [&](int64_t n0, int64_t n1) {
        for (int64_t n = n0; n < n1; ++n) (*nll)[(size_t)n] = ctc_alpha(*p, n, (*alphas)[(size_t)n]);
    });
    Tensor out = empty_tensor({p->N}, log_probs.dtype(), Device{});
    dispatch_float(log_probs.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t n = 0; n < p->N; ++n) out.data<T>()[n] = (T)(*nll)[(size_t)n];
    });
    if (!log_probs.device().is_cpu()) out = copy_to_device(out, log_probs.device());
    if (!requires_grad(log_probs)) return out;
    auto backward = [p, alphas, nll, zero_infinity](BackwardCtx& c) -> TensorList {
        Tensor x = c.saved(0);
        Tensor g = to_dtype(contiguous(x.device().is_cpu() ? c.grads[0] : to_device(c.grads[0], Device{})),
                            DType::Float64);
        std::vector<double> grad((size_t)(p->T * p->N * p->C), 0.0);
        parallel_for(p->N, 1, [&](int64_t n0, int64_t n1) {
            for (int64_t n = n0; n < n1; ++n) {
                const double nl = (*nll)[(size_t)n];
                if (zero_infinity && nl == std::numeric_limits<double>::infinity()) continue;
                ctc_grad(*p, n, (*alphas)[(size_t)n], nl, g.data<double>()[n], grad.data());
            }
        });
        Tensor gx = empty_tensor(x.sizes(), x.dtype(), Device{});
        dispatch_float(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (size_t i = 0; i < grad.size(); ++i) gx.data<T>()[i] = (T)grad[i];
        });
        if (!x.device().is_cpu()) gx = copy_to_device(gx, x.device());
        if (!GradMode::is_enabled()) return {gx};
        return {unary::record1(gx, "CtcLossBackwardBackward", x, false, false, [](BackwardCtx&) -> Tensor {
            fail(CT_ERR_NOT_SUPPORTED, "ctc_loss: the second derivative is not implemented (as in torch)");
        })};
    };
    auto node = make_node("CtcLossBackward", {log_probs}, backward);
    node->save(log_probs);
    set_history(out, node);
    return out;
}

}  // namespace

Tensor ctc_loss(const Tensor& log_probs0, const Tensor& targets, const IntList& input_lengths,
                const IntList& target_lengths, int64_t blank, Reduction r, bool zero_infinity) {
    // Note [Half compute]
    if (auto h = half_dtype_of(log_probs0))
        return round_results(
            ctc_loss(as_float32(log_probs0), targets, input_lengths, target_lengths, blank, r, zero_infinity), *h);
    const char* op = "ctc_loss";
    check_floating(op, log_probs0);
    check_same_device(op, log_probs0, targets);
    if (log_probs0.dim() != 2 && log_probs0.dim() != 3)
        fail(CT_ERR_SHAPE, op, ": expected log_probs [T, N, C] or [T, C], got ", shape_str(log_probs0.sizes()));
    const bool batched = log_probs0.dim() == 3;
    Tensor log_probs = batched ? log_probs0 : unsqueeze(log_probs0, 1);
    auto p = std::make_shared<CtcProblem>();
    p->T = log_probs.size(0), p->N = log_probs.size(1), p->C = log_probs.size(2), p->blank = blank;
    if (blank < 0 || blank >= p->C) fail(CT_ERR_INVALID_ARGUMENT, op, ": blank ", blank, " is not a class of ", p->C);
    if ((int64_t)input_lengths.size() != p->N || (int64_t)target_lengths.size() != p->N)
        fail(CT_ERR_SHAPE, op, ": expected ", p->N, " input and target lengths (the batch), got ", input_lengths.size(),
             " and ", target_lengths.size());
    for (int64_t len : input_lengths)
        if (len < 0 || len > p->T)
            fail(CT_ERR_SHAPE, op, ": input lengths must be in [0, ", p->T, "] (the time steps), got ", len);
    p->input_lengths = input_lengths;
    p->labels = read_labels(op, targets, target_lengths, p->N, p->C);
    extend_labels(*p);
    {
        NoGradGuard no_grad;
        Tensor lp = to_dtype(contiguous(log_probs.device().is_cpu() ? log_probs : to_device(log_probs, Device{})),
                             DType::Float64);
        p->lp.assign(lp.data<double>(), lp.data<double>() + lp.numel());
    }
    Tensor res = ctc_per_sample(log_probs, p, zero_infinity);
    if (zero_infinity) res = where(eq(res, wrapped_scalar(INFINITY, false)), wrapped_scalar(0.0, false), res);
    if (r == Reduction::Mean) {
        Tensor lengths = empty_tensor({p->N}, res.dtype(), Device{});
        dispatch_float(res.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (int64_t n = 0; n < p->N; ++n)
                lengths.data<T>()[n] = (T)std::max<int64_t>(target_lengths[(size_t)n], 1);
        });
        return mean(div(res, res.device().is_cpu() ? lengths : copy_to_device(lengths, res.device())), {}, false);
    }
    if (r == Reduction::Sum) return sum(res, {}, false);
    return batched ? res : reshape(res, {});
}

}  // namespace ct

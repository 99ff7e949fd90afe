# losses.jl - the losses beyond crossentropy/nll/mse/bce with torch's names and arguments as keywords, `agg`
# as the other losses take it (:none, :mean, :sum; kl_div also :batchmean). Julia layout: the class or feature
# dim is the FIRST Julia dim (ctensor's last), the batch the last; class labels are 1-based.

"|x - y| (broadcast); `mae` is the same loss under Flux's name."
l1_loss(x::Tensor, y::Tensor; agg::Symbol = :mean) = newtensor(o -> LibCT.ct_l1_loss(x, y, reduction(agg), o))
const mae = l1_loss
"0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = x - y)."
smooth_l1_loss(x::Tensor, y::Tensor; agg::Symbol = :mean, beta::Real = 1.0) =
    newtensor(o -> LibCT.ct_smooth_l1_loss(x, y, reduction(agg), Float64(beta), o))
"0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta) (d = x - y)."
huber_loss(x::Tensor, y::Tensor; agg::Symbol = :mean, delta::Real = 1.0) =
    newtensor(o -> LibCT.ct_huber_loss(x, y, reduction(agg), Float64(delta), o))
const BATCHMEAN = Int32(3)   # CT_REDUCTION_BATCHMEAN: the sum divided by the batch size (kl_div only)
"KL divergence of log-probabilities x from y (or from log-probabilities y when log_target); agg may be :batchmean."
kl_div(x::Tensor, y::Tensor; agg::Symbol = :mean, log_target::Bool = false) =
    newtensor(o -> LibCT.ct_kl_div(x, y, agg === :batchmean ? BATCHMEAN : reduction(agg),
                                   Int32(log_target), o))
"log(1 + exp(-y x)); y broadcasts to x's shape."
soft_margin_loss(x::Tensor, y::Tensor; agg::Symbol = :mean) = newtensor(o -> LibCT.ct_soft_margin_loss(x, y, reduction(agg), o))
"Poisson NLL: exp(x) - y x (log_input), else x - y log(x + eps); full adds Stirling's term where y > 1."
poisson_nll_loss(x::Tensor, y::Tensor; agg::Symbol = :mean, log_input::Bool = true, full::Bool = false, eps::Real = 1e-8) =
    newtensor(o -> LibCT.ct_poisson_nll_loss(x, y, reduction(agg), Int32(log_input), Int32(full), Float64(eps), o))
"Gaussian NLL 0.5 (log v + (x - y)^2 / v), v = max(var, eps); var has x's size, or it without (or with 1 as) its first Julia dim."
gaussian_nll_loss(x::Tensor, y::Tensor, var::Tensor; agg::Symbol = :mean, full::Bool = false, eps::Real = 1e-6) =
    newtensor(o -> LibCT.ct_gaussian_nll_loss(x, y, var, reduction(agg), Int32(full), Float64(eps), o))
"x where y is 1, max(margin - x, 0) where y is -1."
hinge_embedding_loss(x::Tensor, y::Tensor; agg::Symbol = :mean, margin::Real = 1.0) =
    newtensor(o -> LibCT.ct_hinge_embedding_loss(x, y, reduction(agg), Float64(margin), o))
"max(-y (x1 - x2) + margin, 0); the three have the same number of dims."
margin_ranking_loss(x1::Tensor, x2::Tensor, y::Tensor; agg::Symbol = :mean, margin::Real = 0.0) =
    newtensor(o -> LibCT.ct_margin_ranking_loss(x1, x2, y, reduction(agg), Float64(margin), o))
"Binary cross entropy of sigmoid(x) (C, N) against 0/1 targets times weight (C,), averaged over the classes: (N,)."
multilabel_soft_margin_loss(x::Tensor, y::Tensor; agg::Symbol = :mean, weight = nothing) =
    newtensor(o -> LibCT.ct_multilabel_soft_margin_loss(x, y, opt(weight), reduction(agg), o))
"Multi-class hinge loss of x (C, N) against 1-based labels (N,): sum over i != y of max(margin - x[y] + x[i], 0)^p, / C."
multi_margin_loss(x::Tensor, y; agg::Symbol = :mean, p::Integer = 1, margin::Real = 1.0, weight = nothing) =
    with_targets(y) do t
        newtensor(o -> LibCT.ct_multi_margin_loss(x, t, reduction(agg), Int64(p), Float64(margin), opt(weight), o))
    end
"1 - cos(x1, x2) where y is 1, max(cos - margin, 0) where y is -1; x1, x2 (D, N) with y (N,), or (D,) with a 0-d y."
cosine_embedding_loss(x1::Tensor, x2::Tensor, y::Tensor; agg::Symbol = :mean, margin::Real = 0.0) =
    newtensor(o -> LibCT.ct_cosine_embedding_loss(x1, x2, y, reduction(agg), Float64(margin), o))
"max(margin + d(a, p) - d(a, n), 0), d the p-norm of x1 - x2 + eps over the first Julia dim; swap: min(d(a, n), d(p, n))."
triplet_margin_loss(a::Tensor, pos::Tensor, neg::Tensor; agg::Symbol = :mean, margin::Real = 1.0, p::Real = 2.0,
                    eps::Real = 1e-6, swap::Bool = false) =
    newtensor(o -> LibCT.ct_triplet_margin_loss(a, pos, neg, reduction(agg), Float64(margin), Float64(p), Float64(eps),
                                                Int32(swap), o))
"""
CTC loss of log-probabilities lp (C, N, T) (or (C, T) for one sample) against 1-based labels: targets (S, N) padded
or a concatenated vector; one input and one target length per sample; blank is a 1-based class (default 1).
"""
ctc_loss(lp::Tensor, targets, input_lengths, target_lengths; agg::Symbol = :mean, blank::Integer = 1,
         zero_infinity::Bool = false) =
    with_targets(targets) do t
        il, tl = Int64.(collect(input_lengths)), Int64.(collect(target_lengths))
        length(il) == length(tl) || throw(ArgumentError("ctc_loss: $(length(il)) input lengths and $(length(tl)) target lengths"))
        newtensor(o -> LibCT.ct_ctc_loss(lp, t, il, tl, Int64(length(il)), reduction(agg), Int64(blank - 1),
                                         Int32(zero_infinity), o))
    end

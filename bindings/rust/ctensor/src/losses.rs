//! The losses beyond cross entropy, NLL, MSE and BCE (re-exported from `nn`): functions with torch's
//! arguments (`l1_loss`, `smooth_l1_loss`, `huber_loss`, `kl_div`, the margin losses, `poisson_nll_loss`,
//! `gaussian_nll_loss`, `ctc_loss`), and loss modules holding torch's defaults whose `forward` calls them.
use ctensor_sys as sys;

use crate::tensor::{opt_raw, out1, Tensor};
use crate::types::Reduction;
use crate::Result;

/// `|input - target|` (broadcast together).
pub fn l1_loss(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_l1_loss(input.as_raw(), target.as_raw(), reduction.to_raw(), o) })
}

/// `0.5 d^2 / beta` where `|d| < beta`, else `|d| - 0.5 beta`, with `d = input - target` (`beta >= 0`).
pub fn smooth_l1_loss(input: &Tensor, target: &Tensor, reduction: Reduction, beta: f64) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_smooth_l1_loss(input.as_raw(), target.as_raw(), reduction.to_raw(), beta, o) })
}

/// `0.5 d^2` where `|d| < delta`, else `delta (|d| - 0.5 delta)`, with `d = input - target` (`delta > 0`).
pub fn huber_loss(input: &Tensor, target: &Tensor, reduction: Reduction, delta: f64) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_huber_loss(input.as_raw(), target.as_raw(), reduction.to_raw(), delta, o) })
}

/// KL divergence of log-probabilities `input` from `target`: `target (log target - input)` (0 where target is
/// 0), or `exp(target) (target - input)` when `log_target`.
pub fn kl_div(input: &Tensor, target: &Tensor, reduction: Reduction, log_target: bool) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_kl_div(input.as_raw(), target.as_raw(), reduction.to_raw(), log_target as i32, o) })
}

/// [`kl_div`] summed and divided by the batch size (dim 0 of `input`): torch's `reduction="batchmean"`.
pub fn kl_div_batchmean(input: &Tensor, target: &Tensor, log_target: bool) -> Result<Tensor> {
    let r = sys::CT_REDUCTION_BATCHMEAN;
    out1(|o| unsafe { sys::ct_kl_div(input.as_raw(), target.as_raw(), r, log_target as i32, o) })
}

/// `log(1 + exp(-target * input))`; `target` broadcasts to the input's shape.
pub fn soft_margin_loss(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_soft_margin_loss(input.as_raw(), target.as_raw(), reduction.to_raw(), o) })
}

/// Poisson NLL: `exp(input) - target input` (`log_input`), else `input - target log(input + eps)`; `full` adds
/// Stirling's approximation of `log(target!)` where target > 1.
pub fn poisson_nll_loss(
    input: &Tensor,
    target: &Tensor,
    log_input: bool,
    full: bool,
    eps: f64,
    reduction: Reduction,
) -> Result<Tensor> {
    let (r, li, fu) = (reduction.to_raw(), log_input as i32, full as i32);
    out1(|o| unsafe { sys::ct_poisson_nll_loss(input.as_raw(), target.as_raw(), r, li, fu, eps, o) })
}

/// Gaussian NLL `0.5 (log v + (input - target)^2 / v)` with `v = max(var, eps)` (+ `0.5 log(2 pi)` when `full`);
/// `var` has the input's shape, or it without its last dim or with 1 there.
pub fn gaussian_nll_loss(
    input: &Tensor,
    target: &Tensor,
    var: &Tensor,
    full: bool,
    eps: f64,
    reduction: Reduction,
) -> Result<Tensor> {
    let (r, fu) = (reduction.to_raw(), full as i32);
    out1(|o| unsafe { sys::ct_gaussian_nll_loss(input.as_raw(), target.as_raw(), var.as_raw(), r, fu, eps, o) })
}

/// `input` where target is 1, `max(margin - input, 0)` where it is -1.
pub fn hinge_embedding_loss(input: &Tensor, target: &Tensor, margin: f64, reduction: Reduction) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_hinge_embedding_loss(input.as_raw(), target.as_raw(), reduction.to_raw(), margin, o) })
}

/// `max(-target (input1 - input2) + margin, 0)`; the three have the same number of dims.
pub fn margin_ranking_loss(
    input1: &Tensor,
    input2: &Tensor,
    target: &Tensor,
    margin: f64,
    reduction: Reduction,
) -> Result<Tensor> {
    let r = reduction.to_raw();
    out1(|o| unsafe { sys::ct_margin_ranking_loss(input1.as_raw(), input2.as_raw(), target.as_raw(), r, margin, o) })
}

/// Binary cross entropy of `sigmoid(input)` against 0/1 targets, times `weight`, averaged over the class dim.
pub fn multilabel_soft_margin_loss(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    reduction: Reduction,
) -> Result<Tensor> {
    let (w, r) = (opt_raw(weight), reduction.to_raw());
    out1(|o| unsafe { sys::ct_multilabel_soft_margin_loss(input.as_raw(), target.as_raw(), w, r, o) })
}

/// Multi-class hinge loss of `input [N, C]` (or `[C]`) against int64 classes `[N]`: the sum over `i != y` of
/// `max(margin - x[y] + x[i], 0)^p` (`p` 1 or 2) times `weight[y]`, divided by `C`.
pub fn multi_margin_loss(
    input: &Tensor,
    target: &Tensor,
    p: i64,
    margin: f64,
    weight: Option<&Tensor>,
    reduction: Reduction,
) -> Result<Tensor> {
    let (w, r) = (opt_raw(weight), reduction.to_raw());
    out1(|o| unsafe { sys::ct_multi_margin_loss(input.as_raw(), target.as_raw(), r, p, margin, w, o) })
}

/// `1 - cos(input1, input2)` where target is 1, `max(cos - margin, 0)` where it is -1 (inputs `[N, D]` with
/// target `[N]`, or `[D]` with a 0-d target).
pub fn cosine_embedding_loss(
    input1: &Tensor,
    input2: &Tensor,
    target: &Tensor,
    margin: f64,
    reduction: Reduction,
) -> Result<Tensor> {
    let r = reduction.to_raw();
    out1(|o| unsafe { sys::ct_cosine_embedding_loss(input1.as_raw(), input2.as_raw(), target.as_raw(), r, margin, o) })
}

/// `max(margin + d(anchor, positive) - d(anchor, negative), 0)` with `d` the `p`-norm of `x1 - x2 + eps` over the
/// last dim; `swap` uses `min(d(anchor, negative), d(positive, negative))`.
#[allow(clippy::too_many_arguments)]
pub fn triplet_margin_loss(
    anchor: &Tensor,
    positive: &Tensor,
    negative: &Tensor,
    margin: f64,
    p: f64,
    eps: f64,
    swap: bool,
    reduction: Reduction,
) -> Result<Tensor> {
    let (a, po, n, r) = (anchor.as_raw(), positive.as_raw(), negative.as_raw(), reduction.to_raw());
    out1(|o| unsafe { sys::ct_triplet_margin_loss(a, po, n, r, margin, p, eps, swap as i32, o) })
}

/// Connectionist temporal classification loss of `log_probs [T, N, C]` (or `[T, C]`) against int targets
/// `[N, S]` or concatenated, with one input and one target length per sample; mean divides each loss by its target
/// length, then averages; `zero_infinity` turns impossible alignments' infinite losses (and gradients) into 0.
pub fn ctc_loss(
    log_probs: &Tensor,
    targets: &Tensor,
    input_lengths: &[i64],
    target_lengths: &[i64],
    blank: i64,
    reduction: Reduction,
    zero_infinity: bool,
) -> Result<Tensor> {
    if input_lengths.len() != target_lengths.len() {
        return Err(crate::Error::InvalidArgument(format!(
            "ctc_loss: {} input lengths and {} target lengths",
            input_lengths.len(),
            target_lengths.len()
        )));
    }
    let (n, r, zi) = (input_lengths.len() as i64, reduction.to_raw(), zero_infinity as i32);
    let (il, tl) = (input_lengths.as_ptr(), target_lengths.as_ptr());
    out1(|o| unsafe { sys::ct_ctc_loss(log_probs.as_raw(), targets.as_raw(), il, tl, n, r, blank, zi, o) })
}

/// Loss modules: public fields with torch's defaults (`Default` / `new()`), `forward` calls the function above.
macro_rules! loss_module {
    ($(#[$doc:meta])* $name:ident { $($field:ident: $ty:ty = $default:expr),* } ($($arg:ident),*) => $body:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            /// None, mean (the default) or sum.
            pub reduction: Reduction,
            $(#[doc = concat!("torch's `", stringify!($field), "`.")] pub $field: $ty,)*
        }
        impl Default for $name {
            fn default() -> $name {
                $name { reduction: Reduction::Mean, $($field: $default),* }
            }
        }
        impl $name {
            /// torch's defaults.
            pub fn new() -> $name {
                $name::default()
            }
            /// The loss of the inputs, reduced.
            pub fn forward(&self, $($arg: &Tensor),*) -> Result<Tensor> {
                let f: &dyn Fn(&$name) -> Result<Tensor> = &$body;
                f(self)
            }
        }
    };
}

loss_module!(
    /// [`l1_loss`] as a module.
    L1Loss {} (input, target) => |s| l1_loss(input, target, s.reduction));
loss_module!(
    /// [`smooth_l1_loss`] as a module (beta 1).
    SmoothL1Loss { beta: f64 = 1.0 } (input, target) => |s| smooth_l1_loss(input, target, s.reduction, s.beta));
loss_module!(
    /// [`huber_loss`] as a module (delta 1).
    HuberLoss { delta: f64 = 1.0 } (input, target) => |s| huber_loss(input, target, s.reduction, s.delta));
loss_module!(
    /// [`kl_div`] as a module (`batchmean` true divides the sum by the batch size instead of `reduction`).
    KLDivLoss { log_target: bool = false, batchmean: bool = false } (input, target) => |s| {
        if s.batchmean {
            kl_div_batchmean(input, target, s.log_target)
        } else {
            kl_div(input, target, s.reduction, s.log_target)
        }
    });
loss_module!(
    /// [`soft_margin_loss`] as a module.
    SoftMarginLoss {} (input, target) => |s| soft_margin_loss(input, target, s.reduction));
loss_module!(
    /// [`poisson_nll_loss`] as a module (log_input, not full, eps 1e-8).
    PoissonNllLoss { log_input: bool = true, full: bool = false, eps: f64 = 1e-8 } (input, target) =>
        |s| poisson_nll_loss(input, target, s.log_input, s.full, s.eps, s.reduction));
loss_module!(
    /// [`gaussian_nll_loss`] as a module (not full, eps 1e-6).
    GaussianNllLoss { full: bool = false, eps: f64 = 1e-6 } (input, target, var) =>
        |s| gaussian_nll_loss(input, target, var, s.full, s.eps, s.reduction));
loss_module!(
    /// [`hinge_embedding_loss`] as a module (margin 1).
    HingeEmbeddingLoss { margin: f64 = 1.0 } (input, target) =>
        |s| hinge_embedding_loss(input, target, s.margin, s.reduction));
loss_module!(
    /// [`margin_ranking_loss`] as a module (margin 0).
    MarginRankingLoss { margin: f64 = 0.0 } (input1, input2, target) =>
        |s| margin_ranking_loss(input1, input2, target, s.margin, s.reduction));
loss_module!(
    /// [`multilabel_soft_margin_loss`] as a module (no weight).
    MultiLabelSoftMarginLoss { weight: Option<Tensor> = None } (input, target) =>
        |s| multilabel_soft_margin_loss(input, target, s.weight.as_ref(), s.reduction));
loss_module!(
    /// [`multi_margin_loss`] as a module (p 1, margin 1, no weight).
    MultiMarginLoss { p: i64 = 1, margin: f64 = 1.0, weight: Option<Tensor> = None } (input, target) =>
        |s| multi_margin_loss(input, target, s.p, s.margin, s.weight.as_ref(), s.reduction));
loss_module!(
    /// [`cosine_embedding_loss`] as a module (margin 0).
    CosineEmbeddingLoss { margin: f64 = 0.0 } (input1, input2, target) =>
        |s| cosine_embedding_loss(input1, input2, target, s.margin, s.reduction));
loss_module!(
    /// [`triplet_margin_loss`] as a module (margin 1, p 2, eps 1e-6, no swap).
    TripletMarginLoss { margin: f64 = 1.0, p: f64 = 2.0, eps: f64 = 1e-6, swap: bool = false } (anchor, positive, negative) =>
        |s| triplet_margin_loss(anchor, positive, negative, s.margin, s.p, s.eps, s.swap, s.reduction));

/// [`ctc_loss`] as a module (blank 0, mean, no zero_infinity); the lengths come with each batch.
#[derive(Clone, Debug, Default)]
pub struct CtcLoss {
    /// The blank class.
    pub blank: i64,
    /// None, mean (the default) or sum.
    pub reduction: Reduction,
    /// Infinite losses (no alignment) and their gradients become 0.
    pub zero_infinity: bool,
}

impl CtcLoss {
    /// torch's defaults.
    pub fn new() -> CtcLoss {
        CtcLoss::default()
    }
    /// The loss of a batch with its per-sample input and target lengths.
    pub fn forward(
        &self,
        log_probs: &Tensor,
        targets: &Tensor,
        input_lengths: &[i64],
        target_lengths: &[i64],
    ) -> Result<Tensor> {
        let (blank, r, zi) = (self.blank, self.reduction, self.zero_infinity);
        ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, r, zi)
    }
}

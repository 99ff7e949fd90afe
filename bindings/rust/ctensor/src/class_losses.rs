//! Class losses with every torch option (re-exported from `nn`): `CrossEntropyLoss` (class weights,
//! ignore_index, label smoothing) and `NllLoss` (class weights, ignore_index), as builder-style structs.
use ctensor_sys as sys;

use crate::nn::DEFAULT_IGNORE_INDEX;
use crate::tensor::{opt_raw, out1, Tensor};
use crate::types::Reduction;
use crate::Result;

/// Cross entropy like `torch.nn.CrossEntropyLoss`: logits `[N, C, d...]` (or `[C]`) against int64 class
/// targets `[N, d...]` or class probabilities of the logits' shape.
///
/// ```
/// use ctensor::{nn::CrossEntropyLoss, Reduction, Tensor};
/// let logits = Tensor::from_slice(&[0.0f64, 0.0], &[1, 2])?;
/// let target = Tensor::from_slice(&[0i64], &[1])?;
/// let weight = Tensor::from_slice(&[3.0f64, 1.0], &[2])?;
/// let loss = CrossEntropyLoss::new().weight(&weight).reduction(Reduction::Sum).forward(&logits, &target)?;
/// assert!((loss.item()? - 3.0 * 2f64.ln()).abs() < 1e-12);     // weight[target] * -log(1/2)
/// let smooth = CrossEntropyLoss::new().label_smoothing(0.2).forward(&logits, &target)?;
/// assert!((smooth.item()? - 2f64.ln()).abs() < 1e-12);         // uniform logits: smoothing changes nothing
/// # Ok::<(), ctensor::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CrossEntropyLoss {
    /// Per-class weights `[C]`; `None` weighs every class 1.
    pub weight: Option<Tensor>,
    /// Mean (weighted by the targets' class weights), sum or none.
    pub reduction: Reduction,
    /// Class-index targets equal to this are skipped (default -100).
    pub ignore_index: i64,
    /// Mixes the target with the uniform distribution: `(1 - s) * target + s / C`, `s` in `[0, 1]`.
    pub label_smoothing: f64,
}

impl Default for CrossEntropyLoss {
    fn default() -> CrossEntropyLoss {
        CrossEntropyLoss {
            weight: None,
            reduction: Reduction::Mean,
            ignore_index: DEFAULT_IGNORE_INDEX,
            label_smoothing: 0.0,
        }
    }
}

impl CrossEntropyLoss {
    /// torch's defaults: no weights, mean, ignore_index -100, no smoothing.
    pub fn new() -> CrossEntropyLoss {
        CrossEntropyLoss::default()
    }
    /// Sets the class weights (a new reference to `weight` is kept).
    pub fn weight(self, weight: &Tensor) -> CrossEntropyLoss {
        CrossEntropyLoss { weight: Some(weight.clone()), ..self }
    }
    /// Sets the reduction.
    pub fn reduction(self, reduction: Reduction) -> CrossEntropyLoss {
        CrossEntropyLoss { reduction, ..self }
    }
    /// Sets the ignored target class.
    pub fn ignore_index(self, ignore_index: i64) -> CrossEntropyLoss {
        CrossEntropyLoss { ignore_index, ..self }
    }
    /// Sets the label smoothing.
    pub fn label_smoothing(self, label_smoothing: f64) -> CrossEntropyLoss {
        CrossEntropyLoss { label_smoothing, ..self }
    }

    /// The loss of `logits` against `target`. Differentiable in the logits (and in probability targets).
    pub fn forward(&self, logits: &Tensor, target: &Tensor) -> Result<Tensor> {
        let (w, r) = (opt_raw(self.weight.as_ref()), self.reduction.to_raw());
        out1(|o| unsafe {
            sys::ct_cross_entropy_ex(logits.as_raw(), target.as_raw(), w, r, self.ignore_index, self.label_smoothing, o)
        })
    }
}

/// Negative log likelihood like `torch.nn.NLLLoss`: log-probabilities `[N, C, d...]` (or `[C]`) against
/// int64 class targets `[N, d...]`; the weighted mean divides by the summed weights of the targets.
#[derive(Clone, Debug)]
pub struct NllLoss {
    /// Per-class weights `[C]`; `None` weighs every class 1.
    pub weight: Option<Tensor>,
    /// Mean (weighted), sum or none.
    pub reduction: Reduction,
    /// Targets equal to this are skipped (default -100).
    pub ignore_index: i64,
}

impl Default for NllLoss {
    fn default() -> NllLoss {
        NllLoss { weight: None, reduction: Reduction::Mean, ignore_index: DEFAULT_IGNORE_INDEX }
    }
}

impl NllLoss {
    /// torch's defaults: no weights, mean, ignore_index -100.
    pub fn new() -> NllLoss {
        NllLoss::default()
    }
    /// Sets the class weights (a new reference to `weight` is kept).
    pub fn weight(self, weight: &Tensor) -> NllLoss {
        NllLoss { weight: Some(weight.clone()), ..self }
    }
    /// Sets the reduction.
    pub fn reduction(self, reduction: Reduction) -> NllLoss {
        NllLoss { reduction, ..self }
    }
    /// Sets the ignored target class.
    pub fn ignore_index(self, ignore_index: i64) -> NllLoss {
        NllLoss { ignore_index, ..self }
    }

    /// The loss of `log_probs` against `target`. Differentiable in the log-probabilities.
    pub fn forward(&self, log_probs: &Tensor, target: &Tensor) -> Result<Tensor> {
        let (w, r) = (opt_raw(self.weight.as_ref()), self.reduction.to_raw());
        out1(|o| unsafe { sys::ct_nll_loss_ex(log_probs.as_raw(), target.as_raw(), w, r, self.ignore_index, o) })
    }
}

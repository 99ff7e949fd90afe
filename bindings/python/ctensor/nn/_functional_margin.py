"""ctensor.nn.functional's margin and likelihood losses with torch 1.13's signatures (deprecated size_average and
reduce included): margin_ranking, hinge_embedding, soft_margin, multilabel_soft_margin, multi_margin,
cosine_embedding, triplet_margin, poisson_nll, gaussian_nll and ctc. Each is one C ABI call (ct_<name>); the shape rules
and errors are the library's. Re-exported by ctensor.nn.functional."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .. import _C
from ._functional_loss import _legacy_reduction, _reduction

if TYPE_CHECKING:
    from .. import Tensor


def _code(size_average, reduce, reduction):
    return _reduction(_legacy_reduction(size_average, reduce, reduction))


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, size_average=None,
                        reduce=None, reduction: str = "mean") -> Tensor:
    """max(0, -target * (input1 - input2) + margin); the three have the same number of dims and broadcast."""
    return _C.margin_ranking_loss(input1, input2, target, _code(size_average, reduce, reduction), float(margin))


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """input where target is 1, max(0, margin - input) where it is -1."""
    return _C.hinge_embedding_loss(input, target, _code(size_average, reduce, reduction), float(margin))


def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """log(1 + exp(-target * input)); target broadcasts to the input's shape."""
    return _C.soft_margin_loss(input, target, _code(size_average, reduce, reduction))


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average=None,
                                reduce=None, reduction: str = "mean") -> Tensor:
    """Binary cross entropy of sigmoid(input) against 0/1 targets, optionally weighted, averaged over the class
    dim (the last): one loss per sample."""
    return _C.multilabel_soft_margin_loss(input, target, weight, _code(size_average, reduce, reduction))


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Optional[Tensor] = None, size_average=None, reduce=None,
                      reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss of input [N, C] (or [C]) against class indices [N]: the sum over i != y of
    max(0, margin - x[y] + x[i]) ** p (p 1 or 2) times weight[y], divided by C."""
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    return _C.multi_margin_loss(input, target, _code(size_average, reduce, reduction), int(p), float(margin), weight)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, size_average=None,
                          reduce=None, reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1; inputs [N, D] with target
    [N], or [D] with a 0-d target."""
    return _C.cosine_embedding_loss(input1, input2, target, _code(size_average, reduce, reduction), float(margin))


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) with d = pairwise_distance(p, eps); swap uses the
    smaller of d(anchor, negative) and d(positive, negative)."""
    return _C.triplet_margin_loss(anchor, positive, negative, _code(size_average, reduce, reduction), float(margin),
                                  float(p), float(eps), bool(swap))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False, size_average=None,
                     eps: float = 1e-8, reduce=None, reduction: str = "mean") -> Tensor:
    """Poisson negative log likelihood: exp(input) - target * input (log_input), else
    input - target * log(input + eps); full adds Stirling's approximation of log(target!) where target > 1."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _C.poisson_nll_loss(input, target, _reduction(reduction), bool(log_input), bool(full), float(eps))


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """Gaussian negative log likelihood 0.5 * (log(var) + (input - target) ** 2 / var) with var clamped at eps
    (+ 0.5 * log(2 * pi) when full); var has the input's shape, or it without its last dim or with 1 there."""
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _C.gaussian_nll_loss(input, target, var, _reduction(reduction), bool(full), float(eps))


def _lengths(v):
    """A ctc length argument (a tensor, or a sequence of ints) as a list of ints."""
    return v.tolist() if hasattr(v, "tolist") else list(v)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """Connectionist temporal classification loss of log_probs [T, N, C] (or [T, C]) against targets [N, S] or
    concatenated; input_lengths and target_lengths are tensors or sequences of N ints. Mean divides each loss by its
    target length, then averages; zero_infinity turns impossible alignments' infinite losses into 0."""
    il, tl = _lengths(input_lengths), _lengths(target_lengths)
    if not isinstance(il, list):  # a 0-d tensor's tolist() is a number
        il = [il]
    if not isinstance(tl, list):
        tl = [tl]
    return _C.ctc_loss(log_probs, targets, il, tl, _reduction(reduction), int(blank), bool(zero_infinity))

"""ctensor.nn.functional losses and distances with torch 1.13's signatures (including the deprecated size_average
and reduce arguments): cross_entropy, nll_loss, mse/l1/smooth_l1/huber, binary cross entropy (with weights and
pos_weight), kl_div, cosine_similarity and pairwise_distance. Re-exported by ctensor.nn.functional (the margin and
likelihood losses are in _functional_margin.py)."""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Optional

from .. import _C
from .._shape_ops import broadcast_to

if TYPE_CHECKING:
    from .. import Tensor

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
_BATCHMEAN = 3  # CT_REDUCTION_BATCHMEAN (kl_div only)


def _reduction(reduction):
    """The C ABI's reduction code of a reduction name (torch's error for an unknown one)."""
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.")
        return 1
    try:
        return _REDUCTIONS[reduction]
    except KeyError:
        raise ValueError("%s is not a valid value for reduction" % reduction) from None


def _legacy_reduction(size_average, reduce, reduction):
    """reduction, or the one the deprecated size_average/reduce flags select (with torch's warning)."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    legacy = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn("size_average and reduce args will be deprecated, please use reduction='%s' instead." % legacy)
    return legacy


def _reduce(loss, reduction):
    r = _reduction(reduction)
    return loss if r == 0 else _C.mean(loss, None, False) if r == 1 else _C.sum(loss, None, False)


def _warn_size_mismatch(input, target):
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn("Using a target size (%s) that is different to the input size (%s). This will likely lead to "
                      "incorrect results due to broadcasting. Please ensure they have the same size."
                      % (list(target.shape), list(input.shape)), stacklevel=3)


def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """torch.nn.functional.cross_entropy: input [C], [N, C] or [N, C, d1, ...]; target integer classes
    [N, d1, ...] or class probabilities of the input's shape; optional class weight [C] and label smoothing."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if weight is None and not label_smoothing:
        return _C.cross_entropy(input, target, _reduction(reduction), ignore_index)
    return _C.cross_entropy_ex(input, target, weight, _reduction(reduction), ignore_index, float(label_smoothing))


def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """torch.nn.functional.nll_loss of log-probabilities [C], [N, C] or [N, C, d1, ...]."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if weight is None:
        return _C.nll_loss(input, target, _reduction(reduction), ignore_index)
    return _C.nll_loss_ex(input, target, weight, _reduction(reduction), ignore_index)


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Squared error (input - target) ** 2, reduced."""
    return _C.mse_loss(input, target, _reduction(_legacy_reduction(size_average, reduce, reduction)))


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Absolute error |input - target| (broadcast, with torch's warning when the shapes differ), reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _warn_size_mismatch(input, target)
    return _C.l1_loss(input, target, _reduction(reduction))


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """0.5 * d ** 2 / beta where d = |input - target| < beta, else d - 0.5 * beta; beta = 0 is the L1 loss."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta < 0:  # torch's exception type and message (the C ABI's CT_ERR_INVALID_ARGUMENT would be a ValueError)
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _warn_size_mismatch(input, target)
    return _C.smooth_l1_loss(input, target, _reduction(reduction), float(beta))


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """0.5 * d ** 2 where d = |input - target| < delta, else delta * (d - 0.5 * delta) (delta > 0)."""
    if not delta > 0:  # torch's exception type and message, as smooth_l1_loss's
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _warn_size_mismatch(input, target)
    return _C.huber_loss(input, target, _reduction(reduction), float(delta))


def _broadcast_weight(name, weight, input):
    try:
        return broadcast_to(weight, tuple(input.shape))
    except (RuntimeError, ValueError) as e:
        raise RuntimeError("%s: weight of shape %s cannot be broadcast to the input's shape %s (%s)"
                           % (name, list(weight.shape), list(input.shape), e)) from None


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """-weight * (target * log(input) + (1 - target) * log(1 - input)), each log clamped at -100 like torch;
    input holds probabilities in [0, 1] and target must have the input's shape; weight broadcasts to it."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError("Using a target size (%s) that is different to the input size (%s) is deprecated. Please "
                         "ensure they have the same size." % (list(target.shape), list(input.shape)))
    if weight is None:
        return _C.binary_cross_entropy(input, target, _reduction(reduction))
    weight = _broadcast_weight("binary_cross_entropy", weight, input)
    _reduction(reduction)  # validate before computing
    return _reduce(_C.mul(_C.binary_cross_entropy(input, target, 0), weight), reduction)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight: Optional[Tensor] = None) -> Tensor:
    """Binary cross entropy of sigmoid(input), computed stably for any logit:
    weight * ((1 - target) * x + (1 + (pos_weight - 1) * target) * log(1 + exp(-x))). pos_weight (one value per
    class, broadcast along the last dim) weighs the positive term; weight broadcasts to the input's shape."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError("Target size (%s) must be the same as input size (%s)"
                         % (list(target.shape), list(input.shape)))
    code = _reduction(reduction)
    if weight is None and pos_weight is None:
        return _C.binary_cross_entropy_with_logits(input, target, code)
    if weight is not None:
        weight = _broadcast_weight("binary_cross_entropy_with_logits", weight, input)
    if pos_weight is None:
        loss = _C.binary_cross_entropy_with_logits(input, target, 0)
    else:
        # log(1 + exp(-x)) is the loss of target 1: the C op evaluates it stably (and its gradient)
        softplus_neg = _C.binary_cross_entropy_with_logits(input, _C.ones_like(input), 0)
        log_weight = _C.add(_C.mul(_C.sub(pos_weight, 1.0, 1), target), 1.0, 1)
        loss = _C.add(_C.mul(_C.sub(_C.ones_like(target), target, 1), input), _C.mul(log_weight, softplus_neg), 1)
    if weight is not None:
        loss = _C.mul(loss, weight)
    return _reduce(loss, reduction)


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """Kullback-Leibler divergence of log-probabilities input from target: target * (log(target) - input)
    (0 where target == 0), or exp(target) * (target - input) when log_target. reduction "batchmean" divides
    the sum by the batch size (the true KL divergence); "mean" (the default, with torch's warning) divides by
    the number of elements."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    code = _BATCHMEAN if reduction == "batchmean" else _reduction(reduction)
    return _C.kl_div(input, target, code, bool(log_target))


def _check_floating(op, *tensors):
    for t in tensors:
        if not t.is_floating_point():
            raise RuntimeError("%s: expected floating point inputs, got dtypes %s"
                               % (op, ", ".join(str(x.dtype) for x in tensors)))


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """sum(x1 / max(||x1||, eps) * x2 / max(||x2||, eps)) along dim, after broadcasting x1 and x2 (torch 1.13's
    formula: each input is normalised by its own clamped L2 norm)."""
    _check_floating("cosine_similarity", x1, x2)
    x1, x2 = _broadcast_pair("cosine_similarity", x1, x2)
    n1 = _C.clamp(_C.norm(x1, 2.0, (dim,), True), eps, None)
    n2 = _C.clamp(_C.norm(x2, 2.0, (dim,), True), eps, None)
    return _C.sum(_C.mul(_C.div(x1, n1), _C.div(x2, n2)), (dim,), False)


def _broadcast_pair(op, a, b):
    shape_a, shape_b = tuple(a.shape), tuple(b.shape)
    if shape_a == shape_b:
        return a, b
    n = max(len(shape_a), len(shape_b))
    padded_a, padded_b = (1,) * (n - len(shape_a)) + shape_a, (1,) * (n - len(shape_b)) + shape_b
    shape = []
    for i, (p, q) in enumerate(zip(padded_a, padded_b)):
        if p != q and 1 not in (p, q):
            raise RuntimeError("%s: the size of tensor a (%d) must match the size of tensor b (%d) at non-singleton "
                               "dimension %d (shapes %s and %s)" % (op, p, q, i, list(shape_a), list(shape_b)))
        shape.append(q if p == 1 else p)
    return broadcast_to(a, tuple(shape)), broadcast_to(b, tuple(shape))


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """The p-norm of x1 - x2 + eps over the last dim (after broadcasting), as torch computes it."""
    _check_floating("pairwise_distance", x1, x2)
    x1, x2 = _broadcast_pair("pairwise_distance", x1, x2)
    return _C.norm(_C.add(_C.sub(x1, x2, 1), float(eps), 1), float(p), (-1,), bool(keepdim))

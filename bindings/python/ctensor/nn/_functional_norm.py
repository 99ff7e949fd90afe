"""F.layer_norm / F.group_norm / F.batch_norm / F.instance_norm with torch's signatures and messages, over the C
ABI's fused ct_layer_norm / ct_group_norm / ct_batch_norm (instance_norm is batch_norm over [1, N * C, *], as
torch builds it)."""
from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Optional

from .. import _C
from ..autograd import no_grad

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = ["layer_norm", "group_norm", "batch_norm", "instance_norm"]


def _check_channel_vectors(op, input, **vectors):
    if input.ndim < 2:
        raise RuntimeError("%s: expected an input of shape [N, C, *] (at least 2 dims), got shape %s"
                           % (op, list(input.shape)))
    channels = input.shape[1]
    for name, t in vectors.items():
        if t is not None and t.numel() != channels:
            raise RuntimeError("%s: %s should contain %d elements not %d (input of shape %s, %s of shape %s)"
                               % (op, name, channels, t.numel(), list(input.shape), name, list(t.shape)))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalises over the last len(normalized_shape) dims (biased variance), then weight * x + bias."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    return _C.layer_norm(input, tuple(int(s) for s in normalized_shape), weight, bias, float(eps))


def batch_norm(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """torch.nn.functional.batch_norm of [N, C, *] input, per channel over the batch and spatial dims.
    training=True normalises with the batch mean and biased variance and, when running_mean/running_var are
    given, updates them in place: running = (1 - momentum) * running + momentum * batch_stat, with the unbiased
    batch variance. training=False normalises with running_mean and running_var (both required)."""
    _check_channel_vectors("batch_norm", input, running_mean=running_mean, running_var=running_var,
                           weight=weight, bias=bias)
    if training and input.numel() // input.shape[1] == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size %s" % (input.shape,))
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean must be defined in evaluation mode")
    return _C.batch_norm(input, running_mean, running_var, weight, bias, bool(training), float(momentum),
                         float(eps))


def group_norm(input: Tensor, num_groups: int, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               eps: float = 1e-5) -> Tensor:
    """torch.nn.functional.group_norm of [N, C, *] input: the C channels form num_groups groups, each normalised
    (biased variance) over its channels and spatial positions, then a per-channel affine weight/bias [C]."""
    _check_channel_vectors("group_norm", input)
    shape = tuple(input.shape)
    channels = shape[1]
    if num_groups <= 0 or channels % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           "shape %s and num_groups=%d" % (list(shape), num_groups))
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != (channels,):
            raise RuntimeError("Expected %s to be a vector of size equal to the number of channels in input, but "
                               "got %s of shape %s and input of shape %s" % (name, name, list(t.shape), list(shape)))
    return _C.group_norm(input, int(num_groups), weight, bias, float(eps))


def _per_instance(t, n):
    """A per-channel vector [C] repeated for each of n samples: [n * C] (differentiable)."""
    return None if t is None else _C.reshape(_C.expand(_C.unsqueeze(t, 0), (n, t.shape[0])), (-1,))


def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None, running_var: Optional[Tensor] = None,
                  weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """torch.nn.functional.instance_norm of [N, C, *] input: every (sample, channel) plane is normalised with its
    own mean and biased variance, then a per-channel affine weight/bias [C]. With use_input_stats and running
    statistics given, those are updated in place with the batch average of the per-instance mean and unbiased
    variance (momentum as in batch_norm); use_input_stats=False normalises with the running statistics."""
    _check_channel_vectors("instance_norm", input, running_mean=running_mean, running_var=running_var,
                           weight=weight, bias=bias)
    if not use_input_stats:
        if running_mean is None or running_var is None:
            raise RuntimeError("instance_norm: Expected running_mean and running_var to be defined when "
                               "use_input_stats is false (input of shape %s)" % list(input.shape))
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    shape = tuple(input.shape)
    n, c = shape[0], shape[1]
    spatial = 1
    for s in shape[2:]:
        spatial *= s
    if spatial == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size %s" % (input.shape,))
    with no_grad():
        rm, rv = (None if r is None else _C.contiguous(_per_instance(r, n)) for r in (running_mean, running_var))
    out = _C.batch_norm(_C.reshape(input, (1, n * c) + shape[2:]), rm, rv, _per_instance(weight, n),
                        _per_instance(bias, n), True, float(momentum), float(eps))
    if input.numel() > 0:
        with no_grad():  # the running statistics become the batch average of the per-instance ones
            for running, rep in ((running_mean, rm), (running_var, rv)):
                if running is not None:
                    _C.copy_(running, _C.mean(_C.reshape(rep, (n, c)), (0,), False))
    return _C.reshape(out, shape)

"""ctensor.nn normalisation layers over channels: BatchNorm1d/2d/3d and InstanceNorm1d/2d/3d (running statistics
as buffers, PyTorch's momentum rules), GroupNorm and LocalResponseNorm, thin wrappers over the functions of
ctensor.nn.functional."""
from __future__ import annotations

import warnings

from typing import TYPE_CHECKING, Any, Optional

from .. import _C
from .._creation import empty, ones, tensor, zeros
from ..autograd import no_grad
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

if TYPE_CHECKING:
    from .. import Tensor


class _BatchNorm(Module):
    """Shared by BatchNorm1d/2d/3d. Subclasses set _valid_ranks and _rank_text (the accepted input ranks)."""

    _valid_ranks: tuple = ()
    _rank_text = ""
    weight: Optional[Tensor]
    bias: Optional[Tensor]
    running_mean: Optional[Tensor]
    running_var: Optional[Tensor]
    num_batches_tracked: Optional[Tensor]

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(empty(num_features, device=device, dtype=dtype))
            self.bias = Parameter(empty(num_features, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", tensor(0, dtype="int64", device=device))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """running_mean = 0, running_var = 1, num_batches_tracked = 0 (when tracking running statistics)."""
        if self.track_running_stats:
            with no_grad():
                _C.zero_(self.running_mean)
                _C.fill_(self.running_var, 1.0)
                _C.zero_(self.num_batches_tracked)

    def reset_parameters(self) -> None:
        """Resets the running statistics, weight = 1 and bias = 0."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def _check_input(self, input):
        name, shape = type(self).__name__, list(input.shape)
        if input.ndim not in self._valid_ranks:
            raise ValueError("%s: expected %s input (got %dD input of shape %s)"
                             % (name, self._rank_text, input.ndim, shape))
        if shape[1] != self.num_features:
            raise ValueError("%s: expected input with %d channels in dim 1 (num_features), got input of shape %s"
                             % (name, self.num_features, shape))

    def _average_factor(self):
        """The momentum to pass to F.batch_norm; counts the batch when training with running statistics
        (momentum=None gives the cumulative average: factor 1 / num_batches_tracked)."""
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                _C.add_(self.num_batches_tracked, 1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked.item())
        return factor

    def forward(self, input: Tensor) -> Tensor:
        self._check_input(input)
        factor = self._average_factor()
        # batch statistics in training, and in eval too when no running statistics are kept
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None, self.running_var if track else None,
                            self.weight, self.bias, use_batch_stats, factor, self.eps)

    def extra_repr(self):
        return "%d, eps=%s, momentum=%s, affine=%s, track_running_stats=%s" % (
            self.num_features, self.eps, self.momentum, self.affine, self.track_running_stats)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of [N, C] or [N, C, L] input: y = (x - mean) / sqrt(var + eps) * weight + bias per
    channel C. Training normalises with the batch statistics (biased variance) and updates running_mean and
    running_var (unbiased variance) with momentum (None: cumulative average); eval uses the running statistics.
    Buffers running_mean, running_var and num_batches_tracked (int64) are saved in the state_dict."""

    _valid_ranks = (2, 3)
    _rank_text = "2D or 3D"


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of [N, C, H, W] input per channel C (see BatchNorm1d for the statistics)."""

    _valid_ranks = (4,)
    _rank_text = "4D"


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of [N, C, D, H, W] input per channel C (see BatchNorm1d for the statistics)."""

    _valid_ranks = (5,)
    _rank_text = "5D"


class GroupNorm(Module):
    """Group normalisation of [N, C, *] input: the C = num_channels channels form num_groups groups, each
    normalised over its channels and positions, then a per-channel affine weight (ones) and bias (zeros)."""

    weight: Optional[Tensor]
    bias: Optional[Tensor]

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if num_groups <= 0 or num_channels % num_groups:
            raise ValueError("GroupNorm: num_channels must be divisible by num_groups (got num_channels=%d, "
                             "num_groups=%d)" % (num_channels, num_groups))
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        if affine:
            self.weight = Parameter(ones(num_channels, device=device, dtype=dtype))
            self.bias = Parameter(zeros(num_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """weight = 1, bias = 0."""
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return "%d, %d, eps=%s, affine=%s" % (self.num_groups, self.num_channels, self.eps, self.affine)


class _InstanceNorm(_BatchNorm):
    """Shared by InstanceNorm1d/2d/3d (torch's defaults: no affine parameters, no running statistics).
    Subclasses set _valid_ranks (unbatched rank first) and _rank_text."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def _check_input(self, input):
        if input.ndim not in self._valid_ranks:
            raise ValueError("expected %s input (got %dD input)" % (self._rank_text, input.ndim))
        feature_dim = input.ndim - self._valid_ranks[0]
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError("expected input's size at dim=%d to match num_features (%d), but got: %d."
                                 % (feature_dim, self.num_features, input.shape[feature_dim]))
            warnings.warn("input's size at dim=%d does not match num_features. You can silence this warning by not "
                          "passing in num_features, which is not used because affine=False" % feature_dim)

    def forward(self, input: Tensor) -> Tensor:
        self._check_input(input)
        unbatched = input.ndim == self._valid_ranks[0]
        batched = _C.unsqueeze(input, 0) if unbatched else input
        out = F.instance_norm(batched, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats, self.momentum, self.eps)
        return _C.squeeze(out, 0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of [N, C, L] or unbatched [C, L] input: each (sample, channel) row is normalised
    with its own mean and biased variance, then the optional affine weight/bias per channel. With
    track_running_stats, training updates running_mean/running_var (batch average of the per-instance
    statistics, unbiased variance) and eval normalises with them."""

    _valid_ranks = (2, 3)
    _rank_text = "2D or 3D"


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of [N, C, H, W] or unbatched [C, H, W] input (see InstanceNorm1d)."""

    _valid_ranks = (3, 4)
    _rank_text = "3D or 4D"


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of [N, C, D, H, W] or unbatched [C, D, H, W] input (see InstanceNorm1d)."""

    _valid_ranks = (4, 5)
    _rank_text = "4D or 5D"


class LocalResponseNorm(Module):
    """Normalises each channel of [N, C, *] input by its neighbours across channels:
    x / (k + alpha * mean of x ** 2 over size channels) ** beta (see F.local_response_norm)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "%d, alpha=%s, beta=%s, k=%s" % (self.size, self.alpha, self.beta, self.k)

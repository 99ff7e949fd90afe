"""ctensor.nn.functional: activations, linear/conv/pool, padding, dropout, embedding, normalisation and losses
with PyTorch signatures, each one call into the C ABI or a short composition of such calls (compositions get
autograd and every device from the tensor ops)."""
from __future__ import annotations

import numbers
import warnings
from typing import TYPE_CHECKING, Optional, Sequence

import numpy as np

from .. import _C
from ..autograd import no_grad
from .._functions import gelu, log_softmax, softmax, softplus  # noqa: F401  (re-exported)
from ._functional_attention import multi_head_attention_forward, scaled_dot_product_attention  # noqa: F401
from ._functional_loss import (_reduction, binary_cross_entropy,  # noqa: F401  (re-exported)
                               binary_cross_entropy_with_logits, cosine_similarity, cross_entropy, huber_loss,
                               kl_div, l1_loss, mse_loss, nll_loss, pairwise_distance, smooth_l1_loss)
from ._embedding import embedding, embedding_bag  # noqa: F401  (re-exported)
from ._functional_resample import interpolate, upsample, upsample_bilinear, upsample_nearest  # noqa: F401
from ._functional_norm import batch_norm, group_norm, instance_norm, layer_norm  # noqa: F401  (re-exported)
from ._functional_margin import (cosine_embedding_loss, ctc_loss, gaussian_nll_loss,  # noqa: F401  (re-exported)
                                 hinge_embedding_loss, margin_ranking_loss, multi_margin_loss,
                                 multilabel_soft_margin_loss, poisson_nll_loss, soft_margin_loss,
                                 triplet_margin_loss)
from ._functional_conv import (conv1d, conv2d, conv3d, conv_transpose1d,  # noqa: F401  (re-exported)
                               conv_transpose2d, conv_transpose3d)
from ._functional_fold import fold, pixel_shuffle, pixel_unshuffle, unfold  # noqa: F401  (re-exported)
from ._functional_pool import (adaptive_avg_pool1d, adaptive_avg_pool3d,  # noqa: F401  (re-exported)
                               adaptive_max_pool1d, adaptive_max_pool1d_with_indices, adaptive_max_pool3d,
                               adaptive_max_pool3d_with_indices, avg_pool1d, avg_pool3d, max_pool1d,
                               max_pool1d_with_indices, max_pool3d, max_pool3d_with_indices)

if TYPE_CHECKING:
    from .. import Tensor

def _pair(v):
    return (v, v) if isinstance(v, numbers.Integral) else tuple(v)


def _inplace(x, out, inplace):
    if inplace:
        _C.copy_(x, out)
        return x
    return out


def relu(input, inplace=False):
    return _inplace(input, _C.relu(input), inplace)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _inplace(input, _C.leaky_relu(input, negative_slope), inplace)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def elu(input, alpha=1.0, inplace=False):
    return _inplace(input, _C.elu(input, alpha, 1.0, 1.0), inplace)


def selu(input, inplace=False):
    return _inplace(input, _C.elu(input, _SELU_ALPHA, _SELU_SCALE, 1.0), inplace)


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise ZeroDivisionError("celu: alpha cannot be 0")
    return _inplace(input, _C.elu(input, alpha, 1.0, 1.0 / alpha), inplace)


def sigmoid(input):
    return _C.sigmoid(input)


def tanh(input):
    return _C.tanh(input)


def silu(input, inplace=False):
    return _inplace(input, _C.silu(input), inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _inplace(input, _C.hardtanh(input, min_val, max_val), inplace)


def hardsigmoid(input, inplace=False):
    return _inplace(input, _C.hardsigmoid(input), inplace)


def hardswish(input, inplace=False):
    return _inplace(input, _C.hardswish(input), inplace)


def softshrink(input, lambd=0.5):
    return _C.softshrink(input, lambd)


def hardshrink(input, lambd=0.5):
    return _C.hardshrink(input, lambd)


def threshold(input, threshold, value, inplace=False):
    return _inplace(input, _C.threshold(input, threshold, value), inplace)


def mish(input, inplace=False):
    return _inplace(input, _C.mish(input), inplace)


def logsigmoid(input):
    return _C.log_sigmoid(input)


def softsign(input):
    return _C.softsign(input)


def tanhshrink(input):
    return _C.tanhshrink(input)


def _softmax_dim(name, ndim):
    warnings.warn("Implicit dimension choice for %s has been deprecated. Change the call to include dim=X as an "
                  "argument." % name, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())
    if dtype is not None:
        input = input.to(dtype)
    return _C.softmin(input, dim)


def glu(input, dim=-1):
    return _C.glu(input, dim)


def prelu(input, weight):
    return _C.prelu(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False, generator=None):
    return _inplace(input, _C.rrelu(input, lower, upper, training, generator), inplace)


def linear(input, weight, bias=None):
    return _C.linear(input, weight, bias)


def _constant_pad(input, pad, value):
    """A tensor of the padded shape filled with value, into which the (cropped) input is copied; the copy into a
    view records CopySlices, so gradients reach the input."""
    in_shape, out_shape = tuple(input.shape), list(input.shape)
    cropped, offsets = input, [0] * input.ndim
    for i in range(len(pad) // 2):
        dim, left, right = input.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        kept = in_shape[dim] + min(left, 0) + min(right, 0)  # input elements left after cropping
        if kept < 0:
            raise RuntimeError("The input size %d, plus negative padding %d and %d resulted in a negative output "
                               "size, which is invalid. Check dimension %d of your input." % (in_shape[dim], left,
                                                                                               right, dim))
        cropped = _C.narrow(cropped, dim, max(-left, 0), kept)
        out_shape[dim], offsets[dim] = kept + max(left, 0) + max(right, 0), max(left, 0)
    out = _C.full(tuple(out_shape), float(value), input._dtype_code, input._device_tuple)
    region = out
    for dim in range(input.ndim):
        if offsets[dim] or cropped.shape[dim] != out_shape[dim]:
            region = _C.narrow(region, dim, offsets[dim], cropped.shape[dim])
    _C.copy_(region, cropped)
    return out


def _pad_source_index(mode, input, dim, left, right):
    """For each output position along dim, the input position it reads (reflect, replicate or circular)."""
    n = input.shape[dim]
    if n == 0:
        raise RuntimeError("pad: %s padding needs a non-empty dimension %d, got input of shape %s"
                           % (mode, dim, list(input.shape)))
    if mode == "reflect" and (left >= n or right >= n):
        raise RuntimeError("Argument #4: Padding size should be less than the corresponding input dimension, but "
                           "got: padding (%d, %d) at dimension %d of input %s" % (left, right, dim, list(input.shape)))
    if n + left + right < 1:
        raise RuntimeError("pad: input of shape %s is too small for padding (%d, %d) at dimension %d: the output "
                           "size would be %d" % (list(input.shape), left, right, dim, n + left + right))
    if mode == "circular":
        index = _circular_index(input, dim, left, right)
    else:
        index = np.arange(-left, n + right, dtype=np.int64)
        if mode == "reflect":
            index = np.abs(index)
            index = np.where(index >= n, 2 * (n - 1) - index, index)
        else:
            index = np.clip(index, 0, n - 1)
    return _C.from_buffer(index, index.shape, _C.CT_INT64, input._device_tuple)


def _circular_index(input, dim, left, right):
    """Circular padding as torch does it: crop the negative amounts first, then wrap the cropped positions."""
    n = input.shape[dim]
    first, kept = max(-left, 0), n - max(-left, 0) - max(-right, 0)
    if max(left, 0) > kept or max(right, 0) > kept:
        raise RuntimeError("Padding value causes wrapping around more than once: padding (%d, %d) at dimension %d "
                           "of input %s" % (left, right, dim, list(input.shape)))
    return first + np.mod(np.arange(-max(left, 0), kept + max(right, 0), dtype=np.int64), kept)


_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: Optional[float] = None) -> Tensor:
    """torch.nn.functional.pad. pad = (left, right) for the last dim, then (top, bottom) for the one before, and
    so on; negative amounts crop. "constant" fills with value (default 0) and pads any number of trailing dims;
    "reflect" (mirror without repeating the edge), "replicate" (repeat the edge) and "circular" (wrap around)
    pad the last 1, 2 or 3 dims of an input with 1 or 2 more dims (batch and channel), as in torch."""
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError("Padding length too large: %d values for an input of shape %s"
                           % (len(pad), list(input.shape)))
    if mode == "constant":
        return _constant_pad(input, pad, 0.0 if value is None else value)
    if mode not in _PAD_MODES:
        raise NotImplementedError("Unrecognised padding mode %s" % mode)
    if value is not None and value != 0:
        raise RuntimeError('Padding mode "%s" doesn\'t take in value argument' % mode)
    k = len(pad) // 2
    if not 1 <= k <= 3 or input.ndim not in (k + 1, k + 2):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now "
                                  "(got padding %s for an input of shape %s)" % (pad, list(input.shape)))
    out = input
    for i in range(k):
        dim = input.ndim - 1 - i
        out = _C.index_select(out, dim, _pad_source_index(mode, input, dim, pad[2 * i], pad[2 * i + 1]))
    return out


def _pool_stride(stride, kernel):
    return kernel if stride is None or (not isinstance(stride, numbers.Integral) and len(stride) == 0) \
        else _pair(stride)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """torch.nn.functional.max_pool2d of [N, C, H, W] or [C, H, W]; indices are flat h * W + w per plane."""
    k = _pair(kernel_size)
    s, p, d = _pool_stride(stride, k), _pair(padding), _pair(dilation)
    if d == (1, 1) and not ceil_mode and not return_indices:
        return _C.max_pool2d(input, k, s, p)
    out, indices = _C.max_pool2d_ex(input, k, s, p, d, bool(ceil_mode))
    return (out, indices) if return_indices else out


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """torch.nn.functional.avg_pool2d of [N, C, H, W] or [C, H, W]."""
    k = _pair(kernel_size)
    s, p = _pool_stride(stride, k), _pair(padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    if not ceil_mode and count_include_pad and divisor_override is None:
        return _C.avg_pool2d(input, k, s, p)
    return _C.avg_pool2d_ex(input, k, s, p, bool(ceil_mode), bool(count_include_pad), int(divisor_override or 0))


def _adaptive_size(input, output_size):
    """(oh, ow) with None entries taken from the input's H, W, like torch."""
    if isinstance(output_size, numbers.Integral):
        output_size = (output_size, output_size)
    oh, ow = tuple(output_size)
    h, w = tuple(input.shape)[-2:]
    return (h if oh is None else int(oh), w if ow is None else int(ow))


def adaptive_avg_pool2d(input, output_size):
    """torch.nn.functional.adaptive_avg_pool2d: output i covers [floor(i * H / oh), ceil((i + 1) * H / oh))."""
    return _C.adaptive_avg_pool2d(input, _adaptive_size(input, output_size))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """torch.nn.functional.adaptive_max_pool2d (windows as adaptive_avg_pool2d)."""
    out, indices = _C.adaptive_max_pool2d(input, _adaptive_size(input, output_size))
    return (out, indices) if return_indices else out


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool2d(input, output_size, True)


def dropout(input, p=0.5, training=True, inplace=False, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got %s" % p)
    return _inplace(input, _C.dropout(input, p, training, generator), inplace)


def _feature_dropout(input, p, training, inplace):
    """Zeroes whole channels: one Bernoulli(1 - p) draw per (sample, channel), survivors scaled by 1 / (1 - p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got %s" % p)
    if not training or p == 0.0:
        return input
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input, got shape %s"
                           % list(input.shape))
    mask_shape = tuple(input.shape)[:2] + (1,) * (input.ndim - 2)
    if p == 1.0:
        mask = _C.zeros(mask_shape, input._dtype_code, input._device_tuple)
    else:
        keep = _C.full(mask_shape, 1.0 - p, input._dtype_code, input._device_tuple)
        mask = _C.div(_C.bernoulli(keep), 1.0 - p)
    return _inplace(input, _C.mul(input, mask), inplace)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Channel dropout of [N, C, L] or [C, L] input (torch.nn.functional.dropout1d)."""
    if input.ndim not in (2, 3):
        raise RuntimeError("dropout1d: Expected 2D or 3D input, but received a %dD input of shape %s. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs)."
                           % (input.ndim, list(input.shape)))
    if input.ndim == 3:
        return _feature_dropout(input, p, training, inplace)
    out = _C.squeeze(_feature_dropout(_C.unsqueeze(input, 0), p, training, False), 0)
    return _inplace(input, out, inplace)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Channel dropout of [N, C, H, W] input (torch.nn.functional.dropout2d): each channel of each sample is
    zeroed with probability p, the others scaled by 1 / (1 - p). Like torch, a 3-D input is taken as [N, C, L]
    (with a warning) and other ranks are accepted with a deprecation warning."""
    if input.ndim not in (3, 4):
        warnings.warn("dropout2d: Received a %d-D input to dropout2d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                      "inputs)." % input.ndim)
    if input.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a "
                      "batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.")
    return _feature_dropout(input, p, training, inplace)



def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Channel dropout of [N, C, D, H, W] or [C, D, H, W] input (torch.nn.functional.dropout3d): each channel of
    each sample is zeroed with probability p, the others scaled by 1 / (1 - p). Other ranks are accepted with
    torch's deprecation warning (a non-5-D input is taken as one unbatched sample)."""
    if input.ndim not in (4, 5):
        warnings.warn("dropout3d: Received a %d-D input to dropout3d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D "
                      "inputs)." % input.ndim)
    if input.ndim == 5:
        return _feature_dropout(input, p, training, inplace)
    out = _C.squeeze(_feature_dropout(_C.unsqueeze(input, 0), p, training, False), 0)
    return _inplace(input, out, inplace)



def one_hot(tensor, num_classes=-1):
    if tensor.dtype.is_floating_point or tensor.dtype.is_complex or tensor.dtype.name == "bool":
        raise TypeError("one_hot: expected an integer index tensor, got %s" % tensor.dtype.name)
    if num_classes < 0:
        num_classes = int(_C.max(tensor).item()) + 1
    classes = _C.arange(0.0, float(num_classes), 1.0, _C.CT_INT64, tensor._device_tuple)
    return _C.to_dtype(_C.eq(_C.unsqueeze(tensor, -1), classes), _C.CT_INT64)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """torch.nn.functional.local_response_norm of [N, C, *] input: x / (k + alpha * window_mean(x ** 2)) ** beta,
    the mean over the size channels around each channel (size // 2 before, (size - 1) // 2 after, zeros past the
    edges counted)."""
    if input.ndim < 3:
        raise ValueError("Expected 3D or higher dimensionality input (got %d dimensions)" % input.ndim)
    if size < 1:
        raise ValueError("local_response_norm: size must be positive, got %d" % size)
    if input.numel() == 0:
        return input
    channels = input.shape[1]
    padded = pad(_C.mul(input, input), [0, 0] * (input.ndim - 2) + [size // 2, (size - 1) // 2])
    window = _C.narrow(padded, 1, 0, channels)
    for offset in range(1, size):
        window = _C.add(window, _C.narrow(padded, 1, offset, channels), 1)
    div = _C.pow_scalar(_C.add(_C.mul(window, alpha / size), float(k), 1), float(beta))
    return _C.div(input, div)

def normalize(input, p=2.0, dim=1, eps=1e-12):
    n = _C.clamp(_C.norm(input, float(p), (dim,), True), eps, None)
    return _C.div(input, n)

"""ctensor.nn.functional: activations, linear/conv/pool, dropout, embedding, normalisation and losses with
PyTorch signatures, each one call into the C ABI or a short composition of such calls."""
import numbers

from .. import _C
from .._functions import gelu, log_softmax, softmax, softplus  # noqa: F401  (re-exported)

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction):
    try:
        return _REDUCTIONS[reduction]
    except KeyError:
        raise ValueError("%s is not a valid value for reduction" % reduction) from None


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
    return _inplace(input, _C.clamp(input, 0.0, 6.0), inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _inplace(input, _C.where(_C.gt(input, 0), input, _C.mul(input, negative_slope)), inplace)


def elu(input, alpha=1.0, inplace=False):
    return _inplace(input, _C.where(_C.gt(input, 0), input, _C.mul(_C.expm1(input), alpha)), inplace)


def sigmoid(input):
    return _C.sigmoid(input)


def tanh(input):
    return _C.tanh(input)


def silu(input, inplace=False):
    return _inplace(input, _C.silu(input), inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _inplace(input, _C.clamp(input, min_val, max_val), inplace)


def linear(input, weight, bias=None):
    return _C.linear(input, weight, bias)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            kh, kw = tuple(weight.shape)[2:]
            dh, dw = _pair(dilation)
            if (dh * (kh - 1)) % 2 or (dw * (kw - 1)) % 2:
                raise NotImplementedError("padding='same' needs an odd effective kernel size here")
            padding = (dh * (kh - 1) // 2, dw * (kw - 1) // 2)
        else:
            raise ValueError("Invalid padding string '%s'" % padding)
    return _C.conv2d(input, weight, bias, _pair(stride), _pair(padding), _pair(dilation), groups)


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


def embedding(input, weight, padding_idx=None):
    return _C.embedding(weight, input)


def one_hot(tensor, num_classes=-1):
    if num_classes < 0:
        num_classes = int(_C.max(tensor).item()) + 1
    classes = _C.arange(0.0, float(num_classes), 1.0, _C.CT_INT64, tensor._device_tuple)
    return _C.to_dtype(_C.eq(_C.unsqueeze(tensor, -1), classes), _C.CT_INT64)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    dims = tuple(range(-len(normalized_shape), 0))
    mean = _C.mean(input, dims, True)
    centered = _C.sub(input, mean, 1)
    var = _C.mean(_C.mul(centered, centered), dims, True)
    out = _C.mul(centered, _C.rsqrt(_C.add(var, eps, 1)))
    if weight is not None:
        out = _C.mul(out, weight)
    if bias is not None:
        out = _C.add(out, bias, 1)
    return out


def normalize(input, p=2.0, dim=1, eps=1e-12):
    n = _C.clamp(_C.norm(input, float(p), (dim,), True), eps, None)
    return _C.div(input, n)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """torch.nn.functional.cross_entropy: input [C], [N, C] or [N, C, d1, ...]; target integer classes
    [N, d1, ...] or class probabilities of the input's shape; optional class weight [C] and label smoothing."""
    if weight is None and not label_smoothing:
        return _C.cross_entropy(input, target, _reduction(reduction), ignore_index)
    return _C.cross_entropy_ex(input, target, weight, _reduction(reduction), ignore_index, float(label_smoothing))


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """torch.nn.functional.nll_loss of log-probabilities [C], [N, C] or [N, C, d1, ...]."""
    if weight is None:
        return _C.nll_loss(input, target, _reduction(reduction), ignore_index)
    return _C.nll_loss_ex(input, target, weight, _reduction(reduction), ignore_index)


def mse_loss(input, target, reduction="mean"):
    return _C.mse_loss(input, target, _reduction(reduction))


def _reduce(loss, reduction):
    r = _reduction(reduction)
    return loss if r == 0 else _C.mean(loss, None, False) if r == 1 else _C.sum(loss, None, False)


def l1_loss(input, target, reduction="mean"):
    return _reduce(_C.abs(_C.sub(input, target, 1)), reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    d = _C.abs(_C.sub(input, target, 1))
    quad = _C.div(_C.mul(_C.mul(d, d), 0.5), beta)
    return _reduce(_C.where(_C.lt(d, beta), quad, _C.sub(d, 0.5 * beta, 1)), reduction)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    if weight is not None:
        raise NotImplementedError("binary_cross_entropy: weights are not supported")
    return _C.binary_cross_entropy(input, target, _reduction(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    if weight is not None or pos_weight is not None:
        raise NotImplementedError("binary_cross_entropy_with_logits: weights are not supported")
    return _C.binary_cross_entropy_with_logits(input, target, _reduction(reduction))

"""ctensor.nn convolution layers (issue 14): Conv1d/2d/3d and ConvTranspose1d/2d/3d with torch's signatures,
parameter names (weight, bias), initialisation (U(-1/sqrt(fan_in), 1/sqrt(fan_in)), which is torch's
kaiming_uniform_(a=sqrt(5)) bound) and padding modes (non-zero modes pad with F.pad, then convolve unpadded)."""
import math

from .._creation import empty
from . import functional as F
from . import init
from ._functional_conv import _conv, _conv_transpose, _ntuple
from .module import Module
from .parameter import Parameter

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    _n = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                 padding_mode, output_padding=0, device=None, dtype=None):
        super().__init__()
        n, name = self._n, type(self).__name__
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        if padding_mode not in _PADDING_MODES:
            raise ValueError("padding_mode must be one of %s, but got padding_mode='%s'" % (_PADDING_MODES,
                                                                                            padding_mode))
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError("Invalid padding string '%s', should be one of {'valid', 'same'}" % padding)
            if padding == "same" and any(s != 1 for s in _ntuple(stride, n)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if self._transposed and padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for %s' % name)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _ntuple(kernel_size, n, "kernel_size"), _ntuple(stride, n, "stride")
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n, "padding")
        self.dilation, self.groups = _ntuple(dilation, n, "dilation"), groups
        self.output_padding, self.padding_mode = _ntuple(output_padding, n, "output_padding"), padding_mode
        # F.pad amounts for the non-zero modes: last dim first, (left, right) each (torch's
        # _reversed_padding_repeated_twice; 'same' splits d * (k - 1) with the extra on the right)
        amounts = []
        for i in reversed(range(n)):
            if self.padding == "same":
                total = self.dilation[i] * (self.kernel_size[i] - 1)
                amounts += [total // 2, total - total // 2]
            elif self.padding == "valid":
                amounts += [0, 0]
            else:
                amounts += [self.padding[i], self.padding[i]]
        self._reversed_padding_repeated_twice = amounts
        shape = (in_channels, out_channels // groups) if self._transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(empty(*shape, *self.kernel_size, device=device, dtype=dtype))
        self.bias = Parameter(empty(out_channels, device=device, dtype=dtype)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
        bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = "%d, %d, kernel_size=%s, stride=%s" % (self.in_channels, self.out_channels, self.kernel_size, self.stride)
        if self.padding not in ((0,) * self._n, "valid"):
            s += ", padding=%s" % (self.padding,)
        if self.dilation != (1,) * self._n:
            s += ", dilation=%s" % (self.dilation,)
        if self.output_padding != (0,) * self._n:
            s += ", output_padding=%s" % (self.output_padding,)
        if self.groups != 1:
            s += ", groups=%d" % self.groups
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode=%s" % self.padding_mode
        return s


class _Conv(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 0, device, dtype)

    def forward(self, input):
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, self.padding_mode)
            return _conv(self._n, padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return _conv(self._n, input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(_Conv):
    """1-d convolution over [N, C, L] (or [C, L]); weight [out, in/groups, k]."""
    _n = 1


class Conv2d(_Conv):
    """2-d convolution over [N, C, H, W] (or [C, H, W]); weight [out, in/groups, kh, kw]."""
    _n = 2


class Conv3d(_Conv):
    """3-d convolution over [N, C, D, H, W] (or [C, D, H, W]); weight [out, in/groups, kd, kh, kw]."""
    _n = 3


class _ConvTranspose(_ConvNd):
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if isinstance(padding, str):
            raise ValueError("padding must be an int or a tuple for %s" % type(self).__name__)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, output_padding, device, dtype)

    def _output_padding(self, input, output_size):
        """torch's rule: output_size (the last n dims, or n + 2 with batch and channel) picks output_padding."""
        if output_size is None:
            return self.output_padding
        n = self._n
        output_size = [int(s) for s in output_size]
        if len(output_size) in (n + 1, n + 2):
            output_size = output_size[-n:]
        if len(output_size) != n:
            raise ValueError("output_size must have %d or %d elements (got %d)" % (n, n + 2, len(output_size)))
        spatial = tuple(input.shape)[-n:]
        result = []
        for d in range(n):
            smallest = ((spatial[d] - 1) * self.stride[d] - 2 * self.padding[d]
                        + self.dilation[d] * (self.kernel_size[d] - 1) + 1)
            largest = smallest + self.stride[d] - 1
            if not smallest <= output_size[d] <= largest:
                raise ValueError("requested an output size of %s, but valid sizes range from %d to %d (for an input "
                                 "of %s)" % (output_size, smallest, largest, list(spatial)))
            result.append(output_size[d] - smallest)
        return tuple(result)

    def forward(self, input, output_size=None):
        op = self._output_padding(input, output_size)
        return _conv_transpose(self._n, input, self.weight, self.bias, self.stride, self.padding, op, self.groups,
                               self.dilation)


class ConvTranspose1d(_ConvTranspose):
    """Transposed 1-d convolution; weight [in, out/groups, k]."""
    _n = 1


class ConvTranspose2d(_ConvTranspose):
    """Transposed 2-d convolution; weight [in, out/groups, kh, kw]."""
    _n = 2


class ConvTranspose3d(_ConvTranspose):
    """Transposed 3-d convolution; weight [in, out/groups, kd, kh, kw]."""
    _n = 3

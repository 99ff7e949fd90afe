"""ctensor.nn.init: in-place parameter initialisers (run without recording a graph)."""
import math

from .. import _C
from ..autograd import no_grad


def _fans(t):
    if t.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in tuple(t.shape)[2:]:
        receptive *= s
    return t.shape[1] * receptive, t.shape[0] * receptive


def calculate_gain(nonlinearity, param=None):
    gains = {"linear": 1.0, "conv2d": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 0.75}
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in gains:
        raise ValueError("Unsupported nonlinearity %s" % nonlinearity)
    return gains[nonlinearity]


@no_grad()
def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return tensor.uniform_(a, b, generator=generator)


@no_grad()
def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return tensor.normal_(mean, std, generator=generator)


@no_grad()
def constant_(tensor, val):
    _C.fill_(tensor, float(val))
    return tensor


def zeros_(tensor):
    return constant_(tensor, 0.0)


def ones_(tensor):
    return constant_(tensor, 1.0)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _fans(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    fan_in, fan_out = _fans(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / fan)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    fan_in, fan_out = _fans(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)

"""ctensor.nn activation modules beyond ReLU/Sigmoid/Tanh/SiLU/GELU (torch.nn names and constructor arguments):
each forwards to its ctensor.nn.functional function; PReLU owns its slope Parameter."""
from .. import _C
from .._creation import full
from . import functional as F
from .module import Module
from .parameter import Parameter


class _Activation(Module):
    """A module over F.<fn>(input, *args) with the argument names of torch's module (shown by repr)."""

    _fn = None
    _arg_names = ()

    def __init__(self, *args, **kwargs):
        super().__init__()
        names = self._arg_names + ("inplace",)
        defaults = dict(self._defaults, inplace=False)
        if len(args) > len(names):
            raise TypeError("%s takes at most %d arguments" % (type(self).__name__, len(names)))
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in values:
                raise TypeError("%s got an unexpected or repeated argument %r" % (type(self).__name__, k))
            values[k] = v
        for k in names:
            setattr(self, k, values.get(k, defaults.get(k)))

    def forward(self, input):
        return type(self)._fn(input, *[getattr(self, k) for k in self._arg_names])

    def extra_repr(self):
        return ", ".join("%s=%s" % (k, getattr(self, k)) for k in self._arg_names)


def _module(name, fn, arg_names=(), defaults=None, doc=None):
    return type(name, (_Activation,), {"_fn": staticmethod(fn), "_arg_names": tuple(arg_names),
                                       "_defaults": defaults or {}, "__doc__": doc})


ELU = _module("ELU", F.elu, ("alpha",), {"alpha": 1.0}, "x if x > 0 else alpha * (exp(x) - 1)")
SELU = _module("SELU", F.selu, (), {}, "scale * ELU(x, alpha) with the self-normalising constants")
CELU = _module("CELU", F.celu, ("alpha",), {"alpha": 1.0}, "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))")
Hardtanh = _module("Hardtanh", F.hardtanh, ("min_val", "max_val"), {"min_val": -1.0, "max_val": 1.0},
                   "x clamped to [min_val, max_val]")
Hardsigmoid = _module("Hardsigmoid", F.hardsigmoid, (), {}, "clamp(x / 6 + 1/2, 0, 1)")
Hardswish = _module("Hardswish", F.hardswish, (), {}, "x * clamp(x + 3, 0, 6) / 6")
Softshrink = _module("Softshrink", F.softshrink, ("lambd",), {"lambd": 0.5}, "x - lambd, x + lambd or 0")
Hardshrink = _module("Hardshrink", F.hardshrink, ("lambd",), {"lambd": 0.5}, "x if |x| > lambd else 0")
Threshold = _module("Threshold", F.threshold, ("threshold", "value"), {}, "x if x > threshold else value")
Mish = _module("Mish", F.mish, (), {}, "x * tanh(softplus(x))")
LogSigmoid = _module("LogSigmoid", F.logsigmoid, (), {}, "log(sigmoid(x))")
Softsign = _module("Softsign", F.softsign, (), {}, "x / (1 + |x|)")
Tanhshrink = _module("Tanhshrink", F.tanhshrink, (), {}, "x - tanh(x)")
Softmin = _module("Softmin", F.softmin, ("dim",), {"dim": None}, "softmax(-x) along dim")
GLU = _module("GLU", F.glu, ("dim",), {"dim": -1}, "a * sigmoid(b) for the halves a, b of x along dim")


class PReLU(Module):
    """x if x > 0 else weight * x, with a learnt slope per channel (num_parameters) or one for all."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.weight = Parameter(full([num_parameters], init, device=device, dtype=dtype))

    def forward(self, input):
        return _C.prelu(input, self.weight)

    def extra_repr(self):
        return "num_parameters=%d" % self.num_parameters


class RReLU(Module):
    """x if x > 0 else r * x: r ~ U(lower, upper) per element in training, (lower + upper) / 2 in eval."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return "lower=%s, upper=%s" % (self.lower, self.upper)

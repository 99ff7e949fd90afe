"""ctensor.nn recurrent layers (issue 14): RNN, LSTM, GRU over the fused C op ct_rnn (one autograd node per
layer-direction), and the cells RNNCell, LSTMCell, GRUCell over ct_rnn_cell. Parameter names, their order,
shapes and initialisation U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) are torch's, so state_dicts load both ways."""
import math

from .. import _C
from .._creation import empty
from . import init
from ._rnn_utils import PackedSequence
from .module import Module
from .parameter import Parameter

# ct_rnn's mode codes (CT_RNN_RELU, CT_RNN_TANH, CT_RNN_LSTM, CT_RNN_GRU)
_MODES = {"RNN_RELU": 0, "RNN_TANH": 1, "LSTM": 2, "GRU": 3}
_GATES = {"RNN_RELU": 1, "RNN_TANH": 1, "LSTM": 4, "GRU": 3}


class RNNBase(Module):
    """The stack shared by RNN, LSTM and GRU: num_layers x (1 or 2 directions) of fused layers."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if hidden_size <= 0 or num_layers <= 0:
            raise ValueError("hidden_size and num_layers must be greater than 0, got %d and %d"
                             % (hidden_size, num_layers))
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, proj_size
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        dirs = 2 if bidirectional else 1
        self._flat_weights_names = []
        for layer in range(num_layers):
            for d in range(dirs):
                layer_in = input_size if layer == 0 else real_hidden * dirs
                shapes = [("weight_ih", (gate_size, layer_in)), ("weight_hh", (gate_size, real_hidden))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                for kind, shape in shapes:
                    name = "%s_l%d%s" % (kind, layer, "_reverse" if d else "")
                    setattr(self, name, Parameter(empty(*shape, device=device, dtype=dtype)))
                    self._flat_weights_names.append(name)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        per = len(self._flat_weights_names) // (self.num_layers * (2 if self.bidirectional else 1))
        w = self._flat_weights
        return [w[i:i + per] for i in range(0, len(w), per)]

    def flatten_parameters(self):
        """No-op (torch compacts weights for cuDNN; ct_rnn takes them as they are)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for w in self.parameters():
            init.uniform_(w, -stdv, stdv)

    def _run(self, input, hx, cx):
        packed = isinstance(input, PackedSequence)
        if packed:
            x, batch_sizes, sorted_indices, unsorted_indices = input
            bs = [int(b) for b in batch_sizes.tolist()]
            if sorted_indices is not None:
                hx = None if hx is None else _C.index_select(hx, 1, sorted_indices)
                cx = None if cx is None else _C.index_select(cx, 1, sorted_indices)
            unbatched = False
        else:
            x, bs = input, None
            if input.dim() not in (2, 3):
                raise ValueError("%s: Expected input to be 2D or 3D, got %dD tensor instead"
                                 % (type(self).__name__, input.dim()))
            unbatched = input.dim() == 2
            if unbatched:
                x = _C.unsqueeze(x, 0 if self.batch_first else 1)
                for name, h in (("hx", hx), ("cx", cx)):
                    if h is not None and h.dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, %s should also be 2-D but got %d-D tensor"
                                           % (name, h.dim()))
                hx = None if hx is None else _C.unsqueeze(hx, 1)
                cx = None if cx is None else _C.unsqueeze(cx, 1)
        out, hy, cy = _C.rnn(_MODES[self.mode], x, hx, cx, self._flat_weights, self.bias, self.num_layers,
                             self.dropout, self.training, self.bidirectional, self.batch_first and not packed,
                             self.proj_size, bs, None)
        if packed:
            out = PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices)
            if unsorted_indices is not None:
                hy = _C.index_select(hy, 1, unsorted_indices)
                cy = None if cy is None else _C.index_select(cy, 1, unsorted_indices)
        elif unbatched:
            out = _C.squeeze(out, 0 if self.batch_first else 1)
            hy = _C.squeeze(hy, 1)
            cy = None if cy is None else _C.squeeze(cy, 1)
        return out, hy, cy

    def extra_repr(self):
        s = "%d, %d" % (self.input_size, self.hidden_size)
        if self.proj_size:
            s += ", proj_size=%d" % self.proj_size
        if self.num_layers != 1:
            s += ", num_layers=%d" % self.num_layers
        if self.bias is not True:
            s += ", bias=%s" % self.bias
        if self.batch_first:
            s += ", batch_first=True"
        if self.dropout:
            s += ", dropout=%s" % self.dropout
        if self.bidirectional:
            s += ", bidirectional=True"
        return s


class RNN(RNNBase):
    """Elman RNN: h_t = nonlinearity(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), nonlinearity 'tanh' or 'relu'."""

    def __init__(self, *args, **kwargs):
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if len(args) > 3:
            nonlinearity = args[3]
            args = args[:3] + args[4:]
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError("Unknown nonlinearity '%s'. Select from 'tanh' or 'relu'." % nonlinearity)
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        out, hy, _ = self._run(input, hx, None)
        return out, hy


class LSTM(RNNBase):
    """Long short-term memory (gates i, f, g, o), optional projection of h to proj_size (weight_hr_l*)."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        h, c = (None, None) if hx is None else hx
        out, hy, cy = self._run(input, h, c)
        return out, (hy, cy)


class GRU(RNNBase):
    """Gated recurrent unit (gates r, z, n; n = tanh(W_in x + b_in + r * (W_hn h + b_hn)))."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        out, hy, _ = self._run(input, hx, None)
        return out, hy


class RNNCellBase(Module):
    """One step: weight_ih [G*hidden, input], weight_hh [G*hidden, hidden], bias_ih, bias_hh."""

    def __init__(self, mode, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.bias = mode, input_size, hidden_size, bias
        g = _GATES[mode] * hidden_size
        self.weight_ih = Parameter(empty(g, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(empty(g, hidden_size, device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(g, device=device, dtype=dtype))
            self.bias_hh = Parameter(empty(g, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for w in self.parameters():
            init.uniform_(w, -stdv, stdv)

    def _step(self, input, hx, cx):
        if input.dim() not in (1, 2):
            raise ValueError("%s: Expected input to be 1D or 2D, got %dD instead" % (type(self).__name__,
                                                                                   input.dim()))
        return _C.rnn_cell(_MODES[self.mode], input, hx, cx, self.weight_ih, self.weight_hh, self.bias_ih,
                           self.bias_hh)

    def extra_repr(self):
        s = "%d, %d" % (self.input_size, self.hidden_size)
        if self.bias is not True:
            s += ", bias=%s" % self.bias
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += ", nonlinearity=%s" % self.nonlinearity
        return s


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError("Unknown nonlinearity: %s" % nonlinearity)
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, bias,
                         device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        return self._step(input, hx, None)[0]


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, bias, device, dtype)

    def forward(self, input, hx=None):
        h, c = (None, None) if hx is None else hx
        return self._step(input, h, c)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, bias, device, dtype)

    def forward(self, input, hx=None):
        return self._step(input, hx, None)[0]

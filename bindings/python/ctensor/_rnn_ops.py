"""torch's fused recurrent functions at top level (torch.lstm, gru, rnn_tanh, rnn_relu and the cells lstm_cell,
gru_cell, rnn_tanh_cell, rnn_relu_cell), over ct_rnn / ct_rnn_cell; nn.LSTM and friends call the same C ops.
Like torch's: hx is a tuple (h0, c0) for LSTM, params the flat weights, and the packed form takes batch_sizes as the
second argument (an int64 tensor or a list)."""
from . import _C

_MODES = {"rnn_relu": 0, "rnn_tanh": 1, "lstm": 2, "gru": 3}


def _is_batch_sizes(v):
    if isinstance(v, _C.TensorBase):
        return not v.is_floating_point()
    return isinstance(v, (list, tuple)) and all(isinstance(b, int) for b in v)


def _stack(mode, args):
    # torch's two overloads: (input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
    # and (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional)
    if len(args) != 9:
        raise TypeError("%s() takes 9 arguments (%d given)" % (mode, len(args)))
    if _is_batch_sizes(args[1]):
        data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional = args
        bs = [int(b) for b in (batch_sizes.tolist() if isinstance(batch_sizes, _C.TensorBase) else batch_sizes)]
        batch_first = False
    else:
        data, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first = args
        bs = None
    h, c = hx if mode == "lstm" else (hx, None)
    proj = _proj_size(params, has_biases, num_layers, bidirectional) if mode == "lstm" else 0
    out, hy, cy = _C.rnn(_MODES[mode], data, h, c, list(params), has_biases, num_layers, dropout, train,
                         bidirectional, batch_first, proj, bs, None)
    return (out, hy, cy) if mode == "lstm" else (out, hy)


def _proj_size(params, has_biases, num_layers, bidirectional):
    """torch infers LSTM's projection from the weight count: 5 (or 3 without biases) per layer-direction."""
    per = len(params) // (num_layers * (2 if bidirectional else 1))
    return params[per - 1].shape[0] if per == (5 if has_biases else 3) else 0


def lstm(*args):
    return _stack("lstm", args)


def gru(*args):
    return _stack("gru", args)


def rnn_tanh(*args):
    return _stack("rnn_tanh", args)


def rnn_relu(*args):
    return _stack("rnn_relu", args)


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _C.rnn_cell(2, input, hx[0], hx[1], w_ih, w_hh, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _C.rnn_cell(3, input, hx, None, w_ih, w_hh, b_ih, b_hh)[0]


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _C.rnn_cell(1, input, hx, None, w_ih, w_hh, b_ih, b_hh)[0]


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _C.rnn_cell(0, input, hx, None, w_ih, w_hh, b_ih, b_hh)[0]

"""nn.RNN / LSTM / GRU, their cells and nn.utils.rnn against torch 1.13 with the same weights: outputs, final
states and every gradient (input, initial states, weights), for multi-layer, bidirectional, batch_first, proj_size,
packed sequences (sorted and not), dropout (train vs eval), unbatched input, state_dict exchange, bad input, and the
same checks on a CUDA device (the emulated backend in CI)."""
import numpy as np
import pytest

import ctensor as ct
from ctensor.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence,
                                  unpack_sequence)

torch = pytest.importorskip("torch")
TNN = torch.nn


def _ct(t, requires_grad=False, device="cpu"):
    x = ct.tensor(t.detach().numpy())
    if device != "cpu":
        x = x.to(device)
    return x.requires_grad_(requires_grad) if requires_grad else x


def _np(x):
    return x.detach().cpu().numpy() if isinstance(x, ct.Tensor) else x.detach().numpy()


def _close(a, b, tol=1e-5):
    np.testing.assert_allclose(_np(a), _np(b), rtol=tol, atol=tol)


def _pair(kind, device="cpu", dtype=torch.float64, **kw):
    """A torch module and a ctensor module of kind with the same weights (via state_dict)."""
    torch.manual_seed(0)
    tm = getattr(TNN, kind)(**kw).to(dtype)
    cm = getattr(ct.nn, kind)(**kw, dtype=ct.float64 if dtype == torch.float64 else ct.float32)
    cm.load_state_dict({k: _ct(v) for k, v in tm.state_dict().items()})
    if device != "cpu":
        cm = cm.to(device)
    return tm, cm


def _grads_match(tm, cm, pairs, tol=1e-5):
    for (tn, tp), (cn, cp) in zip(tm.named_parameters(), cm.named_parameters()):
        assert tn == cn
        _close(cp.grad, tp.grad, tol)
    for tx, cx in pairs:
        _close(cx.grad, tx.grad, tol)


def _loss(out, states):
    """A loss touching every output with distinct weights, so each gradient is checked."""
    total = (out * out).sum()
    for s in states:
        total = total + (s * s * 0.5).sum()
    return total


CONFIGS = [
    dict(num_layers=1),
    dict(num_layers=2, bidirectional=True),
    dict(num_layers=2, batch_first=True, bias=False),
    dict(num_layers=3, bidirectional=True, batch_first=True),
]


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("with_states", [False, True])
def test_stack_matches_torch(kind, cfg, with_states, device="cpu"):
    tm, cm = _pair(kind, device, input_size=5, hidden_size=6, **cfg)
    T, B = 4, 3
    shape = (B, T, 5) if cfg.get("batch_first") else (T, B, 5)
    torch.manual_seed(1)
    tx = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    cx = _ct(tx, True, device)
    D = 2 if cfg.get("bidirectional") else 1
    pairs = [(tx, cx)]
    if with_states:
        th = torch.randn(cfg["num_layers"] * D, B, 6, dtype=torch.float64, requires_grad=True)
        ch = _ct(th, True, device)
        pairs.append((th, ch))
        if kind == "LSTM":
            tc = torch.randn(cfg["num_layers"] * D, B, 6, dtype=torch.float64, requires_grad=True)
            cc = _ct(tc, True, device)
            pairs.append((tc, cc))
            th, ch = (th, tc), (ch, cc)
        tout, thy = tm(tx, th)
        cout, chy = cm(cx, ch)
    else:
        tout, thy = tm(tx)
        cout, chy = cm(cx)
    _close(cout, tout)
    tstates = list(thy) if kind == "LSTM" else [thy]
    cstates = list(chy) if kind == "LSTM" else [chy]
    for a, b in zip(cstates, tstates):
        _close(a, b)
    _loss(tout, tstates).backward()
    _loss(cout, cstates).backward()
    _grads_match(tm, cm, pairs)


def test_rnn_relu_and_positional_nonlinearity():
    tm, cm = _pair("RNN", input_size=3, hidden_size=4, num_layers=2, nonlinearity="relu")
    assert cm.nonlinearity == "relu" and cm.mode == "RNN_RELU"
    tx = torch.randn(5, 2, 3, dtype=torch.float64)
    _close(cm(_ct(tx))[0], tm(tx)[0])
    assert ct.nn.RNN(3, 4, 1, "relu").mode == "RNN_RELU"


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_proj_size(bidirectional, device="cpu"):
    tm, cm = _pair("LSTM", device, input_size=4, hidden_size=6, proj_size=3, num_layers=2,
                   bidirectional=bidirectional)
    assert [n for n, _ in cm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    tx = torch.randn(5, 2, 4, dtype=torch.float64, requires_grad=True)
    cx = _ct(tx, True, device)
    tout, (th, tc) = tm(tx)
    cout, (ch, cc) = cm(cx)
    assert tuple(ch.shape) == tuple(th.shape) and tuple(cc.shape) == tuple(tc.shape)
    _close(cout, tout), _close(ch, th), _close(cc, tc)
    _loss(tout, [th, tc]).backward()
    _loss(cout, [ch, cc]).backward()
    _grads_match(tm, cm, [(tx, cx)])


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("batch_first", [False, True])
def test_packed_sequences_match_torch(kind, enforce_sorted, batch_first, device="cpu"):
    tm, cm = _pair(kind, device, input_size=3, hidden_size=4, num_layers=2, bidirectional=True,
                   batch_first=batch_first)
    lengths = [5, 3, 3, 1] if enforce_sorted else [3, 5, 1, 3]
    shape = (4, 5, 3) if batch_first else (5, 4, 3)
    tx = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    cx = _ct(tx, True, device)
    tp = TNN.utils.rnn.pack_padded_sequence(tx, lengths, batch_first=batch_first, enforce_sorted=enforce_sorted)
    cp = pack_padded_sequence(cx, lengths, batch_first=batch_first, enforce_sorted=enforce_sorted)
    assert cp.batch_sizes.tolist() == tp.batch_sizes.tolist()
    _close(cp.data, tp.data)
    if not enforce_sorted:
        assert cp.sorted_indices.tolist() == tp.sorted_indices.tolist()
        assert cp.unsorted_indices.tolist() == tp.unsorted_indices.tolist()
    th0 = torch.randn(4, 4, 4, dtype=torch.float64, requires_grad=True)
    ch0 = _ct(th0, True, device)
    if kind == "LSTM":
        tc0 = torch.randn(4, 4, 4, dtype=torch.float64)
        tout, (thy, tcy) = tm(tp, (th0, tc0))
        cout, (chy, ccy) = cm(cp, (ch0, _ct(tc0, device=device)))
        tstates, cstates = [thy, tcy], [chy, ccy]
    else:
        tout, thy = tm(tp, th0)
        cout, chy = cm(cp, ch0)
        tstates, cstates = [thy], [chy]
    tpad, tlen = TNN.utils.rnn.pad_packed_sequence(tout, batch_first=batch_first, padding_value=-2.0,
                                                   total_length=6)
    cpad, clen = pad_packed_sequence(cout, batch_first=batch_first, padding_value=-2.0, total_length=6)
    assert clen.tolist() == tlen.tolist()
    _close(cpad, tpad)
    for a, b in zip(cstates, tstates):
        _close(a, b)
    _loss(tpad, tstates).backward()
    _loss(cpad, cstates).backward()
    _grads_match(tm, cm, [(tx, cx), (th0, ch0)])


def test_pad_and_pack_sequence_helpers():
    seqs = [torch.randn(n, 2, dtype=torch.float64, requires_grad=True) for n in (2, 4, 1)]
    cseqs = [_ct(s, True) for s in seqs]
    for bf in (False, True):
        _close(pad_sequence(cseqs, batch_first=bf, padding_value=7.0),
               TNN.utils.rnn.pad_sequence(seqs, batch_first=bf, padding_value=7.0))
    tp = TNN.utils.rnn.pack_sequence(seqs, enforce_sorted=False)
    cp = pack_sequence(cseqs, enforce_sorted=False)
    _close(cp.data, tp.data)
    for a, b in zip(unpack_sequence(cp), TNN.utils.rnn.unpack_sequence(tp)):
        _close(a, b)
    (cp.data * cp.data).sum().backward()
    (tp.data * tp.data).sum().backward()
    for a, b in zip(cseqs, seqs):
        _close(a.grad, b.grad)
    with pytest.raises(RuntimeError, match="sorted in decreasing order"):
        pack_sequence(cseqs)


@pytest.mark.parametrize("kind", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("batched", [True, False])
def test_cells_match_torch(kind, batched, device="cpu"):
    tm, cm = _pair(kind, device, input_size=3, hidden_size=5)
    shape = (4, 3) if batched else (3,)
    hshape = (4, 5) if batched else (5,)
    tx = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    th = torch.randn(*hshape, dtype=torch.float64, requires_grad=True)
    cx, ch = _ct(tx, True, device), _ct(th, True, device)
    pairs = [(tx, cx), (th, ch)]
    if kind == "LSTMCell":
        tc = torch.randn(*hshape, dtype=torch.float64, requires_grad=True)
        cc = _ct(tc, True, device)
        pairs.append((tc, cc))
        tstates, cstates = list(tm(tx, (th, tc))), list(cm(cx, (ch, cc)))
    else:
        tstates, cstates = [tm(tx, th)], [cm(cx, ch)]
    for a, b in zip(cstates, tstates):
        _close(a, b)
    _loss(tstates[0], tstates[1:]).backward()
    _loss(cstates[0], cstates[1:]).backward()
    _grads_match(tm, cm, pairs)
    _close(cm(cx)[0] if kind == "LSTMCell" else cm(cx), tm(tx)[0] if kind == "LSTMCell" else tm(tx))


def test_unbatched_input_and_float32():
    tm, cm = _pair("GRU", dtype=torch.float32, input_size=3, hidden_size=4, num_layers=2)
    tx = torch.randn(6, 3)
    tout, th = tm(tx)
    cout, chy = cm(_ct(tx))
    assert cout.dtype == ct.float32 and tuple(chy.shape) == (2, 4)
    _close(cout, tout, 1e-5), _close(chy, th, 1e-5)


def test_dropout_train_vs_eval():
    tm, cm = _pair("LSTM", input_size=3, hidden_size=8, num_layers=3, dropout=0.5)
    tx = torch.randn(5, 2, 3, dtype=torch.float64)
    cm.eval(), tm.eval()
    _close(cm(_ct(tx))[0], tm(tx)[0])
    cm.train()
    a, b = cm(_ct(tx))[0], cm(_ct(tx))[0]
    assert not np.allclose(_np(a), _np(b)), "training dropout draws a new mask each call"
    assert not np.allclose(_np(a), _np(tm(tx)[0]))
    one_layer = ct.nn.LSTM(3, 4, num_layers=1, dropout=0.5)  # no layer follows: no dropout, as torch
    x = ct.randn(2, 1, 3)
    _close(one_layer(x)[0], one_layer(x)[0], 0)


def test_state_dict_round_trip_and_init():
    cm = ct.nn.LSTM(4, 16, num_layers=2, bidirectional=True, proj_size=5)
    tm = TNN.LSTM(4, 16, num_layers=2, bidirectional=True, proj_size=5).double()
    sd = cm.state_dict()
    assert list(sd) == list(tm.state_dict())
    tm.load_state_dict({k: torch.from_numpy(_np(v)) for k, v in sd.items()})
    for v in sd.values():
        assert np.abs(_np(v)).max() <= 0.25 + 1e-7  # U(-1/sqrt(16), 1/sqrt(16))
    assert cm.weight_hr_l1_reverse.shape == (5, 16)


def test_bad_input_is_a_clear_error():
    m = ct.nn.LSTM(3, 4)
    with pytest.raises(ValueError, match="Expected input to be 2D or 3D"):
        m(ct.randn(2, 2, 2, 3))
    with pytest.raises(ValueError, match=r"lstm: input_size of the input is 5 but weight_ih_l0 expects 3"):
        m(ct.randn(2, 2, 5))
    with pytest.raises(ValueError, match=r"expected hx of shape \[1, 2, 4\], got \[1, 2, 6\]"):
        m(ct.randn(3, 2, 3), (ct.randn(1, 2, 6), ct.randn(1, 2, 4)))
    with pytest.raises(ValueError, match="batch_sizes must not increase"):
        m(ct.nn.utils.rnn.PackedSequence(ct.randn(5, 3), ct.tensor([2, 3])))
    with pytest.raises(ValueError, match="proj_size"):
        ct.nn.GRU(3, 4, proj_size=2)
    with pytest.raises(ValueError, match=r"gru_cell: expected weight_hh of shape"):
        ct._C.rnn_cell(3, ct.randn(2, 3), None, None, ct.randn(12, 3), ct.randn(12, 5), None, None)


def test_fused_backward_is_one_node():
    cm = ct.nn.LSTM(3, 4)
    packed = pack_padded_sequence(ct.randn(50, 2, 3), [50, 40])
    out, (h, c) = cm(packed)
    assert out.data.grad_fn.name() == "RnnBackward"  # one node for 90 rows of 50 steps
    cell = ct.nn.GRUCell(3, 4)
    assert cell(ct.randn(2, 3)).grad_fn.name() == "RnnBackward"


cuda = pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA device (the emulated backend runs this in CI)")


@cuda
def test_cuda_stack_packed_and_cells():
    test_stack_matches_torch("LSTM", dict(num_layers=2, bidirectional=True), True, device="cuda")
    test_stack_matches_torch("GRU", dict(num_layers=1, batch_first=True), False, device="cuda")
    test_lstm_proj_size(True, device="cuda")
    test_packed_sequences_match_torch("GRU", False, True, device="cuda")
    test_cells_match_torch("LSTMCell", True, device="cuda")
    out, _ = ct.nn.RNN(3, 4).to("cuda")(ct.randn(2, 1, 3).to("cuda"))
    assert out.is_cuda

"""Mixed dtypes: where torch 1.13 refuses tensors of different dtypes in one op (linear, conv, the recurrent nets and
their cells, norms, class-loss weights, binary_cross_entropy), ctensor refuses too, and where torch promotes (the
elementwise losses) ctensor gives torch's result dtype."""
import numpy as np
import pytest
import torch

import ctensor as ct

RNG = np.random.default_rng(11)
DTYPES = ["float32", "float64", "bfloat16", "float16"]


def pair(shape, dtype):
    a = RNG.standard_normal(shape).astype(np.float32)
    return ct.from_numpy(a.copy()).to(getattr(ct, dtype)), torch.from_numpy(a.copy()).to(getattr(torch, dtype))


def run_both(fn_ct, fn_torch):
    """(ctensor result or its exception, torch result or its exception)."""
    out = []
    for fn in (fn_ct, fn_torch):
        try:
            out.append(fn())
        except (RuntimeError, TypeError, ValueError) as e:
            out.append(e)
    return out


def rnn_case(kind, cell):
    def make(lib, x, w):
        lib.manual_seed(0)
        cls = getattr(lib.nn, kind + ("Cell" if cell else ""))
        m = cls(3, 2).to(w)
        return m(x if cell else x.unsqueeze(0))
    return make


CASES = {
    "linear": lambda lib, x, w: lib.nn.functional.linear(x, w(lib, (2, 3))),
    "conv1d": lambda lib, x, w: lib.nn.functional.conv1d(x.unsqueeze(0), w(lib, (2, 4, 1))),
    "layer_norm": lambda lib, x, w: lib.nn.functional.layer_norm(x, (3,), w(lib, (3,))),
    "cross_entropy_weight": lambda lib, x, w: lib.nn.functional.cross_entropy(
        x, lib.tensor([0, 1, 2, 0]), weight=w(lib, (3,)).abs()),
    "nll_loss_weight": lambda lib, x, w: lib.nn.functional.nll_loss(x, lib.tensor([0, 1, 2, 0]), weight=w(lib, (3,))),
    "binary_cross_entropy": lambda lib, x, w: lib.nn.functional.binary_cross_entropy(
        lib.sigmoid(x), lib.sigmoid(w(lib, (4, 3)))),
    "mse_loss": lambda lib, x, w: lib.nn.functional.mse_loss(x, w(lib, (4, 3))),
    "l1_loss": lambda lib, x, w: lib.nn.functional.l1_loss(x, w(lib, (4, 3))),
}


@pytest.mark.parametrize("name", sorted(CASES) + ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("x_dtype,w_dtype", [("float32", "float64"), ("float64", "float32"), ("bfloat16", "float32"),
                                             ("float32", "bfloat16"), ("float16", "float32"), ("bfloat16", "bfloat16")])
def test_mixed_dtypes_refused_or_promoted_like_torch(name, x_dtype, w_dtype):
    xs = pair((4, 3), x_dtype)
    weights = {}

    def w(lib, shape):
        if shape not in weights:
            weights[shape] = pair(shape, w_dtype)
        return weights[shape][0 if lib is ct else 1]
    if name in CASES:
        fn = CASES[name]
    else:
        kind = name[:-4] if name.endswith("Cell") else name
        make = rnn_case(kind, name.endswith("Cell"))

        def fn(lib, x, w):
            out = make(lib, x, getattr(lib, w_dtype))
            return out[0] if isinstance(out, tuple) else out
    if name.endswith("Cell") and x_dtype == "float16":
        pytest.skip("torch 1.13 has no float16 addmm on the CPU")
    got, want = run_both(lambda: fn(ct, xs[0], w), lambda: fn(torch, xs[1], w))
    if isinstance(want, Exception) and "not implemented for" in str(want):
        pytest.skip(f"torch 1.13 has no CPU kernel for this op in these dtypes ({want})")
    if isinstance(want, Exception):
        assert isinstance(got, Exception), f"{name}({x_dtype}, {w_dtype}): torch raises ({want}), ctensor gave {got.dtype}"
    else:
        assert not isinstance(got, Exception), f"{name}({x_dtype}, {w_dtype}): ctensor raised {got}"
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]

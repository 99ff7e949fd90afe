"""ctensor.nn training pieces against PyTorch: BatchNorm1d/2d (outputs, input/weight/bias gradients and running
statistics over several steps, eval, state_dict), GroupNorm, F.pad in every mode (values and gradients) and the
padding layers, channel dropout (structural and statistical checks) and nn.utils gradient clipping and
parameter vectors."""
import math

import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

from conftest import requires_torch


def _pair(torch, array, requires_grad=True):
    """The same float64 values as a ctensor and a torch tensor."""
    return (ct.tensor(array, dtype=ct.float64, requires_grad=requires_grad),
            torch.tensor(array, dtype=torch.float64, requires_grad=requires_grad))


def _np(t):
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def _backward_both(mine, theirs, rng):
    """Backpropagates the same random output gradient through both results."""
    torch = requires_torch()
    upstream = rng.standard_normal(tuple(theirs.shape))
    mine.backward(ct.tensor(upstream, dtype=mine.dtype))
    theirs.backward(torch.tensor(upstream, dtype=theirs.dtype))


def _copy_affine(mine, theirs, rng):
    """Random weight and bias, identical in both modules."""
    torch = requires_torch()
    for name in ("weight", "bias"):
        value = rng.standard_normal(tuple(getattr(theirs, name).shape))
        getattr(mine, name).data = ct.tensor(value, dtype=getattr(mine, name).dtype)
        with torch.no_grad():
            getattr(theirs, name).copy_(torch.tensor(value))


# ---- BatchNorm --------------------------------------------------------------------------------------------------

BN_CASES = [
    ("BatchNorm1d", (6, 3), {}),
    ("BatchNorm1d", (4, 3, 5), {"momentum": 0.3}),
    ("BatchNorm2d", (3, 4, 5, 2), {}),
    ("BatchNorm2d", (2, 4, 3, 3), {"momentum": None}),
    ("BatchNorm2d", (2, 4, 3, 3), {"affine": False}),
    ("BatchNorm1d", (5, 2, 3), {"track_running_stats": False}),
    ("BatchNorm3d", (2, 2, 3, 2, 2), {"eps": 1e-3}),
]


@pytest.mark.parametrize("name,shape,kwargs", BN_CASES)
def test_batch_norm_training_steps_match_torch(name, shape, kwargs, rng):
    torch = requires_torch()
    mine, theirs = getattr(nn, name)(shape[1], **kwargs).double(), getattr(torch.nn, name)(shape[1], **kwargs).double()
    if mine.affine:
        _copy_affine(mine, theirs, rng)
    for step in range(4):
        x_mine, x_torch = _pair(torch, rng.standard_normal(shape) * (step + 1) + step)
        y_mine, y_torch = mine(x_mine), theirs(x_torch)
        np.testing.assert_allclose(_np(y_mine), _np(y_torch), rtol=1e-10, atol=1e-10)
        _backward_both(y_mine, y_torch, rng)
        np.testing.assert_allclose(_np(x_mine.grad), _np(x_torch.grad), rtol=1e-9, atol=1e-10)
        if mine.affine:
            np.testing.assert_allclose(_np(mine.weight.grad), _np(theirs.weight.grad), rtol=1e-9, atol=1e-10)
            np.testing.assert_allclose(_np(mine.bias.grad), _np(theirs.bias.grad), rtol=1e-9, atol=1e-10)
    for buffer in ("running_mean", "running_var", "num_batches_tracked"):
        if theirs.track_running_stats:
            np.testing.assert_allclose(_np(getattr(mine, buffer)), _np(getattr(theirs, buffer)), rtol=1e-12)
        else:
            assert getattr(mine, buffer) is None
    assert [n for n, _ in mine.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert list(mine.state_dict()) == list(theirs.state_dict())
    mine.eval()
    theirs.eval()
    x_mine, x_torch = _pair(torch, rng.standard_normal(shape))
    y_mine, y_torch = mine(x_mine), theirs(x_torch)
    np.testing.assert_allclose(_np(y_mine), _np(y_torch), rtol=1e-10, atol=1e-10)
    _backward_both(y_mine, y_torch, rng)
    np.testing.assert_allclose(_np(x_mine.grad), _np(x_torch.grad), rtol=1e-9, atol=1e-10)
    assert repr(mine) == repr(theirs)


def test_batch_norm_running_stats_by_hand_and_without_autograd():
    bn = nn.BatchNorm1d(2, momentum=0.5)
    running_mean = bn.running_mean
    x = ct.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 60.0]], requires_grad=True)
    y = bn(x)
    # channel 0: mean 3, biased var 8/3, unbiased var 4; channel 1: mean 30, unbiased var 700
    np.testing.assert_allclose(bn.running_mean.numpy(), [0.5 * 3.0, 0.5 * 30.0], rtol=1e-6)
    np.testing.assert_allclose(bn.running_var.numpy(), [0.5 + 0.5 * 4.0, 0.5 + 0.5 * 700.0], rtol=1e-6)
    expected0 = (np.array([1.0, 3.0, 5.0]) - 3.0) / np.sqrt(8.0 / 3.0 + 1e-5)
    np.testing.assert_allclose(_np(y)[:, 0], expected0, rtol=1e-5)
    assert bn.running_mean is running_mean and not running_mean.requires_grad and running_mean.grad_fn is None
    assert bn.num_batches_tracked.dtype == ct.int64 and bn.num_batches_tracked.item() == 1
    y.sum().backward()
    assert bn.running_mean.grad is None
    bn.eval()
    before = bn.running_mean.numpy().copy()
    bn(x)
    np.testing.assert_array_equal(bn.running_mean.numpy(), before)
    assert bn.num_batches_tracked.item() == 1


def test_batch_norm_cumulative_average_and_reset():
    bn = nn.BatchNorm1d(1, momentum=None, affine=False)
    batches = [[1.0, 3.0], [5.0, 7.0], [0.0, 30.0]]
    for batch in batches:
        bn(ct.tensor(batch).unsqueeze(1))
    # momentum=None: factor 1 / k at batch k, so the running stats are plain averages of the batch statistics
    # (the initial running_var of 1 is weighted out at the first batch)
    assert bn.running_mean.item() == pytest.approx(np.mean([np.mean(b) for b in batches]))
    assert bn.running_var.item() == pytest.approx(np.mean([np.var(b, ddof=1) for b in batches]), rel=1e-6)
    bn.reset_running_stats()
    assert bn.running_mean.item() == 0.0 and bn.running_var.item() == 1.0 and bn.num_batches_tracked.item() == 0


def test_batch_norm_float32_and_state_dict_round_trip(tmp_path, rng):
    torch = requires_torch()
    mine, theirs = nn.BatchNorm2d(3), torch.nn.BatchNorm2d(3)
    for _ in range(3):
        x = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
        np.testing.assert_allclose(_np(mine(ct.tensor(x))), _np(theirs(torch.tensor(x))), rtol=1e-4, atol=1e-5)
    path = tmp_path / "bn.ct"
    ct.save(mine.state_dict(), path)
    restored = nn.BatchNorm2d(3)
    restored.load_state_dict(ct.load(path))
    mine.eval()
    restored.eval()
    x = ct.randn(2, 3, 2, 2)
    np.testing.assert_array_equal(_np(restored(x)), _np(mine(x)))
    assert restored(x).dtype == ct.float32 and restored.num_batches_tracked.item() == 3


def test_batch_norm_empty_batch_keeps_running_stats():
    bn = nn.BatchNorm2d(3)
    out = bn(ct.zeros(0, 3, 2, 2))
    assert out.shape == (0, 3, 2, 2)
    assert bn.running_mean.numpy().tolist() == [0.0] * 3 and bn.running_var.numpy().tolist() == [1.0] * 3


def test_batch_norm_errors():
    with pytest.raises(ValueError, match=r"BatchNorm1d: expected 2D or 3D input \(got 4D input of shape \[2, 3, 4, 5\]\)"):
        nn.BatchNorm1d(3)(ct.zeros(2, 3, 4, 5))
    with pytest.raises(ValueError, match=r"BatchNorm2d: expected 4D input \(got 3D input of shape \[2, 3, 4\]\)"):
        nn.BatchNorm2d(3)(ct.zeros(2, 3, 4))
    with pytest.raises(ValueError, match=r"BatchNorm2d: expected input with 4 channels .* shape \[2, 3, 5, 5\]"):
        nn.BatchNorm2d(4)(ct.zeros(2, 3, 5, 5))
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        nn.BatchNorm1d(3)(ct.zeros(1, 3))
    with pytest.raises(RuntimeError, match="running_mean must be defined in evaluation mode"):
        F.batch_norm(ct.zeros(2, 3), None, None)
    with pytest.raises(RuntimeError, match=r"batch_norm: running_mean should contain 4 elements not 3"):
        F.batch_norm(ct.zeros(2, 4), ct.zeros(3), ct.ones(3))
    with pytest.raises(RuntimeError, match=r"batch_norm: weight should contain 3 elements not 2"):
        F.batch_norm(ct.zeros(2, 3), ct.zeros(3), ct.ones(3), weight=ct.ones(2))
    with pytest.raises(RuntimeError, match=r"at least 2 dims\), got shape \[3\]"):
        F.batch_norm(ct.zeros(3), ct.zeros(3), ct.ones(3))


def test_functional_batch_norm_matches_torch(rng):
    torch = requires_torch()
    x_mine, x_torch = _pair(torch, rng.standard_normal((5, 3, 4)))
    w_mine, w_torch = _pair(torch, rng.standard_normal(3))
    b_mine, b_torch = _pair(torch, rng.standard_normal(3))
    stats = rng.standard_normal(3), rng.random(3) + 0.5
    rm_mine, rv_mine = (ct.tensor(s, dtype=ct.float64) for s in stats)
    rm_torch, rv_torch = (torch.tensor(s) for s in stats)
    for training in (True, False):
        y_mine = F.batch_norm(x_mine, rm_mine, rv_mine, w_mine, b_mine, training, 0.2, 1e-3)
        y_torch = torch.nn.functional.batch_norm(x_torch, rm_torch, rv_torch, w_torch, b_torch, training, 0.2, 1e-3)
        np.testing.assert_allclose(_np(y_mine), _np(y_torch), rtol=1e-10, atol=1e-12)
        _backward_both(y_mine, y_torch, rng)
        for mine, theirs in ((x_mine, x_torch), (w_mine, w_torch), (b_mine, b_torch)):
            np.testing.assert_allclose(_np(mine.grad), _np(theirs.grad), rtol=1e-9, atol=1e-10)
        np.testing.assert_allclose(_np(rm_mine), _np(rm_torch), rtol=1e-12)
        np.testing.assert_allclose(_np(rv_mine), _np(rv_torch), rtol=1e-12)


# ---- GroupNorm --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape,groups,affine", [((4, 6), 3, True), ((2, 6, 5), 2, True), ((3, 4, 3, 2), 4, True),
                                                 ((2, 4, 3, 3), 1, False), ((0, 4, 2), 2, True)])
def test_group_norm_matches_torch(shape, groups, affine, rng):
    torch = requires_torch()
    mine = nn.GroupNorm(groups, shape[1], affine=affine).double()
    theirs = torch.nn.GroupNorm(groups, shape[1], affine=affine).double()
    if affine:
        _copy_affine(mine, theirs, rng)
    x_mine, x_torch = _pair(torch, rng.standard_normal(shape) * 3 + 1)
    y_mine, y_torch = mine(x_mine), theirs(x_torch)
    np.testing.assert_allclose(_np(y_mine), _np(y_torch), rtol=1e-10, atol=1e-10)
    _backward_both(y_mine, y_torch, rng)
    np.testing.assert_allclose(_np(x_mine.grad), _np(x_torch.grad), rtol=1e-9, atol=1e-10)
    if affine:
        np.testing.assert_allclose(_np(mine.weight.grad), _np(theirs.weight.grad), rtol=1e-9, atol=1e-10)
        np.testing.assert_allclose(_np(mine.bias.grad), _np(theirs.bias.grad), rtol=1e-9, atol=1e-10)
    assert repr(mine) == repr(theirs) and list(mine.state_dict()) == list(theirs.state_dict())


def test_group_norm_double_backward_matches_torch(rng):
    torch = requires_torch()
    x_mine, x_torch = _pair(torch, rng.standard_normal((2, 4, 3)))
    w_mine, w_torch = _pair(torch, rng.standard_normal(4))
    (g_mine,) = ct.autograd.grad(F.group_norm(x_mine, 2, w_mine).pow(3).sum(), [x_mine], create_graph=True)
    (g_torch,) = torch.autograd.grad(torch.nn.functional.group_norm(x_torch, 2, w_torch).pow(3).sum(), [x_torch],
                                     create_graph=True)
    (g_mine * g_mine).sum().backward()
    (g_torch * g_torch).sum().backward()
    np.testing.assert_allclose(_np(x_mine.grad), _np(x_torch.grad), rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(_np(w_mine.grad), _np(w_torch.grad), rtol=1e-8, atol=1e-9)


def test_group_norm_errors():
    with pytest.raises(ValueError, match=r"GroupNorm: num_channels must be divisible by num_groups \(got num_channels=6, num_groups=4\)"):
        nn.GroupNorm(4, 6)
    with pytest.raises(RuntimeError, match=r"divisible by num_groups, but got input of shape \[2, 6, 4\] and num_groups=4"):
        F.group_norm(ct.zeros(2, 6, 4), 4)
    with pytest.raises(RuntimeError, match=r"got weight of shape \[5\] and input of shape \[3, 6, 4\]"):
        F.group_norm(ct.zeros(3, 6, 4), 2, ct.ones(5))
    with pytest.raises(RuntimeError, match="group_norm: expected an input of shape"):
        F.group_norm(ct.zeros(6), 2)


# ---- pad --------------------------------------------------------------------------------------------------------

PAD_CASES = [
    ((2, 3, 4), (1, 2), "constant", None),
    ((2, 3, 4, 5), (2, -1, 0, 3), "constant", 1.5),
    ((2, 3, 4, 5), (1, 1, 2, 2, 1, 0, -1, 1), "constant", -2.0),
    ((3, 4), (-4, 0), "constant", None),
    ((0, 3, 4), (1, 1), "constant", None),
    ((2, 3, 5), (2, 4), "reflect", None),
    ((3, 5), (4, -1), "reflect", None),
    ((2, 3, 4, 5), (2, 1, 3, -1), "reflect", None),
    ((3, 4, 5), (4, 4, 3, 3), "reflect", None),
    ((2, 2, 3, 4, 5), (1, -1, 2, 0, 1, 2), "reflect", None),
    ((2, 3, 4), (3, 5), "replicate", None),
    ((2, 3, 4, 5), (2, 3, 1, 4), "replicate", None),
    ((3, 1, 1), (2, 3, 1, 4), "replicate", None),
    ((2, 3, 4, 5), (2, 3, 1, -2), "circular", None),
    ((2, 3, 4), (4, 4), "circular", None),
    ((1, 2, 4), (1, -2), "circular", None),  # torch crops first, then wraps the cropped part
    ((2, 1, 4), (-1, 2), "circular", None),
    ((2, 3, 4, 5), (2, -1, -1, -2), "circular", None),
]


@pytest.mark.parametrize("shape,pad,mode,value", PAD_CASES)
def test_pad_matches_torch(shape, pad, mode, value, rng):
    torch = requires_torch()
    x_mine, x_torch = _pair(torch, rng.standard_normal(shape))
    kwargs = {} if value is None else {"value": value}
    y_mine = F.pad(x_mine, pad, mode, **kwargs)
    y_torch = torch.nn.functional.pad(x_torch, pad, mode, **kwargs)
    assert tuple(y_mine.shape) == tuple(y_torch.shape)
    np.testing.assert_array_equal(_np(y_mine), _np(y_torch))
    _backward_both(y_mine, y_torch, rng)
    np.testing.assert_allclose(_np(x_mine.grad), _np(x_torch.grad), rtol=1e-12, atol=1e-12)


def test_pad_values_by_hand_and_dtypes():
    x = ct.tensor([[1, 2, 3]])
    assert F.pad(x, (2, 1), value=7).tolist() == [[7, 7, 1, 2, 3, 7]]
    assert F.pad(x, (1, 1)).dtype == ct.int64
    assert F.pad(x, (2, 2), mode="reflect").tolist() == [[3, 2, 1, 2, 3, 2, 1]]
    assert F.pad(x, (2, 2), mode="replicate").tolist() == [[1, 1, 1, 2, 3, 3, 3]]
    assert F.pad(x, (2, 2), mode="circular").tolist() == [[2, 3, 1, 2, 3, 1, 2]]
    assert F.pad(x, (0, 0, 1, 0)).tolist() == [[0, 0, 0], [1, 2, 3]]
    assert F.pad(ct.ones(2, dtype=ct.bool), (1, 0)).tolist() == [False, True, True]
    assert F.pad(x, (-1, -2)).shape == (1, 0)


def test_pad_errors():
    x = ct.zeros(2, 3, 4)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(x, (1,))
    with pytest.raises(RuntimeError, match=r"Padding length too large: 8 values for an input of shape \[2, 3, 4\]"):
        F.pad(x, (1,) * 8)
    with pytest.raises(RuntimeError, match="input size 4, plus negative padding -3 and -2 .* dimension 2"):
        F.pad(x, (-3, -2))
    with pytest.raises(RuntimeError, match=r"Padding size should be less than .* padding \(4, 0\) at dimension 2 of input \[2, 3, 4\]"):
        F.pad(x, (4, 0), mode="reflect")
    with pytest.raises(RuntimeError, match="wrapping around more than once"):
        F.pad(x, (5, 0), mode="circular")
    with pytest.raises(RuntimeError, match=r"wrapping around more than once: padding \(3, -2\) at dimension 2"):
        F.pad(x, (3, -2), mode="circular")
    with pytest.raises(RuntimeError, match=r"too small for padding \(-2, -2\) at dimension 2"):
        F.pad(x, (-2, -2), mode="replicate")
    with pytest.raises(RuntimeError, match=r"needs a non-empty dimension 2, got input of shape \[2, 3, 0\]"):
        F.pad(ct.zeros(2, 3, 0), (1, 1), mode="replicate")
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode symmetric"):
        F.pad(x, (1, 1), mode="symmetric")
    with pytest.raises(NotImplementedError, match=r"non-constant padding .* shape \[2, 3, 4\]"):
        F.pad(x, (1, 1, 1, 1, 1, 1), mode="reflect")
    with pytest.raises(NotImplementedError, match="non-constant padding"):
        F.pad(ct.zeros(5), (1, 1), mode="replicate")
    with pytest.raises(RuntimeError, match="doesn't take in value argument"):
        F.pad(x, (1, 1), mode="reflect", value=2.0)


@pytest.mark.parametrize("name,args", [("ZeroPad2d", (1,)), ("ConstantPad1d", ((2, 1), 3.5)),
                                       ("ConstantPad2d", ((1, 0, 2, 1), -1.0)), ("ReflectionPad1d", ((2, 1),)),
                                       ("ReflectionPad2d", (2,)), ("ReplicationPad2d", ((1, 2, 0, 3),)),
                                       ("ReplicationPad1d", (3,)), ("ZeroPad1d", ((1, -1),)),
                                       ("ConstantPad3d", (1, 0.5)), ("ReplicationPad3d", (1,)),
                                       ("CircularPad1d", ((2, 1),)), ("CircularPad2d", ((1, 2, 0, 1),))])
def test_padding_layers_match_torch(name, args, rng):
    torch = requires_torch()
    dims = int(name[-2])
    x = rng.standard_normal((2, 3) + (4,) * dims)
    mine, theirs = getattr(nn, name)(*args), getattr(torch.nn, name, None)
    if theirs is None:  # a layer newer than the installed torch: compare with its F.pad call
        expected = torch.nn.functional.pad(torch.tensor(x), mine.padding, mine._mode, mine.value)
    else:
        theirs = theirs(*args)
        expected = theirs(torch.tensor(x))
        assert repr(mine) == repr(theirs)
    np.testing.assert_array_equal(_np(mine(ct.tensor(x))), _np(expected))
    with pytest.raises(ValueError, match="%s: padding must be an int or a tuple of %d ints" % (name, 2 * dims)):
        getattr(nn, name)(*(((1,) * (2 * dims + 1),) + args[1:]))


# ---- channel dropout --------------------------------------------------------------------------------------------

def _channel_values(y, shape):
    """Each (sample, channel) plane's values; asserts every plane is constant."""
    planes = _np(y).reshape(shape[0] * shape[1], -1)
    assert (planes == planes[:, :1]).all(), "a channel was partly dropped"
    return planes[:, 0]


@pytest.mark.parametrize("p", [0.2, 0.5, 0.8])
def test_dropout2d_zeroes_whole_channels_at_rate_p(p):
    ct.manual_seed(7)
    shape = (64, 50, 3, 4)
    x = ct.ones(*shape, requires_grad=True)
    layer = nn.Dropout2d(p)
    y = layer(x)
    values = _channel_values(y, shape)
    kept = values != 0
    np.testing.assert_allclose(values[kept], 1.0 / (1.0 - p), rtol=1e-6)
    sigma = math.sqrt(p * (1 - p) / values.size)
    assert abs((~kept).mean() - p) < 5 * sigma
    y.sum().backward()
    np.testing.assert_array_equal(_np(x.grad), _np(y))  # the gradient is the scaled mask
    other = _channel_values(layer(x), shape)
    assert (other != values).any(), "two calls drew the same mask"
    layer.eval()
    np.testing.assert_array_equal(_np(layer(x)), np.ones(shape))


def test_dropout_variants_ranks_and_edge_probabilities():
    ct.manual_seed(3)
    y = nn.Dropout1d(0.5)(ct.ones(40, 30, 6))
    _channel_values(y, (40, 30))
    y2 = F.dropout1d(ct.ones(30, 6), 0.5)
    assert y2.shape == (30, 6)
    _channel_values(y2, (1, 30))
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        y3 = F.dropout2d(ct.ones(8, 20, 5), 0.5)
    _channel_values(y3, (8, 20))
    with pytest.warns(UserWarning, match="Received a 5-D input to dropout2d"):
        F.dropout2d(ct.ones(2, 3, 2, 2, 2), 0.5)
    x = ct.randn(3, 4, 2, 2)
    np.testing.assert_array_equal(_np(F.dropout2d(x, 0.0)), _np(x))
    np.testing.assert_array_equal(_np(F.dropout2d(x, 1.0)), np.zeros((3, 4, 2, 2)))
    np.testing.assert_array_equal(_np(F.dropout2d(x, 0.9, training=False)), _np(x))
    same = ct.ones(4, 6, 2, 2)
    assert F.dropout2d(same, 0.5, inplace=True) is same
    _channel_values(same, (4, 6))
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        nn.Dropout2d(1.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        F.dropout2d(x, -0.1)
    with pytest.raises(RuntimeError, match=r"dropout1d: Expected 2D or 3D input, but received a 4D input of shape \[3, 4, 2, 2\]"):
        F.dropout1d(x)
    assert repr(nn.Dropout2d(0.3)) == "Dropout2d(p=0.3, inplace=False)"


# ---- nn.utils ---------------------------------------------------------------------------------------------------

def _params_with_grads(torch, rng, shapes=((3, 4), (5,), (2, 2, 2))):
    mine, theirs = [], []
    for shape in shapes:
        value, grad = rng.standard_normal(shape), rng.standard_normal(shape) * 3
        p_mine, p_torch = nn.Parameter(ct.tensor(value, dtype=ct.float64)), torch.nn.Parameter(torch.tensor(value))
        p_mine.grad, p_torch.grad = ct.tensor(grad, dtype=ct.float64), torch.tensor(grad)
        mine.append(p_mine)
        theirs.append(p_torch)
    return mine, theirs


@pytest.mark.parametrize("max_norm,norm_type", [(1.0, 2.0), (0.5, 1), (2.0, math.inf), (1.5, 3.0), (1e6, 2.0),
                                                (0.1, "inf")])
def test_clip_grad_norm_matches_torch(max_norm, norm_type, rng):
    torch = requires_torch()
    mine, theirs = _params_with_grads(torch, rng)
    total_mine = nn.utils.clip_grad_norm_(mine, max_norm, norm_type)
    total_torch = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type)
    assert total_mine.shape == () and total_mine.item() == pytest.approx(total_torch.item(), rel=1e-12)
    for p_mine, p_torch in zip(mine, theirs):
        np.testing.assert_allclose(_np(p_mine.grad), _np(p_torch.grad), rtol=1e-12)
    assert not any(p.grad.requires_grad for p in mine)


def test_clip_grad_norm_single_tensor_no_grads_and_nonfinite():
    p = nn.Parameter(ct.ones(4))
    p.grad = ct.tensor([3.0, 0.0, 4.0, 0.0])
    total = ct.nn.utils.clip_grad_norm_(p, 1.0)
    assert total.item() == pytest.approx(5.0)
    np.testing.assert_allclose(p.grad.numpy(), [0.6, 0.0, 0.8, 0.0], rtol=1e-5)
    assert nn.utils.clip_grad_norm_([nn.Parameter(ct.ones(2))], 1.0).item() == 0.0
    q = nn.Parameter(ct.ones(2))
    q.grad = ct.tensor([1.0, math.inf])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients from `parameters` is non-finite"):
        nn.utils.clip_grad_norm_([q], 1.0, error_if_nonfinite=True)
    assert math.isinf(nn.utils.clip_grad_norm_([q], 1.0).item())


def test_clip_grad_value_matches_torch(rng):
    torch = requires_torch()
    mine, theirs = _params_with_grads(torch, rng)
    assert nn.utils.clip_grad_value_(mine, 1.25) is None
    torch.nn.utils.clip_grad_value_(theirs, 1.25)
    for p_mine, p_torch in zip(mine, theirs):
        np.testing.assert_array_equal(_np(p_mine.grad), _np(p_torch.grad))
    assert max(float(np.abs(_np(p.grad)).max()) for p in mine) == 1.25


def test_parameters_to_vector_and_back_match_torch(rng):
    torch = requires_torch()
    mine, theirs = _params_with_grads(torch, rng)
    vec_mine = nn.utils.parameters_to_vector(mine)
    vec_torch = torch.nn.utils.parameters_to_vector(theirs)
    np.testing.assert_array_equal(_np(vec_mine), _np(vec_torch))
    weights = rng.standard_normal(vec_torch.shape[0])
    (vec_mine * ct.tensor(weights)).sum().backward()  # differentiable: reaches every parameter's grad
    (vec_torch * torch.tensor(weights)).sum().backward()
    for p_mine, p_torch in zip(mine, theirs):
        np.testing.assert_allclose(_np(p_mine.grad), _np(p_torch.grad), rtol=1e-12)
    new = rng.standard_normal(vec_torch.shape[0])
    nn.utils.vector_to_parameters(ct.tensor(new, dtype=ct.float64), mine)
    torch.nn.utils.vector_to_parameters(torch.tensor(new), theirs)
    for p_mine, p_torch in zip(mine, theirs):
        np.testing.assert_array_equal(_np(p_mine), _np(p_torch))
        assert p_mine.is_leaf and p_mine.requires_grad
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0], mine)
    with pytest.raises(ValueError, match=r"expected a 1-D vector of 25 elements for the parameters, got shape \[24\]"):
        nn.utils.vector_to_parameters(ct.zeros(24, dtype=ct.float64), mine)


# ---- CUDA (skipped without a device; run this file with CTENSOR_CUDA_BACKEND=<emulated backend> to exercise) ----

@pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA device")
def test_training_pieces_on_cuda_match_cpu(rng):
    x = rng.standard_normal((4, 3, 5, 5))
    upstream = rng.standard_normal((4, 3, 7, 9))
    results = {}
    for device in ("cpu", "cuda"):
        ct.manual_seed(0)
        model = ct.nn.Sequential(nn.BatchNorm2d(3), nn.GroupNorm(3, 3), nn.ReflectionPad2d((1, 1, 2, 0)),
                                 nn.ZeroPad2d((1, 1, 0, 0)), nn.ReplicationPad2d((0, 0, 0, 0))).double().to(device)
        inp = ct.tensor(x, dtype=ct.float64, device=device, requires_grad=True)
        for _ in range(2):
            out = model(inp)
            out.backward(ct.tensor(upstream, dtype=ct.float64, device=device))
        total = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        assert out.is_cuda == (device == "cuda") and model[0].running_mean.is_cuda == (device == "cuda")
        results[device] = (out, inp.grad, model[0].weight.grad, model[0].running_var, total)
    for on_cpu, on_cuda in zip(results["cpu"], results["cuda"]):
        np.testing.assert_allclose(_np(on_cuda.cpu()), _np(on_cpu), rtol=1e-9, atol=1e-10)
    dropped = F.dropout2d(ct.ones(8, 16, 2, 2, device="cuda"), 0.5).cpu()
    _channel_values(dropped, (8, 16))

"""N-d convolution (issue 14) against PyTorch 1.13: F.conv1d/2d/3d and F.conv_transpose1d/2d/3d values and
gradients (input, weight, bias) in float64 for rank 1/2/3, groups, dilation, stride, output_padding, 'same' /
'valid'; nn.Conv*/ConvTranspose* with torch's parameters, padding modes and output_size; bad input; CUDA."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F
from conftest import requires_torch

DEVICES = ["cpu"] + (["cuda"] if ct.cuda.is_available() else [])

# (rank, x shape, w shape, kwargs, transposed)
CASES = [
    (1, (2, 3, 9), (4, 3, 3), dict(stride=2, padding=1), False),
    (1, (2, 4, 11), (6, 2, 3), dict(padding=2, dilation=2, groups=2), False),
    (1, (1, 4, 8), (4, 1, 5), dict(padding="same", groups=4), False),
    (1, (2, 3, 8), (2, 3, 4), dict(padding="same", dilation=1), False),  # even kernel: asymmetric 'same'
    (2, (2, 4, 7, 6), (6, 2, 3, 2), dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2), False),
    (2, (1, 3, 6, 5), (4, 3, 3, 3), dict(padding="valid"), False),
    (3, (2, 2, 5, 4, 6), (3, 2, 3, 2, 3), dict(stride=(1, 1, 2), padding=(1, 0, 1), dilation=(1, 2, 1)), False),
    (3, (1, 4, 4, 5, 3), (4, 1, 2, 1, 2), dict(stride=2, padding=1, groups=4), False),
    (3, (1, 2, 4, 4, 4), (3, 2, 3, 3, 3), dict(padding="same", dilation=2), False),
    (1, (2, 3, 5), (3, 2, 3), dict(stride=2, padding=1, output_padding=1), True),
    (1, (1, 4, 6), (4, 3, 2), dict(stride=3, dilation=2, output_padding=1, groups=2), True),
    (2, (1, 4, 3, 4), (4, 2, 3, 2), dict(stride=(2, 1), padding=(1, 0), dilation=(1, 3), output_padding=(1, 2),
                                          groups=2), True),
    (3, (1, 2, 3, 2, 3), (2, 3, 2, 3, 2), dict(stride=(2, 1, 2), padding=(0, 1, 1), dilation=(1, 1, 2),
                                                output_padding=(1, 0, 1)), True),
]


def _name(rank, transposed):
    return ("conv_transpose%dd" if transposed else "conv%dd") % rank


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "%s-%s-%s" % (_name(c[0], c[4]), c[1], c[3]))
def test_functional_matches_torch(case, device, rng):
    torch = requires_torch()
    rank, xs, ws, kw, transposed = case
    groups = kw.get("groups", 1)
    out_channels = ws[1] * groups if transposed else ws[0]
    arrays = [rng.standard_normal(s) for s in (xs, ws, (out_channels,))]
    cts = [ct.tensor(a, requires_grad=True, device=device) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    y = getattr(F, _name(rank, transposed))(*cts, **kw)
    ty = getattr(torch.nn.functional, _name(rank, transposed))(*ts, **kw)
    assert tuple(y.shape) == tuple(ty.shape)
    np.testing.assert_allclose(y.detach().cpu().numpy(), ty.detach().numpy(), rtol=1e-10, atol=1e-10)
    g = rng.standard_normal(tuple(ty.shape))
    y.backward(ct.tensor(g, device=device))
    ty.backward(torch.tensor(g))
    for c, t in zip(cts, ts):
        np.testing.assert_allclose(c.grad.cpu().numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("case", [CASES[1], CASES[6], CASES[10], CASES[12]], ids=lambda c: _name(c[0], c[4]))
def test_double_backward_matches_torch(case, rng):
    torch = requires_torch()
    rank, xs, ws, kw, transposed = case
    arrays = [rng.standard_normal(s) for s in (xs, ws)]
    cts = [ct.tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    results = []
    for mod, ins in ((ct, cts), (torch, ts)):
        fn = getattr(F if mod is ct else torch.nn.functional, _name(rank, transposed))
        y = fn(*ins, **kw)
        gx, gw = mod.autograd.grad((y * y).sum(), ins, create_graph=True)
        ((gx * gx).sum() + (gw * gw).sum()).backward()
        results.append([i.grad for i in ins])
    for c, t in zip(*results):
        np.testing.assert_allclose(c.numpy(), t.numpy(), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("mode", ["zeros", "reflect", "replicate", "circular"])
def test_modules_match_torch(rank, mode, rng):
    torch = requires_torch()
    cls, tcls = getattr(nn, "Conv%dd" % rank), getattr(torch.nn, "Conv%dd" % rank)
    kwargs = dict(stride=1 if rank == 1 else 2, padding=(2, 1, 1)[:rank] if rank > 1 else 2, dilation=1,
                  groups=2, padding_mode=mode, dtype=ct.float64)
    m = cls(4, 6, 3, **kwargs)
    kwargs["dtype"] = torch.float64
    tm = tcls(4, 6, 3, **kwargs)
    assert [k for k, _ in m.state_dict().items()] == [k for k, _ in tm.state_dict().items()]
    with torch.no_grad():
        for name, p in tm.named_parameters():
            assert tuple(p.shape) == tuple(getattr(m, name).shape)
            p.copy_(torch.tensor(getattr(m, name).detach().numpy()))
    x = rng.standard_normal((2, 4) + (7,) * rank)
    y, ty = m(ct.tensor(x)), tm(torch.tensor(x))
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-10, atol=1e-10)
    assert repr(m).replace("ctensor.", "") .split("(")[0] == repr(tm).split("(")[0]


def test_module_same_padding_and_init_bounds(rng):
    torch = requires_torch()
    m = nn.Conv3d(2, 4, (3, 2, 3), padding="same", padding_mode="reflect", dtype=ct.float64)
    tm = torch.nn.Conv3d(2, 4, (3, 2, 3), padding="same", padding_mode="reflect", dtype=torch.float64)
    with torch.no_grad():
        tm.weight.copy_(torch.tensor(m.weight.detach().numpy()))
        tm.bias.copy_(torch.tensor(m.bias.detach().numpy()))
    x = rng.standard_normal((1, 2, 5, 4, 6))
    np.testing.assert_allclose(m(ct.tensor(x)).detach().numpy(), tm(torch.tensor(x)).detach().numpy(), rtol=1e-10,
                               atol=1e-10)
    # torch's init: U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = weight.shape[1] * kernel volume
    big = nn.ConvTranspose2d(64, 8, 3, groups=2)
    bound = 1.0 / np.sqrt(4 * 9)
    w = big.weight.detach().numpy()
    assert tuple(w.shape) == (64, 4, 3, 3) and np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(big.bias.detach().numpy()).max() <= bound


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_conv_transpose_modules_and_output_size(rank, rng):
    torch = requires_torch()
    cls, tcls = getattr(nn, "ConvTranspose%dd" % rank), getattr(torch.nn, "ConvTranspose%dd" % rank)
    m = cls(4, 6, 3, stride=2, padding=1, groups=2, dtype=ct.float64)
    tm = tcls(4, 6, 3, stride=2, padding=1, groups=2, dtype=torch.float64)
    assert list(m.state_dict()) == list(tm.state_dict())
    with torch.no_grad():
        tm.weight.copy_(torch.tensor(m.weight.detach().numpy()))
        tm.bias.copy_(torch.tensor(m.bias.detach().numpy()))
    x = rng.standard_normal((2, 4) + (4,) * rank)
    size = (8,) * rank  # 7 without output_padding: output_size asks for one more
    y, ty = m(ct.tensor(x), output_size=size), tm(torch.tensor(x), output_size=size)
    assert tuple(y.shape) == tuple(ty.shape) == (2, 6) + size
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError, match="valid sizes range from 7 to 8"):
        m(ct.tensor(x), output_size=(9,) * rank)


def test_unbatched_input(rng):
    torch = requires_torch()
    x, w = rng.standard_normal((3, 6, 5, 4)), rng.standard_normal((2, 3, 2, 2, 2))
    y = F.conv3d(ct.tensor(x), ct.tensor(w), padding=1)
    np.testing.assert_allclose(y.numpy(), torch.nn.functional.conv3d(torch.tensor(x), torch.tensor(w), padding=1),
                               rtol=1e-10, atol=1e-10)
    wt = np.ascontiguousarray(np.transpose(w[:, :, :, 0, 0], (1, 0, 2)))  # [C=3, out=2, k=2]
    y = F.conv_transpose1d(ct.tensor(x[:, :, 0, 0]), ct.tensor(wt), stride=2)
    ty = torch.nn.functional.conv_transpose1d(torch.tensor(x[:, :, 0, 0]), torch.tensor(wt), stride=2)
    np.testing.assert_allclose(y.numpy(), ty.numpy(), rtol=1e-10, atol=1e-10)


def test_bad_input_names_op_and_values():
    x, w = ct.randn(1, 4, 5, 5, 5), ct.randn(4, 2, 3, 3, 3)
    with pytest.raises(ValueError, match=r"conv2d: expected input with 4 dims"):
        F.conv2d(x, w)
    with pytest.raises(ValueError, match=r"conv3d: input channels 4 are not divisible by groups 3"):
        F.conv3d(x, w, groups=3)
    with pytest.raises(ValueError, match=r"conv3d: input has 4 channels but weight \[4, 2, 3, 3, 3\] expects 2"):
        F.conv3d(x, w)
    with pytest.raises(ValueError, match=r"conv3d: output size would be <= 0"):
        F.conv3d(x, w, dilation=10, groups=2)
    with pytest.raises(ValueError, match=r"conv_transpose3d: output_padding 2 must be smaller than either stride 2 "
                                         r"or dilation 1"):
        F.conv_transpose3d(x, w, stride=2, output_padding=2, groups=2)
    with pytest.raises(ValueError, match=r"conv_transpose3d: output size -13 in spatial dim 0 is not positive"):
        F.conv_transpose3d(x, w, padding=10, groups=2)
    with pytest.raises(ValueError, match="not supported for strided convolutions"):
        F.conv1d(ct.randn(1, 2, 5), ct.randn(2, 2, 3), stride=2, padding="same")
    with pytest.raises(ValueError, match="must be divisible by groups"):
        nn.Conv1d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(2, 2, 3, padding_mode="mirror")
    with pytest.raises(TypeError):
        F.conv1d(ct.randn(1, 2, 5, dtype=ct.float64), ct.randn(2, 2, 3))

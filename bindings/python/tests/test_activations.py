"""The activation functions and modules (ELU family, leaky/parametric/randomized ReLU, hard and shrink functions,
mish, log-sigmoid, softsign, tanhshrink, softmin, GLU) against PyTorch: values, gradients (also second order),
module arguments and parameters, in-place forms, and bad arguments. Values at the kinks are in the conformance
suite; here the Python surface is checked."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

from conftest import requires_torch
from test_autograd_vs_torch import check_against_torch

FUNCTIONS = {
    "elu": lambda m, x: m.nn.functional.elu(x, 0.7),
    "selu": lambda m, x: m.nn.functional.selu(x),
    "celu": lambda m, x: m.nn.functional.celu(x, 1.5),
    "leaky_relu": lambda m, x: m.nn.functional.leaky_relu(x, 0.2),
    "hardtanh": lambda m, x: m.nn.functional.hardtanh(x, -0.5, 0.8),
    "relu6": lambda m, x: m.nn.functional.relu6(x * 4),
    "hardsigmoid": lambda m, x: m.nn.functional.hardsigmoid(x * 3),
    "hardswish": lambda m, x: m.nn.functional.hardswish(x * 3),
    "softshrink": lambda m, x: m.nn.functional.softshrink(x, 0.3),
    "hardshrink": lambda m, x: m.nn.functional.hardshrink(x, 0.3),
    "threshold": lambda m, x: m.nn.functional.threshold(x, 0.1, -4.0),
    "mish": lambda m, x: m.nn.functional.mish(x),
    "logsigmoid": lambda m, x: m.nn.functional.logsigmoid(x * 10),
    "softsign": lambda m, x: m.nn.functional.softsign(x),
    "tanhshrink": lambda m, x: m.nn.functional.tanhshrink(x),
    "softmin": lambda m, x: m.nn.functional.softmin(x, 1),
    "glu": lambda m, x: m.nn.functional.glu(x, 0),
    "rrelu_eval": lambda m, x: m.nn.functional.rrelu(x, 0.1, 0.4, False),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_values_and_gradients_match_torch(name):
    check_against_torch(FUNCTIONS[name], [(4, 6)], np.random.default_rng(7))


@pytest.mark.parametrize("name", ["elu", "celu", "mish", "logsigmoid", "softsign", "glu", "hardswish"])
def test_second_derivatives_match_torch(name):
    torch = requires_torch()
    a = np.random.default_rng(3).standard_normal((4, 6))
    grads = []
    for m, x in ((ct, ct.tensor(a, requires_grad=True)), (torch, torch.tensor(a, requires_grad=True))):
        (g,) = m.autograd.grad(FUNCTIONS[name](m, x).sum(), x, create_graph=True)
        (gg,) = m.autograd.grad((g * g).sum(), x)
        grads.append(gg.detach().numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-7, atol=1e-9)


def test_prelu_module_learns_one_slope_per_channel_like_torch():
    torch = requires_torch()
    a = np.random.default_rng(1).standard_normal((2, 3, 4))
    mine, ref = nn.PReLU(3, init=0.25, dtype=ct.float64), torch.nn.PReLU(3, init=0.25).double()
    x, xt = ct.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    mine(x).pow(2).sum().backward()
    ref(xt).pow(2).sum().backward()
    np.testing.assert_allclose(mine.weight.grad.numpy(), ref.weight.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-10)
    assert [n for n, _ in mine.named_parameters()] == ["weight"]


def test_modules_take_torch_arguments_and_forward_to_functional():
    x = ct.tensor([[-2.0, -0.25, 0.0, 0.5, 3.0]])
    for module, fn in ((nn.ELU(alpha=0.5), lambda t: F.elu(t, 0.5)), (nn.SELU(), F.selu), (nn.CELU(2.0), lambda t: F.celu(t, 2.0)),
                       (nn.Hardtanh(-0.5, 0.5), lambda t: F.hardtanh(t, -0.5, 0.5)), (nn.Hardsigmoid(), F.hardsigmoid),
                       (nn.Hardswish(), F.hardswish), (nn.Softshrink(0.3), lambda t: F.softshrink(t, 0.3)),
                       (nn.Hardshrink(lambd=0.3), lambda t: F.hardshrink(t, 0.3)),
                       (nn.Threshold(0.1, 20.0), lambda t: F.threshold(t, 0.1, 20.0)), (nn.Mish(), F.mish),
                       (nn.LogSigmoid(), F.logsigmoid), (nn.Softsign(), F.softsign), (nn.Tanhshrink(), F.tanhshrink),
                       (nn.Softmin(dim=1), lambda t: F.softmin(t, 1)), (nn.ReLU6(), F.relu6), (nn.LeakyReLU(0.3), lambda t: F.leaky_relu(t, 0.3))):
        assert module(x).tolist() == fn(x).tolist(), type(module).__name__
    assert "alpha=0.5" in repr(nn.ELU(alpha=0.5))
    assert nn.GLU()(ct.ones(2, 4)).shape == (2, 2)
    with pytest.raises(TypeError):
        nn.ELU(1.0, False, 3)


def test_rrelu_draws_slopes_in_training_and_uses_their_mean_in_eval():
    x = -ct.ones(10000, dtype=ct.float64)
    m = nn.RReLU(0.1, 0.3)
    slopes = -m(x)
    assert 0.1 <= slopes.min().item() and slopes.max().item() < 0.3
    assert abs(slopes.mean().item() - 0.2) < 0.005
    m.eval()
    assert m(x).tolist() == [-0.2] * 10000
    ct.manual_seed(5)
    first = F.rrelu(x, training=True)
    ct.manual_seed(5)
    assert F.rrelu(x, training=True).tolist() == first.tolist()


def test_inplace_forms_write_into_the_input():
    x = ct.tensor([-1.0, 2.0, 7.0])
    assert F.relu6(x, inplace=True) is x and x.tolist() == [0.0, 2.0, 6.0]
    y = ct.tensor([-1.0, 1.0])
    F.elu(y, inplace=True)
    assert y.tolist() == pytest.approx([np.expm1(-1.0), 1.0])


def test_bad_arguments_raise_the_native_errors():
    with pytest.raises(ValueError, match="lambd"):
        F.softshrink(ct.ones(2), -1.0)
    with pytest.raises(ValueError, match="even"):
        F.glu(ct.ones(2, 3), 1)
    with pytest.raises(IndexError):
        F.glu(ct.ones(2, 4), 2)
    with pytest.raises(ValueError, match="channels"):
        F.prelu(ct.ones(2, 3, 4), ct.ones(2))
    with pytest.raises(ValueError, match="lower"):
        F.rrelu(ct.ones(2), 0.5, 0.1, True)
    with pytest.raises(TypeError, match="elu"):
        F.elu(ct.tensor([1, 2]))
    with pytest.raises(ZeroDivisionError):
        F.celu(ct.ones(2), 0.0)

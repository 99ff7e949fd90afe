"""Autograd API semantics: backward options, accumulation, autograd.grad (incl. double backward), grad
modes, detach, grad_fn, leaf rules, and custom Functions whose Python backward runs from the C engine."""
import threading

import numpy as np
import pytest

import ctensor as ct


def test_backward_accumulates_and_grad_setter():
    x = ct.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0, 9.0]
    x.grad = None
    assert x.grad is None
    x.grad = ct.ones(3)
    assert x.grad.tolist() == [1.0] * 3
    with pytest.raises((ValueError, TypeError, RuntimeError)):
        x.grad = ct.ones(2)


def test_backward_needs_scalar_or_gradient():
    x = ct.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError):
        y.backward()
    y.backward(ct.tensor([1.0, 10.0]))
    assert x.grad.tolist() == [2.0, 20.0]


def test_second_backward_needs_retain_graph():
    x = ct.tensor(2.0, requires_grad=True)
    y = x * x
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.item() == 8.0
    with pytest.raises(RuntimeError):
        y.backward()


def test_autograd_grad_and_double_backward():
    x = ct.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x * x).sum()
    (g,) = ct.autograd.grad(y, x, create_graph=True)
    assert g.tolist() == [3.0, 12.0] and g.requires_grad and x.grad is None
    (gg,) = ct.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0]
    z = ct.tensor(1.0, requires_grad=True)
    with pytest.raises(RuntimeError):
        ct.autograd.grad((x * 2).sum(), [x, z])
    gx, gz = ct.autograd.grad((x * 2).sum(), [x, z], allow_unused=True)
    assert gx.tolist() == [2.0, 2.0] and gz is None


def test_backward_inputs_only_accumulates_those():
    a = ct.tensor(2.0, requires_grad=True)
    b = ct.tensor(3.0, requires_grad=True)
    (a * b).backward(inputs=[a])
    assert a.grad.item() == 3.0 and b.grad is None


def test_grad_modes():
    x = ct.tensor([1.0], requires_grad=True)
    with ct.no_grad():
        y = x * 2
        assert not ct.is_grad_enabled()
        with ct.enable_grad():
            z = x * 2
    assert not y.requires_grad and y.grad_fn is None and z.requires_grad and ct.is_grad_enabled()

    @ct.no_grad()
    def f(t):
        return t * 3

    assert not f(x).requires_grad
    with ct.set_grad_enabled(False):
        assert not (x + 1).requires_grad
    assert (x + 1).requires_grad
    with ct.inference_mode():
        assert not (x + 1).requires_grad


def test_grad_mode_is_per_thread():
    seen = []
    with ct.no_grad():
        t = threading.Thread(target=lambda: seen.append(ct.is_grad_enabled()))
        t.start()
        t.join()
    assert seen == [True]


def test_detach_grad_fn_leaf():
    x = ct.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert x.is_leaf and not y.is_leaf and x.grad_fn is None
    assert y.grad_fn.name() == "MulBackward" and "MulBackward" in repr(y.grad_fn)
    d = y.detach()
    assert not d.requires_grad and d.is_leaf and d._shares_storage(y)
    with pytest.raises(RuntimeError):
        y.numpy()
    assert y.detach().numpy().tolist() == [2.0, 4.0]


def test_requires_grad_rules():
    with pytest.raises((TypeError, RuntimeError)):
        ct.tensor([1, 2]).requires_grad_()
    x = ct.ones(2).requires_grad_()
    assert x.requires_grad
    y = x * 2
    with pytest.raises(RuntimeError):
        y.requires_grad_(False)


def test_retain_grad_of_non_leaf():
    x = ct.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    (y * y).sum().backward()
    assert y.grad.tolist() == [6.0, 12.0]


def test_inplace_on_leaf_requiring_grad_fails():
    x = ct.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError):
        x += 1
    with ct.no_grad():
        x += 1
    assert x.tolist() == [2.0]


class Cube(ct.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return x * x * x * scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x * ctx.scale, None


class SplitSum(ct.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b, a - b

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2, g1 - g2


def test_custom_function():
    x = ct.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x, 2.0)
    assert y.tolist() == [2.0, 16.0] and y.grad_fn.name() == "CubeBackward"
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 24.0]


def test_custom_function_multiple_outputs_and_unused_output():
    a = ct.tensor([1.0], requires_grad=True)
    b = ct.tensor([5.0], requires_grad=True)
    s, d = SplitSum.apply(a, b)
    (s * 2).sum().backward()  # d unused: its gradient arrives as zeros
    assert a.grad.tolist() == [2.0] and b.grad.tolist() == [2.0]


def test_custom_function_without_grad_inputs_returns_plain_tensor():
    y = Cube.apply(ct.tensor([2.0]), 1.0)
    assert y.tolist() == [8.0] and not y.requires_grad


def test_custom_function_backward_exception_propagates():
    class Bad(ct.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise KeyError("boom")

    x = ct.tensor([1.0], requires_grad=True)
    with pytest.raises(KeyError, match="boom"):
        Bad.apply(x).sum().backward()

    class WrongCount(ct.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g, g

    with pytest.raises(RuntimeError, match="incorrect number of gradients"):
        WrongCount.apply(x).sum().backward()


def test_custom_function_double_backward():
    class Square(ct.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = ct.tensor([3.0], requires_grad=True)
    (g,) = ct.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [6.0]
    g.sum().backward()
    assert x.grad.tolist() == [2.0]


def test_custom_function_graph_is_released():
    import gc

    gc.collect()
    start = ct._C.live_handles()
    x = ct.tensor([1.0], requires_grad=True)
    y = Cube.apply(x, 1.0)
    y.sum().backward()
    del x, y
    gc.collect()
    assert ct._C.live_handles() == start


def test_backward_from_other_thread_with_custom_function():
    x = ct.tensor([2.0], requires_grad=True)
    y = Cube.apply(x, 1.0).sum()
    errors = []

    def run():
        try:
            y.backward()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert not errors and x.grad.tolist() == [12.0]


def test_gradient_dtype_and_shape_follow_input():
    x = ct.tensor(np.ones((2, 3)), requires_grad=True)
    (x.sum(1, keepdim=True) * ct.tensor([[1.0], [2.0]], dtype=ct.float64)).sum().backward()
    assert x.grad.dtype is ct.float64 and x.grad.shape == (2, 3)
    assert x.grad.tolist() == [[1.0] * 3, [2.0] * 3]

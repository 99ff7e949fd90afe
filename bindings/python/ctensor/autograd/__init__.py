"""ctensor.autograd: grad mode (no_grad, enable_grad, set_grad_enabled), grad(), backward() and custom
Functions whose backward is Python code called from the C engine through the _C trampoline."""
import functools

from .. import _C

_TB = _C.TensorBase


class _GradMode:
    """Base of the grad-mode context managers; instances also work as function decorators."""

    _enabled = True

    def __enter__(self):
        self._prev = _C.set_grad_enabled(self._enabled)
        return self

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):
    """Context manager / decorator: ops inside record no graph."""

    _enabled = False


class enable_grad(_GradMode):
    """Context manager / decorator: turns recording back on (e.g. inside no_grad)."""

    _enabled = True


class inference_mode(_GradMode):
    """Like no_grad (ctensor has no separate inference tensors)."""

    def __init__(self, mode=True):
        self._enabled = not mode

    def __call__(self, fn):
        if not callable(fn):
            return inference_mode(fn)
        enabled = self._enabled

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = _C.set_grad_enabled(enabled)
            try:
                return fn(*args, **kwargs)
            finally:
                _C.set_grad_enabled(prev)

        return wrapper


class set_grad_enabled:
    """set_grad_enabled(mode): sets grad mode now; as a context manager it restores the old mode on exit."""

    def __init__(self, mode):
        self._prev = _C.set_grad_enabled(bool(mode))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev)
        return False


def is_grad_enabled():
    return _C.is_grad_enabled()


def _as_tuple(x):
    if x is None:
        return None
    return (x,) if isinstance(x, _TB) else tuple(x)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=False,
         is_grads_batched=False):
    """Gradients of outputs with respect to inputs (a tuple; None for unused inputs when allow_unused)."""
    if is_grads_batched:
        raise NotImplementedError("is_grads_batched is not supported")
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    return _C.autograd_grad(outputs, grad_outputs, inputs, retain_graph, create_graph, allow_unused)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates gradients of tensors (each with its grad_tensors entry) into the leaves' .grad."""
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        _accumulate_into(tensors, grad_tensors, inputs, retain_graph, create_graph)
        return
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        last = i == len(tensors) - 1
        _C.backward(t, g, retain_graph or not last, create_graph)


def _accumulate_into(tensors, grad_tensors, inputs, retain_graph, create_graph):
    """backward(inputs=...): gradients only for `inputs`, accumulated into their .grad."""
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors)
    if grad_tensors is not None and any(g is None for g in grad_tensors):
        grad_tensors = None if all(g is None for g in grad_tensors) else grad_tensors
    inputs = _as_tuple(inputs)
    grads = _C.autograd_grad(tensors, grad_tensors, inputs, retain_graph, create_graph, True)
    for x, g in zip(inputs, grads):
        if g is None:
            continue
        x.grad = g if x.grad is None else x.grad + g


class FunctionCtx:
    """The ctx of a custom Function: save_for_backward / saved_tensors, needs_input_grad, and any attributes."""

    def save_for_backward(self, *tensors):
        self._saved = tuple(tensors)

    @property
    def saved_tensors(self):
        return getattr(self, "_saved", ())

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tuple(tensors)

    def set_materialize_grads(self, value):
        self._materialize = bool(value)


class Function:
    """Custom differentiable operation, like torch.autograd.Function:

        class Exp(Function):
            @staticmethod
            def forward(ctx, x):
                y = x.exp(); ctx.save_for_backward(y); return y
            @staticmethod
            def backward(ctx, grad):
                y, = ctx.saved_tensors; return grad * y

        y = Exp.apply(x)

    forward runs without recording; backward gets one gradient per output and returns one per forward
    argument (None for non-tensors or inputs that need none)."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("a Function subclass must implement forward")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("a Function subclass must implement backward")

    @classmethod
    def apply(cls, *args):
        ctx = FunctionCtx()
        positions = [i for i, a in enumerate(args) if isinstance(a, _TB)]
        ctx.needs_input_grad = tuple(isinstance(a, _TB) and a.requires_grad for a in args)
        with _NoGrad():
            outputs = cls.forward(ctx, *args)
        single = isinstance(outputs, _TB)
        outs = (outputs,) if single else tuple(outputs)
        n_args = len(args)
        backward = cls.backward

        def run_backward(grads):
            res = backward(ctx, *grads)
            res = (res,) if not isinstance(res, tuple) else res
            if len(res) != n_args:
                raise RuntimeError("function %sBackward returned an incorrect number of gradients (expected %d, "
                                   "got %d)" % (cls.__name__, n_args, len(res)))
            return tuple(res[i] for i in positions)

        results = _C.custom_function_apply(cls.__name__ + "Backward", [args[i] for i in positions], list(outs),
                                           run_backward)
        return results[0] if single else results


class _NoGrad:
    def __enter__(self):
        self._prev = _C.set_grad_enabled(False)

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev)

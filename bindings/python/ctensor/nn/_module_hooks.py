"""Module hooks with torch's semantics: forward pre-hooks, forward hooks and full backward (pre-)hooks, run by
Module.__call__ only when a module has some (call_with_hooks), and the registration helper they share.

Full backward hooks (as torch's BackwardHook): the forward's tensor inputs that require grad pass through one
identity node, and its tensor outputs through another. In backward the output node receives grad_output (backward
pre-hooks may replace it) and the input node receives grad_input; there the hooks run as
hook(module, grad_input, grad_output) and may return a replacement grad_input. When no input requires grad, the
hooks run at the output node with grad_input all None. As torch 1.13, grad_input has one entry per positional
argument: None for values that are not tensors, zeros for tensors that need no gradient (when another does)."""
import collections

from .. import _C
from ..autograd import Function
from ..utils.hooks import RemovableHandle

_TB = _C.TensorBase
HOOK_DICTS = ("_forward_pre_hooks", "_forward_hooks", "_backward_pre_hooks", "_backward_hooks")


def hook_dict(module, name):
    """module's ordered dict of hooks `name` (made on first use: modules need not call a hook-aware __init__)."""
    d = module.__dict__.get(name)
    if d is None:
        d = collections.OrderedDict()
        object.__setattr__(module, name, d)
    return d


def register(module, name, hook, prepend=False, extra=None):
    """Adds hook to module's dict `name` (first when prepend); extra: options kept beside it. Returns the handle."""
    if not callable(hook):
        raise TypeError("hook must be callable, got %s" % type(hook).__name__)
    d = hook_dict(module, name)
    handle = RemovableHandle(d)
    d[handle.id] = (hook, extra or {})
    if prepend:
        d.move_to_end(handle.id, last=False)
    return handle


def has_hooks(module):
    d = module.__dict__
    return any(d.get(name) for name in HOOK_DICTS)


class _HookIdentity(Function):
    """Identity over tensors whose backward hands the gradients to on_backward (returns replacements)."""

    @staticmethod
    def forward(ctx, on_backward, *tensors):
        ctx.on_backward = on_backward
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.on_backward(grads))


def _needs_wrap(x):
    return isinstance(x, _TB) and x.requires_grad and x.is_floating_point()


def _replace(values, positions, wrapped):
    out = list(values)
    for i, t in zip(positions, wrapped):
        out[i] = t
    return out


class _BackwardHooks:
    """One forward's full backward hooks (the module docstring): wraps inputs and outputs, runs the hooks."""

    def __init__(self, module):
        self.module = module
        self.grad_outputs = None
        self.n_args = 0
        self.wrapped = []  # positions of the args that go through the input node

    def _run_hooks(self, grad_input):
        for hook, _ in list(hook_dict(self.module, "_backward_hooks").values()):
            res = hook(self.module, grad_input, self.grad_outputs)
            if res is None:
                continue
            res = tuple(res) if isinstance(res, (tuple, list)) else (res,)
            if len(res) != len(grad_input):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, got %d, but expected %d"
                                   % (len(res), len(grad_input)))
            grad_input = res
        return grad_input

    def wrap_inputs(self, args):
        self.n_args = len(args)
        wrap = [i for i, a in enumerate(args) if _needs_wrap(a)]
        self.wrapped = wrap
        if not wrap:
            return args
        # as torch 1.13: one entry per argument; tensors that need no gradient get zeros, other values None
        others = [(i, a) for i, a in enumerate(args) if isinstance(a, _TB) and i not in wrap]

        def on_backward(grads):
            grad_input = [None] * self.n_args
            for i, g in zip(wrap, grads):
                grad_input[i] = g
            for i, a in others:
                grad_input[i] = a.new_zeros(a.shape)
            grad_input = self._run_hooks(tuple(grad_input))
            return [grad_input[i] for i in wrap]

        wrapped = _HookIdentity.apply(on_backward, *[args[i] for i in wrap])
        return tuple(_replace(args, wrap, wrapped))

    def wrap_outputs(self, out):
        single = isinstance(out, _TB)
        outs = [out] if single else list(out) if isinstance(out, (tuple, list)) else None
        if outs is None:
            return out
        wrap = [i for i, o in enumerate(outs) if _needs_wrap(o)]
        if not wrap:
            return out

        def on_backward(grads):
            grads = tuple(grads)
            for hook, _ in list(hook_dict(self.module, "_backward_pre_hooks").values()):
                res = hook(self.module, grads)
                if res is not None:
                    res = tuple(res) if isinstance(res, (tuple, list)) else (res,)
                    if len(res) != len(grads):
                        raise RuntimeError("Backward pre hook returned an invalid number of grad_output, got %d, but "
                                           "expected %d" % (len(res), len(grads)))
                    grads = res
            self.grad_outputs = grads
            if not self.wrapped:  # no input needs a gradient: the hooks run here, grad_input all None
                self._run_hooks((None,) * self.n_args)
            return grads

        wrapped = _HookIdentity.apply(on_backward, *[outs[i] for i in wrap])
        outs = _replace(outs, wrap, wrapped)
        return outs[0] if single else type(out)(outs)


def call_with_hooks(module, args, kwargs):
    """module(*args, **kwargs) with its hooks, in torch's order: forward pre-hooks, backward input wrapping, forward,
    forward hooks, backward output wrapping."""
    for hook, extra in list(hook_dict(module, "_forward_pre_hooks").values()):
        if extra.get("with_kwargs"):
            res = hook(module, args, kwargs)
            if res is not None:
                if not (isinstance(res, tuple) and len(res) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                       "but got %r" % (res,))
                args, kwargs = res
        else:
            res = hook(module, args)
            if res is not None:
                args = res if isinstance(res, tuple) else (res,)
    backward = None
    if hook_dict(module, "_backward_hooks") or hook_dict(module, "_backward_pre_hooks"):
        backward = _BackwardHooks(module)
        args = backward.wrap_inputs(args)
    out = module.forward(*args, **kwargs)
    for hook, extra in list(hook_dict(module, "_forward_hooks").values()):
        res = hook(module, args, kwargs, out) if extra.get("with_kwargs") else hook(module, args, out)
        if res is not None:
            out = res
    if backward is not None:
        out = backward.wrap_outputs(out)
    return out

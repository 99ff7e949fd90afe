"""ctensor.nn.Module and the containers (Sequential, ModuleList, ModuleDict): parameter/buffer/submodule
registration through attribute assignment, traversal, train/eval, state_dict/load_state_dict, zero_grad."""
import collections

from .. import _C
from ..autograd import no_grad
from . import _module_hooks as _hooks
from .parameter import Parameter

_IncompatibleKeys = collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


class Module:
    """Base class of layers: subclasses set attributes in __init__ and implement forward."""

    training = True

    def __init__(self):
        object.__setattr__(self, "_parameters", collections.OrderedDict())
        object.__setattr__(self, "_buffers", collections.OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", collections.OrderedDict())
        object.__setattr__(self, "training", True)

    def forward(self, *args, **kwargs):
        raise NotImplementedError("Module [%s] is missing the required \"forward\" function" % type(self).__name__)

    def __call__(self, *args, **kwargs):
        if _hooks.has_hooks(self):
            return _hooks.call_with_hooks(self, args, kwargs)
        return self.forward(*args, **kwargs)

    # ---- hooks (torch's; nn/_module_hooks.py) ----
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) -> None or new args (with_kwargs: hook(module, args, kwargs) -> None or
        (args, kwargs)), called before forward. Returns a RemovableHandle."""
        return _hooks.register(self, "_forward_pre_hooks", hook, prepend, {"with_kwargs": with_kwargs})

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args, output) -> None or a new output (with_kwargs: hook(module, args, kwargs, output)),
        called after forward. Returns a RemovableHandle."""
        return _hooks.register(self, "_forward_hooks", hook, prepend, {"with_kwargs": with_kwargs})

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) -> None or a new grad_output, called when the gradients of the module's
        outputs are known. Returns a RemovableHandle."""
        return _hooks.register(self, "_backward_pre_hooks", hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) -> None or a new grad_input (one entry per positional argument),
        called when the gradients of the module's inputs are computed. Returns a RemovableHandle."""
        return _hooks.register(self, "_backward_hooks", hook, prepend)

    # ---- lookup by dotted name (torch's get_submodule / get_parameter / get_buffer) ----
    def get_submodule(self, target):
        """The submodule at dotted path target ("" is self); AttributeError naming the missing part."""
        mod = self
        for item in target.split(".") if target else []:
            if not hasattr(mod, item):
                raise AttributeError(type(mod).__name__ + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def _get_attribute(self, target):
        """(submodule, value) for dotted path target: the submodule holding the last name, and its attribute."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(type(mod).__name__ + " has no attribute `" + name + "`")
        return mod, name

    def get_parameter(self, target):
        """The parameter at dotted path target (e.g. "net.0.weight"); AttributeError otherwise."""
        mod, name = self._get_attribute(target)
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """The buffer at dotted path target (e.g. "bn.running_mean"); AttributeError otherwise."""
        mod, name = self._get_attribute(target)
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(mod, name)

    # ---- registration ----
    def __setattr__(self, name, value):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign attributes before Module.__init__() call")
        params, buffers, modules = self._parameters, self._buffers, self._modules
        if isinstance(value, Parameter):
            self._forget(name)
            params[name] = value
        elif isinstance(value, Module):
            self._forget(name)
            modules[name] = value
        elif name in params or name in modules:
            if value is not None:
                raise TypeError("cannot assign '%s' as %s '%s' (%s or None expected)"
                                % (type(value).__name__, "parameter" if name in params else "child module", name,
                                   "ctensor.nn.Parameter" if name in params else "Module"))
            (params if name in params else modules)[name] = None
        elif name in buffers:
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name):
        for d in (self._parameters, self._buffers, self._modules, self.__dict__):
            d.pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            if key in d and name in d[key]:
                return d[key][name]
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __delattr__(self, name):
        for key in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__[key]:
                del self.__dict__[key][name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name, param):
        if param is not None and not isinstance(param, Parameter):
            raise TypeError("cannot assign '%s' object to parameter '%s'" % (type(param).__name__, name))
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent.discard(name)
        else:
            self._non_persistent.add(name)

    def add_module(self, name, module):
        self._modules[name] = module

    register_module = add_module

    # ---- traversal ----
    def named_modules(self, memo=None, prefix=""):
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(memo, prefix + ("." if prefix else "") + name)

    def modules(self):
        return (m for _, m in self.named_modules())

    def named_children(self):
        return ((n, m) for n, m in self._modules.items() if m is not None)

    def children(self):
        return (m for _, m in self.named_children())

    def _named(self, attr, prefix, recurse):
        seen = set()
        mods = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for mp, m in mods:
            for name, v in getattr(m, attr).items():
                if v is None or id(v) in seen:
                    continue
                seen.add(id(v))
                yield mp + ("." if mp else "") + name, v

    def named_parameters(self, prefix="", recurse=True):
        return self._named("_parameters", prefix, recurse)

    def parameters(self, recurse=True):
        return (p for _, p in self.named_parameters(recurse=recurse))

    def named_buffers(self, prefix="", recurse=True):
        return self._named("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        return (b for _, b in self.named_buffers(recurse=recurse))

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients ----
    def train(self, mode=True):
        for m in self.modules():
            object.__setattr__(m, "training", bool(mode))
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    _C.zero_(p.grad)

    # ---- state ----
    def state_dict(self, destination=None, prefix="", keep_vars=False):
        out = collections.OrderedDict() if destination is None else destination
        for mp, m in self.named_modules(prefix=prefix.rstrip(".")):
            dot = mp + "." if mp else ""
            for name, p in m._parameters.items():
                if p is not None:
                    out[dot + name] = p if keep_vars else _C.detach(p)
            for name, b in m._buffers.items():
                if b is not None and name not in m._non_persistent:
                    out[dot + name] = b if keep_vars else _C.detach(b)
        return out

    def load_state_dict(self, state_dict, strict=True):
        """Copies values into the existing parameters and buffers (shapes must match)."""
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            raise RuntimeError("Error(s) in loading state_dict for %s: missing keys %s, unexpected keys %s"
                               % (type(self).__name__, missing, unexpected))
        with no_grad():
            for k, target in own.items():
                if k not in state_dict:
                    continue
                src = state_dict[k]
                if tuple(src.shape) != tuple(target.shape):
                    raise RuntimeError("Error(s) in loading state_dict for %s: size mismatch for %s: copying a param "
                                       "with shape %s, the shape in current model is %s."
                                       % (type(self).__name__, k, list(src.shape), list(target.shape)))
                _C.copy_(target, src)
        return _IncompatibleKeys(missing, unexpected)

    # ---- device / dtype moves (replace parameters; build optimizers afterwards, as in PyTorch) ----
    def _apply_to_tensors(self, fn):
        for m in self.modules():
            for name, p in m._parameters.items():
                if p is not None:
                    moved = fn(p)
                    if moved is not p:
                        new = Parameter(moved, requires_grad=p.requires_grad)
                        m._parameters[name] = new
            for name, b in m._buffers.items():
                if b is not None:
                    m._buffers[name] = fn(b)
        return self

    def to(self, *args, **kwargs):
        return self._apply_to_tensors(lambda t: t.to(*args, **kwargs))

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to("cuda" if device is None else device)

    def float(self):
        return self._apply_to_tensors(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply_to_tensors(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply_to_tensors(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply_to_tensors(lambda t: t.bfloat16() if t.is_floating_point() else t)

    # ---- printing ----
    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = []
        for name, m in self._modules.items():
            sub = repr(m).replace("\n", "\n  ")
            lines.append("(%s): %s" % (name, sub))
        extra = self.extra_repr()
        if not lines:
            return "%s(%s)" % (type(self).__name__, extra)
        head = "%s(%s" % (type(self).__name__, extra + "\n  " if extra else "\n  ")
        return head + "\n  ".join(lines) + "\n)"

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self._parameters) | set(self._buffers) | set(self._modules))


class Sequential(Module):
    """Runs its modules in order; indexable, sliceable and appendable."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], collections.OrderedDict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input

    def __getitem__(self, idx):
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return Sequential(collections.OrderedDict(list(self._modules.items())[idx]))
        return mods[idx]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self._modules)), module)
        return self


class ModuleList(Module):
    """A list of modules registered as submodules."""

    def __init__(self, modules=None):
        super().__init__()
        for m in modules or ():
            self.append(m)

    def append(self, module):
        self.add_module(str(len(self._modules)), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ModuleList(list(self._modules.values())[idx])
        return list(self._modules.values())[idx]

    def __setitem__(self, idx, module):
        key = list(self._modules)[idx]
        self._modules[key] = module

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


class ModuleDict(Module):
    """A dict of modules registered as submodules."""

    def __init__(self, modules=None):
        super().__init__()
        for k, m in (modules or {}).items():
            self.add_module(k, m)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()


"""ctensor.Tensor: the Python tensor class over ctensor._C.TensorBase. Operators live in C (number protocol);
this file adds PyTorch-style properties, conversions, autograd entry points, NumPy/DLPack interop and pickling.
Op methods are attached in _functions.py."""
import builtins

import numpy as np

from . import _C
from ._types import BY_CODE, CPU, Size, device, get_default_dtype, to_device, to_dtype


class Node:
    """The autograd node that produced a tensor (tensor.grad_fn); only its name is exposed by the C ABI."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name

    def __repr__(self):
        return "<%s object>" % self._name

    def __eq__(self, other):
        return isinstance(other, Node) and other._name == self._name

    def __hash__(self):
        return hash(self._name)


class Tensor(_C.TensorBase):
    """A ctensor tensor. Create with ctensor.tensor / zeros / ...; ctensor.Tensor(t) aliases t's handle."""

    __array_priority__ = 1000  # NumPy defers `ndarray + Tensor` to Tensor.__radd__

    def __new__(cls, *args, **kwargs):
        if len(args) == 1 and isinstance(args[0], _C.TensorBase) and not kwargs:
            return _C.TensorBase.__new__(cls, args[0])
        from ._creation import empty, tensor

        if args and builtins.all(isinstance(a, builtins.int) for a in args):
            return _C._wrap_as(cls, empty(*args, **kwargs))
        if len(args) == 1:
            return _C._wrap_as(cls, tensor(args[0], dtype=get_default_dtype(), **kwargs))
        return _C._wrap_as(cls, empty(0, **kwargs))

    # ---- metadata (.shape, .ndim, .requires_grad, .grad, .is_leaf come from TensorBase in C) ----
    def size(self, dim=None):
        s = self._shape()
        if dim is None:
            return Size(s)
        try:
            return s[dim]
        except IndexError:
            raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but got %d)"
                             % (-len(s), len(s) - 1, dim)) from None

    @property
    def dtype(self):
        return BY_CODE[self._dtype_code]

    @property
    def device(self):
        return device._from_tuple(self._device_tuple)

    @property
    def is_cuda(self):
        return self._device_tuple[0] == _C.DEVICE_CUDA

    @property
    def is_cpu(self):
        return self._device_tuple[0] == _C.DEVICE_CPU

    def dim(self):
        return self.ndim

    def nelement(self):
        return self.numel()

    def element_size(self):
        return self.dtype.itemsize

    def is_floating_point(self):
        return self.dtype.is_floating_point

    @property
    def grad_fn(self):
        name = self._grad_fn_name
        return None if name is None else Node(name)

    @property
    def T(self):
        return self.permute(*range(self.ndim - 1, -1, -1))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    @property
    def data(self):
        """A detached alias sharing storage (assigning copies new values in)."""
        return self.detach()

    @data.setter
    def data(self, value):
        if tuple(value.shape) != tuple(self.shape):
            raise ValueError("data: cannot assign a tensor of shape %s to one of shape %s"
                             % (list(value.shape), list(self.shape)))
        _C.copy_(self.detach(), value)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._shape()[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (_C.select(self, 0, i) for i in range(self._shape()[0]))

    def __contains__(self, element):
        return builtins.bool((self == element).any())

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __reversed__(self):
        from ._functions import flip

        return flip(self, 0)

    # ---- autograd ----
    def requires_grad_(self, requires_grad=True):
        self.requires_grad = requires_grad
        return self

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulates d(self)/d(leaf) into the .grad of every leaf (or only of `inputs`)."""
        if retain_graph is None:
            retain_graph = create_graph
        if inputs is not None:
            from .autograd import _accumulate_into

            _accumulate_into(self, gradient, inputs, retain_graph, create_graph)
            return
        _C.backward(self, gradient, retain_graph, create_graph)

    def register_hook(self, hook):
        """Calls hook(grad) during backward; a returned Tensor replaces the gradient. Returns a handle with
        .remove(). Works on leaves (before accumulation into .grad) and on non-leaves."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        return RemovableHandle(self, _C.register_hook(self, hook))

    # ---- conversions ----
    def to(self, *args, **kwargs):
        """to(dtype) / to(device, dtype=None) / to(other_tensor) / to(device=..., dtype=..., copy=False)."""
        dev, dt = kwargs.pop("device", None), kwargs.pop("dtype", None)
        copy = kwargs.pop("copy", False)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError("to() got unexpected keyword arguments %s" % sorted(kwargs))
        for a in args:
            if isinstance(a, _C.TensorBase):
                dev, dt = a.device, a.dtype
            elif isinstance(a, (str, device, builtins.int)) and not isinstance(a, builtins.bool):
                dev = a
            else:
                dt = a
        out = self
        if dt is not None and to_dtype(dt).code != self._dtype_code:
            out = _C.to_dtype(out, to_dtype(dt).code)
        if dev is not None:
            target = to_device(dev)._tuple()
            if target != out._device_tuple:
                out = _C.to_device(out, target)
        if copy and out is self:
            out = _C.clone(self)
        return out

    def cpu(self):
        return self.to(CPU)

    def cuda(self, device=None, non_blocking=False):
        return self.to(to_device("cuda" if device is None else device))

    def type(self, dtype=None):
        if dtype is None:
            return "ctensor." + self.dtype.name
        return self.to(dtype)

    def type_as(self, other):
        return self.to(other.dtype)

    def float(self):
        return self.to(BY_CODE[_C.CT_FLOAT32])

    def double(self):
        return self.to(BY_CODE[_C.CT_FLOAT64])

    def int(self):
        return self.to(BY_CODE[_C.CT_INT32])

    def long(self):
        return self.to(BY_CODE[_C.CT_INT64])

    def byte(self):
        return self.to(BY_CODE[_C.CT_UINT8])

    def bool(self):
        return self.to(BY_CODE[_C.CT_BOOL])

    def half(self):
        return self.to(BY_CODE[_C.CT_FLOAT16])

    def bfloat16(self):
        return self.to(BY_CODE[_C.CT_BFLOAT16])

    def char(self):
        return self.to(BY_CODE[_C.CT_INT8])

    def short(self):
        return self.to(BY_CODE[_C.CT_INT16])

    def numpy(self, force=False):
        """A NumPy array sharing this CPU tensor's memory (force=True detaches and copies to the CPU first)."""
        if force:
            return np.asarray(self.detach().cpu())
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                               "instead.")
        if self.is_cuda:
            raise TypeError("can't convert %s device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                            "host memory first." % self.device)
        if self.dtype.numpy is None:
            raise TypeError("Got unsupported ScalarType %s: NumPy has no %s dtype (convert with .float() first)"
                            % (self.dtype.name, self.dtype.name))
        return np.asarray(self)

    def __array__(self, dtype=None, copy=None):
        t = self.detach()
        if t.is_cuda:
            if copy is False:
                raise ValueError("a CUDA tensor cannot be viewed as a NumPy array without a copy")
            t = t.cpu()
        arr = np.asarray(t)
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError("converting %s to %s needs a copy" % (arr.dtype, np.dtype(dtype)))
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def tolist(self):
        t = self.detach().cpu()
        if t.dtype.numpy is None:  # bfloat16: its values are exact in float32
            t = t.float()
        return np.asarray(t).tolist()

    def __reduce_ex__(self, protocol):
        from .serialization import _reduce_tensor

        return _reduce_tensor(self)

    def __deepcopy__(self, memo):
        from .serialization import _rebuild_tensor

        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment")
        out = _rebuild_tensor(type(self), _C.to_bytes(self), tuple(self.shape), self.dtype.name, self.requires_grad,
                              str(self.device))
        memo[id(self)] = out
        return out

    # ---- DLPack ----
    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule of this tensor (versioned when the consumer accepts DLPack >= 1.0)."""
        t = self.detach()
        if dl_device is not None:
            dev_type, dev_index = builtins.int(dl_device[0]), builtins.int(dl_device[1])
            if (dev_type, dev_index) != t._device_tuple:
                if copy is False:
                    raise BufferError("exporting to device %s needs a copy but copy=False" % (tuple(dl_device),))
                t = _C.to_device(t, (dev_type, dev_index))
                copy = False
        if copy:
            t = _C.clone(t)
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        return _C.to_dlpack(t, versioned)

    def __dlpack_device__(self):
        return self._device_tuple


class RemovableHandle:
    """Returned by Tensor.register_hook; remove() unregisters the hook (idempotent). Usable as a context manager."""

    def __init__(self, tensor, hook_id):
        import weakref

        try:
            self._tensor = weakref.ref(tensor)
        except TypeError:  # no weakref slot: keep the tensor itself
            self._tensor = lambda: tensor
        self.id = hook_id

    def remove(self):
        t = self._tensor()
        if t is not None and self.id is not None:
            _C.remove_hook(t, self.id)
        self.id = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()

"""Tensor creation with PyTorch signatures: tensor/as_tensor/from_numpy, zeros/ones/full/empty, ranges,
eye, random tensors and the *_like variants."""
import builtins
import numbers

import numpy as np

from . import _C
from ._tensor import Tensor
from ._types import (BY_NUMPY, Size, bool_, complex64, complex128, float64, from_numpy_dtype, get_default_dtype, int64,
                     to_device, to_dtype)

_C._set_tensor_class(Tensor)
_C._set_size_class(Size)


def _size(size):
    """Accepts zeros(2, 3), zeros((2, 3)), zeros([2, 3]) and zeros(Size)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _code(dtype, default):
    return (to_dtype(dtype) if dtype is not None else default).code


def _finish(t, requires_grad):
    if requires_grad:
        t.requires_grad = True
    return t


def default_complex_dtype():
    """The default float dtype's complex counterpart (torch: complex128 for float64, else complex64)."""
    return complex128 if get_default_dtype() is float64 else complex64


def _numpy_of(data, dtype):
    """NumPy array for tensor(): keeps an ndarray's dtype; Python floats become the default float dtype, Python
    complex numbers its complex counterpart."""
    if isinstance(data, np.ndarray) or isinstance(data, np.generic):
        arr = np.asarray(data)
        explicit = True
    else:
        arr = np.array(data)
        explicit = False
    if arr.dtype == object:
        raise TypeError("ctensor.tensor: could not infer a dtype from %s" % type(data).__name__)
    if dtype is not None:
        return arr.astype(to_dtype(dtype).numpy, copy=False)
    if not explicit and arr.dtype.kind == "f":
        return arr.astype(get_default_dtype().numpy, copy=False)
    if not explicit and arr.dtype.kind == "c":
        return arr.astype(default_complex_dtype().numpy, copy=False)
    if not explicit and arr.dtype.kind in "iu" and arr.dtype not in BY_NUMPY:
        return arr.astype(np.int64)
    from_numpy_dtype(arr.dtype)  # raises TypeError for unsupported NumPy types
    return arr


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new tensor copied from data (nested lists, scalars, NumPy arrays or a Tensor). Python floats give
    the default float dtype (float32), ints give int64 and bools give bool."""
    if isinstance(data, _C.TensorBase):
        t = _C.clone(_C.detach(data))
        t = t.to(dtype=dtype, device=device) if dtype is not None or device is not None else t
        return _finish(t, requires_grad)
    target = to_dtype(dtype) if dtype is not None else None
    if target is not None and target.code in (_C.CT_FLOAT16, _C.CT_BFLOAT16):
        # as torch: values round to float32 first, then the library rounds to the half dtype
        src = _numpy_of(data, None)
        if src.dtype != target.numpy:
            t = tensor(src.astype(np.float32), device=device).to(target)
            return _finish(t, requires_grad)
    arr = np.require(_numpy_of(data, dtype), requirements="C")
    t = _C.from_buffer(arr, arr.shape, from_numpy_dtype(arr.dtype).code, to_device(device)._tuple())
    return _finish(t, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Like tensor() but shares memory when possible (Tensors and CPU NumPy arrays)."""
    if isinstance(data, _C.TensorBase):
        return data.to(dtype=dtype, device=device) if dtype is not None or device is not None else data
    if isinstance(data, np.ndarray) and data.dtype in BY_NUMPY and dtype is None and device is None:
        try:
            return from_numpy(data)
        except ValueError:  # negative strides
            pass
    return tensor(data, dtype=dtype, device=device)


def from_numpy(ndarray):
    """A CPU tensor sharing ndarray's memory; the array stays alive while the tensor's storage does."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError("expected np.ndarray (got %s)" % type(ndarray).__name__)
    from_numpy_dtype(ndarray.dtype)
    return _C.from_buffer_shared(ndarray)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return _finish(_C.empty(_size(size), _code(dtype, get_default_dtype()), to_device(device)._tuple()),
                   requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _finish(_C.zeros(_size(size), _code(dtype, get_default_dtype()), to_device(device)._tuple()),
                   requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _finish(_C.ones(_size(size), _code(dtype, get_default_dtype()), to_device(device)._tuple()),
                   requires_grad)


def _scalar_dtype(value):
    if isinstance(value, (builtins.bool, np.bool_)):
        return bool_
    if isinstance(value, numbers.Integral):
        return int64
    if isinstance(value, (builtins.complex, np.complexfloating)):
        return default_complex_dtype()
    return get_default_dtype()


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    dt = to_dtype(dtype) if dtype is not None else _scalar_dtype(fill_value)
    if dt.is_complex:  # a complex fill (or a real one in a complex dtype): real and imaginary parts
        value = builtins.complex(fill_value)
        return _finish(_C.full_complex(tuple(size), value.real, value.imag, dt.code, to_device(device)._tuple()),
                       requires_grad)
    if isinstance(fill_value, numbers.Integral) and not isinstance(fill_value, bool) and abs(fill_value) > 2 ** 53:
        t = _C.full(tuple(size), 0.0, dt.code, to_device(device)._tuple())
        _C.fill_(t, builtins.int(fill_value))  # exact: a double would round it
        return _finish(t, requires_grad)
    return _finish(_C.full(tuple(size), builtins.float(fill_value), dt.code, to_device(device)._tuple()),
                   requires_grad)


def scalar_tensor(value, dtype=None, device=None, requires_grad=False):
    return _finish(_C.scalar_tensor(builtins.float(value), _code(dtype, get_default_dtype()),
                                    to_device(device)._tuple()), requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    if dtype is None:
        ints = builtins.all(isinstance(v, numbers.Integral) for v in (start, end, step))
        dtype = int64 if ints else get_default_dtype()
    t = _C.arange(builtins.float(start), builtins.float(end), builtins.float(step), to_dtype(dtype).code,
                  to_device(device)._tuple())
    return _finish(t, requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    t = _C.linspace(builtins.float(start), builtins.float(end), steps, _code(dtype, get_default_dtype()),
                    to_device(device)._tuple())
    return _finish(t, requires_grad)


def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False):
    """base ** linspace(start, end, steps)."""
    exponents = linspace(start, end, steps, dtype=dtype, device=device)
    return _finish(_C.pow(builtins.float(base), exponents), requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    t = _C.eye(n, n if m is None else m, _code(dtype, get_default_dtype()), to_device(device)._tuple())
    return _finish(t, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    t = _C.rand(_size(size), _code(dtype, get_default_dtype()), to_device(device)._tuple(), generator)
    return _finish(t, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    t = _C.randn(_size(size), _code(dtype, get_default_dtype()), to_device(device)._tuple(), generator)
    return _finish(t, requires_grad)


def randint(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """randint(high, size) or randint(low, high, size): uniform integers in [low, high)."""
    args = list(args)
    if size is None:
        size = args.pop()
    low, high = (0, args[0]) if len(args) == 1 else tuple(args)
    t = _C.randint(low, high, tuple(size), _code(dtype, int64), to_device(device)._tuple(), generator)
    return _finish(t, requires_grad)


def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
    t = _C.randperm(n, to_device(device)._tuple(), generator)
    return _finish(t if dtype is None else t.to(dtype), requires_grad)


def bernoulli(input, generator=None):
    return _C.bernoulli(input, generator)


def _like(fn_name, input, dtype, device, requires_grad, *extra):
    if dtype is None and device is None:
        fast = {"zeros": _C.zeros_like, "ones": _C.ones_like, "empty": _C.empty_like}.get(fn_name)
        t = fast(input) if fast else None
    else:
        t = None
    if t is None:
        dt = input.dtype if dtype is None else dtype
        dev = input.device if device is None else device
        t = globals()[fn_name](*(tuple(input.shape),) + extra, dtype=dt, device=dev)
    return _finish(t, requires_grad)


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    return _like("zeros", input, dtype, device, requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):
    return _like("ones", input, dtype, device, requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False):
    return _like("empty", input, dtype, device, requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    if dtype is None and device is None:
        return _finish(_C.full_like(input, builtins.float(fill_value)), requires_grad)
    return _finish(full(tuple(input.shape), fill_value, dtype=dtype or input.dtype, device=device or input.device),
                   requires_grad)


def rand_like(input, dtype=None, device=None, requires_grad=False):
    return _finish(rand(tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device),
                   requires_grad)


def randn_like(input, dtype=None, device=None, requires_grad=False):
    return _finish(randn(tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device),
                   requires_grad)


def _convert_operand(obj):
    """Hook for the C operators: NumPy arrays and scalars become tensors; anything else is NotImplemented."""
    if isinstance(obj, (np.ndarray, np.generic)):
        return tensor(obj)
    return NotImplemented


_C._set_convert_hook(_convert_operand)

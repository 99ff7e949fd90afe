"""dtypes, devices and Size: the small value types of the ctensor Python API (PyTorch names)."""
import builtins

import numpy as np

from . import _C


class dtype:
    """An element type (ctensor.float32, ...). Compares by identity like torch.dtype."""

    __slots__ = ("name", "code", "itemsize", "is_floating_point", "is_signed", "numpy")

    @property
    def is_complex(self):
        return self.name in ("complex64", "complex128")

    def __init__(self, name, code, itemsize, is_floating_point, is_signed, numpy_type):
        self.name = name
        self.code = code
        self.itemsize = itemsize
        self.is_floating_point = is_floating_point
        self.is_signed = is_signed
        self.numpy = None if numpy_type is None else np.dtype(numpy_type)  # None: bfloat16 (NumPy has none)

    def __repr__(self):
        return "ctensor." + self.name

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))


float32 = dtype("float32", _C.CT_FLOAT32, 4, True, True, np.float32)
float64 = dtype("float64", _C.CT_FLOAT64, 8, True, True, np.float64)
int32 = dtype("int32", _C.CT_INT32, 4, False, True, np.int32)
int64 = dtype("int64", _C.CT_INT64, 8, False, True, np.int64)
uint8 = dtype("uint8", _C.CT_UINT8, 1, False, False, np.uint8)
bool_ = dtype("bool", _C.CT_BOOL, 1, False, False, np.bool_)
float16 = dtype("float16", _C.CT_FLOAT16, 2, True, True, np.float16)
bfloat16 = dtype("bfloat16", _C.CT_BFLOAT16, 2, True, True, None)
int8 = dtype("int8", _C.CT_INT8, 1, False, True, np.int8)
int16 = dtype("int16", _C.CT_INT16, 2, False, True, np.int16)
complex64 = dtype("complex64", _C.CT_COMPLEX64, 8, False, True, np.complex64)
complex128 = dtype("complex128", _C.CT_COMPLEX128, 16, False, True, np.complex128)

DTYPES = (float32, float64, int32, int64, uint8, bool_, float16, bfloat16, int8, int16, complex64, complex128)
BY_CODE = {d.code: d for d in DTYPES}
BY_NAME = {d.name: d for d in DTYPES}
BY_NUMPY = {d.numpy: d for d in DTYPES if d.numpy is not None}
ALIASES = {"float": float32, "double": float64, "int": int32, "long": int64, "bool": bool_, "half": float16,
           "short": int16, "cfloat": complex64, "cdouble": complex128}

_default_float = [float32]


def _dtype_by_name(name):
    return BY_NAME[name]


def get_default_dtype():
    """The dtype of Python floats in ctensor.tensor and of floating creation functions (float32)."""
    return _default_float[0]


def set_default_dtype(d):
    """Sets the default floating dtype (float32 or float64)."""
    if d not in (float32, float64):
        raise TypeError("only floating-point types are supported as the default type, got %r" % (d,))
    _default_float[0] = d


def to_dtype(d):
    """Accepts a ctensor dtype, a NumPy dtype/type or a name; returns a ctensor dtype."""
    if isinstance(d, dtype):
        return d
    if isinstance(d, str) and d in BY_NAME:
        return BY_NAME[d]
    try:
        nd = np.dtype(d)
    except TypeError:
        raise TypeError("not a dtype: %r" % (d,)) from None
    if nd not in BY_NUMPY:
        raise TypeError("ctensor has no dtype matching numpy %s; supported: float32, float64, float16, int32, "
                        "int64, int16, int8, uint8, bool, complex64, complex128" % nd)
    return BY_NUMPY[nd]


def from_numpy_dtype(nd):
    nd = np.dtype(nd)
    if nd not in BY_NUMPY:
        raise TypeError("can't convert np.ndarray of type numpy.%s. The only supported types are: float64, "
                        "float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool." % nd)
    return BY_NUMPY[nd]


_TYPE_CODES = {"cpu": _C.DEVICE_CPU, "cuda": _C.DEVICE_CUDA}
_TYPE_NAMES = {v: k for k, v in _TYPE_CODES.items()}


class device:
    """A device: device("cpu"), device("cuda"), device("cuda:1"), device("cuda", 1)."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, builtins.int):
            type, index = "cuda", type
        elif ":" in type:
            type, _, idx = type.partition(":")
            if index is not None:
                raise ValueError("device string already has an index")
            index = builtins.int(idx)
        if type not in _TYPE_CODES:
            raise RuntimeError("Expected one of cpu, cuda device type at start of device string: %s" % type)
        if type == "cpu" and index not in (None, 0):
            raise ValueError("cpu device index must be 0, got %s" % index)
        if index is not None and index < 0:
            raise ValueError("device index must be non-negative, got %d" % index)
        self.type = type
        self.index = index

    @classmethod
    def _from_tuple(cls, t):
        type_code, index = t
        name = _TYPE_NAMES.get(type_code, "unknown")
        return cls(name, None if name == "cpu" else index)

    def _tuple(self):
        return (_TYPE_CODES[self.type], self.index or 0)

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __str__(self):
        return self.type if self.index is None else "%s:%d" % (self.type, self.index)

    def __repr__(self):
        if self.index is None:
            return "device(type='%s')" % self.type
        return "device(type='%s', index=%d)" % (self.type, self.index)

    def __reduce__(self):
        return (device, (self.type, self.index))


CPU = device("cpu")


def to_device(d):
    """Accepts None (CPU), a string, an int (CUDA index) or a device; returns a device."""
    if d is None:
        return CPU
    return d if isinstance(d, device) else device(d)


class Size(tuple):
    """The shape of a tensor: a tuple of ints (like torch.Size)."""

    __slots__ = ()

    def __repr__(self):
        return "ctensor.Size([%s])" % ", ".join(str(s) for s in self)

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

"""ctensor.save / ctensor.load: pickle-based files of tensors and containers of them (state dicts, lists).
A tensor pickles as (raw bytes, shape, dtype name, requires_grad, device), never as a live handle.
load(..., weights_only=True) uses a restricted unpickler that only rebuilds tensors and plain containers."""
import collections
import io
import os
import pickle

from . import _C
from ._types import BY_NAME, to_device


def _rebuild_tensor(cls, data, shape, dtype_name, requires_grad, device="cpu"):
    t = _C.from_buffer(data, tuple(shape), BY_NAME[dtype_name].code, to_device(device)._tuple())
    if cls is not None and type(t) is not cls:
        t = _C._wrap_as(cls, t)
    if requires_grad:
        t.requires_grad = True
    return t


def _reduce_tensor(t):
    cls = type(t)
    return (_rebuild_tensor, (cls, _C.to_bytes(t), tuple(t._shape()), t.dtype.name, t.requires_grad and t.is_leaf,
                              str(t.device)))


def save(obj, f, pickle_protocol=4):
    """Writes obj (a Tensor, a state dict, or nested lists/tuples/dicts of them) to a path or binary file."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            pickle.dump(obj, fh, protocol=pickle_protocol)
    else:
        pickle.dump(obj, f, protocol=pickle_protocol)


_SAFE = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("ctensor.serialization", "_rebuild_tensor"): _rebuild_tensor,
    ("ctensor._types", "_dtype_by_name"): None,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("builtins", "slice"): slice,
    ("builtins", "complex"): complex,
}
_SAFE_CLASSES = {("ctensor._tensor", "Tensor"), ("ctensor.nn.parameter", "Parameter"), ("ctensor._types", "device")}


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _SAFE or (module, name) in _SAFE_CLASSES:
            return super().find_class(module, name)
        raise pickle.UnpicklingError("weights_only load refuses %s.%s; pass weights_only=False only for files "
                                     "you trust" % (module, name))


def load(f, map_location=None, weights_only=False):
    """Reads what save() wrote. map_location (a device or string) moves the loaded tensors there.
    weights_only=True refuses everything but tensors and plain containers (use it for untrusted files)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            data = fh.read()
    else:
        data = f.read()
    unpickler = _WeightsUnpickler if weights_only else pickle.Unpickler
    obj = unpickler(io.BytesIO(data)).load()
    if map_location is not None:
        obj = _map(obj, to_device(map_location))
    return obj


def _map(obj, device):
    if isinstance(obj, _C.TensorBase):
        return obj.to(device)
    if isinstance(obj, dict):
        return type(obj)((k, _map(v, device)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return type(obj)(_map(v, device) for v in obj)
    return obj

"""default_collate and default_convert with torch's rules: a batch (list of samples) becomes tensors stacked along a
new dimension 0, recursing into dicts, namedtuples, tuples and lists; Python floats become float64 tensors, ints
int64, bools bool; strings stay lists. default_convert turns NumPy arrays and scalars into tensors without
batching (DataLoader's collate when batch_size=None)."""
import collections.abc
import re

import numpy as np

from ... import _C
from ..._creation import as_tensor, tensor
from ..._shape_ops import stack
from ..._types import float64

__all__ = ["default_collate", "default_convert"]

# NumPy dtype kinds that have no tensor equivalent: bytes, unicode, object
_NP_STR_OBJ = re.compile(r"[SaUO]")
_ERR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _is_numpy_value(x) -> bool:
    return isinstance(x, (np.ndarray, np.generic)) and not isinstance(x, (np.str_, np.bytes_))


def default_convert(data):
    """NumPy arrays and scalars become tensors (string/object arrays are left as they are), recursively inside
    mappings, namedtuples and sequences (tuples become lists, as in torch); everything else is returned as is."""
    if isinstance(data, _C.TensorBase):
        return data
    if _is_numpy_value(data):
        if isinstance(data, np.ndarray) and _NP_STR_OBJ.search(data.dtype.str):
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _same_type(data, {k: default_convert(data[k]) for k in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _same_type(data, [default_convert(d) for d in data])
    return data


def _same_type(like, value):
    """value rebuilt as like's container type when that type can be built from it, else value itself."""
    try:
        return type(like)(value)
    except TypeError:
        return value


def _collate_tensors(batch):
    shape = tuple(batch[0].shape)
    for i, t in enumerate(batch):
        if tuple(t.shape) != shape:
            raise RuntimeError("default_collate: stack expects each tensor to be equal size, but got %s at entry 0 "
                               "and %s at entry %d" % (list(shape), list(t.shape), i))
    return stack(list(batch), 0)


def default_collate(batch):
    """Merges a list of samples into a batch (see the module comment for the rules)."""
    elem = batch[0]
    if isinstance(elem, _C.TensorBase):
        return _collate_tensors(batch)
    if _is_numpy_value(elem):
        if _NP_STR_OBJ.search(elem.dtype.str):
            raise TypeError(_ERR.format(elem.dtype))
        if isinstance(elem, np.ndarray):
            return _collate_tensors([as_tensor(b) for b in batch])
        return as_tensor(np.asarray(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):  # bool included: a list of bools gives a bool tensor, as torch.tensor does
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return _same_type(elem, {k: default_collate([d[k] for d in batch]) for k in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(list(s)) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(list(s)) for s in zip(*batch)]
        return columns if isinstance(elem, tuple) else _same_type(elem, columns)
    raise TypeError(_ERR.format(type(elem)))

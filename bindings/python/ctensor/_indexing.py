"""Tensor.__getitem__ / __setitem__ with NumPy/PyTorch semantics: ints, slices with steps, None, Ellipsis
(views via select/slice/unsqueeze) and advanced indices (integer tensors/lists and bool masks, broadcast
together): reads via one index_select over the flattened indexed dims, writes via index_put_."""
import numbers

import numpy as np

from . import _C
from ._creation import arange, tensor
from ._tensor import Tensor

_TB = _C.TensorBase
_INT64_MAX = 2**63 - 1


def _is_int(obj):
    return isinstance(obj, numbers.Integral) and not isinstance(obj, bool)


def _as_index_tensor(obj):
    if isinstance(obj, _TB):
        return obj
    arr = np.asarray(obj)
    if arr.dtype != np.bool_ and arr.dtype.kind not in "iu":
        if arr.size == 0:
            arr = arr.astype(np.int64)
        else:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return tensor(arr)


def _normalize(idx):
    """Index tuple with the Ellipsis expanded and lists/arrays turned into tensors; also the dims consumed."""
    items = list(idx) if isinstance(idx, tuple) else [idx]
    consumed, ellipses = 0, 0
    for i, it in enumerate(items):
        if it is Ellipsis:
            ellipses += 1
        elif it is None:
            pass
        elif isinstance(it, bool):
            raise IndexError("indexing with a Python bool is not supported; use a bool tensor")
        elif _is_int(it) or isinstance(it, slice):
            consumed += 1
        else:
            t = items[i] = _as_index_tensor(it)
            consumed += t.ndim if t.dtype.name == "bool" else 1
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    return items, consumed


def _slice_bounds(s):
    step = 1 if s.step is None else int(s.step)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start = 0 if s.start is None else int(s.start)
    stop = _INT64_MAX if s.stop is None else int(s.stop)
    return start, stop, step


def _checked_index(t, size, dim):
    """int64 index tensor with negative entries wrapped; IndexError for out-of-range entries."""
    if t.dtype.is_floating_point or t.dtype.is_complex:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if t.dtype.name != "int64":
        t = _C.to_dtype(t, _C.CT_INT64)
    a = np.asarray(_C.detach(t).cpu())
    if a.size:
        lo, hi = int(a.min()), int(a.max())
        bad = hi if hi >= size else lo if lo < -size else None
        if bad is not None:
            raise IndexError("index %d is out of bounds for dimension %d with size %d" % (bad, dim, size))
        if lo < 0:
            t = _C.where(_C.lt(t, 0), _C.add(t, size, 1), t)
    return t


def _apply_advanced(out, adv):
    """Applies advanced indices [(dim, index_tensor)] (broadcast together) to out."""
    dims = [d for d, _ in adv]
    shape = tuple(out.shape)
    idxs = [_checked_index(t, shape[d], d) for d, t in adv]
    if dims != list(range(dims[0], dims[0] + len(dims))):  # not adjacent: the indexed dims go first
        rest = [d for d in range(out.ndim) if d not in dims]
        out = _C.permute(out, tuple(dims + rest))
        dims = list(range(len(dims)))
        shape = tuple(out.shape)
    d0, k = dims[0], len(dims)
    linear, stride = idxs[-1], shape[dims[-1]]
    for j in range(k - 2, -1, -1):
        linear = _C.add(_C.mul(idxs[j], stride), linear, 1)
        stride *= shape[dims[j]]
    if k > 1:
        out = _C.flatten(out, d0, d0 + k - 1)
    picked = _C.index_select(out, d0, _C.reshape(linear, (-1,)))
    flat_shape = tuple(out.shape)
    return _C.reshape(picked, flat_shape[:d0] + tuple(linear.shape) + flat_shape[d0 + 1:])


def _resolve(self, idx):
    """The view left by idx's basic parts and its advanced indices [(dim, index_tensor)] (masks as nonzero)."""
    items, consumed = _normalize(idx)
    ndim = self.ndim
    if consumed > ndim:
        raise IndexError("too many indices for tensor of dimension %d" % ndim)
    out, d, adv = self, 0, []
    for it in items:
        if it is None:
            out = _C.unsqueeze(out, d)
            d += 1
        elif it is Ellipsis:
            d += ndim - consumed
        elif _is_int(it):
            out = _C.select(out, d, it)
        elif isinstance(it, slice):
            out = _C.slice(out, d, *_slice_bounds(it))
            d += 1
        elif it.dtype.name == "bool":
            k = it.ndim
            if it._shape() != out._shape()[d:d + k]:
                raise IndexError("The shape of the mask %s does not match the shape of the indexed tensor %s"
                                 % (list(it.shape), list(out.shape)[d:d + k]))
            nz = _C.nonzero(it)
            adv.extend((d + j, _C.select(nz, 1, j)) for j in range(k))
            d += k
        else:
            adv.append((d, it))
            d += 1
    return out, adv


def getitem(self, idx):
    if _is_int(idx):
        return _C.select(self, 0, idx)
    if isinstance(idx, slice):
        return _C.slice(self, 0, *_slice_bounds(idx))
    if isinstance(idx, _TB) and idx.dtype.name == "bool" and idx._shape() == self._shape():
        return _C.masked_select(self, idx)
    out, adv = _resolve(self, idx)
    return _apply_advanced(out, adv) if adv else out


def _is_basic(idx):
    items = idx if isinstance(idx, tuple) else (idx,)
    return all(it is None or it is Ellipsis or isinstance(it, slice) or _is_int(it) for it in items)


def setitem(self, idx, value):
    if _is_basic(idx):
        view = getitem(self, idx)
        if isinstance(value, (numbers.Number, np.bool_)) and not isinstance(value, complex):
            _C.fill_(view, float(value))
        else:
            _C.copy_(view, value if isinstance(value, _TB) else tensor(value))
        return
    if isinstance(idx, _TB) and idx.dtype.name == "bool" and isinstance(value, numbers.Number):
        _C.copy_(self, _C.masked_fill(self, idx, float(value)))
        return
    # general case: index_put_ on the view left by the basic indices, its indexed dims moved to the front
    out, adv = _resolve(self, idx)
    dims = [d for d, _ in adv]
    rest = [d for d in range(out.ndim) if d not in dims]
    target = _C.permute(out, tuple(dims + rest)) if dims + rest != list(range(out.ndim)) else out
    idxs = [_int_index(t) for _, t in adv]
    if not isinstance(value, _TB):
        value = tensor(value, dtype=self.dtype, device=self.device)
    elif value.dtype != self.dtype:
        value = value.to(self.dtype)
    if value.ndim:  # value broadcasts to the shape getitem gives; reordered to index_put's (indexed dims first)
        b = tuple(np.broadcast_shapes(*(tuple(t.shape) for _, t in adv)))
        shape, d0, nb = tuple(out.shape), dims[0], len(b)
        rest_shape = tuple(shape[d] for d in rest)
        if dims == list(range(d0, d0 + len(dims))) and d0 > 0:  # adjacent indices keep their place in the result
            value = _C.expand(value, shape[:d0] + b + shape[d0 + len(dims):])
            value = _C.permute(value, tuple(range(d0, d0 + nb)) + tuple(range(d0)) + tuple(range(d0 + nb, value.ndim)))
        else:
            value = _C.expand(value, b + rest_shape)
    _C.index_put_(target, idxs, value, False)


def _int_index(t):
    """t as an int64/int32 index tensor (IndexError for floating point and complex)."""
    if t.dtype.is_floating_point or t.dtype.is_complex:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return t if t.dtype.name in ("int64", "int32") else _C.to_dtype(t, _C.CT_INT64)


Tensor.__getitem__ = getitem
Tensor.__setitem__ = setitem

"""How a DataLoader worker sends one result to the main process over its own pipe, with no copy of tensor data in
user space: the result is pickled with every CPU tensor replaced by a reference (shape, dtype, index); the pickle
goes first, then each tensor's bytes straight from the tensor's memory (send_bytes of a view). The main process
unpickles and, at each reference, allocates the tensor and receives its bytes directly into it (recv_bytes_into).

Invariant: buffers are sent in the order the pickler met the tensors, which is the order the unpickler asks for
them, so the i-th reference reads the i-th buffer. Anything else (CUDA tensors included) pickles as usual."""
import io
import pickle

import numpy as np

from ... import _C

_TAG = "ctensor.cpu_tensor"


def _cpu_tensor(obj):
    return isinstance(obj, _C.TensorBase) and obj._device_tuple[0] == _C.DEVICE_CPU


def _as_bytes(arr):
    """A flat uint8 view of a C-contiguous array (0-d and empty arrays included)."""
    return arr.reshape(-1).view(np.uint8)


class _Pickler(pickle.Pickler):
    def __init__(self, file, buffers):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._buffers = buffers

    def persistent_id(self, obj):
        if not _cpu_tensor(obj):
            return None
        data = np.ascontiguousarray(np.asarray(obj.detach()))  # a view (keeps the tensor alive) unless strided
        self._buffers.append(_as_bytes(data))
        return (_TAG, tuple(obj._shape()), obj._dtype_code, bool(obj.requires_grad and obj.is_leaf), type(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, conn):
        super().__init__(file)
        self._conn = conn

    def persistent_load(self, pid):
        tag, shape, dtype_code, requires_grad, cls = pid
        if tag != _TAG:
            raise pickle.UnpicklingError("unknown persistent id %r" % (tag,))
        t = _C.empty(shape, dtype_code, (_C.DEVICE_CPU, 0))
        target = _as_bytes(np.asarray(t))
        got = self._conn.recv_bytes_into(target)
        if got != target.nbytes:
            raise RuntimeError("DataLoader: a tensor of %d bytes arrived as %d bytes" % (target.nbytes, got))
        if cls is not type(t):
            t = _C._wrap_as(cls, t)
        if requires_grad:
            t.requires_grad = True
        return t


def pack(obj):
    """(pickle bytes, tensor byte views) of obj; raises what pickling raises, before anything is sent."""
    buffers = []
    f = io.BytesIO()
    _Pickler(f, buffers).dump(obj)
    return f.getvalue(), buffers


def send(conn, packed):
    head, buffers = packed
    conn.send_bytes(head)
    for b in buffers:
        conn.send_bytes(b)


def recv(conn):
    """The next object sent on conn (blocks until all of it has arrived)."""
    return _Unpickler(io.BytesIO(conn.recv_bytes()), conn).load()

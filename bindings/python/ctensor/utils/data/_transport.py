"""How a DataLoader worker sends one result to the main process over its own pipe, with no copy of tensor data in
user space: the result is pickled with every CPU tensor replaced by a reference (shape, dtype, index); the pickle
goes first (a framed Connection message), then each tensor's bytes, written to the pipe's descriptor straight from
the tensor's memory. The main process unpickles and, at each reference, allocates the tensor and reads its bytes
from the descriptor directly into it (os.readv), so tensor data is copied only by the kernel.

Invariant: buffers are sent in the order the pickler met the tensors, which is the order the unpickler asks for
them, so the i-th reference reads the i-th buffer, and its size follows from the shape and dtype in the reference.
A Connection keeps no read buffer of its own, so raw reads after recv_bytes() start where the message ended.
Anything else (CUDA tensors included) pickles as usual."""
import io
import os
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
        _read_into(self._conn.fileno(), memoryview(_as_bytes(np.asarray(t))))
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


def _read_into(fd, view):
    while view.nbytes:
        n = os.readv(fd, [view])
        if n == 0:
            raise EOFError("DataLoader: the worker's pipe closed in the middle of a tensor")
        view = view[n:]


def _write_all(fd, view):
    while view.nbytes:
        view = view[os.write(fd, view):]


def send(conn, packed):
    head, buffers = packed
    conn.send_bytes(head)
    for b in buffers:
        _write_all(conn.fileno(), memoryview(b))


def recv(conn):
    """The next object sent on conn (blocks until all of it has arrived)."""
    return _Unpickler(io.BytesIO(conn.recv_bytes()), conn).load()

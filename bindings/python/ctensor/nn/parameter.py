"""ctensor.nn.Parameter: a leaf Tensor that Modules register as a trainable parameter."""
from .. import _C
from .._tensor import Tensor


class Parameter(Tensor):
    """Parameter(data, requires_grad=True): shares data's storage, is a leaf, and requires grad by default."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _C.empty((0,), _C.CT_FLOAT32, (_C.DEVICE_CPU, 0))
        p = _C._wrap_as(cls, _C.detach(data))
        if requires_grad:
            p.requires_grad = True
        return p

    def __init__(self, data=None, requires_grad=True):
        pass

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

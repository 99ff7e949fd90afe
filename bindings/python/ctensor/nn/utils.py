"""ctensor.nn.utils: gradient clipping (clip_grad_norm_, clip_grad_value_) and flattening parameters to one
vector and back (parameters_to_vector, vector_to_parameters), like torch.nn.utils."""
from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Iterable, Optional, Union

from .. import _C
from ..autograd import no_grad
from . import _rnn_utils as rnn  # noqa: F401  (ctensor.nn.utils.rnn, also importable by that name below)

sys.modules[__name__ + ".rnn"] = rnn

if TYPE_CHECKING:
    from .. import Tensor

_TensorOrTensors = Union["Tensor", Iterable["Tensor"]]


def _as_list(parameters):
    return [parameters] if isinstance(parameters, _C.TensorBase) else list(parameters)


def _grads(parameters):
    return [p.grad for p in _as_list(parameters) if p.grad is not None]


def _total_norm(grads, norm_type):
    """The norm_type-norm of all grads together (as if concatenated), a 0-d tensor on the first grad's device."""
    if norm_type == math.inf:
        norms = [_C.max(_C.abs(g)) if g.numel() else _C.zeros_like(_C.sum(g, None, False)) for g in grads]
        total = norms[0] if len(norms) == 1 else _C.max(_C.stack(norms, 0))
    else:
        norms = [_C.norm(g, norm_type, None, False) for g in grads]
        total = norms[0] if len(norms) == 1 else _C.norm(_C.stack(norms, 0), norm_type, None, False)
    return total


def _cast_like(t, like):
    """t converted to like's dtype and moved to like's device."""
    t = _C.to_dtype(t, like._dtype_code)
    return t if t._device_tuple == like._device_tuple else _C.to_device(t, like._device_tuple)


@no_grad()
def clip_grad_norm_(parameters: _TensorOrTensors, max_norm: float, norm_type: Union[float, str] = 2.0,
                    error_if_nonfinite: bool = False, foreach: Optional[bool] = None) -> Tensor:
    """Scales the gradients of parameters (a Tensor or an iterable of Tensors) in place so that their total
    norm_type-norm (computed over all gradients together; norm_type may be inf) is at most max_norm.
    Returns the total norm before clipping as a 0-d tensor (0.0 when no parameter has a gradient). The scale is
    max_norm / (total + 1e-6), applied only when below 1. error_if_nonfinite=True raises a RuntimeError for a
    nan or inf total norm instead of clipping. foreach is accepted for PyTorch compatibility and ignored."""
    max_norm, norm_type = float(max_norm), float(norm_type)
    grads = _grads(parameters)
    if not grads:
        return _C.scalar_tensor(0.0, _C.CT_FLOAT32, (_C.DEVICE_CPU, 0))
    total = _total_norm(grads, norm_type)
    total_value = total.item()
    if error_if_nonfinite and not math.isfinite(total_value):
        raise RuntimeError("The total norm of order %s for gradients from `parameters` is non-finite, so it cannot "
                           "be clipped. To disable this error and scale the gradients by the non-finite norm "
                           "anyway, set `error_if_nonfinite=False`" % norm_type)
    clip_coef = _C.clamp(_C.div(max_norm, _C.add(total, 1e-6, 1)), None, 1.0)
    for g in grads:
        _C.mul_(g, _cast_like(clip_coef, g))
    return total


@no_grad()
def clip_grad_value_(parameters: _TensorOrTensors, clip_value: float, foreach: Optional[bool] = None) -> None:
    """Clamps the gradients of parameters in place to [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    for g in _grads(parameters):
        _C.clamp_(g, -clip_value, clip_value)


def _check_same_device(param, device):
    if device is None:
        return param._device_tuple
    if param._device_tuple != device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return device


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened and concatenated into one 1-D tensor (differentiable, like torch)."""
    device, flat = None, []
    for p in parameters:
        device = _check_same_device(p, device)
        flat.append(_C.reshape(p, (-1,)))
    if not flat:
        raise RuntimeError("parameters_to_vector: expected a non-empty iterable of Tensors")
    return _C.cat(flat, 0)


@no_grad()
def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copies consecutive slices of the 1-D tensor vec into the parameters (in place, shapes preserved)."""
    if not isinstance(vec, _C.TensorBase):
        raise TypeError("expected torch.Tensor, but got: %s" % type(vec).__name__)
    params = list(parameters)
    needed = sum(p.numel() for p in params)
    if vec.ndim != 1 or vec.numel() != needed:
        raise ValueError("vector_to_parameters: expected a 1-D vector of %d elements for the parameters, got shape %s"
                         % (needed, list(vec.shape)))
    device, offset = None, 0
    for p in params:
        device = _check_same_device(p, device)
        n = p.numel()
        _C.copy_(_C.detach(p), _C.reshape(_C.narrow(vec, 0, offset, n), tuple(p.shape)))
        offset += n

"""DistributedDataParallel with torch 1.13's signature and behaviour, over the C ABI's ct_data_parallel (the
gradient reducer in src/distributed/data_parallel.cpp, docs/distributed.md "Data-parallel training").

Run one process per rank under mpirun, wrap the model after init_process_group, train as usual: each backward
averages the gradients over the ranks while it runs (buckets of bucket_cap_mb are all-reduced as soon as their
gradients are ready), so optimizer.step() sees the same .grad on every rank.

Where the reducer is driven (the "documented points"):
- construction broadcasts the parameters and buffers from rank 0 (collective: every rank constructs it);
- each forward first completes a reduction that the previous backward left open (ct_data_parallel_finish: a
  no-op normally; with find_unused_parameters=False and a parameter that got no gradient this is too late for the
  step that came between, where torch raises instead - use find_unused_parameters=True for such models), then
  broadcasts the buffers from rank 0 (broadcast_buffers), tells the reducer whether the coming backward
  synchronises (no_sync() decides at forward time, as in torch), runs the module and, with
  find_unused_parameters=True, marks the parameters its outputs cannot reach (ct_data_parallel_prepare) so that
  the backward itself completes the reduction; parameters unused on every rank keep their .grad (None stays None).
"""
import contextlib

from ... import _C
from ... import distributed as dist
from ...autograd import is_grad_enabled, no_grad
from ..._types import device
from ..module import Module

__all__ = ["DistributedDataParallel"]


def _find_tensors(obj, out):
    """The tensors in a forward's output (tensors, lists, tuples, dicts, nested), as torch's _find_tensors."""
    if isinstance(obj, _C.TensorBase):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            _find_tensors(x, out)
    elif isinstance(obj, dict):
        for x in obj.values():
            _find_tensors(x, out)
    return out


def _device_args(module, device_ids, output_device):
    """(device_ids, output_device) as torch 1.13 checks them: None for CPU modules and for an empty list, else
    [the module's single CUDA device] (ValueError otherwise)."""
    devices = {str(p.device) for p in module.parameters()}
    single_cuda = len(devices) == 1 and next(iter(devices)).startswith("cuda")
    if not device_ids or not single_cuda:
        if device_ids or output_device is not None:
            raise ValueError("DistributedDataParallel device_ids and output_device arguments only work with "
                             "single-device/multiple-device GPU modules or CPU modules, but got device_ids %s, "
                             "output_device %s, and module parameters %s." % (device_ids, output_device, devices))
        return None, None
    if len(device_ids) != 1:
        raise ValueError("device_ids can only be None or contain a single element, got %s" % (device_ids,))
    module_device = device(next(iter(devices)))
    wanted = [module_device if output_device is None else _cuda_device(output_device), _cuda_device(device_ids[0])]
    for d in wanted:
        if d != module_device:
            raise ValueError("DistributedDataParallel: device_ids %s / output_device %s must name the module's device "
                             "%s" % (device_ids, output_device, module_device))
    return [module_device], module_device


def _cuda_device(d):
    d = device(d)  # an int means a CUDA index, as in torch
    return device("cuda", d.index or 0) if d.type == "cuda" else d


def _to_device(obj, dev):
    """obj with every tensor (in tuples, lists, dicts, nested) moved to dev; other values as they are."""
    if isinstance(obj, _C.TensorBase):
        return obj.to(dev)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_device(x, dev) for x in obj)
    if isinstance(obj, dict):
        return {k: _to_device(v, dev) for k, v in obj.items()}
    return obj


class DistributedDataParallel(Module):
    """Data-parallel training of module over process_group (default: the world group). As torch 1.13: a CPU
    module takes device_ids=None and output_device=None; a module on one CUDA device takes device_ids=None or
    [that device] (an int, string or device; output_device defaults to it and must be it), and then each forward
    moves its tensor inputs to that device first (torch's to_kwargs). The gradients are copied out of the buckets into each .grad, so
    gradient_as_bucket_view changes nothing but is accepted; static_graph=True is handled like
    find_unused_parameters=True (correct for any graph)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=25, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False):
        super().__init__()
        if not isinstance(module, Module):
            raise TypeError("DistributedDataParallel: module must be a ctensor.nn.Module, got %s"
                            % type(module).__name__)
        self.device_ids, self.output_device = _device_args(module, device_ids, output_device)
        if dim != 0:
            raise ValueError("DistributedDataParallel: dim must be 0 (inputs are not scattered), got %r" % (dim,))
        if not bucket_cap_mb > 0:
            raise ValueError("DistributedDataParallel: bucket_cap_mb must be positive, got %r" % (bucket_cap_mb,))
        params = [p for p in module.parameters() if p.requires_grad]
        if not params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter "
                               "that requires a gradient.")
        self.module = module
        group = dist._group(process_group)
        self.process_group = group
        self.broadcast_buffers = bool(broadcast_buffers)
        self.find_unused_parameters = bool(find_unused_parameters or static_graph)
        self.gradient_as_bucket_view = bool(gradient_as_bucket_view)
        self.static_graph = bool(static_graph)
        self.bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)
        self.require_backward_grad_sync = True
        # parameters are broadcast by the reducer; buffers here (torch syncs the whole module state)
        self._reducer = _C.data_parallel_new(group, params, self.bucket_bytes_cap)
        self._sync_buffers()

    def _sync_buffers(self):
        with no_grad():
            for b in self.module.buffers():
                self.process_group.broadcast(b, 0, False)

    @property
    def bucket_count(self):
        """Number of gradient buckets (one all-reduce each per synchronising backward)."""
        return self._reducer.bucket_count()

    def forward(self, *inputs, **kwargs):
        self._reducer.finish()  # a reduction the last backward left open (see the module docstring)
        if self.broadcast_buffers:
            self._sync_buffers()
        sync = self.require_backward_grad_sync
        self._reducer.set_sync(sync)
        if self.device_ids is not None:
            inputs, kwargs = _to_device(inputs, self.device_ids[0]), _to_device(kwargs, self.device_ids[0])
        out = self.module(*inputs, **kwargs)
        if sync and self.find_unused_parameters and is_grad_enabled():
            self._reducer.prepare(_find_tensors(out, []))
        return out

    def finish_reduction(self):
        """Completes a reduction that the last backward left open (parameters without a gradient count as zero).
        Collective. Not needed with find_unused_parameters=True or when every parameter gets a gradient."""
        self._reducer.finish()

    @contextlib.contextmanager
    def no_sync(self):
        """Backwards of forwards run inside accumulate gradients locally; the first synchronising backward after
        averages the accumulated gradients (torch's no_sync)."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old

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


class DistributedDataParallel(Module):
    """Data-parallel training of module over process_group (default: the world group). CPU modules only:
    device_ids and output_device must be None. The gradients are copied out of the buckets into each .grad, so
    gradient_as_bucket_view changes nothing but is accepted; static_graph=True is handled like
    find_unused_parameters=True (correct for any graph)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=25, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False):
        super().__init__()
        if not isinstance(module, Module):
            raise TypeError("DistributedDataParallel: module must be a ctensor.nn.Module, got %s"
                            % type(module).__name__)
        if device_ids not in (None, []) or output_device is not None:
            raise ValueError("DistributedDataParallel device_ids and output_device arguments only work with "
                             "single-device/multiple-device GPU modules or CPU modules, but got device_ids %s, "
                             "output_device %s; ctensor runs CPU modules: pass None" % (device_ids, output_device))
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

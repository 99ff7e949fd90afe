"""ctensor.distributed: process groups and collectives with torch.distributed's names, over the C ABI's
ct_process_group (Open MPI for CPU tensors). Run the program under mpirun; init_process_group() takes rank and
world size from the launch:

    mpirun -np 4 python train.py        # in train.py: dist.init_process_group("mpi")

Collectives work in place on tensors of any dtype; a rank that disagrees (shape, dtype, op) or does not arrive
within the group's timeout makes every rank raise RuntimeError instead of hanging (docs/distributed.md)."""
from __future__ import annotations

import datetime
import enum
from typing import List, Optional, Sequence

from . import _C

__all__ = ["ReduceOp", "Work", "ProcessGroup", "is_available", "is_initialized", "init_process_group",
           "destroy_process_group", "new_group", "get_rank", "get_world_size", "get_backend", "all_reduce",
           "broadcast", "all_gather", "all_gather_into_tensor", "reduce_scatter", "reduce_scatter_tensor", "barrier",
           "send", "recv"]

Work = _C.Work
ProcessGroup = _C.ProcessGroup


class ReduceOp(enum.IntEnum):
    """The reductions of all_reduce and reduce_scatter (values of the C ABI's ct_reduce_op)."""

    SUM = 0
    AVG = 1
    MAX = 2
    MIN = 3
    PRODUCT = 4


_world: Optional[ProcessGroup] = None


def is_available() -> bool:
    """Whether this ctensor has distributed support compiled in (the MPI module itself loads at init)."""
    return hasattr(_C, "process_group_new_mpi")


def is_initialized() -> bool:
    return _world is not None


def _seconds(timeout) -> float:
    return timeout.total_seconds() if isinstance(timeout, datetime.timedelta) else float(timeout)


_BACKENDS = ("mpi", "nccl", "cpu:mpi,cuda:nccl")
_backend = "mpi"


def init_process_group(backend: str = "mpi", init_method: Optional[str] = None, timeout=None,
                       world_size: int = -1, rank: int = -1) -> None:
    """Joins the world group of the MPI launch; rank and world_size, if given, must agree with the launch's. Every
    backend name ctensor accepts ("mpi", "nccl", "cpu:mpi,cuda:nccl") makes the same group: CPU tensors move over
    Open MPI and CUDA tensors over NCCL (when the CUDA backend was built with it)."""
    global _world, _backend
    if _world is not None:
        raise RuntimeError("trying to initialize the default process group twice")
    if backend not in _BACKENDS and backend is not None:
        raise ValueError("init_process_group: backend %r is not available; ctensor runs collectives over "
                         "Open MPI for CPU tensors and NCCL for CUDA tensors (%s)" % (backend, ", ".join(map(repr, _BACKENDS))))
    if init_method not in (None, "env://"):
        raise ValueError("init_process_group: the MPI launch provides rank and size; init_method must be None")
    group = _C.process_group_new_mpi()
    if timeout is not None:
        group.set_timeout(_seconds(timeout))
    for name, want, got in (("rank", rank, group.rank()), ("world_size", world_size, group.size())):
        if want != -1 and want != got:
            raise ValueError("init_process_group: %s=%d, but the MPI launch says %d" % (name, want, got))
    _world = group
    _backend = backend or "mpi"


def destroy_process_group(group: Optional[ProcessGroup] = None) -> None:
    """Forgets the default group (or does nothing for another group: it is released with its last reference)."""
    global _world
    if group is None or group is _world:
        _world = None


def _group(group: Optional[ProcessGroup]) -> ProcessGroup:
    if group is not None:
        return group
    if _world is None:
        raise RuntimeError("Default process group has not been initialized, please make sure to call "
                           "init_process_group.")
    return _world


def new_group(ranks: Optional[Sequence[int]] = None, timeout=None, backend: Optional[str] = None) -> ProcessGroup:
    """A group of ranks (all of them when None); every rank of the world must call it. A rank outside it gets a
    group of size 0 (get_rank -1) on which collectives raise."""
    world = _group(None)
    group = world.new_subgroup(list(range(world.size())) if ranks is None else list(ranks))
    if timeout is not None:
        group.set_timeout(_seconds(timeout))
    return group


def get_rank(group: Optional[ProcessGroup] = None) -> int:
    return _group(group).rank()


def get_world_size(group: Optional[ProcessGroup] = None) -> int:
    return _group(group).size()


def get_backend(group: Optional[ProcessGroup] = None) -> str:
    _group(group)
    return _backend


def all_reduce(tensor, op: ReduceOp = ReduceOp.SUM, group: Optional[ProcessGroup] = None, async_op: bool = False):
    """tensor = op over the ranks' tensors, in place. Returns a Work when async_op."""
    return _group(group).all_reduce(tensor, int(op), async_op)


def broadcast(tensor, src: int, group: Optional[ProcessGroup] = None, async_op: bool = False):
    """tensor = rank src's tensor on every rank, in place. Returns a Work when async_op."""
    return _group(group).broadcast(tensor, src, async_op)


def all_gather(tensor_list: List, tensor, group: Optional[ProcessGroup] = None, async_op: bool = False):
    """tensor_list[i] = rank i's tensor (copied into the list's tensors, as torch)."""
    if async_op:
        raise NotImplementedError("all_gather: async_op is not supported yet (all_reduce and broadcast have it)")
    g = _group(group)
    gathered = g.all_gather(tensor)
    if len(tensor_list) != gathered.shape[0]:
        raise ValueError("all_gather: tensor_list has %d tensors for %d ranks" % (len(tensor_list), gathered.shape[0]))
    for i, out in enumerate(tensor_list):
        out.copy_(gathered[i])


def all_gather_into_tensor(output_tensor, input_tensor, group: Optional[ProcessGroup] = None, async_op: bool = False):
    """output_tensor = the ranks' inputs concatenated along dim 0 (torch's all_gather_into_tensor)."""
    if async_op:
        raise NotImplementedError("all_gather_into_tensor: async_op is not supported yet")
    gathered = _group(group).all_gather(input_tensor)
    output_tensor.copy_(gathered.reshape(output_tensor.shape))


def reduce_scatter_tensor(output, input, op: ReduceOp = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
                          async_op: bool = False):
    """output = this rank's part (dim 0 split in world-size parts) of op over the ranks' inputs."""
    if async_op:
        raise NotImplementedError("reduce_scatter_tensor: async_op is not supported yet")
    output.copy_(_group(group).reduce_scatter(input, int(op)))


def reduce_scatter(output, input_list: List, op: ReduceOp = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
                   async_op: bool = False):
    """output = op over the ranks of their input_list[this rank] (torch's list form; parts of equal shape)."""
    from ._shape_ops import cat
    reduce_scatter_tensor(output, cat(list(input_list), 0), op, group, async_op)


def barrier(group: Optional[ProcessGroup] = None, async_op: bool = False, device_ids=None) -> None:
    _group(group).barrier()


def send(tensor, dst: int, group: Optional[ProcessGroup] = None, tag: int = 0) -> None:
    _group(group).send(tensor, dst, tag)


def recv(tensor, src: int, group: Optional[ProcessGroup] = None, tag: int = 0) -> int:
    """Receives into tensor from rank src; returns src (torch returns the sender's rank)."""
    _group(group).recv(tensor, src, tag)
    return src

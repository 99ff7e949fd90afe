"""ctensor.utils.data.distributed.DistributedSampler: each of num_replicas ranks gets its own share of a dataset,
as in torch. num_replicas and rank default to ctensor.distributed's world when it is initialised.

Invariant: every rank sees the same list of total_size indices (the permutation, padded by repeating its start or cut
when drop_last) and takes every num_replicas-th entry from position rank, so the shares are disjoint apart from the
padding and together cover the dataset. With shuffle=False the indices equal torch's; with shuffle=True the
permutation comes from ctensor.Generator(seed + epoch), so it is reproducible and the same on every rank, but it is
not the permutation torch's generator draws."""
import math
from typing import Iterator, Optional, TypeVar

from ... import distributed as dist
from ..._creation import randperm
from ... import _C
from .dataset import Dataset
from .sampler import Sampler

T_co = TypeVar("T_co", covariant=True)

__all__ = ["DistributedSampler"]


def _world_default(what: str) -> int:
    if not dist.is_initialized():
        raise RuntimeError("DistributedSampler: %s was not given and ctensor.distributed is not initialised (call "
                           "ctensor.distributed.init_process_group() first, or pass num_replicas and rank)" % what)
    return dist.get_world_size() if what == "num_replicas" else dist.get_rank()


class DistributedSampler(Sampler[T_co]):
    """Restricts loading to this rank's share of the dataset. Call set_epoch(epoch) before each epoch so that
    shuffle gives a new order each epoch (the same on every rank)."""

    def __init__(self, dataset: Dataset, num_replicas: Optional[int] = None, rank: Optional[int] = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        if num_replicas is None:
            num_replicas = _world_default("num_replicas")
        if rank is None:
            rank = _world_default("rank")
        if num_replicas <= 0:
            raise ValueError("Invalid num_replicas %d, it should be positive" % num_replicas)
        if rank >= num_replicas or rank < 0:
            raise ValueError("Invalid rank %d, rank should be in the interval [0, %d]" % (rank, num_replicas - 1))
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)  # type: ignore[arg-type]
        if drop_last and n % num_replicas != 0:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[T_co]:
        n = len(self.dataset)  # type: ignore[arg-type]
        if self.shuffle:
            indices = randperm(n, generator=_C.Generator(self.seed + self.epoch)).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            padding = self.total_size - len(indices)
            indices += (indices * math.ceil(padding / len(indices)))[:padding] if padding else []
        share = indices[self.rank:self.total_size:self.num_replicas]
        assert len(share) == self.num_samples, "DistributedSampler: share size invariant broken"
        return iter(share)

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Sets the epoch that, added to seed, seeds the next pass's shuffle."""
        self.epoch = epoch

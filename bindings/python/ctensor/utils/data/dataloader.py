"""ctensor.utils.data.DataLoader with torch 1.13's signature and behaviour: batching through a sampler and
collate_fn, shuffling with ctensor's generators, and num_workers > 0 loading in worker processes
(_multiprocess.py). pin_memory is accepted and does nothing: ctensor has no pinned host memory."""
import itertools
import multiprocessing
import os
import warnings
from typing import TYPE_CHECKING, Any, Callable, Iterable, List, Optional, Sequence, TypeVar, Union

from ._collate import default_collate, default_convert
from ._fetch import Fetcher
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, _draw_seed

if TYPE_CHECKING:  # the public types of the stubs (ctensor/__init__.pyi)
    from ... import Generator

T_co = TypeVar("T_co", covariant=True)

__all__ = ["DataLoader"]


def _check_worker_count(num_workers):
    """Warns, as torch does, when there are more workers than CPUs this process may use."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if cpus and num_workers > cpus:
        warnings.warn("This DataLoader will create %d worker processes in total. Our suggested max number of worker "
                      "in current system is %d, which is smaller than what this DataLoader is going to create. "
                      "Please be aware that excessive worker creation might get DataLoader running slow or even "
                      "freeze, lower the worker number to avoid potential slowness/freeze if necessary."
                      % (num_workers, cpus))


def _context(ctx, num_workers):
    """multiprocessing_context as a context object (None stays None: multiprocessing's default), checked as torch."""
    if ctx is None:
        return None
    if num_workers == 0:
        raise ValueError("multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                         "but got num_workers=0")
    if isinstance(ctx, str):
        if ctx not in multiprocessing.get_all_start_methods():
            raise ValueError("multiprocessing_context relies on start method %r, which is not available here "
                             "(available: %s)" % (ctx, multiprocessing.get_all_start_methods()))
        return multiprocessing.get_context(ctx)
    if not isinstance(ctx, multiprocessing.context.BaseContext):
        raise TypeError("multiprocessing_context option should be a valid context object or a string specifying "
                        "the start method, but got multiprocessing_context=%r" % (ctx,))
    return ctx


class _InfiniteConstantSampler(Sampler[None]):
    """The sampler of an iterable dataset: None forever (the dataset decides when the pass ends)."""

    def __iter__(self):
        return itertools.repeat(None)


class _SingleProcessDataLoaderIter:
    """num_workers == 0: batches are fetched in the calling thread."""

    def __init__(self, loader):
        self._loader = loader
        loader._draw_base_seed()  # as torch does, so a generator advances the same way with or without workers
        self._sampler_iter = iter(loader._index_sampler)
        self._fetcher = Fetcher(loader.dataset, loader._auto_collation, loader.collate_fn, loader.drop_last)

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)

    def __next__(self):
        return self._fetcher.fetch(next(self._sampler_iter))


class DataLoader:
    """Iterates over dataset in batches. See torch.utils.data.DataLoader for the arguments; every one of them is
    honoured except pin_memory / pin_memory_device (accepted, no effect). Workers are processes of
    multiprocessing_context (default: multiprocessing's default start method, fork on Linux); each runs ctensor
    with one thread and gets seed base_seed + worker_id, base_seed drawn from `generator` per pass."""

    __initialized = False

    def __init__(self, dataset: Dataset[T_co], batch_size: Optional[int] = 1, shuffle: Optional[bool] = None,
                 sampler: Union[Sampler, Iterable, None] = None,
                 batch_sampler: Union[Sampler[Sequence], Iterable[Sequence], None] = None, num_workers: int = 0,
                 collate_fn: Optional[Callable[[List[T_co]], Any]] = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn: Optional[Callable[[int], None]] = None,
                 multiprocessing_context=None, generator: Optional["Generator"] = None, *,
                 prefetch_factor: int = 2, persistent_workers: bool = False, pin_memory_device: str = "") -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor != 2:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing. let num_workers > 0 "
                             "to enable multiprocessing.")
        if prefetch_factor <= 0:
            raise ValueError("prefetch_factor option should be positive, got %r" % (prefetch_factor,))
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if isinstance(dataset, IterableDataset):
            if shuffle not in (None, False):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 "shuffle=%r" % (shuffle,))
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 "sampler=%r" % (sampler,))
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                                 "batch_sampler=%r" % (batch_sampler,))
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            if isinstance(dataset, IterableDataset):
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)  # type: ignore[arg-type]
            else:
                sampler = SequentialSampler(dataset)  # type: ignore[arg-type]
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = _context(multiprocessing_context, num_workers)
        self.generator = generator
        self.persistent_workers = persistent_workers
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None else default_convert)
        self._iterator = None
        self.__initialized = True

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                                           "persistent_workers"):
            raise ValueError("%s attribute should not be set after %s is initialized"
                             % (attr, type(self).__name__))
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        """What the iterators draw entries from: index lists when batching, single indices otherwise."""
        return self.batch_sampler if self._auto_collation else self.sampler

    def _draw_base_seed(self) -> int:
        return _draw_seed(self.generator)

    def __iter__(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        from ._multiprocess import MultiProcessingDataLoaderIter

        _check_worker_count(self.num_workers)
        if not self.persistent_workers:
            return MultiProcessingDataLoaderIter(self)
        if self._iterator is None or self._iterator._shutdown:  # first pass, or its workers died
            self._iterator = MultiProcessingDataLoaderIter(self)
        else:
            self._iterator._reset(self)
        return self._iterator

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)  # type: ignore[arg-type]
            if self.batch_size is not None:
                n = n // self.batch_size if self.drop_last else -(-n // self.batch_size)
            return n
        return len(self._index_sampler)  # type: ignore[arg-type]

"""Samplers with torch.utils.data's names: Sampler, SequentialSampler, RandomSampler, SubsetRandomSampler,
WeightedRandomSampler and BatchSampler. All randomness comes from ctensor's generators (ctensor.Generator or the
default one that ctensor.manual_seed reseeds), so a seeded generator gives a reproducible order; the order is not
torch's (the generators differ), only its properties are (sizes, coverage, replacement)."""
from typing import TYPE_CHECKING, Generic, Iterable, Iterator, List, Optional, Sequence, Sized, TypeVar, Union

import numpy as np

from ... import _C
from ..._creation import rand, randint, randperm
from ..._types import float64

if TYPE_CHECKING:  # the public types of the stubs (ctensor/__init__.pyi)
    from ... import Generator

T_co = TypeVar("T_co", covariant=True)

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler"]

_SEED_HIGH = 1 << 62  # seeds are drawn uniformly from [0, 2**62)
_CHUNK = 1024  # indices drawn per call when sampling with replacement (bounded memory for any num_samples)


def _draw_seed(generator: Optional["Generator"] = None) -> int:
    """A fresh seed from generator (the default generator when None)."""
    return int(randint(0, _SEED_HIGH, (), generator=generator).item())


def _positive_int(name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError("%s should be a positive integer value, but got %s=%r" % (name, name, value))
    return value


class Sampler(Generic[T_co]):
    """Base class: subclasses implement __iter__ (indices, or lists of them) and usually __len__."""

    def __init__(self, data_source: Optional[Sized] = None) -> None:
        pass

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """A random order of the indices (each once per pass: num_samples > n repeats whole permutations, then part of
    one), or num_samples independent uniform draws when replacement=True. Without a generator each pass draws a
    fresh seed from the default generator."""

    def __init__(self, data_source: Sized, replacement: bool = False, num_samples: Optional[int] = None,
                 generator: Optional["Generator"] = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value, but got replacement=%r" % (replacement,))
        _positive_int("num_samples", self.num_samples)

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = _C.Generator(_draw_seed())
        total = self.num_samples
        if self.replacement:
            for start in range(0, total, _CHUNK):
                yield from randint(0, n, (min(_CHUNK, total - start),), generator=generator).tolist()
            return
        for _ in range(total // n):
            yield from randperm(n, generator=generator).tolist()
        if total % n:
            yield from randperm(n, generator=generator).tolist()[:total % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order, each once."""

    def __init__(self, indices: Sequence[int], generator: Optional["Generator"] = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


def _weighted_draw(weights: np.ndarray, num_samples: int, replacement: bool,
                   generator: Optional["Generator"]) -> List[int]:
    """num_samples indices drawn with probability proportional to weights (torch.multinomial's contract).
    With replacement: inverse CDF of uniform draws. Without: the num_samples smallest keys -log(u) / w
    (Efraimidis-Spirakis), which is successive sampling without replacement."""
    positive = int(np.count_nonzero(weights > 0))
    if positive == 0 or not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise RuntimeError("WeightedRandomSampler: weights must be finite, non-negative and not all zero, got %s"
                           % (weights.tolist() if weights.size <= 10 else "%d weights" % weights.size))
    if not replacement and num_samples > positive:
        raise RuntimeError("WeightedRandomSampler: cannot draw %d samples without replacement from %d categories "
                           "of non-zero weight" % (num_samples, positive))
    u = np.asarray(rand(num_samples if replacement else weights.size, dtype=float64, generator=generator))
    if replacement:
        cdf = np.cumsum(weights)
        picks = np.searchsorted(cdf, u * cdf[-1], side="right")
        return np.minimum(picks, weights.size - 1).tolist()
    with np.errstate(divide="ignore"):
        keys = -np.log1p(-u) / weights  # -log(1 - u) is exponential(1); zero weight gives +inf (never picked)
    return np.argsort(keys, kind="stable")[:num_samples].tolist()


class WeightedRandomSampler(Sampler[int]):
    """num_samples indices from [0, len(weights)) with probabilities proportional to weights (with or without
    replacement)."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Optional["Generator"] = None) -> None:
        _positive_int("num_samples", num_samples)
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got replacement=%r" % (replacement,))
        w = np.asarray(weights.detach() if isinstance(weights, _C.TensorBase) else weights, dtype=np.float64)
        if w.ndim != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape %s" % (w.shape,))
        self.weights = w
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        yield from _weighted_draw(self.weights, self.num_samples, self.replacement, self.generator)

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[List[int]]):
    """Groups the indices of sampler into lists of batch_size (the last one shorter unless drop_last)."""

    def __init__(self, sampler: Union[Sampler[int], Iterable[int]], batch_size: int, drop_last: bool) -> None:
        _positive_int("batch_size", batch_size)
        if not isinstance(drop_last, bool):
            raise ValueError("drop_last should be a boolean value, but got drop_last=%r" % (drop_last,))
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[List[int]]:
        batch: List[int] = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)  # type: ignore[arg-type]
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size

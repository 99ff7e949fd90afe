"""ctensor.utils.data datasets with torch.utils.data's names and behaviour: Dataset, IterableDataset, TensorDataset,
ConcatDataset, ChainDataset, Subset and random_split (lengths or fractions, reproducible with a generator)."""
import bisect
import math
import warnings
from typing import TYPE_CHECKING, Generic, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union

from ..._creation import randperm

if TYPE_CHECKING:  # the public types of the stubs (ctensor/__init__.pyi)
    from ... import Generator, Tensor

T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "ChainDataset", "Subset", "random_split"]


class Dataset(Generic[T_co]):
    """A map-style dataset: subclasses implement __getitem__(index) and usually __len__. `a + b` concatenates."""

    def __getitem__(self, index) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: "Dataset[T_co]") -> "ConcatDataset[T_co]":
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A stream of samples: subclasses implement __iter__. With DataLoader workers each worker iterates its own
    copy; get_worker_info() inside __iter__ tells a copy which share to produce. `a + b` chains."""

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset[T_co]) -> "ChainDataset":  # type: ignore[override]  (as torch)
        return ChainDataset([self, other])


class TensorDataset(Dataset[Tuple["Tensor", ...]]):
    """Sample i is (t[i] for t in tensors); every tensor must have the same size in dimension 0."""

    def __init__(self, *tensors: "Tensor") -> None:
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        sizes = [t.shape[0] if t.ndim > 0 else None for t in tensors]
        if None in sizes or any(s != sizes[0] for s in sizes):
            raise ValueError("Size mismatch between tensors: TensorDataset needs the same size in dimension 0, "
                             "got shapes %s" % [list(t.shape) for t in tensors])
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class ConcatDataset(Dataset[T_co]):
    """The datasets one after another; cumulative_sizes[i] is the total length of datasets[0..i]."""

    @staticmethod
    def cumsum(sequence) -> List[int]:
        out, total = [], 0
        for d in sequence:
            total += len(d)
            out.append(total)
        return out

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TypeError("ConcatDataset does not support IterableDataset (use ChainDataset)")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]


class ChainDataset(IterableDataset):
    """Iterable datasets one after another, chained on the fly."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = datasets

    def _checked(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise TypeError("ChainDataset only supports IterableDataset, got %s" % type(d).__name__)
            yield d

    def __iter__(self):
        for d in self._checked():
            yield from d

    def __len__(self) -> int:
        return sum(len(d) for d in self._checked())  # type: ignore[arg-type]


class Subset(Dataset[T_co]):
    """The samples of dataset at indices (a list index fetches many at once, as in torch)."""

    def __init__(self, dataset: Dataset[T_co], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def _lengths_of_fractions(n: int, fractions: Sequence[float]) -> List[int]:
    """floor(n * f) each, then the remainder handed out one by one round-robin from the first split (as torch)."""
    lengths = []
    for i, f in enumerate(fractions):
        if f < 0 or f > 1:
            raise ValueError("Fraction at index %d is not between 0 and 1" % i)
        lengths.append(int(math.floor(n * f)))
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn("Length of split at index %d is 0. This might result in an empty dataset." % i)
    return lengths


def random_split(dataset: Dataset[T], lengths: Sequence[Union[int, float]],
                 generator: Optional["Generator"] = None) -> List[Subset[T]]:
    """Splits dataset into non-overlapping random Subsets of the given lengths, or of fractions summing to 1.
    The permutation comes from ctensor.randperm with `generator` (the default generator when None)."""
    n = len(dataset)  # type: ignore[arg-type]
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_of_fractions(n, lengths)
    if any(length < 0 for length in lengths) or sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset! (lengths %s, "
                         "dataset length %d)" % (list(lengths), n))
    perm = randperm(n, generator=generator).tolist()
    out, offset = [], 0
    for length in lengths:
        out.append(Subset(dataset, perm[offset:offset + int(length)]))
        offset += int(length)
    return out

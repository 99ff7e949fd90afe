"""How DataLoader turns one entry of its index sampler into a batch, the same in the main process and in workers.
Map-style: dataset[i] for the indices, then collate. Iterable: the next samples of the dataset's iterator (the
entry is a list of placeholders whose length is the batch size), then collate; a short last batch is dropped when
drop_last. Without auto-collation (batch_size=None) the entry is one index / one sample, converted by collate_fn."""
from .dataset import IterableDataset


class Fetcher:
    """fetch(entry) -> collated batch; raises StopIteration when an iterable dataset has nothing left."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.reset()

    def reset(self):
        """Starts a new pass (a fresh iterator of an iterable dataset)."""
        self._iterator = iter(self.dataset) if isinstance(self.dataset, IterableDataset) else None
        self._ended = False

    def fetch(self, entry):
        if self._iterator is None:
            if self.auto_collation:
                return self.collate_fn([self.dataset[i] for i in entry])
            return self.collate_fn(self.dataset[entry])
        if self._ended:
            raise StopIteration
        if not self.auto_collation:
            try:
                sample = next(self._iterator)
            except StopIteration:
                self._ended = True
                raise
            return self.collate_fn(sample)
        samples = []
        for _ in entry:
            try:
                samples.append(next(self._iterator))
            except StopIteration:
                self._ended = True
                break
        if not samples or (self.drop_last and len(samples) < len(entry)):
            raise StopIteration
        return self.collate_fn(samples)

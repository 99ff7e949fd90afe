"""ctensor.utils.data datasets, samplers and collation against torch.utils.data 1.13 on the same data: sequential
orders and DistributedSampler indices (shuffle=False) equal torch's; random samplers have torch's sizes and coverage
and are reproducible with a ctensor.Generator; default_collate / default_convert build the same structures, dtypes
and values as torch's."""
import collections
import math

import numpy as np
import pytest

import ctensor as ct
import ctensor.utils.data as data
from ctensor.utils.data.distributed import DistributedSampler as DistributedSamplerByPath

from conftest import requires_torch
from data_helpers import plain


# ---- datasets ----
def test_tensor_dataset_indexes_every_tensor(rng):
    x, y = rng.standard_normal((5, 3)), np.arange(5)
    ds = data.TensorDataset(ct.tensor(x), ct.tensor(y))
    assert len(ds) == 5
    xi, yi = ds[2]
    np.testing.assert_allclose(xi.numpy(), x[2].astype(np.float32))
    assert yi.item() == 2
    with pytest.raises(ValueError, match="Size mismatch"):
        data.TensorDataset(ct.zeros(3), ct.zeros(4))


class Squares(data.Dataset):
    def __init__(self, n, offset=0):
        self.n, self.offset = n, offset

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return (i + self.offset) ** 2

    def __len__(self):
        return self.n


class Stream(data.IterableDataset):
    def __init__(self, items):
        self.items = list(items)

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)


def test_concat_and_chain_datasets_match_torch():
    requires_torch()
    import torch.utils.data as tdata

    parts = [Squares(3), Squares(4, 10), Squares(2, 100)]
    mine = data.ConcatDataset(parts)
    theirs = tdata.ConcatDataset(parts)
    assert mine.cumulative_sizes == theirs.cumulative_sizes == [3, 7, 9]
    assert [mine[i] for i in range(-9, 9)] == [theirs[i] for i in range(-9, 9)]
    with pytest.raises(ValueError):
        mine[-10]
    assert len(Squares(2) + Squares(3)) == 5
    chained = Stream([1, 2]) + Stream([3])
    assert isinstance(chained, data.ChainDataset) and list(chained) == [1, 2, 3] and len(chained) == 3
    with pytest.raises(TypeError):
        data.ConcatDataset([Stream([1])])
    with pytest.raises(TypeError):
        list(data.ChainDataset([Squares(2)]))


def test_subset_and_list_index():
    sub = data.Subset(Squares(10), [9, 1, 4])
    assert len(sub) == 3 and [sub[i] for i in range(3)] == [81, 1, 16]


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.3, 0.4], [0.5, 0.5], [1.0], [0.33, 0.33, 0.34]])
def test_random_split_sizes_match_torch_and_partition(lengths):
    torch = requires_torch()
    import torch.utils.data as tdata

    n = 10 if isinstance(lengths[0], int) else 31
    mine = data.random_split(range(n), lengths, generator=ct.Generator(7))
    theirs = tdata.random_split(range(n), lengths, generator=torch.Generator().manual_seed(7))
    assert [len(s) for s in mine] == [len(s) for s in theirs]
    seen = sorted(i for s in mine for i in s)
    assert seen == list(range(n))
    again = data.random_split(range(n), lengths, generator=ct.Generator(7))
    assert [list(s) for s in mine] == [list(s) for s in again]


def test_random_split_rejects_wrong_lengths():
    with pytest.raises(ValueError, match="Sum of input lengths"):
        data.random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="between 0 and 1"):
        data.random_split(range(10), [1.5, -0.5])


# ---- samplers ----
def test_sequential_and_batch_samplers_equal_torch():
    requires_torch()
    import torch.utils.data as tdata

    for n, bs, drop in [(10, 3, False), (10, 3, True), (9, 3, True), (1, 4, False), (0, 2, False)]:
        mine = data.BatchSampler(data.SequentialSampler(range(n)), bs, drop)
        theirs = tdata.BatchSampler(tdata.SequentialSampler(range(n)), bs, drop)
        assert list(mine) == list(theirs) and len(mine) == len(theirs)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            data.BatchSampler(range(3), bad, False)
    with pytest.raises(ValueError):
        data.BatchSampler(range(3), 2, "no")


def test_random_sampler_is_a_permutation_and_reproducible():
    s = data.RandomSampler(range(50), generator=ct.Generator(3))
    first = list(s)
    assert sorted(first) == list(range(50)) and len(s) == 50
    assert first != list(range(50))
    assert list(data.RandomSampler(range(50), generator=ct.Generator(3))) == first
    ct.manual_seed(11)
    a = list(data.RandomSampler(range(50)))
    ct.manual_seed(11)
    assert list(data.RandomSampler(range(50))) == a


def test_random_sampler_num_samples_and_replacement_like_torch():
    torch = requires_torch()
    import torch.utils.data as tdata

    for kwargs in [dict(num_samples=23), dict(num_samples=7), dict(replacement=True), dict(replacement=True,
                                                                                             num_samples=3000)]:
        mine = list(data.RandomSampler(range(10), generator=ct.Generator(1), **kwargs))
        theirs = list(tdata.RandomSampler(range(10), generator=torch.Generator().manual_seed(1), **kwargs))
        assert len(mine) == len(theirs)
        assert all(0 <= i < 10 for i in mine)
        if not kwargs.get("replacement"):
            # whole permutations first, then part of one: each index appears floor or ceil(n_samples / n) times
            counts = collections.Counter(mine)
            total = kwargs["num_samples"]
            assert set(counts.values()) <= {total // 10, -(-total // 10)}
            if total >= 10:
                assert sorted(mine[:10]) == list(range(10))
    many = collections.Counter(data.RandomSampler(range(10), replacement=True, num_samples=3000,
                                                  generator=ct.Generator(5)))
    assert set(many) == set(range(10)) and max(many.values()) < 400  # uniform: 300 expected each
    with pytest.raises(ValueError, match="num_samples"):
        data.RandomSampler(range(10), num_samples=0)
    with pytest.raises(TypeError, match="replacement"):
        data.RandomSampler(range(10), replacement=1)


def test_subset_random_sampler():
    idx = [5, 9, 2, 7]
    out = list(data.SubsetRandomSampler(idx, generator=ct.Generator(2)))
    assert sorted(out) == sorted(idx) and len(data.SubsetRandomSampler(idx)) == 4


def test_weighted_random_sampler_frequencies_and_no_replacement():
    w = [0.1, 0.9, 0.0, 2.0]
    draws = list(data.WeightedRandomSampler(w, 30000, generator=ct.Generator(4)))
    counts = np.bincount(draws, minlength=4) / 30000
    np.testing.assert_allclose(counts, np.array(w) / sum(w), atol=0.01)
    assert counts[2] == 0
    once = list(data.WeightedRandomSampler([1, 5, 0.5, 3], 4, replacement=False, generator=ct.Generator(4)))
    assert sorted(once) == [0, 1, 2, 3]
    # without replacement the first pick follows the weights too
    firsts = np.bincount([next(iter(data.WeightedRandomSampler([1.0, 3.0], 1, replacement=False,
                                                               generator=ct.Generator(s)))) for s in range(2000)],
                         minlength=2) / 2000
    np.testing.assert_allclose(firsts, [0.25, 0.75], atol=0.04)
    with pytest.raises(RuntimeError, match="without replacement"):
        list(data.WeightedRandomSampler([1, 0, 1], 3, replacement=False))
    with pytest.raises(RuntimeError, match="non-negative"):
        list(data.WeightedRandomSampler([1, -1], 2))
    with pytest.raises(ValueError, match="1d"):
        data.WeightedRandomSampler([[1, 2]], 2)
    with pytest.raises(ValueError, match="num_samples"):
        data.WeightedRandomSampler([1, 2], 0)


@pytest.mark.parametrize("n", [10, 11, 12, 3, 1])
@pytest.mark.parametrize("replicas", [1, 3, 4])
@pytest.mark.parametrize("drop_last", [False, True])
def test_distributed_sampler_equals_torch_without_shuffle(n, replicas, drop_last):
    requires_torch()
    from torch.utils.data.distributed import DistributedSampler as TorchDS

    shares = []
    for rank in range(replicas):
        mine = data.DistributedSampler(range(n), num_replicas=replicas, rank=rank, shuffle=False, seed=5,
                                       drop_last=drop_last)
        theirs = TorchDS(range(n), num_replicas=replicas, rank=rank, shuffle=False, seed=5, drop_last=drop_last)
        mine.set_epoch(3)
        theirs.set_epoch(3)
        assert list(mine) == list(theirs) and len(mine) == len(theirs) == mine.num_samples
        assert mine.total_size == theirs.total_size
        shares.append(list(mine))
    flat = [i for s in shares for i in s]
    if drop_last:
        assert len(set(flat)) == len(flat) == replicas * (n // replicas)
    else:
        assert set(flat) == set(range(n))


def test_distributed_sampler_shuffle_seed_epoch():
    """Shuffled shares: disjoint, covering, the same permutation on every rank for one seed + epoch, a new one
    after set_epoch. (Not torch's permutation: torch draws it from its own generator.)"""
    def shares(epoch, seed=0):
        out = []
        for rank in range(3):
            s = data.DistributedSampler(range(12), num_replicas=3, rank=rank, seed=seed)
            s.set_epoch(epoch)
            out.append(list(s))
        return out

    e0, e0_again, e1 = shares(0), shares(0), shares(1)
    assert e0 == e0_again and e0 != e1 and e0 != shares(0, seed=5)
    assert sorted(i for s in e0 for i in s) == list(range(12))
    assert [len(s) for s in e1] == [4, 4, 4]
    assert DistributedSamplerByPath is data.DistributedSampler


def test_distributed_sampler_errors_and_world_default():
    with pytest.raises(ValueError, match="Invalid rank"):
        data.DistributedSampler(range(4), num_replicas=2, rank=2)
    with pytest.raises(ValueError, match="Invalid rank"):
        data.DistributedSampler(range(4), num_replicas=2, rank=-1)
    if not ct.distributed.is_initialized():
        with pytest.raises(RuntimeError, match="init_process_group"):
            data.DistributedSampler(range(4))


# ---- collation ----
Point = collections.namedtuple("Point", ["x", "y"])


def _samples(lib, rng):
    """The same samples for ctensor and torch: every kind default_collate handles."""
    a = rng.standard_normal((3, 2, 2)).astype(np.float32)
    return [{"t": lib.tensor(a[i]), "np": a[i].astype(np.float64), "f": float(i) / 2, "i": i, "b": i % 2 == 0,
             "s": "s%d" % i, "tup": (i, float(i)), "nt": Point(i, lib.tensor([i, i + 1])), "l": [i, [i * 2]],
             "npi": np.int64(i), "npf": np.float32(i)} for i in range(3)]


def test_default_collate_matches_torch(rng):
    torch = requires_torch()
    from torch.utils.data import default_collate as torch_collate

    seed = rng.integers(1 << 30)
    mine = data.default_collate(_samples(ct, np.random.default_rng(seed)))
    theirs = torch_collate(_samples(torch, np.random.default_rng(seed)))
    assert plain(mine) == plain(theirs)
    assert mine["f"].dtype == ct.float64 and mine["i"].dtype == ct.int64 and mine["b"].dtype == ct.bool
    assert isinstance(mine["nt"], Point) and isinstance(mine["tup"], list)


def test_default_collate_errors():
    with pytest.raises(RuntimeError, match="equal size"):
        data.default_collate([[1, 2], [1]])
    with pytest.raises(RuntimeError, match="equal size"):
        data.default_collate([ct.zeros(2), ct.zeros(3)])
    with pytest.raises(TypeError, match="found"):
        data.default_collate([object(), object()])
    with pytest.raises(TypeError, match="found"):
        data.default_collate([np.array(["a"]), np.array(["b"])])


def test_default_convert_matches_torch(rng):
    requires_torch()
    from torch.utils.data._utils.collate import default_convert as torch_convert

    a = rng.standard_normal((2, 3))
    sample = {"a": a, "b": (np.int32(3), "x"), "c": [np.float64(1.5), 2], "nt": Point(a[0], 1),
              "s": np.array(["z"])}
    mine, theirs = data.default_convert(sample), torch_convert(sample)
    assert plain(mine) == plain({k: v for k, v in theirs.items()})
    assert isinstance(mine["s"], np.ndarray)
    t = ct.ones(2)
    assert data.default_convert(t) is t
    assert math.isclose(data.default_convert(1.5), 1.5)

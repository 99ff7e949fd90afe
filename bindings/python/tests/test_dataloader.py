"""ctensor.utils.data.DataLoader against torch.utils.data.DataLoader 1.13 on the same data: the same batches in
order (sequential, batch_size/drop_last, batch_size=None, iterable datasets with and without workers), the same
batches with 0 and 2 worker processes, worker errors re-raised with the worker's traceback, timeouts, dead workers,
worker seeds / get_worker_info / worker_init_fn, persistent workers, and argument validation."""
import os
import pickle

import numpy as np
import pytest

import ctensor as ct
import ctensor.utils.data as data
from data_helpers import (ArrayDataset, DyingDataset, FailingDataset, NumpyDataset, OddTensors, RangeStream,
                          SlowDataset, WorkerIdentity, failing_init, mark_worker, plain, unpicklable_collate)

from conftest import requires_torch


def batches(loader):
    return [plain(b) for b in loader]


@pytest.mark.parametrize("batch_size,drop_last", [(4, False), (4, True), (1, False), (10, False), (None, False)])
def test_sequential_batches_equal_torch(batch_size, drop_last):
    requires_torch()
    import torch.utils.data as tdata

    mine = data.DataLoader(ArrayDataset(10), batch_size=batch_size, drop_last=drop_last)
    theirs = tdata.DataLoader(NumpyDataset(10), batch_size=batch_size, drop_last=drop_last)
    assert batches(mine) == batches(theirs)
    assert len(mine) == len(theirs)


def test_two_workers_give_the_same_batches_as_none():
    for kwargs in [dict(batch_size=3), dict(batch_size=4, drop_last=True), dict(batch_size=None),
                   dict(batch_size=5, shuffle=True)]:
        single = data.DataLoader(ArrayDataset(17), generator=ct.Generator(9), **kwargs)
        multi = data.DataLoader(ArrayDataset(17), generator=ct.Generator(9), num_workers=2, **kwargs)
        expected = batches(single)
        assert batches(multi) == expected, kwargs
        assert len(multi) == len(expected)


def test_tensors_of_every_dtype_cross_processes():
    t = [ct.tensor(np.arange(6).reshape(2, 3), dtype=dt) for dt in (ct.float32, ct.float64, ct.int32, ct.int64,
                                                                    ct.uint8, ct.bool)]
    ds = data.TensorDataset(*t)
    single = batches(data.DataLoader(ds, batch_size=2))
    assert batches(data.DataLoader(ds, batch_size=2, num_workers=2)) == single
    assert [b[1] for b in single[0]] == ["float32", "float64", "int32", "int64", "uint8", "bool"]


def test_views_scalars_empty_and_autograd_flags_cross_processes():
    local = list(data.DataLoader(OddTensors(), batch_size=None))
    remote = list(data.DataLoader(OddTensors(), batch_size=None, num_workers=2))
    assert [plain(s) for s in remote] == [plain(s) for s in local]
    for s in remote:
        assert s["view"].shape == (3, 2) and s["scalar"].shape == () and s["empty"].shape == (0, 3)
        assert s["mask"].dtype == ct.bool and s["leaf"].requires_grad and s["leaf"].is_leaf
        assert isinstance(s["param"], ct.nn.Parameter) and s["param"].requires_grad
        s["view"][0, 0] = 100.0  # a tensor of the main process, writable
        assert s["view"][0, 0].item() == 100.0


def test_shuffle_is_reproducible_with_a_generator_and_covers_the_data():
    def order(gen):
        return [i for b in data.DataLoader(range(20), batch_size=6, shuffle=True, generator=gen) for i in b.tolist()]

    a, b = order(ct.Generator(1)), order(ct.Generator(1))
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
    g = ct.Generator(1)
    assert order(g) != order(g)  # the generator advances between passes


def test_worker_error_carries_the_worker_traceback():
    loader = data.DataLoader(FailingDataset(10, bad=5), batch_size=2, num_workers=2)
    with pytest.raises(ValueError) as info:
        list(loader)
    msg = str(info.value)
    assert "Caught ValueError in DataLoader worker process 0" in msg  # batch [4, 5] is task 2, worker 0
    assert "Original Traceback (most recent call last)" in msg
    assert "raise_from_dataset" in msg and "sample 5 is broken" in msg


def test_key_error_and_single_process_error():
    with pytest.raises(KeyError) as info:
        list(data.DataLoader(FailingDataset(4, bad=1, exc=KeyError), num_workers=2))
    assert "Caught KeyError in DataLoader worker process 1" in str(info.value)
    with pytest.raises(ValueError, match="sample 1 is broken"):
        list(data.DataLoader(FailingDataset(4, bad=1)))


def test_iteration_goes_on_after_a_worker_error():
    it = iter(data.DataLoader(FailingDataset(6, bad=2), batch_size=2, num_workers=2))
    assert next(it).tolist() == [0, 1]
    with pytest.raises(ValueError):
        next(it)
    assert next(it).tolist() == [4, 5]
    with pytest.raises(StopIteration):
        next(it)


def test_worker_init_fn_error_is_raised():
    with pytest.raises(RuntimeError, match="init of worker 0 failed"):
        list(data.DataLoader(range(4), num_workers=2, worker_init_fn=failing_init))


def test_unpicklable_batch_is_an_error_not_a_hang():
    with pytest.raises(Exception, match="pickling the batch"):
        list(data.DataLoader(range(4), num_workers=1, collate_fn=unpicklable_collate))


def test_timeout():
    loader = data.DataLoader(SlowDataset(4, slow_index=2, seconds=5), num_workers=1, timeout=0.5)
    with pytest.raises(RuntimeError, match="timed out after 0.5 seconds"):
        list(loader)


def test_dead_worker_is_reported():
    it = iter(data.DataLoader(DyingDataset(), num_workers=2))
    with pytest.raises(RuntimeError, match="exited unexpectedly"):
        list(it)
    with pytest.raises(StopIteration):  # the iterator has shut its workers down
        next(it)


def test_worker_info_seeds_and_init_fn():
    rows = [b for b in data.DataLoader(WorkerIdentity(), batch_size=None, num_workers=2, worker_init_fn=mark_worker,
                                       generator=ct.Generator(3))]
    assert [r[0] for r in rows] == list(range(12))
    by_worker = {}
    for i, wid, seed, pid, _, mark in rows:
        assert wid == i % 2 and mark == "init%d" % wid and pid != os.getpid()
        by_worker.setdefault(wid, set()).add((seed, pid))
    (seed0, _), = by_worker[0]
    (seed1, _), = by_worker[1]
    assert seed1 == seed0 + 1  # base_seed + worker_id, as torch
    again = [b for b in data.DataLoader(WorkerIdentity(), batch_size=None, num_workers=2, generator=ct.Generator(3))]
    assert [r[4] for r in again] == [r[4] for r in rows]  # the workers' default generators are seeded from it
    assert data.get_worker_info() is None


def test_worker_info_is_read_only():
    info = data.WorkerInfo(id=0, num_workers=1, seed=1, dataset=None)
    with pytest.raises(RuntimeError, match="Cannot assign"):
        info.id = 3
    assert "id=0" in repr(info)


@pytest.mark.parametrize("workers", [0, 1, 2, 3])
@pytest.mark.parametrize("batch_size,drop_last", [(None, False), (1, False), (3, False), (3, True)])
def test_iterable_dataset_batches_equal_torch(workers, batch_size, drop_last):
    requires_torch()
    import torch.utils.data as tdata

    class TorchRange(tdata.IterableDataset):
        def __init__(self, start, end):
            self.start, self.end = start, end

        def __iter__(self):
            info = tdata.get_worker_info()
            if info is None:
                return iter(range(self.start, self.end))
            per = int(np.ceil((self.end - self.start) / info.num_workers))
            lo = self.start + info.id * per
            return iter(range(lo, min(lo + per, self.end)))

    mine = data.DataLoader(RangeStream(3, 14), num_workers=workers, batch_size=batch_size, drop_last=drop_last)
    theirs = tdata.DataLoader(TorchRange(3, 14), num_workers=workers, batch_size=batch_size, drop_last=drop_last,
                              multiprocessing_context="fork" if workers else None)
    assert batches(mine) == batches(theirs)


def test_iterable_dataset_without_split_repeats_per_worker_and_len():
    out = sorted(int(b) for b in data.DataLoader(RangeStream(0, 5, split=False), batch_size=None, num_workers=2))
    assert out == sorted(list(range(5)) * 2)
    assert len(data.DataLoader(RangeStream(0, 5), batch_size=2)) == 3
    assert len(data.DataLoader(RangeStream(0, 5), batch_size=2, drop_last=True)) == 2


def test_persistent_workers_keep_their_processes_across_epochs():
    loader = data.DataLoader(WorkerIdentity(), batch_size=4, num_workers=2, persistent_workers=True)
    first = [b for b in loader]
    second = [b for b in loader]
    assert [b[0].tolist() for b in first] == [b[0].tolist() for b in second] == [[0, 1, 2, 3], [4, 5, 6, 7],
                                                                                  [8, 9, 10, 11]]
    assert {p for b in first for p in b[3].tolist()} == {p for b in second for p in b[3].tolist()}
    it = iter(loader)
    next(it)  # abandon the pass early: the next pass must not see its leftovers
    assert [b[0].tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    stream = data.DataLoader(RangeStream(0, 6), batch_size=2, num_workers=2, persistent_workers=True)
    assert batches(stream) == batches(stream) == batches(data.DataLoader(RangeStream(0, 6), batch_size=2,
                                                                         num_workers=2))
    loader._iterator._shutdown_workers()
    stream._iterator._shutdown_workers()
    assert [b[0].tolist() for b in loader][0] == [0, 1, 2, 3]  # workers that are gone are started again
    loader._iterator._shutdown_workers()


def test_spawn_context_and_prefetch_factor():
    loader = data.DataLoader(ArrayDataset(9), batch_size=4, num_workers=2, multiprocessing_context="spawn",
                             prefetch_factor=1)
    assert batches(loader) == batches(data.DataLoader(ArrayDataset(9), batch_size=4))


def test_custom_sampler_batch_sampler_and_collate_fn():
    loader = data.DataLoader(range(10), sampler=[9, 0, 5], batch_size=2)
    assert [b.tolist() for b in loader] == [[9, 0], [5]]
    loader = data.DataLoader(range(10), batch_sampler=[[1, 2], [7]], num_workers=2)
    assert [b.tolist() for b in loader] == [[1, 2], [7]] and len(loader) == 2
    loader = data.DataLoader(range(5), batch_size=2, collate_fn=lambda b: sum(b))
    assert list(loader) == [1, 5, 4]
    assert list(data.DataLoader(range(3), batch_size=2, pin_memory=True))[0].tolist() == [0, 1]


def test_argument_errors_like_torch():
    with pytest.raises(ValueError, match="num_workers"):
        data.DataLoader(range(3), num_workers=-1)
    with pytest.raises(ValueError, match="timeout"):
        data.DataLoader(range(3), timeout=-1)
    with pytest.raises(ValueError, match="prefetch_factor"):
        data.DataLoader(range(3), prefetch_factor=4)
    with pytest.raises(ValueError, match="persistent_workers"):
        data.DataLoader(range(3), persistent_workers=True)
    with pytest.raises(ValueError, match="mutually exclusive with shuffle"):
        data.DataLoader(range(3), sampler=[0], shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        data.DataLoader(range(3), batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="drop_last"):
        data.DataLoader(range(3), batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="shuffle"):
        data.DataLoader(RangeStream(0, 3), shuffle=True)
    with pytest.raises(ValueError, match="sampler"):
        data.DataLoader(RangeStream(0, 3), sampler=[0])
    with pytest.raises(ValueError, match="start method"):
        data.DataLoader(range(3), num_workers=1, multiprocessing_context="no-such-method")
    with pytest.raises(TypeError, match="context object"):
        data.DataLoader(range(3), num_workers=1, multiprocessing_context=3)
    with pytest.raises(ValueError, match="num_workers > 0"):
        data.DataLoader(range(3), multiprocessing_context="spawn")
    loader = data.DataLoader(range(3))
    with pytest.raises(ValueError, match="batch_size attribute should not be set"):
        loader.batch_size = 5


def test_more_workers_than_cpus_warns_like_torch():
    from ctensor.utils.data.dataloader import _check_worker_count

    with pytest.warns(UserWarning, match="worker processes in total"):
        _check_worker_count(len(os.sched_getaffinity(0)) + 1)


def test_tensor_pickle_round_trip_is_what_workers_use():
    t = ct.tensor([[1.5, 2.0]], dtype=ct.float64)
    back = pickle.loads(pickle.dumps(t))
    assert back.dtype == ct.float64 and back.tolist() == [[1.5, 2.0]]

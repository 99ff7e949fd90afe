"""Datasets and functions for test_dataloader.py that worker processes must import (also under the spawn start
method, so this module imports ctensor and NumPy only, never torch)."""
import os
import time

import numpy as np

import ctensor as ct
import ctensor.utils.data as data


class ArrayDataset(data.Dataset):
    """Sample i: (x[i] as a float32 tensor, y[i] as a Python int, {"idx": i, "f64": a float64 tensor})."""

    def __init__(self, n, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, 3)).astype(np.float32)
        self.y = rng.integers(0, 10, n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return ct.tensor(self.x[i]), int(self.y[i]), {"idx": i, "f64": ct.tensor([float(i)] * 2, dtype=ct.float64)}


class NumpyDataset(ArrayDataset):
    """The same samples with NumPy arrays instead of tensors (what a torch dataset would return)."""

    def __getitem__(self, i):
        return self.x[i], int(self.y[i]), {"idx": i, "f64": np.array([float(i)] * 2)}


class FailingDataset(data.Dataset):
    """Raises the given exception type at index `bad`."""

    def __init__(self, n, bad, exc=ValueError):
        self.n, self.bad, self.exc = n, bad, exc

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad:
            raise_from_dataset(self.exc, i)
        return i


def raise_from_dataset(exc, i):
    raise exc("sample %d is broken" % i)


class SlowDataset(data.Dataset):
    def __init__(self, n, slow_index, seconds):
        self.n, self.slow_index, self.seconds = n, slow_index, seconds

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.slow_index:
            time.sleep(self.seconds)
        return i


class DyingDataset(data.Dataset):
    """The worker process exits abruptly at index `bad`."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            os._exit(3)
        return i


class WorkerIdentity(data.Dataset):
    """Sample i: (i, worker id, worker seed, pid, a value drawn from ctensor's default generator, the mark that
    worker_init_fn left)."""

    def __len__(self):
        return 12

    def __getitem__(self, i):
        info = data.get_worker_info()
        if info is None:
            return i, -1, -1, os.getpid(), 0.0, "none"
        return i, info.id, info.seed, os.getpid(), float(ct.rand(1).item()), getattr(info.dataset, "mark", "none")


def mark_worker(worker_id):
    data.get_worker_info().dataset.mark = "init%d" % worker_id


def failing_init(worker_id):
    raise RuntimeError("init of worker %d failed" % worker_id)


class RangeStream(data.IterableDataset):
    """start..end-1; with split=True each worker yields its contiguous share (torch's documented example)."""

    def __init__(self, start, end, split=True):
        self.start, self.end, self.split = start, end, split

    def __len__(self):
        return self.end - self.start

    def __iter__(self):
        info = data.get_worker_info()
        if info is None or not self.split:
            return iter(range(self.start, self.end))
        per = int(np.ceil((self.end - self.start) / info.num_workers))
        lo = self.start + info.id * per
        return iter(range(lo, min(lo + per, self.end)))


class OddTensors(data.Dataset):
    """Tensors the worker-to-main transport must rebuild exactly: a transposed view, 0-d, empty, bool, a leaf that
    requires grad, a Parameter, and the same view twice."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        base = ct.arange(6, dtype=ct.float64).reshape(2, 3) + i
        view = base.T
        return {"view": view, "scalar": ct.tensor(float(i)), "empty": ct.zeros(0, 3), "mask": base > 2,
                "leaf": ct.ones(2, requires_grad=True), "param": ct.nn.Parameter(ct.ones(1)), "twice": [view, view],
                "text": "s%d" % i}


def unpicklable_collate(batch):
    return lambda: batch


def plain(obj):
    """A comparable form of a (nested) batch: tensors of ctensor or torch become ("T", dtype name, list)."""
    if hasattr(obj, "detach") and hasattr(obj, "dtype"):
        arr = obj.detach().numpy()
        return ("T", str(obj.dtype).split(".")[-1].replace("bool_", "bool"), arr.tolist())
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return (type(obj).__name__,) + tuple(plain(v) for v in obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(plain(v) for v in obj)
    return obj

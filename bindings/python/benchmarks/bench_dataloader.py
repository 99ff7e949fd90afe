#!/usr/bin/env python3
"""bench_dataloader.py - ctensor.utils.data.DataLoader next to torch.utils.data.DataLoader (when torch is installed):
seconds per pass (best of 3) with 0 and 2 workers, for many small samples collated per batch (a TensorDataset of
20000 x 784 floats, batch 128) and for few large batches (32 x 3 x 224 x 224 floats, 19 MB each, which measures how
batches cross from the workers). Both libraries run one intra-op thread; workers are forked.

    python bindings/python/benchmarks/bench_dataloader.py
"""
import time

import numpy as np

import ctensor as ct
import ctensor.utils.data as ct_data

try:
    import torch
    import torch.utils.data as torch_data
except ImportError:  # pragma: no cover
    torch = None


class LargeSamples:
    """256 samples of 3 x 224 x 224 floats made on the fly by lib (ctensor or torch)."""

    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 256

    def __getitem__(self, i):
        return self.lib.full((3, 224, 224), float(i))


def seconds_per_pass(loader, repeat=3):
    sum(1 for _ in loader)  # warm up (and start the workers once)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        sum(1 for _ in loader)
        best = min(best, time.perf_counter() - start)
    return best


def cases(lib, data):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((20000, 784)).astype(np.float32), np.arange(20000)
    small = data.TensorDataset(lib.tensor(x), lib.tensor(y))
    for workers in (0, 2):
        fork = {"multiprocessing_context": "fork"} if workers else {}
        yield ("small samples, batch 128, %d workers" % workers,
               data.DataLoader(small, batch_size=128, num_workers=workers, **fork))
        yield ("19 MB batches, %d workers" % workers,
               data.DataLoader(LargeSamples(lib), batch_size=32, num_workers=workers, **fork))


def main():
    ct.set_num_threads(1)
    mine = [(name, seconds_per_pass(loader)) for name, loader in cases(ct, ct_data)]
    theirs = None
    if torch is not None:
        torch.set_num_threads(1)
        theirs = [seconds_per_pass(loader) for _, loader in cases(torch, torch_data)]
    print("%-40s %10s %10s %8s" % ("case", "ctensor s", "torch s", "ratio"))
    for i, (name, t) in enumerate(mine):
        if theirs is None:
            print("%-40s %10.3f" % (name, t))
        else:
            print("%-40s %10.3f %10.3f %8.2f" % (name, t, theirs[i], t / theirs[i]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""bench_ddp.py - one epoch of the Fashion-MNIST MLP (784-256-128-10, Adam, global batch 128) trained by one
process and by 2 processes with DistributedDataParallel (each rank takes its half of every global batch, so both
runs make the same 469 steps over the same batches), printing epoch seconds, samples/s, the ratio 2 ranks / 1
rank and the final test accuracy of each. A report, not a test: always exits 0.

    python bench/bench_ddp.py [--data /usr/share/datasets/fashion-mnist] [--ranks 2] [--threads N]

It runs itself under `mpirun -np 1` and `mpirun -np R` (--worker). --threads sets ctensor's threads per rank
(default: cores / ranks, so every run uses the whole machine).
"""
import argparse
import gzip
import os
import re
import shutil
import struct
import subprocess
import sys
import time

import numpy as np


def read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    zero, code, ndim = struct.unpack(">HBB", data[:4])
    if zero != 0 or code != 0x08:
        raise ValueError("%s: not an unsigned-byte IDX file" % path)
    shape = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load_split(root, prefix):
    images = read_idx(os.path.join(root, "%s-images-idx3-ubyte.gz" % prefix)).reshape(-1, 784)
    labels = read_idx(os.path.join(root, "%s-labels-idx1-ubyte.gz" % prefix))
    return images.astype(np.float32) / 255.0, labels.astype(np.int64)


def worker(args):
    import ctensor as ct
    import ctensor.distributed as dist
    import ctensor.nn as nn
    from ctensor.nn.parallel import DistributedDataParallel

    dist.init_process_group("mpi")
    rank, size = dist.get_rank(), dist.get_world_size()
    ct.set_num_threads(args.threads)
    train_x, train_y = load_split(args.data, "train")
    test_x, test_y = load_split(args.data, "t10k")
    mean, std = train_x.mean(), train_x.std()
    train_x, test_x = ct.tensor((train_x - mean) / std), ct.tensor((test_x - mean) / std)
    train_y, test_y = ct.tensor(train_y), ct.tensor(test_y)
    ct.manual_seed(0)  # the same model and batch order on every rank
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    net = DistributedDataParallel(model, bucket_cap_mb=args.bucket_cap_mb) if size > 1 and not args.no_ddp else model
    opt = ct.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    n, gb = train_x.shape[0], args.batch_size
    local = gb // size
    order = ct.randperm(n)
    dist.barrier()
    start = time.perf_counter()
    for i in range(0, n, gb):
        idx = order[i:i + gb][rank * local:(rank + 1) * local]  # this rank's part of the global batch
        if idx.shape[0] == 0:
            idx = order[i:i + 1]  # a last batch smaller than the ranks: every rank must still step
        opt.zero_grad()
        loss_fn(net(train_x[idx]), train_y[idx]).backward()
        opt.step()
    dist.barrier()
    seconds = time.perf_counter() - start
    with ct.no_grad():
        correct = sum((model(test_x[i:i + 2000]).argmax(1) == test_y[i:i + 2000]).sum().item()
                      for i in range(0, test_x.shape[0], 2000))
    if rank == 0:
        print("RESULT ranks=%d threads=%d seconds=%.3f samples_per_s=%.0f test_acc=%.4f"
              % (size, ct.get_num_threads(), seconds, n / seconds, correct / test_x.shape[0]))
    sys.stdout.flush()


def run(ranks, threads, args):
    cmd = [shutil.which("mpirun"), "--allow-run-as-root", "--oversubscribe", "-np", str(ranks), sys.executable,
           os.path.abspath(__file__), "--worker", "--data", args.data, "--threads", str(threads),
           "--batch-size", str(args.batch_size), "--bucket-cap-mb", str(args.bucket_cap_mb)] + \
        (["--no-ddp"] if args.no_ddp else [])
    res = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"RESULT ranks=(\d+) threads=(\d+) seconds=([\d.]+) samples_per_s=(\d+) test_acc=([\d.]+)",
                  res.stdout)
    if not m:
        print("ranks=%d failed:\n%s" % (ranks, (res.stdout + res.stderr)[-3000:]))
        return None
    return dict(ranks=int(m.group(1)), threads=int(m.group(2)), seconds=float(m.group(3)),
                samples=float(m.group(4)), acc=float(m.group(5)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0, help="ctensor threads per rank (0: cores / ranks)")
    parser.add_argument("--batch-size", type=int, default=128, help="the global batch")
    parser.add_argument("--bucket-cap-mb", type=float, default=25.0)
    parser.add_argument("--no-ddp", action="store_true",
                        help="ranks train alone without communicating (the cost of the ranks alone, for comparison)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if not shutil.which("mpirun") or not os.path.isdir(args.data):
        print("bench_ddp: needs mpirun and the Fashion-MNIST IDX files in %s; skipped" % args.data)
        return
    cores = os.cpu_count() or 1
    results = []
    for ranks in (1, args.ranks):
        threads = args.threads or max(1, cores // ranks)
        r = run(ranks, threads, args)
        if r:
            results.append(r)
            print("%d rank(s) x %d thread(s): epoch %.2f s, %.0f samples/s, test accuracy %.2f%%"
                  % (r["ranks"], r["threads"], r["seconds"], r["samples"], 100 * r["acc"]))
    if len(results) == 2:
        print("ratio %d ranks / 1 rank: %.2fx samples/s (%d cores on this machine)"
              % (args.ranks, results[1]["samples"] / results[0]["samples"], cores))


if __name__ == "__main__":
    main()

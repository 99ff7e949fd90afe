#!/usr/bin/env python3
"""fashion_mnist_mlp.py - trains a 784-256-128-10 MLP on Fashion-MNIST with ctensor (Adam, cross entropy) and
prints per-epoch loss, train/test accuracy and seconds. Reaches about 87% test accuracy in 3 epochs.
--autocast bf16 (or fp16) runs the forward pass in a ctensor.autocast region (the linear layers in the half
dtype, the loss in float32) with float32 weights and gradients; fp16 adds a GradScaler as torch recommends.

    python examples/python/fashion_mnist_mlp.py [--epochs 3] [--data /usr/share/datasets/fashion-mnist]
                                                [--autocast bf16]
"""
import argparse
import gzip
import os
import struct
import time

import numpy as np

import ctensor as ct
import ctensor.nn as nn
from ctensor.utils.data import BatchSampler, DataLoader, RandomSampler, SequentialSampler, TensorDataset


def read_idx(path):
    """An IDX file (optionally gzipped) as a NumPy array."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    zero, dtype_code, ndim = struct.unpack(">HBB", data[:4])
    if zero != 0 or dtype_code != 0x08:
        raise ValueError("%s: not an unsigned-byte IDX file" % path)
    shape = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load_split(root, prefix):
    images = read_idx(os.path.join(root, "%s-images-idx3-ubyte.gz" % prefix)).reshape(-1, 784)
    labels = read_idx(os.path.join(root, "%s-labels-idx1-ubyte.gz" % prefix))
    return images.astype(np.float32) / 255.0, labels.astype(np.int64)


def loader(x, y, batch_size, shuffle=False):
    """A DataLoader of (images, labels) batches. Its sampler yields whole index lists, so TensorDataset gathers a
    batch with one indexing op instead of collating batch_size single samples (batch_size=None: no collation)."""
    dataset = TensorDataset(x, y)
    order = RandomSampler(dataset) if shuffle else SequentialSampler(dataset)
    return DataLoader(dataset, sampler=BatchSampler(order, batch_size, drop_last=False), batch_size=None)


def evaluate(model, x, y, amp_dtype=None, batch=2000):
    model.eval()
    correct = 0
    with ct.no_grad(), ct.autocast("cpu", dtype=amp_dtype or ct.bfloat16, enabled=amp_dtype is not None):
        for xb, yb in loader(x, y, batch):
            correct += (model(xb).argmax(1) == yb).sum().item()
    model.train()
    return correct / x.shape[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=float, default=0.84, help="fail below this final test accuracy")
    parser.add_argument("--autocast", choices=["off", "bf16", "fp16"], default="off",
                        help="mixed precision: the forward pass under ctensor.autocast with this dtype")
    args = parser.parse_args()
    amp_dtype = {"off": None, "bf16": ct.bfloat16, "fp16": ct.float16}[args.autocast]
    scaler = ct.amp.GradScaler(enabled=amp_dtype is ct.float16)

    ct.manual_seed(args.seed)
    train_x, train_y = load_split(args.data, "train")
    test_x, test_y = load_split(args.data, "t10k")
    mean, std = train_x.mean(), train_x.std()
    train_x, test_x = ct.tensor((train_x - mean) / std), ct.tensor((test_x - mean) / std)
    train_y, test_y = ct.tensor(train_y), ct.tensor(test_y)

    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    optimizer = ct.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    n = train_x.shape[0]
    print("ctensor %s, %d threads; %d train / %d test images; autocast %s" % (
        ct.__version__, ct.get_num_threads(), n, test_x.shape[0], args.autocast))
    train_batches = loader(train_x, train_y, args.batch_size, shuffle=True)
    for epoch in range(1, args.epochs + 1):
        start = time.perf_counter()
        total_loss, batches = 0.0, 0
        for xb, yb in train_batches:
            optimizer.zero_grad()
            with ct.autocast("cpu", dtype=amp_dtype or ct.bfloat16, enabled=amp_dtype is not None):
                loss = loss_fn(model(xb), yb)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            total_loss += loss.item()
            batches += 1
        seconds = time.perf_counter() - start
        train_acc = evaluate(model, train_x, train_y, amp_dtype)
        test_acc = evaluate(model, test_x, test_y, amp_dtype)
        print("epoch %d  loss %.4f  train acc %.2f%%  test acc %.2f%%  %.1f s"
              % (epoch, total_loss / batches, 100 * train_acc, 100 * test_acc, seconds))
    if test_acc < args.target:
        raise SystemExit("test accuracy %.2f%% is below the target %.2f%%" % (100 * test_acc, 100 * args.target))
    print("test accuracy %.2f%% >= target %.2f%%" % (100 * test_acc, 100 * args.target))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""fashion_mnist_cnn.py - trains a small CNN on Fashion-MNIST with ctensor (conv-relu-pool x2, two linear layers,
Adam, cross entropy) and prints per-epoch loss, train/test accuracy and seconds.

    python examples/python/fashion_mnist_cnn.py [--epochs 1] [--limit N] [--data /usr/share/datasets/fashion-mnist]
"""
import argparse
import os
import sys
import time

import ctensor as ct
import ctensor.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fashion_mnist_mlp import evaluate, load_split, loader  # noqa: E402  (shared with the MLP example)


def make_model():
    """[N, 1, 28, 28] images -> [N, 10] logits."""
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),    # -> [N, 16, 14, 14]
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),   # -> [N, 32, 7, 7]
        nn.Flatten(),
        nn.Linear(32 * 7 * 7, 128), nn.ReLU(),
        nn.Linear(128, 10))


def train_epoch(model, optimizer, loss_fn, batches_of_data):
    """One pass over the (images, labels) batches; returns the mean training loss."""
    total_loss, batches = 0.0, 0
    for xb, yb in batches_of_data:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        batches += 1
    return total_loss / batches


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="train on the first N images only")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    ct.manual_seed(args.seed)
    train_x, train_y = load_split(args.data, "train")
    test_x, test_y = load_split(args.data, "t10k")
    if args.limit is not None:
        train_x, train_y = train_x[:args.limit], train_y[:args.limit]
    mean, std = train_x.mean(), train_x.std()
    train_x = ct.tensor(((train_x - mean) / std).reshape(-1, 1, 28, 28))
    test_x = ct.tensor(((test_x - mean) / std).reshape(-1, 1, 28, 28))
    train_y, test_y = ct.tensor(train_y), ct.tensor(test_y)

    model = make_model()
    optimizer = ct.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    print("ctensor %s, %d threads; %d train / %d test images; %d parameters"
          % (ct.__version__, ct.get_num_threads(), train_x.shape[0], test_x.shape[0],
             sum(p.numel() for p in model.parameters())))
    train_batches = loader(train_x, train_y, args.batch_size, shuffle=True)
    for epoch in range(1, args.epochs + 1):
        start = time.perf_counter()
        loss = train_epoch(model, optimizer, loss_fn, train_batches)
        seconds = time.perf_counter() - start
        train_acc = evaluate(model, train_x, train_y, batch=1000)
        test_acc = evaluate(model, test_x, test_y, batch=1000)
        print("epoch %d  loss %.4f  train acc %.2f%%  test acc %.2f%%  %.1f s"
              % (epoch, loss, 100 * train_acc, 100 * test_acc, seconds), flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""tiny_transformer.py - a character-level transformer language model trained with ctensor on a licence text
(embedding + learnt positions, a causal TransformerEncoder of pre-norm layers, a linear head; Adam, cross entropy),
printing the loss as it falls and a sample at the end.

    python examples/python/tiny_transformer.py [--steps 300] [--text /usr/share/common-licenses/GPL-3]
"""
import argparse
import time

import numpy as np

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F


class CharTransformer(nn.Module):
    """[N, T] character ids -> [N, T, vocab] next-character logits (causal: position t sees 0..t)."""

    def __init__(self, vocab, context, d_model=64, nhead=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(context, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=4 * d_model, dropout=0.1,
                                           activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(d_model))
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        t = ids.shape[1]
        h = self.embed(ids) + self.pos(ct.arange(t))
        return self.head(self.encoder(h, is_causal=True))


def batches(data, context, batch, rng):
    """Random windows: inputs [batch, context] and the next characters as targets."""
    while True:
        starts = rng.integers(0, len(data) - context - 1, batch)
        x = np.stack([data[s:s + context] for s in starts])
        y = np.stack([data[s + 1:s + context + 1] for s in starts])
        yield ct.from_numpy(x), ct.from_numpy(y)


def sample(model, stoi, itos, prompt, length, context):
    model.eval()
    ids = [stoi[c] for c in prompt]
    with ct.no_grad():
        for _ in range(length):
            x = ct.tensor([ids[-context:]], dtype=ct.int64)
            logits = model(x)[0, -1]
            ids.append(int(ct.argmax(logits)))
    model.train()
    return "".join(itos[i] for i in ids)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", default="/usr/share/common-licenses/GPL-3")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--context", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    text = open(args.text, encoding="utf-8").read()
    chars = sorted(set(text))
    stoi, itos = {c: i for i, c in enumerate(chars)}, dict(enumerate(chars))
    data = np.array([stoi[c] for c in text], dtype=np.int64)
    ct.manual_seed(args.seed)
    model = CharTransformer(len(chars), args.context)
    optimizer = ct.optim.Adam(model.parameters(), lr=args.lr)
    print("%d characters, vocabulary %d, %d parameters" % (len(text), len(chars),
                                                          sum(p.numel() for p in model.parameters())))
    start, running = time.perf_counter(), None
    data_iter = batches(data, args.context, args.batch_size, np.random.default_rng(args.seed))
    for step in range(1, args.steps + 1):
        x, y = next(data_iter)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running = loss.item() if running is None else 0.9 * running + 0.1 * loss.item()
        if step % 25 == 0 or step == 1:
            print("step %4d  loss %.3f  (smoothed %.3f)  %.1f s" % (step, loss.item(), running,
                                                                   time.perf_counter() - start), flush=True)
    print("sample:", repr(sample(model, stoi, itos, "This License", 80, args.context)))


if __name__ == "__main__":
    main()

"""soak_mlp.py - soak test of the Python binding: trains a small MLP (nn.Sequential, Adam, cross entropy) for
10^4 steps, samples RSS (/proc/self/statm) and ct._C.live_handles() every N steps, prints them, and exits 1
when RSS keeps growing after warm-up (last quarter's max above the second quarter's by more than 2% or 1 MiB)
or the live-handle count grows. Usage: python soak_mlp.py [steps=10000] [every=steps/40]."""
import gc
import os
import sys

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGESIZE") // 1024


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    every = int(sys.argv[2]) if len(sys.argv) > 2 else max(1, steps // 40)
    if steps // every < 8:
        sys.exit("soak_mlp.py: need at least 8 samples (steps / every)")
    ct.manual_seed(1234)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = ct.optim.Adam(model.parameters(), lr=1e-3)
    data = ct.randn(256, 16)
    labels = data[:, :4].argmax(dim=1)
    rss, live, first, loss_v = [], [], None, None
    for step in range(steps):
        start = (step % 8) * 32
        x, y = data[start:start + 32], labels[start:start + 32]
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_v = loss.item()
        first = loss_v if first is None else first
        if (step + 1) % every == 0:
            del x, y, loss
            rss.append(rss_kib())
            live.append(ct._C.live_handles())
    print("soak_mlp.py: %d steps, loss %.4f -> %.4f, %d samples every %d steps" % (steps, first, loss_v, len(rss), every))
    print("soak_mlp.py: RSS KiB:", " ".join(map(str, rss)))
    print("soak_mlp.py: live handles:", " ".join(map(str, live)))
    q = len(rss) // 4
    q2, q4 = max(rss[q:2 * q]), max(rss[3 * q:])
    margin = max(q2 // 50, 1024)
    print("soak_mlp.py: RSS plateau: max of 2nd quarter %d KiB, of last quarter %d KiB (margin %d KiB)" % (q2, q4, margin))
    failures = []
    if q4 > q2 + margin:
        failures.append("RSS grows after warm-up (%d KiB -> %d KiB)" % (q2, q4))
    if any(n != live[0] for n in live):
        failures.append("live handles changed: %s" % sorted(set(live)))
    if not loss_v < first:
        failures.append("loss did not decrease (%.4f -> %.4f)" % (first, loss_v))
    del model, opt, data, labels
    gc.collect()
    if ct._C.live_handles() != 0:
        failures.append("%d handles left at exit" % ct._C.live_handles())
    for f in failures:
        print("soak_mlp.py: FAIL:", f, file=sys.stderr)
    print("soak_mlp.py:", "FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

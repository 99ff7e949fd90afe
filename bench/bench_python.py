#!/usr/bin/env python3
"""bench_python.py - ctensor vs PyTorch from Python, measured in one process with the same thread count: tiny-op
overhead, large elementwise throughput, matmul throughput, one MLP training epoch and an LSTM training step, each as
a ratio against the issue's target, then a PASS/MISS summary. Also a TransformerEncoderLayer training step, conv1d /
conv3d forward + backward and a small CNN training step (issue 14). A report, not a test: always exits 0. Takes
about 3-4 minutes.

    python bench/bench_python.py [--quick]
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

import ctensor as ct

# Read ctensor's default thread count before torch is imported: importing torch resets the shared OpenMP
# runtime's thread count (to 1 on this machine), which ctensor would then pick up lazily.
DEFAULT_THREADS = ct.get_num_threads()
try:
    import torch
except ImportError:  # the ctensor column is still printed
    torch = None

# (section, rule, bound): "time<=" means ctensor time / torch time must be <= bound,
# "speed>=" means torch time / ctensor time (ctensor's speed relative to PyTorch) must be >= bound.
TARGETS = {
    "tiny": ("time<=", 0.7),
    "elementwise": ("speed>=", 1.0),
    "matmul": ("speed>=", 1.0),
    "mlp": ("speed>=", 1.0),
    "transformer": ("speed>=", 1.2),
    "conv": ("speed>=", 1.0),
    "cnn": ("speed>=", 1.3),
    "lstm": ("speed>=", 1.2),
    "resample": ("speed>=", 1.0),
    "norms": ("speed>=", 1.0),
    "amp": ("speed>=", 1.0),
    "complex": ("speed>=", 1.0),
    "linalg": ("speed>=", 1.0),
}


def calibrate(fn, min_run):
    """Warms fn() up and returns a call count for which one run lasts >= min_run seconds (like timeit.autorange)."""
    fn()
    number = 1
    while True:
        elapsed = run_once(fn, number) * number
        if elapsed >= min_run:
            return number
        number *= 2 if elapsed * 10 >= min_run else 10


def run_once(fn, number):
    """Seconds per call over `number` back-to-back calls of fn()."""
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def interleaved_runs(fns, min_run=0.05, repeat=5, gap=0.02):
    """Per-call seconds of each zero-argument callable in fns: a list (one per callable) of `repeat` run
    times. The runs of the different callables are interleaved (round r runs each once, back to back) so
    that load changes on a shared machine hit all of them alike; see paired_ratio. Each run starts after a
    `gap`-second pause: an OpenMP runtime (torch's) keeps its idle workers spinning for a while after a
    parallel region, which would otherwise slow whichever library runs next on the same cores."""
    numbers = [calibrate(fn, min_run) for fn in fns]
    runs = [[] for _ in fns]
    for _ in range(repeat):
        for fn, number, times in zip(fns, numbers, runs):
            time.sleep(gap)
            times.append(run_once(fn, number))
    return runs


def paired_ratio(numerators, denominators):
    """(median, lower quartile, upper quartile) of the per-round ratios numerators[r] / denominators[r]:
    pairing the two runs of one round cancels load drifts that a ratio of separate medians would keep."""
    ratios = sorted(a / b for a, b in zip(numerators, denominators))
    quartiles = statistics.quantiles(ratios, n=4, method="inclusive") if len(ratios) > 1 else ratios * 3
    return statistics.median(ratios), quartiles[0], quartiles[2]


def fmt_time(seconds):
    if seconds < 1e-3:
        return "%8.2f us" % (seconds * 1e6)
    if seconds < 1.0:
        return "%8.2f ms" % (seconds * 1e3)
    return "%8.2f s " % seconds


class Report:
    """Collects one row per measurement and prints it as it is measured."""

    def __init__(self):
        self.rows = []

    def add(self, section, label, ct_runs, torch_runs, extra=""):
        """One row from the interleaved run times of ctensor and torch (torch_runs None without torch): the
        times shown are medians, the ratio is the median of the per-round ratios with its quartile range."""
        rule, bound = TARGETS[section]
        ct_seconds = statistics.median(ct_runs)
        row = {"section": section, "label": label, "status": "n/a"}
        line = "%-12s %-34s ct %s" % (section, label, fmt_time(ct_seconds))
        if torch_runs is not None:
            if rule == "time<=":
                ratio, low, high = paired_ratio(ct_runs, torch_runs)
                row["status"] = "PASS" if ratio <= bound else "MISS"
                text = "time ratio %.2fx [%.2f-%.2f] (target <= %.2fx)" % (ratio, low, high, bound)
            else:
                ratio, low, high = paired_ratio(torch_runs, ct_runs)
                row["status"] = "PASS" if ratio >= bound else "MISS"
                text = "speed %.2fx [%.2f-%.2f] (target >= %.2fx)" % (ratio, low, high, bound)
            row["ratio"] = ratio
            line += "  torch %s  %s  %s" % (fmt_time(statistics.median(torch_runs)), text, row["status"])
        print(line + extra, flush=True)
        self.rows.append(row)

    def summary(self):
        print("\nSummary (time ratio = ctensor/torch time; speed = torch/ctensor time)")
        print("%-12s %-34s %-10s %-8s %s" % ("section", "case", "ratio", "target", "result"))
        for row in self.rows:
            rule, bound = TARGETS[row["section"]]
            ratio = "%.2fx" % row["ratio"] if "ratio" in row else "-"
            target = ("<=" if rule == "time<=" else ">=") + "%.1fx" % bound
            print("%-12s %-34s %-10s %-8s %s" % (row["section"], row["label"], ratio, target, row["status"]))
        judged = [r for r in self.rows if r["status"] != "n/a"]
        passed = sum(r["status"] == "PASS" for r in judged)
        print("%d/%d targets met" % (passed, len(judged)) if judged else "no torch: nothing to compare")


def both(lib_fn, report, section, label, min_run=0.05, repeat=5):
    """Times lib_fn(ct) and lib_fn(torch); lib_fn(lib) returns the zero-argument callable to time."""
    libs = [ct] if torch is None else [ct, torch]
    runs = interleaved_runs([lib_fn(lib) for lib in libs], min_run, repeat)
    report.add(section, label, runs[0], runs[1] if torch is not None else None)


def bench_tiny(report):
    def binary(lib):
        a, b = lib.ones(1), lib.ones(1)
        return lambda: a + b

    def fma(lib):
        a, b, c = lib.ones(1), lib.ones(1), lib.ones(1)
        return lambda: a * b + c

    def total(lib):
        x = lib.ones(1)
        return lambda: x.sum()

    def backward(lib):
        w, x, b = lib.ones(1).requires_grad_(), lib.ones(1), lib.ones(1).requires_grad_()
        return lambda: (w * x + b).sum().backward()

    for label, case in [("a+b (1 elem)", binary), ("a*b+c (1 elem)", fma), ("x.sum() (1 elem)", total),
                        ("(w*x+b).sum().backward()", backward)]:
        both(case, report, "tiny", label, min_run=0.05, repeat=7)


def bench_elementwise(report, sizes):
    rng = np.random.default_rng(0)
    for n in sizes:
        data_a = rng.standard_normal(n, dtype=np.float32)
        data_b = rng.standard_normal(n, dtype=np.float32)
        for name, op in [("add", lambda a, b: a + b), ("mul", lambda a, b: a * b), ("exp", lambda a, b: a.exp())]:
            def case(lib, op=op):
                a, b = lib.from_numpy(data_a.copy()), lib.from_numpy(data_b.copy())
                return lambda: op(a, b)
            both(case, report, "elementwise", "%s %.0e float32" % (name, n), min_run=0.1, repeat=7)


def bench_matmul(report, sizes):
    rng = np.random.default_rng(1)
    for n in sizes:
        data_a = rng.standard_normal((n, n), dtype=np.float32)
        data_b = rng.standard_normal((n, n), dtype=np.float32)

        def case(lib):
            a, b = lib.from_numpy(data_a.copy()), lib.from_numpy(data_b.copy())
            return lambda: a @ b
        libs = [ct] if torch is None else [ct, torch]
        runs = interleaved_runs([case(lib) for lib in libs], min_run=0.1, repeat=9)
        report.add("matmul", "matmul %dx%d float32" % (n, n), runs[0], runs[1] if torch is not None else None,
                   "  (ct %.1f GFLOP/s)" % (2.0 * n ** 3 / statistics.median(runs[0]) / 1e9))


def bench_complex(report, sizes):
    """complex64 matmul: ctensor's one cgemm call ("new") against torch, and against the four real matmuls of the
    parts that ctensor ran before issue 15 ("old", rebuilt here from the same public ops)."""
    rng = np.random.default_rng(2)
    for n in sizes:
        data_a = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))).astype(np.complex64)
        data_b = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))).astype(np.complex64)

        def case(lib):
            a, b = lib.from_numpy(data_a.copy()), lib.from_numpy(data_b.copy())
            return lambda: a @ b

        def old():
            a, b = ct.from_numpy(data_a.copy()), ct.from_numpy(data_b.copy())
            ar, ai, br, bi = a.real, a.imag, b.real, b.imag
            return lambda: ct.complex(ar @ br - ai @ bi, ar @ bi + ai @ br)
        fns = [case(ct), old()] + ([case(torch)] if torch is not None else [])
        runs = interleaved_runs(fns, min_run=0.1, repeat=9)
        report.add("complex", "matmul %dx%d complex64" % (n, n), runs[0], runs[2] if torch is not None else None,
                   "  (ct %.1f GFLOP/s)" % (8.0 * n ** 3 / statistics.median(runs[0]) / 1e9))
        ratio, low, high = paired_ratio(runs[1], runs[0])
        print("%-12s %-34s old %s, new %s: speed-up %.2fx [%.2f-%.2f]" % (
            "complex", "matmul %dx%d old/new" % (n, n), fmt_time(statistics.median(runs[1])),
            fmt_time(statistics.median(runs[0])), ratio, low, high), flush=True)


def mlp_model(lib):
    """The benchmark MLP 784-256-128-10 (seed 0) with its Adam optimizer and cross-entropy loss."""
    lib.manual_seed(0)
    nn = lib.nn
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    return model, lib.optim.Adam(model.parameters(), lr=1e-3), nn.CrossEntropyLoss()


def mlp_epoch(lib, data_x, data_y, batch, steps_limit=None):
    """Seconds for one epoch of a 784-256-128-10 MLP (Adam, cross entropy) on the given data."""
    model, optimizer, loss_fn = mlp_model(lib)
    x, y = lib.from_numpy(data_x), lib.from_numpy(data_y)
    n = x.shape[0]

    def run_epoch(limit):
        order = lib.randperm(n)
        loss = None
        for step, i in enumerate(range(0, n, batch)):
            if limit is not None and step >= limit:
                break
            idx = order[i:i + batch]
            optimizer.zero_grad()
            loss = loss_fn(model(x[idx]), y[idx])
            loss.backward()
            optimizer.step()
        return loss.item()

    run_epoch(20)  # warm-up: allocator, BLAS threads, Adam state
    start = time.perf_counter()
    last_loss = run_epoch(steps_limit)
    return time.perf_counter() - start, last_loss


def bench_mlp(report, samples, repeat, budget=40.0):
    """Median epoch time over up to `repeat` interleaved ctensor/torch epochs; stops repeating once `budget`
    seconds are spent (a loaded machine can make one epoch take tens of seconds)."""
    rng = np.random.default_rng(2)
    data_x = rng.standard_normal((samples, 784), dtype=np.float32)
    data_y = rng.integers(0, 10, samples).astype(np.int64)
    libs = [ct] if torch is None else [ct, torch]
    runs = [[] for _ in libs]
    start = time.perf_counter()
    for _ in range(repeat):
        for lib, lib_runs in zip(libs, runs):
            lib_runs.append(mlp_epoch(lib, data_x, data_y, 128))
        if time.perf_counter() - start > budget:
            break
    ct_times = [t for t, _ in runs[0]]
    torch_times = [t for t, _ in runs[1]] if torch is not None else None
    losses = "final loss ct %.3f" % runs[0][-1][1] + (", torch %.3f" % runs[1][-1][1] if torch else "")
    report.add("mlp", "MLP epoch %d samples, batch 128" % samples, ct_times, torch_times,
               "  (%s; %d epoch(s) each)" % (losses, len(runs[0])))


def amp_mlp_step(lib, data_x, data_y):
    """A training step of the 784-256-128-10 MLP (Adam, cross entropy) with the forward pass under the CPU
    autocast region in bfloat16 (issue 15: torch.cpu.amp.autocast / ctensor.cpu.amp.autocast)."""
    model, optimizer, loss_fn = mlp_model(lib)
    x, y = lib.from_numpy(data_x), lib.from_numpy(data_y)

    def step():
        optimizer.zero_grad()
        with lib.cpu.amp.autocast(dtype=lib.bfloat16):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
    return step


def bench_amp(report, batch=128):
    rng = np.random.default_rng(4)
    data_x = rng.standard_normal((batch, 784), dtype=np.float32)
    data_y = rng.integers(0, 10, batch).astype(np.int64)
    both(lambda lib: amp_mlp_step(lib, data_x, data_y), report, "amp", "MLP step autocast bf16 batch %d" % batch,
         min_run=0.2, repeat=7)


def transformer_step(lib, data_x, d_model, nhead):
    """A zero-argument training step of a TransformerEncoderLayer (torch's defaults: dim_feedforward 2048, dropout
    0.1, relu, post-norm; batch_first) with Adam on a mean-square loss."""
    lib.manual_seed(0)
    layer = lib.nn.TransformerEncoderLayer(d_model, nhead, batch_first=True)
    optimizer = lib.optim.Adam(layer.parameters(), lr=1e-4)
    x = lib.from_numpy(data_x)

    def step():
        optimizer.zero_grad()
        loss = layer(x).pow(2).mean()
        loss.backward()
        optimizer.step()
    return step


def lstm_step(lib, seq=64, batch=32, inputs=256, hidden=256, layers=2):
    """A training step of a 2-layer LSTM (issue 14's benchmark): forward over seq x batch, a loss on the outputs,
    backward and an SGD update; returns the zero-argument callable."""
    lib.manual_seed(0)
    model = lib.nn.LSTM(inputs, hidden, num_layers=layers)
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01)
    x = lib.from_numpy(np.random.default_rng(3).standard_normal((seq, batch, inputs), dtype=np.float32))

    def step():
        optimizer.zero_grad()
        out, (h, c) = model(x)
        loss = (out * out).mean() + (h * h).mean()
        loss.backward()
        optimizer.step()
    return step


def bench_transformer(report, batch=16, seq=128, d_model=256, nhead=4, repeat=7):
    data_x = np.random.default_rng(3).standard_normal((batch, seq, d_model), dtype=np.float32)
    both(lambda lib: transformer_step(lib, data_x, d_model, nhead), report, "transformer",
         "enc layer d%d h%d seq%d batch%d step" % (d_model, nhead, seq, batch), min_run=0.3, repeat=repeat)


def bench_conv(report, quick):
    """conv1d and conv3d forward + backward (input, weight and bias gradients), float32."""
    rng = np.random.default_rng(3)
    cases = [("conv1d", (16, 32, 256 if quick else 1024), (64, 32, 5), dict(padding=2)),
             ("conv3d", (4, 8, 8 if quick else 16, 16, 16), (16, 8, 3, 3, 3), dict(padding=1))]
    for name, xs, ws, kw in cases:
        data_x = rng.standard_normal(xs, dtype=np.float32)
        data_w = rng.standard_normal(ws, dtype=np.float32) * 0.1
        data_b = rng.standard_normal(ws[0], dtype=np.float32)

        def case(lib, name=name, kw=kw, data_x=data_x, data_w=data_w, data_b=data_b):
            x, w, b = (lib.from_numpy(d.copy()).requires_grad_() for d in (data_x, data_w, data_b))
            fn = getattr(lib.nn.functional, name)

            def step():
                x.grad = w.grad = b.grad = None
                fn(x, w, b, **kw).sum().backward()
            return step
        both(case, report, "conv", "%s fwd+bwd x%s w%s" % (name, list(xs), list(ws)), min_run=0.2, repeat=7)


def bench_resample(report, quick):
    """Bilinear 2x upsample of [16, 64, 64, 64] float32 forward + backward (issue 14), both libraries on 1 thread."""
    data_x = np.random.default_rng(5).standard_normal((4 if quick else 16, 64, 64, 64), dtype=np.float32)

    def case(lib):
        x = lib.from_numpy(data_x.copy()).requires_grad_()

        def step():
            x.grad = None
            lib.nn.functional.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False).sum().backward()
        return step
    threads = ct.get_num_threads()
    if torch is not None:
        torch.set_num_threads(1)
    ct.set_num_threads(1)
    try:
        both(case, report, "resample", "bilinear 2x fwd+bwd x%s 1 thread" % list(data_x.shape), min_run=0.2, repeat=5)
    finally:
        if torch is not None:
            torch.set_num_threads(threads)
        ct.set_num_threads(threads)


def bench_norms(report, quick):
    """Normalisation layers in training mode, forward + backward of the sum: BatchNorm1d on [N, C] (Note
    [Channels-last batch norm]), BatchNorm2d and LayerNorm, float32."""
    rng = np.random.default_rng(6)
    cases = [("BatchNorm1d", (256, 512), 512), ("BatchNorm1d", (4096, 64), 64),
             ("BatchNorm2d", (8 if quick else 32, 16, 32, 32), 16), ("LayerNorm", (2048, 256), 256)]
    for name, shape, features in cases:
        data_x = rng.standard_normal(shape, dtype=np.float32)

        def case(lib, name=name, data_x=data_x, features=features):
            x = lib.from_numpy(data_x.copy()).requires_grad_()
            layer = getattr(lib.nn, name)(features)

            def step():
                x.grad = None
                layer(x).sum().backward()
            return step
        both(case, report, "norms", "%s fwd+bwd x%s" % (name, list(shape)), min_run=0.1, repeat=5)


def cnn_model(lib):
    lib.manual_seed(0)
    nn = lib.nn
    return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(32 * 7 * 7, 10))


def bench_cnn(report, quick):
    """One SGD training step of a small MNIST-sized CNN (two 3x3 conv + ReLU + max-pool, a linear head), batch 64."""
    rng = np.random.default_rng(4)
    data_x = rng.standard_normal((64, 1, 28, 28), dtype=np.float32)
    data_y = rng.integers(0, 10, 64).astype(np.int64)

    def case(lib):
        model = cnn_model(lib)
        optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        loss_fn = lib.nn.CrossEntropyLoss()
        x, y = lib.from_numpy(data_x.copy()), lib.from_numpy(data_y.copy())

        def step():
            optimizer.zero_grad()
            loss_fn(model(x), y).backward()
            optimizer.step()
        return step
    both(case, report, "cnn", "small CNN step, batch 64 (median of runs)", min_run=0.2 if quick else 0.5,
         repeat=5 if quick else 9)
def bench_lstm(report, quick):
    """LSTM 2 layers, hidden 256, seq 64, batch 32, input 256: one training step (forward + backward + SGD)."""
    shape = dict(seq=16, batch=8) if quick else {}
    label = "LSTM step 2x256, seq %d, batch %d" % (shape.get("seq", 64), shape.get("batch", 32))
    both(lambda lib: lstm_step(lib, **shape), report, "lstm", label, min_run=0.2, repeat=7)


def bench_linalg(report, quick):
    """torch.linalg on a batch of 256x256 float32 matrices (issue 14: solve and svd >= 1.0x), forward only: solve
    (B 256 columns), svd (reduced), and the other factorisations users reach for - inv, cholesky, qr, eigh, det."""
    batch, n = (2, 64) if quick else (8, 256)
    rng = np.random.default_rng(11)
    data_a = rng.standard_normal((batch, n, n), dtype=np.float32) + n * np.eye(n, dtype=np.float32)  # well conditioned
    data_spd = (data_a @ data_a.transpose(0, 2, 1)).astype(np.float32)
    data_b = rng.standard_normal((batch, n, n), dtype=np.float32)
    cases = [
        ("solve", lambda L, a, s, b: L.linalg.solve(a, b)),
        ("svd", lambda L, a, s, b: L.linalg.svd(a, full_matrices=False)),
        ("svdvals", lambda L, a, s, b: L.linalg.svdvals(a)),
        ("inv", lambda L, a, s, b: L.linalg.inv(a)),
        ("cholesky", lambda L, a, s, b: L.linalg.cholesky(s)),
        ("qr", lambda L, a, s, b: L.linalg.qr(a)),
        ("eigh", lambda L, a, s, b: L.linalg.eigh(s)),
        ("det", lambda L, a, s, b: L.linalg.det(a)),
    ]
    for name, fn in cases:
        def case(lib, fn=fn):
            a, s, b = (lib.from_numpy(x.copy()) for x in (data_a, data_spd, data_b))
            return lambda: fn(lib, a, s, b)
        both(case, report, "linalg", "%s [%d, %d, %d] f32" % (name, batch, n, n), min_run=0.1, repeat=7)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and a shorter epoch (smoke run)")
    parser.add_argument("--only", default=None, help="run one section (tiny, elementwise, matmul, mlp, transformer, conv, cnn, lstm, resample, norms, amp, complex, linalg)")
    parser.add_argument("--threads", type=int, default=None, help="thread count for both (default: ctensor's)")
    args = parser.parse_args()

    threads = args.threads or DEFAULT_THREADS
    ct.set_num_threads(threads)
    header = "ctensor %s, %d threads" % (ct.__version__, threads)
    if torch is not None:
        torch.set_num_threads(threads)
        ct.set_num_threads(threads)  # both share one OpenMP runtime: set ctensor last so its BLAS agrees too
        header += "; torch %s, %d threads" % (torch.__version__, torch.get_num_threads())
    else:
        header += "; torch not installed: torch columns and PASS/MISS skipped"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(header + "; python %s; load average %.1f on %d cores\n" % (sys.version.split()[0], load, os.cpu_count()),
          flush=True)

    report = Report()
    sections = [
        (bench_tiny, ()),
        (bench_elementwise, ([10 ** 5] if args.quick else [10 ** 6, 10 ** 7],)),
        (bench_matmul, ([256] if args.quick else [256, 512, 1024, 2048],)),
        (bench_mlp, (6000 if args.quick else 60000, 1 if args.quick else 3)),
        (bench_transformer, ()),
        (bench_conv, (args.quick,)),
        (bench_cnn, (args.quick,)),
        (bench_lstm, (args.quick,)),
        (bench_resample, (args.quick,)),
        (bench_norms, (args.quick,)),
        (bench_amp, ()),
        (bench_complex, ([256] if args.quick else [512],)),
        (bench_linalg, (args.quick,)),
    ]
    for section, section_args in sections:
        if args.only and section.__name__ != "bench_" + args.only:
            continue
        try:
            section(report, *section_args)
        except Exception as error:  # a report: show what failed, keep going, never fail the caller
            print("%s: failed: %s: %s" % (section.__name__, type(error).__name__, error), flush=True)
    report.summary()


if __name__ == "__main__":
    main()
    sys.exit(0)

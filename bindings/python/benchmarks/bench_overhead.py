#!/usr/bin/env python3
"""bench_overhead.py - per-op overhead of ctensor's Python binding on tiny tensors, next to PyTorch and NumPy
when they are installed (microseconds per call, best of 3). Measures the C number protocol (`a + b`), method
calls bound from C, Python-level signatures, indexing and a tiny autograd step.

    python bindings/python/benchmarks/bench_overhead.py
"""
import timeit

import ctensor as ct

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None
try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

CASES = [
    ("a + b", "a + b"),
    ("a + 1.0", "a + 1.0"),
    ("a.exp()", "a.exp()"),
    ("a.sum(dim=0)", "a.sum(dim=0)"),
    ("a[1:]", "a[1:]"),
    ("a.shape", "a.shape"),
]


def best(stmt, env, number):
    return min(timeit.repeat(stmt, globals=env, number=number, repeat=3)) / number * 1e6


def main(number=100000):
    libs = [("ctensor", ct.ones)]
    if torch is not None:
        libs.append(("torch", torch.ones))
    print("%-28s" % "op" + "".join("%12s" % name for name, _ in libs) + ("%12s" % "numpy" if np is not None else ""))
    for label, stmt in CASES:
        row = "%-28s" % label
        for _, ones in libs:
            row += "%10.2fus" % best(stmt, {"a": ones(4), "b": ones(4)}, number)
        if np is not None and label in ("a + b", "a + 1.0", "a[1:]", "a.shape"):
            row += "%10.2fus" % best(stmt, {"a": np.ones(4), "b": np.ones(4)}, number)
        print(row)
    step = "(w * x + b).sum().backward()"
    row = "%-28s" % "(w*x+b).sum().backward()"
    for _, ones in libs:
        env = {"w": ones(4).requires_grad_(), "x": ones(4), "b": ones(4).requires_grad_()}
        row += "%10.2fus" % best(step, env, number // 10)
    print(row)


if __name__ == "__main__":
    main()

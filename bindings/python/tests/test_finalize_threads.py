"""Tensors finalized on other threads: the last reference of a tensor (and of a graph holding it) dropped on a
thread other than the one that made it, and the reverse, from many threads at once; every handle is freed."""
import gc
import threading

import ctensor as ct


def _run_threads(target, n=8):
    errors = []

    def wrapped(i):
        try:
            target(i)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_tensors_made_here_are_dropped_on_other_threads():
    gc.collect()
    start = ct._C.live_handles()
    x = ct.ones(4, requires_grad=True)
    boxes = [[(x * float(i + 1)).sum(), ct.arange(100.0)[::3]] for i in range(8)]  # graphs and views

    def drop(i):
        boxes[i][0].backward()
        boxes[i].clear()  # the last references die on this thread

    _run_threads(drop)
    assert x.grad.tolist() == [36.0] * 4
    del x, boxes
    gc.collect()
    assert ct._C.live_handles() == start


def test_tensors_made_on_other_threads_are_dropped_here():
    gc.collect()
    start = ct._C.live_handles()
    made = [None] * 8

    def make(i):
        w = ct.randn(3, 3, requires_grad=True)
        made[i] = ((w @ w).relu().sum(), w)

    _run_threads(make)
    assert ct._C.live_handles() > start
    for pair in made:
        pair[0].backward()
        assert pair[1].grad.shape == (3, 3)
    del made, pair
    gc.collect()
    assert ct._C.live_handles() == start


def test_reference_cycle_collected_on_another_thread():
    # a cycle keeps the tensors until the garbage collector runs; here it runs on a worker thread
    gc.collect()
    start = ct._C.live_handles()

    class Holder:
        pass

    a, b = Holder(), Holder()
    a.other, b.other = b, a
    a.t = ct.ones(1000) * 2
    b.t = a.t[10:20]
    del a, b
    assert ct._C.live_handles() > start
    _run_threads(lambda i: gc.collect(), n=1)
    assert ct._C.live_handles() == start

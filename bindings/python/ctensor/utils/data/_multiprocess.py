"""The DataLoader iterator over worker processes (num_workers > 0). Entries of the index sampler go round-robin to
the active workers, at most prefetch_factor * num_workers ahead of the consumer; batches come back in any order
and are handed out in sampler order. The worker protocol is described in _worker.py.

Start method: multiprocessing_context, by default multiprocessing's (fork on Linux, as torch). A forked worker sets
ctensor to one thread before its first op, so it never waits on the parent's thread pool, whose threads fork does
not copy (do not run ctensor ops in other Python threads while an iterator starts its workers). With "spawn" or
"forkserver" the dataset, collate_fn and worker_init_fn must be picklable.

Invariants: task_info[i] is (worker,) while task i is outstanding and (worker, payload) once its result arrived
early; rcvd_idx <= send_idx; a task of a worker that reported END is never awaited. Results of an older epoch (a
persistent loader that was reset before its previous pass was drained) are dropped by their epoch tag."""
import itertools
import multiprocessing
import os
import time
from multiprocessing import connection

from . import _transport
from ._worker import END, ExceptionWrapper, worker_loop

_STATUS_CHECK_S = 1.0  # while waiting for a batch, how often the main process checks that its workers live
_JOIN_S = 5.0  # how long shutdown waits for a worker before terminating it


class MultiProcessingDataLoaderIter:
    """Iterator of one pass (or, for persistent_workers, of every pass: _reset starts the next one)."""

    def __init__(self, loader):
        self._loader = loader
        self._num_workers = loader.num_workers
        self._prefetch = loader.prefetch_factor * loader.num_workers
        self._timeout = loader.timeout
        self._persistent = loader.persistent_workers
        self._ctx = loader.multiprocessing_context or multiprocessing.get_context()
        self._index_queues, self._workers, self._conns = [], [], []
        self._shutdown = False
        self._epoch = 0
        base_seed = loader._draw_base_seed()
        try:
            for wid in range(self._num_workers):
                index_queue = self._ctx.Queue()
                index_queue.cancel_join_thread()
                reader, writer = self._ctx.Pipe(duplex=False)
                w = self._ctx.Process(
                    target=worker_loop, daemon=True,
                    args=(loader.dataset, index_queue, writer, loader._auto_collation, loader.collate_fn,
                          loader.drop_last, base_seed, loader.worker_init_fn, wid, self._num_workers, os.getpid()))
                w.start()
                writer.close()  # before the next fork: the worker holds the only writer, so its death reads as EOF
                self._index_queues.append(index_queue)
                self._conns.append(reader)
                self._workers.append(w)
        except BaseException:
            self._shutdown_workers(graceful=False)
            raise
        self._start_epoch(first=True)

    # ---- epochs ----
    def _start_epoch(self, first):
        self._epoch += 1
        if not first:
            for q in self._index_queues:
                q.put(("reset", self._epoch))
        self._sampler_iter = iter(self._loader._index_sampler)
        self._send_idx = self._rcvd_idx = 0
        self._task_info = {}
        self._active = [True] * self._num_workers
        self._next_worker = itertools.cycle(range(self._num_workers))
        for _ in range(self._prefetch):
            self._try_put_index()

    def _reset(self, loader):
        """A persistent loader's next pass over the same workers."""
        self._start_epoch(first=False)

    def _try_put_index(self):
        if not any(self._active):
            return
        try:
            entry = next(self._sampler_iter)
        except StopIteration:
            return
        for _ in range(self._num_workers):
            wid = next(self._next_worker)
            if self._active[wid]:
                break
        self._index_queues[wid].put(("task", self._epoch, self._send_idx, entry))
        self._task_info[self._send_idx] = (wid,)
        self._send_idx += 1

    # ---- iteration ----
    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)

    def __next__(self):
        if self._shutdown:  # after the pass ended or a worker died
            raise StopIteration
        while True:
            while self._rcvd_idx < self._send_idx:
                info = self._task_info[self._rcvd_idx]
                if len(info) == 2 or self._active[info[0]]:
                    break
                del self._task_info[self._rcvd_idx]  # its worker ended: no answer will come
                self._rcvd_idx += 1
            else:
                if not self._persistent:
                    self._shutdown_workers()
                raise StopIteration
            info = self._task_info[self._rcvd_idx]
            if len(info) == 2:
                return self._deliver(info[1])
            epoch, idx, wid, payload = self._get_result()
            if epoch != self._epoch:
                continue
            if isinstance(payload, str) and payload == END:
                self._active[wid] = False
                continue
            if idx != self._rcvd_idx:
                self._task_info[idx] += (payload,)
                continue
            return self._deliver(payload)

    def _deliver(self, payload):
        del self._task_info[self._rcvd_idx]
        self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(payload, ExceptionWrapper):
            payload.reraise()
        return payload

    def _get_result(self):
        """The next result tuple from whichever worker is ready; raises RuntimeError on timeout or when a worker
        died (found by polling, or as EOF on its pipe when it died while sending)."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            wait = _STATUS_CHECK_S if deadline is None else min(_STATUS_CHECK_S, deadline - time.monotonic())
            ready = connection.wait(self._conns, timeout=max(wait, 0.0))
            if ready:
                try:
                    return _transport.recv(ready[0])
                except (EOFError, OSError):
                    self._raise_dead_workers(force=True)
            self._raise_dead_workers()
            if deadline is not None and time.monotonic() >= deadline:
                raise RuntimeError("DataLoader timed out after %s seconds" % self._timeout)

    def _raise_dead_workers(self, force=False):
        """RuntimeError naming the workers that are gone (force: a pipe reported EOF, so one is)."""
        if force:
            for w in self._workers:
                w.join(timeout=0.1)  # the worker whose pipe closed is exiting
        dead = [str(w.pid) for w in self._workers if not w.is_alive()]
        if dead or force:
            self._shutdown_workers(graceful=False)
            raise RuntimeError("DataLoader worker (pid(s) %s) exited unexpectedly" % ", ".join(dead or ["?"]))

    # ---- shutdown ----
    def _shutdown_workers(self, graceful=True):
        """Stops the workers: graceful sends each None and waits up to _JOIN_S before terminating it; otherwise
        they are terminated at once (from __del__, where the garbage collector may already have closed the
        queues' feeder threads, so a None would never arrive; the unread results are discarded anyway)."""
        if self._shutdown:
            return
        self._shutdown = True
        if graceful:
            for q in self._index_queues:
                try:
                    q.put(None)
                except (OSError, ValueError):
                    graceful = False
        deadline = time.monotonic() + (_JOIN_S if graceful else 0.0)
        for w in self._workers:
            w.join(timeout=max(deadline - time.monotonic(), 0.0))
            if w.is_alive():
                w.terminate()
                w.join()
        for q in self._index_queues:
            q.cancel_join_thread()
            q.close()
        for c in self._conns:
            c.close()

    def __del__(self):
        try:
            self._shutdown_workers(graceful=False)
        except Exception:
            pass


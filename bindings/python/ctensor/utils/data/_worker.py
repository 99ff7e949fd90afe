"""The DataLoader worker process: WorkerInfo / get_worker_info(), the exception wrapper that carries a worker's
traceback to the main process, and the worker loop.

Protocol (per worker: an index queue in, a result pipe out):
  main -> worker: ("task", epoch, task_idx, entry) | ("reset", epoch) | None (exit)
  worker -> main: (epoch, task_idx, worker_id, payload) through _transport (tensor bytes go straight from the
                  worker's tensors into the main process's new tensors), payload being the batch, an
                  ExceptionWrapper, or END (an iterable dataset's copy has no more samples this epoch).
A result is pickled completely before anything is sent, so a batch that cannot be pickled becomes an error in the
main process instead of a hang. A worker answers no tasks of an epoch after END; it exits on None or when its
parent is gone."""
import os
import pickle
import queue
import random
import sys
import traceback

import numpy as np

from ... import _C
from . import _transport
from ._fetch import Fetcher

__all__ = ["WorkerInfo", "get_worker_info"]

END = "__ctensor_iterable_end__"  # payload: this worker's dataset copy is exhausted for the epoch
_PARENT_CHECK_S = 5.0  # how often an idle worker checks that its parent is still alive

_worker_info = None


class WorkerInfo:
    """What get_worker_info() returns inside a worker: id, num_workers, seed and dataset (this worker's copy).
    Read-only after construction, as in torch."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs)
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError("Cannot assign attributes to %s objects" % type(self).__name__)
        super().__setattr__(key, val)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%s" % (k, getattr(self, k)) for k in self.__keys))


def get_worker_info():
    """The current worker's WorkerInfo inside a DataLoader worker process, None in the main process."""
    return _worker_info


class ExceptionWrapper:
    """An exception caught in a worker, as its type and formatted traceback; reraise() raises it in the main
    process with the message "Caught <Type> in DataLoader worker process <id>.\\nOriginal Traceback ..."."""

    def __init__(self, exc_info=None, where="in background"):
        exc_info = sys.exc_info() if exc_info is None else exc_info
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = "Caught %s %s.\nOriginal %s" % (self.exc_type.__name__, self.where, self.exc_msg)
        if self.exc_type is KeyError:
            raise KeyError(_KeyErrorMessage(msg))
        try:
            exception = self.exc_type(msg)
        except Exception:  # an exception type that needs other arguments
            raise RuntimeError(msg) from None
        raise exception


class _KeyErrorMessage(str):
    """KeyError shows repr() of its argument; this keeps the traceback readable."""

    def __repr__(self):
        return str(self)


def _packed_result(epoch, task_idx, worker_id, payload):
    """The result message, packed; a payload that cannot be pickled becomes a picklable error in its place."""
    try:
        return _transport.pack((epoch, task_idx, worker_id, payload))
    except Exception:
        wrapper = payload if isinstance(payload, ExceptionWrapper) else ExceptionWrapper(
            where="in DataLoader worker process %d (pickling the batch)" % worker_id)
        try:
            pickle.dumps(wrapper.exc_type)
        except Exception:
            wrapper.exc_type = RuntimeError
        return _transport.pack((epoch, task_idx, worker_id, wrapper))


def _seed_worker(seed, base_seed, worker_id):
    _C.manual_seed(seed)
    random.seed(seed)
    np.random.seed(np.random.SeedSequence([base_seed, worker_id]).generate_state(4))


def worker_loop(dataset, index_queue, result_conn, auto_collation, collate_fn, drop_last, base_seed, init_fn,
                worker_id, num_workers, parent_pid):
    """Runs in the worker process until it gets None or its parent dies."""
    global _worker_info
    _C.set_num_threads(1)  # num_workers processes share the cores; one ctensor thread each, as torch does
    seed = base_seed + worker_id
    _seed_worker(seed, base_seed, worker_id)
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    where = "in DataLoader worker process %d" % worker_id
    try:
        fetcher, init_error = None, None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = Fetcher(dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(where=where)
        _serve(index_queue, result_conn, fetcher, init_error, where, worker_id, parent_pid)
    except KeyboardInterrupt:
        pass  # Ctrl-C reaches the main process too, which shuts the workers down


def _serve(index_queue, result_conn, fetcher, init_error, where, worker_id, parent_pid):
    """Answers tasks until None arrives or the parent is gone. Every task of an epoch gets exactly one result,
    except those after the END of an iterable dataset; an init error answers every task."""
    reset_error = None  # iter(dataset) failed at the last reset: every task of the epoch reports it
    ended_epoch = None
    while True:
        try:
            msg = index_queue.get(timeout=_PARENT_CHECK_S)
        except queue.Empty:
            if os.getppid() != parent_pid:
                return
            continue
        if msg is None:
            return
        if msg[0] == "reset":
            ended_epoch, reset_error = None, None
            if fetcher is not None:
                try:
                    fetcher.reset()
                except Exception:
                    reset_error = ExceptionWrapper(where=where)
            continue
        _, epoch, task_idx, entry = msg
        if ended_epoch == epoch:
            continue
        payload = init_error or reset_error
        if payload is None:
            try:
                payload = fetcher.fetch(entry)
            except StopIteration:
                ended_epoch = epoch
                payload = END
            except Exception:
                payload = ExceptionWrapper(where=where)
        packed = _packed_result(epoch, task_idx, worker_id, payload)
        del payload
        try:
            _transport.send(result_conn, packed)
        except (BrokenPipeError, EOFError, OSError):
            return  # the main process closed its end: it is shutting down
        del packed

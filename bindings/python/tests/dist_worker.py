"""dist_worker.py - run by test_distributed.py under `mpirun -np N`: every collective of ctensor.distributed with
torch's names, checked against values each rank computes locally (rank r contributes r + 1 + i), async works,
subgroups, point to point, DistributedSampler with the world's defaults, and the errors of a mismatched or missing
rank. Prints "rank R: N checks passed"."""
import sys

import numpy as np

import ctensor as ct
import ctensor.distributed as dist

checks = 0


def check(cond, what):
    global checks
    if not cond:
        raise AssertionError("rank %d: %s" % (dist.get_rank(), what))
    checks += 1


dist.init_process_group("mpi", timeout=20.0)
rank, size = dist.get_rank(), dist.get_world_size()
check(dist.is_initialized() and dist.get_backend() == "mpi", "initialised")
contrib = [np.arange(6, dtype=np.float64).reshape(2, 3) + r + 1 for r in range(size)]  # every rank's input

for dtype in (ct.float32, ct.float64, ct.int32, ct.int64, ct.uint8):
    for op, ref in ((dist.ReduceOp.SUM, np.sum), (dist.ReduceOp.MAX, np.max), (dist.ReduceOp.MIN, np.min),
                    (dist.ReduceOp.PRODUCT, np.prod), (dist.ReduceOp.AVG, np.mean)):
        if op == dist.ReduceOp.AVG and dtype not in (ct.float32, ct.float64):
            continue
        t = ct.tensor(contrib[rank], dtype=dtype)
        dist.all_reduce(t, op)
        want = ref(np.stack(contrib), axis=0)
        check(np.allclose(t.numpy().astype(np.float64), want.astype(t.numpy().dtype).astype(np.float64)),
              "all_reduce %s %s" % (dtype, op.name))

t = ct.tensor(contrib[rank])
work = dist.all_reduce(t, async_op=True)
check(work.wait() and work.is_completed(), "async all_reduce completes")
check(np.allclose(t.numpy(), np.sum(contrib, axis=0)), "async all_reduce value")

t = ct.tensor(contrib[rank]).t()  # a non-contiguous view
dist.broadcast(t, src=size - 1)
check(np.array_equal(t.numpy(), contrib[size - 1].T), "broadcast into a transposed view")

outs = [ct.zeros(2, 3, dtype=ct.float64) for _ in range(size)]
dist.all_gather(outs, ct.tensor(contrib[rank]))
check(all(np.array_equal(o.numpy(), contrib[r]) for r, o in enumerate(outs)), "all_gather")
flat = ct.zeros(2 * size, 3, dtype=ct.float64)
dist.all_gather_into_tensor(flat, ct.tensor(contrib[rank]))
check(np.array_equal(flat.numpy(), np.concatenate(contrib)), "all_gather_into_tensor")

parts = [ct.full([2], float(rank * 10 + i)) for i in range(size)]
out = ct.zeros(2)
dist.reduce_scatter(out, parts)
check(out.tolist() == [float(sum(r * 10 + rank for r in range(size)))] * 2, "reduce_scatter")

if size >= 2:
    buf = ct.zeros(3, dtype=ct.int64)
    if rank == 0:
        dist.send(ct.tensor([7, 8, 9]), dst=1, tag=5)
    elif rank == 1:
        check(dist.recv(buf, src=0, tag=5) == 0 and buf.tolist() == [7, 8, 9], "send/recv")

evens = dist.new_group([r for r in range(size) if r % 2 == 0])
if rank % 2 == 0:
    t = ct.ones(1)
    dist.all_reduce(t, group=evens)
    check(t.item() == (size + 1) // 2 and dist.get_rank(evens) == rank // 2, "subgroup all_reduce")
else:
    check(dist.get_rank(evens) == -1 and dist.get_world_size(evens) == 0, "non-member of a subgroup")

# DistributedSampler takes num_replicas and rank from the world; the shuffled shares of all ranks (gathered) are
# disjoint and cover the dataset (11 samples: padded to a multiple of the world size by repeating the start)
from ctensor.utils.data import DistributedSampler  # noqa: E402

sampler = DistributedSampler(range(11), seed=3)
sampler.set_epoch(2)
check(sampler.num_replicas == size and sampler.rank == rank, "DistributedSampler world defaults")
share = ct.tensor(list(sampler))
shares = [ct.zeros(len(sampler), dtype=ct.int64) for _ in range(size)]
dist.all_gather(shares, share)
flat = [i for s in shares for i in s.tolist()]
check(len(flat) == sampler.total_size and set(flat) == set(range(11))
      and len(set(flat)) == 11, "DistributedSampler shares cover the dataset")

fast = dist.new_group()
fast.set_checks(False)  # no agreement round trip: same results
t = ct.tensor(contrib[rank])
dist.all_reduce(t, group=fast)
check(np.allclose(t.numpy(), np.sum(contrib, axis=0)), "all_reduce on a group without checks")
fast.set_checks(True)

dist.barrier()
if size >= 2:  # every rank must raise when one brings a different shape, not hang
    t = ct.ones(3 if rank == 0 else 4)
    try:
        dist.all_reduce(t)
        check(False, "mismatched shapes raised")
    except RuntimeError as e:
        check("all_reduce" in str(e), "mismatch message names the collective: %s" % e)
try:
    dist.all_reduce(ct.ones(2, requires_grad=True))
    check(False, "a tensor that requires grad is refused")
except Exception as e:  # noqa: BLE001
    check(True, str(e))
dist.destroy_process_group()
check(not dist.is_initialized(), "destroyed")
print("rank %d: %d checks passed" % (rank, checks))
sys.stdout.flush()

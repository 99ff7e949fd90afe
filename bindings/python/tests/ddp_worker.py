"""ddp_worker.py - run by test_ddp.py under `mpirun -np N`: ctensor.nn.parallel.DistributedDataParallel with each
rank on its shard of a fixed batch (sliced, no sampler) against the same model trained in one process over the
whole batch, in ctensor and in torch 1.13; no_sync, unused parameters, buffers, state_dict and the errors.
Prints "rank R: N checks passed"."""
import gc
import sys

import numpy as np
import torch

import ctensor as ct
import ctensor.distributed as dist
import ctensor.nn as nn
from ctensor.nn.parallel import DistributedDataParallel as DDP

checks = 0


def check(cond, what):
    global checks
    if not cond:
        raise AssertionError("rank %d: %s" % (dist.get_rank(), what))
    checks += 1


def expect_raise(exc, part, fn, what):
    try:
        fn()
    except exc as e:
        check(part in str(e), "%s: %r names %r" % (what, str(e), part))
        return
    check(False, "%s raised %s" % (what, exc.__name__))


dist.init_process_group("mpi", timeout=60.0)
rank, size = dist.get_rank(), dist.get_world_size()
B = 24
X = np.sin(np.arange(B * 5, dtype=np.float64).reshape(B, 5) * 0.37)
Y = np.cos(np.arange(B * 3, dtype=np.float64).reshape(B, 3) * 0.21)
shard = slice(rank * B // size, (rank + 1) * B // size)


class WithUnused(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.unused = nn.Linear(3, 2).double()  # never called by forward

    def forward(self, x):
        return self.net(x)


def mlp(seed, dtype=ct.float64, extra=False):
    ct.manual_seed(seed)
    m = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3))
    m = m.double() if dtype == ct.float64 else m
    return WithUnused(m) if extra else m


def mse(out, y):
    return ((out - y) ** 2).mean()


def train(model, x, y, steps=20, lr=0.1):
    opt = ct.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        mse(model(x), y).backward()
        opt.step()


def params_np(model):
    return [p.detach().numpy().astype(np.float64) for p in model.parameters()]


# ---- 20 SGD steps: DDP over shards == one process over the whole batch (ctensor and torch) ----
for dtype, tol in ((ct.float64, 1e-12), (ct.float32, 1e-5)):
    npdt = np.float64 if dtype == ct.float64 else np.float32
    ref = mlp(0, dtype)
    init = params_np(ref)
    model = mlp(100 + rank, dtype)  # every rank starts elsewhere: DDP broadcasts rank 0's values
    ddp = DDP(model, bucket_cap_mb=1e-6 if dtype == ct.float32 else 25)
    if rank == 0:
        same_start = all(np.array_equal(a, b) for a, b in zip(params_np(model), params_np(mlp(100, dtype))))
        check(same_start, "rank 0 keeps its values")
    bcast = mlp(100, dtype)
    check(all(np.array_equal(a, b) for a, b in zip(params_np(model), params_np(bcast))),
          "parameters broadcast from rank 0")
    check(ddp.bucket_count == (4 if dtype == ct.float32 else 1), "bucket_cap_mb sets the buckets (%d)" % ddp.bucket_count)
    ref_ddp_start = mlp(100, dtype)
    train(ref_ddp_start, ct.tensor(X.astype(npdt)), ct.tensor(Y.astype(npdt)))
    train(ddp, ct.tensor(X[shard].astype(npdt)), ct.tensor(Y[shard].astype(npdt)))
    diff = max(np.abs(a - b).max() for a, b in zip(params_np(model), params_np(ref_ddp_start)))
    check(diff <= tol, "%s: DDP == single process over the whole batch (max diff %g)" % (dtype, diff))
    moved = max(np.abs(a - b).max() for a, b in zip(params_np(ref_ddp_start), params_np(bcast)))
    check(moved > 1e-2, "training moved the parameters (%g)" % moved)
    if dtype == ct.float64:  # torch 1.13 as a second reference, from the same start
        tm = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.ReLU(), torch.nn.Linear(7, 3)).double()
        with torch.no_grad():
            for tp, v in zip(tm.parameters(), params_np(bcast)):
                tp.copy_(torch.from_numpy(v))
        topt = torch.optim.SGD(tm.parameters(), lr=0.1)
        for _ in range(20):
            topt.zero_grad()
            torch.nn.functional.mse_loss(tm(torch.from_numpy(X)), torch.from_numpy(Y)).backward()
            topt.step()
        tdiff = max(np.abs(a - tp.detach().numpy()).max() for a, tp in zip(params_np(model), tm.parameters()))
        check(tdiff <= 1e-10, "DDP == torch 1.13 single process (max diff %g)" % tdiff)
    sd = ddp.state_dict()
    check(list(sd) == ["module." + k for k in model.state_dict()], "state_dict keys have the module. prefix")
    plain = mlp(7, dtype)
    plain.load_state_dict(ddp.module.state_dict())
    check(all(np.array_equal(a, b) for a, b in zip(params_np(plain), params_np(model))), "module.state_dict loads")
    del ddp, model


def local_grads(rows_list):
    """Each rank's gradients of the sum of its micro-batch losses, averaged over the ranks (no DDP)."""
    total = None
    for r in range(size):
        m = mlp(0)
        for rows in rows_list(r):
            mse(m(ct.tensor(X[rows])), ct.tensor(Y[rows])).backward()
        g = [p.grad.numpy() for p in m.parameters()]
        total = g if total is None else [a + b for a, b in zip(total, g)]
    return [a / size for a in total]


def grads_match(model, want, what):
    got = [p.grad.numpy() for p in model.parameters()]
    diff = max(np.abs(a - b).max() for a, b in zip(got, want))
    check(diff < 1e-12, "%s (max diff %g)" % (what, diff))


# ---- no_sync: two local backwards, then one that averages all three ----
n = B // size
micro = lambda r: [slice(r * n + k * (n // 3), r * n + (k + 1) * (n // 3)) for k in range(3)]  # noqa: E731
model = mlp(0)
ddp = DDP(model)
with ddp.no_sync():
    for rows in micro(rank)[:2]:
        mse(ddp(ct.tensor(X[rows])), ct.tensor(Y[rows])).backward()
rows = micro(rank)[2]
mse(ddp(ct.tensor(X[rows])), ct.tensor(Y[rows])).backward()
grads_match(model, local_grads(micro), "no_sync accumulates, the next backward averages")
del ddp, model

# ---- unused parameters ----
whole = lambda r: [slice(r * n, (r + 1) * n)]  # noqa: E731
want = local_grads(whole)
model = mlp(0, extra=True)
ddp = DDP(model, find_unused_parameters=True)
mse(ddp(ct.tensor(X[shard])), ct.tensor(Y[shard])).backward()
got = [p.grad.numpy() for name, p in model.named_parameters() if not name.startswith("unused")]
check(max(np.abs(a - b).max() for a, b in zip(got, want)) < 1e-12,
      "find_unused_parameters: the reduction completes in backward")
check(model.unused.weight.grad is None, "a parameter unused on every rank keeps grad None (as torch)")


class Partly(nn.Module):
    """Rank 0 also uses the second layer; the others do not."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(5, 3).double()
        self.b = nn.Linear(5, 3).double()

    def forward(self, x):
        out = self.a(x)
        return out + self.b(x) if dist.get_rank() == 0 else out


ct.manual_seed(3)
part = Partly()
ddp = DDP(part, find_unused_parameters=True, bucket_cap_mb=1e-5)
x0 = ct.tensor(X[shard])
mse(ddp(x0), ct.tensor(Y[shard])).backward()
gb = part.b.weight.grad
check(gb is not None, "a parameter used on one rank gets a grad on every rank")
ct.manual_seed(3)
solo = Partly()
if rank == 0:
    mse(solo(x0), ct.tensor(Y[shard])).backward()
    mine = solo.b.weight.grad.numpy()
else:
    mine = np.zeros((3, 5))
total = ct.tensor(mine)
dist.all_reduce(total)
check(np.abs(gb.numpy() - total.numpy() / size).max() < 1e-12, "its grad is rank 0's divided by the world size")
del ddp, part, solo, gb

model = mlp(0, extra=True)
ddp = DDP(model)  # find_unused_parameters=False: the reduction stays open until finish_reduction / next forward
mse(ddp(ct.tensor(X[shard])), ct.tensor(Y[shard])).backward()
ddp.finish_reduction()
got = [p.grad.numpy() for name, p in model.named_parameters() if not name.startswith("unused")]
check(max(np.abs(a - b).max() for a, b in zip(got, want)) < 1e-12, "finish_reduction averages the used params")
check(np.array_equal(model.unused.weight.grad.numpy(), np.zeros((2, 3))), "finish counts the unused as zero")
mse(ddp(ct.tensor(X[shard])), ct.tensor(Y[shard])).backward()  # left open again: the next forward finishes it
ddp(ct.tensor(X[shard]))
del ddp, model

# ---- buffers follow rank 0 before each forward ----


class WithBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(5, 3).double()
        self.register_buffer("scale", ct.full([3], float(rank + 1), dtype=ct.float64))

    def forward(self, x):
        return self.lin(x) * self.scale


wb = WithBuffer()
ddp = DDP(wb)
check(wb.scale.tolist() == [1.0] * 3, "buffers broadcast at construction")
with ct.no_grad():
    wb.scale.fill_(float(rank + 5))
ddp(ct.tensor(X[shard]))
check(wb.scale.tolist() == [5.0] * 3, "buffers broadcast from rank 0 before the forward")
with ct.no_grad():
    wb.scale.fill_(float(rank + 9))
ddp2 = DDP(wb, broadcast_buffers=False)
check(wb.scale.tolist() == [9.0] * 3, "construction syncs the buffers even without broadcast_buffers")
with ct.no_grad():
    wb.scale.fill_(float(rank + 9))
ddp2(ct.tensor(X[shard]))
check(wb.scale.tolist() == [float(rank + 9)] * 3, "broadcast_buffers=False leaves them alone in forward")
del ddp, ddp2, wb

# ---- errors ----
model = mlp(0)
expect_raise(ValueError, "device_ids", lambda: DDP(model, device_ids=[0]), "device_ids")
expect_raise(RuntimeError, "doesn't have any parameter", lambda: DDP(nn.ReLU()), "no parameters")
expect_raise(TypeError, "Module", lambda: DDP(lambda x: x), "not a module")
if size > 1:
    other = nn.Linear(5, 3 if rank == 0 else 4).double()
    expect_raise(RuntimeError, "disagree", lambda: DDP(other), "a model that differs between ranks")
ddp = DDP(model)
out = mse(ddp(ct.tensor(X[shard])), ct.tensor(Y[shard]))
expect_raise(RuntimeError, "create_graph", lambda: out.backward(create_graph=True), "create_graph backward")
del out, ddp, model


def train_and_drop():
    model = mlp(0, extra=True)
    ddp = DDP(model, find_unused_parameters=True, bucket_cap_mb=1e-6)
    train(ddp, ct.tensor(X[shard]), ct.tensor(Y[shard]), steps=3)
    mse(ddp(ct.tensor(X[shard])), ct.tensor(Y[shard])).backward()


gc.collect()
handles0 = ct._C.live_handles()
train_and_drop()
gc.collect()
check(ct._C.live_handles() == handles0, "no leaked handles (%d vs %d)" % (ct._C.live_handles(), handles0))
dist.destroy_process_group()
print("rank %d: %d checks passed" % (rank, checks))
sys.stdout.flush()

"""ddp_cuda_worker.py - run by test_ddp.py under `mpirun -np N` with a CUDA backend (the emulated one in CI):
DistributedDataParallel of a module on cuda:0 with torch 1.13's device_ids/output_device rules - CPU inputs moved
to the device by the forward, gradients averaged through the device collectives (NCCL), the result equal to one
process over the whole batch on the CPU - and the ValueErrors for device arguments that do not fit the module.
Prints "rank R: N checks passed"."""
import sys

import numpy as np

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


def expect_value_error(part, fn, what):
    try:
        fn()
    except ValueError as e:
        check(part in str(e), "%s: %r names %r" % (what, str(e), part))
        return
    check(False, "%s raised ValueError" % what)


def mlp(seed):
    ct.manual_seed(seed)
    return nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3)).double()


def train(model, x, y, steps=10):
    opt = ct.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        out = model(x)
        ((out - y.to(out.device)) ** 2).mean().backward()
        opt.step()


dist.init_process_group("mpi", timeout=60.0)
rank, size = dist.get_rank(), dist.get_world_size()
check(ct.cuda.is_available(), "a CUDA backend is loaded")
B = 16
X = np.sin(np.arange(B * 5, dtype=np.float64).reshape(B, 5) * 0.37)
Y = np.cos(np.arange(B * 3, dtype=np.float64).reshape(B, 3) * 0.21)
shard = slice(rank * B // size, (rank + 1) * B // size)

ref = mlp(0)
train(ref, ct.tensor(X), ct.tensor(Y))
model = mlp(0).to("cuda:0")
ddp = DDP(model, device_ids=[0], output_device="cuda:0")
check(ddp.device_ids == [ct.device("cuda:0")] and ddp.output_device == ct.device("cuda:0"),
      "device_ids / output_device normalised (%s, %s)" % (ddp.device_ids, ddp.output_device))
out = ddp(ct.tensor(X[shard]))  # a CPU input: the forward moves it to cuda:0 (torch's to_kwargs)
check(out.device == ct.device("cuda:0"), "the output is on the module's device (%s)" % out.device)
train(ddp, ct.tensor(X[shard]), ct.tensor(Y[shard]))
diff = max(np.abs(a.detach().to("cpu").numpy() - b.detach().numpy()).max()
           for a, b in zip(model.parameters(), ref.parameters()))
check(diff <= 1e-12, "CUDA DDP over shards == one CPU process over the whole batch (max diff %g)" % diff)
check(DDP(mlp(1).to("cuda:0"), device_ids=["cuda:0"]).device_ids == [ct.device("cuda:0")], "device_ids as strings")

expect_value_error("single element", lambda: DDP(mlp(1).to("cuda:0"), device_ids=[0, 0]), "two device_ids")
expect_value_error("must name the module's device", lambda: DDP(mlp(1).to("cuda:0"), device_ids=[1]),
                   "device_ids of another device")
expect_value_error("must name the module's device",
                   lambda: DDP(mlp(1).to("cuda:0"), device_ids=[0], output_device=3), "another output_device")
expect_value_error("CPU modules", lambda: DDP(mlp(1), device_ids=[0]), "device_ids for a CPU module")
expect_value_error("CPU modules", lambda: DDP(mlp(1), output_device=0), "output_device for a CPU module")
dist.destroy_process_group()
print("rank %d: %d checks passed" % (rank, checks))
sys.stdout.flush()

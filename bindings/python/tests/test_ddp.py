"""ctensor.nn.parallel.DistributedDataParallel under real mpirun processes (2 and 4 ranks): ddp_worker.py trains
with each rank on its shard against one process over the whole batch (ctensor and torch 1.13) and checks no_sync,
unused parameters, buffers, state_dict and the errors on every rank; here each rank must report its checks passed.
Skipped (with the reason) where Open MPI's mpirun is missing."""
import os
import shutil
import subprocess
import sys

import pytest

import ctensor as ct
import ctensor.distributed as dist
import ctensor.nn as nn
from ctensor.nn.parallel import DistributedDataParallel

MPIRUN = shutil.which("mpirun")


@pytest.mark.skipif(MPIRUN is None, reason="Open MPI's mpirun is not installed")
@pytest.mark.parametrize("ranks", [2, 4])
def test_ddp_under_mpirun(ranks):
    assert dist.is_available()
    worker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ddp_worker.py")
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(ranks), sys.executable, worker]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    for r in range(ranks):
        assert "rank %d: " % r in out, out[-4000:]
    assert out.count("checks passed") == ranks, out[-4000:]


@pytest.mark.skipif(MPIRUN is None, reason="Open MPI's mpirun is not installed")
@pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA backend (run_tests.sh runs this again on the "
                    "emulated CUDA backend)")
def test_ddp_cuda_device_ids_under_mpirun():
    worker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ddp_cuda_worker.py")
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2", sys.executable, worker]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    assert out.count("checks passed") == 2, out[-4000:]


def test_ddp_before_init_raises_like_torch():
    with pytest.raises(RuntimeError, match="init_process_group"):
        DistributedDataParallel(nn.Linear(2, 2))

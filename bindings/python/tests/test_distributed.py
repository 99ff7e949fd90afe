"""ctensor.distributed under real mpirun processes (2 and 4 ranks on this machine): dist_worker.py checks every
collective on every rank; here each rank must report its checks passed. Skipped (with the reason) where Open MPI's
mpirun or ctensor's MPI module is missing."""
import os
import shutil
import subprocess
import sys

import pytest

import ctensor.distributed as dist

MPIRUN = shutil.which("mpirun")


@pytest.mark.skipif(MPIRUN is None, reason="Open MPI's mpirun is not installed")
@pytest.mark.parametrize("ranks", [2, 4])
def test_collectives_under_mpirun(ranks):
    assert dist.is_available()
    worker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dist_worker.py")
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(ranks), sys.executable, worker]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    for r in range(ranks):
        assert "rank %d: " % r in out and "checks passed" in out, out[-4000:]


def test_calls_before_init_raise_like_torch():
    with pytest.raises(RuntimeError, match="init_process_group"):
        dist.get_rank()
    with pytest.raises(ValueError, match="backend"):
        dist.init_process_group("gloo")

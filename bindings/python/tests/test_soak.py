"""Runs the Python soak test (tests/soak/soak_mlp.py: 10^4 training steps, RSS and live handles sampled and
required to plateau) in a fresh interpreter and shows its figures; set CTENSOR_SOAK_STEPS to change the length."""
import os
import subprocess
import sys

SCRIPT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "soak", "soak_mlp.py"))


def test_soak_rss_and_handles_plateau():
    steps = os.environ.get("CTENSOR_SOAK_STEPS", "10000")
    r = subprocess.run([sys.executable, SCRIPT, steps], capture_output=True, text=True, timeout=600)
    print(r.stdout)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "RSS plateau" in r.stdout

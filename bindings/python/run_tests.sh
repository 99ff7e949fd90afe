#!/usr/bin/env bash
# run_tests.sh - builds and installs the ctensor Python package into a virtualenv made from Debian's python3
# with --system-site-packages (so Debian's NumPy and PyTorch are visible), then runs the pytest suite.
# Idempotent: reuses the venv and the CMake build under bindings/python/build/. Extra arguments go to pytest.
# Environment: CTENSOR_VENV (default <repo>/.venv), CTENSOR_PYTHON (default /usr/bin/python3),
# CTENSOR_LIB_DIR (use an already-built libctensor.so.1 instead of building it),
# CTENSOR_REQUIRE_ALL=1 (fail instead of skip when the library lacks an op family).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
VENV=${CTENSOR_VENV:-$REPO/.venv}
PYTHON=${CTENSOR_PYTHON:-/usr/bin/python3}

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv --system-site-packages "$VENV"
fi
for module in pytest setuptools wheel; do
    "$VENV/bin/python" -c "import $module" 2>/dev/null || "$VENV/bin/pip" install -q "$module"
done
"$VENV/bin/pip" install -q --no-build-isolation "$HERE"

# run from tests/ so that `import ctensor` finds the installed package, not the source tree
cd "$HERE/tests"
exec "$VENV/bin/python" -m pytest -q -rfEs "$@"

#!/usr/bin/env bash
# run_tests.sh - builds and installs the ctensor Python package into a virtualenv made from Debian's python3
# with --system-site-packages (so Debian's NumPy and PyTorch are visible), then runs the pytest suite.
# Idempotent: reuses the venv and the CMake build under bindings/python/build/. Extra arguments go to pytest.
# Environment: CTENSOR_VENV (default <repo>/.venv), CTENSOR_PYTHON (default /usr/bin/python3),
# CTENSOR_LIB_DIR (use an already-built libctensor.so.1 instead of building it),
# CTENSOR_REQUIRE_ALL=1 (fail instead of skip when the library lacks an op family),
# CTENSOR_EMULATED_BACKEND (the emulated CUDA backend module; default: the first of
# $CTENSOR_LIB_DIR/tests/, <repo>/build/tests/ holding libctensor_cuda_emulated.so). When one is found and the
# real CUDA backend is not in use, the CUDA tests (test_cuda.py, test_cuda_linalg.py, test_nn_extras.py, ... -k cuda) run a second time
# against it, so CI executes them without a GPU (the module must be built from the same sources as the library).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
VENV=${CTENSOR_VENV:-$REPO/.venv}
PYTHON=${CTENSOR_PYTHON:-/usr/bin/python3}

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv --system-site-packages "$VENV"
fi
for module in pytest setuptools wheel mypy safetensors; do  # mypy: test_stubs.py type-checks the stubs; safetensors: test_safetensors.py
    "$VENV/bin/python" -c "import $module" 2>/dev/null || "$VENV/bin/pip" install -q "$module"
done
"$VENV/bin/pip" install -q --no-build-isolation "$HERE"

# run from tests/ so that `import ctensor` finds the installed package, not the source tree
cd "$HERE/tests"
"$VENV/bin/python" -m pytest -q -rfEs "$@"

EMULATED=${CTENSOR_EMULATED_BACKEND:-}
if [ -z "$EMULATED" ]; then
    for dir in ${CTENSOR_LIB_DIR:+"$CTENSOR_LIB_DIR/tests"} "$REPO/build/tests"; do
        if [ -f "$dir/libctensor_cuda_emulated.so" ]; then EMULATED="$dir/libctensor_cuda_emulated.so"; break; fi
    done
fi
if [ -n "$EMULATED" ] && [ -z "${CTENSOR_CUDA_BACKEND:-}" ]; then
    # the test files whose CUDA tests run again on the emulated backend
    EMULATED_TESTS="test_cuda.py test_nn_extras.py test_ddp.py test_attention.py test_conv_nd.py test_pool_nd.py test_fold.py test_rnn.py test_embedding_bag.py test_nn_more.py test_interpolate.py test_norms.py test_cuda_half.py test_cuda_half_native.py test_cuda_linalg.py"
    echo "== the CUDA tests of $EMULATED_TESTS again on the emulated CUDA backend: $EMULATED"
    CTENSOR_CUDA_BACKEND="$EMULATED" CTENSOR_EMULATED_CUDA_MEMORY=${CTENSOR_EMULATED_CUDA_MEMORY:-268435456} \
        "$VENV/bin/python" -m pytest -q -rfEs $EMULATED_TESTS -k cuda
else
    echo "== no emulated CUDA backend found (build the ctensor_cuda_emulated target): CUDA tests ran once"
fi

#!/usr/bin/env bash
# tests/gpu/run_gpu_checks.sh - for a machine with an NVIDIA GPU: builds with the CUDA backend required, checks
# that CUDA is really usable, runs the whole suite (whose GPU section must run, not skip), optionally under
# compute-sanitizer, and then the GPU benchmark (its last section compares float16 / bfloat16 with float32). Usage:
#   tests/gpu/run_gpu_checks.sh [bench_cuda arguments: elements matmul-size iterations]
# Environment: BUILD (build dir, default build-gpu), CUDA_ARCH (CMAKE_CUDA_ARCHITECTURES, default native),
# SANITIZE=1 to run the GPU tests under compute-sanitizer memcheck.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build-gpu}"
ARCH="${CUDA_ARCH:-native}"

step() { printf '\n==== %s ====\n' "$*"; }

step "driver"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv

step "build with the CUDA backend (architectures: $ARCH)"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCTENSOR_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$ARCH"
cmake --build "$BUILD" -j"$(nproc)"

step "CUDA is usable through libctensor"
probe="$("$BUILD/tests/ctensor_cuda_probe")"
echo "$probe"
case "$probe" in
  available*) ;;
  *) echo "CUDA is not usable here; fix the reason above first" >&2; exit 1 ;;
esac

step "all test suites (ctest)"
ctest --test-dir "$BUILD" --output-on-failure

step "the GPU section ran on the device, CudaGpu.Half* (native half kernels, cuBLAS GemmEx) included (no skips)"
log="$("$BUILD/tests/ctensor_tests" --gtest_filter='CudaGpu.*' 2>&1)" || { echo "$log"; exit 1; }
echo "$log" | tail -n 3
if [[ "$log" == *"[  SKIPPED ]"* ]]; then
  echo "$log"
  echo "some CudaGpu tests were skipped on a machine with a GPU" >&2
  exit 1
fi

step "torch.linalg on cuSOLVER: CudaGpu.Linalg* against the CPU, then test_cuda_linalg.py against torch (C++: no skips)"
log="$("$BUILD/tests/ctensor_tests" --gtest_filter='CudaGpu.Linalg*:LinalgLapack.CudaTensors*' 2>&1)" || { echo "$log"; exit 1; }
echo "$log" | tail -n 3
if [[ "$log" == *"[  SKIPPED ]"* ]]; then
  echo "$log"
  echo "the cuSOLVER linalg tests were skipped on a machine with a GPU" >&2
  exit 1
fi
CTENSOR_LIB_DIR="$(cd "$BUILD" && pwd)" bash bindings/python/run_tests.sh test_cuda_linalg.py -rs

step "recurrent layers on the device: CudaGpu.Rnn* against the CPU (no skips), then test_rnn.py's CUDA case"
log="$("$BUILD/tests/ctensor_tests" --gtest_filter='CudaGpu.Rnn*' 2>&1)" || { echo "$log"; exit 1; }
echo "$log" | tail -n 3
if [[ "$log" == *"[  SKIPPED ]"* ]]; then
  echo "$log"
  echo "the CUDA RNN tests were skipped on a machine with a GPU" >&2
  exit 1
fi
CTENSOR_LIB_DIR="$(cd "$BUILD" && pwd)" bash bindings/python/run_tests.sh test_rnn.py -k cuda -rs

step "tensors of more than 2^31 elements on the device (no skips)"
log="$("$BUILD/tests/ctensor_tests" --gtest_filter='*BigTensors.*/cuda' 2>&1)" || { echo "$log"; exit 1; }
echo "$log" | grep -E '^\[ big|PASSED|FAILED' || true
if [[ "$log" == *"[  SKIPPED ]"* ]]; then
  echo "$log"
  echo "the CUDA big-tensor tests were skipped on a machine with a GPU" >&2
  exit 1
fi

step "collectives on CUDA tensors through NCCL (one rank per GPU)"
if [[ -x "$BUILD/tests/test_collectives" ]] && command -v mpirun >/dev/null; then
  gpus="$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)"
  mpirun --allow-run-as-root --oversubscribe -np "$gpus" "$BUILD/tests/test_collectives" --cuda
else
  echo "test_collectives or mpirun is missing: build with Open MPI installed (scripts/install-deps.sh all)" >&2
  exit 1
fi

if [[ "${SANITIZE:-0}" == 1 ]]; then
  step "compute-sanitizer memcheck on the GPU tests (CUDA API errors are left to the tests: OutOfMemoryIsAStatus makes one)"
  compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 1 "$BUILD/tests/ctensor_tests" --gtest_filter='CudaGpu.*'
fi

step "benchmark"
"$BUILD/bench/bench_cuda" "$@"

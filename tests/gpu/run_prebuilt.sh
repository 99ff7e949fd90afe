#!/usr/bin/env bash
# tests/gpu/run_prebuilt.sh - on a bare GPU machine (CUDA toolkit, python3 with torch, no Debian packages of ours),
# from the repository root: unpacks .gpu/pack.tar.xz (tests/gpu/pack_prebuilt.sh) into build-gpu/ and runs the GPU
# checks of tests/gpu/run_gpu_checks.sh against the real device: the CudaGpu suite (a skip is a failure), the whole
# gtest suite with the real backend loaded, the big-tensor tests, bench_cuda, the Python CUDA tests against the
# machine's torch, and compute-sanitizer memcheck. Each step has a time budget; logs go to $OUT (default /tmp/gpu-out).
# Environment: DEADLINE (seconds for everything, default 480), CHECKS (the steps to run, default all of
# "gpu full big bench py sanitizer").
set -u
R=$PWD
OUT="${OUT:-/tmp/gpu-out}"
DEADLINE="${DEADLINE:-480}"
CHECKS=" ${CHECKS:-gpu full big bench py sanitizer} "
want() { [[ "$CHECKS" == *" $1 "* ]]; }
mkdir -p "$OUT"
left() { echo $((DEADLINE - SECONDS)); }
budget() {  # budget N cmd...: runs cmd for at most N seconds and never past the deadline
  local n=$1 l=$(( $(left) - 5 )); shift
  (( l < n )) && n=$l
  (( n < 5 )) && { echo "SKIPPED (no time left): $*"; return 99; }
  timeout "$n" "$@"
}
step() { printf '\n==== %s (t=%ss)\n' "$*" "$SECONDS"; }
tar xJf .gpu/pack.tar.xz
B=$R/build-gpu
export LD_LIBRARY_PATH=$B:$B/libs:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}

step "driver, libraries, memory policy"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
echo "vm.overcommit_memory=$(cat /proc/sys/vm/overcommit_memory)"
for lib in $(ldd "$B/libctensor_cuda.so.1" | awk '/not found/ {print $1}' | sort -u); do
  d=$(find /usr/local /opt /usr/lib -name "$lib" 2>/dev/null | head -1)
  echo "$lib -> ${d:-MISSING}"
  [ -n "$d" ] && export LD_LIBRARY_PATH=$(dirname "$d"):$LD_LIBRARY_PATH
done
step probe
"$B/tests/ctensor_cuda_probe"

cd "$B/tests"
if want gpu; then
step "CudaGpu.* and LinalgLapack.CudaTensors* (no skips)"
budget 150 ./ctensor_tests --gtest_filter='CudaGpu.*:LinalgLapack.CudaTensors*' > "$OUT/cudagpu.log" 2>&1; echo "rc=$?"
grep -E '^\[  (FAILED|SKIPPED|PASSED) |Failure' "$OUT/cudagpu.log" | head -60
fi
if want full; then
step "the whole gtest suite with the real backend (CudaLoader needs the build tree's paths: left out)"
budget 200 ./ctensor_tests --gtest_brief=1 --gtest_filter='-DeepGraphs.*:*BigTensors.*:CudaGpu.*:CudaLoader.*' \
  > "$OUT/full.log" 2>&1; echo "rc=$?"
grep -E '^\[  (FAILED|PASSED) |tests ran|Failure' "$OUT/full.log" | head -40
fi
if want big; then
step "tensors of more than 2^31 elements on the device"
budget 90 ./ctensor_tests --gtest_filter='*BigTensors.*/cuda' 2>&1 | grep -E '^\[ big|OK \]|FAILED|SKIPPED'
fi
if want bench; then
step bench_cuda
budget 120 "$B/bench/bench_cuda" 2>&1 | tee "$OUT/bench.log"
fi
if want py; then
step "Python: the extension against the packed library, then the CUDA tests against this machine's torch"
cd "$R/bindings/python"
CFLAGS="-I$B/include" CTENSOR_LIB_DIR=$B budget 150 python3 setup.py -q build_ext --inplace -j 16 \
  > "$OUT/pybuild.log" 2>&1; echo "rc=$?"; tail -3 "$OUT/pybuild.log"
cd tests
CTENSOR_CUDA_BACKEND=$B/libctensor_cuda.so.1 PYTHONPATH=$R/bindings/python budget 200 python3 -m pytest -q -rfE \
  -p no:cacheprovider test_cuda.py test_nn_extras.py test_attention.py test_conv_nd.py test_pool_nd.py test_fold.py \
  test_rnn.py test_embedding_bag.py test_nn_more.py test_interpolate.py test_norms.py test_cuda_half.py \
  test_cuda_half_native.py test_cuda_linalg.py -k cuda > "$OUT/py.log" 2>&1; echo "rc=$?"
grep -E ' passed| failed|^FAILED|^ERROR' "$OUT/py.log" | head -40
fi
if want sanitizer; then
step "compute-sanitizer memcheck on CudaGpu.* (API errors are the OOM test's own)"
cd "$B/tests"
budget 200 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 1 ./ctensor_tests \
  --gtest_filter='CudaGpu.*' > "$OUT/sanitizer.log" 2>&1; echo "rc=$?"
grep -E 'ERROR SUMMARY|Invalid|^\[  (PASSED|FAILED) ' "$OUT/sanitizer.log" | head -20
fi
step done

#!/usr/bin/env bash
# test-tsan.sh - builds the library, the thread stress test and the autograd hardening tests with
# ThreadSanitizer in build-tsan/ (or $1) and runs the ctests whose names contain "tsan"; any report fails.
# CTENSOR_CHECK_PHASE=build: build only.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-tsan}"
jobs="$(nproc)"
start=$SECONDS
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# -O1 and -g1 (line tables: readable reports) keep the build and the instrumented run short; only the targets the
# tsan tests need are built.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCTENSOR_TSAN=ON -DCTENSOR_WITH_CUDA=OFF -DCTENSOR_BUILD_EXAMPLES=OFF \
  -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" "${launcher[@]}"
cmake --build "$build" -j"$jobs" --target stress_threads ctensor_hardening_tests
echo "tsan: build took $((SECONDS - start)) s"
if [ "${CTENSOR_CHECK_PHASE:-all}" = build ]; then exit 0; fi  # test-all.sh builds this tree in the background first

# halt_on_error: the first report fails the test (TSan exits with 66). No suppressions: the library starts no
# OpenMP team (OpenBLAS runs single-threaded on our own pool's threads), so libgomp never runs uninstrumented
# threads that TSan could misread.
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}"
ctest --test-dir "$build" -R tsan --output-on-failure

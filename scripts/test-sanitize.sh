#!/usr/bin/env bash
# test-sanitize.sh - builds ctensor with AddressSanitizer + UndefinedBehaviorSanitizer in its own build dir
# (build-sanitize/, or $1) and runs the whole ctest suite there with leak detection on. CTENSOR_CHECK_PHASE=build:
# build only.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-sanitize}"
jobs="$(nproc)"
start=$SECONDS

# -O1 keeps kernels fast enough under ASan; full -g (not -g1): this tree also runs abi_check_baseline, and abidiff
# needs the types. _GLIBCXX_ASSERTIONS adds bounds checks to std::vector::operator[] and friends (no ABI change).
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCTENSOR_SANITIZE=ON -DCTENSOR_WITH_CUDA=OFF -DCTENSOR_BUILD_EXAMPLES=OFF \
  -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1 -D_GLIBCXX_ASSERTIONS"
cmake --build "$build" -j"$jobs"
echo "sanitize: build took $((SECONDS - start)) s"
if [ "${CTENSOR_CHECK_PHASE:-all}" = build ]; then exit 0; fi  # test-all.sh builds this tree in the background first

supp="$PWD/tests/lsan.supp"
# allocator_may_return_null: tests ask for absurd sizes on purpose and expect CT_ERR_OUT_OF_MEMORY, which needs
# malloc to return NULL as it does without ASan (ASan's default is to abort on such requests).
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Two OpenMP threads keep the parallel paths exercised on small machines.
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}"
# Two at a time, as the main ctest (test-all.sh): the suite and its emulated-CUDA rerun take minutes each here.
ctest --test-dir "$build" --output-on-failure -j"$jobs"

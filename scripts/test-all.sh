#!/usr/bin/env bash
# The README's test command: installs what it needs, builds, and runs every test suite that exists
# (C++ GoogleTest, C client and header checks, sanitizers, fuzzing, Python, Rust, Java, Julia, the conformance suite
# in every language, cross-language models, ABI check). Fails on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="$(nproc)"

step() { printf '\n==== %s (%d s in) ====\n' "$*" "$SECONDS"; }

step "dependencies"
bash scripts/install-deps.sh all

# Note [CI time]: CI gives this script 90 minutes on 2 cores and it should stay under 45. The library is compiled
# four times (this build, ASan+UBSan, TSan, the fuzz build), so compile time is most of it. What keeps it down:
# the instrumented trees build in the background while this build's tests run on the other core (below);
# test code compiles at -O0 (tests/CMakeLists.txt); the TSan and fuzz builds use line tables only (-g1);
# and this build compiles the CUDA backend for one virtual architecture (PTX for compute_80, which the driver
# compiles for any newer GPU at load), which skips ptxas and the second architecture: unary_reduce.cu alone took
# 818 s for "80;90" (SASS + PTX each) and 179 s for 80-virtual. A machine with a GPU builds for that GPU instead
# ("native": no JIT at load); CTENSOR_CUDA_ARCHITECTURES overrides both.
cuda_archs=80-virtual
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then cuda_archs=native; fi
step "build (RelWithDebInfo)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CUDA_ARCHITECTURES="${CTENSOR_CUDA_ARCHITECTURES:-$cuda_archs}"
cmake --build build -j"$JOBS"

# The three instrumented trees (ASan+UBSan, TSan, fuzz) build in the background at low priority while the tests of
# the build above run: those use about one core, so the builds take the rest (Note [CI time]). Their tests run
# after the others, from the same scripts (a second configure and build of a built tree does nothing).
instrumented_log="$PWD/build/instrumented-builds.log"
setsid bash -c 'export CTENSOR_CHECK_PHASE=build
  nice -n 10 bash scripts/test-sanitize.sh && nice -n 10 bash scripts/test-tsan.sh && nice -n 10 bash scripts/test-fuzz.sh' \
  > "$instrumented_log" 2>&1 &
instrumented_pid=$!
trap 'kill -- -"$instrumented_pid" 2>/dev/null || true' EXIT  # a failing step stops the builds too

step "C++ and C test suites (ctest)"
# Two at a time: the two longest (big_tensors_emulated_cuda, conformance_julia: minutes each, one core each) overlap.
# Tests that need more cores say so (PROCESSORS) and tests that need the host's memory share a RESOURCE_LOCK.
ctest --test-dir build --output-on-failure -j"$JOBS"

if [ -f abi/check_abi.sh ]; then
  step "ABI check against the committed baseline"
  bash abi/check_abi.sh build
fi

if [ -f bindings/python/run_tests.sh ]; then
  step "Python package"
  CTENSOR_LIB_DIR="$PWD/build" CTENSOR_REQUIRE_ALL=1 bash bindings/python/run_tests.sh
fi

if [ -f tests/conformance/run_python.py ]; then
  step "conformance suite through Python (C, Rust, Java and Julia ran in ctest: conformance_*), and its pass table"
  CTENSOR_LIB_DIR="$PWD/build" CONFORMANCE_RESULTS_DIR="$PWD/build/conformance" \
    "${CTENSOR_VENV:-$PWD/.venv}/bin/python" tests/conformance/run_python.py
  python3 tests/conformance/pass_table.py build/conformance --check-readme
fi

if [ -f bindings/rust/run_tests.sh ]; then
  step "Rust crates"
  CTENSOR_LIB_DIR="$PWD/build" bash bindings/rust/run_tests.sh
fi

if [ -f bindings/java/run_tests.sh ]; then
  step "Java library"
  CTENSOR_LIB_DIR="$PWD/build" bash bindings/java/run_tests.sh
fi

if [ -f bindings/julia/run_tests.sh ]; then
  step "Julia package"
  CTENSOR_LIB_DIR="$PWD/build" bash bindings/julia/run_tests.sh
fi

if [ -f tests/cross_language/run.sh ]; then
  step "cross-language models (safetensors: trained in Python and Rust, checked in C, Rust, Java, Julia, Python)"
  CTENSOR_LIB_DIR="$PWD/build" bash tests/cross_language/run.sh
fi

step "the instrumented builds (ASan+UBSan, TSan, fuzz), started after the main build"
if ! wait "$instrumented_pid"; then
  tail -n 200 "$instrumented_log"
  echo "an instrumented build failed; its whole log: $instrumented_log"
  exit 1
fi
grep -E '^(fuzz|tsan|sanitize): build took' "$instrumented_log" || true

step "AddressSanitizer + UndefinedBehaviorSanitizer"
bash scripts/test-sanitize.sh

step "ThreadSanitizer (thread stress test, autograd hardening tests)"
bash scripts/test-tsan.sh

step "coverage-guided fuzzing of the C ABI (libFuzzer, ASan+UBSan; fixed time budget)"
bash scripts/test-fuzz.sh

step "all test suites passed"

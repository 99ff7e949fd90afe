#!/usr/bin/env bash
# test-fuzz.sh - builds the libFuzzer targets (tests/fuzz) with clang, ASan+UBSan and coverage in build-fuzz/ (or
# $1) and runs that build's ctest fuzz_budget (tests/fuzz/run_budget.sh, which documents its settings): the three
# targets side by side for a fixed number of inputs from a fixed seed, then the committed corpus once. Any crash,
# sanitizer report, leak, per-input timeout or contract break fails; so do fewer than 10^6 checked calls in all.
# CTENSOR_CHECK_PHASE=build: build only.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-fuzz}"
targets=(fuzz_ops fuzz_autograd fuzz_safetensors)
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

start=$SECONDS
# -O1 keeps the instrumented code fast enough, -g1 (line tables) keeps stacks readable and the build short; only
# the fuzz targets are built.
# CTENSOR_FUZZ_FLAGS is always set from the environment (empty by default), so a cached suppression such as
# -fno-sanitize=... never outlives the session that set it.
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  -DCTENSOR_FUZZ=ON -DCTENSOR_FUZZ_FLAGS="${CTENSOR_FUZZ_FLAGS:-}" -DCTENSOR_WITH_CUDA=OFF -DCTENSOR_BUILD_EXAMPLES=OFF \
  -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
echo "fuzz: build took $((SECONDS - start)) s"
if [ "${CTENSOR_CHECK_PHASE:-all}" = build ]; then exit 0; fi  # test-all.sh builds this tree in the background first

ctest --test-dir "$build" -R '^fuzz_budget$' --output-on-failure -V
echo "fuzz: build and run took $((SECONDS - start)) s"

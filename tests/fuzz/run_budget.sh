#!/usr/bin/env bash
# run_budget.sh - the ctest fuzz_budget of a CTENSOR_FUZZ build (scripts/test-fuzz.sh builds it and runs that test):
# runs the three libFuzzer targets side by side for a fixed number of inputs each, then replays the committed corpus
# once. Any crash, sanitizer report, leak, per-input timeout or contract break fails; so do fewer than 10^6 checked
# calls in all. The seed is fixed (CTENSOR_FUZZ_SEED, default 20261125), so runs start alike; they are not exactly
# repeatable (the coverage that steers mutation varies a little between runs and builds: a CI run found a bug that
# local runs with the same seed had not), so a finding is fixed, not the seed changed. CTENSOR_FUZZ_SEED=0 picks a
# random seed (for exploring, not for CI).
# Usage: run_budget.sh BUILD_DIR. CTENSOR_FUZZ_SCALE (default 1) multiplies the inputs per target; CTENSOR_FUZZ_SECONDS
# (default 300) caps each target's time; CTENSOR_FUZZ_MIN_CALLS (default 1000000).
set -euo pipefail
cd "$(dirname "$0")/../.."
build="$1"
seconds="${CTENSOR_FUZZ_SECONDS:-300}"
seed="${CTENSOR_FUZZ_SEED:-20261125}"
scale="${CTENSOR_FUZZ_SCALE:-1}"
# Inputs per target: about 150 s each on one core of a 2-core CI machine (about 17, 25 and 1 checked calls per input).
declare -A inputs=([fuzz_ops]=150000 [fuzz_autograd]=120000 [fuzz_safetensors]=250000)
min_calls="${CTENSOR_FUZZ_MIN_CALLS:-1000000}"
targets=(fuzz_ops fuzz_autograd fuzz_safetensors)
start=$SECONDS

# allocator_may_return_null: the targets ask for absurd sizes on purpose and expect CT_ERR_OUT_OF_MEMORY.
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:halt_on_error=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export OMP_NUM_THREADS=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# New inputs go to $work/<target> (the committed corpus is read, never written); crashes are written to $work.
pids=()
for t in "${targets[@]}"; do
  mkdir -p "$work/$t"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  "$build/tests/fuzz/$t" -seed="$seed" -runs=$((${inputs[$t]} * scale)) -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/" "${dict[@]}" "$work/$t" "tests/fuzz/corpus/$t" \
    >"$work/$t.log" 2>&1 &
  pids+=($!)
done
failed=0
total=0
for i in "${!targets[@]}"; do
  t="${targets[$i]}"
  if ! wait "${pids[$i]}"; then
    failed=1
    echo "==== $t FAILED; the end of its log:"
    grep -v -E '^#[0-9]+.*(NEW|REDUCE|pulse)|NEW_FUNC' "$work/$t.log" | tail -60
    for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
      [ -f "$a" ] && echo "input (base64): $(base64 -w0 "$a")"
    done
  fi
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -1)"
  cov="$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -1)"
  calls="$(sed -n 's/^ctensor calls checked: *//p' "$work/$t.log" | tail -1)"
  echo "fuzz: $t: ${runs:-?} inputs, ${calls:-0} ctensor calls checked, ${cov:-cov: ?} edges"
  total=$((total + ${calls:-0}))
done
[ "$failed" = 0 ] || exit 1

# The committed corpus once more, each input run once (the ctest fuzz_corpus_replay_* do the same uninstrumented).
for t in "${targets[@]}"; do
  "$build/tests/fuzz/$t" -runs=0 "tests/fuzz/corpus/$t" >"$work/$t.replay.log" 2>&1 ||
    { tail -40 "$work/$t.replay.log"; echo "fuzz: replaying the corpus of $t failed"; exit 1; }
done
echo "fuzz: $total ctensor calls checked in all (at least $min_calls needed); fuzzing took $((SECONDS - start)) s"
[ "$total" -ge "$min_calls" ] || { echo "fuzz: too few calls: raise CTENSOR_FUZZ_SECONDS"; exit 1; }

#!/usr/bin/env bash
# run.sh - weights that move between languages: a model trained in Python and saved as safetensors must give the
# same logits (max |diff| <= 1e-6) when loaded in C, Rust, Java, Julia and in Python (ctensor and torch); a model
# trained in Rust likewise in Python, C, Java and Julia. Uses libctensor from CTENSOR_LIB_DIR (default
# <repo>/build) and the Python venv of bindings/python/run_tests.sh (CTENSOR_VENV, default <repo>/.venv).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export CTENSOR_LIB_DIR="$(cd "${CTENSOR_LIB_DIR:-$repo/build}" && pwd)"
export LD_LIBRARY_PATH="$CTENSOR_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
python="${CTENSOR_VENV:-$repo/.venv}/bin/python"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# the checkers: C, Rust, Java (the jar of bindings/java), Julia
cc -O1 -I"$repo/include" "$here/check_model.c" -L"$CTENSOR_LIB_DIR" -Wl,-rpath,"$CTENSOR_LIB_DIR" -lctensor -lm \
  -o "$work/check_model"
(cd "$repo/bindings/rust" && cargo build --offline -q --example cross_language)
rust="$repo/bindings/rust/target/debug/examples/cross_language"
java_build="${CTENSOR_JAVA_BUILD:-$repo/bindings/java/build}"
cmake -S "$repo/bindings/java" -B "$java_build" -DCTENSOR_LIB_DIR="$CTENSOR_LIB_DIR" >/dev/null
cmake --build "$java_build" -j"$(nproc)" --target ctensor_java >/dev/null
java_check() {
  java -Dctensor.lib.dir="$CTENSOR_LIB_DIR" -Dctensor.jni.dir="$java_build" -cp "$java_build/ctensor-1.0.0.jar" \
    "$here/CheckModel.java" "$1"
}
source "$repo/bindings/julia/julia_env.sh"
julia_check() { "$JULIA" --startup-file=no -O0 --project="$repo/bindings/julia" "$here/check_model.jl" "$1"; }

check_everywhere() {
  "$work/check_model" "$1"
  "$rust" check "$1"
  java_check "$1"
  julia_check "$1"
  "$python" "$here/model.py" check "$1"
}

echo "== a model trained in Python"
"$python" "$here/model.py" train "$work/python.safetensors"
check_everywhere "$work/python.safetensors"
echo "== a model trained in Rust"
"$rust" train "$work/rust.safetensors"
check_everywhere "$work/rust.safetensors"
echo "cross-language models: every language gives the trainer's logits"

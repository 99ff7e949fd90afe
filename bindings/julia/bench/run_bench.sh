#!/usr/bin/env bash
# run_bench.sh - builds the two C reference programs (bench/tiny_add.c, the C Fashion-MNIST demo) against
# libctensor in CTENSOR_LIB_DIR (default <repo>/build) and runs bench.jl. Usage: bash run_bench.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
export CTENSOR_LIB_DIR="${CTENSOR_LIB_DIR:-$repo/build}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cc -O2 -I"$repo/include" "$repo/bench/tiny_add.c" -L"$CTENSOR_LIB_DIR" -Wl,-rpath,"$CTENSOR_LIB_DIR" -lctensor -o "$out/tiny_add"
cc -O2 -I"$repo/include" "$repo/examples/fashion_mnist/fashion_mnist.c" -L"$CTENSOR_LIB_DIR" -Wl,-rpath,"$CTENSOR_LIB_DIR" \
  -lctensor -lz -lm -o "$out/fashion_mnist"
source "$repo/bindings/julia/julia_env.sh"
"$JULIA" --startup-file=no --project="$repo/bindings/julia" "$here/bench.jl" "$out/tiny_add" "$out/fashion_mnist"

#!/usr/bin/env bash
# run_demo.sh - runs the Julia Fashion-MNIST MLP demo (called by scripts/demo.sh with CTENSOR_LIB_DIR set).
# Usage: bash examples/julia/run_demo.sh [EPOCHS]   (default 5)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export CTENSOR_LIB_DIR="${CTENSOR_LIB_DIR:-$repo/build}"
source "$repo/bindings/julia/julia_env.sh"
exec "$JULIA" --startup-file=no --project="$repo/bindings/julia" "$here/fashion_mnist.jl" "${1:-5}"

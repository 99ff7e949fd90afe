#!/usr/bin/env bash
# run_julia.sh - runs the Julia conformance runner (run_julia.jl) with CTensor.jl from bindings/julia and libctensor
# from CTENSOR_LIB_DIR (default <repo>/build), after julia_env.sh's workarounds for Debian's julia 1.5.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export CTENSOR_LIB_DIR="${CTENSOR_LIB_DIR:-$repo/build}"
source "$repo/bindings/julia/julia_env.sh"
exec "$JULIA" --startup-file=no --project="$repo/bindings/julia" "$here/run_julia.jl" "$@"

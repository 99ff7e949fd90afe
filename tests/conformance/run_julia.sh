#!/usr/bin/env bash
# run_julia.sh - runs the Julia conformance runner (run_julia.jl) with CTensor.jl from bindings/julia and libctensor
# from CTENSOR_LIB_DIR (default <repo>/build), after julia_env.sh's workarounds for Debian's julia 1.5.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export CTENSOR_LIB_DIR="${CTENSOR_LIB_DIR:-$repo/build}"
source "$repo/bindings/julia/julia_env.sh"
# -O0: the run is mostly Julia compiling glue, the values come from libctensor (226 -> 149 s of CPU here).
exec "$JULIA" --startup-file=no -O0 --project="$repo/bindings/julia" "$here/run_julia.jl" "$@"

#!/usr/bin/env bash
# run_cmake_consumer.sh - builds c_client.c in a separate CMake project that finds the installed ctensor
# with find_package(ctensor CONFIG), then runs it.
# Usage: run_cmake_consumer.sh PREFIX CC WORKDIR [extra C flags, e.g. sanitizers]
set -euo pipefail
prefix=$1 cc=$2 work=$3
extra="${4:-}"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
cmake -S "$here/cmake_consumer" -B "$work" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="$extra" -DCMAKE_BUILD_TYPE=Debug
found=$(sed -n 's/^ctensor_DIR:PATH=//p' "$work/CMakeCache.txt")
case "$found" in "$prefix"/*) ;; *) echo "find_package found ctensor in '$found', not under $prefix" >&2; exit 1 ;; esac
cmake --build "$work"
"$work/c_client_cmake"

#!/usr/bin/env bash
# run_tests.sh - the Rust bindings' test entry: builds libctensor into <repo>/build if it is missing,
# then runs `cargo test --offline` (unit, integration and doc tests) and clippy with -D warnings when
# clippy is installed. Usage: bash bindings/rust/run_tests.sh [extra cargo test args]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

if ! command -v cargo >/dev/null 2>&1; then
  for dir in "$HOME/.cargo/bin" /root/.cargo/bin; do
    [ -x "$dir/cargo" ] && export PATH="$dir:$PATH" && break
  done
fi
command -v cargo >/dev/null 2>&1 || { echo "run_tests.sh: cargo not found (install Debian's cargo or rustup)" >&2; exit 1; }

lib_dir="${CTENSOR_LIB_DIR:-$repo/build}"
if [ ! -e "$lib_dir/libctensor.so" ]; then
  echo "==== building libctensor into $repo/build ===="
  cmake -S "$repo" -B "$repo/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$repo/build" -j"$(nproc)" --target ctensor
  lib_dir="$repo/build"
fi
export CTENSOR_LIB_DIR="$lib_dir"

# tests/distributed.rs runs the collectives under mpirun -np 2 and 4 (a few seconds); it skips, saying why, without
# Open MPI's mpirun or the MPI backend beside libctensor
if ! command -v mpirun >/dev/null 2>&1; then
  echo "==== mpirun not found: the distributed tests under mpirun will be skipped ===="
elif [ ! -e "$lib_dir/libctensor_mpi.so.1" ]; then
  echo "==== $lib_dir/libctensor_mpi.so.1 missing: the distributed tests under mpirun will be skipped ===="
fi

cd "$here"
echo "==== cargo test (libctensor from $CTENSOR_LIB_DIR) ===="
cargo test --offline "$@"

if cargo clippy --version >/dev/null 2>&1; then
  echo "==== cargo clippy -D warnings ===="
  cargo clippy --offline --all-targets -- -D warnings
else
  echo "==== clippy not installed: skipped ===="
fi

#!/usr/bin/env bash
# tests/gpu/pack_prebuilt.sh - packs an existing build (default build/, configured with the CUDA backend) for a GPU
# machine that has CUDA, a compiler and Python but none of the project's Debian packages: the libraries and the test
# and benchmark programs without debug info, the OpenBLAS they link, and the DLPack header the Python extension
# needs, into .gpu/pack.tar.xz (.gpu/ is git-ignored locally). tests/gpu/run_prebuilt.sh runs them there.
# Usage: tests/gpu/pack_prebuilt.sh [build dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build}"
[ -f "$BUILD/libctensor_cuda.so.1" ] || { echo "$BUILD has no CUDA backend (configure with -DCTENSOR_WITH_CUDA=ON)" >&2; exit 1; }
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
P="$stage/build-gpu"
mkdir -p "$P/tests" "$P/bench" "$P/libs" "$P/include/dlpack"
for f in libctensor.so.1 libctensor_cuda.so.1 libctensor_mpi.so.1 tests/ctensor_tests tests/ctensor_cuda_probe \
         bench/bench_cuda; do
  [ -e "$BUILD/$f" ] && strip --strip-debug -o "$P/$f" "$BUILD/$f"
done
# the shared libraries libctensor needs that a CUDA image lacks (OpenBLAS and its Fortran runtime)
for lib in $(ldd "$BUILD/libctensor.so.1" | awk '/openblas|gfortran|quadmath/ {print $3}'); do cp -L "$lib" "$P/libs/"; done
cp /usr/include/dlpack/dlpack.h "$P/include/dlpack/"
mkdir -p .gpu
grep -qs '^/.gpu/' .git/info/exclude || { mkdir -p .git/info; echo /.gpu/ >> .git/info/exclude; }
tar -C "$stage" -cJf .gpu/pack.tar.xz build-gpu
ls -la .gpu/pack.tar.xz

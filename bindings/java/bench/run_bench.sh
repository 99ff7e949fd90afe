#!/usr/bin/env bash
# run_bench.sh - builds the C references (bench/tiny_add.c, examples/fashion_mnist/fashion_mnist.c) against
# $CTENSOR_LIB_DIR and the Java bindings, then runs Bench.java, which prints the Java/C ratios.
# Usage: bindings/java/bench/run_bench.sh [epochs]   (CTENSOR_LIB_DIR defaults to <repo>/build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
lib_dir="$(cd "${CTENSOR_LIB_DIR:-$repo/build}" && pwd)"
build="${CTENSOR_JAVA_BUILD:-$repo/bindings/java/build}"
cmake -S "$repo/bindings/java" -B "$build" -DCTENSOR_LIB_DIR="$lib_dir" >/dev/null
cmake --build "$build" -j"$(nproc)" --target ctensor_java >/dev/null
out="$build/bench"
mkdir -p "$out"
cc -O2 -I"$repo/include" "$repo/bench/tiny_add.c" -L"$lib_dir" -lctensor -Wl,-rpath,"$lib_dir" -o "$out/bench_tiny"
cc -O2 -I"$repo/include" "$repo/examples/fashion_mnist/fashion_mnist.c" -L"$lib_dir" -lctensor -lz -lm \
  -Wl,-rpath,"$lib_dir" -o "$out/fashion_mnist"
jar="$build/ctensor-1.0.0.jar"
javac -encoding UTF-8 --release 17 -cp "$jar" -d "$out" "$here/Bench.java" "$repo/examples/java/FashionMnist.java"
props=(-Dctensor.lib.dir="$lib_dir" -Dctensor.jni.dir="$build")
java "${props[@]}" -Dbench.epochs="${1:-3}" -cp "$jar:$out" Bench "$out/bench_tiny" "$out/fashion_mnist" \
  java "${props[@]}" -cp "$jar:$out" FashionMnist

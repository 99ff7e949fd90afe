#!/usr/bin/env bash
# run_demo.sh - builds the Java bindings (SWIG, JNI library, jar) against $CTENSOR_LIB_DIR (default <repo>/build,
# built if missing) and trains the Fashion-MNIST MLP in Java. Usage: examples/java/run_demo.sh [epochs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
epochs="${1:-5}"
lib_dir="${CTENSOR_LIB_DIR:-$repo/build}"
if [ ! -e "$lib_dir/libctensor.so" ]; then
  cmake -S "$repo" -B "$repo/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$repo/build" -j"$(nproc)" --target ctensor
  lib_dir="$repo/build"
fi
java_build="${CTENSOR_JAVA_BUILD:-$repo/bindings/java/build}"
cmake -S "$repo/bindings/java" -B "$java_build" -DCTENSOR_LIB_DIR="$lib_dir" >/dev/null
cmake --build "$java_build" -j"$(nproc)" --target ctensor_java >/dev/null
jar="$java_build/ctensor-1.0.0.jar"
classes="$java_build/examples"
mkdir -p "$classes"
javac -encoding UTF-8 --release 17 -cp "$jar" -d "$classes" "$here/FashionMnist.java"
exec java -Dctensor.lib.dir="$lib_dir" -Dctensor.jni.dir="$java_build" -cp "$jar:$classes" FashionMnist "$epochs"

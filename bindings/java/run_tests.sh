#!/usr/bin/env bash
# run_tests.sh - the Java bindings' test entry (called by scripts/test-all.sh): builds libctensor into <repo>/build
# if CTENSOR_LIB_DIR has none, then bindings/java standalone with CMake (SWIG -> JNI library, jar, test classes),
# runs the JUnit 5 suite through ctest (java_*), and runs it again through Maven offline with Debian's repository.
# Environment: CTENSOR_LIB_DIR (folder with libctensor.so), CTENSOR_JAVA_BUILD (default bindings/java/build),
# CTENSOR_JAVA_MAVEN=0 skips the Maven run. Extra arguments go to ctest (e.g. -R java_ops).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
for tool in swig javac java; do
  command -v "$tool" >/dev/null 2>&1 || { echo "run_tests.sh: $tool not found (bash scripts/install-deps.sh all)" >&2; exit 1; }
done

lib_dir="${CTENSOR_LIB_DIR:-$repo/build}"
if [ ! -e "$lib_dir/libctensor.so" ]; then
  echo "==== building libctensor into $repo/build ===="
  cmake -S "$repo" -B "$repo/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$repo/build" -j"$(nproc)" --target ctensor
  lib_dir="$repo/build"
fi
lib_dir="$(cd "$lib_dir" && pwd)"
build="${CTENSOR_JAVA_BUILD:-$here/build}"

echo "==== SWIG + JNI library + jar + tests (libctensor from $lib_dir) ===="
cmake -S "$here" -B "$build" -DCTENSOR_LIB_DIR="$lib_dir" >/dev/null
cmake --build "$build" -j"$(nproc)"

# DistributedTest runs the collectives under mpirun -np 2 and 4 (a few seconds); it skips, saying why, without Open
# MPI's mpirun or the MPI backend beside libctensor
if ! command -v mpirun >/dev/null 2>&1; then
  echo "==== mpirun not found: the distributed tests under mpirun will be skipped ===="
elif [ ! -e "$lib_dir/libctensor_mpi.so.1" ]; then
  echo "==== $lib_dir/libctensor_mpi.so.1 missing: the distributed tests under mpirun will be skipped ===="
fi

echo "==== JUnit 5 through ctest (java_*) ===="
ctest --test-dir "$build" --output-on-failure "$@"

if [ "${CTENSOR_JAVA_MAVEN:-1}" != 0 ]; then
  if command -v mvn >/dev/null 2>&1 && [ -d /usr/share/maven-repo ]; then
    echo "==== JUnit 5 through Maven (offline, Debian's repository) ===="
    (cd "$here" && CTENSOR_LIB_DIR="$lib_dir" CTENSOR_JNI_DIR="$build" \
      mvn -B -q -o -Dstyle.color=never -Dmaven.repo.local=/usr/share/maven-repo test)
  else
    echo "==== Maven or /usr/share/maven-repo missing: Maven run skipped ===="
  fi
fi

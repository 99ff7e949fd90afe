#!/usr/bin/env bash
# abi/tests/test_install_legacy_c.sh <build-dir> [cmake] - installs the build into a temporary prefix, then
# builds and runs examples/legacy_c twice against that prefix only: with its Makefile (pkg-config) and with
# its CMakeLists.txt (find_package(ctensor CONFIG)).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$(cd "$1" && pwd)"
CMAKE="${2:-cmake}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ct_install_test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
PREFIX="$WORK/prefix"
fail() { echo "FAIL: $*"; exit 1; }

echo "== install into $PREFIX"
"$CMAKE" --install "$BUILD" --prefix "$PREFIX" > "$WORK/install.log" || { cat "$WORK/install.log"; fail "install"; }
PC_DIR="$(dirname "$(find "$PREFIX" -name ctensor.pc | head -n1)")"
[ -f "$PC_DIR/ctensor.pc" ] || fail "no ctensor.pc installed"
[ -f "$PREFIX/include/ctensor.h" ] || fail "no include/ctensor.h installed"
LIBDIR="$(dirname "$PC_DIR")"
[ -e "$LIBDIR/libctensor.so.1" ] || fail "no libctensor.so.1 in $LIBDIR"

echo "== pkg-config --cflags --libs ctensor"
FLAGS="$(PKG_CONFIG_PATH="$PC_DIR" pkg-config --cflags --libs ctensor)" || fail "pkg-config cannot find ctensor"
echo "   $FLAGS"
[ "$(PKG_CONFIG_PATH="$PC_DIR" pkg-config --modversion ctensor)" = "$(sed -n 's/^Version: //p' "$BUILD/ctensor.pc")" ] ||
  fail "pkg-config version differs from the build's"
for dir in $(PKG_CONFIG_PATH="$PC_DIR" pkg-config --cflags-only-I --libs-only-L ctensor); do
  dir="${dir#-I}"; dir="${dir#-L}"
  [ "$(cd "$dir" && pwd -P)" = "$(cd "$PREFIX/include" && pwd -P)" ] ||
    [ "$(cd "$dir" && pwd -P)" = "$(cd "$LIBDIR" && pwd -P)" ] || fail "pkg-config points outside the prefix: $dir"
done

echo "== make (pkg-config)"
mkdir -p "$WORK/make"
make -s -f "$ROOT/examples/legacy_c/Makefile" PKG_CONFIG_PATH="$PC_DIR" BUILD_DIR="$WORK/make" ||
  fail "make of examples/legacy_c"
ldd "$WORK/make/legacy_c" | grep "libctensor.so.1 => $LIBDIR" > /dev/null ||
  { ldd "$WORK/make/legacy_c"; fail "legacy_c does not load the installed library"; }
env -u LD_LIBRARY_PATH "$WORK/make/legacy_c" || fail "legacy_c (make) exited $?"

echo "== cmake find_package(ctensor CONFIG)"
"$CMAKE" -S "$ROOT/examples/legacy_c" -B "$WORK/cmake" -DCMAKE_PREFIX_PATH="$PREFIX" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > "$WORK/cmake.log" 2>&1 || { cat "$WORK/cmake.log"; fail "configure"; }
grep -q "ctensor_DIR:PATH=$LIBDIR/cmake/ctensor" "$WORK/cmake/CMakeCache.txt" ||
  fail "find_package did not use the installed package"
"$CMAKE" --build "$WORK/cmake" > "$WORK/cmake-build.log" 2>&1 || { cat "$WORK/cmake-build.log"; fail "build"; }
env -u LD_LIBRARY_PATH "$WORK/cmake/legacy_c" > /dev/null || fail "legacy_c (cmake) exited $?"

echo "installed package works with pkg-config + make and with find_package"

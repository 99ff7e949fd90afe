#!/usr/bin/env bash
# abi/tests/test_check_abi.sh [cc] - tests the ABI comparison (abi/abi_tool.sh, which check_abi.sh runs) on a
# scratch library: a "v1" baseline and variants that must be accepted (identical rebuild, added function,
# appended enum value) or rejected (changed signature, removed function, changed enum value, changed struct
# layout, symbol moved to another version node, library without debug info).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOL="$HERE/../abi_tool.sh"
SRC="$HERE/scratch"
CC="${1:-${CC:-cc}}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ct_abi_test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
failures=0

# build <name> <version-script> [cflags...]: a -g shared library $WORK/<name>/libscratch.so.1
build() {
  local name="$1" map="$2"; shift 2
  mkdir -p "$WORK/$name"
  "$CC" -g -O2 -shared -fPIC -Wall -Werror "$@" -o "$WORK/$name/libscratch.so.1" \
    -Wl,-soname,libscratch.so.1 -Wl,--version-script="$SRC/$map" "$SRC/scratch_lib.c" ||
    { echo "cannot build scratch variant $name"; exit 1; }
}

# expect <name> <exit-code> <substring>: compares variant <name> against v1's baseline.
expect() {
  local name="$1" want="$2" sub="$3" rc=0 out
  out="$(bash "$TOOL" compare --lib "$WORK/$name/libscratch.so.1" --abi "$WORK/v1.abi" \
        --symbols "$WORK/v1-symbols.txt" --work "$WORK/$name/check" --headers-dir "$SRC" 2>&1)" || rc=$?
  if [ "$rc" -ne "$want" ] || [[ "$out" != *"$sub"* ]]; then
    echo "FAIL: variant '$name': exit $rc (want $want), output should contain '$sub':"
    printf '%s\n' "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok:   variant '$name' -> exit $rc ('$sub')"
  fi
}

build v1 scratch_1_0.map
bash "$TOOL" dump --lib "$WORK/v1/libscratch.so.1" --abi "$WORK/v1.abi" --symbols "$WORK/v1-symbols.txt" \
  --headers-dir "$SRC" > /dev/null || { echo "FAIL: dump of v1"; exit 1; }
grep -q "sl_color_code@@SCRATCH_1.0" "$WORK/v1-symbols.txt" || { echo "FAIL: symbol list lacks versions"; exit 1; }
grep -q "enumerator name='SL_GREEN' value='1'" "$WORK/v1.abi" || { echo "FAIL: v1.abi lacks the enum"; exit 1; }

build same scratch_1_0.map
build added scratch_1_0.map -DVARIANT_ADDED
build enum_appended scratch_1_0.map -DVARIANT_ENUM_APPENDED
build signature scratch_1_0.map -DVARIANT_SIGNATURE
build removed scratch_1_0.map -DVARIANT_REMOVED
build enum_value scratch_1_0.map -DVARIANT_ENUM_VALUE
build struct_layout scratch_1_0.map -DVARIANT_STRUCT_LAYOUT
build moved_node scratch_moved.map
mkdir -p "$WORK/no_debug_info"
"$CC" -O2 -shared -fPIC -o "$WORK/no_debug_info/libscratch.so.1" "$SRC/scratch_lib.c"

expect same 0 "ABI check passed"
expect added 0 "sl_sub@@SCRATCH_1.0"
expect enum_appended 0 "ABI check passed"
expect signature 1 "function int sl_add(int, int)"
expect removed 1 "1 Removed function"
expect removed 1 "sl_color_code@@SCRATCH_1.0"
expect enum_value 1 "'sl_color::SL_GREEN' from value '1' to '2'"
expect struct_layout 1 "type size changed from 64 to 128"
expect moved_node 1 "sl_color_code@@SCRATCH_1.0"
expect no_debug_info 2 "no DWARF debug info"

# The dump must not depend on where the library was built.
mkdir -p "$WORK/elsewhere/deeper"
cp "$SRC/scratch_lib.c" "$SRC/scratch_lib.h" "$WORK/elsewhere/deeper/"
(cd "$WORK/elsewhere/deeper" && "$CC" -g -O2 -shared -fPIC -o libscratch.so.1 -Wl,-soname,libscratch.so.1 \
  -Wl,--version-script="$SRC/scratch_1_0.map" scratch_lib.c)
(cd "$WORK/v1" && "$CC" -g -O2 -shared -fPIC -o librel.so.1 -Wl,-soname,libscratch.so.1 \
  -Wl,--version-script="$SRC/scratch_1_0.map" -I"$SRC" "$SRC/scratch_lib.c")
bash "$TOOL" dump --lib "$WORK/elsewhere/deeper/libscratch.so.1" --abi "$WORK/a.abi" --symbols "$WORK/a.txt" \
  --strip-prefix "$WORK/elsewhere/deeper" > /dev/null
bash "$TOOL" dump --lib "$WORK/v1/librel.so.1" --abi "$WORK/b.abi" --symbols "$WORK/b.txt" \
  --strip-prefix "$SRC" > /dev/null
if cmp -s "$WORK/a.abi" "$WORK/b.abi" && cmp -s "$WORK/a.txt" "$WORK/b.txt"; then
  echo "ok:   dumps of builds in two directories are identical"
else
  echo "FAIL: dumps of builds in two directories differ:"; diff "$WORK/a.abi" "$WORK/b.abi" | head -20
  failures=$((failures + 1))
fi

[ "$failures" -eq 0 ] && echo "all ABI check cases behaved as expected" && exit 0
echo "$failures ABI check case(s) failed"; exit 1

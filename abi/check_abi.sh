#!/usr/bin/env bash
# abi/check_abi.sh <build-dir> - fails when the freshly built libctensor.so.1 breaks the committed ABI baseline
# (abi/baseline/): any abidiff report (changed signature, struct or type, removed function) or any baseline
# symbol missing from `nm -D`. Added symbols are allowed. The build must carry -g (RelWithDebInfo does).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 1 ] || { echo "usage: abi/check_abi.sh <build-dir>" >&2; exit 2; }
BUILD="$(cd "$1" && pwd)"
LIB="$BUILD/libctensor.so.1"
[ -e "$LIB" ] || { echo "check_abi: $LIB not found: build the library first" >&2; exit 2; }

echo "check_abi: $LIB against $ROOT/abi/baseline/"
exec bash "$ROOT/abi/abi_tool.sh" compare --lib "$LIB" \
  --abi "$ROOT/abi/baseline/libctensor.so.1.abi" --symbols "$ROOT/abi/baseline/symbols.txt" \
  --work "$BUILD/abi-check" --headers-dir "$ROOT/include" --strip-prefix "$ROOT"

#!/usr/bin/env bash
# abi/update_baseline.sh <build-dir> - the deliberate command that rewrites the ABI baseline from a build:
# abi/baseline/libctensor.so.1.abi (abidw, reproducible: no build paths), symbols.txt (nm -D) and a copy of
# include/ctensor.h (the header old clients are compiled against). Run it when a release adds symbols, or
# for a new major; then review `git diff abi/baseline` and commit it with a CHANGELOG entry (docs/abi.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 1 ] || { echo "usage: abi/update_baseline.sh <build-dir>" >&2; exit 2; }
BUILD="$(cd "$1" && pwd)"
LIB="$BUILD/libctensor.so.1"
[ -e "$LIB" ] || { echo "update_baseline: $LIB not found: build the library first" >&2; exit 2; }
# The library must have been linked with the version script generated from the current header.
python3 "$ROOT/abi/gen_version_script.py" --check ||
  { echo "update_baseline: run abi/gen_version_script.py and rebuild first" >&2; exit 1; }
[ "$LIB" -nt "$ROOT/abi/ctensor.map" ] ||
  { echo "update_baseline: $LIB is older than abi/ctensor.map: rebuild first" >&2; exit 1; }

mkdir -p "$ROOT/abi/baseline"
bash "$ROOT/abi/abi_tool.sh" dump --lib "$LIB" \
  --abi "$ROOT/abi/baseline/libctensor.so.1.abi" --symbols "$ROOT/abi/baseline/symbols.txt" \
  --headers-dir "$ROOT/include" --strip-prefix "$ROOT"
cp "$ROOT/include/ctensor.h" "$ROOT/abi/baseline/ctensor.h"
echo "update_baseline: baseline rewritten; review 'git diff --stat abi/baseline' and commit it."

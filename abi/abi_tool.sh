#!/usr/bin/env bash
# abi/abi_tool.sh - the one ABI dump + comparison used by check_abi.sh, update_baseline.sh and abi/tests/.
# A library is backward compatible with a baseline when abidiff --no-added-syms reports nothing (exit 0)
# and no exported symbol (name@version) of the baseline is missing. Additions are allowed.
#
#   abi_tool.sh dump    --lib L --abi OUT.abi --symbols OUT.txt [--headers-dir D] [--strip-prefix P]
#   abi_tool.sh compare --lib L --abi BASE.abi --symbols BASE.txt --work DIR [--headers-dir D] [--strip-prefix P]
#
# dump writes a reproducible abidw corpus of the exported interfaces only (no build paths, source locations,
# DT_NEEDED, undefined symbols, or types unreachable from exported functions; hash type ids) and the sorted
# `nm -D --defined-only` list. compare dumps L the same way into DIR and diffs it:
# exit 0 = compatible, 1 = incompatible (report on stdout), 2 = usage or tool error.
set -euo pipefail

die() { echo "abi_tool: $*" >&2; exit 2; }

# Sorted exported (defined, dynamic) symbols of a library, with their version ("ct_add@@CTENSOR_1.0").
list_symbols() {
  local syms
  syms="$(nm -D --defined-only "$1")" || die "nm failed on $1"
  printf '%s\n' "$syms" | awk 'NF { print $NF }' | LC_ALL=C sort -u
}

# Writes the abidw corpus of $LIB to $1 (see the header for the options and why).
dump_abi() {
  local out="$1" tmp
  readelf -S --wide "$LIB" | grep '\.debug_info' > /dev/null ||
    die "$LIB has no DWARF debug info: build with -g (CMAKE_BUILD_TYPE=RelWithDebInfo or Debug)"
  local opts=(--no-corpus-path --no-comp-dir-path --no-show-locs --no-elf-needed --drop-undefined-syms
              --type-id-style hash --exported-interfaces-only)
  if [ -n "$HEADERS_DIR" ]; then
    # Types not defined in the public headers are private (e.g. the engine behind opaque handles).
    opts+=(--headers-dir "$HEADERS_DIR" --drop-private-types)
  fi
  tmp="$out.tmp"
  abidw "${opts[@]}" --out-file "$tmp" "$LIB" || die "abidw failed on $LIB"
  if [ -n "$STRIP_PREFIX" ]; then
    # Translation-unit paths are absolute when the build used absolute paths: make them source-relative.
    sed -e "s#path='${STRIP_PREFIX%/}/#path='#g" "$tmp" > "$out"
    rm -f "$tmp"
  else
    mv "$tmp" "$out"
  fi
}

explain_abidiff_status() {
  local rc=$1 what=()
  (( rc & 1 )) && what+=("tool error")
  (( rc & 2 )) && what+=("usage error")
  (( rc & 4 )) && what+=("ABI change")
  (( rc & 8 )) && what+=("incompatible ABI change")
  local joined
  joined="$(printf '%s, ' "${what[@]}")"
  echo "${joined%, }"
}

cmd_dump() {
  [ -n "$ABI" ] && [ -n "$SYMBOLS" ] || die "dump needs --abi and --symbols"
  dump_abi "$ABI"
  list_symbols "$LIB" > "$SYMBOLS"
  echo "abi_tool: wrote $ABI and $SYMBOLS ($(wc -l < "$SYMBOLS") symbols)"
}

cmd_compare() {
  [ -f "$ABI" ] || die "baseline corpus '$ABI' not found"
  [ -f "$SYMBOLS" ] || die "baseline symbol list '$SYMBOLS' not found"
  [ -n "$WORK" ] || die "compare needs --work DIR"
  mkdir -p "$WORK"
  local new_abi="$WORK/new.abi" new_syms="$WORK/new-symbols.txt" report="$WORK/abidiff.txt"
  local old_syms="$WORK/baseline-symbols.txt"
  dump_abi "$new_abi"
  list_symbols "$LIB" > "$new_syms"
  grep -v '^[[:space:]]*$' "$SYMBOLS" | LC_ALL=C sort -u > "$old_syms"

  local failed=0 rc=0
  abidiff --no-added-syms "$ABI" "$new_abi" > "$report" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    failed=1
    echo "FAIL: abidiff exit $rc ($(explain_abidiff_status "$rc")) between $ABI and $LIB:"
    sed 's/^/    /' "$report"
  fi

  local removed added
  removed="$(LC_ALL=C comm -23 "$old_syms" "$new_syms")"
  added="$(LC_ALL=C comm -13 "$old_syms" "$new_syms")"
  if [ -n "$removed" ]; then
    failed=1
    echo "FAIL: $(printf '%s\n' "$removed" | wc -l) baseline symbol(s) missing from $LIB (removed, renamed or moved to another version node):"
    printf '%s\n' "$removed" | sed 's/^/    /'
  fi
  if [ -n "$added" ]; then
    echo "note: $(printf '%s\n' "$added" | wc -l) symbol(s) added since the baseline (allowed):"
    printf '%s\n' "$added" | sed 's/^/    /'
  fi

  if [ "$failed" -ne 0 ]; then
    echo "ABI CHECK FAILED: $LIB is not backward compatible with the baseline."
    echo "  A minor release may only add symbols (under a new CT_VERSION_MINOR guard); see docs/abi.md."
    return 1
  fi
  echo "ABI check passed: $LIB is backward compatible with the baseline ($(wc -l < "$old_syms") baseline symbols)."
}

main() {
  [ $# -ge 1 ] || die "usage: abi_tool.sh dump|compare --lib L --abi F --symbols F [--work D] [--headers-dir D] [--strip-prefix P]"
  local cmd="$1"; shift
  LIB="" ABI="" SYMBOLS="" WORK="" HEADERS_DIR="" STRIP_PREFIX=""
  while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || die "option $1 needs a value"
    case "$1" in
      --lib) LIB="$2" ;;
      --abi) ABI="$2" ;;
      --symbols) SYMBOLS="$2" ;;
      --work) WORK="$2" ;;
      --headers-dir) HEADERS_DIR="$2" ;;
      --strip-prefix) STRIP_PREFIX="$2" ;;
      *) die "unknown option $1" ;;
    esac
    shift 2
  done
  [ -f "$LIB" ] || die "library '$LIB' not found"
  for tool in abidw abidiff nm readelf; do
    command -v "$tool" > /dev/null || die "$tool not found (install abigail-tools and binutils)"
  done
  case "$cmd" in
    dump) cmd_dump ;;
    compare) cmd_compare ;;
    *) die "unknown command '$cmd' (dump or compare)" ;;
  esac
}

main "$@"

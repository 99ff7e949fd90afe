#!/usr/bin/env bash
# run_c_client.sh - compiles c_client.c as strict C99 against an installed ctensor found through
# pkg-config only, then runs it.
# Usage: run_c_client.sh PREFIX LIBDIR CC WORKDIR [extra compiler flags, e.g. sanitizers...]
set -euo pipefail
prefix=$1 libdir=$2 cc=$3 work=$4
shift 4
here="$(cd "$(dirname "$0")" && pwd)"
pcdir="$prefix/$libdir/pkgconfig"
[ -f "$pcdir/ctensor.pc" ] || { echo "no ctensor.pc in $pcdir" >&2; exit 1; }
cflags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags ctensor)
libs=$(PKG_CONFIG_PATH="$pcdir" pkg-config --libs ctensor)
echo "pkg-config ctensor: $cflags $libs"
# The flags must point into the install prefix, not at some other copy of ctensor.
case "$cflags $libs" in *"$prefix"*) ;; *) echo "pkg-config flags do not point into $prefix" >&2; exit 1 ;; esac
mkdir -p "$work"
# shellcheck disable=SC2086  # pkg-config output is a list of words
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror "$@" "$here/c_client.c" $cflags $libs -lm \
  -Wl,-rpath,"$prefix/$libdir" -o "$work/c_client"
"$work/c_client"

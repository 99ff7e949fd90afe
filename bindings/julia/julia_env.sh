#!/usr/bin/env bash
# julia_env.sh - sourced by the Julia run scripts: picks the julia binary and works around Debian's
# julia 1.5.3 (bullseye) crashing on every `throw` when the newer libunwind8 (1.6, bookworm) is installed:
# it then uses bullseye's libunwind8 1.3.2 from a private folder (fetched once with `apt-get download`).
# It also preloads libgcc_s: julia's libunwind otherwise takes over _Unwind_RaiseException and every C++
# exception thrown (and caught) inside libctensor aborts the process.
JULIA="${JULIA:-julia}"
gcc_s="$(ldconfig -p 2>/dev/null | awk '/libgcc_s.so.1 .*x86-64/ && !f {print $NF; f = 1}')"
[ -n "$gcc_s" ] && export LD_PRELOAD="$gcc_s${LD_PRELOAD:+:$LD_PRELOAD}"
probe='f() = error("probe"); try f() catch end'
if ! ( "$JULIA" --startup-file=no -e "$probe"; exit $? ) >/dev/null 2>&1; then
  unw_dir="${CTENSOR_JULIA_UNWIND_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ctensor/julia-libunwind}"
  lib="$unw_dir/usr/lib/x86_64-linux-gnu"
  if [ ! -e "$lib/libunwind.so.8" ]; then
    echo "julia_env.sh: julia crashes when throwing (libunwind8 newer than julia's); fetching bullseye's libunwind8 1.3.2 into $unw_dir" >&2
    tmp="$(mktemp -d)"
    (cd "$tmp" && apt-get download libunwind8=1.3.2-2 >/dev/null 2>&1 && mkdir -p "$unw_dir" && dpkg-deb -x libunwind8_*.deb "$unw_dir") ||
      echo "julia_env.sh: could not fetch libunwind8 1.3.2 (add Debian bullseye to apt's sources)" >&2
    rm -rf "$tmp"
  fi
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  "$JULIA" --startup-file=no -e "$probe" >/dev/null 2>&1 || { echo "julia_env.sh: julia still crashes on throw" >&2; exit 1; }
fi
export JULIA

#!/usr/bin/env bash
# Installs the Debian packages ctensor builds and tests with (idempotent; run as root on Debian 12).
# Usage: scripts/install-deps.sh [core|demo|all]   (core: build + C demo; demo: + Python; all: every test suite)
set -euo pipefail
what="${1:-all}"

need_update=0
# DLPack 1.0 comes from Debian 13 (trixie), pinned low so nothing else is taken from it.
if [ ! -f /etc/apt/sources.list.d/ctensor-trixie.list ]; then
  echo "deb http://deb.debian.org/debian trixie main" > /etc/apt/sources.list.d/ctensor-trixie.list
  printf 'Package: *\nPin: release n=trixie\nPin-Priority: 100\n' > /etc/apt/preferences.d/ctensor-trixie.pref
  need_update=1
fi
# Julia 1.5.3 comes from Debian 11 (bullseye), pinned low likewise (Debian 12 has no Julia).
if [ "$what" != core ] && [ ! -f /etc/apt/sources.list.d/ctensor-bullseye.list ]; then
  echo "deb http://deb.debian.org/debian bullseye main" > /etc/apt/sources.list.d/ctensor-bullseye.list
  printf 'Package: *\nPin: release n=bullseye\nPin-Priority: 100\n' > /etc/apt/preferences.d/ctensor-bullseye.pref
  need_update=1
fi

core_pkgs="build-essential cmake pkg-config libopenblas-openmp-dev libgtest-dev zlib1g-dev nlohmann-json3-dev dataset-fashion-mnist"
all_pkgs="$core_pkgs abigail-tools clang libclang-rt-14-dev python3-venv python3-torch python3-numpy valgrind"
# Open MPI: the distributed backend libctensor_mpi.so.1 and its tests under mpirun (docs/distributed.md)
all_pkgs="$all_pkgs openmpi-bin libopenmpi-dev"
# the conformance runners' JSON readers for Rust and Java (tests/conformance)
all_pkgs="$all_pkgs librust-serde-json-dev libgoogle-gson-java"

java_pkgs="swig default-jdk-headless maven maven-debian-helper libmaven-compiler-plugin-java libsurefire-java libmaven-jar-plugin-java libmaven-resources-plugin-java libmaven-clean-plugin-java junit5"
all_pkgs="$all_pkgs $java_pkgs"
demo_pkgs="$core_pkgs python3-venv python3-numpy $java_pkgs"
pkgs="$core_pkgs"
[ "$what" = demo ] && pkgs="$demo_pkgs"
[ "$what" = all ] && pkgs="$all_pkgs"

missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
julia_ok=1
if [ "$what" != core ] && ! dpkg-query -W -f='${Status}' julia 2>/dev/null | grep -q "install ok installed"; then julia_ok=0; fi
dl_ok=0
if dpkg-query -W -f='${Version}' libdlpack-dev 2>/dev/null | grep -q '^1\.'; then dl_ok=1; fi

if [ -n "$missing" ] || [ "$dl_ok" = 0 ] || [ "$julia_ok" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || [ "$need_update" = 0 ]
  [ -n "$missing" ] && apt-get install -y -qq --no-install-recommends $missing
  [ "$dl_ok" = 0 ] && apt-get install -y -qq -t trixie libdlpack-dev
  [ "$julia_ok" = 0 ] && apt-get install -y -qq --no-install-recommends -t bullseye julia
fi
true

#!/usr/bin/env bash
# install_prefix.sh - installs a build tree into a fresh prefix (the fixture for the C client tests).
# Usage: install_prefix.sh BUILD_DIR PREFIX
set -euo pipefail
build=$1 prefix=$2
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix"

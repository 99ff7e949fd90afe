#!/usr/bin/env bash
# The README's demo command: installs what it needs, builds ctensor, and trains the Fashion-MNIST MLP in C
# (and in the language bindings that have a demo). Usage: scripts/demo.sh [epochs]
set -euo pipefail
cd "$(dirname "$0")/.."
EPOCHS="${1:-5}"
bash scripts/install-deps.sh core
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)" --target fashion_mnist
echo "== C demo: examples/fashion_mnist/fashion_mnist.c"
./build/examples/fashion_mnist/fashion_mnist "$EPOCHS"

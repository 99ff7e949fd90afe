#!/usr/bin/env bash
# The README's demo command: installs what it needs, builds ctensor, and trains the Fashion-MNIST MLP in C and
# through the Python package (and in each binding that has a demo). Usage: scripts/demo.sh [epochs]
set -euo pipefail
cd "$(dirname "$0")/.."
EPOCHS="${1:-5}"
bash scripts/install-deps.sh demo
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)" --target ctensor fashion_mnist

echo "== C demo: examples/fashion_mnist/fashion_mnist.c"
./build/examples/fashion_mnist/fashion_mnist "$EPOCHS"

echo "== Python demo: examples/python/fashion_mnist_mlp.py"
VENV="${CTENSOR_VENV:-$PWD/.venv}"
[ -x "$VENV/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$VENV"
for module in setuptools wheel; do
  "$VENV/bin/python" -c "import $module" 2>/dev/null || "$VENV/bin/pip" install -q "$module"
done
CTENSOR_LIB_DIR="$PWD/build" "$VENV/bin/pip" install -q --no-build-isolation ./bindings/python
(cd examples/python && "$VENV/bin/python" fashion_mnist_mlp.py --epochs 3)

if [ -f bindings/rust/examples/fashion_mnist.rs ]; then
  echo "== Rust demo: bindings/rust/examples/fashion_mnist.rs"
  (cd bindings/rust && CTENSOR_LIB_DIR="$PWD/../../build" cargo run --offline --release --example fashion_mnist)
fi

if [ -f examples/java/run_demo.sh ]; then
  echo "== Java demo: examples/java/"
  CTENSOR_LIB_DIR="$PWD/build" bash examples/java/run_demo.sh "$EPOCHS"
fi

if [ -f examples/julia/run_demo.sh ]; then
  echo "== Julia demo: examples/julia/"
  CTENSOR_LIB_DIR="$PWD/build" bash examples/julia/run_demo.sh "$EPOCHS"
fi

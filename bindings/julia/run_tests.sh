#!/usr/bin/env bash
# run_tests.sh - the Julia package's test entry (called by scripts/test-all.sh with CTENSOR_LIB_DIR set):
# runs test/runtests.jl against libctensor from CTENSOR_LIB_DIR (default <repo>/build); fails on any failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CTENSOR_LIB_DIR="${CTENSOR_LIB_DIR:-$(cd "$here/../.." && pwd)/build}"
source "$here/julia_env.sh"
export JULIA_NUM_THREADS="${JULIA_NUM_THREADS:-2}"  # test_threads.jl runs finalizers on a second thread
# test/test_dist.jl runs the collectives under mpirun -np 2 (~20 s; -np 4 too with CTENSOR_JULIA_MPI_NP4=1); it skips,
# saying why, without Open MPI's mpirun or the MPI backend beside libctensor
if ! command -v mpirun >/dev/null 2>&1; then
  echo "==== mpirun not found: the distributed tests under mpirun will be skipped ===="
elif [ ! -e "$CTENSOR_LIB_DIR/libctensor_mpi.so.1" ]; then
  echo "==== $CTENSOR_LIB_DIR/libctensor_mpi.so.1 missing: the distributed tests under mpirun will be skipped ===="
fi
echo "==== Julia tests (libctensor from $CTENSOR_LIB_DIR) ===="
# -O0: Julia 1.5 spends most of this run compiling, the work is in libctensor (144 s -> 89 s here; Note [CI time]).
exec "$JULIA" --startup-file=no -O0 --project="$here" "$here/test/runtests.jl"

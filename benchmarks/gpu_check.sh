#!/usr/bin/env bash
# GPU acceptance check of the CuPy backend, in one go: benchmarks/gpu_check.sh OUTDIR
#
# Writes under OUTDIR:
#   env.txt         nvidia-smi, CuPy / JAX versions and devices, the exit status of each step
#   gpu_tests.txt   pytest -m gpu tests/test_cupy_backend.py (CuPy counts == JAX-on-CPU counts,
#                   chunk by chunk; at most 300 s); without pytest, simulate_gpu.py --check
#                   compares a few chunks instead
#   bench.txt       benchmarks/simulate_gpu.py: CuPy vs the JAX GPU path, rounds/s per game
#   bench.json      the same numbers, machine-readable
#
# Needs python3 with cupy-cuda13x (or -cuda12x), jax[cuda13], numpy; pytest is optional.
# polars is NOT needed: the test and the benchmark stub it, since only the run-folder writer
# uses it (nothing is pip-installed). Budget: well under 8 minutes on one H200 (kernel compiles
# by NVRTC ~0.3 s each, JAX compiles, 6 x 2^30 CuPy rounds, 6 x 2^22 JAX rounds).
# GPUSIM_BENCH_ARGS (e.g. "--rounds 2**26") is passed on to simulate_gpu.py.
set -uo pipefail
OUT=${1:?usage: benchmarks/gpu_check.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export XLA_PYTHON_CLIENT_PREALLOCATE=false  # leave GPU memory to CuPy too
PY=${PYTHON:-python3}

{
  date -u
  nvidia-smi || true
  $PY -c "import cupy; print('cupy', cupy.__version__, cupy.cuda.runtime.getDeviceCount(), 'devices')"
  $PY -c "import jax; print('jax', jax.__version__, jax.devices())"
  $PY -c "import polars" 2>/dev/null && echo "polars present" || echo "polars absent (stubbed)"
} > "$OUT/env.txt" 2>&1

status=0
check_flag="--check"
if $PY -c "import pytest" 2>/dev/null; then
  check_flag=""
  # The truth is the JAX path on the CPU, as in CI.
  JAX_PLATFORMS=cpu timeout 300 $PY -m pytest -m gpu -p no:cacheprovider -q -rA \
    tests/test_cupy_backend.py > "$OUT/gpu_tests.txt" 2>&1
  rc=$?
  echo "gpu tests: exit $rc" >> "$OUT/env.txt"
  [ $rc -eq 0 ] || status=1
else
  echo "pytest is not installed: simulate_gpu.py --check compares the counts instead" \
    > "$OUT/gpu_tests.txt"
fi

# Whatever is left of a 450 s budget (the JSON is rewritten after every row, so a timeout
# still leaves the rows measured so far).
left=$((450 - SECONDS)); [ $left -gt 60 ] || left=60
timeout $left $PY benchmarks/simulate_gpu.py $check_flag ${GPUSIM_BENCH_ARGS:-} --json "$OUT/bench.json" \
  > "$OUT/bench.txt" 2>&1
rc=$?
echo "benchmark: exit $rc" >> "$OUT/env.txt"
[ $rc -eq 0 ] || status=1
exit $status

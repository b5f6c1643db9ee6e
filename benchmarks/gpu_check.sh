#!/usr/bin/env bash
# GPU acceptance check of the CuPy backend, in one go: benchmarks/gpu_check.sh OUTDIR
#
# Steps (benchmarks/gpu_check.py; each one's log is OUTDIR/<step>.log):
#   device          cupy.cuda.runtime.getDeviceCount() > 0           (stops the check if not)
#   trivial_kernel  a one-line kernel compiles with NVRTC and runs   (stops the check if not)
#   devices         gpusim devices --json: the cupy backend is usable -> devices.json
#   preflight       every game and strategy kernel (Casino Hold'em, Texas Hold'em Bonus, Ultimate
#                   Texas Hold'em): registers, shared / local bytes, occupancy against the grid
#                   used, one chunk across round 2^32 == JAX -> preflight.json
#   gpu_tests       pytest -m gpu tests/test_cupy_rounds.py: every test passed, none skipped
#                   -> gpu_tests.xml
#   benchmark       benchmarks/simulate_gpu.py: CuPy vs the JAX GPU path, with occupancy, every
#                   game's rule and table strategies -> bench.json
#   end_to_end      the whole `gpusim simulate holdem_bonus --backend cupy` process, 2^30
#                   rounds, against the benchmark's steady state (needs polars)
#   exact           `gpusim exact holdem_bonus --backend cupy --json`, timed, == the shipped
#                   CPU report -> exact.json (a build without that option fails this step)
#   described_*     the four described games (no CUDA kernel) through jax-gpu: steady state
#                   beside Casino Hold'em optimal (benchmarks/described.py), and their tables
#                   on jax-gpu == jax-cpu (benchmarks/described_gpu.py) -> described_*.json
# Writes env.txt (nvidia-smi, CuPy's show_config(), JAX, pip list), summary.md and result.json.
# Exit status 0 only when every step passed and no GPU test was skipped; otherwise 1, and
# summary.md / result.json name the first cause. Budget: at most 9 minutes on one H200
# (GPU_CHECK_BUDGET_S, default 540 s, caps all steps together; not yet measured with UTH).
#
# Needs python3 (or $PYTHON) with cupy-cuda13x (or -cuda12x) >= 14, the CUDA runtime headers
# (cuda-toolkit[cudart,nvrtc] wheels; or CUDA_PATH), jax, numpy, pyarrow, typer and pytest.
# A GPU machine without gpusim's other dependencies (polars, rich, platformdirs, matplotlib,
# scipy, cuda-toolkit, cuda-pathfinder) gets them from a folder of wheels carried along:
#   WHEELS=dir benchmarks/gpu_check.sh OUTDIR     (pip install --no-index --find-links dir ...)
# Without them the steps that need them fail and say which module is missing.
set -uo pipefail
OUT=${1:?usage: [WHEELS=dir] benchmarks/gpu_check.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ -n "${WHEELS:-}" ]; then
  # Only what is missing, from the folder alone: the machine may have no network.
  $PY -m pip install --no-index --find-links "$WHEELS" --no-deps "$WHEELS"/*.whl \
    > "$OUT/wheels.log" 2>&1 || echo "installing from WHEELS=$WHEELS failed: see wheels.log" >&2
fi
PYTHON=$PY exec $PY benchmarks/gpu_check.py "$OUT"

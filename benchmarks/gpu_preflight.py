"""GPU preflight: every game and strategy kernel's resources, occupancy and counts.

Usage: ``python benchmarks/gpu_preflight.py [--json OUT.json]`` (run by ``gpu_check.sh``).

For every game with a kernel (their main configs) and every strategy with a kernel form: the
compiled kernel's registers per thread, static shared, constant and local (spill) bytes
(``cuFuncGetAttribute``), resident blocks per SM from the driver's occupancy query against the
grid launched for 2^30 rounds, and one chunk that crosses round 2^32 played by CuPy and by the
JAX path (on the CPU), compared count for count. Exits 1, naming the first problem, when a
kernel uses local memory, the occupancy had to fall back to a fixed guess, or any count differs.

polars is not needed (stubbed: only the run-folder writer uses it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

# The variants share these kernels; tests/test_cupy_rounds.py plays them too.
CONFIGS = ["casino_holdem", "holdem_bonus", "ultimate_holdem"]
STRATEGIES = ["always-play", "always-check", "basic", "side-bet-optimal", "optimal",
              "optimal-main", "win-over-half", "win-over-half-ev"]  # fmt: skip
FIRST, ROUNDS = 2**32 - 40_000, 80_000  # crosses the counter's high word


def _jax_runner(rules, strat):
    # gpusim.compute.chunks needs no polars (the GPU machine may lack it)
    from gpusim.compute.chunks import ChunkRunner

    return ChunkRunner(rules, strat)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)

    from gpusim.compute.backends import cupy_rounds as cb
    from gpusim.config import load_config
    from gpusim.games import spec_for
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.strategy import StrategyError

    reason = cb.unavailable_reason()
    if reason:
        print(f"preflight: cupy backend unusable: {reason}")
        return 1
    out = {"device": cb.device_name(), "first_round": FIRST, "rounds": ROUNDS, "rows": [],
           "problems": []}  # fmt: skip
    print(f"device: {out['device']}; chunk of {ROUNDS:,} rounds from {FIRST:,}")
    print(f"{'config':24s} {'strategy':17s} regs shared local blocks/SM SMs grid waves  counts")
    for config in CONFIGS:
        rules = load_config(config)
        if spec_for(rules).kernel is None:
            out["problems"].append(f"{config}: the game's spec has no CUDA kernel")
            continue
        for name in STRATEGIES:
            try:
                strat = get_strategy(name, rules)
                cb.strategy_spec(rules, strat)
            except StrategyError:
                continue  # not offered for this game, or no kernel form (auto falls back)
            t0 = time.perf_counter()
            run = cb.make_chunk_runner(rules, strat)
            res = cb.kernel_resources(run.kernel)
            grid = cb.launch_grid(1 << 30, run.block, run.blocks_per_sm, run.n_sm)
            waves = grid / (run.blocks_per_sm * run.n_sm)
            got = run(12345, FIRST, ROUNDS, 777)
            want = _jax_runner(rules, strat)(12345, FIRST, ROUNDS, 777)
            equal = got == want
            row = {"config": config, "strategy": name, **res, "block": run.block,
                   "blocks_per_sm": run.blocks_per_sm, "occupancy_source": run.occupancy_source,
                   "multiprocessors": run.n_sm, "grid_for_2^30": grid, "waves": waves,
                   "counts_equal_jax": equal, "seconds": time.perf_counter() - t0}  # fmt: skip
            out["rows"].append(row)
            print(f"{config:24s} {name:17s} {res['registers']:4d} {res['shared_bytes']:6d} "
                  f"{res['local_bytes']:5d} {run.blocks_per_sm:9d} {run.n_sm:3d} {grid:4d} "
                  f"{waves:5.2f}  {'equal' if equal else 'DIFFER'}")  # fmt: skip
            where = f"{config} {name}"
            if res["local_bytes"]:
                out["problems"].append(f"{where}: {res['local_bytes']} bytes of local memory")
            if not run.occupancy_source.startswith("cuOccupancy"):
                out["problems"].append(f"{where}: occupancy {run.occupancy_source}")
            if not equal:
                out["problems"].append(f"{where}: counts differ from the JAX path")
            if args.json:
                args.json.write_text(json.dumps(out, indent=2))
    if not out["rows"]:
        out["problems"].append("no kernel was checked")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    for line in out["problems"]:
        print(f"problem: {line}")
    return 1 if out["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())

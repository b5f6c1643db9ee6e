"""The described games on one backend: each game's summed tables, for comparing devices.

Usage::

    python benchmarks/described_gpu.py --backend jax-gpu --out tables_gpu.json
    JAX_PLATFORMS=cpu python benchmarks/described_gpu.py --backend jax-cpu --out tables_cpu.json

Each of the four described games (``benchmarks/described.py``'s) runs ``--rounds`` rounds of seed
1 with its default strategy on ``--backend``; the outcome, event, decision and wager tables,
summed over chunks, go to ``--out`` with the whole run's rounds/s. A round's cards depend on
(seed, round) only and the settlement is integer arithmetic, so the tables must be equal on
every backend and device (``benchmarks/gpu_check.sh`` compares them).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from described import GAMES


def tables(run) -> dict:
    import polars as pl

    out = {}
    for name, keys in {"outcomes": ["bet", "net"], "events": ["bet", "event"],
                       "decisions": ["point", "action"]}.items():
        df = getattr(run, name)().collect()
        out[name] = df.group_by(keys).agg(pl.col("count").sum()).sort(keys).rows()
    w = run.wagers().collect().group_by("bet").agg(pl.exclude("chunk").sum()).sort("bet")
    out["wagers"] = w.rows()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", required=True)
    p.add_argument("--rounds", type=int, default=1 << 20)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    import gpusim

    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            t0 = time.perf_counter()
            run = gpusim.simulate(game, rounds=args.rounds, seed=1, backend=args.backend,
                                  out=Path(tmp) / game)
            result[game] = {"rounds_per_s": args.rounds / (time.perf_counter() - t0),
                            "device": run.manifest.get("device"), "tables": tables(run)}
    Path(args.out).write_text(json.dumps(result))
    for game, r in result.items():
        print(f"{game:<20} {r['rounds_per_s']:>14,.0f} rounds/s (whole run)  {r['device']}")


if __name__ == "__main__":
    main()

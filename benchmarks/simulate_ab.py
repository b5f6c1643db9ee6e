"""Simulation rates of two source trees side by side: alternated runs, ratios per pair.

Usage::

    python benchmarks/simulate_ab.py BEFORE_TREE AFTER_TREE [--pairs 12]
        [--configs casino_holdem,casino_holdem_evolution,holdem_bonus,holdem_bonus_classic]
        [--repeats 3]

Each tree (a checkout or an exported commit) runs its own ``benchmarks/simulate.py --json`` in a
fresh process with its own ``gpusim`` first on the path and its own compiled-program cache.
The runs alternate (before, after; then after, before; ...) so that a drift of the machine
touches both sides alike, and each row's speed ratio is taken per pair of neighbouring runs.
Printed per config and strategy: the median rounds/s of each side, the ratio of those
medians, the median of the per-pair ratios and their range. On a shared machine one process
can run fast or slow for its whole life, so single runs say little; read the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIGS = "casino_holdem,casino_holdem_evolution,holdem_bonus,holdem_bonus_classic"


def _run(tree: Path, configs: str, repeats: int, cache: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), GPUSIM_COMPILE_CACHE=str(cache))
    cmd = [sys.executable, str(tree / "benchmarks" / "simulate.py"), "--json", "--configs",
           configs, "--repeats", str(repeats), "--peer-rounds", "500", "--peer-repeats", "1"]
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True)
    return {(r["config"], r["strategy"]): r["gpusim_rounds_per_s"]
            for r in json.loads(out.stdout)["rows"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--configs", default=CONFIGS)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    runs: list[dict[str, dict]] = []
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for p in range(args.pairs):
            order = ("before", "after") if p % 2 == 0 else ("after", "before")
            pair = {side: _run(trees[side], args.configs, args.repeats, Path(tmp) / side)
                    for side in order}
            runs.append(pair)
            print(f"pair {p + 1}/{args.pairs} done ({time.perf_counter() - t0:.0f} s)",
                  file=sys.stderr)
    load = " ".join(f"{x:.2f}" for x in load_before)
    after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.pairs} pairs, alternated; load average {load} before, {after} after")
    print("| config | strategy | before M/s | after M/s | ratio of medians | "
          "median pair ratio | pair ratios |")
    print("|---|---|---|---|---|---|---|")
    below = 0
    for key in runs[0]["before"]:
        b = [r["before"][key] for r in runs]
        a = [r["after"][key] for r in runs]
        ratios = [y / x for x, y in zip(b, a, strict=True)]
        mid = statistics.median(ratios)
        below += mid < 0.95
        print(f"| {key[0]} | {key[1]} | {statistics.median(b) / 1e6:.2f} | "
              f"{statistics.median(a) / 1e6:.2f} | "
              f"{statistics.median(a) / statistics.median(b):.3f} | {mid:.3f} | "
              f"{min(ratios):.2f} to {max(ratios):.2f} |")
    print(f"rows whose median pair ratio is below 0.95: {below} of {len(runs[0]['before'])}")


if __name__ == "__main__":
    main()

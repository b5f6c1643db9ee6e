"""A config against another description of the same game, in one run: the exact solve from an
empty cache, and the steady-state simulation rate of each strategy.

Usage::

    python benchmarks/described_vs_package.py --pair casino_holdem=PATH.toml
                                              [--rounds 1048576] [--repeats 5] [--no-solve]

Written to measure each hand-written game (a package, named by its shipped config) against its
TOML description (``PATH.toml``, checked equal round by round in the test suite) before the
package was removed; every shipped game is a description now, so the figures in
docs/performance.md name the commits they were taken on. It still compares a plugin game with
a description of it, or two descriptions of one game.

Each solve runs in its own empty cache folder, the package's first; each strategy's rate is
the median rounds/s over the repeats after a warm-up chunk, the package and the description
taking turns within each repeat (``benchmarks/simulate.py``'s timing), so a change in the
machine's speed touches both alike. Printed: seconds and rounds/s side by side and the
description's ratio to the package (solve time: lower is better; rate: higher).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _solve_seconds(config: str) -> float:
    """Wall seconds of the exact solve (tables and the report) from an empty cache."""
    from gpusim.config import load_config
    from gpusim.runs.exact_on_demand import exact_report

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["GPUSIM_CACHE_DIR"] = tmp
        try:
            rules = load_config(config)
            t0 = time.perf_counter()
            exact_report(rules, "optimal", progress=False)
            return time.perf_counter() - t0
        finally:
            os.environ.pop("GPUSIM_CACHE_DIR", None)


def _runners(config: str, strategies: list[str]) -> dict:
    from gpusim.compute.chunks import ChunkRunner
    from gpusim.config import load_config
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.runs.exact_on_demand import prepare_strategy

    rules = load_config(config)
    out = {}
    for name in strategies:
        prepare_strategy(name, rules, progress=False)
        out[name] = (rules, ChunkRunner(rules, get_strategy(name, rules)))
    return out


def _rates(pairs: dict[str, dict], rounds: int, repeats: int) -> dict[str, float]:
    """Median rounds/s per key; every runner takes its turn within each repeat."""
    from gpusim.games import spec_for

    meters = {k: spec_for(rules).start_meter(rules) for k, (rules, _) in pairs.items()}
    for k, (_, runner) in pairs.items():
        runner(1, 0, rounds, meters[k])  # warm-up: jit compilation
    times: dict[str, list[float]] = {k: [] for k in pairs}
    keys = list(pairs)
    for r in range(repeats):
        # the order alternates, so that neither always runs right after the other (on a
        # 2-core machine the first one's threads may still be winding down)
        for k in keys if r % 2 == 0 else keys[::-1]:
            runner = pairs[k][1]
            t0 = time.perf_counter()
            runner(1, (r + 1) * rounds, rounds, meters[k])
            times[k].append(time.perf_counter() - t0)
    return {k: rounds / statistics.median(t) for k, t in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pair", action="append", required=True, metavar="CONFIG=PATH.toml")
    ap.add_argument("--strategies", default="optimal,basic,always-check")
    ap.add_argument("--rounds", type=int, default=1 << 20)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-solve", action="store_true", help="simulation rates only")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out: dict = {}
    for pair in args.pair:
        package, described = pair.split("=", 1)
        row: dict = {}
        if not args.no_solve:
            row["solve_s"] = {"package": _solve_seconds(package),
                              "described": _solve_seconds(described)}
            row["solve_ratio"] = row["solve_s"]["described"] / row["solve_s"]["package"]
        strategies = [s for s in args.strategies.split(",") if s]
        runners = {}
        for side, config in (("package", package), ("described", described)):
            for name, v in _runners(config, strategies).items():
                runners[f"{side}/{name}"] = v
        rates = _rates(runners, args.rounds, args.repeats)
        row["rate"] = {name: {"package": rates[f"package/{name}"],
                              "described": rates[f"described/{name}"],
                              "ratio": rates[f"described/{name}"] / rates[f"package/{name}"]}
                       for name in strategies}
        out[package] = row
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    for game, row in out.items():
        if "solve_s" in row:
            s = row["solve_s"]
            print(f"{game}: solve {s['package']:.1f} s (package) vs {s['described']:.1f} s "
                  f"(described): {row['solve_ratio']:.3f}x")
        for name, r in row["rate"].items():
            print(f"{game}/{name}: {r['package']:,.0f} vs {r['described']:,.0f} rounds/s: "
                  f"{r['ratio']:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

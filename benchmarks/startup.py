"""Where a `gpusim simulate` process spends its fixed cost, phase by phase, against a warm batch.

Usage::

    python benchmarks/startup.py [--config casino_holdem] [--strategy optimal] [--repeats 3]

Each repeat is a fresh Python process (the compile cache in the user cache folder stays warm, as
for a user's second run) that times, in order: importing JAX and enabling the compile cache;
loading the config; loading the strategy (its decision tables); the dealer-qualifier threshold
(Casino Hold'em; it traces the evaluator once); building the chunk runner; the first batch of
2^18 rounds (tracing and lowering the programs, then the compile cache answers); and a second,
warm batch of the same size for comparison. Medians over the repeats are printed, in seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

_PHASES = r"""
import json, sys, time
t = [time.perf_counter()]
def mark(): t.append(time.perf_counter())
import jax
from gpusim.compile_cache import enable
enable(); mark()
from gpusim.config import load_config
rules = load_config(sys.argv[1]); mark()
from gpusim.strategy import get_strategy
strategy = get_strategy(sys.argv[2], rules); mark()
if rules.game == "casino_holdem":
    from gpusim.games.casino_holdem import qualifier_threshold
    qualifier_threshold(rules.dealer_qualifier)
mark()
from gpusim.sim.chunks import CPU_BATCH, ChunkRunner
runner = ChunkRunner(rules, strategy); mark()
runner(2026, 0, CPU_BATCH, 0); mark()
runner(2026, CPU_BATCH, CPU_BATCH, 0); mark()
print(json.dumps([b - a for a, b in zip(t, t[1:])]))
"""

NAMES = ("import jax + compile cache", "config", "strategy", "qualifier threshold",
         "chunk runner", "first batch (trace, lower, cache)", "second batch (warm)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="casino_holdem")
    ap.add_argument("--strategy", default="optimal")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    runs = []
    for _ in range(args.repeats + 1):  # the first fills the compile cache; not counted
        out = subprocess.run([sys.executable, "-c", _PHASES, args.config, args.strategy],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    runs = runs[1:]
    print(f"{args.config} / {args.strategy}: medians of {args.repeats} fresh processes, seconds")
    for i, name in enumerate(NAMES):
        print(f"  {name:<36} {statistics.median(r[i] for r in runs):7.3f}")


if __name__ == "__main__":
    main()

"""Steady-state simulation speed of the described games beside Casino Hold'em ``optimal``, in
one run on one machine.

Usage::

    python benchmarks/described.py [--rounds 1048576] [--repeats 5] [--json]

Each game plays whole chunks as ``gpusim simulate`` does (deal, decide, settle, count into the
integer tables; Parquet writing excluded) with its config's default strategy, after a warm-up
chunk that pays for compiling; the games take turns within each repeat, so a change in the
machine's speed touches them alike. It prints each game's median rounds/s and its ratio to
Casino Hold'em ``optimal`` (the target: 0.8 or more, since none of them ranks more cards).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

GAMES = ("three_card_poker", "mississippi_stud", "let_it_ride", "caribbean_stud")
PEER = ("casino_holdem", "optimal")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=1 << 20, help="rounds per timed chunk")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()

    from gpusim.compute.chunks import ChunkRunner
    from gpusim.config import load_config
    from gpusim.games.strategy_registry import get_strategy

    cases = [PEER, *((g, None) for g in GAMES)]
    runners = {}
    for config, strategy in cases:
        rules = load_config(config)
        name = strategy or rules.default_strategy
        runner = ChunkRunner(rules, get_strategy(name, rules))
        runner(1, 0, args.rounds, 0)  # warm-up: compiles
        runners[f"{config}/{name}"] = runner
    times: dict[str, list[float]] = {k: [] for k in runners}
    for k in range(args.repeats):
        for key, runner in runners.items():
            t0 = time.perf_counter()
            runner(1, (k + 1) * args.rounds, args.rounds, 0)
            times[key].append(time.perf_counter() - t0)
    rates = {k: args.rounds / statistics.median(t) for k, t in times.items()}
    peer = rates[f"{PEER[0]}/{PEER[1]}"]
    out = {k: {"rounds_per_s": round(v), "x_casino_holdem": round(v / peer, 3)}
           for k, v in rates.items()}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.rounds:,} rounds per chunk, median of {args.repeats}")
    for k, v in out.items():
        print(f"  {k:<40} {v['rounds_per_s']:>12,} rounds/s  {v['x_casino_holdem']:.2f}x")


if __name__ == "__main__":
    main()

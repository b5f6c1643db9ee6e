"""How a described game's settlement builds each hand's cards, three ways side by side: the
batch program of each (config, strategy) compiled with its hands gathered, sliced, and as the
engine builds them (gathered where a decision point sees a hand of that size whole, sliced
otherwise: ``gpusim/games/described/engine.py`` ``_rank``), then timed on the same batches.

Usage::

    python benchmarks/hand_columns.py [--pairs holdem_bonus:optimal,ultimate_holdem:optimal]
                                      [--repeats 15] [--batch 262144]

One process builds every program (no compiled-program cache) and times one batch of each in
turn, the order reversed every other repeat, so a drift of the machine touches all alike.
Printed per pair: the median milliseconds per batch of each build and the engine's speed-up
over gathering every hand and over slicing every hand (above 1: the engine's build is faster).
Programs that compile to the same code differ by this machine's noise only.
"""

from __future__ import annotations

import argparse
import statistics
import time

PAIRS = ("holdem_bonus:optimal,holdem_bonus:basic,ultimate_holdem:optimal,casino_holdem:optimal,"
         "three_card_poker:optimal,mississippi_stud:optimal,caribbean_stud:optimal")
BUILDS = ("gather", "slice", "engine")


def _programs(config: str, strategy: str, batch: int) -> dict:
    """{build: the batch program} of one config and strategy."""
    import jax
    import numpy as np

    from gpusim.compute.chunks import ChunkRunner
    from gpusim.config import load_config
    from gpusim.games.described import engine
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.rng import seed_key
    from gpusim.runs.exact_on_demand import prepare_strategy

    rules = load_config(config)
    prepare_strategy(strategy, rules, progress=False)
    sizes = {"gather": frozenset(range(2, 10)), "slice": frozenset(),
             "engine": engine._gathered_sizes(rules.game_def)}
    own = engine._gathered_sizes
    key = tuple(np.uint32(k) for k in seed_key(1))
    out = {}
    try:
        for build in BUILDS:
            engine._gathered_sizes = lambda d, s=sizes[build]: s  # traced in now
            runner = ChunkRunner(rules, get_strategy(strategy, rules), program_cache=False)
            program = runner.program(batch)
            jax.block_until_ready(program(*key, np.uint32(0), np.uint32(0), np.int32(batch)))
            out[build] = program
    finally:
        engine._gathered_sizes = own
    return out


def main() -> int:
    import jax
    import numpy as np

    from gpusim.rng import seed_key

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", default=PAIRS, help="CONFIG:STRATEGY, comma-separated")
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--batch", type=int, default=1 << 18)
    args = ap.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",") if p]
    programs = {(c, s, b): p for c, s in pairs for b, p in _programs(c, s, args.batch).items()}
    key = tuple(np.uint32(k) for k in seed_key(1))
    times: dict = {k: [] for k in programs}
    order = list(programs)
    for r in range(args.repeats):
        first = np.uint32(args.batch * (r + 1))
        for k in order if r % 2 == 0 else order[::-1]:
            t0 = time.perf_counter()
            jax.block_until_ready(programs[k](*key, first, np.uint32(0), np.int32(args.batch)))
            times[k].append(time.perf_counter() - t0)
    print(f"{'config:strategy':32s} {'gather ms':>10s} {'slice ms':>10s} {'engine ms':>10s} "
          f"{'vs gather':>10s} {'vs slice':>10s}")
    for c, s in pairs:
        ms = {b: statistics.median(times[(c, s, b)]) * 1e3 for b in BUILDS}
        print(f"{c + ':' + s:32s} {ms['gather']:10.1f} {ms['slice']:10.1f} {ms['engine']:10.1f} "
              f"{ms['gather'] / ms['engine']:9.2f}x {ms['slice'] / ms['engine']:9.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How a batch is cut into compiled programs, measured: the layouts gpusim.compute.program chose
from.

Usage::

    python benchmarks/program_split.py [--config casino_holdem] [--strategy optimal] [--repeats 5]

Each layout computes the same 2^18-round batches (deal, decide, settle, joint-code histogram)
and must give the same histogram; 16 batches are dispatched back to back, as a chunk does, and
the median rounds/s over the repeats is printed, the layouts taking turns within each repeat.

- ``3 programs``: deal | decide and settle | reduce (gpusim before the split);
- ``1 program``: everything in one;
- ``codes in the first``: deal, decide, settle and joint codes | histogram;
- ``chosen``: deal, decide, settle (events and stakes only) | codes and histogram, the layout
  of :class:`gpusim.compute.program.BatchProgram`.
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.compute.chunks import ChunkRunner
from gpusim.compute.device_reduce import SettledBets
from gpusim.config import load_config
from gpusim.dealing import deal_rounds
from gpusim.games import settle
from gpusim.games.strategy_registry import get_strategy

BATCH = 1 << 18


def layouts(rules, strategy):
    reducer = ChunkRunner(rules, strategy).reducer

    def cards_of(k0, k1, lo0, hi0):
        lo = lo0 + jnp.arange(BATCH, dtype=jnp.uint32)
        return deal_rounds(k0, k1, lo, hi0 + (lo < lo0).astype(jnp.uint32), 9)

    def settled(cards):
        s = settle(cards, strategy.decide(cards), rules)
        return {"events": s.events, "stakes": s.stakes}

    def histogram(part, n):
        return reducer.reduce(SettledBets(**part), n)

    def codes(part):
        code = reducer._code(SettledBets(**part))  # noqa: SLF001 -- the layout under test
        if not reducer.has_jackpot:
            return code, jnp.zeros(code.shape, bool)
        return code, (part["events"]["jackpot"] == reducer._royal) & (  # noqa: SLF001
            part["stakes"]["jackpot"] > 0)

    def code_histogram(code, royal, n):
        n_bins = reducer.n_bins
        valid = jnp.arange(code.shape[0]) < n
        royal = royal & valid
        bins = jnp.bincount(jnp.where(royal | ~valid, n_bins, code), length=n_bins + 1)
        return bins[:n_bins]

    deal_j = jax.jit(cards_of)
    step_j = jax.jit(settled)
    hist_j = jax.jit(histogram)
    one_j = jax.jit(lambda a, b, c, d, n: histogram(settled(cards_of(a, b, c, d)), n))
    first_codes_j = jax.jit(lambda a, b, c, d: codes(settled(cards_of(a, b, c, d))))
    code_hist_j = jax.jit(code_histogram)
    chosen_j = jax.jit(lambda a, b, c, d: settled(cards_of(a, b, c, d)))
    return {
        "3 programs": lambda w, n: hist_j(step_j(deal_j(*w)), n)["bins"],
        "1 program": lambda w, n: one_j(*w, n)["bins"],
        "codes in the first": lambda w, n: code_hist_j(*first_codes_j(*w), n),
        "chosen": lambda w, n: hist_j(chosen_j(*w), n)["bins"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="casino_holdem")
    ap.add_argument("--strategy", default="optimal")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rules = load_config(args.config)
    fns = layouts(rules, get_strategy(args.strategy, rules))
    u32, n = np.uint32, np.int32(BATCH)

    def words(i):
        return u32(7), u32(0), u32(i * BATCH), u32(0)

    want = np.asarray(fns["chosen"](words(3), n))
    for name, fn in fns.items():  # warm up (compile), and the same histogram from every layout
        if not np.array_equal(np.asarray(fn(words(3), n)), want):
            raise SystemExit(f"{name}: a different histogram")
    rates: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(args.repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            jax.block_until_ready([fn(words(i), n) for i in range(16)])
            rates[name].append(16 * BATCH / (time.perf_counter() - t0))
    print(f"{args.config} / {args.strategy}: 16 batches of 2^18 rounds, medians of "
          f"{args.repeats} (layouts take turns)")  # fmt: skip
    base = statistics.median(rates["chosen"])
    for name, r in rates.items():
        m = statistics.median(r)
        print(f"  {name:<20} {m / 1e6:7.2f} M rounds/s   chosen / this {base / m:5.2f}")


if __name__ == "__main__":
    main()

"""Randomness battery for the dealer, in the style of gaming test-lab lists (GLI-11).

Over ``rounds`` dealt rounds of one seed (9 cards each, exactly as ``gpusim simulate`` deals
them) and the generator's raw Threefry words for the same rounds:

- ``position[i]``: chi-square uniformity of the card at each of the 9 positions (52 cells);
- ``pair[i,j]``: independence of every pair of positions: the ordered pair of cards at
  positions i < j is uniform over the 52 x 51 = 2,652 pairs of distinct cards;
- ``hole_combos``: uniformity of the 1,326 unordered hole-card combinations (positions 0, 1);
- ``category``: each 5-card hand category of the player's first five cards (hole + flop)
  against its exact probability out of 2,598,960 (royal flush separate from straight flush;
  top categories are merged until every expected count is at least 5);
- ``gap``: Knuth's gap test on the raw words as uniforms in [0, 1): gaps between words in
  [0, 1/8) against the geometric law;
- ``runs``: Wald-Wolfowitz runs above/below 1/2 (normal approximation, two-sided), and
  ``run_lengths``: the lengths of those runs against the geometric law (chi-square).

Significance: the family of tests is judged at ``ALPHA`` = 0.01 together, so each test fails
when p < ALPHA / (number of tests) (Bonferroni). A fixed seed makes every p-value reproducible.

Run: ``python -m gpusim.randomness --rounds 1e8 --seed 1`` (add ``--json`` for JSON).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["ALPHA", "CATEGORY_COUNTS", "Tallies", "battery", "evaluate_tallies", "tally"]

ALPHA = 0.01
N_POS = 9
PAIRS = tuple((i, j) for i in range(N_POS) for j in range(i + 1, N_POS))
CATEGORY_COUNTS = (1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4)
"""Five-card hands of each category (``gpusim.cards.CATEGORY_KEYS`` order) out of
C(52, 5) = 2,598,960 (textbook counts)."""
GAP_P = 1 / 8
GAP_CELLS = 60  # gap lengths 0..58, then ">= 59" (expected share of the tail ~0.04 %)
RUN_CELLS = 24  # run lengths 1..23, then ">= 24"
CHUNK = 1 << 20


@dataclass
class Tallies:
    """Integer counts accumulated over the dealt rounds and raw words (all int64)."""

    rounds: int
    position: np.ndarray  # (9, 52)
    pair: np.ndarray  # (36, 2704): card at i * 52 + card at j, for PAIRS[k] = (i, j)
    hole: np.ndarray  # (2704,) min * 52 + max of the two hole cards
    category: np.ndarray  # (10,) gpusim.cards.CATEGORY_KEYS order
    gap: np.ndarray  # (GAP_CELLS,)
    run_len: np.ndarray  # (RUN_CELLS,)
    runs: int  # number of runs above/below 1/2
    above: int  # words >= 1/2
    words: int


def _raw_words(seed: int, first: int, n: int) -> np.ndarray:
    """The first Threefry word the dealer draws for each round (block 0, attempt 0), as the
    64-bit integer the dealer uses (out0 * 2**32 + out1)."""
    import jax.numpy as jnp

    from gpusim.rng import seed_key, threefry2x32

    k0, k1 = seed_key(seed)
    r = np.arange(first, first + n, dtype=np.uint64)
    lo = jnp.asarray((r & np.uint64(0xFFFFFFFF)).astype(np.uint32))
    hi = jnp.asarray((r >> np.uint64(32)).astype(np.uint32))
    o0, o1 = threefry2x32(np.uint32(k0), np.uint32(k1), lo, hi)
    return (np.asarray(o0).astype(np.uint64) << np.uint64(32)) | np.asarray(o1).astype(np.uint64)


def tally(seed: int, rounds: int, *, chunk: int = CHUNK, cards_fn=None, words_fn=None) -> Tallies:
    """Deal ``rounds`` rounds of ``seed`` chunk by chunk and count everything the tests need.

    ``cards_fn(first, n) -> (n, 9) int`` and ``words_fn(first, n) -> (n,) uint64`` replace the
    dealer and the raw generator (the tests feed deliberately biased ones to show the battery
    can fail).
    """
    from gpusim.dealing import deal
    from gpusim.evaluator import evaluate, hand_category, is_royal

    if cards_fn is None:
        cards_fn = lambda first, n: np.asarray(deal(seed, first, n, N_POS))  # noqa: E731
    if words_fn is None:
        words_fn = lambda first, n: _raw_words(seed, first, n)  # noqa: E731
    t = Tallies(rounds, np.zeros((N_POS, 52), np.int64), np.zeros((len(PAIRS), 2704), np.int64),
                np.zeros(2704, np.int64), np.zeros(10, np.int64), np.zeros(GAP_CELLS, np.int64),
                np.zeros(RUN_CELLS, np.int64), 0, 0, 0)
    gap_open = -1  # index (in the whole stream) of the last word in the gap interval
    run_bit, run_len = -1, 0
    offsets = np.arange(N_POS, dtype=np.int64) * 52
    for first in range(0, rounds, chunk):
        n = min(chunk, rounds - first)
        cards = np.asarray(cards_fn(first, n)).astype(np.int64)
        t.position += np.bincount((cards + offsets).ravel(), minlength=N_POS * 52).reshape(
            N_POS, 52)
        for k, (i, j) in enumerate(PAIRS):
            t.pair[k] += np.bincount(cards[:, i] * 52 + cards[:, j], minlength=2704)
        a, b = np.minimum(cards[:, 0], cards[:, 1]), np.maximum(cards[:, 0], cards[:, 1])
        t.hole += np.bincount(a * 52 + b, minlength=2704)
        five = cards[:, [0, 1, 4, 5, 6]].astype(np.int32)
        rank = evaluate(five)
        cat = np.asarray(hand_category(rank)).astype(np.int64)
        cat = np.where(np.asarray(is_royal(rank)), 9, cat)
        t.category += np.bincount(cat, minlength=10)

        words = np.asarray(words_fn(first, n), dtype=np.uint64)
        top = words >> np.uint64(61)  # the word's top 3 bits: 0 <=> u in [0, 1/8)
        hit = np.flatnonzero(top == 0) + first
        if hit.size:
            starts = np.concatenate([[gap_open], hit[:-1]]) if gap_open >= 0 else hit[:-1]
            ends = hit if gap_open >= 0 else hit[1:]
            gaps = np.minimum(ends - starts - 1, GAP_CELLS - 1)
            t.gap += np.bincount(gaps, minlength=GAP_CELLS)
            gap_open = int(hit[-1])
        bits = (words >> np.uint64(63)).astype(np.int8)  # u >= 1/2
        t.above += int(bits.sum())
        t.words += n
        change = np.flatnonzero(np.diff(bits)) + 1  # where a new run starts inside the chunk
        bounds = np.concatenate([[0], change, [n]])
        lens = np.diff(bounds)
        if run_bit == bits[0]:
            lens[0] += run_len
        elif run_len:
            t.run_len[min(run_len, RUN_CELLS) - 1] += 1
            t.runs += 1
        full = lens[:-1]  # the last run may continue into the next chunk
        t.run_len += np.bincount(np.minimum(full, RUN_CELLS) - 1, minlength=RUN_CELLS)
        t.runs += len(full)
        run_bit, run_len = int(bits[-1]), int(lens[-1])
    if run_len:
        t.run_len[min(run_len, RUN_CELLS) - 1] += 1
        t.runs += 1
    return t


def _chi2_p(observed: np.ndarray, expected: np.ndarray) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, upper-tail p) of a goodness-of-fit chi-square."""
    from scipy.stats import chi2

    o = np.asarray(observed, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    stat = float(((o - e) ** 2 / e).sum())
    df = len(o) - 1
    return stat, df, float(chi2.sf(stat, df))


def _merge_small(observed: np.ndarray, expected: np.ndarray, least: float = 5.0):
    """Merge cells from the end until the last expected count is at least ``least``."""
    o, e = list(observed), list(expected)
    while len(e) > 2 and e[-1] < least:
        o[-2] += o.pop()
        e[-2] += e.pop()
    return np.array(o), np.array(e)


def evaluate_tallies(t: Tallies) -> list[dict]:
    """One dict per test: {test, statistic, df, p}. See the module docstring for the tests."""
    out = []
    n = t.rounds
    for i in range(N_POS):
        s, df, p = _chi2_p(t.position[i], np.full(52, n / 52))
        out.append({"test": f"position[{i}]", "statistic": s, "df": df, "p": p})
    off = ~np.eye(52, dtype=bool).ravel()
    for k, (i, j) in enumerate(PAIRS):
        assert t.pair[k][~off].sum() == 0, "a card was dealt twice in one round"
        s, df, p = _chi2_p(t.pair[k][off], np.full(2652, n / 2652))
        out.append({"test": f"pair[{i},{j}]", "statistic": s, "df": df, "p": p})
    upper = np.triu(np.ones((52, 52), dtype=bool), 1).ravel()
    s, df, p = _chi2_p(t.hole[upper], np.full(1326, n / 1326))
    out.append({"test": "hole_combos", "statistic": s, "df": df, "p": p})
    # highest category first, so that rare ones merge downwards into the next rarest
    probs = np.array(CATEGORY_COUNTS[::-1], dtype=np.float64) / 2_598_960
    o, e = _merge_small(t.category[::-1], probs * n)
    s, df, p = _chi2_p(o[::-1], e[::-1])
    out.append({"test": "category", "statistic": s, "df": df, "p": p})
    gaps = int(t.gap.sum())
    r = np.arange(GAP_CELLS)
    pg = GAP_P * (1 - GAP_P) ** r
    pg[-1] = (1 - GAP_P) ** (GAP_CELLS - 1)
    o, e = _merge_small(t.gap, pg * gaps)
    s, df, p = _chi2_p(o, e)
    out.append({"test": "gap", "statistic": s, "df": df, "p": p})
    n1, n0 = t.above, t.words - t.above
    m = t.words
    mean = 2 * n1 * n0 / m + 1
    var = 2 * n1 * n0 * (2 * n1 * n0 - m) / (m * m * (m - 1))
    z = (t.runs - mean) / math.sqrt(var)
    out.append({"test": "runs", "statistic": z, "df": None, "p": math.erfc(abs(z) / math.sqrt(2))})
    runs = int(t.run_len.sum())
    lr = np.arange(1, RUN_CELLS + 1)
    pr = 0.5**lr
    pr[-1] = 0.5 ** (RUN_CELLS - 1)
    o, e = _merge_small(t.run_len, pr * runs)
    s, df, p = _chi2_p(o, e)
    out.append({"test": "run_lengths", "statistic": s, "df": df, "p": p})
    return out


def battery(seed: int, rounds: int, *, chunk: int = CHUNK) -> dict:
    """Tally and test; ``{"seed", "rounds", "alpha", "per_test_alpha", "tests", "passed"}``."""
    results = evaluate_tallies(tally(seed, rounds, chunk=chunk))
    per_test = ALPHA / len(results)
    for r in results:
        r["pass"] = r["p"] >= per_test
    return {"seed": seed, "rounds": rounds, "alpha": ALPHA, "per_test_alpha": per_test,
            "tests": results, "passed": all(r["pass"] for r in results)}


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json
    import time

    from gpusim.runs.runner import SimulationError, parse_rounds

    ap = argparse.ArgumentParser(prog="python -m gpusim.randomness",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", default="1e8")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        rounds = parse_rounds(args.rounds)
    except SimulationError as exc:
        ap.exit(2, f"gpusim: error: {exc}\n")
    t0 = time.perf_counter()
    res = battery(args.seed, rounds)
    res["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(f"seed {args.seed}, {rounds:,} rounds, {res['seconds']} s; family alpha "
              f"{ALPHA} (Bonferroni: each test fails below p = {res['per_test_alpha']:.2e})")
        for r in res["tests"]:
            df = "" if r["df"] is None else f"df {r['df']}"
            print(f"  {r['test']:<14} stat {r['statistic']:>12.3f} {df:>8}  p {r['p']:.4f}"
                  f"  {'pass' if r['pass'] else 'FAIL'}")
        print("all passed" if res["passed"] else "FAILED")
    return 0 if res["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

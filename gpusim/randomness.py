"""Randomness battery for the dealer, in the style of gaming test-lab lists (GLI-11).

Over ``rounds`` dealt rounds of one seed (C cards each, exactly as ``gpusim simulate`` deals
them: C = 9 for the hold'em games, the default; a run's own game otherwise, see
:func:`battery_for_run`) and the generator's raw Threefry words for the same rounds:

- ``position[i]``: chi-square uniformity of the card at each of the C positions (52 cells);
- ``pair[i,j]``: independence of every pair of positions: the ordered pair of cards at
  positions i < j is uniform over the 52 x 51 = 2,652 pairs of distinct cards;
- ``hole_combos``: uniformity of the 1,326 unordered combinations of the first two cards
  (positions 0, 1: a hold'em player's hole cards);
- ``category``: each 5-card hand category of the player's first five cards (hold'em: hole +
  flop; in general the player's cards, then the board's, when they reach five) against its
  exact probability out of 2,598,960 (royal flush separate from straight flush; top categories
  are merged until every expected count is at least 5). Left out where the player never holds
  five cards (Three Card Poker);
- ``gap``: Knuth's gap test on the raw words as uniforms in [0, 1): gaps between words in
  [0, 1/8) against the geometric law;
- ``runs``: Wald-Wolfowitz runs above/below 1/2 (normal approximation, two-sided), and
  ``run_lengths``: the lengths of those runs against the geometric law (chi-square).

Significance: the family of tests is judged at ``ALPHA`` = 0.01 together, so each test fails
when p < ALPHA / (number of tests) (Bonferroni). A fixed seed makes every p-value reproducible.

Run: ``python -m gpusim.randomness --rounds 1e8 --seed 1`` (add ``--json`` for JSON), or
``gpusim randomness --run RUN`` for a run folder's own generator stream.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["ALPHA", "CATEGORY_COUNTS", "DEFAULT_RUN_ROUNDS", "HOLDEM_FIVE", "Tallies",
           "battery", "battery_for_run", "battery_text", "deal_shape", "evaluate_tallies",
           "five_card_columns", "tally"]

ALPHA = 0.01
N_POS = 9  # a hold'em round: the default deal
HOLDEM_FIVE: tuple[int, ...] = (0, 1, 4, 5, 6)
"""The hold'em player's first five cards: the two hole cards and the flop."""
DEFAULT_RUN_ROUNDS = 10**7
"""Rounds :func:`battery_for_run` tests by default (fewer when the run has fewer)."""


def _pairs(n_cards: int) -> tuple[tuple[int, int], ...]:
    return tuple((i, j) for i in range(n_cards) for j in range(i + 1, n_cards))


PAIRS = _pairs(N_POS)
CATEGORY_COUNTS = (1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4)
"""Five-card hands of each category (``gpusim.cards.CATEGORY_KEYS`` order) out of
C(52, 5) = 2,598,960 (textbook counts)."""
GAP_P = 1 / 8
GAP_CELLS = 60  # gap lengths 0..58, then ">= 59" (expected share of the tail ~0.04 %)
RUN_CELLS = 24  # run lengths 1..23, then ">= 24"
CHUNK = 1 << 20


@dataclass
class Tallies:
    """Integer counts accumulated over the dealt rounds and raw words (all int64); C cards per
    round, P = C (C - 1) / 2 pairs of positions."""

    rounds: int
    position: np.ndarray  # (C, 52)
    pair: np.ndarray  # (P, 2704): card at i * 52 + card at j, for pairs[k] = (i, j)
    hole: np.ndarray  # (2704,) min * 52 + max of the first two cards
    category: np.ndarray | None  # (10,) gpusim.cards.CATEGORY_KEYS order; None: no five cards
    gap: np.ndarray  # (GAP_CELLS,)
    run_len: np.ndarray  # (RUN_CELLS,)
    runs: int  # number of runs above/below 1/2
    above: int  # words >= 1/2
    words: int

    @property
    def n_cards(self) -> int:
        return int(self.position.shape[0])

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return _pairs(self.n_cards)


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


def tally(seed: int, rounds: int, *, chunk: int = CHUNK, cards_fn=None, words_fn=None,
          n_cards: int = N_POS, five: tuple[int, ...] | None = HOLDEM_FIVE,
          first_round: int = 0) -> Tallies:
    """Deal rounds ``first_round .. first_round + rounds - 1`` of ``seed`` chunk by chunk
    (``n_cards`` cards each, 2..52) and count everything the tests need; the category test
    counts the hands of the five card columns ``five`` (None: no category test).

    ``cards_fn(first, n) -> (n, n_cards) int`` and ``words_fn(first, n) -> (n,) uint64``
    replace the dealer and the raw generator (the tests feed deliberately biased ones to show
    the battery can fail); ``first`` is the global round index of the chunk's first round.
    """
    from gpusim.dealing import deal
    from gpusim.evaluator import evaluate, hand_category, is_royal

    if not 2 <= n_cards <= 52:
        raise ValueError(f"n_cards: got {n_cards}; must be 2..52")
    if five is not None and (len(five) != 5 or not all(0 <= c < n_cards for c in five)):
        raise ValueError(f"five: got {five}; must be five card columns in 0..{n_cards - 1}")
    if cards_fn is None:
        cards_fn = lambda first, n: np.asarray(deal(seed, first, n, n_cards))  # noqa: E731
    if words_fn is None:
        words_fn = lambda first, n: _raw_words(seed, first, n)  # noqa: E731
    pairs = _pairs(n_cards)
    t = Tallies(rounds, np.zeros((n_cards, 52), np.int64),
                np.zeros((len(pairs), 2704), np.int64), np.zeros(2704, np.int64),
                None if five is None else np.zeros(10, np.int64),
                np.zeros(GAP_CELLS, np.int64), np.zeros(RUN_CELLS, np.int64), 0, 0, 0)
    gap_open = -1  # index (in the whole stream) of the last word in the gap interval
    run_bit, run_len = -1, 0
    offsets = np.arange(n_cards, dtype=np.int64) * 52
    for first in range(first_round, first_round + rounds, chunk):
        n = min(chunk, first_round + rounds - first)
        cards = np.asarray(cards_fn(first, n)).astype(np.int64)
        if cards.shape != (n, n_cards):
            raise ValueError(f"cards_fn: got shape {cards.shape}; expected {(n, n_cards)}")
        t.position += np.bincount((cards + offsets).ravel(), minlength=n_cards * 52).reshape(
            n_cards, 52)
        for k, (i, j) in enumerate(pairs):
            t.pair[k] += np.bincount(cards[:, i] * 52 + cards[:, j], minlength=2704)
        a, b = np.minimum(cards[:, 0], cards[:, 1]), np.maximum(cards[:, 0], cards[:, 1])
        t.hole += np.bincount(a * 52 + b, minlength=2704)
        if t.category is not None and five is not None:
            rank = evaluate(cards[:, list(five)].astype(np.int32))
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
        # pop first, then add: ``o[-2] += o.pop()`` reads o[-2] before the pop and writes it
        # after, into the cell before it, which scrambles the cells
        last_o, last_e = o.pop(), e.pop()
        o[-1] += last_o
        e[-1] += last_e
    return np.array(o), np.array(e)


def evaluate_tallies(t: Tallies) -> list[dict]:
    """One dict per test: {test, statistic, df, p}. See the module docstring for the tests."""
    out = []
    n = t.rounds
    for i in range(t.n_cards):
        s, df, p = _chi2_p(t.position[i], np.full(52, n / 52))
        out.append({"test": f"position[{i}]", "statistic": s, "df": df, "p": p})
    off = ~np.eye(52, dtype=bool).ravel()
    for k, (i, j) in enumerate(t.pairs):
        assert t.pair[k][~off].sum() == 0, "a card was dealt twice in one round"
        s, df, p = _chi2_p(t.pair[k][off], np.full(2652, n / 2652))
        out.append({"test": f"pair[{i},{j}]", "statistic": s, "df": df, "p": p})
    upper = np.triu(np.ones((52, 52), dtype=bool), 1).ravel()
    s, df, p = _chi2_p(t.hole[upper], np.full(1326, n / 1326))
    out.append({"test": "hole_combos", "statistic": s, "df": df, "p": p})
    if t.category is not None:
        # weakest category first: _merge_small merges from the end, so the rare top ones
        # (royal flush, straight flush, ...) merge downwards into the next rarest
        probs = np.array(CATEGORY_COUNTS, dtype=np.float64) / 2_598_960
        o, e = _merge_small(t.category, probs * n)
        s, df, p = _chi2_p(o, e)
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


def battery(seed: int, rounds: int, *, chunk: int = CHUNK, n_cards: int = N_POS,
            five: tuple[int, ...] | None = HOLDEM_FIVE, first_round: int = 0) -> dict:
    """Tally and test (arguments as for :func:`tally`; the defaults deal hold'em rounds 0..).

    Returns ``{"seed", "rounds", "first_round", "cards_per_round", "category_cards" (the five
    columns of the category test, or None), "alpha", "per_test_alpha", "tests", "passed"}``;
    ``tests``: one dict per test, ``{"test", "statistic", "df" (None for the normal-statistic
    ``runs``), "p", "pass"}``, a test passing when p >= per_test_alpha = alpha / len(tests).
    """
    results = evaluate_tallies(tally(seed, rounds, chunk=chunk, n_cards=n_cards, five=five,
                                     first_round=first_round))
    per_test = ALPHA / len(results)
    for r in results:
        r["pass"] = r["p"] >= per_test
    return {"seed": seed, "rounds": rounds, "first_round": first_round,
            "cards_per_round": n_cards, "category_cards": None if five is None else list(five),
            "alpha": ALPHA, "per_test_alpha": per_test, "tests": results,
            "passed": all(r["pass"] for r in results)}


def five_card_columns(layout) -> tuple[int, ...] | None:
    """The player's first five cards in a game's card layout ({seat: columns}): the player's
    own columns, then the board's, when they reach five (hold'em: hole cards and flop,
    :data:`HOLDEM_FIVE`); None when the player never holds five cards."""
    cols = (*layout.get("player", ()), *layout.get("board", ()))
    return tuple(int(c) for c in cols[:5]) if len(cols) >= 5 else None


def deal_shape(rules) -> tuple[int, tuple[int, ...] | None]:
    """(cards per round, the category test's five columns or None) of a config's game, as
    ``gpusim simulate`` deals it (``spec.cards_per_round`` cards per round)."""
    from gpusim.games import spec_for

    spec = spec_for(rules)
    return spec.cards_per_round, five_card_columns(spec.card_layout)


def battery_for_run(run, rounds: int | None = None, *, chunk: int = CHUNK) -> dict:
    """The battery over a run folder's own generator stream: its seed, its game's deal (cards
    per round and the category test's columns, :func:`deal_shape`) and its rounds (a shard's
    from its first round).

    run: a run-folder path (written by ``gpusim simulate --out``). rounds: how many of its
    rounds to test, from its first; default ``min(run rounds, DEFAULT_RUN_ROUNDS)``, and never
    more than the run has (the run's planned rounds: a round's cards depend on the seed and the
    round index alone, so an unfinished run's stream is tested as it is or will be dealt).

    Returns :func:`battery`'s dict with ``"run"`` (the folder), ``"config"``, ``"game"`` and
    ``"run_rounds"`` ahead of its keys. Raises ValueError (one line) for a folder that is not a
    run, a manifest whose config cannot be rebuilt, or rounds < 1.
    """
    from gpusim.runs.manifest import rules_from_manifest
    from gpusim.runs.runfolder import RunFolder

    folder = RunFolder.open(run)
    m = folder.manifest
    rules = rules_from_manifest(m)
    shard = m.get("shard")
    planned = int(shard["n_rounds"] if shard else m["rounds"])
    first = int((m.get("chunk_plan") or {}).get("first_round", 0))
    if rounds is not None and (isinstance(rounds, bool) or int(rounds) < 1):
        raise ValueError(f"rounds: got {rounds!r}; must be at least 1")
    n = min(planned, DEFAULT_RUN_ROUNDS if rounds is None else int(rounds))
    n_cards, five = deal_shape(rules)
    res = battery(int(m["seed"]), n, chunk=chunk, n_cards=n_cards, five=five, first_round=first)
    return {"run": str(folder.path), "config": m.get("config_name"), "game": m.get("game"),
            "run_rounds": planned, **res}


def _p_text(p: float) -> str:
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.2e}"


def battery_text(res: dict) -> str:
    """The battery's result (:func:`battery` or :func:`battery_for_run`) as lines of text: one
    per test (name, statistic, degrees of freedom, p, pass/FAIL), then the verdict."""
    lines = []
    if "run" in res:
        last = res["first_round"] + res["rounds"] - 1
        lines.append(f"run {res['run']}: {res['config']} ({res['game']}), rounds "
                     f"{res['first_round']:,}..{last:,} of its {res['run_rounds']:,}")
    elif "config" in res:
        lines.append(f"dealt as config {res['config']} deals")
    took = f", {res['seconds']} s" if "seconds" in res else ""
    lines.append(f"seed {res['seed']}, {res['rounds']:,} rounds of {res['cards_per_round']} "
                 f"cards{took}; family alpha {res['alpha']} (Bonferroni: each test fails below "
                 f"p = {res['per_test_alpha']:.2e})")
    for r in res["tests"]:
        df = "" if r["df"] is None else f"df {r['df']}"
        lines.append(f"  {r['test']:<14} stat {r['statistic']:>12.3f} {df:>8}  "
                     f"p {_p_text(r['p']):>8}  {'pass' if r['pass'] else 'FAIL'}")
    if res["category_cards"] is None:
        lines.append("  (no category test: the player never holds five cards)")
    bad = [r["test"] for r in res["tests"] if not r["pass"]]
    n = len(res["tests"])
    lines.append(f"all {n} tests passed" if not bad else
                 f"FAILED: {len(bad)} of {n} tests below p = {res['per_test_alpha']:.2e}: "
                 + ", ".join(bad))
    return "\n".join(lines)


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
    print(json.dumps(res, indent=2) if args.json else battery_text(res))
    return 0 if res["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

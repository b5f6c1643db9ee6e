"""Randomness battery (gpusim.randomness): 10^6 dealt rounds in CI, 10^8 in the slow suite.

Every test of the family must pass at family-wise alpha 0.01 (Bonferroni). The battery is also
shown to fail on two classic generator bugs, so a pass means something.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.randomness import ALPHA, PAIRS, battery, evaluate_tallies, tally

N_TESTS = 9 + len(PAIRS) + 1 + 1 + 3


def _check(res: dict) -> None:
    assert len(res["tests"]) == N_TESTS
    assert res["per_test_alpha"] == pytest.approx(ALPHA / N_TESTS)
    bad = [(r["test"], r["p"]) for r in res["tests"] if not r["pass"]]
    print({r["test"]: round(r["p"], 4) for r in res["tests"]})
    assert bad == [] and res["passed"]


def test_battery_one_million_rounds():
    _check(battery(seed=1, rounds=1_000_000, chunk=1 << 18))


@pytest.mark.slow
def test_battery_hundred_million_rounds():
    _check(battery(seed=1, rounds=100_000_000))


def _p(results: list[dict], name: str) -> float:
    return next(r["p"] for r in results if r["test"] == name)


def test_tally_bookkeeping_is_exact():
    t = tally(7, 300_000, chunk=65_536)  # chunk boundaries inside the stream
    assert t.position.sum() == 9 * 300_000 and (t.position.sum(axis=1) == 300_000).all()
    assert (t.pair.sum(axis=1) == 300_000).all() and t.hole.sum() == 300_000
    assert t.category.sum() == 300_000 and t.words == 300_000
    # every word belongs to exactly one run above or below 1/2
    assert (t.run_len * np.arange(1, len(t.run_len) + 1))[:-1].sum() <= 300_000
    assert t.run_len.sum() == t.runs
    whole = tally(7, 300_000, chunk=300_000)
    for name in ("position", "pair", "hole", "category", "gap", "run_len"):
        assert (getattr(t, name) == getattr(whole, name)).all(), name
    assert (t.runs, t.above) == (whole.runs, whole.above)


def test_battery_catches_a_modulo_biased_dealer():
    # j = (random byte) % n instead of an exact uniform draw: the classic shuffling bug
    rng = np.random.default_rng(5)

    def cards(first, n):
        deck = np.tile(np.arange(52), (n, 1))
        rows = np.arange(n)
        for i in range(9):
            j = i + rng.integers(0, 256, n) % (52 - i)
            deck[rows, i], deck[rows, j] = deck[rows, j], deck[rows, i].copy()
        return deck[:, :9]

    res = evaluate_tallies(tally(1, 200_000, cards_fn=cards))
    assert _p(res, "position[0]") < 1e-6
    assert _p(res, "hole_combos") < 1e-6


def test_battery_catches_correlated_raw_words():
    # a generator whose words drift slowly (each word close to the previous one)
    rng = np.random.default_rng(6)
    state = {"x": 0.5}

    def words(first, n):
        steps = rng.normal(0, 0.05, n)
        u = (state["x"] + np.cumsum(steps)) % 1.0
        state["x"] = u[-1]
        return (u * 2.0**64).astype(np.uint64)

    res = evaluate_tallies(tally(1, 200_000, words_fn=words))
    assert _p(res, "runs") < 1e-6 and _p(res, "gap") < 1e-6
    # and the dealer's real words pass the same tests
    good = evaluate_tallies(tally(1, 200_000))
    assert _p(good, "runs") > 1e-4 and _p(good, "gap") > 1e-4

"""Progressive Jackpot dynamics in the runner: the meter grows, pays, resets, in round order."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import gpusim
from gpusim.compute.chunks import BP, _apply_jackpot
from gpusim.config import load_config
from gpusim.dealing import deal
from gpusim.evaluator import evaluate, is_royal

ROUNDS = 800_000
SEED = 5


def test_meter_arithmetic_by_hand():
    rules = load_config("holdem_bonus")
    jp = rules.meter
    stakes = np.ones(10, np.int64)  # one unit on the Jackpot every round
    nets = -stakes.copy()
    royal = np.zeros(10, bool)
    royal[[3, 7]] = True
    meter0 = jp.reset * BP
    out, meter, hits = _apply_jackpot(rules, 1000, nets, stakes, royal, meter0)
    per_round = jp.contribution_bp  # in 1/10,000 units, stake 1
    first = (meter0 + 4 * per_round) // BP  # rounds 0..3, the hitting round included
    second = (jp.reset * BP + 4 * per_round) // BP  # rounds 4..7 after the reset
    assert hits == [(1003, first), (1007, second)]
    assert out[3] == first - 1 and out[7] == second - 1
    assert meter == jp.reset * BP + 2 * per_round  # rounds 8 and 9
    assert (out[[0, 1, 2, 4, 5, 6, 8, 9]] == -1).all()


def _royal_rounds() -> np.ndarray:
    """Independent of the runner: deal the rounds and look for royal flushes in hole + flop."""
    cards = np.asarray(deal(SEED, 0, ROUNDS, 9))
    return np.flatnonzero(np.asarray(is_royal(evaluate(cards[:, [0, 1, 4, 5, 6]]))))


@pytest.fixture(scope="module")
def royal_rounds():
    r = _royal_rounds()
    assert len(r) >= 2, "the fixed seed was chosen to give two Jackpot royals"
    return r


# 27,581: an odd chunk, 29 of them, whose ends fall inside the CPU batches of 2^18 rounds; the
# royals (rounds 525,824 and 785,308) are in chunks 19 and 28, the first past a batch boundary
# inside its chunk, and the last chunk has 151 rounds. Its batches need only two programs
# besides the ones the other two chunk sizes compile (99,999 needed seven).
@pytest.mark.parametrize("chunk", [ROUNDS, 262_144, 27_581])
def test_jackpot_hits_recorded_and_chunk_independent(tmp_path, chunk, royal_rounds):
    rules = load_config("holdem_bonus")
    jp = rules.meter
    run = gpusim.simulate(
        "holdem_bonus", rounds=ROUNDS, seed=SEED, out=tmp_path / "r", strategy="always-play",
        chunk=chunk,
    )
    hits = run.jackpot().collect().sort("round")
    assert hits["round"].to_list() == royal_rounds.tolist()
    # the meter paid: reset plus every contribution since the previous hit, rounded down
    expected, last = [], -1
    for r in royal_rounds:
        expected.append((jp.reset * BP + (r - last) * jp.contribution_bp) // BP)
        last = r
    assert hits["meter"].to_list() == expected
    end = run.manifest["chunks_done"][-1]["jackpot_meter_end_bp"]
    assert end == jp.reset * BP + (ROUNDS - 1 - last) * jp.contribution_bp
    # the Jackpot's outcome distribution carries the paid meters
    o = run.outcomes().collect().filter(pl.col("bet") == "jackpot")
    for m in expected:
        assert o.filter(pl.col("net") == m - 1)["count"].sum() >= 1

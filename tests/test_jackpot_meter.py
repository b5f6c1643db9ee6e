"""The one Jackpot meter arithmetic (gpusim.rules.JackpotRules.advance), which the chunk
reductions and the shard merge all call."""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.games import spec_for
from gpusim.rules import BP, JackpotRules, Paytable


def _jackpot(contribution_bp: int, reset: int) -> JackpotRules:
    return JackpotRules(Paytable({}), contribution_bp, reset, "hole_and_flop")


def test_by_hand():
    jp = _jackpot(2_500, 3)  # a quarter of each wager; the meter restarts at 3 money units
    # stake 2: +5,000 per round. Royals at offsets 1 and 2 of 4 rounds from 1.2 units.
    meter, prizes = jp.advance(12_000, 2, 4, [1, 2])
    assert prizes == [(12_000 + 2 * 5_000) // BP, (30_000 + 5_000) // BP] == [2, 3]
    assert meter == 30_000 + 5_000
    assert jp.advance(7, 2, 0) == (7, [])
    ch = load_config("casino_holdem")
    assert jp.reset_meter == 3 * BP and spec_for(ch).start_meter(ch) == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_stake_for_every_round_equals_per_round_stakes(seed):
    rng = np.random.default_rng(seed)
    jp = _jackpot(int(rng.integers(0, BP + 1)), int(rng.integers(0, 1000)))
    n = 5_000
    royals = np.sort(rng.choice(n, size=int(rng.integers(0, 6)), replace=False)).tolist()
    meter = int(rng.integers(0, 10**9))
    assert jp.advance(meter, 3, n, royals) == jp.advance(meter, np.full(n, 3), n, royals)


def test_rounds_without_a_stake_add_nothing():
    jp = _jackpot(5_000, 0)
    stakes = np.array([1, 0, 0, 1, 0])
    assert jp.advance(0, stakes, 5, [4]) == (0, [(2 * 5_000) // BP])

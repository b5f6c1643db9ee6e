"""Paytables are numbers, not code: configs that differ only in pays and stakes share one
compiled settlement and batch program (their numbers are arguments), and still count their own
nets from the same deals."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from _variants import variant

from gpusim import compile_cache
from gpusim.compute import program
from gpusim.compute.chunks import ChunkRunner
from gpusim.dealing import deal
from gpusim.games import payout, settle
from gpusim.games.holdem_bonus.events import BONUS_HANDS
from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES
from gpusim.games.strategy_registry import get_strategy
from gpusim.rules import Paytable, Stakes

BATCH = 4096
ROUNDS = 4000
COMPILED = ("compiled", "unsaved", "jit")
SMALL_PAIRS = BONUS_LINE_CLASSES["TT_to_22"]


def _with_line(table: Paytable, line: str, pay: int) -> Paytable:
    return Paytable(tuple((k, pay if k == line else v) for k, v in table.lines))


def _with_stake(stakes: Stakes, bet: str, amount: int) -> Stakes:
    return Stakes(tuple((b, amount if b == bet else a) for b, a in stakes.amounts))


@pytest.fixture(scope="module")
def variants(thb):
    """The shipped Texas Hold'em Bonus, its Bonus paying TT-22 one more, and its Ante doubled."""
    pays = thb.bonus_paytable["TT_to_22"]
    richer = replace(thb, name="richer",
                     bonus_paytable=_with_line(thb.bonus_paytable, "TT_to_22", pays + 1))
    doubled = replace(thb, name="doubled", stakes=_with_stake(thb.stakes, "ante", 2))
    return thb, richer, doubled


def test_pays_and_stakes_are_not_structure_but_bets_qualifier_and_flags_are(variants, ch):
    thb, richer, doubled = variants
    strat = get_strategy("basic", thb)
    key = program._cache_key(thb, strat, BATCH)
    for other in (richer, doubled, replace(thb, ante_pays_from="flush"),
                  replace(thb, jackpot=replace(thb.jackpot, reset=500, contribution_bp=100))):
        assert other.config_hash != thb.config_hash
        assert other.structure_hash == thb.structure_hash
        assert program._cache_key(other, strat, BATCH) == key
    for other in (replace(thb, stakes=_with_stake(thb.stakes, "bonus", 0)),
                  replace(thb, jackpot=replace(thb.jackpot, cards="all_seven"))):
        assert other.structure_hash != thb.structure_hash
        assert program._cache_key(other, strat, BATCH) != key
    # Casino Hold'em, a description: its pays are numbers; its options (a fold forfeiting the AA
    # Bonus, the dealer's qualifier) change how it settles, so they are its structure
    assert variant(ch, {"paytables.ante.flush": 3}).structure_hash == ch.structure_hash
    assert variant(ch, {"rules.fold_forfeits_bonus": False}).structure_hash != ch.structure_hash
    assert variant(ch, {"rules.dealer_qualifier.rank": "5"}).structure_hash != ch.structure_hash


def test_public_settle_compiles_once_per_structure(variants):
    from gpusim.games.holdem_bonus import settlement

    thb, richer, _ = variants
    cards = np.asarray(deal(11, 0, 512, 9))
    play = {k: np.ones(512, bool) for k in ("flop", "turn", "river")}
    base = settle(cards, play, thb)
    compiled = settlement._settle._cache_size()
    more = settle(cards, play, richer)
    assert settlement._settle._cache_size() == compiled
    small = np.isin(np.asarray(base.events["bonus"]), [BONUS_HANDS.index(h) for h in SMALL_PAIRS])
    assert small.any()
    delta = np.asarray(more.nets["bonus"]) - np.asarray(base.nets["bonus"])
    np.testing.assert_array_equal(delta, small * thb.stakes["bonus"])
    for bet in base.events:
        np.testing.assert_array_equal(base.events[bet], more.events[bet])
    # the numbers may come in as an argument of the caller's own choosing
    again = settle(cards, play, thb, payout=payout(richer))
    np.testing.assert_array_equal(again.nets["bonus"], more.nets["bonus"])


def test_configs_that_differ_only_in_numbers_share_one_batch_program(variants, tmp_path,
                                                                     monkeypatch):  # fmt: skip
    monkeypatch.setenv(compile_cache.ENV, str(tmp_path))
    strat = get_strategy("basic", variants[0])
    origins, programs, counts = [], [], []
    for rules in variants:
        runner = ChunkRunner(rules, strat, batch=BATCH)
        programs.append(runner.program(BATCH))
        origins.append(programs[-1].origin)
        counts.append(runner(7, 0, ROUNDS, 0)[0])
    assert origins[0] in COMPILED and origins[1:] == ["memory", "memory"]
    assert all(p._settle is programs[0]._settle for p in programs)

    base, richer, doubled = counts
    assert base.events == richer.events == doubled.events  # the same deals and decisions
    assert base.decisions == richer.decisions == doubled.decisions
    hits = sum(base.events["bonus"].get(h, 0) for h in SMALL_PAIRS)
    assert hits > 0
    stake = variants[0].stakes["bonus"]
    # wagers: (placed, wagered, returned, sum stake^2, sum stake * net)
    assert richer.wagers["bonus"][2] - base.wagers["bonus"][2] == hits * stake
    for bet in ("ante", "flop", "turn", "river", "jackpot"):
        assert richer.wagers[bet] == base.wagers[bet]
        assert doubled.wagers[bet][1:3] == (
            tuple(2 * w for w in base.wagers[bet][1:3]) if bet != "jackpot"
            else base.wagers[bet][1:3]
        )

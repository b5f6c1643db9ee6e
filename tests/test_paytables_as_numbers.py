"""Paytables are numbers, not code: configs that differ only in pays and stakes share one
compiled settlement and batch program (their numbers are arguments), and still count their own
nets from the same deals."""

from __future__ import annotations

from functools import partial

import jax
import numpy as np
import pytest
import thb_reference
from _variants import variant
from thb_reference import BONUS_LINE_CLASSES, thb_all_seven

from gpusim import compile_cache
from gpusim.compute import program
from gpusim.compute.chunks import ChunkRunner
from gpusim.dealing import deal
from gpusim.games import event_names, payout, settle
from gpusim.games.strategy_registry import get_strategy

BATCH = 4096
ROUNDS = 4000
COMPILED = ("compiled", "unsaved", "jit")
SMALL_PAIRS = BONUS_LINE_CLASSES["TT_to_22"]
# a strategy with a fingerprint (its tables), so its batch programs are kept by key; the
# description's rule strategies have none yet, and are compiled afresh for every config
STRATEGY = "optimal"


_forget_all_seven = thb_reference.forget_all_seven  # the fixture


@pytest.fixture(scope="module")
def variants(thb):
    """The shipped Texas Hold'em Bonus, its Bonus paying TT-22 one more, and its Ante doubled."""
    pays = thb.pays()["bonus"]["TT_to_22"]
    richer = variant(thb, {"name": "richer", "paytables.bonus.TT_to_22": pays + 1})
    doubled = variant(thb, {"name": "doubled", "stakes.ante": 2})
    return thb, richer, doubled


def test_pays_and_stakes_are_not_structure_but_bets_qualifier_and_flags_are(variants, ch):
    thb, richer, doubled = variants
    strat = get_strategy(STRATEGY, thb)
    key = program._cache_key(thb, strat, BATCH)
    assert key is not None
    # the Ante paying from a flush (its straight line pays 0) and the meter's numbers are numbers
    for other in (richer, doubled, variant(thb, {"paytables.ante.straight": 0}),
                  variant(thb, {"jackpot.reset": 500, "jackpot.contribution_bp": 100})):
        assert other.config_hash != thb.config_hash
        assert other.structure_hash == thb.structure_hash
        assert program._cache_key(other, strat, BATCH) == key
    # a side bet not offered, and the Jackpot on all seven cards (the description's Jackpot hand
    # changed, a game of its own), are structure
    for other in (variant(thb, {"stakes.bonus": 0}), thb_all_seven()):
        assert other.structure_hash != thb.structure_hash
        assert program._cache_key(other, strat, BATCH) != key
    # Casino Hold'em, a description: its pays are numbers; its options (a fold forfeiting the AA
    # Bonus, the dealer's qualifier) change how it settles, so they are its structure
    assert variant(ch, {"paytables.ante.flush": 3}).structure_hash == ch.structure_hash
    assert variant(ch, {"rules.fold_forfeits_bonus": False}).structure_hash != ch.structure_hash
    assert variant(ch, {"rules.dealer_qualifier.rank": "5"}).structure_hash != ch.structure_hash


def test_public_settle_compiles_once_per_structure(variants):
    # the described settlement runs inside a caller's jit, compiled per rules.structure() with
    # the numbers (payout) as arguments: the richer Bonus reuses the compiled program
    thb, richer, _ = variants
    cards = np.asarray(deal(11, 0, 512, 9))
    play = {k: np.ones(512, np.int32) for k in ("flop", "turn", "river")}

    @partial(jax.jit, static_argnames=("structure",))
    def compiled_settle(cards, pay, structure):
        return settle(cards, play, structure, payout=pay)

    base = compiled_settle(cards, payout(thb), thb.structure())
    compiled = compiled_settle._cache_size()
    more = compiled_settle(cards, payout(richer), richer.structure())
    assert compiled_settle._cache_size() == compiled
    for bet in base.nets:  # the compiled settlement is the public one
        np.testing.assert_array_equal(base.nets[bet], settle(cards, play, thb).nets[bet])
        np.testing.assert_array_equal(more.nets[bet], settle(cards, play, richer).nets[bet])
    bonus_events = event_names(thb)["bonus"]
    small = np.isin(np.asarray(base.events["bonus"]), [bonus_events.index(h) for h in SMALL_PAIRS])
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
    strat = get_strategy(STRATEGY, variants[0])
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

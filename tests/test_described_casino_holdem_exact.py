"""Casino Hold'em's description (configs/casino_holdem.toml) solved by the hold'em call-once
engine (gpusim/games/holdem/call_once*.py): the numbers the engine reads of each config are the
ones the rules' text gives (tests/ch_reference.py reads them from the TOML); from counts
enumerated again in an empty cache, each config's decision tables equal the shipped tables bit
for bit (solved by the hand-written game until it became a description) and its exact reports
equal the shipped ones. The re-solves are slow (a minute a config on two cores; run with
``-m slow``): the shipped files were re-solved and compared byte for byte when the game became
a description."""

from __future__ import annotations

import _described_exact
import pytest
from _described_exact import assert_report_is_the_shipped, assert_tables_are_the_shipped
from ch_reference import ch_terms

from gpusim.cards import CATEGORY_KEYS
from gpusim.config import load_config
from gpusim.games import spec_for

fresh = _described_exact.fresh  # the fixture: a module's empty exact cache
CONFIGS = ("casino_holdem", "casino_holdem_evolution")
"""The shipped configs of the game."""


def test_the_description_is_of_the_call_once_shape():
    # counted by the community-card solver; the shape still designs it and its tables class
    # (which the CUDA kernel reads) reads the tables
    spec = spec_for(load_config("casino_holdem"))
    assert spec.exact_solver == "gpusim.games.described.exact_report:SOLVER"
    assert spec.table_strategy_class == \
        "gpusim.games.holdem.call_once_described:DescribedCallOnceTables"
    assert spec.table_strategies == ("optimal", "optimal-main")
    assert {"optimal", "optimal-main"} <= {s.name for s in spec.strategies}
    assert spec.forfeited_by_fold(load_config("casino_holdem")) == ("aa_bonus",)
    assert spec.forfeited_by_fold(load_config("casino_holdem_evolution")) == ()


@pytest.mark.parametrize("name", CONFIGS)
def test_the_numbers_are_the_rules_text(name):
    """The call-once engine's numbers of a config as the hand-written game priced it, read from
    the config's TOML alone: the Ante's pay by the player's category (``straight_or_less`` below
    the flush), the AA Bonus's by the first five cards' (a pair of aces class 10, lost below
    it), the stakes, the Call of 2 Antes and whether a fold forfeits the AA Bonus."""
    from gpusim.games.holdem.call_once_shape import prices_of

    rules = load_config(name)
    terms = ch_terms(rules)
    pt, aa = terms.ante_paytable, terms.aa_bonus_paytable
    got = prices_of(rules)
    assert (got.ante, got.call_times) == (terms.stakes.ante, 2)
    assert got.ante_pays == tuple(pt[c] if c in pt else pt["straight_or_less"]
                                  for c in CATEGORY_KEYS)
    assert (got.side, got.side_stake) == ("aa_bonus", terms.stakes["aa_bonus"])
    assert got.side_pays == (*(aa.get(c, -1) for c in CATEGORY_KEYS), aa["pair_of_aces"])
    assert got.side_pair_ranks == 1 << 12  # aces
    assert got.side_hands == ("high_card", "pair_below_aces", "pair_of_aces",
                              *CATEGORY_KEYS[2:])
    assert got.fold_forfeits is terms.fold_forfeits_bonus is (name == "casino_holdem")
    assert (got.point, got.fold, got.call, got.bets) == ("call", "fold", "call",
                                                         ("ante", "call"))


def test_other_shapes_are_refused_in_one_line():
    from gpusim.games.holdem.call_once_shape import call_tree_of

    d = load_config("ultimate_holdem").game_def
    with pytest.raises(ValueError, match="call-once solver") as e:
        call_tree_of(d)
    assert "\n" not in str(e.value)


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_decision_tables_equal_the_shipped_ones(fresh, name):
    fresh(name, "optimal")  # the counts, enumerated once in the fresh cache
    assert_tables_are_the_shipped(name)  # solved from the counts, never read from the shipped


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_exact_report_equals_the_shipped_one(fresh, name):
    assert_report_is_the_shipped(name, fresh(name, "optimal"))

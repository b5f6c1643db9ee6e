"""Texas Hold'em Bonus as a description, solved by the hold'em street-bets engine
(gpusim/games/holdem/streets*.py): from counts enumerated again in an empty cache, each
described config's decision tables equal the hand-written game's shipped tables bit for bit,
and its exact reports equal the shipped ones but for the game's and the config's names; its
side bets' exact odds and paytable searches are the hand-written game's. The re-solves are
marked slow (a minute or more each on two cores; run with ``-m slow``)."""

from __future__ import annotations

import json
from dataclasses import replace

import _described_exact
import pytest
from _described_exact import (
    DATA,
    assert_report_is_the_shipped,
    assert_tables_are_the_shipped,
    described,
)

from gpusim.config import load_config
from gpusim.games import spec_for

fresh = _described_exact.fresh  # the fixture: a module's empty exact cache
CONFIGS = ("holdem_bonus", "holdem_bonus_classic")
"""The shipped configs, each described in tests/data/<name>_described.toml."""


@pytest.fixture(autouse=True, scope="module")
def _forget_the_game():
    """Loading the configs registers their game in this process; the registry lists the
    shipped games only once this module is done (docs/config.md is made from it)."""
    yield
    from gpusim.games import SPECS

    SPECS._all().pop("holdem_bonus_described", None)  # type: ignore[attr-defined]


def test_the_description_is_of_the_street_bets_shape():
    rules = described("holdem_bonus")
    spec = spec_for(rules)
    assert spec.exact_solver == "gpusim.games.holdem.streets_described:SOLVER"
    assert spec.table_strategies == ("optimal", "win-over-half-ev")
    names = [s.name for s in spec.strategies]
    assert len(names) == len(set(names))
    assert {"optimal", "win-over-half-ev", "win-over-lose", "win-over-half"} <= set(names)
    assert spec.forfeited_by_fold(rules) == spec.forfeited_by_fold(described(
        "holdem_bonus_classic")) == ()


def test_the_numbers_are_the_hand_written_games():
    from gpusim.games.holdem.streets_shape import prices_of
    from gpusim.games.holdem_bonus.exact import prices_of as package_prices

    for name in CONFIGS:
        want = package_prices(load_config(name))
        got = prices_of(described(name))
        assert (got.game, got.config) == ("holdem_bonus_described", f"{name}_described")
        # a line's classes in any order (they are summed)
        got, want = (replace(p, bonus_lines=tuple((ln, x, tuple(sorted(cs)))
                                                  for ln, x, cs in p.bonus_lines))
                     for p in (got, want))
        assert replace(got, game=want.game, config=want.config) == want, name


def test_the_side_bets_odds_and_designs_are_the_hand_written_games():
    from gpusim.designer import search

    for name in CONFIGS:
        package, rules = load_config(name), described(name)
        assert spec_for(rules).side_bet_exact(rules) == spec_for(package).side_bet_exact(
            package), name
        assert sorted(spec_for(rules).designs) == sorted(spec_for(package).designs) == [
            "bonus", "jackpot"]
    for config, bet, kw in (
            ("holdem_bonus", "bonus", {"rtp": "0.92:0.95",
                                       "lines": ["AKs=20:30", "TT_to_22=2:5"]}),
            ("holdem_bonus", "jackpot", {"rtp": "0.75:0.9",
                                         "lines": ["flush=20:30", "straight=5:12"]})):
        want = search(config, bet, top=3, **kw).table.rows(named=True)
        got = search(described(config), bet, top=3, **kw).table.rows(named=True)
        assert got == want, (config, bet)


def test_other_shapes_are_refused_in_one_line():
    from gpusim.games.holdem.streets_shape import street_tree_of

    for d in (load_config("ultimate_holdem").game_def,
              load_config(DATA / "casino_holdem_described.toml").game_def):
        with pytest.raises(ValueError, match="street-bets solver") as e:
            street_tree_of(d)
        assert "\n" not in str(e.value)


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_decision_tables_equal_the_shipped_ones(fresh, name):
    fresh(name, "optimal")  # the counts, enumerated once in the fresh cache
    assert_tables_are_the_shipped(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_exact_report_equals_the_shipped_one(fresh, name):
    assert_report_is_the_shipped(name, fresh(name, "optimal"), "holdem_bonus_described")


@pytest.mark.slow
def test_the_other_table_strategy_reports_as_the_hand_written_game(fresh):
    from gpusim.runs.exact_on_demand import exact_report

    fresh("holdem_bonus", "optimal")  # the counts, in the fresh cache
    want = json.loads(json.dumps(exact_report(load_config("holdem_bonus"), "win-over-half-ev",
                                              progress=False)))
    got = dict(fresh("holdem_bonus", "win-over-half-ev"))
    got["game"], got["config"] = want["game"], want["config"]
    assert got == want

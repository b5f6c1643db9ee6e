"""Casino Hold'em as a description, solved by the hold'em call-once engine
(gpusim/games/holdem/call_once*.py): from counts enumerated again in an empty cache, each
described config's decision tables equal the hand-written game's shipped tables bit for bit,
and its exact reports equal the shipped ones but for the game's and the config's names."""

from __future__ import annotations

import json

import _described_exact
import pytest
from _described_exact import (
    assert_report_is_the_shipped,
    assert_tables_are_the_shipped,
    described,
)

from gpusim.config import load_config
from gpusim.games import spec_for

fresh = _described_exact.fresh  # the fixture: a module's empty exact cache
CONFIGS = ("casino_holdem", "casino_holdem_evolution")
"""The shipped configs, each described in tests/data/<name>_described.toml."""


def test_the_description_is_of_the_call_once_shape():
    spec = spec_for(described("casino_holdem"))
    assert spec.exact_solver == "gpusim.games.holdem.call_once_described:SOLVER"
    assert spec.table_strategies == ("optimal", "optimal-main")
    assert {"optimal", "optimal-main"} <= {s.name for s in spec.strategies}
    assert spec.forfeited_by_fold(described("casino_holdem")) == ("aa_bonus",)
    assert spec.forfeited_by_fold(described("casino_holdem_evolution")) == ()


def test_the_numbers_are_the_hand_written_games():
    from gpusim.games.casino_holdem.exact import prices_of as package_prices
    from gpusim.games.casino_holdem.exact import qualifier_rank as package_qualifier
    from gpusim.games.holdem.call_once_shape import prices_of, qualifier_rank

    for name in CONFIGS:
        rules, package = described(name), load_config(name)
        assert qualifier_rank(rules.game_def) == package_qualifier(package)
        want = package_prices(package)
        got = prices_of(rules)
        assert got == want, name


def test_other_shapes_are_refused_in_one_line():
    from gpusim.games.holdem.call_once_shape import call_tree_of

    d = load_config("ultimate_holdem").game_def
    with pytest.raises(ValueError, match="call-once solver") as e:
        call_tree_of(d)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("name", CONFIGS)
def test_decision_tables_equal_the_shipped_ones(fresh, name):
    fresh(name, "optimal")  # the counts, enumerated once in the fresh cache
    assert_tables_are_the_shipped(name)


@pytest.mark.parametrize("name", CONFIGS)
def test_exact_report_equals_the_shipped_one(fresh, name):
    assert_report_is_the_shipped(name, fresh(name, "optimal"), "casino_holdem_described")


@pytest.mark.parametrize("strategy", ["optimal-main", "basic"])
def test_other_strategies_report_as_the_hand_written_game(fresh, strategy):
    from gpusim.runs.exact_on_demand import exact_report

    want = json.loads(json.dumps(exact_report(load_config("casino_holdem"), strategy,
                                              progress=False)))
    got = dict(fresh("casino_holdem", strategy))
    got["game"], got["config"] = want["game"], want["config"]
    assert got == want


@pytest.mark.parametrize(("bet", "kw"), [
    ("ante", {"rtp": "0.975:0.98", "lines": ["royal_flush=50:150:50", "flush=1:3"]}),
    ("ante", {"rtp": ":", "lines": ["flush=1:3"], "strategy": "optimal-main"}),
    ("aa_bonus", {"rtp": ":", "lines": ["flush=20:30"]}),
    ("aa_bonus", {"rtp": ":", "lines": ["flush=20:30"], "strategy": "optimal-main"}),
])
def test_the_designer_finds_what_it_finds_for_the_hand_written_game(fresh, bet, kw):
    from gpusim.designer import search

    fresh("casino_holdem", "optimal")  # the counts, in the fresh cache
    want = search("casino_holdem", bet, top=3, **kw).table.rows(named=True)
    got = search(described("casino_holdem"), bet, top=3, **kw).table.rows(named=True)
    assert got == want

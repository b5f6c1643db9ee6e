"""Casino Hold'em's description solved again by the hold'em call-once engine
(gpusim/games/holdem/call_once*.py): from counts enumerated again in an empty cache, each
config's decision tables equal the shipped tables bit for bit (solved by the hand-written game
until it became a description), and its exact reports equal the shipped ones but for the
game's and the config's names. Slow (a minute a config on two cores): the shipped files were
re-solved and compared byte for byte when the game became a description."""

from __future__ import annotations

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
    assert_tables_are_the_shipped(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_exact_report_equals_the_shipped_one(fresh, name):
    assert_report_is_the_shipped(name, fresh(name, "optimal"), "casino_holdem_described")

"""Casino Hold'em as a description, solved by the hold'em call-once engine
(gpusim/games/holdem/call_once*.py): from counts enumerated again in an empty cache, each
described config's decision tables equal the hand-written game's shipped tables bit for bit,
and its exact reports equal the shipped ones but for the game's and the config's names."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.games import spec_for

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
CONFIGS = ("casino_holdem", "casino_holdem_evolution")
"""The shipped configs, each described in tests/data/<name>_described.toml."""


def _described(name: str):
    return load_config(DATA / f"{name}_described.toml")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A report function over counts enumerated in this module's empty cache (one enumeration:
    both configs share the dealer qualifier)."""
    from gpusim.runs.exact_on_demand import exact_report

    mp = pytest.MonkeyPatch()
    mp.setenv("GPUSIM_CACHE_DIR", str(tmp_path_factory.mktemp("ch-described-cache")))
    reports: dict[tuple[str, str], dict] = {}

    def report(name: str, strategy: str) -> dict:
        if (name, strategy) not in reports:
            rep = exact_report(_described(name), strategy, progress=False)
            reports[name, strategy] = json.loads(json.dumps(rep))
        return reports[name, strategy]

    yield report
    mp.undo()


def test_the_description_is_of_the_call_once_shape():
    spec = spec_for(_described("casino_holdem"))
    assert spec.exact_solver == "gpusim.games.holdem.call_once_described:SOLVER"
    assert spec.table_strategies == ("optimal", "optimal-main")
    assert {"optimal", "optimal-main"} <= {s.name for s in spec.strategies}
    assert spec.forfeited_by_fold(_described("casino_holdem")) == ("aa_bonus",)
    assert spec.forfeited_by_fold(_described("casino_holdem_evolution")) == ()


def test_the_numbers_are_the_hand_written_games():
    from gpusim.games.casino_holdem.exact import prices_of as package_prices
    from gpusim.games.casino_holdem.exact import qualifier_rank as package_qualifier
    from gpusim.games.holdem.call_once_shape import prices_of, qualifier_rank

    for name in CONFIGS:
        rules, package = _described(name), load_config(name)
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
    from gpusim.runs.exact_on_demand import solve_tables
    from gpusim.strategy.tables import stored_tables

    fresh(name, "optimal")  # the counts, enumerated once in the fresh cache
    shipped = stored_tables(load_config(name))
    assert shipped is not None
    solved = solve_tables(_described(name), progress=False)
    assert sorted(shipped) == sorted(solved)
    for key, table in solved.items():
        assert shipped[key].shape == table.shape, key
        diff = np.argwhere(shipped[key] != table)
        assert len(diff) == 0, f"{name} {key}: {len(diff)} cells differ, first {diff[:3]}"


@pytest.mark.parametrize("name", CONFIGS)
def test_exact_report_equals_the_shipped_one(fresh, name):
    shipped = json.loads((ROOT / "gpusim" / "data" / "exact" /
                          f"{name}.optimal.json").read_text())
    got = dict(fresh(name, "optimal"))
    assert (got["game"], got["config"]) == ("casino_holdem_described", f"{name}_described")
    got["game"], got["config"] = shipped["game"], shipped["config"]
    assert sorted(got) == sorted(shipped)
    for key in shipped:
        assert got[key] == shipped[key], key


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
    got = search(_described("casino_holdem"), bet, top=3, **kw).table.rows(named=True)
    assert got == want

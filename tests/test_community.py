"""The community-card solver (gpusim/games/described/community.py) against independent truth:
the brute force of every deal on a reduced deck (tests/_brute_force.py), the shipped exact
reports and decision tables of the hold'em games (slow: a full solve each), and its one-line
refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _brute_force import HOLDEM_DECK, brute_force, holdem_description, reduced

from gpusim.config import load_config
from gpusim.games.described import community

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("name", "strategy"), [
    ("ultimate_holdem", "optimal"),
    ("ultimate_holdem", "always-check"),
    ("casino_holdem", "optimal"),
    ("casino_holdem", "basic"),
    ("casino_holdem_turn", "optimal"),
    pytest.param("casino_holdem_turn", "basic", marks=pytest.mark.slow),
])
def test_reduced_deck_equals_brute_force(name, strategy):
    """Every deal of a 12-card deck: the joint counts of the solver's stages (board-first
    cells, flop sums, pre-flop decisions per hole) equal the brute force's, which deals the
    dealer's cards one by one and settles each round with the engine."""
    rules = reduced(name)
    want = brute_force(rules, strategy, HOLDEM_DECK)
    got = community.solve_reduced(rules, strategy, HOLDEM_DECK)
    assert got.deals == want.deals
    assert (got.joint == want.joint).all()


@pytest.mark.parametrize("variant", ["uth", "casino", "mini"])
def test_reduced_deck_descriptions(variant):
    """The brute force's own small descriptions (other pays, qualifiers and side bets; mini:
    the turn and the river one by one, a decision on each)."""
    rules = holdem_description(variant)
    for strategy in ["optimal", *(n for n, _, _ in rules.game_def.strategies)]:
        want = brute_force(rules, strategy, HOLDEM_DECK)
        got = community.solve_reduced(rules, strategy, HOLDEM_DECK)
        assert (got.joint == want.joint).all(), strategy


def test_a_wrong_decision_is_seen():
    """The comparison can fail: the brute force under another strategy differs."""
    rules = reduced("casino_holdem")
    got = community.solve_reduced(rules, "optimal", HOLDEM_DECK)
    other = brute_force(rules, "always-play", HOLDEM_DECK)
    assert not (got.joint == other.joint).all()


def test_dealer_hands_line_is_refused_in_one_line():
    with pytest.raises(ValueError, match="dealer_hands") as info:
        community.community_shape(holdem_description("bonus").game_def)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("edit", "words"), [
    (("dealer = 2\n", "dealer = 2\ndealer_up = 1\n"), "up 1"),
    (('[game.paytables.trips]\nhand = "player"', '[game.paytables.trips]\nhand = "dealer"'),
     "hands.dealer reads the dealer's hidden cards"),
])
def test_refusals_name_what_is_missing(edit, words):
    """What the solver cannot count yet (a dealer card face up, a player's hand with the
    dealer's cards) is refused in one line that names it."""
    import tomllib

    from gpusim.config import parse_config

    text = (ROOT / "configs" / "ultimate_holdem.toml").read_text()
    assert edit[0] in text
    doc = tomllib.loads(text.replace(*edit, 1))
    doc["default_strategy"] = "basic"
    doc["name"] = doc["game"]["name"] = f"uth_refused_{len(words)}"
    rules = parse_config(doc, source="test")
    with pytest.raises(ValueError, match=words) as info:
        community.community_shape(rules.game_def)
    assert "\n" not in str(info.value)


# --- the full deck: equal to the shipped reports and tables (a full solve each) -------------


def _shipped_tables(name: str) -> dict[str, np.ndarray]:
    from gpusim.strategy.tables import unpack_tables

    with np.load(ROOT / "gpusim" / "data" / "tables" / f"{name}.npz") as z:
        return unpack_tables(z)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ultimate_holdem", "casino_holdem"])
def test_full_deck_equals_shipped(name):
    """From an empty count cache: the main game's figures of the shipped report and the
    shipped ``optimal`` decision tables, bit for bit."""
    from gpusim.games.described.exact_report import analyse

    rules = load_config(name)
    res = community.solve(rules, "optimal")
    assert res.deals == 1326 * 19600 * 1081 * 990
    shipped = json.loads((ROOT / "gpusim" / "data" / "exact" / f"{name}.optimal.json")
                         .read_text())
    mine = analyse(res)
    assert mine["main"] == shipped["main"]
    tables = _shipped_tables(name)
    for key, table in res.tables.items():
        assert (tables[key] == table).all(), key


@pytest.mark.slow
def test_shipped_rule_strategy_report_equals_a_fresh_solve(tmp_path, monkeypatch):
    """The shipped report of Ultimate Texas Hold'em's ``basic`` (a rule strategy only the
    community-card solver prices) equals a solve from an empty cache, every key and figure."""
    from gpusim.runs.exact_on_demand import exact_report

    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path))
    shipped = json.loads((ROOT / "gpusim" / "data" / "exact" / "ultimate_holdem.basic.json")
                         .read_text())
    got = json.loads(json.dumps(exact_report(load_config("ultimate_holdem"), "basic",
                                             progress=False)))
    assert got == shipped

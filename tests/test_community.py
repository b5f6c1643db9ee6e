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
    ("ultimate_holdem_3x_open", "pair-or-high-cards"),  # its rule strategies, priced exactly
    ("ultimate_holdem_3x_open", "always-3x"),
    ("ultimate_holdem_must_beat", "basic"),
    ("ultimate_holdem_must_beat", "optimal"),           # a must-beat Trips, no Ante qualifier
    ("casino_holdem_evolution", "optimal"),
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
    doc["game"].pop("report")  # its hand table would refuse the up card first
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


@pytest.mark.parametrize("name", ["ultimate_holdem", "casino_holdem"])
def test_full_deck_equals_shipped(name):
    """From an empty count cache, the shipped ``optimal`` decision tables bit for bit, and the
    shipped report whole, every key in its order (each game's layout keys: the AA Bonus's
    folds listed last and ``aa_bonus_always_settled``, the first decision in the chart's order
    with its note)."""
    from gpusim.games.described.exact_report import analyse

    rules = load_config(name)
    res = community.solve(rules, "optimal")
    assert res.deals == 1326 * 19600 * 1081 * 990
    shipped = json.loads((ROOT / "gpusim" / "data" / "exact" / f"{name}.optimal.json")
                         .read_text())
    mine = json.loads(json.dumps(analyse(res)))
    del shipped["format"]  # the report's wrapper adds it
    assert mine == shipped and list(mine) == list(shipped)
    tables = _shipped_tables(name)
    for key, table in res.tables.items():
        assert (tables[key] == table).all(), key


@pytest.mark.slow
@pytest.mark.parametrize(("name", "strategy"), [("ultimate_holdem", "basic"),
                                              ("casino_holdem", "optimal-main")])
def test_shipped_strategy_report_equals_a_fresh_solve(name, strategy, tmp_path, monkeypatch):
    """The shipped reports beside the ``optimal`` ones (Ultimate Texas Hold'em's ``basic``, a
    rule strategy only the community-card solver prices; Casino Hold'em's ``optimal-main``, an
    exact strategy of its description) equal a solve from an empty cache, every key and
    figure."""
    from gpusim.runs.exact_on_demand import exact_report

    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path))
    shipped = json.loads((ROOT / "gpusim" / "data" / "exact" / f"{name}.{strategy}.json")
                         .read_text())
    got = json.loads(json.dumps(exact_report(load_config(name), strategy, progress=False)))
    assert got == shipped and list(got) == list(shipped)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "strategy"), [
    ("casino_holdem", "optimal-main"), ("casino_holdem", "basic"),
    ("casino_holdem", "side-bet-optimal"), ("casino_holdem", "always-play"),
    ("casino_holdem_evolution", "optimal"), ("casino_holdem_evolution", "basic")])
def test_casino_holdem_reports_keep_every_key_of_the_call_once_solver(name, strategy, tmp_path,
                                                                      monkeypatch):
    """Casino Hold'em's reports, counted twice from an empty cache: by the game's exact solver
    (the community-card solver: the rule on every flop and hole, board first) and by the
    call-once solver (its own counts; the rule on a representative round of every flop class
    and hole): every key of the call-once report in the new one, same value, type and order
    (the new one adds each decision's ``reached``)."""
    from gpusim.games.holdem.call_once_described import report as call_once_report
    from gpusim.runs.exact_on_demand import exact_report

    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path))
    rules = load_config(name)
    theirs = json.loads(json.dumps(call_once_report(rules, strategy, progress=False)))
    mine = json.loads(json.dumps(exact_report(rules, strategy, progress=False)))
    del mine["format"]  # the report's wrapper adds it
    _old_keys_kept(theirs, mine)


def _old_keys_kept(old, new, path: str = "report") -> None:
    """Every key of ``old`` is in ``new`` with the same value, type and order (``new`` may
    hold more keys: a report gains, it never changes)."""
    if isinstance(old, dict):
        assert [k for k in new if k in old] == list(old), path
        for k, v in old.items():
            _old_keys_kept(v, new[k], f"{path}.{k}")
    elif isinstance(old, list):
        assert len(old) == len(new), path
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            _old_keys_kept(a, b, f"{path}[{i}]")
    else:
        assert type(old) is type(new) and old == new, path


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ultimate_holdem", "ultimate_holdem_3x_open",
                                  "ultimate_holdem_must_beat"])
def test_community_report_keeps_every_key_of_the_play_once_report(name, tmp_path, monkeypatch):
    """The Ultimate Texas Hold'em configs' exact reports now come from the community-card
    solver; from an empty cache, every key of the play-once solver's report is in them with the
    same value (bit for bit), type and order; what they gain is ``first_decision`` and each
    decision's ``reached`` share."""
    from gpusim.games.holdem import play_once_described
    from gpusim.runs.exact_on_demand import exact_report

    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path))
    rules = load_config(name)
    old = json.loads(json.dumps(play_once_described.report(rules, "optimal", progress=False)))
    new = json.loads(json.dumps(exact_report(rules, "optimal", progress=False)))
    _old_keys_kept(old, new)
    assert set(new) - set(old) == {"first_decision", "format"}  # format: the wrapper's

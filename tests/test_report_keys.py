"""The description keys that lay out an exact report or add an exact strategy
(``report_always_settled``, ``report_folds``, ``[game.report] first_decision_order`` /
``first_decision_note``, ``optimal_for``): each mistake refused in one line that names the key
and the value, and each key read as written. The exact figures they give are checked in
tests/test_community.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpusim.config import parse_config
from gpusim.rules import ConfigError

ROOT = Path(__file__).resolve().parent.parent
CH = (ROOT / "configs" / "casino_holdem.toml").read_text()
TCP = (ROOT / "configs" / "three_card_poker.toml").read_text()
UTH = (ROOT / "configs" / "ultimate_holdem.toml").read_text()


def _parse(text: str):
    import tomllib

    return parse_config(tomllib.loads(text), source="c.toml", default_name="c")


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


CASES = [
    ("always-settled-string", CH, "report_always_settled = true",
     'report_always_settled = "yes"', "game.bets.aa_bonus.report_always_settled", "yes"),
    ("always-settled-shown-down", UTH, 'report_order = ["fold", "win", "*"]',
     "report_always_settled = true", "game.bets.ante.report_always_settled", "fold_event"),
    ("always-settled-name-taken", CH, "[game.bets.call]", "[game.bets.aa_bonus_always_settled]\n"
     'placed = "deal"\nside = true\npaytable = "aa_bonus"\n\n[game.bets.call]',
     "game.bets.aa_bonus.report_always_settled", "aa_bonus_always_settled"),
    # (the config option fold_forfeits_bonus sets report_folds: the edits go through it)
    ("folds-merged-forfeited", CH, '{ true = "apart", false = "merged" }',
     '{ true = "merged", false = "merged" }', "game.bets.aa_bonus.report_folds", "'merged'",
     "settle"),
    ("folds-unknown", CH, '{ true = "apart", false = "merged" }',
     '{ true = "joined", false = "merged" }', "game.bets.aa_bonus.report_folds", "joined",
     "apart"),
    ("order-unknown", CH, 'first_decision_order = "chart"', 'first_decision_order = "charts"',
     "game.report.first_decision_order", "charts", "chart"),
    ("order-chart-three-cards", TCP, "[game.showdown]",
     '[game.report]\nfirst_decision_order = "chart"\n\n[game.showdown]',
     "game.report.first_decision_order", "two player cards"),
    ("note-number", CH, 'first_decision_note = "ev: the main game per ante, calling on every '
     'flop; share: the deals the strategy calls"', "first_decision_note = 3",
     "game.report.first_decision_note", "3"),
    ("optimal-for-side", CH, 'optimal_for = "main"', 'optimal_for = "side"',
     "game.strategies.optimal-main.optimal_for", "side", "main"),
    ("optimal-for-named-optimal", CH, "[game.strategies.optimal-main]",
     "[game.strategies.optimal]", "game.strategies.optimal", "optimal-main"),
    ("optimal-for-with-rules", CH, 'optimal_for = "main"',
     'optimal_for = "main"\ncall = [{ action = "call" }]', "game.strategies.optimal-main",
     "call"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_mistake_is_one_line_naming_key_and_value(case):
    _, base, old, new, *needles = case
    with pytest.raises(ConfigError) as e:
        _parse(_edit(base, old, new))
    msg = str(e.value)
    assert "\n" not in msg
    for needle in needles:
        assert needle in msg, (needle, msg)


def test_the_keys_are_read_as_written():
    d = _parse(CH).game_def
    assert d.bet("aa_bonus").report_always_settled and not d.bet("ante").report_always_settled
    assert d.bet("aa_bonus").report_order == ("*", "fold:*")
    assert not d.bet("aa_bonus").report_folds_merged  # a fold forfeits it here
    settled = _parse(_edit(CH, "fold_forfeits_bonus = true", "fold_forfeits_bonus = false"))
    assert settled.game_def.bet("aa_bonus").report_folds_merged  # the option sets it
    assert (d.first_decision_order, d.first_decision_note[:3]) == ("chart", "ev:")
    assert d.exact_strategies == (("optimal-main", "exact: call iff it beats folding in the "
                                   "main game alone", "main"),)
    assert (d.decides_for("optimal"), d.decides_for("optimal-main"), d.decides_for("basic")) \
        == ("all", "main", None)
    plain = _parse(TCP).game_def
    assert (plain.first_decision_order, plain.first_decision_note, plain.exact_strategies) == \
        ("strength", "", ())

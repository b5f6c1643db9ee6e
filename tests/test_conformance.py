"""Every shipped config's game passes the conformance check
(:func:`gpusim.games.conformance.check_game`), and the check finds a game that breaks what it
checks.

The configs come from ``configs/``, never from a list written here: a new shipped config is
checked by being there. Every config is checked, a variant too: its options (a Trips that must
beat the dealer, an AA Bonus a fold does not forfeit) change the settlement it compiles. A plugin
game is checked through ``gpusim games --check`` by tests/test_plugin_game.py."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.config import load_config, shipped_configs
from gpusim.games import SPECS, spec_for
from gpusim.games.conformance import check_game
from gpusim.strategy import PointRules, RuleStrategy

CONFIGS = {name: load_config(name) for name in shipped_configs()}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_shipped_config_conforms(config):
    assert check_game(CONFIGS[config]) == []


def test_the_cli_checks_a_game_by_name():
    res = CliRunner().invoke(app, ["games", "--check", "three_card_poker"])
    assert res.exit_code == 0, res.output
    assert res.output.strip().splitlines()[-1] == "three_card_poker: conforms"


def _fake_strategy(rules, fn):
    spec = spec_for(rules)
    fns = {p.name: fn for p in spec.decisions}
    return RuleStrategy("peeking", spec.name, PointRules(spec.decisions, fns))


def test_the_check_finds_a_decision_that_reads_unseen_cards(monkeypatch):
    """A strategy that reads the last card of the round (the river, or the dealer's last card)
    breaks the information contract; the check names the point."""
    from gpusim.games import conformance

    rules = CONFIGS["casino_holdem"]
    spec = spec_for(rules)
    peek = _fake_strategy(rules, lambda seen: seen[:, -1] % 2)  # honest: reads what it sees
    assert conformance._check_information(spec, peek, _cards(spec)) == []

    def reads_all(cards):
        return {p.name: np.asarray(cards)[:, -1] % 2 for p in spec.decisions}

    cheat = RuleStrategy("cheat", spec.name, reads_all)
    problems = conformance._check_information(spec, cheat, _cards(spec))
    assert problems == ["point 'call' reads cards it does not see"]


def test_the_check_finds_a_joint_code_that_does_not_decode():
    rules = CONFIGS["three_card_poker"]
    spec = spec_for(rules)
    decode = spec.joint.decode

    def shifted(r):
        n, events, stakes, actions = decode(r)
        return n, {b: np.roll(e, 1) for b, e in events.items()}, stakes, actions

    broken = dataclasses.replace(spec, joint=dataclasses.replace(spec.joint, decode=shifted))
    SPECS._all()["three_card_poker"] = broken  # type: ignore[attr-defined]
    try:
        problems = check_game(rules, rounds=256)
    finally:
        SPECS._all()["three_card_poker"] = spec  # type: ignore[attr-defined]
    assert problems and all("events do not decode" in p for p in problems), problems


def _cards(spec):
    from gpusim.dealing import deal

    return np.asarray(deal(1, 0, 256, spec.cards_per_round))

"""The described games' exact solver (gpusim.games.described.solver): what it must find, and
what it must agree with.

- Three Card Poker's optimal strategy is exactly the published "play Q-6-4 or better": the
  solver's best action equals the q64 rule's at each of the 22,100 player hands (a rule the
  solver never reads), and the ``optimal`` table strategy reads the same actions back.
- No rule strategy beats ``optimal`` at any information set (backward induction is a maximum).
- Caribbean Stud's solve (about a minute) runs in the slow suite; here a partial re-solve of
  every player class of one hand label must reproduce the shipped decision tables and the
  shipped report's rows for that label exactly, and the best raise must depend on the up card.
- ``gpusim exact --strategy NAME`` prices the rule strategies of the fast games (every game's
  rule strategies against a brute force: tests/test_described_exact_bruteforce.py), and a described
  game the solver cannot count says so in one line.

The published figures, and the shipped tables and reports against fresh solves, are in
tests/test_exact_truth.py; the solver against a naive brute force on reduced decks is in
tests/test_described_exact_bruteforce.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from gpusim.board_index import board_classes, subsets
from gpusim.config import load_config
from gpusim.games.described.exact_report import first_decision, starting_label
from gpusim.games.described.solver import solve
from gpusim.games.strategy_registry import get_strategy
from gpusim.strategy.tables import TABLE_DIR, unpack_tables

CLI = [sys.executable, "-m", "gpusim"]


@pytest.fixture(scope="module")
def tcp():
    rules = load_config("three_card_poker")
    return rules, solve(rules), solve(rules, "q64")


def test_three_card_poker_optimal_is_exactly_q64(tcp):
    _, opt, q64 = tcp
    assert np.array_equal(opt.root_action, q64.root_action)
    assert np.array_equal(opt.joint, q64.joint)
    # and Q-6-3 is a fold while Q-6-4 plays: the boundary is where the rule puts it
    labels = starting_label(opt.root_cards)
    for label, action in (("Q64", 1), ("Q63", 0), ("Q65", 1)):
        assert set(opt.root_action[labels == label].tolist()) == {action}, label


def test_the_optimal_table_strategy_reads_the_solved_actions(tcp):
    rules, _, _ = tcp
    hands = subsets(3).astype(np.int32)
    cards = np.concatenate([hands, hands[::-1]], axis=1)  # dealer columns are never read
    strategy = get_strategy("optimal", rules)
    got = np.asarray(strategy.decide(cards)["play"])
    want = np.asarray(get_strategy("q64", rules).decide(cards)["play"])
    assert np.array_equal(got, want)


@pytest.mark.parametrize("config, rule", [("three_card_poker", "always-play"),
                                          ("let_it_ride", "ride-on-a-paying-hand")])
def test_no_rule_strategy_beats_optimal_anywhere(config, rule):
    rules = load_config(config)
    opt, other = solve(rules), solve(rules, rule)
    best = opt.root_ev.max(axis=1)
    assert (best >= other.root_ev[np.arange(len(other.root_ev)), other.root_action]).all()
    assert (opt.root_ev >= other.root_ev).all()  # later points: optimal continuation >= rule
    net = sum(k * v for k, v in opt.net_histogram().items())
    assert net > sum(k * v for k, v in other.net_histogram().items())


def test_caribbean_partial_solve_equals_the_shipped_tables_and_report():
    rules = load_config("caribbean_stud")
    b = board_classes(5)
    labels = starting_label(b.reps)
    ids = np.flatnonzero(labels == "high card A-K")
    part = solve(rules, player_classes=ids)
    prov = json.loads((TABLE_DIR / "provenance.json").read_text())["caribbean_stud"]
    with np.load(TABLE_DIR / prov["file"]) as z:
        shipped = unpack_tables(z)["raise/optimal"]
    got = part.tables["raise/optimal"]
    rows = (ids[:, None] * 52 + np.arange(52)[None, :]).ravel()
    assert got.shape == shipped.shape
    assert np.array_equal(got[:, rows], shipped[:, rows])
    report = json.loads((TABLE_DIR.parent / "exact" / "caribbean_stud.optimal.json").read_text())
    want = [r for r in report["first_decision"]["hands"] if r["hand"] == "high card A-K"]
    assert json.loads(json.dumps(first_decision(part))) == want
    # the best raise with A-K depends on the dealer's up card
    shares = {r["up"]: r["share"]["raise"] for r in want}
    assert len(set(shares.values())) > 1, shares


@pytest.mark.parametrize("config, strategy", [("three_card_poker", "q64"),
                                              ("three_card_poker", "always-play"),
                                              ("let_it_ride", "ride-on-a-paying-hand")])
def test_exact_prices_each_rule_strategy(tmp_path, config, strategy):
    env = {"GPUSIM_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([*CLI, "exact", config, "--strategy", strategy, "--json"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    assert rep["strategy"] == strategy and rep["format"] == "gpusim-exact/1"
    for bet, table in rep["bets"].items():
        assert sum(e["count"] for e in table["events"]) == rep["deals_counted"], bet
    shipped = json.loads((TABLE_DIR.parent / "exact" / f"{config}.optimal.json").read_text())
    assert rep["deals_counted"] == shipped["deals_counted"]
    # no rule beats optimal; q64 is optimal, so it ties to the last digit
    he, best = rep["main"]["house_edge_per_ante"], shipped["main"]["house_edge_per_ante"]
    assert he == best if strategy == "q64" else he > best


def test_a_game_the_solver_cannot_count_says_so(tmp_path):
    text = (load_config("three_card_poker").source and
            open(load_config("three_card_poker").source).read())
    # a Pair Plus paid on the dealer's hand in a game with a street (a card turned after the
    # decision): there the solver counts no paytable on the dealer's hidden cards
    text = text.replace('name = "three_card_poker"', 'name = "tcp_dealer_pays"', 2)
    text = text.replace("[game.cards]\nplayer = 3\ndealer = 3\n",
                        "[game.cards]\nplayer = 3\ndealer = 3\nstreets = [1]\n", 1)
    text = text.replace('[game.paytables.pair_plus]\nhand = "player"',
                        '[game.paytables.pair_plus]\nhand = "dealer"')
    text = text.replace('default_strategy = "optimal"', 'default_strategy = "q64"')
    cfg = tmp_path / "tcp_dealer_pays.toml"
    cfg.write_text(text)
    p = subprocess.run([*CLI, "exact", str(cfg)], capture_output=True, text=True)
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpusim: error:"), p.stderr
    assert "no exact solver" in lines[0] and "simulate" in lines[0]

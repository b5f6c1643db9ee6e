"""A hold'em-shaped game described in TOML only: configs/ultimate_holdem_3x_open.toml, Ultimate
Texas Hold'em with Play at most 3x and a dealer who always opens (no qualifier).

Its rounds are settled by the described engine and again here, bet by bet, from the rules
written out below with eval7 (the independent evaluator the evaluator's tests use) ranking the
hands: thousands of random deals with random answers at every point, a few hand-built rounds
with their exact pays, and rounds the CLI plays with a rule strategy (whose decisions are
checked against that strategy's rules written out here). Then `gpusim simulate` end to end.

The rules, as the config states them (stakes: ante 2, Blind = ante, Trips 2):

- pre-flop: check, or Play 3x (ends the decisions); after a check, on the flop: check, or Play
  2x (ends the decisions); after a second check, on the river: fold, or Play 1x;
- the dealer always opens: Ante and Play win 1:1, push on a tie, lose otherwise;
- Blind: on a win the Blind paytable (royal 500, straight flush 50, quads 10, full house 3,
  flush 3:2, straight 1), a push on a win below a straight; a push on a tie; lost on a loss;
- a fold loses Ante and Blind (the Play is not placed);
- Trips: 50/40/30/8/7/4/3 on the player's final hand, three of a kind or better, else lost,
  folds included.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import eval7
import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.config import load_config
from gpusim.games import settle
from gpusim.games.described.layout import layout, tree

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "ultimate_holdem_3x_open.toml"
RANKS, SUITS = "23456789TJQKA", "cdhs"
ANTE, TRIPS = 2, 2
BLIND_PAYS = {"royal_flush": Fraction(500), "straight_flush": Fraction(50),
              "four_of_a_kind": Fraction(10), "full_house": Fraction(3),
              "flush": Fraction(3, 2), "straight": Fraction(1)}
TRIPS_PAYS = {"royal_flush": 50, "straight_flush": 40, "four_of_a_kind": 30, "full_house": 8,
              "flush": 7, "straight": 4, "three_of_a_kind": 3}
EVAL7_CATEGORY = {"High Card": "high_card", "Pair": "pair", "Two Pair": "two_pair",
                  "Trips": "three_of_a_kind", "Straight": "straight", "Flush": "flush",
                  "Full House": "full_house", "Quads": "four_of_a_kind",
                  "Straight Flush": "straight_flush"}
POINTS = ("preflop", "flop", "river")
ACTIONS = {"preflop": ("check", "play_3x"), "flop": ("check", "play_2x"),
           "river": ("fold", "play_1x")}


def name(card: int) -> str:
    """gpusim's card number as text: rank * 4 + suit, clubs, diamonds, hearts, spades."""
    return RANKS[card // 4] + SUITS[card % 4]


def number(text: str) -> int:
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def rank7(cards: list[str]) -> tuple[int, str]:
    """(eval7's value, category) of seven cards; a royal flush is the ace-high straight flush."""
    hand = [eval7.Card(c) for c in cards]
    value = eval7.evaluate(hand)
    cat = EVAL7_CATEGORY[eval7.handtype(value)]
    if cat == "straight_flush" and any(all(r + s in cards for r in "TJQKA") for s in SUITS):
        cat = "royal_flush"
    return value, cat


def reference(player: list[str], dealer: list[str], board: list[str], answers: dict) -> dict:
    """{bet: (stake, net)} of one round by the rules above (a bet not placed: (0, 0))."""
    pv, pcat = rank7(player + board)
    dv, _ = rank7(dealer + board)
    if answers["preflop"] == "play_3x":
        times = 3
    elif answers["flop"] == "play_2x":
        times = 2
    elif answers["river"] == "play_1x":
        times = 1
    else:
        times = 0  # folded on the river
    out = {"trips": (TRIPS, TRIPS * TRIPS_PAYS[pcat] if pcat in TRIPS_PAYS else -TRIPS)}
    if times == 0:
        return out | {"ante": (ANTE, -ANTE), "blind": (ANTE, -ANTE), "play": (0, 0)}
    play = ANTE * times
    if pv > dv:
        blind = ANTE * BLIND_PAYS[pcat] if pcat in BLIND_PAYS else 0
        assert Fraction(blind).denominator == 1
        return out | {"ante": (ANTE, ANTE), "blind": (ANTE, int(blind)), "play": (play, play)}
    if pv == dv:
        return out | {"ante": (ANTE, 0), "blind": (ANTE, 0), "play": (play, 0)}
    return out | {"ante": (ANTE, -ANTE), "blind": (ANTE, -ANTE), "play": (play, -play)}


@pytest.fixture(scope="module")
def rules():
    return load_config(CONFIG)


SCENARIOS = [
    # (player, dealer, board, answers, {bet: (stake, net)}, {bet: event})
    pytest.param("As Ks", "2h 3h", "Qs Js Ts 2c 3d", ("check", "play_2x", "fold"),
                 {"ante": (2, 2), "blind": (2, 1000), "play": (4, 4), "trips": (2, 100)},
                 {"blind": "win:royal_flush", "trips": "royal_flush", "ante": "win"},
                 id="royal-flush-win"),
    pytest.param("Qc Jd", "Qs Jh", "Ah Kd 8c 7s 2h", ("play_3x", "check", "fold"),
                 {"ante": (2, 0), "blind": (2, 0), "play": (6, 0), "trips": (2, -2)},
                 {"ante": "tie", "blind": "tie", "play": "tie", "trips": "other"},
                 id="tie-pushes"),
    pytest.param("7c 7d", "Ah Ad", "7h Ks 2d 9c 4s", ("check", "check", "fold"),
                 {"ante": (2, -2), "blind": (2, -2), "play": (0, 0), "trips": (2, 6)},
                 {"ante": "fold", "blind": "fold", "trips": "three_of_a_kind"},
                 id="fold-loses-ante-and-blind-settles-trips"),
    pytest.param("Ac Qd", "Kh Jc", "9s 7h 5d 3c 2s", ("play_3x", "play_2x", "play_1x"),
                 {"ante": (2, 2), "blind": (2, 0), "play": (6, 6), "trips": (2, -2)},
                 {"ante": "win", "blind": "win:other", "play": "win"},
                 id="high-card-win-after-3x"),
    pytest.param("2c 3d", "Ah Kc", "9s 7h 5d Jc Qs", ("check", "check", "play_1x"),
                 {"ante": (2, -2), "blind": (2, -2), "play": (2, -2), "trips": (2, -2)},
                 {"ante": "lose", "blind": "lose", "play": "lose"},
                 id="dealer-ace-high-beats-the-ante"),
    pytest.param("Ah 9h", "Kc Kd", "2h 5h Jh 3c Ks", ("check", "play_2x", "fold"),
                 {"ante": (2, 2), "blind": (2, 3), "play": (4, 4), "trips": (2, 14)},
                 {"blind": "win:flush", "trips": "flush"},
                 id="flush-win-blind-3-to-2"),
    pytest.param("8c 9d", "Ac Ad", "Th Js Qc 2d 2h", ("check", "check", "play_1x"),
                 {"ante": (2, 2), "blind": (2, 2), "play": (2, 2), "trips": (2, 8)},
                 {"blind": "win:straight", "trips": "straight"},
                 id="straight-beats-two-pair"),
    pytest.param("5c 5d", "Kc Kd", "5h 5s Kh 2c 3d", ("play_3x", "check", "fold"),
                 {"ante": (2, 2), "blind": (2, 20), "play": (6, 6), "trips": (2, 60)},
                 {"blind": "win:four_of_a_kind", "trips": "four_of_a_kind"},
                 id="quads-over-a-full-house"),
]


N_RANDOM = 3000
THREE_X = ("Ac Ad Kh Kc 2s 7d 9c Jh 4s", ("play_3x", "check", "fold"),
           ("play_3x", "play_2x", "fold"), ("play_3x", "check", "play_1x"),
           ("play_3x", "play_2x", "play_1x"))
"""One deal played 3x with every answer at the points a 3x round never reaches."""


@pytest.fixture(scope="module")
def settled(rules):
    """Every round of the tests below settled in one batch (one compiled program): the random
    rounds, then the 3x rounds, then the scenarios. Returns (cards as text, answers, {bet:
    (stakes, nets, events)} | {"joint": codes})."""
    rng = np.random.default_rng(20260)
    cards = np.argsort(rng.random((N_RANDOM, 52)), axis=1)[:, :9]  # player, dealer, board
    text = [[name(int(c)) for c in row] for row in cards]
    answers = [dict(zip(POINTS, (ACTIONS[p][k] for p, k in zip(POINTS, row, strict=True)),
                        strict=True)) for row in rng.integers(0, 2, (N_RANDOM, 3))]
    for said in THREE_X[1:]:
        text.append(THREE_X[0].split())
        answers.append(dict(zip(POINTS, said, strict=True)))
    for sc in SCENARIOS:
        player, dealer, board, said = sc.values[:4]
        text.append(f"{player} {dealer} {board}".split())
        answers.append(dict(zip(POINTS, said, strict=True)))
    index = {p: np.array([ACTIONS[p].index(a[p]) for a in answers], np.int8) for p in POINTS}
    s = settle(np.array([[number(c) for c in row] for row in text], np.int32), index, rules)
    got = {b: (np.asarray(s.stakes[b]), np.asarray(s.nets[b]), np.asarray(s.events[b]))
           for b in s.stakes} | {"joint": np.asarray(s.joint)}
    return text, answers, got


def test_card_numbers_are_gpusims():
    assert gpusim.format_cards(list(range(52))).split() == [name(c) for c in range(52)]


def test_random_rounds_settle_as_the_rules_say(settled):
    text, answers, got = settled
    assert set(got) == {"ante", "blind", "play", "trips", "joint"}
    bad, seen = [], set()
    for i in range(N_RANDOM):
        t = text[i]
        want = reference(t[0:2], t[2:4], t[4:9], answers[i])
        for bet, (stake, net) in want.items():
            if (int(got[bet][0][i]), int(got[bet][1][i])) != (stake, net):
                bad.append((i, bet, t, answers[i], (stake, net),
                            (int(got[bet][0][i]), int(got[bet][1][i]))))
            seen.add((bet, int(np.sign(net))))
    assert bad == [], bad[:5]
    # every bet won, lost and (but Trips) pushed somewhere in the sample
    assert {(b, s) for b in ("ante", "blind", "play") for s in (-1, 0, 1)} <= seen


def test_a_play_ends_the_decisions(rules, settled):
    d = rules.game_def
    points = {p.name: p for p in tree(d)}
    for point, action in (("preflop", "play_3x"), ("flop", "play_2x")):
        a = points[point].actions[points[point].index(action)]
        assert (a.next, a.folds) == (None, False)
    assert points["preflop"].actions[0].next == "flop"
    lay = layout(d)
    assert len(lay.paths) == 4  # 3x; check, 2x; check, check, 1x; check, check, fold
    # a 3x round does not reach the flop or the river, whatever was answered there
    _, _, got = settled
    rows = slice(N_RANDOM, N_RANDOM + len(THREE_X) - 1)
    assert {int(lay.action_of["flop"][c]) for c in got["joint"][rows]} == {-1}
    assert {int(lay.action_of["river"][c]) for c in got["joint"][rows]} == {-1}
    assert set(got["play"][0][rows].tolist()) == {3 * ANTE}
    assert len({int(c) for c in got["joint"][rows]}) == 1


@pytest.mark.parametrize(("player", "dealer", "board", "answers", "nets", "events"), SCENARIOS)
def test_scenarios(rules, settled, player, dealer, board, answers, nets, events):
    text, said, got = settled
    i = N_RANDOM + len(THREE_X) - 1 + [sc.values[:4] for sc in SCENARIOS].index(
        (player, dealer, board, answers))
    t = text[i]
    assert t == f"{player} {dealer} {board}".split()
    assert {b: (int(got[b][0][i]), int(got[b][1][i])) for b in nets} == nets
    assert reference(t[0:2], t[2:4], t[4:9], said[i]) == nets  # the reference agrees
    names = layout(rules.game_def).events
    assert {b: names[b][int(got[b][2][i])] for b in events} == events


def _pair_or_better(cards: list[str]) -> bool:
    return eval7.handtype(eval7.evaluate([eval7.Card(c) for c in cards])) != "High Card"


def _strategy_says(player: list[str], board: list[str]) -> dict[str, str]:
    """The config's ``pair-or-high-cards``, written out: 3x with a pair, an ace, or K-T, K-J,
    K-Q; else 2x on the flop when the five cards seen make a pair or better; else play the
    river when the seven do, else fold."""
    ranks = sorted((RANKS.index(c[0]) for c in player), reverse=True)
    if ranks[0] == ranks[1] or ranks[0] == 12 or (ranks[0] == 11 and ranks[1] >= 8):
        return {"preflop": "play_3x"}
    if _pair_or_better(player + board[:3]):
        return {"preflop": "check", "flop": "play_2x"}
    river = "play_1x" if _pair_or_better(player + board) else "fold"
    return {"preflop": "check", "flop": "check", "river": river}


def test_played_rounds_follow_the_strategy_and_the_rules():
    res = CliRunner().invoke(app, ["play", str(CONFIG), "--seed", "9", "--rounds", "0:300",
                                   "--strategy", "pair-or-high-cards", "--json"])
    assert res.exit_code == 0, res.output
    records = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
    assert len(records) == 300
    taken = set()
    for rec in records:
        player, dealer, board = rec["player"], rec["dealer"], rec["board"]
        assert rec["decisions"] == _strategy_says(player, board), rec
        answers = {p: rec["decisions"].get(p, "check") for p in POINTS}
        want = reference(player, dealer, board, answers)
        got = {b: (v["stake"], v["net"]) for b, v in rec["bets"].items()}
        got.setdefault("play", (0, 0))  # not placed after a fold
        assert got == want, rec
        assert rec["net"] == sum(net for _, net in want.values())
        taken |= set(rec["decisions"].items())
    assert taken == {(p, a) for p in POINTS for a in ACTIONS[p]}


def test_simulate_end_to_end(tmp_path):
    out = tmp_path / "run"
    rounds = 20_000
    res = CliRunner().invoke(app, ["simulate", str(CONFIG), "--rounds", str(rounds), "--seed",
                                   "5", "--strategy", "always-check", "--out", str(out),
                                   "--quiet"])
    assert res.exit_code == 0, res.output
    run = gpusim.open_run(out)
    events = run.events().group_by("bet", "event").agg(
        pl.col("count").sum()).collect()
    counts = {(b, e): c for b, e, c in events.iter_rows() if c}
    for bet in ("ante", "blind", "trips"):
        assert sum(c for (b, _), c in counts.items() if b == bet) == rounds
    # always-check: every round reaches the river and plays 1x there; the dealer always opens
    assert {e for (b, e) in counts if b == "ante"} <= {"win", "tie", "lose"}
    assert {e for (b, e) in counts if b == "play"} <= {"win", "tie", "lose"}
    decisions = run.decisions().group_by("point", "action").agg(
        pl.col("count").sum()).collect()
    assert {(p, a): c for p, a, c in decisions.iter_rows() if c} == {
        ("preflop", "check"): rounds, ("flop", "check"): rounds, ("river", "play_1x"): rounds}
    summary = json.loads((out / "summary.json").read_text())
    assert "ante" in json.dumps(summary)

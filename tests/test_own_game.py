"""A game nobody here wrote, in every command: the three shapes that first broke (issue: a
designer's own game works in every command).

- a four-card starting hand (Double Down Stud): `exact` and `certify` label its hands;
- a run of a game described in the user's own file, in a folder outside the checkout: `summary`
  reads the game from the run folder in a process that never saw the file;
- a description the exact solver cannot count: every refusal of `optimal` says why.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.config import shipped_configs
from gpusim.games.described.exact_report import starting_label

RANKS = "23456789TJQKA"


def _four_card_label(hand: tuple[int, ...]) -> str:
    """The label of four cards, written plainly from the rules of poker (no engine code)."""
    ranks = sorted((c >> 2 for c in hand), reverse=True)
    counts = sorted(Counter(ranks).values(), reverse=True)
    if counts[0] == 4:
        return "four of a kind"
    if counts[0] == 3:
        return "three of a kind"
    if counts == [2, 2]:
        return "two pair"
    if counts[0] == 2:
        pair = next(r for r, k in Counter(ranks).items() if k == 2)
        return f"pair of {RANKS[pair]}s"
    flush = len({c & 3 for c in hand}) == 1
    # a straight draw: some five-rank window (the ace also low) holds all four ranks
    windows = [set(range(lo, lo + 5)) for lo in range(0, 9)] + [{12, 0, 1, 2, 3}]
    straight = any(set(ranks) <= w for w in windows)
    if straight and flush:
        return "four to a straight flush"
    if flush:
        return "four to a flush"
    if straight:
        # outside: four in a row that a card at either end completes
        outside = ranks[0] - ranks[3] == 3 and ranks[0] != 12
        return "four to an outside straight" if outside else "four to an inside straight"
    return f"high card {RANKS[ranks[0]]}-{RANKS[ranks[1]]}"


def test_every_four_card_hand_gets_its_label():
    """All 270,725 four-card hands, labelled by the engine and by the plain rules above."""
    hands = np.array(list(itertools.combinations(range(52), 4)), np.int64)
    got = starting_label(hands)
    want = [_four_card_label(tuple(h)) for h in hands.tolist()]
    assert got.tolist() == want
    assert Counter(want)["four of a kind"] == 13
    # 2345 up to TJQK, four suits each but not all one suit
    assert Counter(want)["four to an outside straight"] == 9 * (4**4 - 4)


def test_six_and_seven_card_labels_read_every_card():
    from gpusim.cards import parse_cards

    rows = np.array([parse_cards("2c 3d As Ks Qs Js Ts")])
    assert starting_label(rows).tolist() == ["royal flush"]


def test_double_down_stud_exact_and_certify(tmp_path):
    cli = CliRunner()
    res = cli.invoke(app, ["exact", "double_down_stud", "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["deals_counted"] == 12_994_800  # C(52, 4) x 48, as the published return table
    assert round(rep["main"]["house_edge_per_ante"] * 100, 4) == 2.1033
    hands = {r["hand"]: r for r in rep["first_decision"]["hands"]}
    assert hands["two pair"]["share"]["double"] == 1.0
    assert hands["high card A-K"]["share"]["stand"] == 1.0
    assert 0 < rep["decisions"]["double"]["double"] < 1
    res = cli.invoke(app, ["certify", "double_down_stud", "--out", str(tmp_path / "p.xlsx")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "p.xlsx").stat().st_size > 0


def test_summary_of_a_run_of_the_users_own_game(tmp_path):
    """A renamed copy of a shipped description in the user's folder: the run is made in one
    process, summarised in a fresh one that never read the config file."""
    text = shipped_configs()["double_down_stud"].read_text()
    own = tmp_path / "mine" / "my_double_down.toml"
    own.parent.mkdir()
    own.write_text(text.replace('name = "double_down_stud"', 'name = "my_double_down"'))
    res = CliRunner().invoke(app, ["simulate", str(own), "--rounds", "20000", "--seed", "4",
                                   "--out", str(tmp_path / "run"), "--quiet"])
    assert res.exit_code == 0, res.output
    own.unlink()  # the run folder alone must be enough
    out = subprocess.run([sys.executable, "-m", "gpusim", "summary", str(tmp_path / "run"),
                          "--json"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["bets"]["main"]["placed"] == 20_000


SIX_CARD = """
[game.hands.six]
cards = ["player", "dealer"]
ranking = "poker"

[game.bets.six_card]
placed = "deal"
side = true
fold = "settle"
paytable = "six_card"

[game.paytables.six_card]
hand = "six"
lines = ["straight_flush", "four_of_a_kind", "full_house", "flush", "straight"]
"""


def _six_card_bonus(folder: Path, default: str) -> Path:
    """Three Card Poker with a 6 Card Bonus and a community card turned after the decision:
    in a game with streets the exact solver counts no paytable on the dealer's hidden cards
    (without the street it does: configs/three_card_poker_6card.toml)."""
    text = shipped_configs()["three_card_poker"].read_text()
    text = text.replace('name = "three_card_poker"', 'name = "six_card_tcp"')
    text = text.replace("[game.cards]\nplayer = 3\ndealer = 3\n",
                        "[game.cards]\nplayer = 3\ndealer = 3\nstreets = [1]\n", 1)
    text = text.replace('default_strategy = "optimal"', f'default_strategy = "{default}"')
    text = text.replace("pair_plus = 1\n", "pair_plus = 1\nsix_card = 1\n", 1)
    text = text.replace("[paytables.pair_plus]", "[paytables.six_card]\nstraight_flush = 200\n"
                        "four_of_a_kind = 100\nfull_house = 20\nflush = 15\nstraight = 10\n\n"
                        "[paytables.pair_plus]", 1)
    folder.mkdir()
    path = folder / "six.toml"
    path.write_text(text + SIX_CARD)
    return path


@pytest.mark.parametrize("args", [
    ["games", "--check", "{optimal}"],
    ["exact", "{q64}"],
    ["exact", "{q64}", "--strategy", "optimal"],
    ["certify", "{q64}", "--out", "{tmp}/pack.xlsx"],
    ["simulate", "{q64}", "--strategy", "optimal", "--rounds", "100", "--out", "{tmp}/run"],
])
def test_a_side_bet_on_hidden_cards_says_why_optimal_is_missing(tmp_path, args):
    paths = {"optimal": str(_six_card_bonus(tmp_path / "a", "optimal")),
             "q64": str(_six_card_bonus(tmp_path / "b", "q64")), "tmp": str(tmp_path)}
    res = CliRunner().invoke(app, [a.format(**paths) for a in args])
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "hands.six reads the dealer's hidden cards" in line
    assert not (tmp_path / "run").exists() and not (tmp_path / "pack.xlsx").exists()

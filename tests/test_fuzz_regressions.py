"""What tests/test_fuzz_descriptions.py found, each as a literal config: a described game the
loader reads that a command then failed on, or a mistake that was not refused in one line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gpusim.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Each test counts its exact solves afresh, in a folder of its own."""
    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path / "exact-cache"))


def _cli(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


def _write(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


TWO_CARDS_ONLY = """
name = "fuzz_two_cards_only"
default_strategy = "always"

[stakes]
ante = 1

[paytables.pairs]
big = 5
small = 1

[game]
name = "fuzz_two_cards_only"

[game.cards]
player = 2

[game.hands.hole]
cards = ["player"]
ranking = "starting_hand"

[game.lines]
big = { hands = "QQ+" }
small = { hands = "22-JJ" }

[[game.decisions]]
name = "play"
actions = [{ name = "fold", fold = true }, { name = "play", bet = "play" }]

[game.bets.ante]
placed = "deal"
paytable = "pairs"

[game.bets.play]
placed = "action"
paytable = "pairs"

[game.paytables.pairs]
hand = "hole"
lines = ["big", "small"]

[game.strategies.always]
play = [{ action = "play" }]
"""


def test_paytables_of_starting_hands_only(tmp_path):
    # no showdown and every paytable reads a starting hand: the round's player_category was
    # read by ranking two cards as a poker hand ("cards: shape (1024, 2) is not allowed", a
    # traceback from games --check and play); it is now the two cards' pair or high card
    cfg = _write(tmp_path, "two", TWO_CARDS_ONLY)
    r = _cli("games", "--check", cfg)
    assert r.exit_code == 0 and "conforms" in r.stdout, r.output
    r = _cli("play", cfg, "--seed", 1, "--rounds", "0:200", "--json")
    assert r.exit_code == 0, r.output
    for rec in map(json.loads, r.stdout.splitlines()):
        paired = rec["player"][0][0] == rec["player"][1][0]
        assert rec["player_category"] == ("pair" if paired else "high_card"), rec
        assert rec["bets"]["ante"]["event"] == "other" or paired, rec


def test_exact_counts_paytables_of_starting_hands(tmp_path):
    # the exact solver ranked a starting hand's two cards as a poker hand (a traceback from
    # exact, and from play and simulate solving the default optimal strategy); it reads the
    # starting hand's line as the settlement does: QQ+ pays 5:1, 22-JJ 1:1, else lost
    cfg = _write(tmp_path, "two", TWO_CARDS_ONLY)
    r = _cli("exact", cfg, "--json")
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    want = (3 * 6 * 6 + 10 * 6 * 2) / 1326  # returned per unit staked, when played
    assert abs(report["bets"]["ante"]["rtp"] - want) < 1e-12
    assert abs(report["bets"]["play"]["rtp"] - want) < 1e-12


def test_exact_counts_a_line_on_the_dealers_hidden_cards(tmp_path):
    # a starting-hand line with dealer_hands reads the dealer's face-down cards: refused in one
    # line once (a traceback before that); the solver now deals the hidden cards out. Playing
    # every hand, QQ+ meets the dealer's AA 12 x 6 + 6 x 1 = 78 times, 22-JJ pays 60 x 1,225
    text = TWO_CARDS_ONLY.replace("player = 2\n", "player = 2\ndealer = 2\n").replace(
        'big = { hands = "QQ+" }', 'big = { hands = "QQ+", dealer_hands = "AA" }').replace(
        "fuzz_two_cards_only", "fuzz_two_cards_vs_dealer")
    cfg = _write(tmp_path, "vs", text)
    r = _cli("exact", cfg, "--json")
    assert r.exit_code == 0, r.output
    r = _cli("exact", cfg, "--strategy", "always", "--json")
    assert r.exit_code == 0, r.output
    events = {e["event"]: e["count"] for e in json.loads(r.stdout)["bets"]["ante"]["events"]
              if e["count"]}
    assert events == {"big": 78, "small": 73_500, "other": 1326 * 1225 - 78 - 73_500}
    assert _cli("play", cfg, "--seed", 1, "--rounds", "0:5", "--json").exit_code == 0


def test_a_table_strategy_of_a_game_the_solver_refuses_says_why(tmp_path):
    # the slow fuzzing drew a table strategy (table = "optimal") in a game whose dealer_hands
    # line the solver refuses: the refusal named the key but said only "no exact solver"; it
    # now gives the solver's reason too (a dealer_hands line is refused where a street is
    # dealt: without one the solver deals the dealer's cards out)
    text = TWO_CARDS_ONLY.replace(
        "player = 2\n", "player = 2\ndealer = 2\nstreets = [1]\n").replace(
        'big = { hands = "QQ+" }', 'big = { hands = "QQ+", dealer_hands = "AA" }').replace(
        "fuzz_two_cards_only", "fuzz_table_unsolved")
    text += '\n[game.strategies.best]\ntable = "optimal"\n'
    r = _cli("games", "--check", _write(tmp_path, "best", text))
    assert r.exit_code == 2 and r.stdout == "", r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "'game.strategies.best.table'" in lines[0], r.stderr
    assert "lines.big" in lines[0] and "hidden" in lines[0], r.stderr

METER = """
name = "fuzz_meter"
default_strategy = "always"

[stakes]
ante = 1
jackpot = 1

[paytables.jackpot]
straight_flush = 40
three_of_a_kind = 30

[jackpot]
contribution_bp = 1000
reset = 100

[game]
name = "fuzz_meter"

[game.cards]
player = 3
dealer = 3

[game.hands.player]
cards = ["player"]
ranking = "three_card"

[game.hands.dealer]
cards = ["dealer"]
ranking = "three_card"

[game.showdown]
player = "player"
dealer = "dealer"

[[game.decisions]]
name = "play"
actions = [{ name = "fold", fold = true }, { name = "play", bet = "play" }]

[game.bets.ante]
placed = "deal"
showdown = { win = "1:1", tie = "push", lose = "lose" }

[game.bets.play]
placed = "action"
showdown = { win = "1:1", tie = "push", lose = "lose" }

[game.bets.jackpot]
placed = "deal"
side = true
fold = "settle"
paytable = "jackpot"

[game.paytables.jackpot]
hand = "player"
lines = ["straight_flush", "three_of_a_kind"]

[game.meter]
bet = "jackpot"
event = "other"

[game.strategies.always]
play = [{ action = "play" }]
"""


def test_report_of_a_described_meter(tmp_path):
    # a described game's own progressive meter: gpusim report crashed (KeyError) looking up
    # closed-form event probabilities that only the shipped hold'em shapes have; the report is
    # written, without the meter's exact figures
    cfg = _write(tmp_path, "meter", METER)
    run = tmp_path / "run"
    r = _cli("simulate", cfg, "--rounds", 2000, "--chunk", 1000, "--seed", 5, "--out", run,
             "--quiet", "--backend", "jax-cpu")
    assert r.exit_code == 0, r.output
    for suffix in ("json", "md"):
        out = tmp_path / f"report.{suffix}"
        r = _cli("report", run, "--out", out, "--paths", 200, "--rounds", 20)
        assert r.exit_code == 0, r.output
        assert out.stat().st_size > 0


NEVER_PLACED = """
name = "fuzz_never_placed"
default_strategy = "never-raise"

[stakes]
ante = 1

[paytables.main]
pair = 1

[game]
name = "fuzz_never_placed"

[game.cards]
player = 3

[game.hands.own]
cards = ["player"]
ranking = "three_card"

[[game.decisions]]
name = "raise"
actions = [{ name = "fold", fold = true }, { name = "stay" }, { name = "raise", bet = "raise" }]

[game.bets.ante]
placed = "deal"
paytable = "main"

[game.bets.raise]
placed = "action"
paytable = "main"

[game.paytables.main]
hand = "own"
lines = ["pair"]

[game.strategies.never-raise]
raise = [{ at_least = "pair", action = "stay" }, { action = "fold" }]
"""


def test_report_of_a_bet_never_placed(tmp_path):
    # the strategy never raises: the Raise's only events are folds, with nothing staked, and
    # gpusim report crashed ("nothing was wagered"); the bet is left out of the return tables
    cfg = _write(tmp_path, "never", NEVER_PLACED)
    run = tmp_path / "run"
    r = _cli("simulate", cfg, "--rounds", 2000, "--chunk", 1000, "--seed", 5, "--out", run,
             "--quiet", "--backend", "jax-cpu")
    assert r.exit_code == 0, r.output
    out = tmp_path / "report.json"
    r = _cli("report", run, "--out", out, "--paths", 200, "--rounds", 20)
    assert r.exit_code == 0, r.output
    tables = json.loads(out.read_text())["return_tables"]
    assert "ante" in tables and "raise" not in tables


def test_whatif_of_a_bet_never_placed(tmp_path):
    # gpusim whatif --set (and --target-rtp --line) on a bet the run never staked crashed with
    # "nothing was wagered"; it is refused in one line that says so
    cfg = _write(tmp_path, "never", NEVER_PLACED)
    run = tmp_path / "run"
    r = _cli("simulate", cfg, "--rounds", 1000, "--seed", 5, "--out", run, "--quiet",
             "--backend", "jax-cpu")
    assert r.exit_code == 0, r.output
    for args in (("--set", "raise.pair=3"), ("--target-rtp", "0.9", "--line", "raise.pair")):
        r = _cli("whatif", run, *args)
        assert r.exit_code == 2 and r.stdout == "", r.output
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "'raise' was never placed" in lines[0], r.stderr
    r = _cli("whatif", run, "--set", "ante.pair=3", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["whatif"]["bets"]["ante"]["rtp_new"] > 0


def test_hidden_pair_needs_two_player_cards(tmp_path):
    # hidden_pair with one player card was read, and the strategy then crashed (IndexError)
    # in games --check, play and simulate; it is refused in one line naming the rule
    text = NEVER_PLACED.replace("player = 3", "player = 1\nstreets = [2]").replace(
        'cards = ["player"]', 'cards = ["player", "board"]').replace(
        'at_least = "pair"', "hidden_pair = true").replace("fuzz_never_placed", "fuzz_one_card")
    cfg = _write(tmp_path, "one", text)
    r = _cli("play", cfg, "--seed", 1, "--rounds", "0:3", "--json")
    assert r.exit_code == 2 and r.stdout == "", r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "game.strategies.never-raise.raise[0].hidden_pair" in lines[0]
    assert "1 card" in lines[0], lines[0]

"""`gpusim games` and `gpusim play` through Typer's CliRunner: exit codes, help, bad values."""

import json

import pytest
from typer.testing import CliRunner

import gpusim.games.strategy_registry as registry
from gpusim.cli import app
from gpusim.config import shipped_configs
from gpusim.dealing import deal
from gpusim.games import SPECS

runner = CliRunner()


def _run(*args):
    return runner.invoke(app, list(args))


def _one_error_line(result):
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


def test_help():
    for cmd in ("games", "play"):
        r = _run(cmd, "--help")
        assert r.exit_code == 0 and "Usage" in r.output


def test_games_lists_games_configs_and_strategies():
    r = _run("games")
    assert r.exit_code == 0, r.output
    info = json.loads(_run("games", "--json").output)
    assert set(info["configs"]) == set(shipped_configs())
    assert set(info["games"]) == set(SPECS)
    for game, g in info["games"].items():  # every game, config and strategy is listed
        assert game in r.output and g["title"] in r.output
        assert all(s in r.output for s in g["strategies"])
    assert all(name in r.output for name in info["configs"])
    assert "basic" in info["games"]["holdem_bonus"]["strategies"]


def test_games_check(tmp_path):
    r = _run("games", "--check", str(shipped_configs()["holdem_bonus"]))
    assert r.exit_code == 0 and "ok" in r.output
    bad = tmp_path / "bad.toml"
    text = shipped_configs()["casino_holdem"].read_text()
    bad.write_text(text.replace("flush = 2\n", "flush = -2\n"))
    line = _one_error_line(_run("games", "--check", str(bad)))
    assert str(bad) in line and "paytables.ante.flush" in line and "-2" in line


BAD_EDITS = [
    ("casino_holdem", "fold_forfeits_bonus = true", "fold_forfeit_bonus = true",
     "rules.fold_forfeit_bonus"),
    ("casino_holdem", "straight_or_less = 1\n", "", "paytables.ante.straight_or_less"),
    ("casino_holdem", "full_house = 3", "full_house = 3.5", "paytables.ante.full_house"),
    ("casino_holdem", "full_house = 3", "full_house = nan", "paytables.ante.full_house"),
    ("casino_holdem", "full_house = 3", 'full_house = "3"', "paytables.ante.full_house"),
    ("casino_holdem", "pair_of_aces = 7", "pair_of_jacks = 7", "paytables.aa_bonus.pair_of_jacks"),
    ("casino_holdem_evolution", 'game = "casino_holdem"', 'game = "baccarat"', "game"),
    ("holdem_bonus", "ante = 1 ", "ante = 0 ", "stakes.bonus"),
]


@pytest.mark.parametrize("config, old, new, key", BAD_EDITS, ids=[b[3] for b in BAD_EDITS])
@pytest.mark.parametrize("command", ["games", "play"])
def test_bad_configs_exit_2_with_one_line(tmp_path, config, old, new, key, command):
    text = shipped_configs()[config].read_text()
    assert old in text
    bad = tmp_path / "BAD.toml"
    bad.write_text(text.replace(old, new, 1))
    if command == "games":
        result = _run("games", "--check", str(bad))
    else:
        result = _run("play", str(bad), "--seed", "1", "--rounds", "0:2", "--strategy", "basic")
    line = _one_error_line(result)
    assert str(bad) in line and f"'{key}'" in line


def test_play_text():
    r = _run("play", "casino_holdem", "--seed", "7", "--rounds", "0:3", "--strategy", "basic")
    assert r.exit_code == 0, r.output
    assert r.output.count("round ") == 3 and "ante" in r.output and "decisions" in r.output


@pytest.mark.parametrize("config", ["casino_holdem", "holdem_bonus", "holdem_bonus_classic"])
def test_play_json_lines(config):
    r = _run("play", config, "--seed", "3", "--rounds", "5:25", "--strategy", "basic", "--json")
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in r.output.splitlines()]
    assert [rec["round"] for rec in recs] == list(range(5, 25))
    cards = deal(3, 5, 20, 9)
    main = {"casino_holdem": {"ante", "call"}, "holdem_bonus": {"ante", "flop", "turn", "river"}}
    for rec, c in zip(recs, cards, strict=True):
        assert {"format", "round", "player", "dealer", "board", "decisions", "bets",
                "player_category", "dealer_category", "net"} <= set(rec)
        assert next(iter(rec)) == "format" and rec["format"] == "gpusim-play/2"
        from gpusim.cards import format_cards

        assert " ".join(rec["player"] + rec["dealer"] + rec["board"]) == format_cards(c)
        assert rec["net"] == sum(b["net"] for b in rec["bets"].values())
        d = rec["decisions"]
        if config == "casino_holdem":
            assert set(d) == {"call"} and d["call"] in ("call", "fold")
            assert ("call" in rec["bets"]) == (d["call"] == "call")
            assert {"ante", "aa_bonus"} <= set(rec["bets"]) <= {"ante", "call", "aa_bonus"}
        else:
            # a fold ends the decisions: the later points are not reached
            assert set(d) == ({"flop"} if d["flop"] == "fold" else {"flop", "turn", "river"})
            assert ("flop" in rec["bets"]) == (d["flop"] == "bet")
            assert ("turn" in rec["bets"]) == (d.get("turn") == "bet")
            assert ("river" in rec["bets"]) == (d.get("river") == "bet")
            assert ("jackpot" in rec["bets"]) == (config == "holdem_bonus")
            assert set(rec["bets"]) <= main["holdem_bonus"] | {"bonus", "jackpot"}
        for b in rec["bets"].values():
            assert b["stake"] > 0 and isinstance(b["net"], int) and isinstance(b["event"], str)


def test_play_same_rounds_whatever_the_range():
    a = _run("play", "holdem_bonus", "--seed", "9", "--rounds", "0:6", "--strategy", "basic",
             "--json").output.splitlines()
    b = _run("play", "holdem_bonus", "--seed", "9", "--rounds", "4:6", "--strategy", "basic",
             "--json").output.splitlines()
    assert a[4:] == b


@pytest.mark.parametrize(
    "args, field",
    [
        (["--rounds", "5:2"], "--rounds"),
        (["--rounds", "a:b"], "--rounds"),
        (["--rounds", "7"], "--rounds"),
        (["--rounds", "-1:3"], "--rounds"),
        (["--strategy", "psychic"], "--strategy"),
        (["--seed", "-4"], "--seed"),
    ],
)
def test_play_bad_values(args, field):
    base = {"--seed": "1", "--rounds": "0:2", "--strategy": "basic"}
    for k, v in zip(args[::2], args[1::2], strict=True):
        base[k] = v
    flat = [x for kv in base.items() for x in kv]
    line = _one_error_line(_run("play", "casino_holdem", *flat))
    assert field in line


def test_play_unknown_config():
    line = _one_error_line(_run("play", "roulette", "--seed", "1", "--strategy", "basic"))
    assert "roulette" in line


def test_play_default_strategy_falls_back_with_a_note(monkeypatch):
    strategy_names = registry.strategy_names("casino_holdem")
    assert "basic" in strategy_names
    entries = dict(registry._REGISTRY["casino_holdem"])
    entries.pop("optimal", None)
    monkeypatch.setitem(registry._REGISTRY, "casino_holdem", entries)
    r = _run("play", "casino_holdem", "--seed", "1", "--rounds", "0:1", "--json")
    assert r.exit_code == 0, r.output
    assert "note" in r.output and "using 'basic'" in r.output

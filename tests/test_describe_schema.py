"""The JSON Schema of a described game (gpusim/games/described/schema.json), which an editor
checks a config with: the shipped described configs validate, broken ones do not (and the loader
refuses them too), and its closed vocabularies are the loader's."""

from __future__ import annotations

import copy
import json
import tomllib
from fractions import Fraction
from pathlib import Path

import jsonschema  # the dev extra installs it
import pytest

from gpusim.config import ConfigError, parse_config  # noqa: E402
from gpusim.games.described import bets  # noqa: E402
from gpusim.games.described.description import (  # noqa: E402
    CONDITIONS,
    RANKINGS,
    _pay,
    parse_hand_spec,
)
from gpusim.rules import ConfigReader  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PATH = ROOT / "gpusim" / "games" / "described" / "schema.json"
DESCRIBED = ("three_card_poker", "mississippi_stud", "let_it_ride", "caribbean_stud",
             "double_down_stud", "ultimate_holdem", "ultimate_holdem_3x_open", "casino_holdem",
             "holdem_bonus", "three_card_poker_6card", "casino_holdem_turn")


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema):
    return jsonschema.Draft202012Validator(schema)


def _config(name: str) -> dict:
    return tomllib.loads((ROOT / "configs" / f"{name}.toml").read_text(encoding="utf-8"))


def test_schema_is_a_valid_draft_2020_12_schema(schema):
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_schema_ships_inside_the_package():
    from importlib.resources import files

    assert files("gpusim.games.described").joinpath("schema.json").is_file()


@pytest.mark.parametrize("name", DESCRIBED)
def test_shipped_described_configs_validate(validator, name):
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator.iter_errors(_config(name))]
    assert errors == []


def test_the_described_configs_are_every_shipped_config_with_a_game_table():
    found = sorted(p.stem for p in (ROOT / "configs").glob("*.toml")
                   if isinstance(_config(p.stem).get("game"), dict))
    assert found == sorted(DESCRIBED)


def _set(doc: dict, path: str, value) -> dict:
    out = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node = out
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


BROKEN = {
    "unknown top-level key": ("rules", {"x": 1}),
    "unknown key in game": ("game.dealer", 3),
    "unknown key in game.cards": ("game.cards.jokers", 2),
    "unknown key in a bet": ("game.bets.ante.odds", "2:1"),
    "unknown condition in a rule": ("game.strategies.q64.play.0.flush_draw", True),
    "bad ranking": ("game.hands.player.ranking", "omaha"),
    "bad card source": ("game.hands.player.cards", ["hole"]),
    "pay without its ':1'": ("game.bets.ante.showdown.win", "2"),
    "pay in words": ("game.bets.ante.showdown.win", "even money"),
    "pay over nothing": ("game.bets.ante.showdown.win", "3:0"),
    "bad placed": ("game.bets.play.placed", "later"),
    "bad fold": ("game.bets.pair_plus.fold", "push"),
    "bad requires": ("game.bets.pair_plus.requires", "win"),
    "bad otherwise": ("game.paytables.pair_plus.otherwise", "win"),
    "bad qualifier": ("game.showdown.qualifier", "queen high"),
    "bad game name": ("game.name", "Three Card"),
    "too many player cards": ("game.cards.player", 8),
    "one action at a point": ("game.decisions.0.actions", [{"name": "play", "bet": "play"}]),
    "fold that places a bet": ("game.decisions.0.actions.0", {"name": "fold", "fold": True,
                                                               "bet": "play"}),
    "times without bet": ("game.decisions.0.actions.0", {"name": "fold", "times": 2}),
    "side bet placed by an action": ("game.bets.pair_plus.placed", "action"),
    "pay of a config paytable as a decimal string": ("paytables.pair_plus.pair", "1.5"),
    "ratio pay of a config paytable over nothing": ("paytables.pair_plus.pair", "1:0"),
    "point named showdown": ("game.decisions.0.name", "showdown"),
    "next not a name": ("game.decisions.0.actions.1", {"name": "play", "bet": "play",
                                                        "next": "Showdown"}),
    "negative stake": ("stakes.ante", -1),
}


@pytest.mark.parametrize("case", BROKEN, ids=list(BROKEN))
def test_broken_configs_fail_the_schema_and_the_loader(validator, case):
    path, value = BROKEN[case]
    doc = _set(_config("three_card_poker"), path, value)
    assert not validator.is_valid(doc)
    with pytest.raises(ConfigError):
        parse_config(doc, source="broken.toml")


def test_a_config_without_its_game_table_or_stakes_fails(validator):
    doc = _config("three_card_poker")
    for key in ("game", "stakes"):
        assert not validator.is_valid({k: v for k, v in doc.items() if k != key})
    # a game with paytables needs their pays
    assert not validator.is_valid({k: v for k, v in doc.items() if k != "paytables"})


# --- the schema's closed vocabularies are the loader's ---------------------------------------


def _defs(schema: dict) -> dict:
    game = schema["properties"]["game"]["properties"]
    bet = game["bets"]["additionalProperties"]["properties"]
    rule = game["strategies"]["additionalProperties"]["additionalProperties"]["items"]
    return {"game": game, "bet": bet, "rule": rule}


def test_rankings_and_categories_are_the_loaders(schema):
    d = _defs(schema)
    ranking = d["game"]["hands"]["additionalProperties"]["properties"]["ranking"]["enum"]
    assert tuple(ranking) == tuple(RANKINGS)
    categories = d["game"]["lines"]["additionalProperties"]["properties"]["category"]["enum"]
    assert set(categories) == set().union(*RANKINGS.values())
    assert set(d["game"]["lines"]["propertyNames"]["not"]["enum"]) == set(categories)


def test_conditions_are_the_loaders(schema):
    rule = _defs(schema)["rule"]["properties"]
    assert set(rule) - {"action"} == set(CONDITIONS)


def test_showdown_outcomes_are_the_loaders(schema):
    showdown = _defs(schema)["bet"]["showdown"]["properties"]
    assert tuple(showdown) == bets._OUTCOMES


def test_bet_and_paytable_enums(schema):
    bet = _defs(schema)["bet"]
    assert bet["placed"]["enum"] == ["deal", "action"]
    assert bet["fold"]["enum"] == ["lose", "settle"]
    assert bet["requires"]["enum"] == ["stay", "beat_dealer"]
    assert bet["bonus_requires"]["enum"] == ["stay"]
    paytable = _defs(schema)["game"]["paytables"]["additionalProperties"]["properties"]
    assert paytable["otherwise"]["enum"] == ["lose", "push"]


def test_game_keys_are_the_loaders(schema):
    game = schema["properties"]["game"]["properties"]
    assert set(game) == {"name", "title", "cards", "hands", "lines", "showdown", "decisions",
                         "bets", "paytables", "events", "options", "strategies", "meter", "report"}
    top = schema["properties"]
    assert set(top) == {"name", "description", "default_strategy", "stakes", "paytables", "rules",
                        "game", "jackpot"}


PAYS = ["1:1", "3:2", "40:1", "0:1", "10:01", "push", "lose", "paytable", "2", "1:0", "1.5:1",
        "-1:1", "1 : 1", "Push", "", "1:1:1"]


@pytest.mark.parametrize("text", PAYS)
def test_pay_pattern_agrees_with_the_loader(validator, schema, text):
    r = ConfigReader("t.toml")
    try:
        loader_ok = _pay(r, text, "k", ("paytable",)) is not None
    except ConfigError:
        loader_ok = False
    pay = _defs(schema)["bet"]["showdown"]["properties"]["win"]
    assert jsonschema.Draft202012Validator(pay).is_valid(text) == loader_ok
    if loader_ok and text not in ("push", "lose", "paytable"):
        a, b = text.split(":")
        assert _pay(r, text, "k", ()) == 1 + Fraction(int(a), int(b))


CONFIG_PAYS = [1, 0, 1000000, 1000001, -1, 1.5, "3:2", "1:1", "0:1", " 3:2 ", "007:02", "3:0",
               "3:00", "1.5", "3:2:1", "3-2", "12345678:1", "1:12345678", "-1:2", "push", ""]


@pytest.mark.parametrize("value", CONFIG_PAYS, ids=[repr(v) for v in CONFIG_PAYS])
def test_config_pay_pattern_agrees_with_the_loader(schema, value):
    from gpusim.rules import read_ratio_paytable

    r = ConfigReader("t.toml")
    try:
        read_ratio_paytable(r, {"t": {"a": value}}, "t", ("a",))
        loader_ok = True
    except ConfigError:
        loader_ok = False
    pay = schema["properties"]["paytables"]["additionalProperties"]["additionalProperties"]
    assert jsonschema.Draft202012Validator(pay).is_valid(value) == loader_ok


HANDS = ["Q", "Q-6-4", "A-K", "10-9", "pair", "pair of 10s", "pair of Js", "pair of 4", "flush",
         "straight_flush", "three_of_a_kind of Qs", " Q ", "queen", "pair of 1s", "Q 6 4",
         "pair-of-4s", "11", ""]


@pytest.mark.parametrize("text", HANDS)
def test_hand_pattern_accepts_what_the_loader_reads(schema, text):
    r = ConfigReader("t.toml")
    try:
        parse_hand_spec(text, "poker", "k", r)
        loader_ok = True
    except ConfigError:
        loader_ok = False
    qualifier = _defs(schema)["game"]["showdown"]["properties"]["qualifier"]
    assert jsonschema.Draft202012Validator(qualifier).is_valid(text) == loader_ok


def test_a_config_that_names_a_described_game_validates_with_its_table(validator):
    doc = _config("ultimate_holdem_must_beat")
    assert doc["game"] == "ultimate_holdem"
    doc["game"] = _config("ultimate_holdem")["game"]
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator.iter_errors(doc)]
    assert not errors, errors


def test_events_options_and_unlisted_are_the_loaders(schema):
    from gpusim.games.described.description import EVENT_WORDS
    from gpusim.games.described.options import _KINDS

    game = schema["properties"]["game"]["properties"]
    assert tuple(game["events"]["properties"]) == EVENT_WORDS
    assert tuple(game["options"]["additionalProperties"]["properties"]["type"]["enum"]) == _KINDS
    paytable = game["paytables"]["additionalProperties"]["properties"]
    assert paytable["unlisted"]["enum"] == ["other", "named"]
    assert game["showdown"]["properties"]["unqualified_tie"]["enum"] == ["no_qualify", "tie"]

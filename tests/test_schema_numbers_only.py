"""The JSON Schema of a described game (gpusim/games/described/schema.json) takes the
numbers-only form of a config that the loader takes: ``game = "<a described game>"`` with its
``[stakes]``, ``[paytables.<name>]`` and ``[rules]`` (docs/describe-a-game.md, "Making a
variant"), and still refuses what the loader refuses there."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import jsonschema  # the dev extra installs it
import pytest

from gpusim.config import ConfigError, parse_config

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "gpusim" / "games" / "described" / "schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

NUMBERS_ONLY = sorted(p.stem for p in (ROOT / "configs").glob("*.toml")
                      if isinstance(tomllib.loads(p.read_text()).get("game"), str))

VARIANT = """\
game = "three_card_poker"
name = "tcp_pair_plus_35"
description = "Three Card Poker, Pair Plus 40/35/6/4/1"

[stakes]
ante = 1
pair_plus = 1

[paytables.ante_bonus]
straight_flush = 5
three_of_a_kind = 4
straight = 1

[paytables.pair_plus]
straight_flush = 40
three_of_a_kind = 35
straight = 6
flush = 4
pair = 1
"""


def _errors(doc: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in VALIDATOR.iter_errors(doc)]


def test_there_are_numbers_only_configs():
    assert {"casino_holdem_evolution", "holdem_bonus_classic",
            "ultimate_holdem_must_beat"} <= set(NUMBERS_ONLY)


@pytest.mark.parametrize("name", NUMBERS_ONLY)
def test_shipped_numbers_only_configs_validate(name):
    assert _errors(tomllib.loads((ROOT / "configs" / f"{name}.toml").read_text())) == []


def test_a_variant_validates_and_loads():
    doc = tomllib.loads(VARIANT)
    assert _errors(doc) == []
    rules = parse_config(doc, source="tcp_pair_plus_35.toml")
    assert rules.game == "three_card_poker" and rules.name == "tcp_pair_plus_35"


@pytest.mark.parametrize("path,value", [
    ("game", "Three Card Poker"),      # not a game's name
    ("game", 3),                       # neither a name nor a [game] table
    ("stakes.ante", -1),
    ("paytables.pair_plus.pair", "2"),  # a pay string must be A:B
    ("made_up_key", 1),
])
def test_a_broken_variant_fails_the_schema_and_the_loader(path, value):
    doc = copy.deepcopy(tomllib.loads(VARIANT))
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node[key]
    node[last] = value
    assert _errors(doc) != []
    with pytest.raises(ConfigError):
        parse_config(doc, source="broken.toml")


def test_a_variant_without_stakes_or_pays_fails():
    """Without [stakes] the schema refuses it; without [paytables] only the loader can (the
    schema does not know which paytables the named game has)."""
    doc = tomllib.loads(VARIANT)
    for key in ("stakes", "paytables"):
        broken = {k: v for k, v in doc.items() if k != key}
        if key == "stakes":
            assert any("'stakes' is a required property" in e for e in _errors(broken))
        with pytest.raises(ConfigError, match=key):
            parse_config(broken, source="broken.toml")


def test_the_game_table_form_keeps_its_checks():
    """The string form does not loosen the table form: an unknown key in [game] still fails."""
    doc = tomllib.loads((ROOT / "configs" / "three_card_poker.toml").read_text())
    assert _errors(doc) == []
    doc["game"]["jokers"] = 2
    assert _errors(doc) != []

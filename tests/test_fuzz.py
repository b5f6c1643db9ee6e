"""Property-based fuzzing: the config loader and the card parser return a valid object or raise
the project's own one-line error, whatever they are given."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusim.cards import CardError, parse_card, parse_cards
from gpusim.config import ConfigError, load_config, parse_config
from gpusim.games import SPECS

ROOT = Path(__file__).resolve().parent.parent
BASES = [tomllib.loads((ROOT / "configs" / f"{n}.toml").read_text())
         for n in ("casino_holdem", "holdem_bonus")]

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["pair", "4", "A", "straight", "optimal", "hole_and_flop", "casino_holdem",
                     "holdem_bonus", "royal_flush", "AKs"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6)


def _paths(doc, prefix=()):
    for k, v in doc.items():
        yield (*prefix, k)
        if isinstance(v, dict):
            yield from _paths(v, (*prefix, k))


def _mutate(doc: dict, path: tuple, op: str, value) -> dict:
    import copy

    out = copy.deepcopy(doc)
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    if op == "delete":
        del parent[path[-1]]
    elif op == "set":
        parent[path[-1]] = value
    else:  # add a sibling key
        parent[f"{path[-1]}_x" if isinstance(value, int) else str(value)[:8]] = value
    return out


def _check(doc) -> None:
    try:
        rules = parse_config(doc, source="fuzz.toml")
    except ConfigError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg and msg.startswith("fuzz.toml"), msg
        return
    assert isinstance(rules, tuple(s.rules_type for s in SPECS.values()))
    assert len(rules.config_hash) == 64
    assert rules.stakes.ante >= 1


@SETTINGS
@given(st.data())
def test_config_loader_mutations(data):
    # one to three edits of a shipped config: delete, replace or add a key anywhere
    doc = data.draw(st.sampled_from(BASES))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        op = data.draw(st.sampled_from(["delete", "set", "add"]))
        doc = _mutate(doc, path, op, data.draw(values))
    _check(doc)


@SETTINGS
@given(st.dictionaries(st.text(max_size=10), values, max_size=6))
def test_config_loader_arbitrary_documents(doc):
    _check(doc)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400))
def test_config_loader_arbitrary_files(tmp_path_factory, blob):
    p = tmp_path_factory.mktemp("fuzz") / "c.toml"
    p.write_bytes(blob)
    try:
        load_config(p)
    except ConfigError as exc:
        assert "\n" not in str(exc)


@SETTINGS
@given(st.one_of(st.text(max_size=6), st.none(), st.integers(), st.binary(max_size=4),
                 st.floats(), st.lists(st.text(max_size=3), max_size=2)))
def test_card_parser_returns_a_card_or_raises_card_error(text):
    try:
        c = parse_card(text)
    except CardError as exc:
        assert "\n" not in str(exc)
        return
    assert type(c) is int and 0 <= c < 52


@SETTINGS
@given(st.one_of(st.text(max_size=30), st.lists(st.text(max_size=4), max_size=9),
                 st.lists(st.sampled_from(["As", "Kd", "7h", "Tc", "2s", "xx", "", "AS"]),
                          max_size=9)),
       st.booleans())
def test_card_list_parser(text, distinct):
    try:
        cards = parse_cards(text, distinct=distinct)
    except CardError as exc:
        assert "\n" not in str(exc)
        return
    assert all(type(c) is int and 0 <= c < 52 for c in cards)
    if distinct:
        assert len(set(cards)) == len(cards)

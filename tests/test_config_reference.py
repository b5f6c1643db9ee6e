"""docs/config.md is the text gpusim.report.config_reference writes from the game specs, and the
specs' key descriptions (each game's ``CONFIG_KEYS``, next to its parser) are what the parser
takes: every key it accepts is described, every described key is read, and the allowed values
listed are the ones it validates with."""

from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import replace

import pytest

from gpusim.config import ConfigError, parse_config, shipped_configs
from gpusim.games import SPECS
from gpusim.games.spec import ConfigKey
from gpusim.report.config_reference import (
    COMMAND,
    DOC,
    PAY_FORMS,
    config_reference,
    doc_problems,
    main,
)

COMMON = ("game", "name", "description", "default_strategy")


@pytest.fixture(autouse=True)
def _only_the_shipped_games():
    """The registry as a fresh process finds it: the games another test module of this worker
    registered (a copy of a described game under another name) are not the shipped ones the
    document lists."""
    saved = SPECS._specs  # type: ignore[attr-defined]
    SPECS._specs = None  # type: ignore[attr-defined]
    yield
    SPECS._specs = saved  # type: ignore[attr-defined]
SHIPPED = {name: tomllib.loads(p.read_text()) for name, p in shipped_configs().items()}


def test_doc_is_current():
    problems = doc_problems(DOC.read_text() if DOC.is_file() else "")
    assert problems == [], f"docs/config.md is stale; run {COMMAND}\n" + "\n".join(problems[:20])


def test_check_catches_a_missing_and_an_extra_line():
    fresh = config_reference()
    line = next(ln for ln in fresh.splitlines() if ln.startswith("| `stakes."))
    stale = fresh.replace(line + "\n", "", 1)
    assert doc_problems(stale, fresh) == [f"missing: {line}"]
    assert doc_problems(fresh + "| `rules.made_up` |\n", fresh) == [
        "not generated: | `rules.made_up` |"]
    assert doc_problems(fresh, fresh) == []


def test_check_command_fails_on_a_stale_doc(tmp_path, monkeypatch, capsys):
    import gpusim.report.config_reference as ref

    monkeypatch.setattr(ref, "DOC", tmp_path / "config.md")
    assert main(["--check"]) == 1 and COMMAND in capsys.readouterr().err
    assert main(["--write"]) == 0 and main(["--check"]) == 0
    assert (tmp_path / "config.md").read_text() == config_reference()


def test_a_new_game_and_a_new_key_appear():
    base = next(iter(SPECS.values()))
    key = ConfigKey("rules.made_up_flag", "true or false", "a flag no game has")
    new = replace(base, name="made_up_game", title="Made-up Game",
                  config_keys=(*base.config_keys, key))
    text = config_reference({**SPECS, new.name: new}, configs={})
    assert "## Made-up Game" in text and "`game = \"made_up_game\"`" in text
    assert "| `rules.made_up_flag` | required | true or false | a flag no game has |" in text
    assert '`"made_up_game"`' in text.split("## Keys of every config")[1].split("\n## ")[0]
    assert any("made_up_flag" in p for p in doc_problems(DOC.read_text(), text))


def test_an_unknown_pay_form_is_refused():
    base = next(iter(SPECS.values()))
    odd = ConfigKey("paytables.x", "", "", lines=("a",), pays=("X to 2",))
    with pytest.raises(ValueError, match="pay forms"):
        config_reference({base.name: replace(base, config_keys=(odd,))}, configs={})


def test_doc_names_every_game_key_and_line():
    text = DOC.read_text()
    assert all(f"**{form}**" in text for form in PAY_FORMS)
    for spec in SPECS.values():
        assert f"## {spec.title}" in text and spec.config_keys, spec.name
        for k in spec.config_keys:
            assert (f"`[{k.key}]`" if k.lines else f"`{k.key}`") in text
            assert all(f"`{line}`" in text for line in k.lines)
        assert all(f"`{s}`" in text for s in spec.strategy_names)


# --- the descriptions against the parser ---------------------------------------------------------


def _game_keys(doc: dict) -> tuple[ConfigKey, ...]:
    game = doc["game"]  # a described game's config carries its [game] table
    return SPECS[game["name"] if isinstance(game, dict) else game].config_keys


def _table_at(doc: dict, where: str) -> dict | None:
    node = doc
    for part in [p for p in where.split(".") if p]:
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None


def _refusal(doc: dict) -> str:
    with pytest.raises(ConfigError) as err:
        parse_config(doc, source="t.toml")
    return str(err.value)


def _children(keys, where: str) -> set[str]:
    prefix = f"{where}." if where else ""
    return {k.key[len(prefix):].split(".")[0] for k in keys if k.key.startswith(prefix)}


@pytest.mark.parametrize("name", list(SHIPPED))
def test_every_shipped_key_is_described(name):
    doc = SHIPPED[name]
    keys = {k.key: k for k in _game_keys(doc)}

    def walk(node: dict, where: str):
        for k, v in node.items():
            path = f"{where}.{k}" if where else k
            if where == "paytables":
                assert path in keys and set(v) <= set(keys[path].lines), path
            elif path == "game" and isinstance(v, dict):  # a description: its own tests
                assert path in keys
            elif isinstance(v, dict):
                walk(v, path)
            else:
                assert path in keys or path in COMMON, path

    walk(doc, "")


@pytest.mark.parametrize("name", list(SHIPPED))
def test_every_key_the_parser_takes_is_described(name):
    """An unknown key in each table is refused with the list of the keys the parser takes:
    each of them is described (a paytable's lines: exactly its described lines)."""
    doc = SHIPPED[name]
    keys = _game_keys(doc)
    tables = {"", *(k.key.rpartition(".")[0] for k in keys if not k.lines)}
    for where in sorted(tables):
        if _table_at(doc, where) is None:
            continue
        bad = copy.deepcopy(doc)
        _table_at(bad, where)["made_up_key"] = 1
        m = re.search(r"allowed keys in (?:\[.*?\]|the top level): (.*)$", _refusal(bad))
        assert m, (where, _refusal(bad))
        taken = set(m[1].split(", "))
        assert taken <= _children(keys, where) | (set(COMMON) if not where else set()), where
    for k in (k for k in keys if k.lines and _table_at(doc, k.key) is not None):
        bad = copy.deepcopy(doc)
        _table_at(bad, k.key)["made_up_line"] = 1
        m = re.search(r"allowed lines in \[.*?\]: ([\w, ]*)", _refusal(bad))
        assert m and tuple(m[1].strip().split(", ")) == k.lines, (k.key, _refusal(bad))


@pytest.mark.parametrize("name", list(SHIPPED))
def test_every_described_key_is_read(name):
    """A described key given a value of the wrong type is refused naming that key (the parser
    reads it) rather than as unknown; an enumerated key's refusal lists the described values."""
    doc = SHIPPED[name]
    for k in _game_keys(doc):
        where, _, leaf = k.key.rpartition(".")
        if _table_at(doc, where) is None:
            continue  # e.g. a meter's table in a config without it
        bad = copy.deepcopy(doc)
        _table_at(bad, where)[leaf] = [1]
        msg = _refusal(bad)
        assert f"key '{k.key}'" in msg and "unknown key" not in msg, (k.key, msg)
        if not isinstance(k.allowed, str):
            _table_at(bad, where)[leaf] = "made_up_value"
            m = re.search(r"allowed: (.*)$", _refusal(bad))
            assert m and m[1] == ", ".join(repr(v) for v in k.allowed), (k.key, _refusal(bad))

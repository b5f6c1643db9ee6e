"""docs/config.md, the config reference, written from the game specs.

Every game's keys come from its spec's ``config_keys`` (:class:`~gpusim.games.spec.ConfigKey`,
declared next to the game's parser in its ``rules`` module with the very tuples the parser
validates with), its strategies from the spec and its shipped configs from
:func:`gpusim.config.shipped_configs`; a new game gets its section with no change here. The
keys every config has (``game``, ``name``, ...) are read by :func:`gpusim.rules.common_fields`
for every game alike and are described here.

Rewrite the file after changing a game's keys::

    python -m gpusim.report.config_reference --write

(``--check`` says whether docs/config.md is current; with neither, the text is printed).
tests/test_config_reference.py fails while the committed file differs from :func:`config_reference`.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Mapping
from pathlib import Path

from gpusim.config import load_config, shipped_configs
from gpusim.games import SPECS
from gpusim.games.spec import ConfigKey, GameSpec
from gpusim.rules import ConfigError

__all__ = ["COMMAND", "DOC", "PAY_FORMS", "config_reference", "doc_problems", "main"]

DOC = Path(__file__).resolve().parents[2] / "docs" / "config.md"
"""The reference in a source checkout."""

COMMAND = "python -m gpusim.report.config_reference --write"
"""The command that rewrites :data:`DOC`."""

PAY_FORMS: dict[str, str] = {
    "X:1": "a whole number `X`: the bet wins X times its stake and the stake is returned "
           "(`flush = 2` returns 3 for 1 staked).",
    "X for 1": "a whole number `X`: the prize replaces the stake, which is not returned on top "
               "(`flush = 25` returns 25 for 1 staked, a net win of 24).",
    "A:B": "a string `\"A:B\"`: A for every B staked, the stake returned on top, as X:1 with X = "
           "A/B (`flush = \"3:2\"` returns 5 for 2 staked). Money is whole units, so the config "
           "is refused unless the stake makes every such pay a whole number (3:2: an even stake).",
}
"""What a paytable line's number means, by the forms a :class:`ConfigKey`'s ``pays`` names."""


def _code(text: str) -> str:
    return f"`{text}`"


def _allowed(key: ConfigKey) -> str:
    if isinstance(key.allowed, str):
        return key.allowed
    return ", ".join(_code(f'"{v}"') for v in key.allowed)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return out + ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]


def _common_rows(specs: Mapping[str, GameSpec]) -> list[tuple[str, ...]]:
    """The keys :func:`gpusim.rules.common_fields` and :func:`gpusim.config.parse_config` read
    for every game."""
    games = ", ".join(_code(f'"{name}"') for name in specs)
    return [
        ("`game`", "required", games, "the game the config describes; its section below lists "
                                      "the other keys"),
        ("`name`", "optional", "a string", "the config's name in reports and run folders; "
                                          "default: the file's name without `.toml`"),
        ("`description`", "optional", "a string", "a one-line description (`gpusim games`)"),
        ("`default_strategy`", "optional", "a strategy of the game (its section lists them)",
         "the strategy `simulate` plays when none is given; default `\"optimal\"`"),
    ]


def _shipped_by_game(configs: Mapping[str, Path]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, path in configs.items():
        try:
            out.setdefault(load_config(path).game, []).append(name)
        except ConfigError:  # a broken shipped config is its own test's failure, not the doc's
            continue
    return out


def _game_section(spec: GameSpec, shipped: list[str]) -> list[str]:
    plain = [k for k in spec.config_keys if not k.lines]
    tables = [k for k in spec.config_keys if k.lines]
    unknown = sorted({p for k in tables for p in k.pays} - set(PAY_FORMS))
    if unknown:
        raise ValueError(f"{spec.name}: config_keys name pay forms {unknown}; "
                         f"known: {', '.join(PAY_FORMS)}")
    out = [f"## {spec.title}", "",
           f"`game = \"{spec.name}\"`. Shipped configs: "
           + (", ".join(_code(n) for n in shipped) or "none") + ".", "",
           "Bets: " + ", ".join(_code(b) + (" (side bet)" if b in spec.side_bets else "")
                               for b in spec.bets) + ".", ""]
    if not spec.config_keys:
        return out + ["This game describes no keys (its spec's `config_keys` is empty).", ""]
    out += _table(("key", "required", "allowed values", "meaning"),
                  [(_code(k.key), k.required, _allowed(k), k.meaning) for k in plain])
    out += ["", "### Paytables", "",
            "A paytable must list every one of its lines, except those marked optional, and "
            "no other; hands below its last line lose or push, as its meaning says.", ""]
    rows = []
    for k in tables:
        lines = [_code(n) + (" (optional)" if n in k.optional_lines else "") for n in k.lines]
        rows.append((_code(f"[{k.key}]"), k.required, " or ".join(k.pays), k.meaning,
                     ", ".join(lines)))
    out += _table(("table", "required", "pays", "meaning", "lines, best hand first"), rows)
    out += ["", "### Strategies", "", "The values of `default_strategy`:", ""]
    out += [f"- `{s.name}`: {_cell(s.description)}" for s in spec.strategies]
    return out + [""]


def config_reference(specs: Mapping[str, GameSpec] | None = None,
                     configs: Mapping[str, Path] | None = None) -> str:
    """The text of docs/config.md for ``specs`` (default: every registered game) and the
    shipped ``configs`` (default: :func:`gpusim.config.shipped_configs`)."""
    specs = SPECS if specs is None else specs
    shipped = _shipped_by_game(shipped_configs() if configs is None else configs)
    out = [
        "# Config reference", "",
        f"<!-- Written by `{COMMAND}` from the game specs; do not edit by hand. -->", "",
        "A config is a TOML file: one of the shipped configs (`configs/`, named without "
        "`.toml`) or a path. Keys not listed here are refused, in one line naming the file, "
        "the key and what is allowed. Stakes and pays are whole numbers of money units; "
        "`gpusim.config` loads a config; a game's `[game]` description (its own, or the one "
        "a config names with `game = NAME`) says which of the keys below it takes.", "",
        "## Pays", "",
        "A paytable line's value is one of these forms; each paytable below says which it "
        "takes:", "",
    ]
    out += [f"- **{form}**: {text}" for form, text in PAY_FORMS.items()]
    out += ["", "## Keys of every config", ""]
    out += _table(("key", "required", "allowed values", "meaning"), _common_rows(specs))
    out += [""]
    for spec in specs.values():
        out += _game_section(spec, shipped.get(spec.name, []))
    return "\n".join(out).rstrip("\n") + "\n"


def doc_problems(committed: str, fresh: str | None = None) -> list[str]:
    """How ``committed`` differs from the generated text, one entry per line missing (``-``)
    or not generated (``+``); empty when it is current."""
    fresh = config_reference() if fresh is None else fresh
    diff = difflib.unified_diff(fresh.splitlines(), committed.splitlines(), lineterm="", n=0)
    return [f"{'missing' if d[0] == '-' else 'not generated'}: {d[1:]}" for d in diff
            if d[:1] in "+-" and not d.startswith(("---", "+++"))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gpusim.report.config_reference",
                                 description="The config reference, docs/config.md.")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help=f"rewrite {DOC.name}")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if {DOC.name} is stale")
    args = ap.parse_args(argv)
    text = config_reference()
    if args.write:
        DOC.write_text(text)
        print(f"wrote {DOC}")
    elif args.check:
        problems = doc_problems(DOC.read_text() if DOC.is_file() else "", text)
        for p in problems:
            print(p)
        if problems:
            print(f"{DOC.name} is stale; run {COMMAND}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

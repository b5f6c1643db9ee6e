"""Game rules as data: TOML configs loaded and validated into frozen dataclasses.

A config names its game, its stakes, every paytable line and every variant flag; nothing is
defaulted silently except what is documented below. :func:`load_config` accepts the name of a
shipped config (``"casino_holdem"``, a file in ``configs/``) or a path to a TOML file and
returns the game's rules (the frozen ``rules_type`` of its :class:`~gpusim.games.GameSpec`,
which parses its part of the document with ``parse_rules``).

Pays are whole numbers: ``X`` in a paytable means "pays X:1" (the bet is returned plus X times
the bet), except the Jackpot's fixed prizes, which are "X for 1": the prize replaces the stake
(the Icelandic rules: "the original bet is not paid out as part of the win"). A game whose paytable
has a fractional pay (a Blind's 3:2 flush) takes it as a string ``"A:B"`` (A for every B
staked) and refuses a stake that would pay a fraction of a money unit: money is integral
everywhere, so such a game's base unit is a multiple of B.

Schema (keys not listed are errors; every game is described, docs/config.md lists each
game's keys and docs/describe-a-game.md the ``[game]`` table)::

    game = "casino_holdem"     # the game another config describes; or a [game] table here
    name = "..."               # optional, default: the file's stem
    description = "..."        # optional one-liner for `gpusim games`
    default_strategy = "optimal"  # optional, default "optimal"

    [stakes]                   # integer money units: the base bet (required, >= 1) and each
    ante = 1                   # side bet (0 or absent: not offered); the main bets placed by
    aa_bonus = 1               # a decision are multiples of the base bet (the game's actions)

    [rules]                    # the options the game's [game.options] declares
    fold_forfeits_bonus = true

    [paytables.<bet>]          # every line of every paytable the game declares
    [jackpot]                  # a game with a meter ([game.meter]) whose bet is offered:
    contribution_bp = 5000     # basis points of each wager added to the meter
    reset = 0                  # meter value after it is won (money units)

``config_hash`` is the sha256 of the canonical JSON of :meth:`to_dict` without ``name``,
``description``, ``source`` and ``default_strategy``: two configs with the same game rules,
paytables and stakes share it (exact-analysis tables are keyed by it).
"""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path
from typing import Any

from gpusim.games import SPECS, spec_for
from gpusim.games.game_registry import register_description
from gpusim.rules import (
    MAX_PAY,
    ConfigError,
    ConfigReader,
    HashedRules,
    JackpotRules,
    Paytable,
    Qualifier,
    Stakes,
    one_line,
)

__all__ = [
    "MAX_PAY",
    "ConfigError",
    "JackpotRules",
    "Paytable",
    "Qualifier",
    "Rules",
    "Stakes",
    "config_dirs",
    "editable_doc",
    "load_config",
    "parse_config",
    "parse_pay_settings",
    "shipped_configs",
    "with_pays",
]


Rules = HashedRules
"""A game's rules: the frozen ``rules_type`` of its spec (``spec_for(rules).rules_type``)."""


# --- finding configs ------------------------------------------------------------------------------


def config_dirs(*, plugins: bool = True) -> list[Path]:
    """Folders searched for shipped configs: ``gpusim/configs`` (an installed wheel), the
    source checkout's top-level ``configs/``, then (with ``plugins``) each plugin game's own
    (its spec's ``config_dir``)."""
    here = Path(__file__).resolve().parent
    dirs = [here / "configs", here.parent / "configs"]
    if plugins:
        dirs += [s.config_dir for s in SPECS.values() if s.config_dir is not None]
    return [d for d in dirs if d.is_dir()]


def shipped_configs(*, plugins: bool = True) -> dict[str, Path]:
    """Shipped config name -> path, sorted by name (without ``plugins``: the package's own
    configs only, which need no game built)."""
    found: dict[str, Path] = {}
    for d in config_dirs(plugins=plugins):
        for p in sorted(d.glob("*.toml")):
            found.setdefault(p.stem, p)
    return dict(sorted(found.items()))


def load_config(path_or_name: str | Path | Rules) -> Rules:
    """Load and validate a config: a shipped name (``"casino_holdem"``) or a TOML path.

    A game's rules object passes through unchanged.
    Raises :class:`ConfigError` (one line) for anything not allowed.
    """
    if isinstance(path_or_name, HashedRules):  # every game's rules type derives from it
        return path_or_name
    text = str(path_or_name)
    # the package's own configs first: they shadow a plugin's of the same name, and finding
    # them builds no game
    shipped = shipped_configs(plugins=False)
    if text not in shipped:
        shipped = shipped_configs()
    path = Path(text)
    if not path.is_file():
        if text in shipped:
            path = shipped[text]
        elif text.endswith(".toml") or "/" in text or "\\" in text:
            raise ConfigError(f"{text}: no such config file")
        else:
            raise ConfigError(
                f"config {text!r}: not a file and not a shipped config; "
                f"shipped configs: {', '.join(shipped) or '(none)'}"
            )
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {one_line(str(exc))}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the file: {one_line(str(exc))}") from None
    return parse_config(raw, source=str(path), default_name=path.stem)


def parse_config(doc: dict, *, source: str = "<config>", default_name: str = "config") -> Rules:
    """Validate an already-parsed TOML document (see :func:`load_config`)."""
    r = ConfigReader(source)
    if isinstance(doc.get("game"), dict):  # the config describes its game
        spec = register_description(r, doc["game"])
    else:
        game = doc.get("game")
        # a game's name is checked against the list only when it is not one (listing every
        # game reads the plugins' entry points)
        spec = spec_for(game if isinstance(game, str) and game in SPECS else
                        r.string(doc, "", "game", allowed=tuple(SPECS)))
    rules = spec.parse_rules(r, doc, default_name)
    known = spec.strategy_names
    if rules.default_strategy not in known:
        raise r.fail(
            "default_strategy",
            f"value {rules.default_strategy!r} is not allowed"
            f"{spec.why_missing(rules.default_strategy)}; strategies for {spec.name}: "
            + ", ".join(sorted(known)),
        )
    return rules


# --- changing pays: `gpusim exact --set` and `gpusim whatif --set` -------------------------------

_RATIO = re.compile(r"\d+:\d+")


def editable_doc(resolved: dict) -> dict:
    """A copy of a resolved config (``rules.to_dict()``, a run manifest's ``config``), ready for
    :func:`parse_config`.

    The stake multiples are fixed by the game, not configurable, so the resolved config records
    them for readers but parse_config refuses them.
    """
    doc = copy.deepcopy(resolved)
    doc.pop("source", None)
    if "rules" in doc:  # a game may have no [rules] table
        doc["rules"] = {k: v for k, v in doc["rules"].items() if not k.endswith("_multiple")}
    return doc


def paytable_lines(rules: Any) -> dict[str, tuple[str, ...]]:
    """{bet: line names} of the offered bets' paytables, the lines ``--set`` may change."""
    from gpusim.games import bets as offered

    b = offered(rules)
    return {bet: lines for bet, lines in spec_for(rules).paytables.items() if bet in b}


def _pay(key: str, text: str, field: str) -> int | str:
    """A pay as written on the command line: a whole number (X:1), or ``"A:B"`` as written in a
    config for a game whose paytable takes ratios (the game's config parser refuses it
    otherwise)."""
    if _RATIO.fullmatch(text):
        return text
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise ConfigError(f"{field} {key}: got pay {text!r}; pays are whole numbers "
                          "(X means X:1; Jackpot prizes X for 1), or A:B where the "
                          "paytable takes ratios") from None


def parse_line(rules: Any, text: str, field: str = "--set") -> tuple[str, str]:
    """(bet, line) of ``"bet.line"``, one of :func:`paytable_lines`; ConfigError otherwise."""
    bet, _, line = text.partition(".")
    lines = paytable_lines(rules)
    if bet not in lines or line not in lines[bet]:
        allowed = ", ".join(f"{b}.{ln}" for b, ls in lines.items() for ln in ls)
        raise ConfigError(f"{field}: unknown paytable line {text!r}; allowed: {allowed}")
    return bet, line


def parse_pay_settings(rules: Any, settings: list[str],
                       field: str = "--set") -> dict[tuple[str, str], int | str]:
    """{(bet, line): pay} of ``["bonus.AKs=30", ...]``; ConfigError (one line) on a bad one."""
    if not settings:
        first = next(f"{b}.{ls[0]}" for b, ls in paytable_lines(rules).items())
        raise ConfigError(f"{field}: give at least one BET.LINE=PAY, e.g. {field} {first}=30")
    changes: dict[tuple[str, str], int | str] = {}
    for s in settings:
        key, eq, val = s.partition("=")
        if not eq:
            raise ConfigError(f"{field}: got {s!r}; expected BET.LINE=PAY, e.g. bonus.AKs=30")
        bet, line = parse_line(rules, key.strip(), field)
        changes[(bet, line)] = _pay(key.strip(), val.strip(), field)
    return changes


def with_pays(rules: Any, changes: dict[tuple[str, str], int | str], *,
              field: str = "--set") -> Rules:
    """The rules with some paytable lines changed, validated as a config file with those pays
    would be (same name; a new config hash). ConfigError (one line) if the game refuses one."""
    doc = editable_doc(rules.to_dict())
    tables = spec_for(rules).paytable_tables
    for (bet, line), pay in changes.items():
        # a bet's paytable is the config's [paytables.<table>] table (the bet's name, or the
        # one a described game names)
        doc.setdefault("paytables", {}).setdefault(tables.get(bet, bet), {})[line] = pay
    try:
        return parse_config(doc, source=field, default_name=rules.name)
    except ConfigError as exc:
        raise ConfigError(str(exc).replace(f"{field}: ", f"{field} ")) from None

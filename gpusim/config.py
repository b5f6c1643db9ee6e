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

Schema (keys not listed are errors)::

    game = "casino_holdem" | "holdem_bonus"      # required
    name = "..."                                  # optional, default: the file's stem
    description = "..."                           # optional one-liner for `gpusim games`
    default_strategy = "optimal"                  # optional, default "optimal"

    [stakes]               # integer money units; the ante is required (>= 1)
    ante = 1               # Call, Flop, Turn and River are derived (2x, 2x, 1x, 1x ante)
    aa_bonus = 1           # casino_holdem side bet; 0 or absent: not offered
    bonus = 1              # holdem_bonus side bets; 0 or absent: not offered
    jackpot = 1

    # casino_holdem
    [rules]
    fold_forfeits_bonus = true
    [rules.dealer_qualifier]   # the dealer qualifies with this hand or better
    hand = "pair"              # a category name (see gpusim.cards.CATEGORY_KEYS)
    rank = "4"                 # the lowest rank that names it: pair of fours
    [paytables.ante]           # ANTE_LINES, all required
    [paytables.aa_bonus]       # AA_BONUS_LINES, all required when the side bet is offered

    # holdem_bonus
    [rules]
    ante_pays_from = "straight"   # the Ante pays 1:1 on a win with this category or better
    [paytables.bonus]             # BONUS_LINES, all required; AA_vs_dealer_AA is optional:
                                  # absent means there is no such line (AA always pays AA)
    [jackpot]                     # required when the Jackpot is offered
    contribution_bp = 5000        # basis points of each Jackpot wager added to the meter
    reset = 0                     # meter value after a royal (money units)
    cards = "hole_and_flop"       # or "all_seven": which cards make the Jackpot hand
    [paytables.jackpot]           # JACKPOT_LINES ("X for 1"); the royal flush wins the meter

``config_hash`` is the sha256 of the canonical JSON of :meth:`to_dict` without ``name``,
``description``, ``source`` and ``default_strategy``: two configs with the same game rules,
paytables and stakes share it (exact-analysis tables are keyed by it).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

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
    "GAMES",
    "MAX_PAY",
    "ConfigError",
    "JackpotRules",
    "Paytable",
    "Qualifier",
    "Rules",
    "Stakes",
    "config_dirs",
    "load_config",
    "parse_config",
    "shipped_configs",
]

GAMES = tuple(SPECS)
"""The games a config may name (``game = ...``)."""

Rules = HashedRules
"""A game's rules: the frozen ``rules_type`` of its spec (``spec_for(rules).rules_type``)."""


# --- finding configs ------------------------------------------------------------------------------


def config_dirs() -> list[Path]:
    """Folders searched for shipped configs: ``gpusim/configs`` (an installed wheel), the
    source checkout's top-level ``configs/``, then each plugin game's own (its spec's
    ``config_dir``)."""
    here = Path(__file__).resolve().parent
    dirs = [here / "configs", here.parent / "configs"]
    dirs += [s.config_dir for s in SPECS.values() if s.config_dir is not None]
    return [d for d in dirs if d.is_dir()]


def shipped_configs() -> dict[str, Path]:
    """Shipped config name -> path, sorted by name."""
    found: dict[str, Path] = {}
    for d in config_dirs():
        for p in sorted(d.glob("*.toml")):
            found.setdefault(p.stem, p)
    return dict(sorted(found.items()))


def load_config(path_or_name: str | Path | Rules) -> Rules:
    """Load and validate a config: a shipped name (``"casino_holdem"``) or a TOML path.

    A game's rules object passes through unchanged.
    Raises :class:`ConfigError` (one line) for anything not allowed.
    """
    if isinstance(path_or_name, tuple(s.rules_type for s in SPECS.values())):
        return path_or_name
    text = str(path_or_name)
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
        spec = spec_for(r.string(doc, "", "game", allowed=tuple(SPECS)))
    rules = spec.parse_rules(r, doc, default_name)
    known = spec.strategy_names
    if rules.default_strategy not in known:
        raise r.fail(
            "default_strategy",
            f"value {rules.default_strategy!r} is not allowed; strategies for {spec.name}: "
            + ", ".join(sorted(known)),
        )
    return rules

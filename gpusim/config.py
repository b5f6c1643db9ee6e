"""Game rules as data: TOML configs loaded and validated into frozen dataclasses.

A config names its game, its stakes, every paytable line and every variant flag; nothing is
defaulted silently except what is documented below. :func:`load_config` accepts the name of a
shipped config (``"casino_holdem"``, a file in ``configs/``) or a path to a TOML file and
returns a :class:`CasinoHoldemRules` or :class:`HoldemBonusRules`.

Pays are whole numbers: ``X`` in a paytable means "pays X:1" (the bet is returned plus X times
the bet), except the Jackpot's fixed prizes, which are "X for 1": the prize replaces the stake
(seed 001: "the original bet is not paid out as part of the win"). A fractional pay cannot be
written (money is integral everywhere); use a larger stake unit instead.

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
    hand = "pair"              # a category name (see CATEGORY_KEYS)
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

import hashlib
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpusim.cards import RANKS

__all__ = [
    "AA_BONUS_LINES",
    "ANTE_LINES",
    "BONUS_LINES",
    "CATEGORY_KEYS",
    "GAMES",
    "JACKPOT_CARDS",
    "JACKPOT_LINES",
    "CasinoHoldemRules",
    "ConfigError",
    "HoldemBonusRules",
    "JackpotRules",
    "Paytable",
    "Qualifier",
    "Rules",
    "Stakes",
    "config_dirs",
    "load_config",
    "shipped_configs",
]

GAMES = ("casino_holdem", "holdem_bonus")

CATEGORY_KEYS = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
"""Hand categories low to high; index i matches ``gpusim.evaluate.CATEGORY_NAMES`` for i < 9,
and 9 is the royal flush (an ace-high straight flush), which several paytables single out."""

ANTE_LINES = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight_or_less",
)
"""Casino Hold'em Ante paytable lines (player's final seven-card hand)."""

AA_BONUS_LINES = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair_of_aces",
)
"""Casino Hold'em AA Bonus lines (hole cards plus flop); anything less loses."""

BONUS_LINES = (
    "AA_vs_dealer_AA",
    "AA",
    "AKs",
    "AQs_AJs",
    "AKo",
    "KK_QQ_JJ",
    "AQo_AJo",
    "TT_to_22",
)
"""Texas Hold'em Bonus side-bet lines (hole cards; the first also needs the dealer's AA).
Only ``AA_vs_dealer_AA`` may be absent; other starting hands lose."""

BONUS_LINE_CLASSES: dict[str, tuple[str, ...]] = {
    "AA": ("AA",),
    "AKs": ("AKs",),
    "AQs_AJs": ("AQs", "AJs"),
    "AKo": ("AKo",),
    "KK_QQ_JJ": ("KK", "QQ", "JJ"),
    "AQo_AJo": ("AQo", "AJo"),
    "TT_to_22": ("TT", "99", "88", "77", "66", "55", "44", "33", "22"),
}
"""Starting-hand classes each Bonus line pays (``AA_vs_dealer_AA`` is AA plus a dealer AA)."""

JACKPOT_LINES = (
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
)
"""Jackpot fixed prizes ("X for 1"); the royal flush wins the meter; lower hands lose."""

JACKPOT_CARDS = ("hole_and_flop", "all_seven")
ANTE_PAYS_FROM = CATEGORY_KEYS[1:]
_QUALIFIER_HANDS = CATEGORY_KEYS[:9]
_STRATEGY_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_INT32_MAX = 2**31 - 1
MAX_PAY = 1_000_000
"""Largest pay accepted; stakes x returns must also fit the int32 settlement arithmetic."""


class ConfigError(ValueError):
    """A config that cannot be used; the message is one line naming file, key, value and rule."""

    def __init__(self, message: str):
        # keys and values come from the file: a newline or control character in them must not
        # break the one-line message
        super().__init__("".join(c if c.isprintable() else c.encode("unicode_escape").decode()
                                 for c in str(message)))


# --- frozen rule objects -------------------------------------------------------------------------


@dataclass(frozen=True)
class Paytable:
    """Ordered paytable lines ``(line, X)``; X is an integer pay (see the module docstring)."""

    lines: tuple[tuple[str, int], ...]

    def __getitem__(self, line: str) -> int:
        for key, pay in self.lines:
            if key == line:
                return pay
        raise KeyError(line)

    def __contains__(self, line: object) -> bool:
        return any(key == line for key, _ in self.lines)

    def get(self, line: str, default: int | None = None) -> int | None:
        return self[line] if line in self else default

    def as_dict(self) -> dict[str, int]:
        return dict(self.lines)


@dataclass(frozen=True)
class Stakes:
    """Stake of each bet placed before the deal (integer money units); absent bets are 0."""

    amounts: tuple[tuple[str, int], ...]

    def __getitem__(self, bet: str) -> int:
        return dict(self.amounts).get(bet, 0)

    @property
    def ante(self) -> int:
        return self["ante"]

    def as_dict(self) -> dict[str, int]:
        return dict(self.amounts)


@dataclass(frozen=True)
class Qualifier:
    """The dealer's lowest qualifying hand: category ``hand`` named by rank ``rank`` or higher
    (``Qualifier("pair", 2)`` is a pair of fours; ranks count 0 = deuce .. 12 = ace)."""

    hand: str
    rank: int

    def describe(self) -> str:
        return f"{self.hand} of {RANKS[self.rank]}s or better"


@dataclass(frozen=True)
class JackpotRules:
    """Progressive Jackpot side bet: fixed prizes ("X for 1"), the meter for a royal flush.

    ``contribution_bp``: basis points (1/10000) of each Jackpot wager added to the meter.
    ``reset``: meter value after a royal (money units). ``cards``: ``"hole_and_flop"`` (the
    player's first five cards, settled even after a fold) or ``"all_seven"``.
    """

    prizes: Paytable
    contribution_bp: int
    reset: int
    cards: str


@dataclass(frozen=True)
class CasinoHoldemRules:
    """Casino Hold'em (seeds 002 and 004). Call = ``CALL_MULTIPLE`` x ante."""

    name: str
    stakes: Stakes
    ante_paytable: Paytable
    aa_bonus_paytable: Paytable | None
    fold_forfeits_bonus: bool
    dealer_qualifier: Qualifier
    default_strategy: str = "optimal"
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)
    game: str = "casino_holdem"

    CALL_MULTIPLE = 2

    @property
    def config_hash(self) -> str:
        return _hash(self)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of the resolved rules (for run manifests)."""
        out: dict[str, Any] = {
            "game": self.game,
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "default_strategy": self.default_strategy,
            "stakes": self.stakes.as_dict(),
            "rules": {
                "fold_forfeits_bonus": self.fold_forfeits_bonus,
                "call_multiple": self.CALL_MULTIPLE,
                "dealer_qualifier": {
                    "hand": self.dealer_qualifier.hand,
                    "rank": RANKS[self.dealer_qualifier.rank],
                },
            },
            "paytables": {"ante": self.ante_paytable.as_dict()},
        }
        if self.aa_bonus_paytable is not None:
            out["paytables"]["aa_bonus"] = self.aa_bonus_paytable.as_dict()
        return out


@dataclass(frozen=True)
class HoldemBonusRules:
    """Texas Hold'em Bonus Poker (seeds 000 and 001). Flop/Turn/River = 2/1/1 x ante."""

    name: str
    stakes: Stakes
    ante_pays_from: str
    bonus_paytable: Paytable | None
    jackpot: JackpotRules | None
    default_strategy: str = "optimal"
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)
    game: str = "holdem_bonus"

    FLOP_MULTIPLE = 2
    TURN_MULTIPLE = 1
    RIVER_MULTIPLE = 1

    @property
    def config_hash(self) -> str:
        return _hash(self)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of the resolved rules (for run manifests)."""
        out: dict[str, Any] = {
            "game": self.game,
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "default_strategy": self.default_strategy,
            "stakes": self.stakes.as_dict(),
            "rules": {
                "ante_pays_from": self.ante_pays_from,
                "flop_multiple": self.FLOP_MULTIPLE,
                "turn_multiple": self.TURN_MULTIPLE,
                "river_multiple": self.RIVER_MULTIPLE,
            },
            "paytables": {},
        }
        if self.bonus_paytable is not None:
            out["paytables"]["bonus"] = self.bonus_paytable.as_dict()
        if self.jackpot is not None:
            out["paytables"]["jackpot"] = self.jackpot.prizes.as_dict()
            out["jackpot"] = {
                "contribution_bp": self.jackpot.contribution_bp,
                "reset": self.jackpot.reset,
                "cards": self.jackpot.cards,
            }
        return out


Rules = CasinoHoldemRules | HoldemBonusRules


def _hash(rules: Rules) -> str:
    d = rules.to_dict()
    for key in ("name", "description", "source", "default_strategy"):
        d.pop(key, None)
    blob = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


# --- finding configs ------------------------------------------------------------------------------


def config_dirs() -> list[Path]:
    """Folders searched for shipped configs: ``gpusim/configs`` (an installed wheel) and the
    source checkout's top-level ``configs/``."""
    here = Path(__file__).resolve().parent
    return [d for d in (here / "configs", here.parent / "configs") if d.is_dir()]


def shipped_configs() -> dict[str, Path]:
    """Shipped config name -> path, sorted by name."""
    found: dict[str, Path] = {}
    for d in config_dirs():
        for p in sorted(d.glob("*.toml")):
            found.setdefault(p.stem, p)
    return dict(sorted(found.items()))


def load_config(path_or_name: str | Path | Rules) -> Rules:
    """Load and validate a config: a shipped name (``"casino_holdem"``) or a TOML path.

    A :class:`CasinoHoldemRules` / :class:`HoldemBonusRules` passes through unchanged.
    Raises :class:`ConfigError` (one line) for anything not allowed.
    """
    if isinstance(path_or_name, CasinoHoldemRules | HoldemBonusRules):
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
        raise ConfigError(f"{path}: not valid TOML: {_one_line(str(exc))}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the file: {_one_line(str(exc))}") from None
    return parse_config(raw, source=str(path), default_name=path.stem)


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- validation -----------------------------------------------------------------------------------


class _Reader:
    """Typed access to a parsed TOML document with one-line errors naming file and key."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.source}: key '{key}': {problem}")

    def keys(self, table: dict, where: str, allowed: tuple[str, ...]) -> None:
        for k in table:
            if k not in allowed:
                key = f"{where}.{k}" if where else k
                scope = f"[{where}]" if where else "the top level"
                raise self.fail(key, f"unknown key; allowed keys in {scope}: {', '.join(allowed)}")

    def table(self, parent: dict, where: str, name: str, *, required: bool) -> dict | None:
        key = f"{where}.{name}" if where else name
        if name not in parent:
            if required:
                raise self.fail(key, f"missing; the config must have a [{key}] table")
            return None
        value = parent[name]
        if not isinstance(value, dict):
            raise self.fail(key, f"value {_show(value)} is not allowed; expected a [{key}] table")
        return value

    def string(self, parent: dict, where: str, name: str, allowed=None, default=None) -> str:
        key = f"{where}.{name}" if where else name
        if name not in parent:
            if default is None:
                raise self.fail(key, "missing; " + _allowed_text(allowed, "a string"))
            return default
        value = parent[name]
        if not isinstance(value, str) or (allowed is not None and value not in allowed):
            raise self.fail(
                key, f"value {_show(value)} is not allowed; " + _allowed_text(allowed, "a string")
            )
        return value

    def boolean(self, parent: dict, where: str, name: str) -> bool:
        key = f"{where}.{name}"
        if name not in parent:
            raise self.fail(key, "missing; allowed: true or false")
        value = parent[name]
        if not isinstance(value, bool):
            raise self.fail(key, f"value {_show(value)} is not allowed; allowed: true or false")
        return value

    def integer(self, parent: dict, where: str, name: str, lo: int, hi: int, what: str) -> int:
        key = f"{where}.{name}"
        value = parent[name]
        if type(value) is not int or not lo <= value <= hi:
            raise self.fail(key, f"value {_show(value)} is not allowed; {what}")
        return value


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, str):
        return f"{value!r} (a string)"
    if isinstance(value, dict):
        return "(a table)"
    if isinstance(value, list):
        return "(an array)"
    return repr(value)


def _allowed_text(allowed, kind: str) -> str:
    if allowed is None:
        return f"expected {kind}"
    return "allowed: " + ", ".join(repr(a) for a in allowed)


def _paytable(
    r: _Reader,
    parent: dict,
    name: str,
    lines: tuple[str, ...],
    *,
    optional: tuple[str, ...] = (),
    pay_text: str = "a whole number X >= 0 meaning X:1",
    note: str = "",
) -> Paytable:
    where = f"paytables.{name}"
    table = r.table(parent, "paytables", name, required=True)
    for k in table:
        if k not in lines:
            raise r.fail(
                f"{where}.{k}",
                f"unknown hand name {k!r}; allowed lines in [{where}]: {', '.join(lines)}{note}",
            )
    out = []
    for line in lines:
        if line not in table:
            if line in optional:
                continue
            raise r.fail(
                f"{where}.{line}",
                f"missing paytable line; [{where}] must list every line: {', '.join(lines)}"
                + (f" ({', '.join(optional)} optional)" if optional else ""),
            )
        pay = r.integer(
            table, where, line, 0, MAX_PAY, f"a pay must be {pay_text}, at most {MAX_PAY}"
        )
        out.append((line, pay))
    return Paytable(tuple(out))


def _stakes(r: _Reader, doc: dict, side_bets: tuple[str, ...]) -> Stakes:
    table = r.table(doc, "", "stakes", required=True)
    allowed = ("ante", *side_bets)
    r.keys(table, "stakes", allowed)
    what = "a stake must be a whole number of money units >= 0"
    amounts = {}
    for bet in allowed:
        if bet in table:
            amounts[bet] = r.integer(table, "stakes", bet, 0, _INT32_MAX, what)
    if "ante" not in amounts:
        raise r.fail("stakes.ante", "missing; the ante stake is required (a whole number >= 1)")
    if amounts["ante"] == 0:
        for bet in side_bets:
            if amounts.get(bet, 0) > 0:
                raise r.fail(
                    f"stakes.{bet}",
                    f"value {amounts[bet]} is not allowed with stakes.ante = 0: "
                    "a side bet needs an ante (set stakes.ante >= 1)",
                )
        raise r.fail("stakes.ante", "value 0 is not allowed; the ante must be >= 1")
    return Stakes(tuple((bet, amounts.get(bet, 0)) for bet in allowed))


def _check_int32(r: _Reader, key: str, stake: int, max_return: int) -> None:
    if stake * max_return > _INT32_MAX:
        raise r.fail(
            key,
            f"value {stake} is not allowed: stake x largest return ({max_return}) exceeds "
            f"{_INT32_MAX} (int32 settlement); use smaller stakes or pays",
        )


def _common(r: _Reader, doc: dict, default_name: str) -> dict[str, str]:
    name = r.string(doc, "", "name", default=default_name)
    description = r.string(doc, "", "description", default="")
    strategy = r.string(doc, "", "default_strategy", default="optimal")
    if not _STRATEGY_NAME.match(strategy):
        raise r.fail(
            "default_strategy",
            f"value {strategy!r} is not allowed; expected a strategy name such as 'optimal' "
            "or 'basic' (lowercase letters, digits, '-' and '_')",
        )
    return {"name": name, "description": description, "default_strategy": strategy}


def parse_config(doc: dict, *, source: str = "<config>", default_name: str = "config") -> Rules:
    """Validate an already-parsed TOML document (see :func:`load_config`)."""
    r = _Reader(source)
    game = r.string(doc, "", "game", allowed=GAMES)
    if game == "casino_holdem":
        rules: Rules = _casino_holdem(r, doc, default_name)
    else:
        rules = _holdem_bonus(r, doc, default_name)
    _check_strategy(r, rules)
    return rules


def _check_strategy(r: _Reader, rules: Rules) -> None:
    from gpusim.strategy import known_strategy_names

    known = known_strategy_names(rules.game)
    if rules.default_strategy not in known:
        raise r.fail(
            "default_strategy",
            f"value {rules.default_strategy!r} is not allowed; strategies for {rules.game}: "
            + ", ".join(known),
        )


def _casino_holdem(r: _Reader, doc: dict, default_name: str) -> CasinoHoldemRules:
    r.keys(
        doc, "", ("game", "name", "description", "default_strategy", "stakes", "rules", "paytables")
    )
    common = _common(r, doc, default_name)
    stakes = _stakes(r, doc, ("aa_bonus",))
    rules_t = r.table(doc, "", "rules", required=True)
    r.keys(rules_t, "rules", ("fold_forfeits_bonus", "dealer_qualifier"))
    forfeits = r.boolean(rules_t, "rules", "fold_forfeits_bonus")
    q = r.table(rules_t, "rules", "dealer_qualifier", required=True)
    r.keys(q, "rules.dealer_qualifier", ("hand", "rank"))
    hand = r.string(q, "rules.dealer_qualifier", "hand", allowed=_QUALIFIER_HANDS)
    rank_text = r.string(q, "rules.dealer_qualifier", "rank", allowed=tuple(RANKS))
    qualifier = Qualifier(hand, RANKS.index(rank_text))

    pays = r.table(doc, "", "paytables", required=True)
    r.keys(pays, "paytables", ("ante", "aa_bonus"))
    ante = _paytable(r, pays, "ante", ANTE_LINES)
    aa_bonus = None
    if stakes["aa_bonus"] > 0 or "aa_bonus" in pays:
        aa_bonus = _paytable(r, pays, "aa_bonus", AA_BONUS_LINES)
    # Ante returns 1 + pay; Call returns 2 per unit of call stake.
    _check_int32(
        r,
        "stakes.ante",
        stakes.ante,
        1 + max(p for _, p in ante.lines) + 2 * CasinoHoldemRules.CALL_MULTIPLE,
    )
    if aa_bonus is not None:
        _check_int32(
            r, "stakes.aa_bonus", stakes["aa_bonus"], 1 + max(p for _, p in aa_bonus.lines)
        )
    return CasinoHoldemRules(
        name=common["name"],
        stakes=stakes,
        ante_paytable=ante,
        aa_bonus_paytable=aa_bonus,
        fold_forfeits_bonus=forfeits,
        dealer_qualifier=qualifier,
        default_strategy=common["default_strategy"],
        description=common["description"],
        source=r.source,
    )


def _holdem_bonus(r: _Reader, doc: dict, default_name: str) -> HoldemBonusRules:
    r.keys(
        doc,
        "",
        (
            "game",
            "name",
            "description",
            "default_strategy",
            "stakes",
            "rules",
            "paytables",
            "jackpot",
        ),
    )
    common = _common(r, doc, default_name)
    stakes = _stakes(r, doc, ("bonus", "jackpot"))
    rules_t = r.table(doc, "", "rules", required=True)
    r.keys(rules_t, "rules", ("ante_pays_from",))
    pays_from = r.string(rules_t, "rules", "ante_pays_from", allowed=ANTE_PAYS_FROM)

    pays = r.table(doc, "", "paytables", required=stakes["bonus"] > 0 or stakes["jackpot"] > 0)
    pays = pays if pays is not None else {}
    r.keys(pays, "paytables", ("bonus", "jackpot"))
    bonus = None
    if stakes["bonus"] > 0 or "bonus" in pays:
        bonus = _paytable(r, pays, "bonus", BONUS_LINES, optional=("AA_vs_dealer_AA",))
        _check_int32(r, "stakes.bonus", stakes["bonus"], 1 + max(p for _, p in bonus.lines))
    jackpot = None
    jp_t = r.table(doc, "", "jackpot", required=stakes["jackpot"] > 0)
    if stakes["jackpot"] > 0 or "jackpot" in pays or jp_t is not None:
        prizes = _paytable(
            r,
            pays,
            "jackpot",
            JACKPOT_LINES,
            pay_text="a whole number X >= 0 meaning X for 1",
            note=" (a royal flush always wins the meter)",
        )
        if jp_t is None:
            raise r.fail("jackpot", "missing; [paytables.jackpot] needs a [jackpot] table")
        r.keys(jp_t, "jackpot", ("contribution_bp", "reset", "cards"))
        for k in ("contribution_bp", "reset"):
            if k not in jp_t:
                raise r.fail(f"jackpot.{k}", "missing; [jackpot] needs contribution_bp and reset")
        contribution = r.integer(
            jp_t,
            "jackpot",
            "contribution_bp",
            0,
            10_000,
            "contribution_bp must be a whole number of basis points in 0..10000",
        )
        reset = r.integer(
            jp_t,
            "jackpot",
            "reset",
            0,
            _INT32_MAX,
            "reset must be a whole number of money units >= 0",
        )
        cards = r.string(jp_t, "jackpot", "cards", allowed=JACKPOT_CARDS, default="hole_and_flop")
        jackpot = JackpotRules(prizes, contribution, reset, cards)
        _check_int32(r, "stakes.jackpot", stakes["jackpot"], max(p for _, p in prizes.lines))
    # Ante + Flop + Turn + River each return at most 2 per unit.
    _check_int32(r, "stakes.ante", stakes.ante, 2 * 2)
    return HoldemBonusRules(
        name=common["name"],
        stakes=stakes,
        ante_pays_from=pays_from,
        bonus_paytable=bonus,
        jackpot=jackpot,
        default_strategy=common["default_strategy"],
        description=common["description"],
        source=r.source,
    )

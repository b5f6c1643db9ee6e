"""The building blocks of game rules as data, shared by every game's config section.

The frozen pieces (:class:`Paytable`, :class:`Stakes`, :class:`Qualifier`, :class:`JackpotRules`,
with the one Jackpot meter arithmetic and its unit :data:`BP`), the one error type of a bad config
(:class:`ConfigError`) and :class:`ConfigReader`, the typed access to a parsed TOML document that
gives every game's parser the same one-line errors. A described game's rules are
:class:`gpusim.games.described.DescribedRules`, read by the engine's parser (a plugin brings its
own); ``gpusim.config`` loads files and dispatches to the game's parser. The schema is in the
docstring of :mod:`gpusim.config`.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from gpusim.cards import CATEGORY_KEYS, RANKS

__all__ = [
    "RATIO_PAY_FORMS",
    "BP",
    "INT32_MAX",
    "MAX_PAY",
    "QUALIFIER_HANDS",
    "ConfigError",
    "ConfigReader",
    "HashedRules",
    "JackpotRules",
    "Paytable",
    "Qualifier",
    "Stakes",
    "blank_paytable",
    "check_int32",
    "common_dict",
    "common_fields",
    "one_line",
    "ratio_pay_text",
    "read_paytable",
    "read_ratio_paytable",
    "read_stakes",
    "return_numerators",
    "rules_hash",
]

BP = 10_000
"""Jackpot meter sub-units per money unit: contribution rates are whole basis points, so the
meter, kept in these units, is an exact integer."""
QUALIFIER_HANDS = CATEGORY_KEYS[:9]
STRATEGY_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
INT32_MAX = 2**31 - 1
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
        """The base bet's stake: the first amount (:func:`read_stakes` puts it there)."""
        return self.amounts[0][1]

    def as_dict(self) -> dict[str, int]:
        return dict(self.amounts)

    def placed(self) -> Stakes:
        """Which bets are staked, each at 1: what a compiled settlement is made of (the
        amounts reach it as arguments, :func:`gpusim.games.payout`)."""
        return Stakes(tuple((bet, 1) for bet, amount in self.amounts if amount > 0))


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
    ``reset``: meter value after a royal (money units). ``cards``: the name of the described
    hand the meter's bet is settled on (Texas Hold'em Bonus's ``first_five``: the hole cards and
    the flop).
    """

    prizes: Paytable
    contribution_bp: int
    reset: int
    cards: str

    @property
    def contribution_rate(self) -> Fraction:
        """The share of each Jackpot wager added to the meter."""
        return Fraction(self.contribution_bp, BP)

    @property
    def reset_meter(self) -> int:
        """The meter at a run's first round and after every royal, in 1/BP money units."""
        return self.reset * BP

    def advance(self, meter: int, stakes, n_rounds: int, royals=()) -> tuple[int, list[int]]:
        """The meter over ``n_rounds`` consecutive rounds, and what each royal in them pays.

        The one place the meter moves. ``meter``: before the first round, in 1/BP money units
        (an exact integer, since contribution rates are whole basis points). ``stakes``: each
        round's Jackpot stake, one int for every round or (n_rounds,) ints. ``royals``: the
        ascending offsets (0 .. n_rounds - 1) of the rounds that hit the royal.

        A wager adds ``stake x contribution_bp`` when it is placed, before its round is dealt,
        so a round that hits includes its own contribution. A royal pays the meter rounded
        down to whole money units (the remainder stays with the house) and the meter restarts
        from the reset value. Returns (meter after the rounds, [each royal's prize in money
        units]).
        """
        if np.ndim(stakes) == 0:
            cum = None
        else:
            cum = np.concatenate(([0], np.cumsum(np.asarray(stakes, np.int64))))

        def placed(a: int, b: int) -> int:  # the stakes of rounds [a, b)
            return int(stakes) * (b - a) if cum is None else int(cum[b] - cum[a])

        prizes, start = [], 0
        for off in map(int, royals):  # Python ints: exact however large the meter grows
            meter += placed(start, off + 1) * self.contribution_bp
            prizes.append(meter // BP)
            meter = self.reset_meter
            start = off + 1
        meter += placed(start, int(n_rounds)) * self.contribution_bp
        return meter, prizes


class HashedRules:
    """Base of every game's frozen rules dataclass: its :attr:`config_hash`, and its
    :meth:`structure`, the part a compiled batch program is made of."""

    @property
    def config_hash(self) -> str:
        """sha256 of the rules that change a result (:func:`rules_hash`)."""
        return rules_hash(self)

    def structure(self):
        """The same rules with every number a compiled settlement takes as an argument (pays,
        stake amounts; :func:`gpusim.games.payout`) set to a fixed blank, and the names and
        notes emptied: which bets are offered, the qualifier and the flags that change what is
        computed stay. Two configs with equal structures share one compiled program; a game
        that does not override this shares nothing."""
        return self

    @property
    def structure_hash(self) -> str:
        """sha256 of :meth:`structure` (:func:`rules_hash`): the compile caches' key."""
        return rules_hash(self.structure())


def blank_paytable(lines: tuple[str, ...]) -> Paytable:
    """Every line of a paytable at pay 0: a structure's paytable (:meth:`HashedRules.structure`)."""
    return Paytable(tuple((line, 0) for line in lines))


def common_dict(rules) -> dict[str, Any]:
    """The fields every game's ``to_dict`` starts with (for run manifests)."""
    return {
        "game": rules.game,
        "name": rules.name,
        "description": rules.description,
        "source": rules.source,
        "default_strategy": rules.default_strategy,
        "stakes": rules.stakes.as_dict(),
    }


def rules_hash(rules) -> str:
    """sha256 of the canonical JSON of ``rules.to_dict()`` without the names and notes."""
    d = rules.to_dict()
    for key in ("name", "description", "source", "default_strategy"):
        d.pop(key, None)
    blob = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def return_numerators(returns) -> tuple[np.ndarray, int]:
    """(numerators (E,) int64, scale): a bet's returns per unit
    (:func:`gpusim.games.event_returns`: ints, Fractions, None for the meter's entry, read as 0)
    over their least common denominator, so
    ``returns[e] == numerators[e] / scale`` exactly. ``scale`` is 1 for whole returns, and a
    placed bet's net is ``stake * (numerators[e] - scale) / scale``."""
    fracs = [Fraction(r or 0) for r in returns]
    scale = math.lcm(*(f.denominator for f in fracs)) if fracs else 1
    return np.array([int(f * scale) for f in fracs], np.int64), scale


def one_line(text: str) -> str:
    return " ".join(text.split())


# --- validation -----------------------------------------------------------------------------------


class ConfigReader:
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


def read_paytable(
    r: ConfigReader,
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


RATIO_PAY_FORMS = ('a whole number X >= 0 meaning X:1, or a string "A:B" (A for every B staked, '
                   'B >= 1)')
_RATIO = re.compile(r"(\d{1,7}):(\d{1,7})")


def read_ratio_paytable(r: ConfigReader, parent: dict, name: str,
                        lines: tuple[str, ...]) -> Paytable:
    """``[paytables.<name>]`` whose lines are X (X:1) or ``"A:B"``: a Paytable of ints and, for
    a pay that is not whole, Fractions (each line's presence and the whole pays are checked as
    :func:`read_paytable` checks them)."""
    table = parent.get(name)
    whole = {k: 0 if isinstance(v, str) else v for k, v in table.items()} \
        if isinstance(table, dict) else table
    read = read_paytable(r, {**parent, name: whole} if name in parent else parent, name, lines,
                         pay_text=RATIO_PAY_FORMS)
    assert isinstance(table, dict)  # read_paytable refuses anything else
    out: list[tuple[str, Any]] = []
    for line, whole_pay in read.lines:
        value = table[line]
        pay: int | Fraction = whole_pay
        if isinstance(value, str):
            m = _RATIO.fullmatch(value.strip())
            ratio = None if m is None or int(m[2]) == 0 else Fraction(int(m[1]), int(m[2]))
            if ratio is None or ratio > MAX_PAY:
                raise r.fail(f"paytables.{name}.{line}", f"value {value!r} (a string) is not "
                                                         f"allowed; a pay must be "
                                                         f"{RATIO_PAY_FORMS}, at most {MAX_PAY}")
            pay = int(ratio) if ratio.denominator == 1 else ratio
        out.append((line, pay))
    return Paytable(tuple(out))


def ratio_pay_text(pay: int | Fraction) -> int | str:
    """A pay as a config writes it: X for X:1, ``"A:B"`` for a fraction."""
    pay = Fraction(pay)
    return int(pay) if pay.denominator == 1 else f"{pay.numerator}:{pay.denominator}"


def read_stakes(r: ConfigReader, doc: dict, base: str, side_bets: tuple[str, ...]) -> Stakes:
    """``[stakes]``: the base bet's stake (required, >= 1; first in the result) and each side
    bet's (0 or absent: not offered)."""
    table = r.table(doc, "", "stakes", required=True)
    allowed = (base, *side_bets)
    r.keys(table, "stakes", allowed)
    what = "a stake must be a whole number of money units >= 0"
    amounts = {}
    for bet in allowed:
        if bet in table:
            amounts[bet] = r.integer(table, "stakes", bet, 0, INT32_MAX, what)
    if base not in amounts:
        raise r.fail(f"stakes.{base}",
                     f"missing; the {base} stake is required (a whole number >= 1)")
    if amounts[base] == 0:
        for bet in side_bets:
            if amounts.get(bet, 0) > 0:
                raise r.fail(
                    f"stakes.{bet}",
                    f"value {amounts[bet]} is not allowed with stakes.{base} = 0: "
                    f"a side bet needs an {base} (set stakes.{base} >= 1)",
                )
        raise r.fail(f"stakes.{base}", f"value 0 is not allowed; the {base} must be >= 1")
    return Stakes(tuple((bet, amounts.get(bet, 0)) for bet in allowed))


def check_int32(r: ConfigReader, key: str, stake: int, max_return: int) -> None:
    if stake * max_return > INT32_MAX:
        raise r.fail(
            key,
            f"value {stake} is not allowed: stake x largest return ({max_return}) exceeds "
            f"{INT32_MAX} (int32 settlement); use smaller stakes or pays",
        )


def common_fields(r: ConfigReader, doc: dict, default_name: str) -> dict[str, str]:
    name = r.string(doc, "", "name", default=default_name)
    description = r.string(doc, "", "description", default="")
    strategy = r.string(doc, "", "default_strategy", default="optimal")
    if not STRATEGY_NAME.match(strategy):
        raise r.fail(
            "default_strategy",
            f"value {strategy!r} is not allowed; expected a strategy name such as 'optimal' "
            "or 'basic' (lowercase letters, digits, '-' and '_')",
        )
    return {"name": name, "description": description, "default_strategy": strategy}

"""Ultimate Texas Hold'em rules as data: the paytable lines, the frozen rules and the config
parser.

The game's part of a config::

    game = "ultimate_holdem"
    [stakes]
    ante = 2                 # required; the Blind equals it (``blind``, if given, must too)
    trips = 1                # optional side bet; 0 or absent: not offered
    [rules]
    trips_must_beat = false  # true: Trips pays only when the player beats the dealer
    [rules.dealer_qualifier] # the dealer qualifies with this hand or better
    hand = "pair"
    rank = "2"               # a pair of deuces: any pair
    [paytables.blind]        # BLIND_LINES, all required; X (X:1) or "A:B" (A for every B)
    flush = "3:2"
    [paytables.trips]        # TRIPS_LINES, all required when Trips is offered (X:1)

A ratio pay makes the Blind's return a :class:`~fractions.Fraction`; the ante must then make
every Blind pay a whole number of money units (a 3:2 flush needs an even ante), else the config
is refused in one line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from gpusim.cards import RANKS
from gpusim.games.spec import ConfigKey
from gpusim.rules import (
    INT32_MAX,
    MAX_PAY,
    QUALIFIER_HANDS,
    ConfigReader,
    HashedRules,
    Paytable,
    Qualifier,
    Stakes,
    blank_paytable,
    check_int32,
    common_dict,
    common_fields,
    ratio_pay_text,
    read_paytable,
    read_ratio_paytable,
    read_stakes,
)

__all__ = [
    "BLIND_LINES",
    "CONFIG_KEYS",
    "TRIPS_LINES",
    "UltimateHoldemRules",
    "parse_rules",
    "pay_text",
]

BLIND_LINES = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
)
"""Blind paytable lines (the player's final hand when he beats the dealer); less pushes."""

TRIPS_LINES = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
)
"""Trips paytable lines (the player's final hand); anything less loses."""



@dataclass(frozen=True)
class UltimateHoldemRules(HashedRules):
    """Ultimate Texas Hold'em (the standard published rules). Blind = Ante; Play = 4, 3, 2 or 1
    x Ante.

    ``blind_paytable`` pays are ints or Fractions (a 3:2 flush is ``Fraction(3, 2)``).
    """

    name: str
    stakes: Stakes
    blind_paytable: Paytable
    trips_paytable: Paytable | None
    trips_must_beat: bool
    dealer_qualifier: Qualifier
    default_strategy: str = "optimal"
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)
    game: str = "ultimate_holdem"

    def structure(self) -> UltimateHoldemRules:
        """What the settlement is made of (:meth:`gpusim.rules.HashedRules.structure`): the
        offered bets, the dealer's qualifier and ``trips_must_beat`` (it changes the Trips
        events, not only their pays)."""
        trips = self.trips_paytable
        return replace(
            self,
            name="",
            stakes=self.stakes.placed(),
            blind_paytable=blank_paytable(BLIND_LINES),
            trips_paytable=None if trips is None else blank_paytable(TRIPS_LINES),
            default_strategy="",
            description="",
            source="",
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of the resolved rules (for run manifests); a ratio pay is
        written as the config writes it, ``"A:B"``."""
        out: dict[str, Any] = {
            **common_dict(self),
            "rules": {
                "trips_must_beat": self.trips_must_beat,
                "dealer_qualifier": {
                    "hand": self.dealer_qualifier.hand,
                    "rank": RANKS[self.dealer_qualifier.rank],
                },
            },
            "paytables": {"blind": {k: pay_text(v) for k, v in self.blind_paytable.lines}},
        }
        if self.trips_paytable is not None:
            out["paytables"]["trips"] = self.trips_paytable.as_dict()
        return out


pay_text = ratio_pay_text
"""A pay as a config writes it: X for X:1, ``"A:B"`` for a fraction."""


def _read_blind(r: ConfigReader, pays: dict) -> Paytable:
    """[paytables.blind]: X (X:1) or "A:B"; read as a Paytable of ints and Fractions."""
    r.table(pays, "paytables", "blind", required=True)
    return read_ratio_paytable(r, pays, "blind", BLIND_LINES)


def _read_stakes(r: ConfigReader, doc: dict) -> Stakes:
    """[stakes]: ante (required), trips (optional); blind, if written, must equal the ante."""
    table = r.table(doc, "", "stakes", required=True)
    blind = table.get("blind")
    base = read_stakes(r, {**doc, "stakes": {k: v for k, v in table.items() if k != "blind"}},
                       "ante", ("trips",))
    if "blind" in table and (type(blind) is not int or blind != base.ante):
        raise r.fail("stakes.blind", f"value {blind!r} is not allowed; the Blind always equals "
                     f"the ante (stakes.ante = {base.ante}); leave it out")
    return Stakes((("ante", base.ante), ("blind", base.ante), ("trips", base["trips"])))


CONFIG_KEYS = (
    ConfigKey("stakes.ante", f"a whole number, 1 to {INT32_MAX}",
              "the Ante, in money units; the Blind equals it, the Play is 4, 3, 2 or 1 x ante; a "
              "ratio pay of the Blind needs an ante that makes it whole (3:2: an even ante)"),
    ConfigKey("stakes.blind", "the value of stakes.ante",
              "the Blind, always equal to the ante", "optional (best left out)"),
    ConfigKey("stakes.trips", f"a whole number, 0 to {INT32_MAX}",
              "the Trips side bet, in money units", "optional; 0 or absent: not offered"),
    ConfigKey("rules.trips_must_beat", "true or false",
              "true: Trips pays only when the player beats the dealer; false: on the player's own "
              "final hand whatever the dealer holds"),
    ConfigKey("rules.dealer_qualifier.hand", QUALIFIER_HANDS,
              "the dealer qualifies with this hand category or better"),
    ConfigKey("rules.dealer_qualifier.rank", tuple(RANKS),
              "the lowest rank that names that hand: hand = \"pair\", rank = \"4\" is a pair of "
              "fours or better"),
    ConfigKey("paytables.blind", f"every line a whole number 0 to {MAX_PAY}, or a string "
              "\"A:B\"", "the Blind's pay on the player's final hand when he beats the dealer; "
              "less pushes", lines=BLIND_LINES, pays=("X:1", "A:B")),
    ConfigKey("paytables.trips", f"every line a whole number, 0 to {MAX_PAY}",
              "the Trips pay on the player's final hand; anything less loses",
              "when stakes.trips > 0", lines=TRIPS_LINES, pays=("X:1",)),
)
"""The config keys of Ultimate Texas Hold'em, with the values the parser accepts
(docs/config.md)."""


def parse_rules(r: ConfigReader, doc: dict, default_name: str) -> UltimateHoldemRules:
    r.keys(
        doc, "", ("game", "name", "description", "default_strategy", "stakes", "rules", "paytables")
    )
    common = common_fields(r, doc, default_name)
    stakes = _read_stakes(r, doc)
    rules_t = r.table(doc, "", "rules", required=True)
    r.keys(rules_t, "rules", ("trips_must_beat", "dealer_qualifier"))
    must_beat = r.boolean(rules_t, "rules", "trips_must_beat")
    q = r.table(rules_t, "rules", "dealer_qualifier", required=True)
    r.keys(q, "rules.dealer_qualifier", ("hand", "rank"))
    hand = r.string(q, "rules.dealer_qualifier", "hand", allowed=QUALIFIER_HANDS)
    rank_text = r.string(q, "rules.dealer_qualifier", "rank", allowed=tuple(RANKS))

    pays = r.table(doc, "", "paytables", required=True)
    r.keys(pays, "paytables", ("blind", "trips"))
    blind = _read_blind(r, pays)
    trips = None
    if stakes["trips"] > 0 or "trips" in pays:
        trips = read_paytable(r, pays, "trips", TRIPS_LINES)
    ante = stakes.ante
    for line, pay in blind.lines:
        if (ante * Fraction(pay)).denominator != 1:
            unit = Fraction(pay).denominator
            raise r.fail("stakes.ante", f"value {ante} is not allowed: the Blind pays "
                         f"{pay_text(pay)} (paytables.blind.{line}), so the ante must be a "
                         f"multiple of {unit} (money is whole units)")
    # Nets are counted in 1/scale units of int32: the Blind's largest numerator, or the Play's
    # 4 x ante returning 2.
    scale = math.lcm(*(Fraction(p).denominator for _, p in blind.lines))
    top = max((Fraction(p) + 1) * scale for _, p in blind.lines)
    check_int32(r, "stakes.ante", ante, max(8, int(top)))
    if trips is not None:
        check_int32(r, "stakes.trips", stakes["trips"], 1 + max(p for _, p in trips.lines))
    return UltimateHoldemRules(
        name=common["name"],
        stakes=stakes,
        blind_paytable=blind,
        trips_paytable=trips,
        trips_must_beat=must_beat,
        dealer_qualifier=Qualifier(hand, RANKS.index(rank_text)),
        default_strategy=common["default_strategy"],
        description=common["description"],
        source=r.source,
    )


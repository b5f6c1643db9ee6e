"""Texas Hold'em Bonus rules as data: the paytable lines, the frozen rules and the config parser."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.spec import ConfigKey
from gpusim.rules import (
    BP,
    INT32_MAX,
    MAX_PAY,
    ConfigReader,
    HashedRules,
    JackpotRules,
    Paytable,
    Stakes,
    blank_paytable,
    check_int32,
    common_dict,
    common_fields,
    read_paytable,
    read_stakes,
)

__all__ = [
    "ANTE_PAYS_FROM",
    "BONUS_LINES",
    "BONUS_LINE_CLASSES",
    "CONFIG_KEYS",
    "JACKPOT_CARDS",
    "JACKPOT_LINES",
    "HoldemBonusRules",
    "parse_rules",
]

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


@dataclass(frozen=True)
class HoldemBonusRules(HashedRules):
    """Texas Hold'em Bonus Poker (the Swedish and Icelandic rules). Flop/Turn/River = 2/1/1 x
    ante."""

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

    def structure(self) -> HoldemBonusRules:
        """What the settlement is made of (:meth:`gpusim.rules.HashedRules.structure`): the
        offered bets and the Jackpot hand's cards. ``ante_pays_from`` only changes the Ante's
        return table, so it is a number here, like the pays."""
        jp = self.jackpot
        return replace(
            self,
            name="",
            stakes=self.stakes.placed(),
            ante_pays_from=ANTE_PAYS_FROM[0],
            bonus_paytable=None if self.bonus_paytable is None else blank_paytable(BONUS_LINES),
            jackpot=None if jp is None else JackpotRules(blank_paytable(JACKPOT_LINES), 0, 0,
                                                         jp.cards),
            default_strategy="",
            description="",
            source="",
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of the resolved rules (for run manifests)."""
        out: dict[str, Any] = {
            **common_dict(self),
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


CONFIG_KEYS = (
    ConfigKey("stakes.ante", f"a whole number, 1 to {INT32_MAX}",
              f"the Ante, in money units; the Flop is {HoldemBonusRules.FLOP_MULTIPLE} x ante, "
              f"the Turn {HoldemBonusRules.TURN_MULTIPLE} x and the River "
              f"{HoldemBonusRules.RIVER_MULTIPLE} x"),
    ConfigKey("stakes.bonus", f"a whole number, 0 to {INT32_MAX}",
              "the Bonus side bet, in money units", "optional; 0 or absent: not offered"),
    ConfigKey("stakes.jackpot", f"a whole number, 0 to {INT32_MAX}",
              "the progressive Jackpot side bet, in money units",
              "optional; 0 or absent: not offered"),
    ConfigKey("rules.ante_pays_from", ANTE_PAYS_FROM,
              "the Ante pays 1:1 when the player wins with this hand category or better, else "
              "it pushes"),
    ConfigKey("jackpot.contribution_bp", f"a whole number, 0 to {BP}",
              "basis points (1/10000) of each Jackpot wager added to the meter",
              "when stakes.jackpot > 0 or [paytables.jackpot] is given"),
    ConfigKey("jackpot.reset", f"a whole number, 0 to {INT32_MAX}",
              "the meter after a royal flush (money units)",
              "when stakes.jackpot > 0 or [paytables.jackpot] is given"),
    ConfigKey("jackpot.cards", JACKPOT_CARDS,
              "which cards make the Jackpot hand: the player's hole cards and the flop (settled "
              "after a fold too), or all seven", f'optional, default "{JACKPOT_CARDS[0]}"'),
    ConfigKey("paytables.bonus", f"every line a whole number, 0 to {MAX_PAY}",
              "the Bonus's pay on the player's hole cards (the first line also needs the "
              "dealer's two aces; without it AA always pays the AA line); other hands lose",
              "when stakes.bonus > 0", lines=BONUS_LINES, optional_lines=("AA_vs_dealer_AA",),
              pays=("X:1",)),
    ConfigKey("paytables.jackpot", f"every line a whole number, 0 to {MAX_PAY}",
              "the Jackpot's fixed prizes; a royal flush always wins the meter; lower hands lose",
              "when stakes.jackpot > 0", lines=JACKPOT_LINES, pays=("X for 1",)),
)
"""The config keys of Texas Hold'em Bonus, with the values the parser accepts (docs/config.md)."""


def parse_rules(r: ConfigReader, doc: dict, default_name: str) -> HoldemBonusRules:
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
    common = common_fields(r, doc, default_name)
    stakes = read_stakes(r, doc, "ante", ("bonus", "jackpot"))
    rules_t = r.table(doc, "", "rules", required=True)
    r.keys(rules_t, "rules", ("ante_pays_from",))
    pays_from = r.string(rules_t, "rules", "ante_pays_from", allowed=ANTE_PAYS_FROM)

    pays = r.table(doc, "", "paytables", required=stakes["bonus"] > 0 or stakes["jackpot"] > 0)
    pays = pays if pays is not None else {}
    r.keys(pays, "paytables", ("bonus", "jackpot"))
    bonus = None
    if stakes["bonus"] > 0 or "bonus" in pays:
        bonus = read_paytable(r, pays, "bonus", BONUS_LINES, optional=("AA_vs_dealer_AA",))
        check_int32(r, "stakes.bonus", stakes["bonus"], 1 + max(p for _, p in bonus.lines))
    jackpot = None
    jp_t = r.table(doc, "", "jackpot", required=stakes["jackpot"] > 0)
    if stakes["jackpot"] > 0 or "jackpot" in pays or jp_t is not None:
        prizes = read_paytable(
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
            BP,
            f"contribution_bp must be a whole number of basis points in 0..{BP}",
        )
        reset = r.integer(
            jp_t,
            "jackpot",
            "reset",
            0,
            INT32_MAX,
            "reset must be a whole number of money units >= 0",
        )
        cards = r.string(jp_t, "jackpot", "cards", allowed=JACKPOT_CARDS, default="hole_and_flop")
        jackpot = JackpotRules(prizes, contribution, reset, cards)
        check_int32(r, "stakes.jackpot", stakes["jackpot"], max(p for _, p in prizes.lines))
    # Ante + Flop + Turn + River each return at most 2 per unit.
    check_int32(r, "stakes.ante", stakes.ante, 2 * 2)
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

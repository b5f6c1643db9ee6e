"""Casino Hold'em rules as data: the paytable lines, the frozen rules and the config parser."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
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
    read_paytable,
    read_stakes,
)

__all__ = ["AA_BONUS_LINES", "ANTE_LINES", "CONFIG_KEYS", "CasinoHoldemRules", "parse_rules"]

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


@dataclass(frozen=True)
class CasinoHoldemRules(HashedRules):
    """Casino Hold'em (the Norwegian rules and guide). Call = ``CALL_MULTIPLE`` x ante."""

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

    def structure(self) -> CasinoHoldemRules:
        """What the settlement is made of (:meth:`gpusim.rules.HashedRules.structure`): the
        offered bets and the dealer's qualifier. ``fold_forfeits_bonus`` only changes the AA
        Bonus's return table (its ``fold:`` rows), so it is a number here, like the pays."""
        aa = self.aa_bonus_paytable
        return replace(
            self,
            name="",
            stakes=self.stakes.placed(),
            ante_paytable=blank_paytable(ANTE_LINES),
            aa_bonus_paytable=None if aa is None else blank_paytable(AA_BONUS_LINES),
            fold_forfeits_bonus=False,
            default_strategy="",
            description="",
            source="",
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of the resolved rules (for run manifests)."""
        out: dict[str, Any] = {
            **common_dict(self),
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


CONFIG_KEYS = (
    ConfigKey("stakes.ante", f"a whole number, 1 to {INT32_MAX}",
              f"the Ante, in money units; the Call is {CasinoHoldemRules.CALL_MULTIPLE} x ante"),
    ConfigKey("stakes.aa_bonus", f"a whole number, 0 to {INT32_MAX}",
              "the AA Bonus side bet, in money units", "optional; 0 or absent: not offered"),
    ConfigKey("rules.fold_forfeits_bonus", "true or false",
              "true: a fold loses the AA Bonus too; false: the AA Bonus is settled after a fold"),
    ConfigKey("rules.dealer_qualifier.hand", QUALIFIER_HANDS,
              "the dealer qualifies with this hand category or better"),
    ConfigKey("rules.dealer_qualifier.rank", tuple(RANKS),
              "the lowest rank that names that hand: hand = \"pair\", rank = \"4\" is a pair of "
              "fours or better"),
    ConfigKey("paytables.ante", f"every line a whole number, 0 to {MAX_PAY}",
              "the Ante's pay on the player's final hand when the dealer does not qualify or the "
              "player wins", lines=ANTE_LINES, pays=("X:1",)),
    ConfigKey("paytables.aa_bonus", f"every line a whole number, 0 to {MAX_PAY}",
              "the AA Bonus's pay on the hole cards plus the flop; anything less loses",
              "when stakes.aa_bonus > 0", lines=AA_BONUS_LINES, pays=("X:1",)),
)
"""The config keys of Casino Hold'em, with the values the parser accepts (docs/config.md)."""


def parse_rules(r: ConfigReader, doc: dict, default_name: str) -> CasinoHoldemRules:
    r.keys(
        doc, "", ("game", "name", "description", "default_strategy", "stakes", "rules", "paytables")
    )
    common = common_fields(r, doc, default_name)
    stakes = read_stakes(r, doc, "ante", ("aa_bonus",))
    rules_t = r.table(doc, "", "rules", required=True)
    r.keys(rules_t, "rules", ("fold_forfeits_bonus", "dealer_qualifier"))
    forfeits = r.boolean(rules_t, "rules", "fold_forfeits_bonus")
    q = r.table(rules_t, "rules", "dealer_qualifier", required=True)
    r.keys(q, "rules.dealer_qualifier", ("hand", "rank"))
    hand = r.string(q, "rules.dealer_qualifier", "hand", allowed=QUALIFIER_HANDS)
    rank_text = r.string(q, "rules.dealer_qualifier", "rank", allowed=tuple(RANKS))
    qualifier = Qualifier(hand, RANKS.index(rank_text))

    pays = r.table(doc, "", "paytables", required=True)
    r.keys(pays, "paytables", ("ante", "aa_bonus"))
    ante = read_paytable(r, pays, "ante", ANTE_LINES)
    aa_bonus = None
    if stakes["aa_bonus"] > 0 or "aa_bonus" in pays:
        aa_bonus = read_paytable(r, pays, "aa_bonus", AA_BONUS_LINES)
    # Ante returns 1 + pay; Call returns 2 per unit of call stake.
    check_int32(
        r,
        "stakes.ante",
        stakes.ante,
        1 + max(p for _, p in ante.lines) + 2 * CasinoHoldemRules.CALL_MULTIPLE,
    )
    if aa_bonus is not None:
        check_int32(
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



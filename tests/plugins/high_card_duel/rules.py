"""High Card Duel's rules as data: the frozen rules and the config parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpusim.rules import (
    ConfigReader,
    HashedRules,
    Paytable,
    Stakes,
    check_int32,
    common_dict,
    common_fields,
    read_paytable,
    read_stakes,
)

__all__ = ["SUITED_LINES", "HighCardDuelRules", "parse_rules"]

SUITED_LINES = ("suited",)
"""The Suited side bet's one line: the player's card and the dealer's share a suit."""


@dataclass(frozen=True)
class HighCardDuelRules(HashedRules):
    """High Card Duel: one card each; fold, or raise 1x or 2x the ante; the higher rank wins."""

    name: str
    stakes: Stakes
    suited_paytable: Paytable | None
    default_strategy: str = "basic"
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)
    game: str = "high_card_duel"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {**common_dict(self), "paytables": {}}
        if self.suited_paytable is not None:
            out["paytables"]["suited"] = self.suited_paytable.as_dict()
        return out


def parse_rules(r: ConfigReader, doc: dict, default_name: str) -> HighCardDuelRules:
    r.keys(doc, "", ("game", "name", "description", "default_strategy", "stakes", "paytables"))
    common = common_fields(r, doc, default_name)
    stakes = read_stakes(r, doc, "ante", ("suited",))
    pays = r.table(doc, "", "paytables", required=False) or {}
    r.keys(pays, "paytables", ("suited",))
    suited = None
    if stakes["suited"] > 0 or "suited" in pays:
        suited = read_paytable(r, pays, "suited", SUITED_LINES)
        check_int32(r, "stakes.suited", stakes["suited"], 1 + suited["suited"])
    check_int32(r, "stakes.ante", stakes.ante, 6)  # ante and a 2x raise, each returning 2
    return HighCardDuelRules(
        name=common["name"],
        stakes=stakes,
        suited_paytable=suited,
        default_strategy=common["default_strategy"],
        description=common["description"],
        source=r.source,
    )

"""High Card Duel's bets, decision tree, events, returns and joint outcome code (numpy only).

Each round deals two cards: the player's (column 0) and the dealer's (column 1). The player
sees his card and folds (the Ante is lost), or raises 1x or 2x the Ante. Then the higher rank
wins (suits do not rank): Ante and Raise pay 1:1; a tie pushes both. The Suited side bet pays
its paytable when the two cards share a suit, whatever the player did.
"""

from __future__ import annotations

import numpy as np

from gpusim.strategy.tree import Action, DecisionPoint

__all__ = ["BETS", "TREE", "bets", "event_names", "event_returns", "joint_decode"]

BETS = ("ante", "raise", "suited")
TREE = (
    DecisionPoint(
        "act",
        actions=(
            Action("fold", folds=True),
            Action("raise_1x", {"raise": 1}),
            Action("raise_2x", {"raise": 2}),
        ),
        sees=(0,),  # the player's own card
    ),
)
_MAIN_EVENTS = ("fold", "win", "tie", "loss")
_SUITED_EVENTS = ("suited", "unsuited")


def bets(rules) -> tuple[str, ...]:
    return BETS if rules.stakes["suited"] > 0 else BETS[:2]


def event_names(rules) -> dict[str, tuple[str, ...]]:
    names = {"ante": _MAIN_EVENTS, "raise": _MAIN_EVENTS, "suited": _SUITED_EVENTS}
    return {b: names[b] for b in bets(rules)}


def event_returns(rules) -> dict[str, tuple[int, ...]]:
    out = {"ante": (0, 2, 1, 0), "raise": (0, 2, 1, 0)}
    if "suited" in bets(rules):
        out["suited"] = (1 + rules.suited_paytable["suited"], 0)
    return out


def paytable(rules, bet: str) -> dict[str, int]:
    return rules.suited_paytable.as_dict() if bet == "suited" and rules.suited_paytable else {}


def joint_decode(rules) -> tuple[int, dict, dict, dict]:
    """Code ``(action * 4 + main event) * 2 + suited event`` (no suited factor without the side
    bet): every bet's event and stake and the action taken, per code."""
    i64 = np.int64
    n_suited = 2 if "suited" in bets(rules) else 1
    codes = np.arange(3 * 4 * n_suited, dtype=i64)
    main = codes // n_suited
    action, event = main // 4, main % 4
    ante = rules.stakes.ante
    events = {"ante": event, "raise": event}
    stakes = {"ante": np.full(codes.size, ante, i64), "raise": action * ante}
    if n_suited == 2:
        events["suited"] = codes % 2
        stakes["suited"] = np.full(codes.size, rules.stakes["suited"], i64)
    return int(codes.size), events, stakes, {"act": action}

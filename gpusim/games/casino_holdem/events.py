"""Casino Hold'em's bets, their events and returns (the return tables) and the decoding of
the joint outcome code, in numpy (reading them imports no JAX); the settlement that produces
the events is :mod:`gpusim.games.casino_holdem.settlement`.

Rules: the Norwegian operator's Casino Hold'em rules and a Norwegian guide to the game, as stated
here. The player sees the hole cards and the flop, then folds (the Ante is lost) or calls (Call =
2 x Ante). The dealer qualifies with ``rules.dealer_qualifier`` or better (default a pair of
fours).

Events (fixed tuples, the rows of the return tables; ``c`` runs over ``CATEGORY_KEYS``, the
player's final seven-card hand, low to high, royal flush last):

- ``ante``: ``fold``; ``dealer_not_qualified:c`` (paid per the Ante paytable whoever holds the
  better hand); ``win:c`` (paid per the Ante paytable); ``tie`` (push); ``loss``.
- ``call``: ``fold`` (not placed); ``dealer_not_qualified`` (push); ``win`` (1:1); ``tie``;
  ``loss``.
- ``aa_bonus`` (only when offered): the five-card hand of hole cards + flop, ``b`` in
  :data:`AA_BONUS_HANDS`: ``b`` when the player called, ``fold:b`` when he folded. With
  ``fold_forfeits_bonus`` every ``fold:b`` loses; otherwise it pays like ``b``.
"""

from __future__ import annotations

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.casino_holdem.rules import CasinoHoldemRules
from gpusim.strategy.tree import Action, DecisionPoint, placed_multiples, taken

__all__ = [
    "AA_BONUS_HANDS",
    "BETS",
    "DECISIONS",
    "TREE",
    "bets",
    "event_names",
    "event_returns",
    "joint_decode",
]

BETS = ("ante", "call", "aa_bonus")
TREE = (
    DecisionPoint(
        "call",
        actions=(
            Action("fold", folds=True),
            Action("call", {"call": CasinoHoldemRules.CALL_MULTIPLE}),
        ),
        sees=(0, 1, 4, 5, 6),  # hole cards and the flop
    ),
)
"""The decision tree: call (index 1) or fold (index 0), seeing the hole cards and the flop."""
DECISIONS = tuple(p.name for p in TREE)

AA_BONUS_HANDS = ("high_card", "pair_below_aces", "pair_of_aces", *CATEGORY_KEYS[2:])
"""Five-card AA Bonus hands, low to high (pairs split at aces, as the paytable does)."""

_ANTE_EVENTS = (
    ("fold",)
    + tuple(f"dealer_not_qualified:{c}" for c in CATEGORY_KEYS)
    + tuple(f"win:{c}" for c in CATEGORY_KEYS)
    + ("tie", "loss")
)
_CALL_EVENTS = ("fold", "dealer_not_qualified", "win", "tie", "loss")
_AA_EVENTS = AA_BONUS_HANDS + tuple(f"fold:{b}" for b in AA_BONUS_HANDS)
N_CATEGORIES = len(CATEGORY_KEYS)
N_AA_HANDS = len(AA_BONUS_HANDS)


def bets(rules: CasinoHoldemRules) -> tuple[str, ...]:
    """Bets offered by the config: ante, call, and aa_bonus when its stake is > 0."""
    return BETS if rules.stakes["aa_bonus"] > 0 else BETS[:2]


def event_names(rules: CasinoHoldemRules) -> dict[str, tuple[str, ...]]:
    names = {"ante": _ANTE_EVENTS, "call": _CALL_EVENTS, "aa_bonus": _AA_EVENTS}
    return {bet: names[bet] for bet in bets(rules)}


def _ante_pay(rules: CasinoHoldemRules, cat: int) -> int:
    key = CATEGORY_KEYS[cat]
    if key in rules.ante_paytable:
        return rules.ante_paytable[key]
    return rules.ante_paytable["straight_or_less"]


def _aa_pay(rules: CasinoHoldemRules, hand: str) -> int | None:
    pt = rules.aa_bonus_paytable
    return pt[hand] if pt is not None and hand in pt else None


def event_returns(rules: CasinoHoldemRules) -> dict[str, tuple[int, ...]]:
    """Amount returned per unit staked, for every event of every offered bet (0 = lost).

    ``net = stake * (returns[bet][event] - 1)`` for a placed bet. These are the return-table
    multipliers: counts of events times these give any paytable's return.
    """
    ante = [0]
    ante += [1 + _ante_pay(rules, c) for c in range(N_CATEGORIES)]  # dealer not qualified
    ante += [1 + _ante_pay(rules, c) for c in range(N_CATEGORIES)]  # player wins
    ante += [1, 0]
    out = {"ante": tuple(ante), "call": (0, 1, 2, 1, 0)}
    if "aa_bonus" in bets(rules):
        called = [0 if _aa_pay(rules, b) is None else 1 + _aa_pay(rules, b) for b in AA_BONUS_HANDS]
        folded = [0] * N_AA_HANDS if rules.fold_forfeits_bonus else called
        out["aa_bonus"] = tuple(called + folded)
    return out


# --- the joint outcome code (kernels/settle_casino_holdem.cuh) ------------------------------------

AA_RADIX = len(_AA_EVENTS)
_CALL_OF_ANTE = (0,) + (1,) * N_CATEGORIES + (2,) * N_CATEGORIES + (3, 4)
"""The Call event of each Ante event: fold, dealer not qualified, win, tie, loss."""


def joint_decode(rules: CasinoHoldemRules) -> tuple[int, dict, dict, dict]:
    """(n_bins, {bet: (n_bins,) int64 event}, {bet: (n_bins,) int64 stake}, {point: (n_bins,)
    int64 action taken}) of every code; the Call stake is the tree's (:data:`TREE`)."""
    offered = bets(rules)
    ante = rules.stakes.ante
    i64 = np.int64
    n_aa = AA_RADIX if "aa_bonus" in offered else 1
    codes = np.arange(len(_ANTE_EVENTS) * n_aa, dtype=i64)
    ante_ev = codes // n_aa
    answers = {"call": (ante_ev != 0).astype(i64)}  # Ante event 0 is the fold
    events = {"ante": ante_ev, "call": np.array(_CALL_OF_ANTE, i64)[ante_ev]}
    stakes = {"ante": np.full(codes.size, ante, i64),
              "call": placed_multiples(TREE, answers)["call"].astype(i64) * ante}
    if "aa_bonus" in offered:
        events["aa_bonus"] = codes % n_aa
        stakes["aa_bonus"] = np.full(codes.size, rules.stakes["aa_bonus"], i64)
    took = {p: v.astype(i64) for p, v in taken(TREE, answers).items()}
    return int(codes.size), events, stakes, took

"""Texas Hold'em Bonus Poker's bets, their events and returns (the return tables) and the
decoding of the joint outcome code, in numpy (reading them imports no JAX); the settlement that
produces the events is :mod:`gpusim.games.holdem_bonus.settlement`.

Rules: the Swedish and Icelandic operators' Texas Hold'em Bonus Poker rules, as stated here.
Bets: Ante; Flop (2 x ante, placed by the ``flop`` point's ``bet``; its ``fold`` ends the round);
Turn and River (1 x ante each, optional); the Bonus and Jackpot side bets when offered. No dealer
qualification.

Events (fixed tuples; ``c`` runs over ``CATEGORY_KEYS``, the player's final hand, low to high):

- ``ante``: ``fold``; ``win:c`` (pays 1:1 when ``c`` >= ``rules.ante_pays_from``, else
  pushes); ``tie`` (push); ``loss``.
- ``flop``: ``fold``; ``win`` (1:1); ``tie``; ``loss``.
- ``turn`` / ``river``: ``fold``; ``check`` (not placed); ``win``; ``tie``; ``loss``.
- ``bonus``: the hole cards as :data:`BONUS_HANDS`: ``AA_vs_AA`` (player AA and dealer AA),
  ``AA``, ``AKs``, ``AQs``, ``AJs``, ``AKo``, ``KK``, ``QQ``, ``JJ``, ``AQo``, ``AJo``, ``TT``
  .. ``22``, ``other``. Settled whatever happens in the main game, folds included.
  ``AA_vs_AA`` is recorded even without that paytable line (it then pays the AA line).
- ``jackpot``: the category of the Jackpot hand (``CATEGORY_KEYS``; ``royal_flush`` last, see
  :data:`JACKPOT_ROYAL`), hole cards + flop by default. Fixed prizes are "X for 1" (the prize
  replaces the stake); a royal flush returns the meter (``jackpot_meter``), whatever the
  stake; it is settled after a fold too.
"""

from __future__ import annotations

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES, HoldemBonusRules
from gpusim.strategy.tree import Action, DecisionPoint, placed_multiples, taken

__all__ = [
    "BETS",
    "BONUS_HANDS",
    "DECISIONS",
    "TREE",
    "JACKPOT_ROYAL",
    "bets",
    "event_names",
    "event_returns",
    "joint_decode",
]

BETS = ("ante", "flop", "turn", "river", "bonus", "jackpot")
_R = HoldemBonusRules
TREE = (
    DecisionPoint(
        "flop",
        actions=(Action("fold", folds=True), Action("bet", {"flop": _R.FLOP_MULTIPLE}, "turn")),
        sees=(0, 1),  # the hole cards
    ),
    DecisionPoint(
        "turn",
        actions=(Action("check", next="river"), Action("bet", {"turn": _R.TURN_MULTIPLE}, "river")),
        sees=(0, 1, 4, 5, 6),  # + the flop
    ),
    DecisionPoint(
        "river",
        actions=(Action("check"), Action("bet", {"river": _R.RIVER_MULTIPLE})),
        sees=(0, 1, 4, 5, 6, 7),  # + the turn card
    ),
)
"""The decision tree: the Flop bet (1) or a fold (0) on the hole cards; after a Flop bet, the
Turn bet or a check, then the River bet or a check."""
DECISIONS = tuple(p.name for p in TREE)

_PAIRS_TT_22 = ("TT", "99", "88", "77", "66", "55", "44", "33", "22")
BONUS_HANDS = (
    ("AA_vs_AA", "AA", "AKs", "AQs", "AJs", "AKo", "KK", "QQ", "JJ", "AQo", "AJo")
    + _PAIRS_TT_22
    + ("other",)
)
"""Bonus events: starting hands the paytable distinguishes, ``other`` for the rest."""

JACKPOT_ROYAL = CATEGORY_KEYS.index("royal_flush")
"""Index of the royal-flush event in ``event_names(rules)["jackpot"]`` (a meter hit)."""

N_CATEGORIES = len(CATEGORY_KEYS)
_ANTE_EVENTS = ("fold",) + tuple(f"win:{c}" for c in CATEGORY_KEYS) + ("tie", "loss")
_FLOP_EVENTS = ("fold", "win", "tie", "loss")
_STREET_EVENTS = ("fold", "check", "win", "tie", "loss")


def bets(rules: HoldemBonusRules) -> tuple[str, ...]:
    """Bets offered by the config: the four main bets, plus bonus/jackpot when staked."""
    return tuple(b for b in BETS if b not in ("bonus", "jackpot") or rules.stakes[b] > 0)


def event_names(rules: HoldemBonusRules) -> dict[str, tuple[str, ...]]:
    names = {
        "ante": _ANTE_EVENTS,
        "flop": _FLOP_EVENTS,
        "turn": _STREET_EVENTS,
        "river": _STREET_EVENTS,
        "bonus": BONUS_HANDS,
        "jackpot": CATEGORY_KEYS,
    }
    return {bet: names[bet] for bet in bets(rules)}


def _bonus_returns(rules: HoldemBonusRules) -> tuple[int, ...]:
    pt = rules.bonus_paytable
    line_of = {cls: line for line, classes in BONUS_LINE_CLASSES.items() for cls in classes}
    out = []
    for hand in BONUS_HANDS:
        if hand == "AA_vs_AA":
            pay = pt.get("AA_vs_dealer_AA", pt["AA"])
        elif hand == "other":
            pay = None
        else:
            pay = pt[line_of[hand]]
        out.append(0 if pay is None else 1 + pay)
    return tuple(out)


def event_returns(rules: HoldemBonusRules) -> dict[str, tuple[int | None, ...]]:
    """Amount returned per unit staked for every event of every offered bet (0 = lost).

    ``net = stake * (returns[bet][event] - 1)`` for a placed bet, except the Jackpot royal flush,
    whose entry is ``None``: it returns the meter (``net = meter - stake``).
    """
    pays_from = CATEGORY_KEYS.index(rules.ante_pays_from)
    out: dict[str, tuple[int | None, ...]] = {
        "ante": (0,) + tuple(2 if c >= pays_from else 1 for c in range(N_CATEGORIES)) + (1, 0),
        "flop": (0, 2, 1, 0),
        "turn": (0, 0, 2, 1, 0),
        "river": (0, 0, 2, 1, 0),
    }
    offered = bets(rules)
    if "bonus" in offered:
        out["bonus"] = _bonus_returns(rules)
    if "jackpot" in offered:
        prizes = rules.jackpot.prizes
        out["jackpot"] = tuple(
            None if c == "royal_flush" else prizes.get(c, 0) for c in CATEGORY_KEYS
        )
    return out


# --- the joint outcome code (kernels/settle_holdem_bonus.cuh) -------------------------------------

_MAIN_CODES = len(_ANTE_EVENTS) * 4
"""Ante event x (Turn bet, River bet): the main game's part of the code."""
BONUS_RADIX = len(BONUS_HANDS)
JACKPOT_RADIX = len(CATEGORY_KEYS)


def joint_decode(rules: HoldemBonusRules) -> tuple[int, dict, dict, dict]:
    """(n_bins, {bet: (n_bins,) int64 event}, {bet: (n_bins,) int64 stake}, {point: (n_bins,)
    int64 action taken, -1 = not reached}) of every code; the Flop, Turn and River stakes are
    the tree's (:data:`TREE`) for the actions the code holds. Codes no round can produce (a
    fold with a Turn bet) decode to something harmless."""
    offered = bets(rules)
    ante = rules.stakes.ante
    i64 = np.int64
    nb = BONUS_RADIX if "bonus" in offered else 1
    nj = JACKPOT_RADIX if "jackpot" in offered else 1
    codes = np.arange(_MAIN_CODES * nb * nj, dtype=i64)
    main = codes // (nb * nj)
    ante_ev = main // 4
    played = ante_ev != 0
    answers = {"flop": played.astype(i64), "turn": (main >> 1) & 1, "river": main & 1}
    took = {p: v.astype(i64) for p, v in taken(TREE, answers).items()}
    multiples = placed_multiples(TREE, answers)
    turn_bet, river_bet = multiples["turn"] > 0, multiples["river"] > 0
    # 0 win (ante events 1..10), 1 tie (11), 2 loss (12)
    result = np.where(ante_ev <= N_CATEGORIES, 0, ante_ev - N_CATEGORIES)
    showdown = 2 + result
    events = {
        "ante": ante_ev,
        "flop": np.where(played, 1 + result, 0),
        "turn": np.where(played, np.where(turn_bet, showdown, 1), 0),
        "river": np.where(played, np.where(river_bet, showdown, 1), 0),
    }
    stakes = {"ante": np.full(codes.size, ante, i64)}
    stakes.update({bet: m.astype(i64) * ante for bet, m in multiples.items()})
    if "bonus" in offered:
        events["bonus"] = (codes // nj) % nb
        stakes["bonus"] = np.full(codes.size, rules.stakes["bonus"], i64)
    if "jackpot" in offered:
        events["jackpot"] = codes % nj
        stakes["jackpot"] = np.full(codes.size, rules.stakes["jackpot"], i64)
    return int(codes.size), events, stakes, took


def kernel_head(rules: HoldemBonusRules) -> tuple:
    """The CUDA kernel's game argument: flags (1 Bonus offered, 2 Jackpot offered, 4 the
    Jackpot hand uses all seven cards)."""
    offered = bets(rules)
    jp = rules.jackpot
    flags = (
        int("bonus" in offered)
        | int("jackpot" in offered) << 1
        | int(jp is not None and jp.cards == "all_seven") << 2
    )
    return (np.int32(flags),)

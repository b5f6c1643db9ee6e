"""Ultimate Texas Hold'em's bets, decision tree, events and returns (the return tables) and the
decoding of the joint outcome code, in numpy (reading them imports no JAX); the settlement that
produces the events is :mod:`gpusim.games.ultimate_holdem.settlement`.

Rules (the standard published rules): the player places an Ante and an equal Blind (and may add
Trips). Seeing his hole cards he plays 4x or 3x the Ante, or checks; after a check, seeing the
flop, he plays 2x or checks; after a second check, seeing the whole board, he plays 1x or folds
(losing the Ante and the Blind). Best five of seven decides; the dealer qualifies with
``rules.dealer_qualifier``.

Events (fixed tuples, the rows of the return tables; ``c`` runs over ``CATEGORY_KEYS``, the
player's final seven-card hand, low to high, royal flush last):

- ``ante``: ``fold``; ``win`` (1:1, the dealer qualified); ``dealer_not_qualified`` (push, who
  ever wins); ``tie`` (push); ``loss`` (the dealer qualified).
- ``blind``: ``fold``; ``win:c`` (pays the Blind paytable for ``c``, pushes below its lowest
  line); ``tie`` (push); ``loss``.
- ``play``: ``fold`` (not placed); ``win`` (1:1); ``tie``; ``loss`` (whether or not the dealer
  qualified).
- ``trips`` (only when offered): ``c``, paid by the Trips paytable whatever the dealer holds,
  folds included. With ``trips_must_beat``: ``beat:c`` when the player beats the dealer (pays
  the paytable) and ``no_beat:c`` otherwise (a tie, a loss or a fold: lost).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.ultimate_holdem.rules import UltimateHoldemRules
from gpusim.strategy.tree import Action, DecisionPoint, placed_multiples, taken

__all__ = [
    "BETS",
    "DECISIONS",
    "N_BINS",
    "TREE",
    "bets",
    "event_names",
    "event_returns",
    "joint_decode",
]

BETS = ("ante", "blind", "play", "trips")
TREE = (
    DecisionPoint(
        "preflop",
        actions=(
            Action("check", next="flop"),
            Action("play_3x", {"play": 3}),
            Action("play_4x", {"play": 4}),
        ),
        sees=(0, 1),  # the hole cards
    ),
    DecisionPoint(
        "flop",
        actions=(Action("check", next="river"), Action("play_2x", {"play": 2})),
        sees=(0, 1, 4, 5, 6),  # + the flop
    ),
    DecisionPoint(
        "river",
        actions=(Action("fold", folds=True), Action("play_1x", {"play": 1})),
        sees=(0, 1, 4, 5, 6, 7, 8),  # + the turn and the river
    ),
)
"""The decision tree: Play 4x (2), 3x (1) or check (0) on the hole cards; after a check, Play
2x (1) or check (0) on the flop; after a second check, Play 1x (1) or fold (0) on the river."""
DECISIONS = tuple(p.name for p in TREE)

N_CATEGORIES = len(CATEGORY_KEYS)
_ANTE_EVENTS = ("fold", "win", "dealer_not_qualified", "tie", "loss")
_BLIND_EVENTS = ("fold",) + tuple(f"win:{c}" for c in CATEGORY_KEYS) + ("tie", "loss")
_PLAY_EVENTS = ("fold", "win", "tie", "loss")
_TRIPS_BEAT_EVENTS = tuple(f"beat:{c}" for c in CATEGORY_KEYS) + tuple(
    f"no_beat:{c}" for c in CATEGORY_KEYS)


def bets(rules: UltimateHoldemRules) -> tuple[str, ...]:
    """Bets offered by the config: ante, blind, play, and trips when its stake is > 0."""
    return BETS if rules.stakes["trips"] > 0 else BETS[:3]


def event_names(rules: UltimateHoldemRules) -> dict[str, tuple[str, ...]]:
    trips = _TRIPS_BEAT_EVENTS if rules.trips_must_beat else CATEGORY_KEYS
    names = {"ante": _ANTE_EVENTS, "blind": _BLIND_EVENTS, "play": _PLAY_EVENTS, "trips": trips}
    return {bet: names[bet] for bet in bets(rules)}


def _returns_by_category(table, push: int) -> list[int | Fraction]:
    """1 + pay per category (CATEGORY_KEYS order) of a paytable keyed by category names;
    ``push`` (the return) for a category it does not list."""
    return [1 + table[c] if c in table else push for c in CATEGORY_KEYS]


def event_returns(rules: UltimateHoldemRules) -> dict[str, tuple[int | Fraction, ...]]:
    """Amount returned per unit staked, for every event of every offered bet (0 = lost).

    ``net = stake * (returns[bet][event] - 1)`` for a placed bet; the Blind's entries may be
    Fractions (a 3:2 flush returns 5/2), which the config's stakes keep whole in money.
    """
    blind = _returns_by_category(rules.blind_paytable, 1)
    out: dict[str, tuple] = {
        "ante": (0, 2, 1, 1, 0),
        "blind": (0, *blind, 1, 0),
        "play": (0, 2, 1, 0),
    }
    if "trips" in bets(rules):
        trips = _returns_by_category(rules.trips_paytable, 0)
        out["trips"] = tuple(trips + [0] * N_CATEGORIES if rules.trips_must_beat else trips)
    return out


# --- the joint outcome code (kernels/settle_ultimate_holdem.cuh) ----------------------------------

N_PATHS, N_OUTCOMES = 5, 6
N_BINS = N_PATHS * N_OUTCOMES * N_CATEGORIES
"""``code = (path * 6 + outcome) * 10 + category``: 300 codes, with or without Trips.

path: 0 Play 4x, 1 Play 3x, 2 Play 2x on the flop, 3 Play 1x on the river, 4 fold (the Play
multiple is ``4 - path``); outcome: 0 fold, 1 player wins and the dealer qualifies, 2 player
wins and the dealer does not, 3 tie, 4 dealer wins and qualifies, 5 dealer wins and does not;
category: the player's final hand (CATEGORY_KEYS, royal flush 9)."""

ANTE_OF_OUTCOME = (0, 1, 2, 3, 4, 2)
PLAY_OF_OUTCOME = (0, 1, 1, 2, 3, 3)
# the Blind: fold, win:c (1 + c, filled in per category), tie, loss
BLIND_OF_OUTCOME = (0, -1, -1, 1 + N_CATEGORIES, 2 + N_CATEGORIES, 2 + N_CATEGORIES)
BEATS = (False, True, True, False, False, False)
"""Per outcome: the player beat the dealer (Trips with ``trips_must_beat``)."""


def joint_decode(rules: UltimateHoldemRules) -> tuple[int, dict, dict, dict]:
    """(n_bins, {bet: (n_bins,) int64 event}, {bet: (n_bins,) int64 stake}, {point: (n_bins,)
    int64 action taken, -1 = not reached}) of every code (:data:`N_BINS`); the Play stake is
    the tree's (:data:`TREE`). Codes no round produces (a fold with a showdown outcome) decode
    to something harmless."""
    offered = bets(rules)
    ante = rules.stakes.ante
    i64 = np.int64
    codes = np.arange(N_BINS, dtype=i64)
    category = codes % N_CATEGORIES
    outcome = (codes // N_CATEGORIES) % N_OUTCOMES
    path = codes // (N_CATEGORIES * N_OUTCOMES)
    answers = {"preflop": np.select([path == 0, path == 1], [2, 1], 0).astype(i64),
               "flop": (path == 2).astype(i64), "river": (path == 3).astype(i64)}
    blind = np.array(BLIND_OF_OUTCOME, i64)[outcome]
    events = {
        "ante": np.array(ANTE_OF_OUTCOME, i64)[outcome],
        "blind": np.where(blind < 0, 1 + category, blind),
        "play": np.array(PLAY_OF_OUTCOME, i64)[outcome],
    }
    stakes = {"ante": np.full(codes.size, ante, i64), "blind": np.full(codes.size, ante, i64),
              "play": placed_multiples(TREE, answers)["play"].astype(i64) * ante}
    if "trips" in offered:
        beat = np.array(BEATS)[outcome]
        lost = ~beat & rules.trips_must_beat
        events["trips"] = category + N_CATEGORIES * lost
        stakes["trips"] = np.full(codes.size, rules.stakes["trips"], i64)
    took = {p: v.astype(i64) for p, v in taken(TREE, answers).items()}
    return int(codes.size), events, stakes, took

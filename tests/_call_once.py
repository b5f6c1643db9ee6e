"""Casino Hold'em's exact pieces as the tests call them with a config's rules: the hold'em
call-once shape engine's functions (gpusim/games/holdem/call_once*.py), which take the shape's
numbers (:func:`~gpusim.games.holdem.call_once_shape.prices_of`), the dealer's qualifying rank
and the side bet's pair of aces."""

from __future__ import annotations

import numpy as np

from gpusim.games.holdem import call_once
from gpusim.games.holdem.call_once_counts import solve_counts
from gpusim.games.holdem.call_once_design import line_classes, line_matrix, side_class_counts
from gpusim.games.holdem.call_once_shape import prices_of
from gpusim.games.holdem.call_once_shape import qualifier_rank as _qualifier_of

__all__ = ["aa_bonus_class", "aa_bonus_pays", "analyse", "ante_line_matrix", "ante_pays",
           "five_card_aa_classes", "optimal_decisions", "qualifier_rank", "solve_counts"]

ACES = 1 << 12
"""The side bet's pair of chosen ranks: aces."""


def qualifier_rank(rules) -> int:
    """The lowest seven-card rank with which the config's dealer qualifies."""
    return _qualifier_of(rules.game_def)


def ante_pays(rules) -> np.ndarray:
    """(10,) int64 Ante pay (X of X:1) by the player's pay class."""
    return np.array(prices_of(rules).ante_pays, np.int64)


def aa_bonus_pays(rules) -> np.ndarray:
    """(11,) int64 AA Bonus pay by class (a pair of aces: class 10); -1 = the bet loses."""
    return np.array(prices_of(rules).side_pays, np.int64)


def aa_bonus_class(rank5: np.ndarray) -> np.ndarray:
    return call_once.side_class(rank5, ACES)


def five_card_aa_classes() -> tuple[int, ...]:
    """Five-card hands (of C(52, 5)) per AA Bonus class."""
    return side_class_counts(ACES)


def ante_line_matrix(rules, lines: tuple[str, ...]) -> np.ndarray:
    """(10, L) 0/1: which Ante line pays each pay class."""
    return line_matrix(line_classes(rules, "ante", lines))


def optimal_decisions(counts, rules, *, with_side_bet: bool) -> np.ndarray:
    return call_once.optimal_decisions(counts, prices_of(rules), with_side_bet=with_side_bet)


def analyse(counts, rules, decisions: np.ndarray, strategy: str) -> dict:
    return call_once.analyse(counts, prices_of(rules), decisions, strategy, game=rules.game,
                             config=rules.name)

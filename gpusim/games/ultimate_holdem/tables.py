"""Ultimate Texas Hold'em's table strategy (``optimal``): the play-once hold'em shape's tables
(:mod:`gpusim.games.holdem.play_once_tables`) at this game's three points."""

from __future__ import annotations

from dataclasses import dataclass

from gpusim.games.holdem.play_once_tables import PlayOnceTables, _flop, _preflop, _river
from gpusim.games.ultimate_holdem.events import TREE

__all__ = ["UltimateHoldemTables"]


@dataclass(frozen=True)
class UltimateHoldemTables(PlayOnceTables):
    """``{"preflop", "flop", "river"}`` action indices: Play 4x (2), 3x (1) or check; Play 2x
    (1) or check; Play 1x (1) or fold."""

    points = TREE
    _point_fns = {"preflop": _preflop, "flop": _flop, "river": _river}

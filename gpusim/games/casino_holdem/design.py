"""Casino Hold'em's paytables for ``gpusim design``: the call-once hold'em shape's models
(:mod:`gpusim.games.holdem.call_once_design`) under the game's names: the AA Bonus's hit counts
per line (:func:`aa_bonus_hits`), the AA Bonus as it plays where a fold forfeits it
(:class:`AaBonusUnderStrategy`, :func:`aa_bonus_forfeit_model`) and the Ante's main-game model
(:class:`AnteModel`, :func:`ante_main_model`), priced under the optimal call re-optimised per
candidate by the designer's searches (:mod:`gpusim.designer.sidebet`,
:mod:`gpusim.designer.maingame`).
"""

from __future__ import annotations

import numpy as np

from gpusim.games.casino_holdem.exact import line_classes
from gpusim.games.holdem.call_once_design import (
    AnteModel,
    ante_main_model,
    line_matrix,
    side_class_counts,
    side_forfeit_model,
    side_hits,
)
from gpusim.games.holdem.call_once_design import SideUnderStrategy as AaBonusUnderStrategy

__all__ = ["AaBonusUnderStrategy", "AnteModel", "aa_bonus_forfeit_model", "aa_bonus_hits",
           "ante_line_matrix", "ante_main_model"]


def ante_line_matrix(lines: tuple[str, ...]) -> np.ndarray:
    """(10, L) 0/1: which Ante line pays each pay class (category, royal flush last); the
    ``straight_or_less`` line pays every class up to a straight (as
    :func:`gpusim.games.casino_holdem.exact.ante_pays` reads the paytable)."""
    return line_matrix(line_classes(None, "ante", lines))


def _five_card_aa_classes() -> tuple[int, ...]:
    """Five-card hands (of C(52, 5)) per AA Bonus class (pay class; pair of aces = 10)."""
    return side_class_counts(1 << 12)


aa_bonus_hits = side_hits
"""({line: five-card hands it pays}, hands) of the AA Bonus (hole + flop)."""
aa_bonus_forfeit_model = side_forfeit_model
"""The AA Bonus where a fold forfeits it, priced under a strategy."""

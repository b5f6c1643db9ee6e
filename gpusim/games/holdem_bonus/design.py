"""The Bonus's hit counts for ``gpusim design`` (numpy only: no JAX import, so a side-bet search
starts at once): :func:`bonus_hits`."""

from __future__ import annotations

import numpy as np

from gpusim.cards import HAND_CLASSES, hand_class_index
from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES, BONUS_LINES

__all__ = ["bonus_hits"]


def bonus_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """({line: deals it pays}, deals) over every (player hole, dealer hole) pair, C(52,2) x
    C(50,2) deals, counted from the starting-hand classes; lines in paytable order, only those
    the config's paytable has (``tests/test_designer.py`` prices it through the exact module's
    ``bonus_table`` too)."""
    lines = [ln for ln in BONUS_LINES if ln in rules.bonus_paytable.as_dict()]
    i, j = np.triu_indices(52, 1)
    combos = np.bincount(hand_class_index(i, j), minlength=len(HAND_CLASSES))
    per = 1225  # dealer hands per player hole
    hits = {ln: per * sum(int(combos[HAND_CLASSES.index(c)]) for c in cls)
            for ln, cls in BONUS_LINE_CLASSES.items()}
    if "AA_vs_dealer_AA" in lines:
        # 6 player AA; the dealer holds the other two aces in 1 of 1,225 hands
        hits["AA_vs_dealer_AA"] = 6
        hits["AA"] -= 6
    return {ln: hits[ln] for ln in lines}, 1326 * per

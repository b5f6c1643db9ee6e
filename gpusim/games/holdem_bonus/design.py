"""The Bonus's hit counts and the Jackpot's fixed prizes for ``gpusim design`` (numpy only: no
JAX import, so a side-bet search starts at once): :func:`bonus_hits`, :func:`jackpot_model`,
counted by the street-bets hold'em shape (:mod:`gpusim.games.holdem.streets_design`)."""

from __future__ import annotations

from gpusim.games.holdem.streets_design import JackpotModel, hits_of
from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES, BONUS_LINES, JACKPOT_LINES

__all__ = ["JackpotModel", "bonus_hits", "jackpot_model"]


def bonus_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """({line: deals it pays}, deals) over every (player hole, dealer hole) pair, C(52,2) x
    C(50,2) deals, counted from the starting-hand classes; lines in paytable order, only those
    the config's paytable has (``tests/test_designer.py`` prices it through the exact module's
    ``bonus_table`` too)."""
    lines = [ln for ln in BONUS_LINES if ln in rules.bonus_paytable.as_dict()]
    return hits_of(BONUS_LINE_CLASSES, "AA_vs_dealer_AA", lines)


def jackpot_model(rules, bet: str) -> JackpotModel:
    """The Jackpot's fixed prizes for the designer (lines in paytable order)."""
    from gpusim.games.holdem_bonus.exact import prices_of

    lines = tuple(ln for ln in JACKPOT_LINES if ln in rules.jackpot.prizes.as_dict())
    return JackpotModel(prices_of(rules), lines)

"""Exact event probabilities of Texas Hold'em Bonus's Bonus and Jackpot (no decision touches
either), by combinatorics: :func:`side_bet_exact` (the five- and seven-card category counts are
the street-bets hold'em shape's, :mod:`gpusim.games.holdem.streets`)."""

from __future__ import annotations

from fractions import Fraction

from gpusim.cards import class_combos
from gpusim.games.holdem_bonus.events import BONUS_HANDS, bets

__all__ = ["side_bet_exact"]


def side_bet_exact(rules) -> dict[str, dict[str, Fraction]]:
    """{bet: {event: probability}} of the offered Bonus and Jackpot."""
    from gpusim.games.holdem.streets import FIVE_CARD, SEVEN_CARD

    out: dict[str, dict[str, Fraction]] = {}
    b = bets(rules)
    if "bonus" in b:
        # player hole (1326) x dealer hole (C(50,2) = 1225); a dealer AA behind a player AA is
        # the one pair of the two remaining aces
        p = {}
        for hand in BONUS_HANDS:
            if hand == "AA_vs_AA":
                p[hand] = Fraction(6, 1326 * 1225)
            elif hand == "AA":
                p[hand] = Fraction(6 * 1224, 1326 * 1225)
            elif hand != "other":
                p[hand] = Fraction(class_combos(hand), 1326)
        p["other"] = 1 - sum(p.values(), Fraction(0))
        out["bonus"] = p
    if "jackpot" in b:
        table = FIVE_CARD if rules.jackpot.cards == "hole_and_flop" else SEVEN_CARD
        tot = sum(table.values())
        out["jackpot"] = {k: Fraction(v, tot) for k, v in table.items()}
    return out

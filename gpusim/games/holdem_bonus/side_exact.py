"""Exact event probabilities of Texas Hold'em Bonus's Bonus and Jackpot (no decision touches
either), by combinatorics: :func:`side_bet_exact`."""

from __future__ import annotations

from fractions import Fraction

from gpusim.cards import class_combos
from gpusim.games.holdem_bonus.events import BONUS_HANDS, bets

__all__ = ["side_bet_exact"]

# Published category counts of the best five-card hand (royal flush split from straight flush):
# over the 2,598,960 five-card hands and over the 133,784,560 seven-card hands.
_FIVE_CARD = {
    "high_card": 1302540, "pair": 1098240, "two_pair": 123552, "three_of_a_kind": 54912,
    "straight": 10200, "flush": 5108, "full_house": 3744, "four_of_a_kind": 624,
    "straight_flush": 36, "royal_flush": 4,
}
_SEVEN_CARD = {
    "high_card": 23294460, "pair": 58627800, "two_pair": 31433400, "three_of_a_kind": 6461620,
    "straight": 6180020, "flush": 4047644, "full_house": 3473184, "four_of_a_kind": 224848,
    "straight_flush": 37260, "royal_flush": 4324,
}


def side_bet_exact(rules) -> dict[str, dict[str, Fraction]]:
    """{bet: {event: probability}} of the offered Bonus and Jackpot."""
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
        table = _FIVE_CARD if rules.jackpot.cards == "hole_and_flop" else _SEVEN_CARD
        tot = sum(table.values())
        out["jackpot"] = {k: Fraction(v, tot) for k, v in table.items()}
    return out

"""Exact event probabilities of Ultimate Texas Hold'em's Trips when it pays on the player's
hand alone (no ``trips_must_beat``): the category of the best five of seven cards
(:func:`gpusim.exact.seven_cards.seven_card_counts`).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from gpusim.exact.seven_cards import seven_card_counts

__all__ = ["seven_card_counts", "side_bet_exact"]


def side_bet_exact(rules) -> dict[str, dict[str, Fraction]]:
    """{"trips": {category: probability}} when Trips is offered and pays on the player's hand
    alone; {} otherwise (with ``trips_must_beat`` its events depend on the decisions)."""
    from gpusim.games.ultimate_holdem.events import bets

    if "trips" not in bets(rules) or rules.trips_must_beat:
        return {}
    counts = seven_card_counts()
    total = comb(52, 7)
    return {"trips": {c: Fraction(n, total) for c, n in counts.items()}}

"""Every seven-card hand's category, counted by combinatorics: :func:`seven_card_counts`, the
exact distribution of a bet paid on a player's best five of seven (Ultimate Texas Hold'em's
Trips, any hold'em side bet on the final hand), over all C(52, 7) = 133,784,560 hands.

The count runs over the 49,205 rank multisets of seven cards (each rank 0..4 times). A
multiset's suit assignments number prod C(4, n_r). Without five cards of one suit the
category follows from the ranks alone (quads, full house, straight, trips, two pair, pair,
high card). Five or more of one suit need five distinct ranks, which leave two cards, too few
for quads or a full house: for each set ``S`` of five
or more of the distinct ranks, the assignments whose suit ``s`` holds exactly ``S`` number
prod_{r in S} C(3, n_r - 1) * prod_{r not in S} C(3, n_r), times 4 suits (only one suit can
hold five of seven), and make a straight flush (royal: the ace-high one) when ``S`` holds a
run of five, else a flush; the rest of the multiset's assignments keep its rank category.
"""

from __future__ import annotations

import itertools
from functools import cache
from math import comb

from gpusim.cards import CATEGORY_KEYS

__all__ = ["seven_card_counts"]

_STRAIGHTS = tuple(frozenset(((top - k) % 13) for k in range(5)) for top in range(3, 13))
"""Rank sets of the ten straights, wheel (5-high: A 2 3 4 5) first, ace-high last."""


def _best_straight(ranks: frozenset) -> int:
    """Index into _STRAIGHTS of the highest straight in ``ranks``, or -1."""
    return max((i for i, s in enumerate(_STRAIGHTS) if s <= ranks), default=-1)


def _rank_category(counts: tuple[int, ...]) -> str:
    present = frozenset(r for r, n in enumerate(counts) if n)
    k = sorted((n for n in counts if n), reverse=True)
    if k[0] == 4:
        return "four_of_a_kind"
    if k[0] == 3 and k[1] >= 2:
        return "full_house"
    if _best_straight(present) >= 0:
        return "straight"
    if k[0] == 3:
        return "three_of_a_kind"
    if k[0] == 2:
        return "two_pair" if k[1] == 2 else "pair"
    return "high_card"


def _multisets(n: int = 7, ranks: int = 13):
    """Every rank count vector (length ``ranks``, each 0..4) summing to ``n``."""
    if ranks == 1:
        if n <= 4:
            yield (n,)
        return
    for k in range(min(n, 4) + 1):
        for rest in _multisets(n - k, ranks - 1):
            yield (k, *rest)


@cache
def seven_card_counts() -> dict[str, int]:
    """{category: number of seven-card hands whose best five are it}, CATEGORY_KEYS order
    (royal flush apart from the straight flush); sums to C(52, 7)."""
    out = dict.fromkeys(CATEGORY_KEYS, 0)
    for counts in _multisets():
        total = 1
        for n in counts:
            total *= comb(4, n)
        distinct = [r for r, n in enumerate(counts) if n]
        suited = 0
        if len(distinct) >= 5:
            for size in range(5, len(distinct) + 1):
                for chosen in itertools.combinations(distinct, size):
                    ways = 4
                    for r in distinct:
                        ways *= comb(3, counts[r] - 1) if r in chosen else comb(3, counts[r])
                    if not ways:
                        continue
                    top = _best_straight(frozenset(chosen))
                    key = "flush" if top < 0 else (
                        "royal_flush" if top == len(_STRAIGHTS) - 1 else "straight_flush")
                    out[key] += ways
                    suited += ways
        out[_rank_category(counts)] += total - suited
    return out

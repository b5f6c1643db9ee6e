"""Exact showdown counts for one player situation: every board completion and dealer hand.

Seen: the player's two hole cards and 3, 4 or 5 board cards. Unseen: the dealer's two cards
and the rest of the board, all equally likely from the 52 - 2 - k remaining cards. Counts are
taken over every (board completion, dealer hand) pair:

- flop seen (k = 3): C(47, 2) completions x C(45, 2) dealer hands = 1,070,190 outcomes;
- turn seen (k = 4): 46 rivers x C(45, 2) = 45,540;
- river seen (k = 5): C(45, 2) = 990.

All outcomes are evaluated with the vectorised evaluator in one batch (brute force; a few tens
of milliseconds per flop situation), so this serves per-round decisions (``gpusim play``,
tests) and spot checks of the exact-analysis tables, not whole simulations.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from gpusim.evaluator import evaluate

__all__ = ["showdown_counts", "win_probability"]


@lru_cache(maxsize=4)
def _pairs(n: int) -> np.ndarray:
    """All index pairs i < j of range(n): (C(n, 2), 2) int32."""
    return np.asarray(list(itertools.combinations(range(n), 2)), dtype=np.int32).reshape(-1, 2)


def _check(hole, board) -> tuple[np.ndarray, np.ndarray]:
    h = np.asarray(hole, dtype=np.int32).reshape(-1)
    b = np.asarray(board, dtype=np.int32).reshape(-1)
    if h.size != 2:
        raise ValueError(f"hole: got {h.size} cards; give the player's 2 hole cards")
    if b.size not in (3, 4, 5):
        raise ValueError(f"board: got {b.size} cards; give 3, 4 or 5 board cards")
    seen = np.concatenate([h, b])
    if seen.min() < 0 or seen.max() > 51 or len(set(seen.tolist())) != seen.size:
        raise ValueError(f"cards: {seen.tolist()} must be distinct card codes 0..51")
    return h, b


def showdown_counts(hole, board) -> tuple[int, int, int, int]:
    """(wins, ties, losses, total) over every completion and dealer hand (see module doc).

    hole: 2 card codes; board: 3, 4 or 5 card codes (flop, + turn, + river).
    """
    h, b = _check(hole, board)
    rest = np.setdiff1d(np.arange(52, dtype=np.int32), np.concatenate([h, b]))
    missing = 5 - b.size
    dealer_pairs = _pairs(rest.size)  # indices into rest
    if missing == 0:
        completions = np.zeros((1, 0), dtype=np.int32)
    elif missing == 1:
        completions = np.arange(rest.size, dtype=np.int32)[:, None]
    else:
        completions = _pairs(rest.size)
    # Every (completion, dealer pair) with no card in common.
    comp_hit = np.zeros((len(completions), rest.size), dtype=bool)
    for j in range(completions.shape[1]):
        comp_hit[np.arange(len(completions)), completions[:, j]] = True
    clash = comp_hit[:, dealer_pairs[:, 0]] | comp_hit[:, dealer_pairs[:, 1]]
    ci, di = np.nonzero(~clash)

    boards = np.concatenate(
        [np.broadcast_to(b, (len(completions), b.size)), rest[completions]], axis=1
    )
    player = np.asarray(evaluate(np.concatenate([np.broadcast_to(h, (len(boards), 2)), boards], 1)))
    dealer_cards = np.concatenate([rest[dealer_pairs[di]], boards[ci]], axis=1)
    dealer = np.asarray(evaluate(dealer_cards))
    p = player[ci]
    wins = int(np.count_nonzero(p > dealer))
    ties = int(np.count_nonzero(p == dealer))
    total = int(len(ci))
    return wins, ties, total - wins - ties, total


def win_probability(hole, board) -> float:
    """P(win) = wins / total from :func:`showdown_counts` (a float, for display only)."""
    wins, _, _, total = showdown_counts(hole, board)
    return wins / total

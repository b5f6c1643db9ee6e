"""Per-board showdown counts: for every 5-card board and every player hole, how many of the
dealer's two-card hands lose to, tie with and beat the player's hand.

For a board B the 47 unseen cards form 1,081 two-card hands. All are ranked once (7-card
ranks from :func:`gpusim.evaluate.evaluate`). For the player's hole {a, b} the dealer holds
one of the 990 pairs that avoid a and b; by inclusion-exclusion

    below(a, b) = below_all - below_row_a - below_row_b      (pair {a, b} is never below itself)
    equal(a, b) = equal_all - equal_row_a - equal_row_b + 1  ({a, b} is counted in all three)

where ``*_all`` counts over all 1,081 pairs and ``*_row_x`` over the 46 pairs that hold card x.
The counts come from one sort per board, not from pairwise comparisons: the 1,081 ranks are
sorted (giving each hand its dense position = number of hands strictly below it), and a running
count over the sorted order of the hands holding each card gives the per-card counts at any
position. All counts are exact integers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpusim.evaluate import evaluate

__all__ = ["N_DEALER", "PAIR_I", "PAIR_J", "BoardCounts", "board_counts", "remaining_cards"]

N_DEALER = 990
"""Dealer hands per (board, player hole): C(45, 2)."""

PAIR_I, PAIR_J = (a.astype(np.int32) for a in np.triu_indices(47, 1))
"""(1081,) local indices (i < j) into the 47 unseen cards of a board: the two-card hands."""



@dataclass(frozen=True)
class BoardCounts:
    """Counts for nb boards x 1,081 player holes (hole k = rem[:, PAIR_I[k]], rem[:, PAIR_J[k]]);
    shapes for a 5-card board (a k-card board has 52 - k unseen cards and C(52 - k, 2) holes).

    rem: (nb, 47) int32 unseen cards, ascending.
    rank: (nb, 1081) uint32 the player's 7-card rank.
    below, equal: (nb, 1081) int32 dealer hands (of 990) the player beats / ties.
    not_qualified: (nb, 1081) int32 dealer hands ranked below the qualifier (or None).
    """

    rem: np.ndarray
    rank: np.ndarray
    below: np.ndarray
    equal: np.ndarray
    not_qualified: np.ndarray | None


def remaining_cards(boards: np.ndarray) -> np.ndarray:
    """boards: (nb, k) int distinct cards -> (nb, 52 - k) int32 unseen cards, ascending."""
    b = np.asarray(boards, dtype=np.int64)
    nb, k = b.shape
    live = np.ones((nb, 52), dtype=bool)
    live[np.arange(nb)[:, None], b] = False
    return np.nonzero(live)[1].reshape(nb, 52 - k).astype(np.int32)


def _run_bounds(sorted_vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For values sorted along the last axis: index of each value's first equal and one past its
    last equal (the counts of values strictly below and at most)."""
    n = sorted_vals.shape[-1]
    idx = np.arange(n, dtype=np.int32)
    new = np.ones(sorted_vals.shape, dtype=bool)
    new[..., 1:] = sorted_vals[..., 1:] != sorted_vals[..., :-1]
    start = np.maximum.accumulate(np.where(new, idx, 0), axis=-1)
    last = np.ones(sorted_vals.shape, dtype=bool)
    last[..., :-1] = new[..., 1:]
    stop = np.minimum.accumulate(np.where(last, idx + 1, n)[..., ::-1], axis=-1)[..., ::-1]
    return start.astype(np.int32), stop.astype(np.int32)


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(n, 1)
    return i.astype(np.int32), j.astype(np.int32)


def board_counts(boards: np.ndarray, qualifier: int | None = None) -> BoardCounts:
    """Showdown counts of every player hole on each board.

    boards: (nb, k) int distinct cards, k in 3..5 (k < 5: the hands as they stand, no more
    cards to come; n = 52 - k unseen cards, C(n, 2) holes, C(n - 2, 2) dealer hands).
    qualifier: the lowest dealer rank that qualifies (a rank from
    :func:`gpusim.evaluate.evaluate`), or None for no qualification.
    """
    b = np.asarray(boards, dtype=np.int32)
    nb, k = b.shape
    n = 52 - k
    pi, pj = (PAIR_I, PAIR_J) if n == 47 else _pairs(n)
    npairs = len(pi)
    rem = remaining_cards(b)
    hands = np.empty((nb, npairs, k + 2), dtype=np.int32)
    hands[:, :, :k] = b[:, None, :]
    hands[:, :, k] = rem[:, pi]
    hands[:, :, k + 1] = rem[:, pj]
    rank = np.asarray(evaluate(hands))

    # dense position of every hand on its board (number of hands strictly below it)
    key = (rank.astype(np.uint64) << np.uint64(11)) | np.arange(npairs, dtype=np.uint64)
    key.sort(axis=1)
    start, stop = _run_bounds(key >> np.uint64(11))
    order = (key & np.uint64(2047)).astype(np.intp)
    flat = ((np.arange(nb, dtype=np.intp) * npairs)[:, None] + order).ravel()
    below_all = np.empty(nb * npairs, dtype=np.int32)
    atmost_all = np.empty(nb * npairs, dtype=np.int32)
    below_all[flat] = start.ravel()
    atmost_all[flat] = stop.ravel()
    below_all = below_all.reshape(nb, npairs)
    atmost_all = atmost_all.reshape(nb, npairs)

    # held[k, n, x]: of the k lowest hands on board n (in sorted order), those holding card x.
    # A position below a hand's dense position is a hand strictly below it, so a row count
    # is one lookup. The running sum runs over k with whole (nb, 47) slices (numpy's
    # accumulate along a non-contiguous axis is ten times slower).
    step = np.zeros((npairs + 1, nb, n), dtype=np.int8)
    nn = np.arange(nb)[None, :]
    kk = np.arange(1, npairs + 1)[:, None]
    step[kk, nn, pi[order].T] = 1
    step[kk, nn, pj[order].T] = 1
    for pos in range(1, npairs + 1):
        np.add(step[pos - 1], step[pos], out=step[pos])
    held = step.reshape(-1)
    col = np.arange(nb, dtype=np.intp)[:, None] * n

    def at(pos: np.ndarray, card: np.ndarray) -> np.ndarray:
        return held[pos.astype(np.intp) * (nb * n) + col + card].astype(np.int32)

    bi, bj = at(below_all, pi), at(below_all, pj)
    ai, aj = at(atmost_all, pi), at(atmost_all, pj)
    below = below_all - bi - bj
    equal = (atmost_all - below_all) - (ai - bi) - (aj - bj) + 1
    nq = None
    if qualifier is not None:
        low = rank < np.uint32(qualifier)
        nq_all = low.sum(axis=1, dtype=np.int32)
        cols = np.arange(n, dtype=np.int32)[None, :]
        nq_row = at(np.broadcast_to(nq_all[:, None], (nb, n)), cols)
        nq = nq_all[:, None] - nq_row[:, pi] - nq_row[:, pj] + low.astype(np.int32)
    return BoardCounts(rem=rem, rank=rank, below=below, equal=equal, not_qualified=nq)

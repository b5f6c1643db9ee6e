"""Per-board showdown counts: for every 5-card board and every player hole, how many of the
dealer's two-card hands lose to, tie with and beat the player's hand.

For a board B the 47 unseen cards form 1,081 two-card hands. All are ranked once (7-card
ranks from :func:`gpusim.evaluate.evaluate`). For the player's hole {a, b} the dealer holds
one of the 990 pairs that avoid a and b; by inclusion-exclusion

    below(a, b) = below_all - below_row_a - below_row_b      (pair {a, b} is never below itself)
    equal(a, b) = equal_all - equal_row_a - equal_row_b + 1  ({a, b} is counted in all three)

where ``*_all`` counts over all 1,081 pairs and ``*_row_x`` over the 46 pairs that hold card x.
The counts come from sorted orders, not from pairwise comparisons: the 1,081 ranks are sorted
once per board (giving each hand its dense position = number of hands strictly below it), and
each of the 47 rows of the pair matrix is sorted by that position. All counts are exact
integers.
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

_COLS = np.arange(47, dtype=np.int32)
_PAIR_OF = np.full((47, 47), -1, dtype=np.int32)
_PAIR_OF[PAIR_I, PAIR_J] = np.arange(1081)
_PAIR_OF[PAIR_J, PAIR_I] = np.arange(1081)
_DIAG = np.arange(47)


@dataclass(frozen=True)
class BoardCounts:
    """Counts for nb boards x 1,081 player holes (hole k = rem[:, PAIR_I[k]], rem[:, PAIR_J[k]]).

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


def board_counts(boards: np.ndarray, qualifier: int | None = None) -> BoardCounts:
    """Showdown counts of every player hole on each board.

    boards: (nb, 5) int distinct cards. qualifier: the lowest dealer rank that qualifies
    (a 7-card rank from :func:`gpusim.evaluate.evaluate`), or None for no qualification.
    """
    b = np.asarray(boards, dtype=np.int32)
    nb = b.shape[0]
    rem = remaining_cards(b)
    hands = np.empty((nb, 1081, 7), dtype=np.int32)
    hands[:, :, :5] = b[:, None, :]
    hands[:, :, 5] = rem[:, PAIR_I]
    hands[:, :, 6] = rem[:, PAIR_J]
    rank = np.asarray(evaluate(hands))

    # dense position of every hand on its board (number of hands strictly below it)
    key = (rank.astype(np.uint64) << np.uint64(11)) | np.arange(1081, dtype=np.uint64)
    key.sort(axis=1)
    start, stop = _run_bounds(key >> np.uint64(11))
    order = (key & np.uint64(2047)).astype(np.int64)
    below_all = np.empty((nb, 1081), dtype=np.int32)
    atmost_all = np.empty((nb, 1081), dtype=np.int32)
    np.put_along_axis(below_all, order, start, axis=1)
    np.put_along_axis(atmost_all, order, stop, axis=1)

    # rows of the pair matrix, by dense position; the diagonal sorts last and never counts
    mat = np.full((nb, 47, 47), 2047, dtype=np.int32)
    mat[:, PAIR_I, PAIR_J] = below_all
    mat[:, PAIR_J, PAIR_I] = below_all
    rkey = (mat << 6) | _COLS
    rkey.sort(axis=2)
    rstart, rstop = _run_bounds(rkey >> 6)
    rcol = (rkey & 63).astype(np.int64)
    row_below = np.empty((nb, 47, 47), dtype=np.int32)
    row_atmost = np.empty((nb, 47, 47), dtype=np.int32)
    np.put_along_axis(row_below, rcol, rstart, axis=2)
    np.put_along_axis(row_atmost, rcol, rstop, axis=2)

    bi = row_below[:, PAIR_I, PAIR_J]
    bj = row_below[:, PAIR_J, PAIR_I]
    below = below_all - bi - bj
    equal = (
        (atmost_all - below_all)
        - (row_atmost[:, PAIR_I, PAIR_J] - bi)
        - (row_atmost[:, PAIR_J, PAIR_I] - bj)
        + 1
    )
    nq = None
    if qualifier is not None:
        # a hand is below the qualifier iff its dense position is below the count of such hands
        nq_all = (rank < np.uint32(qualifier)).sum(axis=1, dtype=np.int32)
        low = mat < nq_all[:, None, None]
        nq_row = low.sum(axis=2, dtype=np.int32)
        nq = (
            nq_all[:, None]
            - nq_row[:, PAIR_I]
            - nq_row[:, PAIR_J]
            + (rank < np.uint32(qualifier)).astype(np.int32)
        )
    return BoardCounts(rem=rem, rank=rank, below=below, equal=equal, not_qualified=nq)

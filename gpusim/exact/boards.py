"""Per-board showdown counts: for every 5-card board and every player hole, how many of the
dealer's two-card hands lose to, tie with and beat the player's hand.

For a board B the 47 unseen cards form 1,081 two-card hands. All are ranked once (7-card
ranks from :func:`gpusim.evaluator.evaluate`). For the player's hole {a, b} the dealer holds
one of the 990 pairs that avoid a and b; by inclusion-exclusion

    below(a, b) = below_all - below_row_a - below_row_b      (pair {a, b} is never below itself)
    equal(a, b) = equal_all - equal_row_a - equal_row_b + 1  ({a, b} is counted in all three)

where ``*_all`` counts over all 1,081 pairs and ``*_row_x`` over the 46 pairs that hold card x.
The counts come from sorts, not from pairwise comparisons: the 1,081 ranks are sorted (each
hand's dense position = number of hands strictly below it, with the tie runs' bounds), then the
hands' cards are stably sorted by card, which lists the 46 hands holding each card in rank
order; the tie-run bounds within each card's list are the per-card counts. All counts are
exact integers. Ranks come from :func:`gpusim.evaluator.evaluate_board_pairs`, which builds the
board's suit masks once per board instead of once per hand. Where a compiled loop can be built
(:mod:`gpusim.exact._native`) the ranks come from its C++ twin of that evaluator, and after the
sort the tie runs and the per-card rows run there too; else JAX and the numpy passes below. Both
give the same arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpusim.exact import _native
from gpusim.exact._profile import stage

__all__ = [
    "N_DEALER",
    "PAIR_I",
    "PAIR_J",
    "BoardCounts",
    "SortedCounts",
    "board_counts",
    "rank_hands",
    "remaining_cards",
    "sorted_counts",
]

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


def _run_bounds(vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows of values sorted along the last axis, (m, L): index in its row of each value's
    first equal and one past its last equal (the counts of values strictly below and at most).

    One flat pass (a cumulative run id over every row at once), not a row-by-row scan.
    """
    m, n = vals.shape
    v = vals.reshape(-1)
    new = np.empty(m * n, dtype=bool)
    new[0] = True
    np.not_equal(v[1:], v[:-1], out=new[1:])
    new[::n] = True
    firsts = np.flatnonzero(new).astype(np.int32)
    run = np.cumsum(new, dtype=np.int32) - 1
    ends = np.empty_like(firsts)
    ends[:-1] = firsts[1:]
    ends[-1] = m * n
    offset = (np.arange(m, dtype=np.int32) * n)[:, None]
    return firsts[run].reshape(m, n) - offset, ends[run].reshape(m, n) - offset


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(n, 1)
    return i.astype(np.int32), j.astype(np.int32)


def _scatter(values: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """out[flat[i]] = values.flat[i]: the inverse of a gather, flat."""
    out = np.empty(values.size, dtype=values.dtype)
    out[flat] = values.reshape(-1)
    return out


@dataclass(frozen=True)
class SortedCounts:
    """:class:`BoardCounts` in each board's rank order (hands ascending by rank).

    rem: (nb, n) int32 unseen cards; order: (nb, P) intp hand (pair index) at each sorted
    position; cards: (nb, P, 2) uint8 local indices of its two cards; hole: (nb, P) int32 its
    hole index 0..1325 (:func:`gpusim.board_index.hole_index` of its two cards);
    rank: (nb, P) uint32;
    below, equal: (nb, P) int32; not_qualified: (nb, P) int32 or None.
    """

    rem: np.ndarray
    order: np.ndarray
    cards: np.ndarray
    hole: np.ndarray
    rank: np.ndarray
    below: np.ndarray
    equal: np.ndarray
    not_qualified: np.ndarray | None


def sorted_counts(boards: np.ndarray, qualifier: int | None = None, *,
                  native: bool | None = None) -> SortedCounts:
    """:func:`board_counts` without restoring the hands' order (the solvers' fast path).

    native: None runs the compiled sort and inclusion-exclusion where it is available
    (:func:`gpusim.exact._native.status`), False the numpy passes, True requires the compiled
    one; the counts are the same.
    """
    b = np.asarray(boards, dtype=np.int32)
    nb, k = b.shape
    n = 52 - k
    pi, pj = (PAIR_I, PAIR_J) if n == 47 else _pairs(n)
    npairs = len(pi)
    rem = remaining_cards(b)
    if native is None:
        native = _native.loaded_library() is not None
    with stage("rank the hands (evaluator)"):
        # each hand's sort key: rank << 11 | hand, so that the sort gives every hand's dense
        # position on its board (the number of hands strictly below it)
        if native:
            key = _native.rank_keys_native(b, rem, pi, pj)
        else:
            from gpusim.evaluator import evaluate_board_pairs  # JAX: imported only here

            rank = evaluate_board_pairs(b, rem[:, pi], rem[:, pj])
            key = (rank.astype(np.uint64) << np.uint64(11)) | np.arange(npairs, dtype=np.uint64)
    with stage("sort the hands"):
        key.sort(axis=1)
    if native:
        with stage("tie runs, inclusion-exclusion (compiled)"):
            return SortedCounts(rem=rem, **_native.sorted_counts_native(key, pi, pj, rem,
                                                                        qualifier))
    with stage("tie runs"):
        order = (key & np.uint64(2047)).astype(np.intp)
        srank = (key >> np.uint64(11)).astype(np.uint32)
        start, stop = _run_bounds(srank)
    with stage("inclusion-exclusion (per-card rows)"):
        return _exclude(rem, order, srank, start, stop, pi, pj, qualifier)


def _exclude(rem, order, srank, start, stop, pi, pj, qualifier) -> SortedCounts:
    """Remove the dealer hands that share a player card (see the module docstring)."""
    nb, npairs = order.shape
    n = rem.shape[1]

    # Per card x, the n - 1 hands holding x in sorted order: a stable sort of the hands'
    # cards (two entries per hand, in sorted-hand order) by card. Within card x's group the
    # run bounds of the hands' dense positions count the hands holding x that rank below /
    # at most each one: the inclusion-exclusion rows, read without any (hands x cards) array.
    held = np.empty((nb, npairs, 2), dtype=np.uint8)
    held[..., 0] = pi[order]
    held[..., 1] = pj[order]
    by_card = np.argsort(held.reshape(nb, 2 * npairs), axis=1, kind="stable")
    pos = by_card >> 1  # sorted position of the entry's hand
    row_off = (np.arange(nb, dtype=np.intp) * npairs)[:, None]
    row_lo, row_hi = _run_bounds(start.reshape(-1)[(pos + row_off).ravel()].reshape(-1, n - 1))
    to_entry = (by_card + 2 * row_off).ravel()  # entry 2 p + side of its board
    # Each entry's row counts (at most n - 1 < 128 each, so a hand's two cards' sum fits a
    # byte) go into one scatter, and the two cards' rows are added as packed bytes.
    packed = row_lo | (row_hi << 8)
    n_low = None
    if qualifier is not None:
        # The hands below the qualifier are the first n_low sorted positions, so card x's
        # hands below it are its entries at positions < n_low: a third byte per entry.
        n_low = (srank < np.uint32(qualifier)).sum(axis=1, dtype=np.int32)
        low_row = (pos.reshape(nb, n, n - 1) < n_low[:, None, None]).sum(axis=2,
                                                                          dtype=np.int32)
        packed = packed.reshape(nb, n, n - 1) | (low_row << 16)[..., None]
    dtype = np.int16 if n_low is None else np.int32
    rows = _scatter(packed.astype(dtype), to_entry).reshape(nb, npairs, 2)
    rows = rows[..., 0] + rows[..., 1]
    below_rows, atmost_rows = (rows & 255).astype(np.int32), ((rows >> 8) & 255).astype(np.int32)
    below = start - below_rows
    equal = (stop - start) - atmost_rows + below_rows + 1
    nq = None
    if n_low is not None:
        is_low = np.arange(npairs, dtype=np.int32) < n_low[:, None]
        nq = n_low[:, None] - (rows >> 16).astype(np.int32) + is_low
    lo, hi = (np.take_along_axis(rem, held[..., i].astype(np.intp), axis=1) for i in (0, 1))
    hole = (hi * (hi - 1) >> 1) + lo  # rem ascends: lo < hi
    return SortedCounts(rem=rem, order=order, cards=held, hole=hole.astype(np.int32),
                        rank=srank, below=below, equal=equal, not_qualified=nq)


def rank_hands(cards) -> np.ndarray:
    """Ranks of hands of 5 to 7 distinct cards, (..., k) int -> (...,) uint32: the compiled
    evaluator where it is available (no JAX import), else :func:`gpusim.evaluator.evaluate_np`;
    the same ranks."""
    if _native.loaded_library() is not None:
        return _native.rank_native(cards)
    from gpusim.evaluator import evaluate_np

    return evaluate_np(cards, check=False)


def board_counts(boards: np.ndarray, qualifier: int | None = None) -> BoardCounts:
    """Showdown counts of every player hole on each board.

    boards: (nb, k) int distinct cards, k in 3..5 (k < 5: the hands as they stand, no more
    cards to come; n = 52 - k unseen cards, C(n, 2) holes, C(n - 2, 2) dealer hands).
    qualifier: the lowest dealer rank that qualifies (a rank from
    :func:`gpusim.evaluator.evaluate`), or None for no qualification.
    """
    sc = sorted_counts(boards, qualifier)
    nb, npairs = sc.order.shape
    to_hand = (sc.order + (np.arange(nb, dtype=np.intp) * npairs)[:, None]).ravel()

    def unsort(a):
        return None if a is None else _scatter(a, to_hand).reshape(nb, npairs)

    return BoardCounts(rem=sc.rem, rank=unsort(sc.rank), below=unsort(sc.below),
                       equal=unsort(sc.equal), not_qualified=unsort(sc.not_qualified))

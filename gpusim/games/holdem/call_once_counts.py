"""The call-once hold'em shape's exact outcome counts (Casino Hold'em's shape): every (hole,
flop) situation's outcomes over the turn-river pairs and the dealer's hands, for a dealer
qualifier given as the lowest qualifying 7-card rank.

Loop over the 1,755 suit classes of flops F (weight = raw flops in the class). For each F the
1,176 turn-river pairs give 1,176 boards; for every board and hole the dealer hands (of 990)
by outcome are read from the 5-card class table (:mod:`gpusim.exact.fives`: each suit class
of 5-card boards counted once, by :func:`gpusim.exact.boards.board_counts`), one turn-river
pair per orbit of the flop's own suit symmetry. Summed over the boards that avoid the hole,
each (F, hole) gets 22 integer counts (:data:`EVENT_COUNTS`):

- ``nq[c]``: dealer does not qualify, player's final hand in pay class c (10 classes:
  the 9 categories, royal flush split from straight flush);
- ``qw[c]``: dealer qualifies, player wins, player's pay class c;
- ``tie``: dealer qualifies and ties; ``loss``: dealer qualifies and wins.

Per situation they sum to C(47, 2) * C(45, 2) = 1,070,190 (turn-river pairs x dealer hands).
Any paytable and any call/fold rule is then priced from these counts without re-enumerating
(:mod:`gpusim.games.holdem.call_once`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gpusim.board_index import board_classes, subsets
from gpusim.exact._parallel import attach
from gpusim.exact._profile import stage
from gpusim.exact.fives import (
    FIELD,
    binned_sums,
    flop_boards,
    hole_permutation_table,
    lookup,
    orbit_boards,
    symmetrize,
    two_stages,
)

__all__ = ["CH_OUTCOMES", "EVENT_COUNTS", "N_PAY_CLASSES", "TOTAL_DEALS", "ChCounts",
           "solve_counts"]

N_PAY_CLASSES = 10
"""Pay classes: category 0..8 (high card .. straight flush), 9 = royal flush."""
EVENT_COUNTS = 2 * N_PAY_CLASSES + 2
CH_OUTCOMES = 1081 * 990
"""Outcomes per (hole, flop): C(47, 2) turn-river pairs x C(45, 2) dealer hands."""
TOTAL_DEALS = 1326 * 19600 * CH_OUTCOMES
"""Every deal: hole (C(52,2)) x flop (C(50,3)) x turn-river (C(47,2)) x dealer (C(45,2))."""


@dataclass(frozen=True)
class ChCounts:
    """Counts for every canonical flop and every hole.

    flops: (1755, 3) int32 canonical flop of each class; weights: (1755,) raw flops per class.
    counts: (1755, 1326, 22) int32 outcome counts (zero rows where the hole meets the flop).
    valid: (1755, 1326) bool, the hole avoids the flop.
    bonus_rank: (1755, 1326) uint32 rank of the 5-card hand hole + flop (0 if invalid).
    qualifier: the qualifying 7-card rank used.
    """

    flops: np.ndarray
    weights: np.ndarray
    counts: np.ndarray
    valid: np.ndarray
    bonus_rank: np.ndarray
    qualifier: int


_M = (1 << FIELD) - 1


def _flop_rows(spec: tuple, ids: np.ndarray, reps: np.ndarray) -> int:
    with stage("sum the boards through their suit permutations"):
        return _flop_rows_impl(spec, ids, reps)


def _flop_rows_impl(spec: tuple, flop_ids: np.ndarray, flops: np.ndarray) -> int:
    """Sum the 5-card tables of each flop's 1,176 boards into its (1326, 22) count rows,
    written in place into the shared ``counts``."""
    arrays = attach(spec)
    perms = hole_permutation_table()
    # per suit permutation, each class-suit hole's bin in the flop's suits, in one plane of
    # 1,326 bins per pay class: one pass bins every board of a flop, whatever its permutation
    base = np.argsort(perms, axis=1)
    n_bins = 1326 * N_PAY_CLASSES
    for f, flop in zip(flop_ids, flops, strict=True):
        boards, size, stab = orbit_boards(flop)
        cls, perm = lookup(spec, boards)
        # (nq, qw) packed in one int32 per cell: the bins' sums stay below 2**42
        w, tie = binned_sums([arrays["w"], arrays["tie"]], arrays["pc"], cls, perm, size, base,
                             n_bins, code_stride=1326)  # fmt: skip
        s = w.reshape(N_PAY_CLASSES, 1326).T
        tie_sum = tie.reshape(N_PAY_CLASSES, 1326).sum(axis=0)
        nq, qw = s & _M, s >> FIELD
        if len(stab) > 1:  # spread the orbit sums over the flop's symmetric holes
            nq, qw, tie_sum = (symmetrize(a, perms[stab]) for a in (nq, qw, tie_sum))
        row = arrays["counts"][f]
        row[:, :N_PAY_CLASSES] = nq
        row[:, N_PAY_CLASSES : 2 * N_PAY_CLASSES] = qw
        row[:, -2] = tie_sum
        ok = ~(_HOLES[:, :, None] == flop[None, None, :]).any(axis=(1, 2))
        row[:, -1] = np.where(ok, CH_OUTCOMES - nq.sum(axis=1) - qw.sum(axis=1) - tie_sum, 0)
    return len(flop_ids)


_HOLES = subsets(2).astype(np.int32)


def solve_counts(
    qualifier: int,
    *,
    flop_ids: np.ndarray | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> ChCounts:
    """Enumerate every board; see the module docstring.

    qualifier: lowest qualifying dealer rank. flop_ids: restrict to these flop classes (tests);
    the other rows stay zero. progress(done, total) is called as flop classes finish.
    workers > 1 splits the work over that many processes.

    Two stages: the showdown cells of every 5-card board class the flops reach
    (:func:`gpusim.exact.fives.five_card_table`), then per flop class the sum of its 1,176
    boards' cells, each read through the board's suit permutation.
    """
    bcls = board_classes(3)
    n_cls = bcls.n_classes
    ids = np.arange(n_cls) if flop_ids is None else np.asarray(flop_ids)

    def needed_of(b5) -> np.ndarray:
        if flop_ids is None:
            return np.ones(b5.n_classes, dtype=np.int64)  # every 5-card board holds a flop
        boards = np.concatenate([flop_boards(bcls.reps[f]) for f in ids] or
                                [np.zeros((0, 5), np.int32)])
        return np.bincount(b5.lookup(boards)[0], minlength=b5.n_classes)

    chunks = [c for c in np.array_split(ids, max(1, len(ids) // 8)) if len(c)]
    extra = {"counts": ((n_cls, 1326, EVENT_COUNTS), np.int32)}
    out, _ = two_stages("ch", int(qualifier), needed_of, _flop_rows, chunks, bcls.reps, extra,
                        workers=workers, progress=progress)
    counts = out["counts"]
    valid = np.zeros((n_cls, 1326), dtype=bool)
    valid[ids] = ~(_HOLES[None, :, :, None] == bcls.reps[ids][:, None, None, :]).any(axis=(2, 3))
    bonus = np.zeros((n_cls, 1326), dtype=np.uint32)
    f, h = np.nonzero(valid)
    if len(f):
        five = np.concatenate([_HOLES[h], bcls.reps[f]], axis=1)
        from gpusim.evaluator import evaluate_np

        bonus[f, h] = evaluate_np(five, check=False)
    return ChCounts(
        flops=bcls.reps,
        weights=bcls.weights,
        counts=counts,
        valid=valid,
        bonus_rank=bonus,
        qualifier=int(qualifier),
    )

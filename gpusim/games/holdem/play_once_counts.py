"""The play-once hold'em shape by full enumeration: the counts behind its three decisions.

The shape (:mod:`gpusim.games.holdem.play_once`): an Ante and a Blind against the dealer, one
Play placed once at a multiple that shrinks street by street (Ultimate Texas Hold'em: 4x or 3x
pre-flop, 2x on the flop, 1x on the river, or a fold there), Trips on the final hand.

The river decision (Play or fold) is taken knowing the hole cards and the whole board, so
it is one bit per (5-card board suit class, hole): 134,459 x 1,326 cells. Each cell's
showdown counts come from the 5-card table that every solver shares
(:func:`gpusim.exact.fives.two_stages`, hands ranked once per suit class of boards), packed by
this shape's :data:`CELLS`: of the 990 dealer hands, those the player beats (``wins``), of them
those where the dealer does not qualify (``wn``), the ties (``t``), those that beat the player
and qualify (``lq``) and the rest (``ln``, not stored: 990 minus the others), with the player's
pay class. The same pass prices the river's Play against the fold from these counts and the config's
pays, so the river bits are exact and cost no second pass.

Then per flop suit class F (1,755) and hole (1,326), summed over the flop's 1,176 turn-river
boards (each read through its suit permutation; :func:`gpusim.exact.fives.orbit_boards`),
100 integer counts (:data:`N_COUNTS`): over every board (``A``: what a Play placed before the
river meets) and over the boards where the river bit says play (``R``):

- ``wins[c]``, ``wn[c]``, ``boards[c]``: dealer hands the player beats, those of them where the
  dealer does not qualify, and boards, by the player's pay class c (10), for A then R (60);
- ``t[c]``, ``lq[c]``: ties and qualifying dealer wins by the player's pay class, for A then R
  (40): the decisions read their totals, the report of a described game the joint outcome.

Per (F, hole) the A counts total 1,081 x 990 dealer outcomes (1,081 boards avoid the hole),
the R counts (boards played) x 990; the fold boards are the rest. Everything a decision above
the river needs is linear in these, so the flop and pre-flop decisions and the whole report
follow without enumerating again.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpusim.board_index import board_classes, subsets
from gpusim.exact._parallel import attach
from gpusim.exact._profile import stage
from gpusim.exact.boards import N_DEALER
from gpusim.exact.fives import (
    FIELD,
    CellKind,
    binned_sums,
    hole_bins,
    hole_permutation_table,
    lookup,
    orbit_boards,
    symmetrize,
    two_stages,
)

__all__ = [
    "CELLS",
    "A_BOARDS",
    "A_LQ",
    "A_T",
    "A_WINS",
    "A_WN",
    "N_COUNTS",
    "N_PAY",
    "R_BOARDS",
    "R_LQ",
    "R_T",
    "R_WINS",
    "R_WN",
    "RiverPrices",
    "PlayOnceCounts",
    "solve_counts",
]

N_PAY = 10
"""Pay classes: category 0..8 (high card .. straight flush), 9 = royal flush."""
N_COUNTS = 10 * N_PAY
_HOLES = subsets(2).astype(np.int32)
_M = (1 << FIELD) - 1

# The 5-card cells, laid out so that the second stage gathers rows and bins them, nothing else
# (it reads ten times as many cells as the first stage writes):
# - ``w``: float64 ``wins | wn << 21 | 1 << 42`` (exact: 53 bits), the last field counting
#   boards; zero where the hole meets the board;
# - ``tl``: int32 ``t | lq << 21`` (ties, qualifying losses; lq <= 990 < 2**10);
# - ``code``: uint8 ``play * 10 + pay class``: the river bit and the bin within the hole.
# The second stage bins ``w`` and ``tl`` by ``hole * 20 + code``, the hole in the flop's suits;
# sums over a flop's boards stay below 2**21 per field, so the packed fields add without
# carries.
_CODES = 2 * N_PAY  # bins per hole: (fold, play) x pay class

A_WINS, A_WN, A_BOARDS, R_WINS, R_WN, R_BOARDS = (
    slice(i * N_PAY, (i + 1) * N_PAY) for i in range(6))
A_T, A_LQ, R_T, R_LQ = (slice(i * N_PAY, (i + 1) * N_PAY) for i in range(6, 10))


class RiverPrices:
    """What the river decision weighs, as integers: the config's numbers, picklable.

    ante: the Ante (= Blind) stake; den: the common denominator of the Blind's pays;
    blind: (10,) int64 Blind pay x den by pay class (0 below a straight: a push);
    trips: the Trips stake when it must beat the dealer (so a fold forfeits its win), else 0;
    trips_pay: (10,) int64 Trips pay by pay class, -1 where it loses;
    river: the multiple of the Ante the river's Play places (Ultimate Texas Hold'em: 1).

    Values are money x den over dealer hands, Trips counted only where the decision changes
    it: :meth:`raised` and :attr:`kept` for playing on, :meth:`fold` for folding.
    """

    def __init__(self, ante: int, den: int, blind, trips: int, trips_pay, river: int = 1) -> None:
        self.ante, self.den, self.trips, self.river = int(ante), int(den), int(trips), int(river)
        self.blind = np.asarray(blind, dtype=np.int64)
        self.trips_pay = np.asarray(trips_pay, dtype=np.int64)
        self.kept = self.trips * self.den * np.maximum(self.trips_pay + 1, 0)
        """(10,) int64 Trips' value kept per dealer hand beaten, by pay class, by playing on
        (a fold forfeits the win only when Trips must beat the dealer: else all zero)."""

    def key(self) -> tuple:
        return (self.ante, self.den, tuple(self.blind.tolist()), self.trips,
                tuple(self.trips_pay.tolist()), self.river)

    def raised(self, m: int, wins, wn, lq, ln, blind_wins) -> np.ndarray:
        """Main-game value (money x den) of Play m x over dealer-hand counts (...,): wins, of
        them wn where the dealer does not qualify, qualifying (lq) and other (ln) losses;
        blind_wins: the Blind's pays summed over the wins (wins by pay class @ ``blind``).
        A tie pushes every bet."""
        wq = wins - wn
        return self.ante * (self.den * (wq * (m + 1) + wn * m - lq * (m + 2) - ln * (m + 1))
                            + blind_wins)

    def fold(self, dealer_hands) -> np.ndarray:
        """A fold's main-game value (money x den): Ante and Blind lost on every hand."""
        return -2 * self.ante * self.den * np.asarray(dealer_hands, dtype=np.int64)


def _cells(sc, pc: np.ndarray, param: tuple) -> dict:
    """The shape's 5-card cells and river bits (:class:`gpusim.exact.fives.CellKind`)."""
    qualifier, prices = param
    below, equal = sc.below.astype(np.int64), sc.equal.astype(np.int64)
    nq = sc.not_qualified.astype(np.int64)
    pq = sc.rank >= np.uint32(qualifier)  # the player's hand qualifies
    # A hand that does not qualify beats and ties only hands that do not either.
    wq = np.where(pq, below - nq, 0)
    wn = np.where(pq, nq, below)
    lq = np.where(pq, N_DEALER - below - equal, N_DEALER - nq)
    ln = N_DEALER - wq - wn - equal - lq
    pc = pc.astype(np.int64)
    wins = wq + wn
    main = prices.raised(prices.river, wins, wn, lq, ln, wins * prices.blind[pc])
    play = main + wins * prices.kept[pc] > prices.fold(N_DEALER)
    return {"w": (wins | (wn << FIELD) | (1 << 2 * FIELD)).astype(np.float64),
            "tl": (equal | (lq << FIELD)).astype(np.int32),
            "code": (play * N_PAY + pc).astype(np.uint8)}


CELLS = CellKind(layout={"w": np.float64, "tl": np.int32, "code": np.uint8}, cells=_cells,
                 qualified=True)
"""The shape's 5-card cells: packed counts, pay class and the river's Play bit."""


def _flop_rows(spec: tuple, flop_ids: np.ndarray, flops: np.ndarray) -> int:
    with stage("sum the boards through their suit permutations"):
        return _flop_rows_impl(spec, flop_ids, flops)


def _flop_rows_impl(spec: tuple, flop_ids: np.ndarray, flops: np.ndarray) -> int:
    """Sum each flop's boards' cells into its (1326, 100) count rows (shared ``counts``)."""
    arrays = attach(spec)
    n_bins = 1326 * _CODES
    # per suit permutation, each class-suit hole's bin base in the flop's own suits: the
    # permutation goes into the bin keys, so one pass per flop sums every board
    # (a board's class reads the flop-suit hole h at hole_permutation_table()[perm, h])
    # (code-major: one plane of 1,326 bins per code)
    perm_key = hole_bins()
    for f, flop in zip(flop_ids, flops, strict=True):
        boards, size, stab = orbit_boards(flop)
        cls, perm = lookup(spec, boards)
        # orbit weights: the fields still add without carries
        bins = binned_sums([arrays["w"], arrays["tl"]], arrays["code"], cls, perm, size,
                           perm_key, n_bins, code_stride=1326)  # fmt: skip
        s = bins.reshape(2, _CODES, 1326).transpose(0, 2, 1).reshape(2, 1326, 2, N_PAY)
        s_w, s_tl = s[0], s[1]  # per hole, fold/play and pay class: (1326, 2, 10)
        b_all, b_play = s_w[:, 0] + s_w[:, 1], s_w[:, 1]
        tl_all, tl_play = s_tl[:, 0] + s_tl[:, 1], s_tl[:, 1]
        parts = [b_all & _M, (b_all >> FIELD) & _M, b_all >> 2 * FIELD,
                 b_play & _M, (b_play >> FIELD) & _M, b_play >> 2 * FIELD,
                 tl_all & _M, tl_all >> FIELD, tl_play & _M, tl_play >> FIELD]
        if len(stab) > 1:  # spread the orbit sums over the flop's symmetric holes
            parts = [symmetrize(p, hole_permutation_table()[stab]) for p in parts]
        row = arrays["counts"][f]
        for at, part in zip((A_WINS, A_WN, A_BOARDS, R_WINS, R_WN, R_BOARDS), parts[:6],
                            strict=True):
            row[:, at] = part
        row[:, A_T], row[:, A_LQ], row[:, R_T], row[:, R_LQ] = parts[6:]
    return len(flop_ids)


class PlayOnceCounts:
    """The enumeration's result (see the module docstring).

    flops: (1755, 3) int32 canonical flops; weights: (1755,) int64 raw flops per class;
    counts: (1755, 1326, 100) int32; valid: (1755, 1326) bool (the hole avoids the flop);
    river: (134459, 1326) bool, Play 1x at (5-card class, hole in the class's suits);
    key: the :meth:`RiverPrices.key` and qualifier the river bits were priced with.
    """

    def __init__(self, flops, weights, counts, valid, river, key) -> None:
        self.flops, self.weights, self.counts = flops, weights, counts
        self.valid, self.river, self.key = valid, river, key


def solve_counts(
    qualifier: int,
    prices: RiverPrices,
    *,
    flop_ids: np.ndarray | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> PlayOnceCounts:
    """Enumerate every deal; see the module docstring.

    qualifier: the lowest qualifying dealer rank (:func:`gpusim.games.base.qualifier_threshold`).
    flop_ids: restrict to these flop classes (tests); the other rows stay zero, and only the
    5-card classes their boards reach get river bits. progress(done, total) as flop classes
    finish; workers > 1 splits the work over that many processes.
    """
    bcls = board_classes(3)
    n_cls = bcls.n_classes
    ids = np.arange(n_cls) if flop_ids is None else np.asarray(flop_ids)

    def needed_of(b5) -> np.ndarray:
        if flop_ids is None:
            return np.ones(b5.n_classes, dtype=np.int64)
        from gpusim.exact.fives import flop_boards

        boards = np.concatenate([flop_boards(bcls.reps[f]) for f in ids])
        return np.bincount(b5.lookup(boards)[0], minlength=b5.n_classes)

    chunks = [c for c in np.array_split(ids, max(1, len(ids) // 8)) if len(c)]
    extra = {"counts": ((n_cls, 1326, N_COUNTS), np.int32)}
    out, _ = two_stages(CELLS, (int(qualifier), prices), needed_of, _flop_rows, chunks,
                        bcls.reps, extra, workers=workers, progress=progress, keep=("code",))
    valid = ~(_HOLES[None, :, :, None] == bcls.reps[:, None, None, :]).any(axis=(2, 3))
    return PlayOnceCounts(flops=bcls.reps, weights=bcls.weights.astype(np.int64),
                     counts=out["counts"], valid=valid, river=out["code"] >= N_PAY,
                     key=(int(qualifier), prices.key()))

"""The play-once hold'em shape's exact solver: the optimal decision at all three points, from
the enumeration's integer counts (:mod:`.play_once_counts`).

The shape: hole cards, a flop of three, then the turn and the river together; an Ante and an
equal Blind against the dealer, and one Play, placed once: pre-flop at one of the multiples
:attr:`PlayTree.preflop` (or a check), after a check on the flop at :attr:`PlayTree.flop` (or a
check), after a second check on the river at :attr:`PlayTree.river` or a fold. Ultimate Texas
Hold'em is (4x, 3x), 2x, 1x; a described game of this shape states its own multiples.

Backward from the river (every value an integer, money x the Blind's pay denominator):

- river, per (5-card board class, hole): Play iff it is worth more than the fold (priced
  in the enumeration itself: the river bits);
- flop, per (flop class, hole): Play iff it is worth more than checking, a check being
  worth the river's best answer on each of the 1,081 turn-river boards;
- pre-flop, per starting-hand class (169): the best of check (the flop's best answer) and
  each Play multiple, summed over every flop.

Ties go to the less committal action (fold, check, the earlier multiple in the tree's order).
Trips counts in a decision only where a fold forfeits its win (``trips_must_beat``); otherwise
it settles the same whatever the player does. The solution is small (the three tables, the
per-path outcome totals and the 169 hands' values) and is cached per qualifier, prices and tree.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from gpusim.exact.boards import N_DEALER
from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir, count_solver, progress_bar
from gpusim.exact.fives import HOLE_CLASS
from gpusim.games.holdem.play_once_counts import (
    A_BOARDS,
    A_LQ,
    A_T,
    A_WINS,
    A_WN,
    N_COUNTS,
    N_PAY,
    R_BOARDS,
    R_LQ,
    R_T,
    R_WINS,
    R_WN,
    PlayOnceCounts,
    RiverPrices,
    solve_counts,
)
from gpusim.games.holdem.play_once_shape import PlayTree

__all__ = ["FIELDS", "TOTAL_DEALS", "PlayTree", "Solution", "decide", "solve"]

TOTAL_DEALS = 1326 * 19600 * 1081 * N_DEALER
"""Every deal: hole C(52,2) x flop C(50,3) x turn-river C(47,2) x dealer hole C(45,2)."""
FIELDS = 5 * N_PAY
"""A path's outcome row: wins, dealer-not-qualified wins, dealer hands dealt, ties and
qualifying losses, each by the player's pay class (10 each)."""
WINS, WN, DEALT, TIES, LQ = (slice(i * N_PAY, (i + 1) * N_PAY) for i in range(5))
_CHUNK = 64  # flop classes priced at a time (their counts as float64: 68 MB)


@dataclass(frozen=True)
class Solution:
    """The optimal strategy and what it meets.

    preflop: (169,) int8 pre-flop action index by starting-hand class; flop: (1755, 1326) bool
    Play on the flop; river: (134459, 1326) bool Play on the river;
    values: (169, A) int64 summed value (money x den) of every pre-flop action (A: the tree's
    pre-flop actions, in its order) per class, Trips' kept return included where a fold
    forfeits it; values_main: the same without Trips;
    paths: (P, :data:`FIELDS`) int64 outcome totals of each of ``tree.paths()``, every deal
    weighted; fold: (:data:`FIELDS`,) the same for the river folds (nothing is won there: the
    fields say what the dealer held); key: what it was priced with.
    """

    preflop: np.ndarray
    flop: np.ndarray
    river: np.ndarray
    values: np.ndarray
    values_main: np.ndarray
    paths: np.ndarray
    fold: np.ndarray
    tree: PlayTree
    key: tuple

    @property
    def multiples(self) -> tuple[int, ...]:
        return tuple(m for m, _ in self.tree.paths())

    @property
    def folds(self) -> np.ndarray:
        """(10,) deals that fold on the river, by the player's pay class."""
        return self.fold[DEALT]

    @property
    def n_folds(self) -> int:
        return int(self.folds.sum())


# decide's per (flop, hole) sums, for every board then the boards played (:func:`_sums`)
_W, _WN, _BOARDS, _BLIND, _KEPT, _T, _LQ = range(7)
_SLICES = ((A_WINS, A_WN, A_BOARDS, A_T, A_LQ), (R_WINS, R_WN, R_BOARDS, R_T, R_LQ))


def _sum_map(prices: RiverPrices) -> np.ndarray:
    """(100, 14) float64: the linear map from a (flop, hole)'s counts to what its decisions
    weigh, for every board (columns 0..6) then the boards played (7..13): wins, wn, boards,
    the Blind's pays and the Trips kept over the wins, ties, qualifying losses."""
    m = np.zeros((N_COUNTS, 14))
    for k, (wins, wn, boards, t, lq) in enumerate(_SLICES):
        at = 7 * k
        m[wins, at + _W], m[wn, at + _WN], m[boards, at + _BOARDS] = 1, 1, 1
        m[wins, at + _BLIND], m[wins, at + _KEPT] = prices.blind, prices.kept
        m[t, at + _T], m[lq, at + _LQ] = 1, 1
    if np.abs(m).max() >= 2**32:
        raise ValueError(f"pays: {np.abs(m).max():.0f} x the Ante is not allowed in an exact "
                         "solve; pays must stay below 2**32")
    return m


def _as_float(counts: np.ndarray) -> np.ndarray:
    """(n, 100) float64 counts of a block of flops, for the sums below to go through BLAS.

    They stay exact: every partial sum is an integer below 2**53. Per (flop, hole) a count is
    at most 1,081 boards x 990 dealer hands (< 2**20), times a pay of at most 2**32
    (:func:`_sum_map` checks it); over all flops with their weights the counts add up to at
    most the 2.8 x 10**13 deals (< 2**45)."""
    return counts.reshape(-1, N_COUNTS).astype(np.float64)


def _sums(c: np.ndarray, m: np.ndarray) -> np.ndarray:
    return np.rint(c @ m).astype(np.int64)


def _value(prices: RiverPrices, mult: int, x: np.ndarray, *, kept: bool = True) -> np.ndarray:
    """Value (money x den) of a Play of ``mult`` x over sums (..., 7) as :func:`_sum_map`
    gives; ``kept``: with the Trips' return the Play keeps."""
    wins, wn, boards, t, lq = (x[..., i] for i in (_W, _WN, _BOARDS, _T, _LQ))
    ln = N_DEALER * boards - wins - t - lq
    main = prices.raised(mult, wins, wn, lq, ln, x[..., _BLIND])
    return main + x[..., _KEPT] if kept else main


def decide(counts: PlayOnceCounts, prices: RiverPrices, tree: PlayTree) -> Solution:
    """The optimal flop and pre-flop decisions over the counts (whose river bits were priced
    with the same ``prices``), and the outcome totals of the strategy."""
    n_flops = len(counts.weights)
    flop = np.zeros((n_flops, 1326), dtype=bool)
    n_pre = tree.n_preflop
    per_hole = np.zeros((2, n_pre, 1326), dtype=np.int64)  # with Trips kept, main only
    m = _sum_map(prices)
    for a in range(0, n_flops, _CHUNK):
        part = slice(a, a + _CHUNK)
        x = _sums(_as_float(counts.counts[part]), m).reshape(-1, 1326, 14)
        every, played = x[..., :7], x[..., 7:]
        w = counts.weights[part, None]
        fold_boards = prices.fold(N_DEALER * (every[..., _BOARDS] - played[..., _BOARDS]))
        check = _value(prices, prices.river, played) + fold_boards
        bet = _value(prices, tree.flop[1], every)
        play = (bet > check) & counts.valid[part]
        flop[part] = play
        per_hole[0, tree.preflop_check] += (w * np.maximum(bet, check)).sum(axis=0)
        per_hole[1, tree.preflop_check] += (w * np.where(
            play, _value(prices, tree.flop[1], every, kept=False),
            _value(prices, prices.river, played, kept=False) + fold_boards)).sum(axis=0)
        for k, mult in tree.preflop:
            per_hole[0, k] += (w * _value(prices, mult, every)).sum(axis=0)
            per_hole[1, k] += (w * _value(prices, mult, every, kept=False)).sum(axis=0)
    values = np.zeros((2, 169, n_pre), dtype=np.int64)
    for v in range(2):
        for k in range(n_pre):
            np.add.at(values[v, :, k], HOLE_CLASS, per_hole[v, k])
    preflop = np.argmax(values[0], axis=1).astype(np.int8)  # the first of equal values
    paths, fold = _path_totals(counts, preflop, flop, tree)
    return Solution(preflop=preflop, flop=flop, river=counts.river, values=values[0],
                    values_main=values[1], paths=paths, fold=fold, tree=tree, key=counts.key)


def _path_totals(counts: PlayOnceCounts, preflop: np.ndarray, flop: np.ndarray,
                 tree: PlayTree) -> tuple[np.ndarray, np.ndarray]:
    """(P, FIELDS) outcome totals per path and (FIELDS,) those of the river folds, each deal
    counted once."""
    pre = preflop[HOLE_CLASS]  # (1326,) the action of every hole
    paths = tree.paths()
    total = np.zeros((len(paths), N_COUNTS), dtype=np.int64)  # deal-weighted counts
    checked = pre[None, :] == tree.preflop_check
    for a in range(0, len(counts.weights), _CHUNK):
        part = slice(a, a + _CHUNK)
        c = _as_float(counts.counts[part])
        w = counts.weights[part, None] * counts.valid[part]
        masks = [pre[None, :] == took["preflop"] for _, took in paths[:-2]]
        masks += [checked & flop[part], checked & ~flop[part]]
        for p, mask in enumerate(masks):
            total[p] += _sums((w * mask).reshape(-1).astype(np.float64), c)
    out = np.zeros((len(paths), FIELDS), dtype=np.int64)
    for p in range(len(paths)):
        wins, wn, boards, t, lq = _SLICES[p == len(paths) - 1]
        out[p] = np.concatenate([total[p, wins], total[p, wn], total[p, boards] * N_DEALER,
                                 total[p, t], total[p, lq]])
    river = total[len(paths) - 1]
    fold = np.concatenate([river[a] - river[r] for a, r in zip(*_SLICES, strict=True)])
    fold[DEALT] *= N_DEALER
    return out, fold


def solve(qualifier: int, prices: RiverPrices, tree: PlayTree, *, progress: str | None = None,
          backend: str = "cpu") -> Solution:
    """The solution for a qualifier (0: the dealer always qualifies), prices and tree: cached,
    else enumerated now and cached. ``progress``: the progress bar's title, or None."""
    key = (qualifier, prices.key(), tree)
    path = cache_dir() / _cache_name(key)
    if path.is_file():
        with np.load(path) as z:
            n5 = tuple(z["river_shape"])
            return Solution(preflop=z["preflop"], flop=z["flop"],
                            river=np.unpackbits(z["river"], count=int(np.prod(n5)))
                            .astype(bool).reshape(n5),
                            values=z["values"], values_main=z["values_main"],
                            paths=z["paths"], fold=z["fold"], tree=tree, key=key[:2])
    update, stop = progress_bar(progress) if progress else (None, None)
    try:
        counts = count_solver(solve_counts, _no_gpu, backend)(qualifier, prices,
                                                              progress=update)
    finally:
        if stop:
            stop()
    sol = decide(counts, prices, tree)
    atomic_savez(path, level=1, preflop=sol.preflop, flop=sol.flop,
                 river=np.packbits(sol.river), river_shape=np.array(sol.river.shape),
                 values=sol.values, values_main=sol.values_main, paths=sol.paths,
                 fold=sol.fold)
    return sol


def cache_name(qualifier: int, prices: RiverPrices, tree: PlayTree) -> str:
    """The cache file of a solution (:func:`solve`)."""
    return _cache_name((qualifier, prices.key(), tree))


def _cache_name(key: tuple) -> str:
    digest = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
    return f"holdem_play_once_{digest}_v{FORMAT}.npz"


def _no_gpu():
    raise ValueError("backend 'cupy': the hold'em play-once exact counts run on the CPU "
                     "only; use --backend cpu")

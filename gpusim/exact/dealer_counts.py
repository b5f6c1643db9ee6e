"""Dealer hands counted, not dealt: how many of the dealer's possible hands hold the face-up
cards, avoid every other card in view, and rank below a threshold, by inclusion-exclusion over
cumulative rank tables (:class:`DealerCounts`). The described games' exact solver
(:mod:`gpusim.games.described.solver`) reads a showdown's six outcome counts from it.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from gpusim.board_index import set_index, subsets_from_index
from gpusim.evaluator import evaluate_np, evaluate_three_np

__all__ = ["DealerCounts", "rank_np"]


def rank_np(cards: np.ndarray, ranking: str) -> np.ndarray:
    """(N,) uint32 packed rank of each row's cards: ``three_card`` or ``poker`` ranking."""
    c = np.ascontiguousarray(cards, np.int32)
    return (evaluate_three_np(c, check=False) if ranking == "three_card"
            else evaluate_np(c, check=False)).astype(np.uint32)


class DealerCounts:
    """Counts of the dealer hands (``size`` cards of ``deck``) that hold the up cards and avoid
    the other cards in view, below a rank threshold.

    ``N(T, t)``, the hands holding the card set T with rank ordinal below t, is read from a
    cumulative table per subset size (dense where it fits, else sorted keys and a binary
    search); the hands that avoid the cards X in view are ``sum over S of X (-1)^|S| N(U + S,
    t)`` (|U + S| <= size). Ordinals are ranks among the distinct ranks of the deck's hands.
    """

    def __init__(self, deck: tuple[int, ...], size: int, ranking: str, qualifier_rank: int):
        self.size = size
        allc = subsets_from_index(np.arange(math.comb(52, size)), size)
        in_deck = np.isin(allc, np.array(deck)).all(axis=1)
        hands = allc[in_deck]
        rank = rank_np(hands, ranking)
        self.distinct = np.unique(rank)
        ordinal = np.searchsorted(self.distinct, rank).astype(np.int64)
        n_r = len(self.distinct)
        self.n_ranks = n_r
        self.q = int(np.searchsorted(self.distinct, np.uint32(qualifier_rank)))
        self.dense: dict[int, np.ndarray] = {}
        self.segments: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, int]] = {}
        self.qual: dict[int, np.ndarray] = {}
        self.cum0 = np.concatenate([[0], np.cumsum(np.bincount(ordinal, minlength=n_r))])
        self.whole = np.full(math.comb(52, size), -1, np.int64)  # the hand itself (j = size)
        self.whole[set_index(hands)] = ordinal
        below_q = ordinal < self.q
        for j in range(1, size):
            t = np.concatenate([_colex_sorted(hands[:, list(c)]) for c in
                                combinations(range(size), j)])
            o = np.tile(ordinal, math.comb(size, j))
            n_t = math.comb(52, j)
            self.qual[j] = np.bincount(t, weights=np.tile(below_q, math.comb(size, j)),
                                       minlength=n_t).astype(np.int64)
            per_t = np.bincount(t, minlength=n_t)
            if n_t * (n_r + 1) <= 200_000_000:
                self.dense[j] = _cumulative(t, o, n_t, n_r, int(per_t.max()))
            else:
                # sorted ordinals per subset, searched within the subset's own segment
                key = np.sort(t * (n_r + 1) + o)  # one int64 sort: faster than a lexsort
                start = np.concatenate([[0], np.cumsum(per_t)])[:-1].astype(np.int64)
                steps = int(per_t.max()).bit_length()
                self.segments[j] = ((key % (n_r + 1)).astype(np.int32), start,
                                    per_t.astype(np.int64), steps)

    def ordinals(self, rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(distinct dealer ranks below, at or below) each packed player rank."""
        r = rank.astype(np.uint32)
        return (np.searchsorted(self.distinct, r, "left").astype(np.int64),
                np.searchsorted(self.distinct, r, "right").astype(np.int64))

    def _n(self, j: int, t_idx: np.ndarray, thr: np.ndarray | None) -> np.ndarray:
        """N(T, thr) for T of size j by index; thr None: the qualifier."""
        if j == 0:
            return (self.cum0[self.q] if thr is None else self.cum0[thr]) + 0 * t_idx
        if j == self.size:
            o = self.whole[t_idx]
            return ((o >= 0) & (o < (self.q if thr is None else thr))).astype(np.int64)
        if thr is None:
            return self.qual[j][t_idx]
        if j in self.dense:
            return self.dense[j][t_idx, thr].astype(np.int64)
        values, start, length, steps = self.segments[j]
        # a lower bound by bisection inside each query's segment: a few gathers per query
        # instead of a binary search over every subset's keys
        lo = start[t_idx]
        hi = lo + length[t_idx]
        for _ in range(steps):
            mid = (lo + hi) >> 1
            go = (lo < hi) & (values[np.minimum(mid, len(values) - 1)] < thr)
            lo = np.where(go, mid + 1, lo)
            hi = np.where(go, hi, mid)
        return lo - start[t_idx]

    def showdown(self, up: np.ndarray, others: np.ndarray, player_rank: np.ndarray,
                 n_avoiding: int) -> np.ndarray:
        """(N, 6) int64 dealer hands by showdown code
        (:data:`gpusim.games.described.layout.SHOWDOWN`) for each row: ``up`` (N, u) the
        dealer's face-up cards, ``others`` (N, x) every other card in view,
        ``player_rank`` (N,) packed, ``n_avoiding`` the dealer hands that avoid the cards in
        view (the same for every row)."""
        n = len(others)
        lt, le = self.ordinals(player_rank)
        below = {"lt": np.zeros(n, np.int64), "le": np.zeros(n, np.int64),
                 "q": np.zeros(n, np.int64)}
        u = up.shape[1]
        for s in range(0, min(self.size - u, others.shape[1]) + 1):
            sign = -1 if s % 2 else 1
            for combo in combinations(range(others.shape[1]), s):
                t_cards = np.concatenate([up, others[:, list(combo)]], axis=1)
                j = u + s
                t_idx = set_index(t_cards) if j else np.zeros(n, np.int64)
                below["lt"] += sign * self._n(j, t_idx, lt)
                below["le"] += sign * self._n(j, t_idx, le)
                below["q"] += sign * self._n(j, t_idx, None)
        a_lt, a_le, a_q = below["lt"], below["le"], below["q"]
        q = self.q
        lo_lt, lo_le = np.where(lt < q, a_lt, a_q), np.where(le < q, a_le, a_q)
        hi_lt, hi_le = np.where(lt > q, a_lt, a_q), np.where(le > q, a_le, a_q)
        out = np.stack([lo_lt, lo_le - lo_lt, a_q - lo_le,
                        hi_lt - a_q, hi_le - hi_lt, n_avoiding - hi_le], axis=1)
        assert (out >= 0).all()
        return out


_BINOM = np.array([[math.comb(n, k) for k in range(8)] for n in range(53)], np.int64)


def _colex_sorted(cards: np.ndarray) -> np.ndarray:
    """:func:`gpusim.board_index.set_index` of rows already sorted ascending (no sort)."""
    out = np.zeros(len(cards), np.int64)
    for i in range(cards.shape[1]):
        out += _BINOM[cards[:, i], i + 1]
    return out


def _cumulative(t: np.ndarray, o: np.ndarray, n_t: int, n_r: int, most: int) -> np.ndarray:
    """(n_t, n_r + 1) counts of the hands holding subset t with ordinal below each threshold,
    in the smallest integer type that holds ``most``; built a block of subsets at a time so the
    histogram never needs n_t x n_r int64."""
    dtype = np.int16 if most < 2**15 else np.int32
    cum = np.zeros((n_t, n_r + 1), dtype)
    block = max(1, 20_000_000 // n_r)
    for lo in range(0, n_t, block):
        hi = min(lo + block, n_t)
        sel = (t >= lo) & (t < hi)  # a few passes over t cost less than sorting it
        hist = np.bincount((t[sel] - lo) * n_r + o[sel], minlength=(hi - lo) * n_r)
        np.cumsum(hist.reshape(hi - lo, n_r), axis=1, out=cum[lo:hi, 1:])
    return cum
